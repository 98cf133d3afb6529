// Command cmdguard checks shell commands against a project's policy and
// ignore files, and runs the approved ones.
//
//	cmdguard check [--policy FILE] [--cwd DIR] [--format text|json] [--] COMMAND|-
//	cmdguard run   [--policy FILE] [--cwd DIR] [--format text|json]
//	               [--timeout D] [--output-limit N] [--] COMMAND|-
//	cmdguard explain [same flags as check] [--] COMMAND|-
//	cmdguard policy test|lint [PATH]
//	cmdguard init [DIR]
//
// check exits 0 for allow, 1 for deny, 2 for ask and 3 for an error. run
// exits with the command's own code (128+n for signal n), 124 when its
// timeout ended it and 125 when it was refused or could not start.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cmdguard/cmdguard"
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

const usage = `usage:
  cmdguard check   [--policy FILE] [--cwd DIR] [--format text|json] [--] COMMAND|-
  cmdguard explain [--policy FILE] [--cwd DIR] [--format text|json] [--] COMMAND|-
  cmdguard run     [--policy FILE] [--cwd DIR] [--format text|json]
                   [--timeout D] [--output-limit N] [--] COMMAND|-
  cmdguard policy test|lint [PATH]
  cmdguard init [DIR]
`

// run is the whole CLI; it returns the exit code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
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
	case "acp":
		return env.acp(args[1:])
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "cmdguard: unknown command %q\n%s", args[0], usage)
	return exitError
}

type cli struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

func (c *cli) errorf(format string, args ...any) int {
	fmt.Fprintf(c.stderr, "cmdguard: "+format+"\n", args...)
	return exitError
}

// gateFlags are the flags that check, explain and run share.
type gateFlags struct {
	policy, cwd, format string
}

func (f *gateFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.policy, "policy", "", "policy `FILE` (default: the first .cmdguard.yaml above the cwd, else the built-in policy)")
	fs.StringVar(&f.cwd, "cwd", "", "`DIR` the command runs in (default: the current directory)")
	fs.StringVar(&f.format, "format", "text", "output format: text or json")
}

func (c *cli) flagSet(name string) *flag.FlagSet {
	fs := flag.NewFlagSet("cmdguard "+name, flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	return fs
}

// parse parses the flags and the one COMMAND argument ("-" reads stdin).
func (c *cli) parse(fs *flag.FlagSet, f *gateFlags, args []string) (cmd string, err error) {
	if err := fs.Parse(args); err != nil {
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
		return "", fmt.Errorf("got %d arguments: pass the command as ONE argument, quoted (cmdguard %s -- 'git status')", fs.NArg(), strings.TrimPrefix(fs.Name(), "cmdguard "))
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
	req := cmdguard.Request{Command: cmd, Cwd: cwd, BaseEnv: os.Environ()}
	var d cmdguard.Decision
	if explain {
		d, err = g.Explain(ctx, req)
	} else {
		d, err = g.Check(ctx, req)
	}
	if f.format == "json" {
		writeJSON(c.stdout, d)
	} else {
		g.Render(c.stdout, cmd, d)
		if explain {
			renderTrace(c.stdout, d.Trace)
		}
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "cmdguard: %v\n", err)
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
	if len(args) == 0 || (args[0] != "test" && args[0] != "lint") {
		return c.errorf("usage: cmdguard policy test|lint [PATH]")
	}
	fs := c.flagSet("policy " + args[0])
	format := fs.String("format", "text", "output format: text or json")
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitError
	}
	if fs.NArg() > 1 {
		return c.errorf("policy %s: one PATH at most", args[0])
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
	if len(results) == 0 {
		fmt.Fprintf(c.stderr, "cmdguard: policy test: no Rego tests found under %s\n", path)
		return exitError
	}
	if failed > 0 {
		return 1
	}
	return 0
}

func (c *cli) policyLint(path, format string) int {
	diags, err := policy.Lint(path)
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
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return exitError
	}
	dir := "."
	if fs.NArg() > 1 {
		return c.errorf("init: one DIR at most")
	} else if fs.NArg() == 1 {
		dir = fs.Arg(0)
	}
	path := filepath.Join(dir, policy.FileName)
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
