package cmdguard

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/cmdguard/cmdguard/exec"
)

// RunRequest is a command to check and, if the gate lets it, run.
type RunRequest struct {
	Request
	// Stdin is the command's standard input; nil means the null device.
	Stdin io.Reader
	// StdinPipe makes stdin a pipe fed by Process.Write (Start only).
	StdinPipe bool
	// Stdout and Stderr, if set, receive the output live as well.
	Stdout, Stderr io.Writer
	// Combined puts both streams into Result.Stdout in true order.
	Combined bool
	// Timeout ends the command (status timed_out) after this long. Zero
	// means the policy's exec.hard_timeout, else its exec.timeout, else none.
	Timeout time.Duration
	// OutputLimit is the number of newest bytes kept per stream. Zero means
	// the policy's exec.output_limit, else exec.DefaultOutputLimit.
	OutputLimit int
	// Approve is asked when the verdict is Ask; the command runs only if it
	// returns true. A nil Approve refuses every Ask.
	Approve func(Decision) bool
}

// ErrRefused is returned by Run when the gate did not let the command run.
var ErrRefused = errors.New("cmdguard: command refused")

// Run checks req and runs the command if the verdict is Allow, or Ask and
// req.Approve approves it, and waits for it to end. See [Guard.Start].
func (g *Guard) Run(ctx context.Context, req RunRequest) (Decision, exec.Result, error) {
	d, p, err := g.Start(ctx, req)
	if err != nil {
		return d, exec.Result{}, err
	}
	defer p.Release()
	res, err := p.Wait(context.Background())
	return d, res, err
}

// Start checks req and starts the command if the verdict is Allow, or Ask
// and req.Approve approves it; it does not wait. The Process is what an
// adapter for ACP terminals or a /v1/bash session drives: Read and
// WaitOutput for output, Write for stdin (with req.StdinPipe), Wait, Kill
// and Release. If ctx ends before the command, the command is ended.
//
// It runs exactly the checked string with bash in the checked directory,
// in its own process group; the environment is req.Env, reduced to the
// policy's exec.env_allow names when the policy sets them. A refused
// command never starts: Start returns the Decision, a nil Process and an
// error wrapping ErrRefused.
func (g *Guard) Start(ctx context.Context, req RunRequest) (Decision, *exec.Process, error) {
	d, used, err := g.checkPolicy(ctx, req.Request, false)
	if err != nil {
		return d, nil, fmt.Errorf("%w: %w", ErrRefused, err)
	}
	switch {
	case d.Verdict == Allow:
	case d.Verdict == Ask && req.Approve != nil && req.Approve(d):
	default:
		return d, nil, fmt.Errorf("%w: %s", ErrRefused, d.Verdict)
	}
	cfg := used.Exec() // the policy the command was allowed by
	c := exec.Cmd{
		Command:     req.Command,
		Dir:         g.cwd(req.Cwd),
		Env:         filterEnv(req.Env, cfg.EnvAllow),
		Stdin:       req.Stdin,
		StdinPipe:   req.StdinPipe,
		Combined:    req.Combined,
		Stdout:      req.Stdout,
		Stderr:      req.Stderr,
		OutputLimit: req.OutputLimit,
		HardTimeout: req.Timeout,
	}
	if c.HardTimeout == 0 {
		c.HardTimeout = firstNonZero(cfg.HardTimeout, cfg.Timeout)
	}
	if c.OutputLimit == 0 && cfg.OutputLimit > 0 {
		c.OutputLimit = int(min(cfg.OutputLimit, 1<<40))
	}
	p, err := exec.Start(ctx, c)
	return d, p, err
}

func firstNonZero(a, b time.Duration) time.Duration {
	if a != 0 {
		return a
	}
	return b
}

// cwd resolves a request's working directory against the root.
func (g *Guard) cwd(dir string) string {
	switch {
	case dir == "":
		return g.root
	case !filepath.IsAbs(dir):
		return filepath.Join(g.root, dir)
	}
	return filepath.Clean(dir)
}

// filterEnv keeps the entries of env whose names are in allow; a nil
// allow keeps everything.
func filterEnv(env, allow []string) []string {
	if allow == nil {
		return env
	}
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		for _, a := range allow {
			if k == a {
				out = append(out, kv)
				break
			}
		}
	}
	return out
}
