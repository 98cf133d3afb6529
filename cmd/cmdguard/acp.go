package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	osexec "os/exec"
	"os/signal"
	"syscall"
	"time"

	"github.com/cmdguard/cmdguard/adapter/acp"
)

const acpAbout = `Runs the ACP agent AGENT and stands between it and the editor that started
cmdguard, on standard input and output. Every message passes both ways, but:
the agent is told the editor supports terminals, and its terminal/* requests
are run by cmdguard through the gate (an ask becomes a permission prompt in
the editor: allow once, always allow, reject); its fs/read_text_file and
fs/write_text_file requests are checked against the ignore files and
protected paths; a terminal the agent shows in a tool call reaches the
editor as text (command, output, exit). When either side ends, the other is
ended and so is every command cmdguard started. Details: docs/acp.md.

In Zed (settings.json):
  "agent_servers": {"My agent (cmdguard)": {"type": "custom",
    "command": "cmdguard", "args": ["acp", "--", "my-agent", "--acp"]}}

Exit codes: 0 when the editor closed the session; the agent's own exit
code when it ended first (128+n for signal n); 125 when the agent could
not be started or the policy is invalid.`

// acpGrace is how long the agent gets to exit once its input is closed,
// and again after SIGTERM, before SIGKILL.
const acpGrace = 2 * time.Second

func (c *cli) acp(args []string) int {
	fs := c.flagSet("acp")
	var f gateFlags
	fs.StringVar(&f.policy, "policy", "", "policy `FILE` (default: the first .cmdguard.yaml above --cwd, else the built-in policy)")
	fs.StringVar(&f.cwd, "cwd", "", "project `DIR` the agent and its commands run in (default: the current directory)")
	sandbox := fs.Bool("sandbox", false, "run every command under the policy's kernel sandbox, as cmdguard run --sandbox (a policy whose sandbox: section enables it needs no flag)")
	quiet := fs.Bool("quiet", false, "do not log refusals and dropped messages to stderr")
	if err := c.parseFlags(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		fmt.Fprintf(c.stderr, "cmdguard: acp: %v\n", err)
		return exitRefused
	}
	argv := fs.Args()
	if len(argv) == 0 {
		fmt.Fprintf(c.stderr, "cmdguard: acp: no agent given: cmdguard acp [flags] -- AGENT [ARGS...]\n")
		return exitRefused
	}
	g, dir, err := f.guard()
	if err != nil {
		fmt.Fprintf(c.stderr, "cmdguard: acp: %v\n", err)
		return exitRefused
	}
	log := slog.New(slog.NewTextHandler(c.stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	if *quiet {
		log = slog.New(slog.DiscardHandler)
	}

	agent := osexec.Command(argv[0], argv[1:]...)
	agent.Dir = dir
	agent.Stderr = c.stderr
	// The agent ends with cmdguard, even when cmdguard is killed (Linux).
	agent.SysProcAttr = agentAttr()
	agentIn, err := agent.StdinPipe()
	if err != nil {
		fmt.Fprintf(c.stderr, "cmdguard: acp: %v\n", err)
		return exitRefused
	}
	// Not StdoutPipe: Wait closes that pipe when the agent exits, which
	// would lose what it wrote last.
	agentOut, agentStdout, err := os.Pipe()
	if err != nil {
		fmt.Fprintf(c.stderr, "cmdguard: acp: %v\n", err)
		return exitRefused
	}
	defer agentOut.Close()
	agent.Stdout = agentStdout
	err = agent.Start()
	agentStdout.Close()
	if err != nil {
		fmt.Fprintf(c.stderr, "cmdguard: acp: start the agent: %v\n", err)
		return exitRefused
	}
	exited := make(chan struct{})
	go func() {
		agent.Wait()
		close(exited)
	}()

	// SIGPIPE too: a write to an editor that is gone must end the session
	// in order (commands ended, agent stopped), not kill cmdguard outright;
	// a caught signal, unlike an ignored one, is not inherited.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE)
	defer stop()
	p := &acp.Proxy{Guard: g, BaseEnv: os.Environ(), Log: log, Sandbox: *sandbox, Agent: agentName(argv)}
	runErr := p.Run(ctx, c.stdin, c.stdout, agentIn, agentOut)

	// Every command cmdguard started ends; then the agent.
	closeCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	g.Close(closeCtx)
	cancel()
	endAgent(agent, exited)

	switch {
	case errors.Is(runErr, acp.ErrEditorClosed), errors.Is(runErr, context.Canceled):
		return 0
	case errors.Is(runErr, acp.ErrAgentClosed):
		if code := agent.ProcessState.ExitCode(); code >= 0 {
			return code
		}
		if ws, ok := agent.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return 1
	}
	fmt.Fprintf(c.stderr, "cmdguard: acp: %v\n", runErr)
	return 1
}

// endAgent waits for the agent to exit after its input was closed, then
// sends SIGTERM, then SIGKILL.
func endAgent(agent *osexec.Cmd, exited <-chan struct{}) {
	for _, sig := range []syscall.Signal{0, syscall.SIGTERM, syscall.SIGKILL} {
		if sig != 0 {
			agent.Process.Signal(sig)
		}
		select {
		case <-exited:
			return
		case <-time.After(acpGrace):
		}
	}
	<-exited
}
