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
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/cmdguard/cmdguard/ignore"
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
	collectLess(os.Args[1:])
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// collectLess lets the heap of a command that checks or starts one
// command and ends (check, explain, run, hook) grow to five times its live
// size between collections instead of twice (GOGC=400): such a process
// allocates a few MiB once — the policy, the program table — and the
// collections the default makes during that were a tenth of its CPU (a
// sandboxed run -- true: about 2 ms of 25, in scripts/sandbox/codex-compare.sh).
// The long-lived servers (serve, mcp, acp) keep the default; a GOGC the
// person set wins.
func collectLess(args []string) {
	if len(args) == 0 || os.Getenv("GOGC") != "" {
		return
	}
	switch args[0] {
	case "check", "explain", "run", "hook":
		debug.SetGCPercent(400)
	}
}

// subcommand describes one subcommand for --help.
type subcommand struct {
	name    string // as typed: "check", "policy lint"
	args    string // what follows the flags
	summary string // one line in cmdguard --help
	about   string // the paragraph of cmdguard NAME --help
	// run runs the command with the arguments after its name.
	run func(c *cli, args []string) int
}

// commands is the CLI: one row a command, with its help and the function
// that runs it (cmdguard --help lists them in this order).
func commands() []subcommand {
	return []subcommand{
		{"check", "[--] COMMAND|-", "decide whether a command may run: allow, ask or deny (nothing runs)",
			`Decides whether COMMAND may run under the project's policy and ignore
files, without running it, and prints the verdict with every reason.
COMMAND is one argument, quoted; - reads a script from stdin. Flags go
before the command.
Exit codes: 0 allow, 1 deny, 2 ask, 3 error (bad usage, invalid policy).`,
			func(c *cli, a []string) int { return c.check(a, false) }},
		{"explain", "[--] COMMAND|-", "check, plus the trace of every rule considered",
			`Checks COMMAND as check does and adds the trace of every rule the
policy considered, matched or not. Same flags and exit codes as check:
0 allow, 1 deny, 2 ask, 3 error.`,
			func(c *cli, a []string) int { return c.check(a, true) }},
		{"run", "[--] COMMAND|-", "check, then run the command with bash -c, its output captured",
			`Checks COMMAND and, when it is allowed, runs exactly that string with
bash -c in the checked directory, streaming its output (or printing one
JSON object with --format json). On a terminal an ask becomes a
yes / no / always prompt; without one, ask is refused.
Exit codes: the command's own; 128+n when signal n ended it; 124 when
--timeout ended it; 125 when cmdguard refused it or could not start it.`,
			(*cli).run},
		{"policy lint", "[PATH]", "check a policy and everything check would load with it",
			`Loads the policy file at PATH (a file, or a directory's .cmdguard.yaml;
default: the current directory's) with everything check would load with
it — its Rego modules and the project's ignore files — and reports each
problem as file:line:col: severity: message, plus warnings for risky
choices. A warning is silenced by a "# lint:ok" comment on its line.
Exit codes: 0 clean, 1 warnings only, 3 errors.`,
			func(c *cli, a []string) int { return c.policyCmd("lint", a) }},
		{"policy test", "[PATH]", "run the Rego unit tests (test_* rules) under PATH",
			`Runs the Rego unit tests (rules named test_*, usually in _test.rego
files) of every .rego file under PATH (default: the current directory),
with the same restricted builtins as a policy, as opa test does.
Exit codes: 0 all passed, 1 a test failed, 3 no tests found or an error.`,
			func(c *cli, a []string) int { return c.policyCmd("test", a) }},
		{"policy show", "", "print the policy in force, with where it comes from",
			`Prints the policy that check and run use for --cwd DIR (default: the
current directory): the project's .cmdguard.yaml as written, or the
embedded default policy when there is none, each under a comment line
naming its origin.
Exit codes: 0 shown, 3 error.`,
			(*cli).policyShow},
		{"init", "[DIR]", "write a .cmdguard.yaml that starts as the built-in policy",
			`Writes DIR/.cmdguard.yaml (default: the current directory): a commented
copy of the embedded default policy, so that the project behaves as it
did with no policy until you edit it (cmdguard policy show prints it;
the commented keys list what else a policy can say). It never
overwrites a file, and refuses when a policy above DIR already governs
it: a nested policy would replace that one's rules (its deny rules too)
in DIR's subtree, since the first .cmdguard.yaml walking up wins. Extend the outer policy instead, or pass
--nested to write it anyway.
Exit codes: 0 written, 3 not written.`,
			(*cli).init},
		{"hook", "", "answer an agent's pre-tool hook: Claude Code, Gemini CLI, Codex, Cursor, Cline",
			`Answers one pre-tool hook call: reads the agent's hook JSON on stdin,
checks the shell command (or the file a file tool names) and prints the
agent's answer: allow, ask (where the agent can ask), or deny with the
reasons. --agent names the dialect; without it, it is detected from the
input. Every failure — bad input, a policy that does not load, a
timeout — is that agent's deny, never silence.
Exit codes: 0, or 2 with the deny where the agent blocks on exit 2
(Claude Code, Codex, Gemini CLI).`,
			(*cli).hook},
		{"install", "AGENT", "put the hook into an agent's settings (claude, gemini, codex, cursor, cline)",
			`Writes cmdguard's hook into the agent's settings file, fail-closed where
the agent offers it, showing the change before it writes it; the rest of
the file is kept byte for byte, and running it again changes nothing.
--uninstall takes out exactly what it added. Flags may stand before or
after the agent: cmdguard install claude --user.
Exit codes: 0 done (or nothing to do), 3 not done.`,
			(*cli).install},
		{"import", "FORMAT [FILE]", "turn an agent's own rules into a .cmdguard.yaml (claude, gemini, codex, roo, kilo, cline)",
			`Converts the agent's command rules (FILE, or the format's usual file)
into a .cmdguard.yaml on stdout (or --out FILE), keeping their order of
precedence, and lists every rule it could not express exactly, with its
file:line. The format comes first: cmdguard import claude --out p.yaml.
Exit codes: 0 converted, 3 not converted.`,
			func(c *cli, a []string) int { return c.importRules(a) }},
		{"serve", "", "serve the AIO sandbox's /v1/bash HTTP API, every command gated", serveAbout,
			(*cli).serve},
		{"mcp", "", "serve the gated shell tools to an MCP client (stdio or streamable HTTP)", mcpAbout,
			(*cli).mcp},
		{"status", "", "show the layers in force, the decision log's sinks and the sandbox", statusAbout,
			(*cli).status},
		{"sandbox", "selftest", "prove the sandbox on this machine: each promise tried with and without it", sandboxAbout,
			(*cli).sandbox},
		{"acp", "[--] AGENT [ARGS...]", "stand between an editor and an ACP agent: its terminals and file requests gated", acpAbout,
			(*cli).acp},
	}
}

func lookupSub(name string) (subcommand, bool) {
	for _, sc := range commands() {
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
	for _, sc := range commands() {
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
	name, rest := args[0], args[1:]
	if name == "policy" && len(rest) > 0 && !strings.HasPrefix(rest[0], "-") {
		name, rest = "policy "+rest[0], rest[1:]
	}
	if sc, ok := lookupSub(name); ok {
		defer startDecisionLog(name)()
		return sc.run(env, rest)
	}
	switch name {
	case "policy":
		return env.policyUsage(rest)
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
	if strings.HasPrefix(name, "policy ") {
		return env.errorf("usage: cmdguard policy lint|test|show [flags] [PATH] (cmdguard policy --help)")
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

// interleaved parses fs's flags wherever they stand among the
// positional arguments (install claude --user and install --user claude)
// and returns the positional ones in order. "--" ends the flags.
func (c *cli) interleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for rest := args; ; {
		if err := c.parseFlags(fs, rest); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		if len(rest) > fs.NArg() && rest[len(rest)-fs.NArg()-1] == "--" {
			return append(pos, fs.Args()...), nil
		}
		pos, rest = append(pos, fs.Arg(0)), fs.Args()[1:]
	}
}
