package cmdguard

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/cmdguard/cmdguard/exec"
	"github.com/cmdguard/cmdguard/internal/sandboxplan"
	"github.com/cmdguard/cmdguard/policy"

	"mvdan.cc/sh/v3/syntax"
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
	// means the policy's exec.hard_timeout; for Run, else its
	// exec.timeout; else none.
	Timeout time.Duration
	// SoftTimeout (Start only) is how long Process.Wait waits before it
	// returns the output so far with status running, the command going
	// on. Zero means the policy's exec.timeout, else none; negative means
	// none.
	SoftTimeout time.Duration
	// Grace is how long a kill waits after SIGTERM before SIGKILL, and
	// DrainWindow how long output is read after the command's exit while
	// background processes hold it; zero means the exec package's defaults.
	Grace, DrainWindow time.Duration
	// OutputLimit is the number of newest bytes kept per stream. Zero means
	// the policy's exec.output_limit, else exec.DefaultOutputLimit.
	OutputLimit int
	// Approve is asked when the verdict is Ask; the command runs only if it
	// returns true. A nil Approve refuses every Ask.
	Approve func(Decision) bool
	// Sandbox runs the command in the policy's sandbox (see
	// [policy.Sandbox]) even when the policy does not enable it.
	Sandbox bool
}

// ErrRefused is returned by Run and Start when the gate did not let the
// command run.
var ErrRefused = errors.New("cmdguard: command refused")

// ErrClosed is returned by Run and Start after [Guard.Close].
var ErrClosed = errors.New("cmdguard: guard closed")

// Run checks req and runs the command if the verdict is Allow, or Ask and
// req.Approve approves it, and waits for it to end; ctx bounds both the
// check and the command's life (its end kills the command). The timeout
// is req.Timeout, else the policy's exec.hard_timeout, else its
// exec.timeout. See [Guard.Start].
func (g *Guard) Run(ctx context.Context, req RunRequest) (Decision, exec.Result, error) {
	if p := g.Policy(); req.Timeout == 0 && p != nil {
		cfg := p.Exec()
		req.Timeout = cmp.Or(cfg.HardTimeout, cfg.Timeout)
	}
	req.SoftTimeout = -1 // Run waits for the end
	d, p, err := g.start(ctx, ctx, req)
	if err != nil {
		return d, exec.Result{}, err
	}
	defer p.Release()
	res, err := p.Wait(context.Background())
	return d, res, err
}

// Start checks req and starts the command if the verdict is Allow, or Ask
// and req.Approve approves it; it does not wait. The Process is what an
// adapter for ACP terminals or a /v1/bash session drives: Poll, Read and
// WaitOutput for output, Write for stdin (with req.StdinPipe), Status,
// Wait (which returns at the soft timeout), Kill and Release.
//
// ctx bounds the check only: the command's life is ended by Kill,
// Release, its hard timeout (req.Timeout, else the policy's
// exec.hard_timeout), or [Guard.Close] — not by ctx, so that an HTTP
// handler's request context does not end an asynchronous command.
//
// It runs exactly the checked string with bash in the checked directory,
// in its own process group. The environment is req.BaseEnv (the host's
// when nil) reduced to the policy's exec.env_allow names when the policy
// sets them, plus every variable req.Env adds, which the check judged. A
// refused command never starts: Start returns the Decision, a nil Process
// and an error wrapping ErrRefused.
func (g *Guard) Start(ctx context.Context, req RunRequest) (Decision, *exec.Process, error) {
	// The command's life is its own: Kill, Release, timeouts and Close
	// end it, not the context of the request that started it.
	return g.start(ctx, context.Background(), req)
}

// start checks req within ctx and starts the command, which life ends.
func (g *Guard) start(ctx, life context.Context, req RunRequest) (Decision, *exec.Process, error) {
	// A check told the command runs sandboxed must run it sandboxed.
	req.Sandbox = req.Sandbox || req.Request.Sandboxed
	req.Request.Sandboxed, req.Request.running = req.Sandbox, true
	d, used, err := g.checkPolicy(ctx, req.Request, false)
	if err != nil {
		g.logStart(&req, d, false, nil, err)
		return d, nil, fmt.Errorf("%w: %w", ErrRefused, err)
	}
	asked := d.Verdict == Ask && req.Approve != nil
	switch {
	case d.Verdict == Allow:
	case asked && req.Approve(d):
	default:
		g.logStart(&req, d, asked, nil, nil)
		return d, nil, fmt.Errorf("%w: %s", ErrRefused, d.Verdict)
	}
	cfg := used.Exec() // the policy the command was allowed by
	base, added := req.env()
	c := exec.Cmd{
		Command:     req.Command,
		Dir:         g.cwd(req.Cwd),
		Env:         commandEnv(base, cfg.EnvAllow, added),
		Stdin:       req.Stdin,
		StdinPipe:   req.StdinPipe,
		Combined:    req.Combined,
		Stdout:      req.Stdout,
		Stderr:      req.Stderr,
		OutputLimit: req.OutputLimit,
		HardTimeout: cmp.Or(req.Timeout, cfg.HardTimeout),
		SoftTimeout: cmp.Or(req.SoftTimeout, cfg.Timeout),
		Grace:       req.Grace,
		DrainWindow: req.DrainWindow,
	}
	if c.OutputLimit == 0 && cfg.OutputLimit > 0 {
		c.OutputLimit = int(min(cfg.OutputLimit, 1<<40))
	}
	var rec *sandboxplan.Run
	c.Sandbox, rec = g.sandboxRun(req, used, true)
	if c.Sandbox != nil && reliesOnSandbox(d) {
		// The verdict counted on the sandbox (a finding it enforces, a
		// runner it contains): never run without it.
		c.Sandbox.Optional = false
	}
	p, err := g.procs.start(life, c)
	if err != nil {
		rec.Abandon() // it never started
	} else {
		rec.Started(p.Pid())
	}
	g.logStart(&req, d, asked, p, err)
	return d, p, err
}

// CommandLine returns the bash line that runs program with args, each
// word quoted so that bash reads it back as exactly that word (ACP's
// terminal/create sends {command, args}). With no args, program is
// returned as it is: a whole shell line, which is what real agents send
// in command. A word bash cannot carry (one holding a NUL byte) is an
// error.
func CommandLine(program string, args []string) (string, error) {
	if len(args) == 0 {
		return program, nil
	}
	words := make([]string, 0, 1+len(args))
	for _, w := range append([]string{program}, args...) {
		q, err := syntax.Quote(w, syntax.LangBash)
		if err != nil {
			return "", fmt.Errorf("cmdguard: quote %q: %w", w, err)
		}
		words = append(words, q)
	}
	return strings.Join(words, " "), nil
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

// commandEnv is the environment a command runs with: the entries of base
// whose names are in allow (all of them for a nil allow) and that added
// does not replace, then added.
func commandEnv(base, allow, added []string) []string {
	out := make([]string, 0, len(base)+len(added))
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if allow != nil && !slices.Contains(allow, k) {
			continue
		}
		if slices.ContainsFunc(added, func(a string) bool { n, _, _ := strings.Cut(a, "="); return n == k }) {
			continue
		}
		out = append(out, kv)
	}
	return append(out, added...)
}

// procSet is the set of processes a Guard started, so that Close can end
// them. The zero value is ready to use.
type procSet struct {
	mu     sync.Mutex
	closed bool
	live   map[*exec.Process]struct{}
}

// start starts c unless the set is closed, and tracks the process until
// it ends; the end of life ends the command.
func (s *procSet) start(life context.Context, c exec.Cmd) (*exec.Process, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrClosed
	}
	p, err := exec.Start(life, c)
	if err != nil {
		return nil, err
	}
	if s.live == nil {
		s.live = map[*exec.Process]struct{}{}
	}
	s.live[p] = struct{}{}
	go func() {
		<-p.Done()
		s.mu.Lock()
		delete(s.live, p)
		s.mu.Unlock()
	}()
	return p, nil
}

// Close ends every command the Guard started that is still running, as
// Kill(SIGTERM) does (SIGKILL after the grace period), waits for them to
// be reaped or for ctx to end, and makes later Run and Start calls fail
// with ErrClosed. Checks still work. A server calls it on SIGTERM or
// SIGINT. Close is idempotent.
func (g *Guard) Close(ctx context.Context) error {
	if g == nil || g.procs == nil {
		return nil
	}
	s := g.procs
	s.mu.Lock()
	s.closed = true
	live := make([]*exec.Process, 0, len(s.live))
	for p := range s.live {
		live = append(live, p)
	}
	s.mu.Unlock()
	done := make(chan struct{})
	go func() {
		var wg sync.WaitGroup
		for _, p := range live {
			wg.Go(func() { p.Kill(syscall.SIGTERM) })
		}
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// sandbox returns the sandbox a command of req runs in, or nil when the
// policy does not ask for one and req does not force it. A sandbox that
// could not be worked out carries the reason in its Err, which the
// executor handles as a failure to set it up (refused when required).
func (g *Guard) sandbox(req RunRequest, pol *policy.Policy) *exec.Sandbox {
	sb, _ := g.sandboxRun(req, pol, false)
	return sb
}

// sandboxRun is sandbox that, with record, also writes the run's record
// (see sandboxplan.Run) before the command starts: its After removes it
// once the quarantine is done. A record that cannot be written is a
// sandbox that cannot be set up.
func (g *Guard) sandboxRun(req RunRequest, pol *policy.Policy, record bool) (*exec.Sandbox, *sandboxplan.Run) {
	cfg := pol.Sandbox()
	if !cfg.Enabled && !req.Sandbox {
		return nil, nil
	}
	env := req.BaseEnv
	if env == nil {
		env = os.Environ()
	}
	all := append(slices.Clip(env), req.Env...)
	homes := sandboxplan.Homes(all)
	pl := sandboxplan.New(g.root, pol, homes)
	sb := &exec.Sandbox{Network: cfg.Network, Optional: !cfg.Required && !req.Sandbox,
		Hide: pl.Hide, Protect: pl.Protect, Absent: pl.Absent, Err: pl.Err}
	if cfg.Egress != nil && !cfg.Network {
		sb.Proxy = newNetProxy(cfg.Egress)
	}
	sb.ReadOnly = true
	sb.Writable, sb.Cow = sandboxPlaces(g.root, cfg, all, homes)
	sb.Seal, sb.Sockets = homes, sandboxSockets(cfg, homes)
	if sandboxHidesByPattern {
		fillHideFiles(sb, g.root, pol, homes)
	}
	var rec *sandboxplan.Run
	if record && sb.Err == nil {
		rec, sb.Err = beginRun(&pl, g.root, sb)
	}
	if after := pl.After; after != nil {
		sb.After = func() []exec.Quarantined {
			var out []exec.Quarantined
			for _, q := range rec.End(after()) {
				out = append(out, exec.Quarantined(q))
			}
			return out
		}
	}
	return sb, rec
}

// sandboxHidesByPattern says that the platform's sandbox reads
// exec.Sandbox.HideFiles (macOS's Seatbelt checks the patterns at every
// access); elsewhere the project is not walked for them.
const sandboxHidesByPattern = runtime.GOOS == "darwin"

// fillHideFiles gives sb the ignore files whose patterns hide, and the
// policy's own patterns (sandboxplan.HideFiles); one that cannot be read
// is a sandbox that cannot be set up.
func fillHideFiles(sb *exec.Sandbox, root string, pol *policy.Policy, homes []string) {
	if sb.Err != nil {
		return
	}
	files, err := sandboxplan.HideFiles(root, pol, homes)
	if err != nil {
		sb.Err = err
		return
	}
	for _, f := range files {
		sb.HideFiles = append(sb.HideFiles, exec.HideFile(f))
	}
}

// beginRun writes the record of a run of pl in root before it starts,
// and makes the records directory read-only in sb when it lies in a
// place sb may write (XDG_STATE_HOME in the project): a command must not
// plant or remove a record.
func beginRun(pl *sandboxplan.Plan, root string, sb *exec.Sandbox) (*sandboxplan.Run, error) {
	dir, err := sandboxplan.RunsDir()
	if err != nil {
		return nil, fmt.Errorf("run record: %w", err)
	}
	rec, err := pl.Begin(dir, root)
	if err != nil {
		return nil, fmt.Errorf("run record: %w", err)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		rec.Abandon()
		return nil, fmt.Errorf("run record: %w", err)
	}
	for _, w := range sb.Writable {
		if real == w || strings.HasPrefix(real, w+"/") || strings.HasPrefix(w, real+"/") {
			sb.Protect = append(sb.Protect, real)
			break
		}
	}
	return rec, nil
}

// sandboxCaches are the tool caches (relative to a home directory) that
// get a copy-on-write layer in the sandbox: a build reads and fills
// them, and what it wrote is gone with the run (a planted build-cache
// entry, an edited module, a cargo config never reach a later command
// outside). sandbox.persist keeps a cache writable for real.
var sandboxCaches = []string{".cache", "go/pkg/mod", ".npm", ".cargo/registry", ".cargo/git",
	".m2/repository", ".gradle/caches", ".yarn", ".local/share/pnpm"}

// sandboxCacheEnv are the variables that name a cache (or, for GOPATH, a
// list of directories whose pkg/mod is one) or a temporary directory.
var sandboxCacheEnv = []string{"GOCACHE", "GOMODCACHE", "GOPATH", "npm_config_cache", "PIP_CACHE_DIR",
	"CARGO_HOME", "XDG_CACHE_HOME", "TMPDIR", "YARN_CACHE_FOLDER"}

// sandboxPlaces returns where a sandboxed command may write for real
// (the project, its git directory when it lives elsewhere, the policy's
// writable: and persist: places) and the caches that get a layer of
// their own, as real paths (those that do not exist are left out).
func sandboxPlaces(root string, cfg policy.Sandbox, env, homes []string) (writable, cow []string) {
	real := func(p string) (string, bool) {
		if !filepath.IsAbs(p) {
			return "", false
		}
		r, err := filepath.EvalSymlinks(p)
		if err != nil || r == "/" {
			return "", false
		}
		return r, true
	}
	expand := func(pats []policy.Pattern) []string {
		var out []string
		for _, pt := range pats {
			if rest, ok := strings.CutPrefix(pt.Pattern, "~/"); ok {
				for _, h := range homes {
					out = append(out, filepath.Join(h, rest))
				}
				continue
			}
			out = append(out, pt.Pattern)
		}
		return out
	}
	add := func(list *[]string, ps ...string) {
		for _, p := range ps {
			if r, ok := real(p); ok && !slices.Contains(*list, r) {
				*list = append(*list, r)
			}
		}
	}
	add(&writable, root)
	// A linked worktree's or a separate git directory (git commit
	// writes there).
	if b, err := os.ReadFile(filepath.Join(root, ".git")); err == nil {
		if dir, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: "); ok {
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(root, dir)
			}
			add(&writable, dir)
			if c, err := os.ReadFile(filepath.Join(dir, "commondir")); err == nil {
				cd := strings.TrimSpace(string(c))
				if !filepath.IsAbs(cd) {
					cd = filepath.Join(dir, cd)
				}
				add(&writable, cd)
			}
		}
	}
	add(&writable, expand(cfg.Writable)...)
	add(&writable, expand(cfg.Persist)...)
	for _, h := range homes {
		for _, c := range sandboxCaches {
			add(&cow, filepath.Join(h, c))
		}
	}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		if !slices.Contains(sandboxCacheEnv, k) {
			continue
		}
		if k == "GOPATH" {
			for _, d := range filepath.SplitList(v) {
				add(&cow, filepath.Join(d, "pkg/mod"))
			}
			continue
		}
		add(&cow, v)
	}
	// A persisted cache is writable, not layered.
	cow = slices.DeleteFunc(cow, func(c string) bool { return slices.Contains(writable, c) })
	return writable, cow
}

// reliesOnSandbox reports whether d allowed anything because the sandbox
// enforces it.
func reliesOnSandbox(d Decision) bool {
	for _, r := range d.Reasons {
		if r.EnforcedBy != "" {
			return true
		}
	}
	return false
}

// sandboxWorks is the probe a check asks (see sandboxWorks below).
func (g *Guard) sandboxWorks() error {
	if g.probe != nil {
		return g.probe()
	}
	return sandboxWorks()
}

// sandboxWorks reports, once per process, whether this machine's kernel
// sets the sandbox up: a command that runs nothing is started in one
// (user, mount and network namespaces, Landlock where the kernel has it).
// It is the kernel's answer, not the policy's, so it is kept for the
// process's life, and across processes until the machine boots again or
// what it depends on changes (sandboxplan.CachedProbe).
var sandboxWorks = sync.OnceValue(func() error {
	return sandboxplan.CachedProbe(func() error {
		res, err := exec.Run(context.Background(), exec.Cmd{Command: ":", Dir: os.TempDir(),
			Env: []string{"PATH=/usr/bin:/bin"}, HardTimeout: 10 * time.Second, Sandbox: &exec.Sandbox{}})
		switch {
		case err != nil:
			return err
		case res.Sandbox == nil || !res.Sandbox.Applied:
			return errors.New("the sandbox was not applied")
		}
		return nil
	})
})
