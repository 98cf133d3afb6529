// Package hook answers the pre-tool hooks of the coding agents people
// already run — Claude Code, Gemini CLI, Codex CLI, Cursor, Cline, and
// opencode and the Kilo CLI through cmdguard's plugin for them — with
// cmdguard's verdict, in each agent's own dialect. Writing the hook into
// each agent's settings and reading the agents' own rules as a policy is
// package [github.com/cmdguard/cmdguard/adapter/settings].
//
// [Run] reads one hook input (JSON on stdin), finds the shell command and
// the directory it runs in, checks it with the [cmdguard.Guard] of the
// session's project, and writes the agent's answer. The agents' own file
// tools (Claude Code's Read, Edit, MultiEdit, Write, NotebookEdit and
// Grep; Gemini's read_file, write_file and replace; Cursor's
// beforeReadFile; Cline's read_file, write_to_file, replace_in_file and
// search_files; opencode's and Kilo's read, write, edit, grep, glob, list
// and apply_patch) are judged with [cmdguard.Guard.CheckFile]; every other
// tool passes untouched. The policy is the one found from the command's
// directory inside the session's project, never from a directory the
// model named for one call.
//
// # Security
//
// A hook never fails open. Bad input, an unknown dialect, a missing
// command, an input over [Options.MaxInput], a policy that does not load,
// a panic and running out of [Options.Timeout] all end in that agent's
// deny — and, for the agents that block on it (Claude Code, Gemini CLI,
// Codex), exit code 2 with the reason on stderr, so that even an agent
// that could not read the JSON blocks. When the dialect is unknown, the
// answer is a deny in every dialect at once. An ask is answered as a deny
// where the agent cannot ask (Codex, Cline, opencode and Kilo's plugin), and wherever
// [Options.AskAsDeny] is set (headless runs).
package hook

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/cmdguard/cmdguard"
)

// Agent names a hook dialect.
type Agent string

// The dialects.
const (
	Claude Agent = "claude"
	Gemini Agent = "gemini"
	Codex  Agent = "codex"
	Cursor Agent = "cursor"
	Cline  Agent = "cline"
	// Opencode is opencode's tool.execute.before hook, as cmdguard's
	// plugin for it sends it (plugins/opencode/cmdguard.js, installed by settings.PluginSettings).
	Opencode Agent = "opencode"
	// Kilo is the Kilo CLI, built on opencode: the same plugin and dialect.
	Kilo Agent = "kilo"
)

// Agents lists every dialect, in the order of their user bases.
var Agents = []Agent{Claude, Codex, Gemini, Cursor, Cline, Opencode, Kilo}

// ParseAgent returns the Agent named s, or an error.
func ParseAgent(s string) (Agent, error) {
	for _, a := range Agents {
		if string(a) == s {
			return a, nil
		}
	}
	return "", fmt.Errorf("unknown agent %q (want claude, gemini, codex, cursor, cline, opencode or kilo)", s)
}

// Defaults of [Options].
const (
	DefaultTimeout  = 5 * time.Second
	DefaultMaxInput = 8 << 20
)

// Options configure [Run]. The zero Options detect the dialect, find the
// policy from the hook's cwd and use the defaults.
type Options struct {
	// Agent is the dialect; empty means detect it from the input.
	Agent Agent
	// AskAsDeny answers an ask as a deny (with the reason and how a
	// person can allow it) in every dialect: for headless runs, where
	// Claude Code denies an ask anyway and Gemini CLI waits forever.
	AskAsDeny bool
	// Policy is the policy file to use; empty means the first
	// .cmdguard.yaml found walking up from the hook's cwd (the embedded
	// default when there is none).
	Policy string
	// Timeout bounds the whole hook (reading the input, loading the
	// policy, the check); running out is a deny. Zero means
	// DefaultTimeout.
	Timeout time.Duration
	// MaxInput is the largest hook input accepted, in bytes; a larger one
	// is a deny. Zero means DefaultMaxInput.
	MaxInput int64
	// Env is the hook process's environment ("KEY=value"): HOME for the
	// file checks; CLAUDECODE, which Claude Code sets for its hooks, to
	// tell Claude Code from Codex when Agent is empty; CLAUDE_PROJECT_DIR
	// and GEMINI_PROJECT_DIR, the session's project. Nil means none.
	Env []string
	// Dir is the hook process's working directory: where Claude Code,
	// Codex and Gemini CLI start their session, and so the project when
	// the agent names none. Empty means unknown.
	Dir string
	// Sandbox (Claude Code, Codex and Gemini CLI: the agents whose hook
	// can rewrite a tool's input) checks a shell command as it would run
	// under the policy's required kernel sandbox and, when that allows
	// it, rewrites the command (Claude Code's and Codex's updatedInput,
	// Gemini CLI's hookSpecificOutput.tool_input) so that the agent runs
	// `Bin run --sandbox --cwd DIR -- COMMAND` instead: the command runs
	// sandboxed, and `cmdguard run` checks it again. This is how a
	// command the embedded default policy allows only under the sandbox
	// (go test, make, …) is allowed in those agents. Cursor and Cline
	// cannot rewrite a command: there Sandbox changes nothing.
	Sandbox bool
	// Bin is the cmdguard the rewritten command runs (Sandbox); empty
	// means "cmdguard".
	Bin string
}

// Exit codes of Run.
const (
	ExitOK    = 0 // the answer is on stdout (it may be a deny)
	ExitBlock = 2 // blocked on an error: the reason is on stderr (and a deny on stdout)
)

// Run answers one hook call: it reads the input from stdin, writes the
// agent's answer to stdout and the reason of any failure to stderr, and
// returns the process exit code. It never returns without having written
// an answer that blocks, except for an allow or an untouched tool.
func Run(ctx context.Context, opts Options, stdin io.Reader, stdout, stderr io.Writer) int {
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	done := make(chan answer, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- failure(opts.Agent, fmt.Sprintf("internal error: %v", r))
			}
		}()
		done <- handle(ctx, opts, stdin)
	}()
	var a answer
	select {
	case a = <-done:
	case <-ctx.Done():
		a = failure(opts.Agent, "the check did not finish in "+timeout.String())
	}
	out, code := a.render(opts)
	if a.err != "" {
		fmt.Fprintf(stderr, "%s\n", a.reason)
	}
	if _, err := stdout.Write(out); err != nil {
		fmt.Fprintf(stderr, "cmdguard: cannot write the answer: %v\n", err)
		return ExitBlock
	}
	return code
}

// Fail writes agent's deny for a hook that cannot even start (bad
// arguments): msg is the reason. It returns the exit code, as Run does.
func Fail(agent Agent, msg string, stdout, stderr io.Writer) int {
	a := failure(agent, msg)
	out, code := a.render(Options{Agent: agent})
	fmt.Fprintf(stderr, "%s\n", a.reason)
	if _, err := stdout.Write(out); err != nil {
		return ExitBlock
	}
	return code
}

// An answer is what Run prints: the verdict and reason in one agent's
// dialect.
type answer struct {
	agent   Agent // "" when the dialect is unknown
	verdict cmdguard.Verdict
	reason  string // for the model and the person; never empty on deny
	pass    bool   // not a tool cmdguard judges: leave it to the agent
	asked   bool   // verdict was Ask, answered as a deny
	// updated is the tool input to run instead (Claude's and Codex's
	// updatedInput, Gemini's hookSpecificOutput.tool_input): the command
	// rewritten to run under the sandbox.
	updated map[string]json.RawMessage
	err     string // set when the hook failed: block with exit 2
	// claudeSure is false when the dialect was detected as Claude Code
	// without proof that Claude Code runs the hook: Codex reads the same
	// shape but runs the command on an ask.
	claudeSure bool
}

func failure(agent Agent, msg string) answer {
	return answer{agent: agent, verdict: cmdguard.Deny, reason: "cmdguard: deny: " + msg + " (the hook fails closed)", err: msg}
}

// handle reads, parses and checks one call.
func handle(ctx context.Context, opts Options, stdin io.Reader) answer {
	max := opts.MaxInput
	if max <= 0 {
		max = DefaultMaxInput
	}
	raw, err := io.ReadAll(io.LimitReader(stdin, max+1))
	if err != nil {
		return failure(opts.Agent, "cannot read the hook input: "+err.Error())
	}
	if int64(len(raw)) > max {
		return failure(opts.Agent, fmt.Sprintf("the hook input is larger than %d bytes", max))
	}
	c, err := parse(raw, opts.Agent, opts.Env)
	if err != nil {
		return failure(c.agent, err.Error())
	}
	a := answer{agent: c.agent, claudeSure: c.claudeSure}
	if c.kind == toolOther {
		a.pass, a.verdict = true, cmdguard.Allow
		return a
	}
	if c.unjudged != "" {
		a.verdict = cmdguard.Ask
		a.reason = fmt.Sprintf("cmdguard: %s of %s: ask: %s", c.tool, c.path, c.unjudged)
		return a
	}
	dir, inside := guardDir(c, opts)
	g, err := open(opts.Policy, dir)
	if err != nil {
		return failure(c.agent, "the policy did not load: "+err.Error())
	}
	if c.kind != toolShell && (c.path == "~" || strings.HasPrefix(c.path, "~/")) {
		// The agents expand ~ in a file tool's path; so must the check.
		home := envValue(opts.Env, "HOME")
		if !filepath.IsAbs(home) {
			return failure(c.agent, "the file tool names "+c.path+" and HOME is not known")
		}
		c.path = filepath.Join(home, strings.TrimPrefix(c.path, "~"))
	}
	var d cmdguard.Decision
	sandboxed := opts.Sandbox && Rewrites(c.agent) && c.kind == toolShell && c.input != nil
	// The rewritten command's `cmdguard run --cwd DIR` finds its policy,
	// project and sandbox from DIR. That is this check's Guard only when
	// the policy was looked for from DIR too (or pinned by opts.Policy):
	// a command run outside the project would get another project's
	// sandbox — none of this project's secrets hidden — so it is not
	// rewritten, and is judged as running unsandboxed.
	outside := sandboxed && opts.Policy == "" && !inside
	if outside {
		sandboxed = false
	}
	switch {
	case c.kind == toolShell:
		d, err = g.Check(ctx, cmdguard.Request{Command: c.command, Cwd: c.cwd, BaseEnv: baseEnv(opts.Env, c.cwd), Sandboxed: sandboxed, Agent: string(c.agent)})
	case len(c.paths) > 0:
		if d, c.path, err = checkPaths(ctx, g, c, opts.Env); err != nil && c.path == "" {
			return failure(c.agent, err.Error())
		}
	default:
		d, err = g.CheckFile(ctx, cmdguard.FileRequest{Path: c.path, Cwd: c.cwd, Write: c.kind == toolWrite, Recursive: c.kind == toolSearch})
	}
	if err != nil && d.Verdict == cmdguard.Allow {
		d.Verdict = cmdguard.Deny // unreachable: the library never allows with an error
	}
	a.verdict = d.Verdict
	a.reason = reason(g, d, c)
	if outside && d.Verdict != cmdguard.Allow {
		a.reason += " (not run under cmdguard's sandbox: " + c.cwd + " is outside the project)"
	}
	if sandboxed && d.Verdict == cmdguard.Allow && err == nil {
		if a.updated, err = sandboxInput(c, opts); err != nil {
			return failure(c.agent, err.Error())
		}
		a.reason = "cmdguard: allow (runs under cmdguard's sandbox): " + strings.TrimPrefix(a.reason, "cmdguard: ")
	}
	return a
}

// Rewrites reports whether agent's hook can rewrite the command it runs
// (Options.Sandbox): Claude Code and Codex through updatedInput, Gemini
// CLI through hookSpecificOutput.tool_input, opencode and the Kilo CLI
// through the plugin, which sets the tool's args in place. Cursor's and
// Cline's hooks answer only allow, deny or ask.
func Rewrites(agent Agent) bool {
	return agent == Claude || agent == Codex || agent == Gemini || agent == Opencode || agent == Kilo
}

// SandboxCommand is the shell line that runs command under cmdguard's
// sandbox in cwd, checked again there: `bin run --sandbox --cwd CWD
// [--policy FILE] -- 'COMMAND'`, every word quoted by
// [cmdguard.CommandLine], so that the agent's shell hands cmdguard the
// command exactly, as one argument.
func SandboxCommand(bin, policy, cwd, command string) (string, error) {
	if bin == "" {
		bin = "cmdguard"
	}
	args := []string{"run", "--sandbox", "--cwd", cwd}
	if policy != "" {
		args = append(args, "--policy", policy)
	}
	return cmdguard.CommandLine(bin, append(args, "--", command))
}

// sandboxInput is the agent's tool input with the command rewritten to
// run under cmdguard's sandbox, every other field kept (Gemini CLI
// replaces the whole input with it; Codex reads only the command).
func sandboxInput(c call, opts Options) (map[string]json.RawMessage, error) {
	line, err := SandboxCommand(opts.Bin, opts.Policy, c.cwd, c.command)
	if err != nil {
		return nil, err
	}
	cmd, err := json.Marshal(line)
	if err != nil {
		return nil, err
	}
	out := make(map[string]json.RawMessage, len(c.input))
	for k, v := range c.input {
		out[k] = v
	}
	out["command"] = cmd
	return out, nil
}

// guardDir is where the policy is looked for, and whether the command's
// directory lies inside the session's project: the command's directory
// when it does, else the project. A model can name the directory of one
// call (Codex's workdir arrives as cwd, Gemini's dir_path, Cursor's
// working_directory); it must not pick the policy by running a command
// elsewhere (a directory of its making with a lax .cmdguard.yaml, or /
// with none). Containment is decided on real paths, symlinks resolved as
// the kernel resolves them: PROJECT/link -> OUTSIDE is outside, and the
// policy is looked for from the real directory, so a lax
// OUTSIDE/.cmdguard.yaml reached through the link is never found. A
// directory that cannot be resolved is outside.
func guardDir(c call, opts Options) (dir string, inside bool) {
	base := ""
	switch c.agent {
	case Claude:
		base = envValue(opts.Env, "CLAUDE_PROJECT_DIR")
	case Gemini:
		base = envValue(opts.Env, "GEMINI_PROJECT_DIR")
	}
	if !filepath.IsAbs(base) && (c.agent == Claude || c.agent == Codex || c.agent == Gemini) {
		base = opts.Dir
	}
	if !filepath.IsAbs(base) {
		base = c.project // the workspace root Cursor and Cline give
	}
	base = filepath.Clean(base)
	if real, err := filepath.EvalSymlinks(base); err == nil {
		base = real
	}
	cwd, err := filepath.EvalSymlinks(c.cwd)
	if err != nil || !within(base, cwd) {
		return base, false
	}
	return cwd, true
}

// within reports whether path is dir or lies under it.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

func envValue(env []string, k string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, k+"="); ok {
			return v
		}
	}
	return ""
}

// open builds the Guard for the call: the given policy file, or the one
// found from cwd.
func open(policyFile, cwd string) (*cmdguard.Guard, error) {
	if policyFile != "" {
		return cmdguard.OpenPolicy(policyFile)
	}
	return cmdguard.Open(cwd)
}

// baseEnv is the trusted environment the command would see: the hook's
// own, with PWD set to the command's directory.
func baseEnv(env []string, cwd string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, "PWD=") {
			out = append(out, kv)
		}
	}
	return append(out, "PWD="+cwd)
}

// maxReason bounds the reason given to the model.
const maxReason = 1500

// reason says the decision in one line for the model and the person:
// cmdguard's summary, and for an ask what a person would change.
func reason(g *cmdguard.Guard, d cmdguard.Decision, c call) string {
	var b strings.Builder
	b.WriteString("cmdguard: ")
	if c.kind != toolShell {
		fmt.Fprintf(&b, "%s of %s: ", c.tool, c.path)
	}
	b.WriteString(d.Summary())
	if d.Verdict == cmdguard.Ask {
		for _, r := range d.Reasons {
			if r.Verdict == cmdguard.Ask {
				if h := g.HowToAllow(r, d); h != "" {
					b.WriteString(" (" + h + ")")
				}
				break
			}
		}
	}
	s := b.String()
	if len(s) > maxReason {
		s = cmdguard.TerminalSafe(s[:maxReason]) + "…"
	}
	return s
}

// The kinds of tool call.
type toolKind int

const (
	toolOther toolKind = iota // not judged: passes untouched
	toolShell
	toolRead
	toolWrite
	toolSearch // reads a directory's files (Grep)
)

// A call is one hook input, normalised.
type call struct {
	agent      Agent
	claudeSure bool
	tool       string // the agent's tool name
	kind       toolKind
	command    string                     // toolShell
	input      map[string]json.RawMessage // the shell tool's input, to rewrite (Claude, Codex, Gemini)
	path       string                     // toolRead, toolWrite
	paths      []string                   // several files written by one call (opencode's apply_patch)
	unjudged   string                     // a tool that runs code cmdguard cannot check: why (asked)
	cwd        string                     // where the command runs: absolute
	// project is where the agent's session is (the input's cwd or
	// workspace root): the policy is found from there, never from a
	// directory the model named for one call (Gemini's dir_path,
	// Cursor's working_directory), so that a call cannot pick a
	// laxer policy by running elsewhere.
	project string
}

// input holds every field of every dialect that Run reads.
type input struct {
	HookEventName  *string         `json:"hook_event_name"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	Cwd            *string         `json:"cwd"`
	TurnID         *string         `json:"turn_id"`
	CursorVersion  *string         `json:"cursor_version"`
	Command        *string         `json:"command"`   // cursor beforeShellExecution
	FilePath       *string         `json:"file_path"` // cursor beforeReadFile
	WorkspaceRoots []string        `json:"workspace_roots"`
	// Cline
	HookName     *string  `json:"hookName"`
	ClineRoots   []string `json:"workspaceRoots"`
	ClinePreTool *struct {
		ToolName   string          `json:"toolName"`
		Parameters json.RawMessage `json:"parameters"`
	} `json:"preToolUse"`
	// opencode and Kilo (cmdguard's plugin)
	Tool      string  `json:"tool"`
	Directory *string `json:"directory"`
	AgentName string  `json:"agent"`
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

// parse reads raw as the given dialect (detected when agent is empty).
// On error, the returned call's agent is the dialect as far as known.
func parse(raw []byte, agent Agent, env []string) (call, error) {
	c := call{agent: agent}
	var in input
	dec := json.NewDecoder(bytes.NewReader(raw))
	if err := dec.Decode(&in); err != nil {
		return c, fmt.Errorf("the hook input is not a JSON object: %v", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return c, errors.New("the hook input has data after its JSON object")
	}
	detected := detect(&in)
	switch {
	case agent == "" && detected == "":
		return c, errors.New("cannot tell which agent sent the hook input (pass --agent)")
	case agent == "":
		c.agent = detected
		if detected == Claude {
			c.claudeSure = hasEnv(env, "CLAUDECODE", "1")
		}
	case detected != "" && detected != agent && !(agent == Codex && detected == Claude) && !(agent == Claude && detected == Codex) &&
		!(agent == Kilo && detected == Opencode) && !(agent == Opencode && detected == Kilo):
		return c, fmt.Errorf("the hook input looks like %s's, not %s's", detected, agent)
	default:
		c.claudeSure = true
	}
	var err error
	switch c.agent {
	case Claude, Codex:
		err = c.claude(&in)
	case Gemini:
		err = c.gemini(&in)
	case Cursor:
		err = c.cursor(&in)
	case Cline:
		err = c.cline(&in)
	case Opencode, Kilo:
		err = c.opencode(&in)
	default:
		err = fmt.Errorf("unknown agent %q", c.agent)
	}
	if err != nil || c.kind == toolOther {
		return c, err
	}
	if c.project == "" {
		c.project = c.cwd
	}
	if c.project == "" || !filepath.IsAbs(c.project) {
		return c, fmt.Errorf("the hook input has no absolute working directory (cwd %q)", c.project)
	}
	c.project = filepath.Clean(c.project)
	switch {
	case c.cwd == "":
		c.cwd = c.project
	case !filepath.IsAbs(c.cwd):
		c.cwd = filepath.Join(c.project, c.cwd)
	}
	c.cwd = filepath.Clean(c.cwd)
	return c, nil
}

// detect names the dialect of in, or "".
func detect(in *input) Agent {
	ev := str(in.HookEventName)
	switch {
	case ev == opencodeEvent && in.AgentName == string(Kilo):
		return Kilo
	case ev == opencodeEvent:
		return Opencode
	case in.ClinePreTool != nil || str(in.HookName) == "PreToolUse":
		return Cline
	case ev == "BeforeTool":
		return Gemini
	case ev == "beforeShellExecution", ev == "beforeReadFile", ev == "preToolUse", in.CursorVersion != nil:
		return Cursor
	case ev == "PreToolUse" && in.TurnID != nil:
		return Codex
	case ev == "PreToolUse":
		return Claude
	}
	return ""
}

func hasEnv(env []string, k, v string) bool {
	for _, kv := range env {
		if kv == k+"="+v {
			return true
		}
	}
	return false
}

// fields reads a tool's parameters as a JSON object.
func fields(raw json.RawMessage) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if len(raw) == 0 || string(raw) == "null" {
		return nil, errors.New("the hook input has no tool input")
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("the tool input is not a JSON object: %v", err)
	}
	return m, nil
}

// field returns the string parameter name (the first present of names).
// A parameter that is present but not a string is an error; absent is "",
// false.
func field(m map[string]json.RawMessage, names ...string) (string, bool, error) {
	for _, name := range names {
		raw, ok := m[name]
		if !ok || string(raw) == "null" {
			continue
		}
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", false, fmt.Errorf("the tool input's %s is not a string", name)
		}
		return s, true, nil
	}
	return "", false, nil
}

// need returns the string parameter that a judged tool must carry.
func need(m map[string]json.RawMessage, tool string, names ...string) (string, error) {
	s, ok, err := field(m, names...)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", fmt.Errorf("the %s call has no %s", tool, names[0])
	}
	return s, nil
}

// Claude Code's file tools and the parameter naming the file.
var claudeFiles = map[string]struct {
	param string
	write bool
}{
	"Read":         {"file_path", false},
	"Write":        {"file_path", true},
	"Edit":         {"file_path", true},
	"MultiEdit":    {"file_path", true},
	"NotebookEdit": {"notebook_path", true},
	"NotebookRead": {"notebook_path", false},
}

func (c *call) claude(in *input) error {
	if ev := str(in.HookEventName); ev != "PreToolUse" {
		return fmt.Errorf("%s hook event %q is not PreToolUse", c.agent, ev)
	}
	c.tool, c.cwd = in.ToolName, str(in.Cwd)
	if in.ToolName == "Bash" {
		m, err := fields(in.ToolInput)
		if err != nil {
			return err
		}
		c.kind = toolShell
		c.input = m
		c.command, err = need(m, "Bash", "command")
		return err
	}
	if in.ToolName == "Grep" && c.agent == Claude {
		m, err := fields(in.ToolInput)
		if err != nil {
			return err
		}
		c.kind = toolSearch
		path, ok, err := field(m, "path")
		if !ok || path == "" {
			path = "." // Grep searches the cwd
		}
		c.path = path
		return err
	}
	if f, ok := claudeFiles[in.ToolName]; ok && c.agent == Claude {
		m, err := fields(in.ToolInput)
		if err != nil {
			return err
		}
		c.kind = toolRead
		if f.write {
			c.kind = toolWrite
		}
		c.path, err = need(m, in.ToolName, f.param)
		return err
	}
	return nil
}

// Gemini CLI's file tools and whether they write.
var geminiFiles = map[string]bool{"read_file": false, "write_file": true, "replace": true}

func (c *call) gemini(in *input) error {
	if ev := str(in.HookEventName); ev != "BeforeTool" {
		return fmt.Errorf("gemini hook event %q is not BeforeTool", ev)
	}
	c.tool, c.cwd = in.ToolName, str(in.Cwd)
	write, isFile := geminiFiles[in.ToolName]
	if in.ToolName != "run_shell_command" && !isFile {
		return nil
	}
	m, err := fields(in.ToolInput)
	if err != nil {
		return err
	}
	if isFile {
		c.kind = toolRead
		if write {
			c.kind = toolWrite
		}
		c.path, err = need(m, in.ToolName, "file_path", "absolute_path")
		return err
	}
	c.kind = toolShell
	c.input = m
	if c.command, err = need(m, in.ToolName, "command"); err != nil {
		return err
	}
	dir, ok, err := field(m, "dir_path", "directory")
	if err != nil {
		return err
	}
	c.project = c.cwd
	if ok && dir != "" {
		c.cwd = dir // relative to the project: joined in parse
	}
	return nil
}

func (c *call) cursor(in *input) error {
	root := ""
	if len(in.WorkspaceRoots) > 0 {
		root = in.WorkspaceRoots[0]
	}
	for _, r := range in.WorkspaceRoots { // the root the command runs in
		if rel, err := filepath.Rel(r, str(in.Cwd)); err == nil && filepath.IsAbs(r) && rel != ".." && !strings.HasPrefix(rel, "../") {
			root = r
			break
		}
	}
	c.cwd, c.project = str(in.Cwd), root
	if c.cwd == "" {
		c.cwd = root
	}
	if c.project == "" {
		c.project = c.cwd
	}
	switch ev := str(in.HookEventName); ev {
	case "beforeShellExecution":
		c.tool, c.kind = "Shell", toolShell
		if in.Command == nil {
			return errors.New("the beforeShellExecution call has no command")
		}
		c.command = *in.Command
	case "beforeReadFile":
		c.tool, c.kind = "Read", toolRead
		if in.FilePath == nil || *in.FilePath == "" {
			return errors.New("the beforeReadFile call has no file_path")
		}
		c.path = *in.FilePath
	case "preToolUse":
		c.tool = in.ToolName
		if in.ToolName != "Shell" {
			return nil
		}
		m, err := fields(in.ToolInput)
		if err != nil {
			return err
		}
		c.kind = toolShell
		if c.command, err = need(m, "Shell", "command"); err != nil {
			return err
		}
		dir, ok, err := field(m, "working_directory", "cwd")
		if err != nil {
			return err
		}
		if ok && dir != "" {
			c.cwd = dir
		}
	default:
		return fmt.Errorf("cursor hook event %q is not beforeShellExecution, beforeReadFile or preToolUse", ev)
	}
	return nil
}

// Cline's file tools and whether they write.
var clineFiles = map[string]bool{"read_file": false, "write_to_file": true, "replace_in_file": true}

func (c *call) cline(in *input) error {
	if hn := str(in.HookName); hn != "PreToolUse" || in.ClinePreTool == nil {
		return fmt.Errorf("cline hook %q is not PreToolUse with a preToolUse object", hn)
	}
	if len(in.ClineRoots) > 0 {
		c.cwd = in.ClineRoots[0]
	}
	c.tool = in.ClinePreTool.ToolName
	write, isFile := clineFiles[c.tool]
	if c.tool != "execute_command" && c.tool != "search_files" && !isFile {
		return nil
	}
	m, err := fields(in.ClinePreTool.Parameters)
	if err != nil {
		return err
	}
	if c.tool == "search_files" {
		c.kind = toolSearch
		c.path, err = need(m, c.tool, "path")
		return err
	}
	if isFile {
		c.kind = toolRead
		if write {
			c.kind = toolWrite
		}
		c.path, err = need(m, c.tool, "path")
		return err
	}
	c.kind = toolShell
	c.command, err = need(m, c.tool, "command")
	return err
}

// render returns the bytes to print and the exit code for a in its
// agent's dialect.
func (a answer) render(opts Options) ([]byte, int) {
	v, r := a.verdict, a.reason
	if v == cmdguard.Ask && (opts.AskAsDeny || a.agent == Codex || a.agent == Cline || a.agent == Opencode || a.agent == Kilo || (a.agent == Claude && !a.claudeSure)) {
		v, a.asked = cmdguard.Deny, true
		r += " — needs a person's approval, and this agent cannot ask: denied"
	}
	if v != cmdguard.Allow && r == "" {
		r = "cmdguard: " + v.String()
	}
	code := ExitOK
	if a.err != "" {
		v, code = cmdguard.Deny, ExitBlock
	}
	var out any
	switch {
	case a.agent == Opencode || a.agent == Kilo:
		out = a.opencodeAnswer(v, r)
	case a.pass && a.err == "":
		out = map[string]any{} // not judged: the agent's normal flow
	case a.agent == Claude || a.agent == Codex:
		if a.agent == Codex && v == cmdguard.Allow && a.updated == nil {
			// Codex ignores allow without updatedInput; say nothing.
			out = map[string]any{}
			break
		}
		o := map[string]any{"hookEventName": "PreToolUse", "permissionDecision": v.String()}
		if r != "" {
			o["permissionDecisionReason"] = r
		}
		if v == cmdguard.Allow && a.updated != nil {
			o["updatedInput"] = a.updated
		}
		out = map[string]any{"hookSpecificOutput": o}
	case a.agent == Gemini:
		o := map[string]any{"decision": v.String()}
		if v != cmdguard.Allow {
			o["reason"] = r
		}
		if v == cmdguard.Allow && a.updated != nil {
			// Gemini CLI builds the tool call anew from this input (the
			// whole input: every field is kept in it).
			o["hookSpecificOutput"] = map[string]any{"hookEventName": "BeforeTool", "tool_input": a.updated}
		}
		out = o
	case a.agent == Cursor:
		o := map[string]any{"permission": v.String()}
		if v != cmdguard.Allow {
			o["user_message"], o["agent_message"] = r, r
			o["userMessage"], o["agentMessage"] = r, r // Cursor 1.7
		}
		out = o
		code = ExitOK // Cursor reads the JSON; failClosed covers a crash
	case a.agent == Cline:
		o := map[string]any{"cancel": v != cmdguard.Allow}
		if v != cmdguard.Allow {
			o["errorMessage"] = r
		}
		out = o
		code = ExitOK
	default: // unknown dialect: deny in every dialect at once
		out = map[string]any{
			"hookSpecificOutput": map[string]any{"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": r},
			"decision":           "deny", "reason": r,
			"permission": "deny", "user_message": r, "agent_message": r,
			"cancel": true, "errorMessage": r,
		}
		// (the opencode plugin reads "decision" and "reason", as Gemini's)
		code = ExitBlock
	}
	b, err := json.Marshal(out)
	if err != nil { // unreachable: maps of strings and bools
		return []byte(`{"decision":"deny"}` + "\n"), ExitBlock
	}
	return append(b, '\n'), code
}
