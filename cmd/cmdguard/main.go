// Command cmdguard checks shell commands against a project's policy and
// ignore files, and runs the approved ones.
//
//	cmdguard check [--policy FILE] [--cwd DIR] [--format text|json] [--sandbox] [--] COMMAND|-
//	cmdguard run   [--policy FILE] [--cwd DIR] [--format text|json]
//	               [--timeout D] [--output-limit N] [--sandbox] [--] COMMAND|-
//	cmdguard explain [same flags as check] [--] COMMAND|-
//	cmdguard policy lint|test [--format text|json] [PATH]
//	cmdguard init [DIR]
//	cmdguard --help | COMMAND --help | --version
//
// check exits 0 for allow, 1 for deny, 2 for ask and 3 for an error. run
// exits with the command's own code (128+n for signal n), 124 when its
// timeout ended it and 125 when it was refused or could not start.
// docs/cli.md has the full help; docs/contract.md the JSON and exit codes.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/ignore"
	"github.com/cmdguard/cmdguard/policy"
)

// Exit codes of check and explain.
const (
	exitAllow = 0
	exitDeny  = 1
	exitAsk   = 2
	exitError = 3
)

// Exit codes of run (as GNU timeout).
const (
	exitTimedOut = 124
	exitRefused  = 125
)

// checkTimeout bounds one check, so that a pathological policy cannot hang
// an agent; running out of it is a deny.
const checkTimeout = 10 * time.Second

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// subcommand describes one subcommand for --help.
type subcommand struct {
	name    string // as typed: "check", "policy lint"
	args    string // what follows the flags
	summary string // one line in cmdguard --help
	about   string // the paragraph of cmdguard NAME --help
}

var subcommands = []subcommand{
	{"check", "[--] COMMAND|-", "decide whether a command may run: allow, ask or deny (nothing runs)",
		`Decides whether COMMAND may run under the project's policy and ignore
files, without running it, and prints the verdict with every reason.
COMMAND is one argument, quoted; - reads a script from stdin. Flags go
before the command.
Exit codes: 0 allow, 1 deny, 2 ask, 3 error (bad usage, invalid policy).`},
	{"explain", "[--] COMMAND|-", "check, plus the trace of every rule considered",
		`Checks COMMAND as check does and adds the trace of every rule the
policy considered, matched or not. Same flags and exit codes as check:
0 allow, 1 deny, 2 ask, 3 error.`},
	{"run", "[--] COMMAND|-", "check, then run the command with bash -c, its output captured",
		`Checks COMMAND and, when it is allowed, runs exactly that string with
bash -c in the checked directory, streaming its output (or printing one
JSON object with --format json). On a terminal an ask becomes a
yes / no / always prompt; without one, ask is refused.
Exit codes: the command's own; 128+n when signal n ended it; 124 when
--timeout ended it; 125 when cmdguard refused it or could not start it.`},
	{"policy lint", "[PATH]", "check a policy and everything check would load with it",
		`Loads the policy file at PATH (a file, or a directory's .cmdguard.yaml;
default: the current directory's) with everything check would load with
it — its Rego modules and the project's ignore files — and reports each
problem as file:line:col: severity: message, plus warnings for risky
choices. A warning is silenced by a "# lint:ok" comment on its line.
Exit codes: 0 clean, 1 warnings only, 3 errors.`},
	{"policy test", "[PATH]", "run the Rego unit tests (test_* rules) under PATH",
		`Runs the Rego unit tests (rules named test_*, usually in _test.rego
files) of every .rego file under PATH (default: the current directory),
with the same restricted builtins as a policy, as opa test does.
Exit codes: 0 all passed, 1 a test failed, 3 no tests found or an error.`},
	{"init", "[DIR]", "write a commented starter .cmdguard.yaml",
		`Writes a commented starter policy to DIR/.cmdguard.yaml (default: the
current directory). It never overwrites a file, and refuses when a
policy above DIR already governs it: a nested policy would replace that
one's rules (its deny rules too) in DIR's subtree, since the first
.cmdguard.yaml walking up wins. Extend the outer policy instead, or pass
--nested to write it anyway.
Exit codes: 0 written, 3 not written.`},
	{"hook", "", "answer an agent's pre-tool hook: Claude Code, Gemini CLI, Codex, Cursor, Cline",
		`Answers one pre-tool hook call: reads the agent's hook JSON on stdin,
checks the shell command (or the file a file tool names) and prints the
agent's answer: allow, ask (where the agent can ask), or deny with the
reasons. --agent names the dialect; without it, it is detected from the
input. Every failure — bad input, a policy that does not load, a
timeout — is that agent's deny, never silence.
Exit codes: 0, or 2 with the deny where the agent blocks on exit 2
(Claude Code, Codex, Gemini CLI).`},
	{"install", "AGENT", "put the hook into an agent's settings (claude, gemini, codex, cursor, cline)",
		`Writes cmdguard's hook into the agent's settings file, fail-closed where
the agent offers it, showing the change before it writes it; the rest of
the file is kept byte for byte, and running it again changes nothing.
--uninstall takes out exactly what it added. The agent comes before the
flags: cmdguard install claude --user.
Exit codes: 0 done (or nothing to do), 3 not done.`},
	{"import", "FORMAT [FILE]", "turn an agent's own rules into a .cmdguard.yaml (claude, gemini, codex, roo, kilo, cline)",
		`Converts the agent's command rules (FILE, or the format's usual file)
into a .cmdguard.yaml on stdout (or --out FILE), keeping their order of
precedence, and lists every rule it could not express exactly, with its
file:line. The format comes first: cmdguard import claude --out p.yaml.
Exit codes: 0 converted, 3 not converted.`},
	{"serve", "", "serve the AIO sandbox's /v1/bash HTTP API, every command gated", serveAbout},
	{"mcp", "", "serve the gated shell tools to an MCP client (stdio or streamable HTTP)", mcpAbout},
	{"acp", "[--] AGENT [ARGS...]", "stand between an editor and an ACP agent: its terminals and file requests gated", acpAbout},
}

func lookupSub(name string) (subcommand, bool) {
	for _, sc := range subcommands {
		if sc.name == name {
			return sc, true
		}
	}
	return subcommand{}, false
}

const usageHead = `cmdguard checks a shell command against the project's policy and ignore
files before an AI agent (or any automation) runs it, and runs the
approved ones.

Usage:
  cmdguard COMMAND [flags] [--] ARGS

Commands:
`

const usageTail = `
Flags go before the command's argument: cmdguard check --format json -- 'ls'.
"cmdguard COMMAND --help" shows a command's flags; "cmdguard --version"
prints the versions of cmdguard and OPA.

Exit codes:
  check, explain  0 allow, 1 deny, 2 ask, 3 error
  run             the command's own; 128+n for signal n; 124 timed out;
                  125 refused or not started
  policy lint     0 clean, 1 warnings only, 3 errors
  policy test     0 all passed, 1 a test failed, 3 no tests or an error
  init            0 written, 3 not written

The contract (rule ids, policy schema, JSON, exit codes):
https://github.com/cmdguard/cmdguard/blob/main/docs/contract.md
`

// writeUsage writes cmdguard --help.
func writeUsage(w io.Writer) {
	fmt.Fprint(w, usageHead)
	for _, sc := range subcommands {
		fmt.Fprintf(w, "  %-12s %s\n", sc.name, sc.summary)
	}
	fmt.Fprint(w, usageTail)
}

// writeSubUsage writes cmdguard NAME --help: usage, description, flags.
func writeSubUsage(w io.Writer, sc subcommand, fs *flag.FlagSet) {
	fmt.Fprintf(w, "%s\n\n%s\n", strings.TrimSpace("Usage: cmdguard "+sc.name+" [flags] "+sc.args), sc.about)
	if fs == nil {
		return
	}
	first := true
	fs.VisitAll(func(f *flag.Flag) {
		if first {
			fmt.Fprintf(w, "\nFlags:\n")
			first = false
		}
		name, usage := flag.UnquoteUsage(f)
		fmt.Fprintf(w, "  --%s", f.Name)
		if name != "" {
			fmt.Fprintf(w, " %s", name)
		}
		fmt.Fprintf(w, "\n        %s", usage)
		if f.DefValue != "" && f.DefValue != "0s" && f.DefValue != "false" {
			fmt.Fprintf(w, " (default %s)", f.DefValue)
		}
		fmt.Fprintln(w)
	})
}

// version returns the text of cmdguard --version: the module version and
// the OPA version, as the build recorded them.
func version() string {
	v, opa := "(unknown)", "(unknown)"
	if bi, ok := debug.ReadBuildInfo(); ok {
		if bi.Main.Version != "" {
			v = bi.Main.Version
		}
		for _, d := range bi.Deps {
			if d.Path == "github.com/open-policy-agent/opa" {
				opa = d.Version
				if d.Replace != nil {
					opa = d.Replace.Version
				}
			}
		}
	}
	return fmt.Sprintf("cmdguard %s\nOPA %s\n", v, opa)
}

// run is the whole CLI; it returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		writeUsage(stderr)
		return exitError
	}
	env := &cli{stdin: stdin, stdout: stdout, stderr: stderr}
	switch args[0] {
	case "check":
		return env.check(args[1:], false)
	case "explain":
		return env.check(args[1:], true)
	case "run":
		return env.run(args[1:])
	case "policy":
		return env.policy(args[1:])
	case "init":
		return env.init(args[1:])
	case "mcp":
		return env.mcp(args[1:])
	case "serve":
		return env.serve(args[1:])
	case "hook", "install", "import":
		return env.agentCmd(args)
	case "acp":
		return env.acp(args[1:])
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			// cmdguard help check = cmdguard check --help
			return run(append(args[1:len(args):len(args)], "--help"), stdin, stdout, stderr)
		}
		writeUsage(stdout)
		return 0
	case "version", "-version", "--version":
		fmt.Fprint(stdout, version())
		return 0
	}
	fmt.Fprintf(stderr, "cmdguard: unknown command %q (cmdguard --help lists the commands)\n", args[0])
	return exitError
}

type cli struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// jsonErr, when set (--format json), writes the one JSON object of an
	// error on stdout.
	jsonErr func(msg string)
}

// errorf reports an error and returns exitError; see failf.
func (c *cli) errorf(format string, args ...any) int {
	return c.failf(exitError, format, args...)
}

// failf reports an error as one line on stderr ("cmdguard: …") and, with
// --format json, as one JSON object on stdout; it returns code. Error
// arguments are written with errText.
func (c *cli) failf(code int, format string, args ...any) int {
	for i, a := range args {
		if err, ok := a.(error); ok {
			args[i] = errText(err)
		}
	}
	msg := fmt.Sprintf(format, args...)
	if c.jsonErr != nil {
		c.jsonErr(msg)
	}
	fmt.Fprintf(c.stderr, "cmdguard: %s\n", msg)
	return code
}

// errText renders an error for the one "cmdguard: " line: without the
// library's own "cmdguard: " prefix, and a malformed ignore pattern at
// file:line:col.
func errText(err error) string {
	var ie *ignore.Error
	if errors.As(err, &ie) {
		msg := fmt.Sprintf("load ignore files: %s:1: %v", ie.Source, ie.Err)
		if ie.Text != "" {
			msg += fmt.Sprintf(": %q", ie.Text)
		}
		return msg
	}
	return strings.TrimPrefix(err.Error(), "cmdguard: ")
}

// wantsJSON reports whether the flags in args (before the command, as the
// flag package reads them) ask for --format json, so that even a flag
// error is reported as JSON.
func wantsJSON(args []string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || a == "-" || !strings.HasPrefix(a, "-") {
			return false // the flags end here
		}
		name, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if name == "format" {
			if !hasVal && i+1 < len(args) {
				val = args[i+1]
			}
			return val == "json"
		}
		if !hasVal && name != "nested" && name != "h" && name != "help" {
			i++ // the flag's value
		}
	}
	return false
}

// errorResult is the JSON object of check and explain when they fail
// before deciding (bad usage, an invalid policy): a deny with the error.
type errorResult struct {
	Decision cmdguard.Verdict   `json:"decision"`
	Reasons  []cmdguard.Reason  `json:"reasons"`
	Commands []cmdguard.Command `json:"commands"`
	Error    string             `json:"error"`
}

// gateFlags are the flags that check, explain and run share.
type gateFlags struct {
	policy, cwd, format string
}

func (f *gateFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.policy, "policy", "", "policy `FILE` (default: the first .cmdguard.yaml above the cwd, else the built-in policy)")
	fs.StringVar(&f.cwd, "cwd", "", "`DIR` the command runs in (default: the current directory)")
	fs.StringVar(&f.format, "format", "text", "output `FORMAT`: text or json")
}

func (c *cli) flagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // errors are reported by parseFlags
	fs.Usage = func() {}
	return fs
}

// parseFlags parses args with fs. --help writes the command's help to
// stdout and returns flag.ErrHelp; a bad flag is an error naming the
// command.
func (c *cli) parseFlags(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if errors.Is(err, flag.ErrHelp) {
		sc, _ := lookupSub(fs.Name())
		writeSubUsage(c.stdout, sc, fs)
		return err
	}
	if err != nil {
		return fmt.Errorf("%w (cmdguard %s --help lists the flags)", err, fs.Name())
	}
	return nil
}

// parse parses the flags and the one COMMAND argument ("-" reads stdin).
func (c *cli) parse(fs *flag.FlagSet, f *gateFlags, args []string) (cmd string, err error) {
	if err := c.parseFlags(fs, args); err != nil {
		return "", err
	}
	if f.format != "text" && f.format != "json" {
		return "", fmt.Errorf("--format must be text or json, not %q", f.format)
	}
	switch fs.NArg() {
	case 0:
		return "", errors.New("no command given (pass it as one argument, or - to read it from stdin)")
	case 1:
	default:
		if fl := flagAfter(fs); fl != "" {
			return "", fmt.Errorf("%s comes after the command: flags go before it (cmdguard %s %s -- %s)", fl, fs.Name(), strings.Join(fs.Args()[1:], " "), shellQuote(fs.Arg(0)))
		}
		return "", fmt.Errorf("got %d arguments: pass the command as ONE argument, quoted (cmdguard %s -- 'git status')", fs.NArg(), fs.Name())
	}
	cmd = fs.Arg(0)
	if cmd == "-" {
		b, err := io.ReadAll(io.LimitReader(c.stdin, 1<<20+1))
		if err != nil {
			return "", fmt.Errorf("read command from stdin: %w", err)
		}
		if len(b) > 1<<20 {
			return "", errors.New("command on stdin is longer than 1 MiB")
		}
		cmd = string(b)
		c.stdin = strings.NewReader("") // consumed: the command gets no stdin
	}
	return cmd, nil
}

// flagAfter returns the first argument after the command that names one
// of fs's flags (-f, --f, --f=v), or "".
func flagAfter(fs *flag.FlagSet) string {
	for _, a := range fs.Args()[1:] {
		name, ok := strings.CutPrefix(a, "-")
		if !ok {
			continue
		}
		name = strings.TrimPrefix(name, "-")
		name, _, _ = strings.Cut(name, "=")
		if fs.Lookup(name) != nil || name == "h" || name == "help" {
			return a
		}
	}
	return ""
}

// shellQuote quotes s for bash with single quotes, unless it needs none.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// guard builds the Guard for the flags and returns it with the absolute cwd.
func (f *gateFlags) guard() (*cmdguard.Guard, string, error) {
	cwd := f.cwd
	if cwd == "" {
		var err error
		if cwd, err = os.Getwd(); err != nil {
			return nil, "", err
		}
	}
	cwd, err := filepath.Abs(cwd)
	if err != nil {
		return nil, "", err
	}
	if fi, err := os.Stat(cwd); err != nil {
		return nil, "", fmt.Errorf("--cwd: %w", err)
	} else if !fi.IsDir() {
		return nil, "", fmt.Errorf("--cwd: %s is not a directory", cwd)
	}
	var g *cmdguard.Guard
	if f.policy != "" {
		g, err = cmdguard.OpenPolicy(f.policy)
	} else {
		g, err = cmdguard.Open(cwd)
	}
	return g, cwd, err
}

func (c *cli) check(args []string, explain bool) int {
	name := "check"
	if explain {
		name = "explain"
	}
	fs := c.flagSet(name)
	var f gateFlags
	f.register(fs)
	sandboxed := fs.Bool("sandbox", false, "decide as for cmdguard run --sandbox: the command will run under the policy's sandbox")
	if wantsJSON(args) {
		c.jsonErr = func(msg string) {
			writeJSON(c.stdout, errorResult{Decision: cmdguard.Deny, Reasons: []cmdguard.Reason{}, Commands: []cmdguard.Command{}, Error: msg})
		}
	}
	cmd, err := c.parse(fs, &f, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return c.errorf("%s: %v", name, err)
	}
	g, cwd, err := f.guard()
	if err != nil {
		return c.errorf("%v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), checkTimeout)
	defer cancel()
	req := cmdguard.Request{Command: cmd, Cwd: cwd, BaseEnv: os.Environ(), Sandboxed: *sandboxed}
	var d cmdguard.Decision
	if explain {
		d, err = g.Explain(ctx, req)
	} else {
		d, err = g.Check(ctx, req)
	}
	if f.format == "json" {
		if err != nil { // a deny from the gate's own failure: say which
			writeJSON(c.stdout, struct {
				cmdguard.Decision
				Error string `json:"error"`
			}{d, errText(err)})
		} else {
			writeJSON(c.stdout, d)
		}
	} else {
		g.Render(c.stdout, cmd, d)
		if explain {
			renderTrace(c.stdout, d.Trace)
		}
	}
	if err != nil { // the decision (a deny) is printed already
		fmt.Fprintf(c.stderr, "cmdguard: %s\n", errText(err))
		return exitError
	}
	return verdictCode(d.Verdict)
}

func verdictCode(v cmdguard.Verdict) int {
	switch v {
	case cmdguard.Allow:
		return exitAllow
	case cmdguard.Ask:
		return exitAsk
	}
	return exitDeny
}

func (c *cli) policy(args []string) int {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help") {
		fmt.Fprint(c.stdout, "Usage: cmdguard policy lint|test [flags] [PATH]\n\n")
		for _, name := range []string{"policy lint", "policy test"} {
			sc, _ := lookupSub(name)
			fmt.Fprintf(c.stdout, "  %-12s %s\n", sc.name, sc.summary)
		}
		fmt.Fprint(c.stdout, "\n\"cmdguard policy lint --help\" and \"cmdguard policy test --help\" show their flags.\n")
		return 0
	}
	if len(args) == 0 || (args[0] != "test" && args[0] != "lint") {
		return c.errorf("usage: cmdguard policy lint|test [flags] [PATH] (cmdguard policy --help)")
	}
	name := "policy " + args[0]
	if wantsJSON(args[1:]) {
		c.jsonErr = func(msg string) {
			if args[0] == "lint" {
				writeJSON(c.stdout, map[string]any{"diagnostics": []any{}, "error": msg})
			} else {
				writeJSON(c.stdout, map[string]any{"results": []any{}, "passed": 0, "failed": 0, "error": msg})
			}
		}
	}
	fs := c.flagSet(name)
	format := fs.String("format", "text", "output `FORMAT`: text or json")
	if err := c.parseFlags(fs, args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return c.errorf("%s: %v", name, err)
	}
	if *format != "text" && *format != "json" {
		return c.errorf("%s: --format must be text or json, not %q", name, *format)
	}
	if fs.NArg() > 1 {
		if fl := flagAfter(fs); fl != "" {
			return c.errorf("%s: %s comes after PATH: flags go before it", name, fl)
		}
		return c.errorf("%s: one PATH at most", name)
	}
	path := "."
	if fs.NArg() == 1 {
		path = fs.Arg(0)
	}
	if args[0] == "test" {
		return c.policyTest(path, *format)
	}
	return c.policyLint(path, *format)
}

func (c *cli) policyTest(path, format string) int {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	results, err := policy.RunTests(ctx, path)
	if err != nil {
		return c.errorf("%v", err)
	}
	failed := 0
	for _, r := range results {
		if r.Status != "pass" {
			failed++
		}
	}
	if format == "json" {
		writeJSON(c.stdout, map[string]any{"results": nonNil(results), "passed": len(results) - failed, "failed": failed})
	} else {
		for _, r := range results {
			if r.Status == "pass" {
				continue
			}
			fmt.Fprintf(c.stdout, "%s:%d:%d: %s %s.%s", r.File, r.Line, r.Col, strings.ToUpper(r.Status), r.Package, r.Name)
			if r.Error != "" {
				fmt.Fprintf(c.stdout, ": %s", r.Error)
			}
			fmt.Fprintln(c.stdout)
			if r.Output != "" {
				fmt.Fprintf(c.stdout, "%s\n", indent(r.Output))
			}
		}
		fmt.Fprintf(c.stdout, "%d passed, %d failed\n", len(results)-failed, failed)
	}
	if len(results) == 0 { // the JSON (no results) is printed already
		fmt.Fprintf(c.stderr, "cmdguard: policy test: no Rego tests found under %s\n", path)
		return exitError
	}
	if failed > 0 {
		return 1
	}
	return 0
}

func (c *cli) policyLint(path, format string) int {
	diags, err := cmdguard.Lint(path)
	if err != nil {
		return c.errorf("policy lint: %v", err)
	}
	errs := 0
	for _, d := range diags {
		if d.Severity == "error" {
			errs++
		}
	}
	if format == "json" {
		writeJSON(c.stdout, map[string]any{"diagnostics": nonNil(diags)})
	} else {
		for _, d := range diags {
			fmt.Fprintf(c.stdout, "%s:%d:%d: %s: %s\n", d.File, d.Line, d.Col, d.Severity, d.Message)
		}
	}
	switch {
	case errs > 0:
		return exitError
	case len(diags) > 0:
		return 1
	}
	return 0
}

func (c *cli) init(args []string) int {
	fs := c.flagSet("init")
	nested := fs.Bool("nested", false, "write the policy even though a policy above DIR governs it (the new one replaces it, deny rules too, under DIR)")
	if err := c.parseFlags(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return c.errorf("init: %v", err)
	}
	dir := "."
	if fs.NArg() > 1 {
		return c.errorf("init: one DIR at most")
	} else if fs.NArg() == 1 {
		dir = fs.Arg(0)
	}
	path := filepath.Join(dir, policy.FileName)
	// A policy above DIR governs it today; a new one in DIR would replace
	// it there (the first .cmdguard.yaml walking up wins; policies are not
	// merged), silently dropping its deny rules for DIR's subtree.
	if _, err := os.Lstat(path); err != nil {
		outer, ok, err := policy.Find(dir)
		switch {
		case err != nil:
			return c.errorf("init: %v", err)
		case ok && !*nested:
			return c.errorf("init: %s is already governed by %s: a policy in %s would replace it there, its deny rules too (policies are not merged). Add to that policy instead, or pass --nested to write %s anyway", dir, outer, dir, path)
		case ok:
			fmt.Fprintf(c.stderr, "cmdguard: init: %s replaces %s for everything under %s\n", path, outer, dir)
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return c.errorf("init: %s already exists; not overwriting it", path)
		}
		return c.errorf("init: %v", err)
	}
	_, err = f.Write(policy.Starter())
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return c.errorf("init: write %s: %v", path, err)
	}
	fmt.Fprintf(c.stdout, "wrote %s\n", path)
	return 0
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n    ")
}

// nonNil makes an empty list marshal as [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
