package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/policy"
)

// policyUsage is cmdguard policy alone, or with --help: the policy
// subcommands.
func (c *cli) policyUsage(args []string) int {
	if len(args) == 0 || !isHelp(args) {
		return c.errorf("usage: cmdguard policy lint|test|show [flags] [PATH] (cmdguard policy --help)")
	}
	fmt.Fprint(c.stdout, "Usage: cmdguard policy lint|test|show [flags] [PATH]\n\n")
	for _, sc := range commands() {
		if strings.HasPrefix(sc.name, "policy ") {
			fmt.Fprintf(c.stdout, "  %-12s %s\n", sc.name, sc.summary)
		}
	}
	fmt.Fprint(c.stdout, "\n\"cmdguard policy NAME --help\" shows its flags.\n")
	return 0
}

// policyCmd is cmdguard policy lint and policy test; sub names which,
// args are the arguments after it.
func (c *cli) policyCmd(sub string, args []string) int {
	args = append([]string{sub}, args...)
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

// policyShow is cmdguard policy show: the policy in force for a
// directory, each layer with its origin, as text a person can read (and,
// for a file, exactly that file's text).
func (c *cli) policyShow(args []string) int {
	fs := c.flagSet("policy show")
	var f gateFlags
	fs.StringVar(&f.policy, "policy", "", "policy `FILE` (default: the first .cmdguard.yaml above the cwd, else the built-in policy)")
	fs.StringVar(&f.cwd, "cwd", "", "`DIR` whose policy to show (default: the current directory)")
	if err := c.parseFlags(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return c.errorf("policy show: %v", err)
	}
	if fs.NArg() > 0 {
		return c.errorf("policy show: unexpected arguments %q (use --cwd DIR)", fs.Args())
	}
	g, cwd, err := f.guard()
	if err != nil {
		return c.errorf("policy show: %v", err)
	}
	defer g.Close(context.Background())
	p := g.Policy()
	fmt.Fprintf(c.stdout, "# the policy in force for %s (project root %s)\n", cwd, g.Root())
	if p.IsDefault() {
		fmt.Fprintf(c.stdout, "# embedded default policy: no %s above %s\n", policy.FileName, cwd)
		c.stdout.Write(policy.DefaultYAML())
		return 0
	}
	text, err := os.ReadFile(p.Path())
	if err != nil {
		return c.errorf("policy show: %v", err)
	}
	fmt.Fprintf(c.stdout, "# project policy: %s\n", p.Path())
	fmt.Fprintf(c.stdout, "# (it replaces the embedded default; sandbox: keys it leaves out take the default's values)\n")
	c.stdout.Write(text)
	if len(text) > 0 && text[len(text)-1] != '\n' {
		fmt.Fprintln(c.stdout)
	}
	return 0
}
