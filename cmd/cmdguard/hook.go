package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/cmdguard/cmdguard/adapter/hook"
)

// isHelp reports whether args ask for a command's help and nothing else.
func isHelp(args []string) bool {
	return len(args) == 1 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help")
}

func (c *cli) hook(args []string) int {
	flags := c.flagSet("hook")
	agent := flags.String("agent", "", "the agent's dialect: claude, gemini, codex, cursor or cline (default: detected from the input)")
	askAsDeny := flags.Bool("ask-as-deny", false, "answer ask as deny (headless runs: Gemini CLI would wait forever)")
	policy := flags.String("policy", "", "policy `FILE` (default: the first .cmdguard.yaml above the hook's cwd)")
	timeout := flags.Duration("timeout", hook.DefaultTimeout, "the whole hook's budget; running out is a deny")
	sandbox := flags.Bool("sandbox", false, "Claude Code, Codex, Gemini CLI: check commands as run under the policy's kernel sandbox, and rewrite an allowed one to run there (cmdguard run --sandbox)")
	opts := hook.Options{Env: os.Environ()}
	opts.Dir, _ = os.Getwd()
	if isHelp(args) {
		c.parseFlags(flags, []string{"--help"})
		return 0
	}
	flags.SetOutput(io.Discard) // the answer goes to stdout; the reason names the bad flag
	if err := flags.Parse(args); err != nil || flags.NArg() > 0 {
		// Still answer: an agent that runs a mistyped hook must not run the command.
		if err == nil {
			err = fmt.Errorf("unexpected arguments %q", flags.Args())
		}
		return hook.Fail(guessAgent(args), fmt.Sprintf("bad hook arguments: %v", err), c.stdout, c.stderr)
	}
	if *agent != "" {
		a, err := hook.ParseAgent(*agent)
		if err != nil {
			return hook.Fail("", err.Error(), c.stdout, c.stderr)
		}
		opts.Agent = a
	}
	opts.AskAsDeny, opts.Policy, opts.Timeout, opts.Sandbox = *askAsDeny, *policy, *timeout, *sandbox
	if opts.Sandbox {
		bin, err := agentBin("")
		if err != nil {
			return hook.Fail(opts.Agent, "cannot find this program for the sandbox: "+err.Error(), c.stdout, c.stderr)
		}
		opts.Bin = bin
	}
	return hook.Run(context.Background(), opts, c.stdin, c.stdout, c.stderr)
}

// guessAgent finds --agent X in arguments that did not parse.
func guessAgent(args []string) hook.Agent {
	for i, a := range args {
		v, ok := strings.CutPrefix(a, "--agent=")
		if !ok && (a == "--agent" || a == "-agent") && i+1 < len(args) {
			v, ok = args[i+1], true
		}
		if ok {
			if ag, err := hook.ParseAgent(v); err == nil {
				return ag
			}
		}
	}
	return ""
}

// agentBin is the cmdguard an agent is to run: bin when given, else
// "cmdguard" when that is this program on PATH, else this program's
// absolute path.
func agentBin(bin string) (string, error) {
	if bin != "" {
		return bin, nil
	}
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	if onPath, err := exec.LookPath("cmdguard"); err == nil && sameFile(onPath, self) {
		return "cmdguard", nil
	}
	return self, nil
}
