package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cmdguard/cmdguard"
)

// errorResult is the JSON object of check and explain when they fail
// before deciding (bad usage, an invalid policy): a deny with the error.
type errorResult struct {
	Decision cmdguard.Verdict   `json:"decision"`
	Reasons  []cmdguard.Reason  `json:"reasons"`
	Commands []cmdguard.Command `json:"commands"`
	Error    string             `json:"error"`
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
