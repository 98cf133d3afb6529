package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/term"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/exec"
)

// runResult is the JSON object of `cmdguard run --format json`.
type runResult struct {
	Decision   cmdguard.Verdict  `json:"decision"`
	Reasons    []cmdguard.Reason `json:"reasons"`
	Status     string            `json:"status"` // completed | timed_out | killed | refused | error
	ExitCode   *int              `json:"exit_code"`
	Signal     *string           `json:"signal"`
	CoreDumped bool              `json:"core_dumped"`
	Stdout     string            `json:"stdout"`
	Stderr     string            `json:"stderr"`
	Truncated  bool              `json:"truncated"`
	DurationMS int64             `json:"duration_ms"`
	// Sandbox is what sandbox the command ran in; null without one.
	Sandbox *exec.SandboxReport `json:"sandbox"`
	Error   string              `json:"error,omitempty"`
}

func (c *cli) run(args []string) int {
	fs := c.flagSet("run")
	var f gateFlags
	f.register(fs)
	timeout := fs.Duration("timeout", 0, "end the command after `D` (exit 124); default: the policy's exec timeout")
	sandbox := fs.Bool("sandbox", false, "run the command in the policy's sandbox (its defaults if it has no sandbox: section), even if it is not enabled")
	limit := fs.String("output-limit", "", "keep the newest `N` bytes of each stream in JSON (e.g. 65536, 64KiB, 1MiB)")
	if wantsJSON(args) {
		c.jsonErr = func(msg string) {
			writeJSON(c.stdout, runResult{Decision: cmdguard.Deny, Reasons: []cmdguard.Reason{}, Status: "error", Error: msg})
		}
	}
	cmd, err := c.parse(fs, &f, args)
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return c.failf(exitRefused, "run: %v", err)
	}
	if *timeout < 0 {
		return c.failf(exitRefused, "run: --timeout %v: want a positive duration such as 30s (0 or none: the policy's)", *timeout)
	}
	outLimit, err := parseSize(*limit)
	if err != nil {
		return c.failf(exitRefused, "run: --output-limit: %v", err)
	}
	g, cwd, err := f.guard()
	if err != nil {
		return c.failf(exitRefused, "%v", err)
	}
	req := cmdguard.RunRequest{
		Request:     cmdguard.Request{Command: cmd, Cwd: cwd, BaseEnv: os.Environ()},
		Stdin:       c.stdin,
		Timeout:     *timeout,
		SoftTimeout: -1, // run waits for the end, as Guard.Run does
		OutputLimit: outLimit,
		Sandbox:     *sandbox,
	}
	if req.Timeout == 0 {
		cfg := g.Policy().Exec()
		req.Timeout = cmp.Or(cfg.HardTimeout, cfg.Timeout)
	}
	if f.format == "text" {
		req.Stdout, req.Stderr = c.stdout, c.stderr
	}
	if isTerminal(c.stdin) && isTerminal(c.stderr) {
		req.Approve = func(d cmdguard.Decision) bool { return c.prompt(cmd, d, g) }
	}
	d, res, err := c.start(g, req)
	out := runResult{Decision: d.Verdict, Reasons: d.Reasons, Status: string(res.Status)}
	switch {
	case errors.Is(err, cmdguard.ErrRefused):
		out.Status = "refused"
		if f.format == "json" {
			writeJSON(c.stdout, out)
		} else {
			fmt.Fprintf(c.stderr, "cmdguard: refused: ")
			g.Render(c.stderr, cmd, d)
		}
		return exitRefused
	case err != nil:
		out.Status, out.Error = "error", errText(err)
		if f.format == "json" {
			writeJSON(c.stdout, out)
		}
		fmt.Fprintf(c.stderr, "cmdguard: run: %s\n", errText(err))
		return exitRefused
	}
	out.ExitCode = res.ExitCode
	if res.Signal != "" {
		out.Signal = &res.Signal
	}
	out.CoreDumped = res.CoreDumped
	out.Truncated = res.Truncated()
	out.DurationMS = res.Duration.Milliseconds()
	out.Sandbox = res.Sandbox
	if res.Sandbox != nil && !res.Sandbox.Applied && f.format == "text" {
		fmt.Fprintf(c.stderr, "cmdguard: ran WITHOUT the sandbox (required: false): %s\n", res.Sandbox.Error)
	}
	if res.Sandbox != nil {
		for _, n := range res.Sandbox.Connections {
			if !n.Allowed {
				fmt.Fprintf(c.stderr, "network: refused %s, %s\n", net.JoinHostPort(n.Host, strconv.Itoa(n.Port)), n.Reason)
			}
		}
	}
	if res.Sandbox != nil && f.format == "text" {
		for _, q := range res.Sandbox.Quarantined {
			switch {
			case q.Error != "":
				fmt.Fprintf(c.stderr, "cmdguard: the command created %s (%s) and it could NOT be moved aside: %s\n", q.Path, q.Reason, q.Error)
			case q.MovedTo == q.Path: // a directory made readable again, in place
				fmt.Fprintf(c.stderr, "cmdguard: the command made %s unreadable (%s)\n", q.Path, q.Reason)
			default:
				fmt.Fprintf(c.stderr, "cmdguard: the command created %s (%s): moved to %s\n", q.Path, q.Reason, q.MovedTo)
			}
		}
	}
	if f.format == "json" {
		writeRunJSON(c.stdout, out, res.Stdout.Data, res.Stderr.Data)
	} else if res.Signal != "" || res.Status != exec.StatusCompleted {
		fmt.Fprintf(c.stderr, "cmdguard: %s\n", res.Explain())
	}
	if res.Status == exec.StatusTimedOut {
		return exitTimedOut
	}
	if code := res.ShellCode(); code >= 0 {
		return code
	}
	return exitRefused
}

// start checks and starts the command, passes the signals a terminal or a
// supervisor sends cmdguard on to its process group as a shell would
// (Ctrl-C is SIGINT to the command; SIGTERM and SIGHUP end the group with
// escalation), and waits for it.
func (c *cli) start(g *cmdguard.Guard, req cmdguard.RunRequest) (cmdguard.Decision, exec.Result, error) {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	d, p, err := g.Start(context.Background(), req)
	if err != nil {
		return d, exec.Result{}, err
	}
	defer p.Release()
	go func() {
		for {
			select {
			case s := <-sigs:
				if s == os.Interrupt {
					p.Signal(syscall.SIGINT)
				} else {
					p.Kill(s.(syscall.Signal))
				}
			case <-p.Done():
				return
			}
		}
	}()
	res, err := p.Wait(context.Background())
	return d, res, err
}

// parseSize parses a byte count: a number with an optional KiB, MiB or GiB
// suffix (or KB/MB/GB, also binary). Empty means 0 (the default).
func parseSize(s string) (int, error) {
	if s == "" {
		return 0, nil
	}
	mult := 1
	for _, u := range []struct {
		suffix string
		mult   int
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30}, {"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}} {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSuffix(s, u.suffix), u.mult
			break
		}
	}
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil || n <= 0 || n > (1<<40)/mult {
		return 0, fmt.Errorf("invalid size %q: want a positive number of bytes, e.g. 65536 or 1MiB", s)
	}
	return n * mult, nil
}

func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// prompt shows an ask decision on stderr and reads the answer from stdin:
// yes once, no, or always (which appends the narrowest allow prefixes to
// the policy file in use, shown before it is written).
func (c *cli) prompt(cmd string, d cmdguard.Decision, g *cmdguard.Guard) bool {
	fmt.Fprintf(c.stderr, "cmdguard: this command needs your approval: ")
	g.Render(c.stderr, cmd, d)
	prefixes, whyNot := g.AllowPrefixes(d)
	for _, p := range prefixes {
		if slices.Contains(p, "*") {
			// policy.AppendAllow refuses it too: a policy reads * as any word.
			whyNot = errors.New("the command has the word *, which a policy reads as any word")
		}
	}
	path := g.Policy().Path()
	choices := "[y]es once, [n]o"
	if whyNot == nil && path != "" {
		choices += ", [a]lways"
	}
	for {
		fmt.Fprintf(c.stderr, "Run it? %s: ", choices)
		answer, err := readLine(c.stdin)
		if err != nil {
			fmt.Fprintln(c.stderr)
			return false
		}
		switch strings.ToLower(strings.TrimSpace(answer)) {
		case "y", "yes":
			return true
		case "n", "no", "":
			return false
		case "a", "always":
			if path == "" {
				fmt.Fprintln(c.stderr, "no policy file is in use: run `cmdguard init` first")
				continue
			}
			if whyNot != nil {
				fmt.Fprintf(c.stderr, "always cannot help here: %v\n", whyNot)
				continue
			}
			for _, p := range prefixes {
				fmt.Fprintf(c.stderr, "adding to %s: allow: %q\n", path, strings.Join(p, " "))
			}
			if err := g.AddAllow(prefixes); err != nil {
				fmt.Fprintf(c.stderr, "cmdguard: %v\n", err)
				return false
			}
			return true
		}
	}
}

// readLine reads one line a byte at a time, so that what follows it stays
// in stdin for the command.
func readLine(r io.Reader) (string, error) {
	var b []byte
	one := make([]byte, 1)
	for {
		n, err := r.Read(one)
		if n == 1 {
			if one[0] == '\n' {
				return string(b), nil
			}
			b = append(b, one[0])
		}
		if err != nil {
			if len(b) > 0 && err == io.EOF {
				return string(b), nil
			}
			return "", err
		}
	}
}
