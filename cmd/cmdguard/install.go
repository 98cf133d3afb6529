package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/adapter/hook"
	"github.com/cmdguard/cmdguard/adapter/settings"
)

func (c *cli) install(args []string) int {
	flags := c.flagSet("install")
	user := flags.Bool("user", false, "install for the user (~/.claude, ~/.gemini, $CODEX_HOME, ~/.cursor, ~/Documents/Cline)")
	flags.Bool("project", true, "install in the project (the default)")
	uninstall := flags.Bool("uninstall", false, "remove what install added")
	dir := flags.String("dir", ".", "the project `DIR`")
	askAsDeny := flags.Bool("ask-as-deny", false, "the hook answers ask as deny (headless runs)")
	bin := flags.String("bin", "", "the cmdguard `PATH` the hook runs (default: cmdguard when that is this program on PATH, else this program's absolute path)")
	dryRun := flags.Bool("dry-run", false, "show the change, write nothing")
	sandbox := flags.Bool("sandbox", false, "claude, codex, gemini: the hook runs allowed commands under cmdguard's kernel sandbox (cmdguard run --sandbox); the default for them")
	noSandbox := flags.Bool("no-sandbox", false, "claude, codex, gemini: the hook only checks; allowed commands run as the agent runs them, and runners of project code (go test, npm test, make) ask")
	mcp := flags.Bool("mcp", false, "add cmdguard's MCP server (cmdguard mcp) to the agent's MCP servers instead of the hook (claude, cursor, gemini)")
	if isHelp(args) {
		c.parseFlags(flags, []string{"--help"})
		return 0
	}
	// Flags may come before or after AGENT (issue 30: install --dry-run
	// claude was refused).
	pos, err := c.interleaved(flags, args)
	if err != nil {
		return c.errorf("install: %v", err)
	}
	if len(pos) != 1 {
		if len(pos) == 0 {
			return c.errorf("install: name the agent: claude, gemini, codex, cursor, cline, opencode or kilo (cmdguard install --help)")
		}
		return c.errorf("install: one AGENT, got %q", pos)
	}
	agent, err := hook.ParseAgent(pos[0])
	if err != nil {
		return c.errorf("install: %v", err)
	}
	// The sandboxed rewrite is the default where the agent's hook can
	// rewrite a command (issue 24): what the sandbox enforces is then not
	// asked about. An explicit --sandbox where it cannot is refused below.
	if *sandbox && *noSandbox {
		return c.errorf("install: --sandbox and --no-sandbox contradict each other")
	}
	if !*sandbox && !*noSandbox && !*mcp && hook.Rewrites(agent) {
		*sandbox = true
	}
	project, err := filepath.Abs(*dir)
	if err != nil {
		return c.errorf("install: %v", err)
	}
	home, err := os.UserHomeDir()
	if err != nil && *user {
		return c.errorf("install: %v", err)
	}
	scope := settings.Project
	if *user {
		scope = settings.User
	}
	loc := settings.Locations{Project: project, Home: home, CodexHome: os.Getenv("CODEX_HOME")}
	self, err := agentBin(*bin)
	if err != nil {
		return c.errorf("install: %v", err)
	}
	var ss []settings.Settings
	command := self
	switch {
	case agent == hook.Opencode || agent == hook.Kilo:
		if *mcp {
			return c.errorf("install: --mcp is for claude, cursor and gemini; %s gets cmdguard's plugin", agent)
		}
		argv := []string{self, "hook", "--agent", string(agent)}
		if *sandbox {
			argv = append(argv, "--sandbox")
		}
		ss, err = settings.PluginSettings(agent, scope, loc, argv)
	case *mcp:
		var s settings.Settings
		s, err = settings.MCPSettings(agent, scope, loc, self)
		ss = []settings.Settings{s}
	default:
		var s settings.Settings
		if command, err = hookCommand(self, agent, *askAsDeny, *sandbox); err == nil {
			s, err = settings.HookSettings(agent, scope, loc, command)
		}
		ss = []settings.Settings{s}
	}
	if err != nil {
		return c.errorf("install: %v", err)
	}
	wrote := false
	for _, s := range ss {
		w, rc := c.writeSettings(s, *uninstall, *dryRun)
		if rc != 0 {
			return rc
		}
		wrote = wrote || w
	}
	if !wrote || *dryRun {
		return 0
	}
	note := afterInstall(agent, *uninstall, *sandbox)
	if *mcp {
		note = ""
	}
	fmt.Fprint(c.stdout, note)
	if !*uninstall && scope == settings.Project && strings.HasPrefix(command, "/") {
		fmt.Fprintf(c.stdout, "The hook runs cmdguard by its absolute path; if this file is shared, put cmdguard on PATH and install with --bin cmdguard.\n")
	}
	return 0
}

// writeSettings installs (or uninstalls) s in its file, printing the
// diff; wrote reports a change written (or, with dryRun, shown).
func (c *cli) writeSettings(s settings.Settings, uninstall, dryRun bool) (wrote bool, rc int) {
	before, err := os.ReadFile(s.File)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, c.errorf("install: %v", err)
	}
	existed := err == nil
	var after []byte
	remove := false
	if uninstall {
		after, remove, err = s.Uninstall(before)
	} else {
		after, err = s.Install(before)
	}
	if err != nil {
		return false, c.errorf("install: %v", err)
	}
	switch {
	case remove && existed:
		fmt.Fprintf(c.stdout, "remove %s (nothing but cmdguard's hook was in it)\n", s.File)
		fmt.Fprint(c.stdout, lineDiff(s.File, string(before), ""))
	case remove || string(after) == string(before):
		fmt.Fprintf(c.stdout, "%s: nothing to change\n", s.File)
		return false, 0
	default:
		fmt.Fprint(c.stdout, lineDiff(s.File, string(before), string(after)))
	}
	if dryRun {
		fmt.Fprintln(c.stdout, "(dry run: nothing written)")
		return true, 0
	}
	if remove {
		if err := os.Remove(s.File); err != nil {
			return false, c.errorf("install: %v", err)
		}
		return true, 0
	}
	mode := fs.FileMode(0o644)
	if s.Script != "" && s.Mark == "" {
		mode = 0o755 // a hook script; a plugin is not run by itself
	}
	if err := writeFile(s.File, after, mode); err != nil {
		return false, c.errorf("install: %v", err)
	}
	fmt.Fprintf(c.stdout, "wrote %s\n", s.File)
	return true, 0
}

// afterInstall says what a person still has to do.
func afterInstall(agent hook.Agent, uninstall, sandbox bool) string {
	if uninstall {
		return ""
	}
	switch agent {
	case hook.Codex:
		s := "Codex runs hooks it trusts: approve it in the TUI's /hooks (codex exec: --dangerously-bypass-hook-trust), and project hooks only in trusted projects.\nCodex cannot ask: cmdguard's ask is a deny there, with the reason.\n"
		if sandbox {
			s += "--sandbox needs a Codex that applies a hook's updatedInput (0.169.0 does); one that ignores it runs the command as the model wrote it, unsandboxed.\n"
		}
		return s
	case hook.Gemini:
		s := "Gemini CLI fingerprints project hooks: it asks you to trust this one once. Headless runs (gemini -p) wait forever on an ask: install with --ask-as-deny for them.\n"
		if sandbox {
			s += "--sandbox needs a Gemini CLI that applies a hook's hookSpecificOutput.tool_input (0.61.0 does); one that ignores it runs the command as the model wrote it, unsandboxed.\n"
		}
		return s
	case hook.Cline:
		return "Turn hooks on in Cline (CLI: cline config set hooks-enabled=true).\n"
	case hook.Opencode, hook.Kilo:
		s := "A plugin cannot ask: cmdguard's ask is a deny there, with the reason. Restart " + string(agent) + " to load the plugin.\n"
		if sandbox {
			s += "--sandbox needs a version of " + string(agent) + " that runs a tool with the args object its plugins saw (opencode 1.18.33 and Kilo CLI 7.7.7 do); one that copies them runs the command as the model wrote it, unsandboxed.\n"
		}
		return s
	}
	return ""
}

// hookCommand is the shell line the agent runs.
func hookCommand(bin string, agent hook.Agent, askAsDeny, sandbox bool) (string, error) {
	args := []string{"hook", "--agent", string(agent)}
	if askAsDeny {
		args = append(args, "--ask-as-deny")
	}
	if sandbox {
		if !hook.Rewrites(agent) {
			return "", fmt.Errorf("--sandbox rewrites the command the agent runs (Claude Code's and Codex's updatedInput, Gemini CLI's tool_input); %s's hook cannot rewrite a command, so runners such as go test ask there under the default policy; to let them run, allow them in .cmdguard.yaml (allow: [go test]), best with %s itself running in a sandbox (README, \"Hook\")", agent, agent)
		}
		args = append(args, "--sandbox")
	}
	return cmdguard.CommandLine(bin, args)
}

func sameFile(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// writeFile replaces path with data atomically, keeping the mode of a file
// that exists.
func writeFile(path string, data []byte, mode fs.FileMode) error {
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".cmdguard-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// lineDiff is a small unified-style diff of two texts by lines: the
// changed lines with two lines of context.
func lineDiff(name, a, b string) string {
	al, bl := splitLines(a), splitLines(b)
	// Longest common subsequence table (settings files are small).
	n, m := len(al), len(bl)
	if n*m > 4_000_000 {
		return fmt.Sprintf("--- %s\n+++ %s\n(%d lines → %d lines: too large to show)\n", name, name, n, m)
	}
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if al[i] == bl[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	type line struct {
		op   byte
		text string
	}
	var lines []line
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && al[i] == bl[j]:
			lines = append(lines, line{' ', al[i]})
			i, j = i+1, j+1
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			lines = append(lines, line{'+', bl[j]})
			j++
		default:
			lines = append(lines, line{'-', al[i]})
			i++
		}
	}
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", name, name)
	last := -1
	for k, l := range lines {
		near := false
		for d := max(0, k-2); d <= min(len(lines)-1, k+2); d++ {
			if lines[d].op != ' ' {
				near = true
			}
		}
		if !near {
			continue
		}
		if last >= 0 && k > last+1 {
			out.WriteString("@@\n")
		}
		fmt.Fprintf(&out, "%c%s\n", l.op, l.text)
		last = k
	}
	return out.String()
}

func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}
