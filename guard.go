package cmdguard

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"

	"github.com/cmdguard/cmdguard/internal/analysis"
	"github.com/cmdguard/cmdguard/internal/gitdir"
	"github.com/cmdguard/cmdguard/internal/live"
	"github.com/cmdguard/cmdguard/internal/refcheck"
	"github.com/cmdguard/cmdguard/internal/sandboxplan"
	"github.com/cmdguard/cmdguard/parser"
	"github.com/cmdguard/cmdguard/policy"
)

// Verdict is the outcome of a check: [Allow], [Ask] or [Deny]. It
// marshals to "allow", "ask" or "deny". The zero Verdict is Deny.
type Verdict = policy.Verdict

// The verdicts.
const (
	Deny  = policy.Deny
	Ask   = policy.Ask
	Allow = policy.Allow
)

// Reason is one cause of a Decision: rule id, message, position in the
// command (line:col) and the policy source that fired ("file:line" or
// "builtin").
type Reason = policy.Reason

// Pos is a 1-based line and byte column in the checked command.
type Pos = policy.Pos

// Command is one simple command the gate found, with its argv, wrappers,
// redirects and file references (the facts the policy saw).
type Command = policy.Command

// Decision is the gate's answer for one command string. The zero Decision
// is a deny.
type Decision struct {
	Verdict  Verdict      `json:"decision"`
	Reasons  []Reason     `json:"reasons"`
	Commands []Command    `json:"commands"`
	Trace    policy.Trace `json:"trace,omitempty"` // only from Explain
	// Layer names the layer whose reason decided ("managed", "project"
	// or "embedded") when a managed policy is in force (see
	// [ManagedPath]); empty otherwise.
	Layer string `json:"layer,omitempty"`
}

// Request is what the gate is asked about.
//
// A command's environment comes in two kinds. BaseEnv is the one the
// caller trusts: the host's own environment, which [Guard.Start] reduces to
// the policy's exec.env_allow names. Env is what the request asks for —
// whatever an agent supplied (ACP's env, /v1/bash's env, an MCP argument).
// Every entry of Env that BaseEnv does not already hold with the same
// value is an added variable, and each added variable is judged exactly
// as a VAR=value prefix assignment written in the command would be:
// BASH_ENV, BASH_FUNC_*, PATH, LD_*, IFS, PROMPT_COMMAND, GIT_* program
// keys and the rest of env.code_injection make the decision a deny, with
// the variable named in the reason's source ("env:BASH_ENV"). An added
// variable is never dropped: the command runs with it, or does not run.
type Request struct {
	// Command is the bash source to check: one line or a whole script.
	Command string
	// Cwd is the directory the command would run in. Empty means the
	// Guard's root; a relative Cwd is taken relative to the root.
	Cwd string
	// Env holds the variables the request asks for ("KEY=value"). Those
	// that differ from BaseEnv are judged, added after exec.env_allow's
	// filtering of the base, and known to the file checks: with Env
	// F=.env, `cat $F` reads .env. Passing os.Environ() adds nothing.
	Env []string
	// BaseEnv is the trusted environment ("KEY=value"). Nil means the
	// host's environment (os.Environ); an empty, non-nil slice means none.
	BaseEnv []string
	// Sandboxed says the command will run under the policy's kernel
	// sandbox (Start and Run set it from RunRequest.Sandbox, and run the
	// command sandboxed when it is set). It counts only when the sandbox
	// is required: one that may fail open earns nothing. The
	// embedded default policy allows commands that run the project's code
	// only under it (policy.needs_sandbox). A policy's sandbox: enabled
	// counts only for the commands Start and Run run: a Check alone (a
	// hook, whose agent runs the command itself) runs nothing.
	Sandboxed bool
	// Agent names the agent that asks (the hook's dialect, the MCP
	// client, the ACP agent), for the decision log; it decides nothing.
	Agent string
	// running is set by Start: the command will run, in the policy's
	// sandbox when it is enabled.
	running bool
}

// env returns the request's trusted base environment and the entries of
// Env that add to it or change it.
func (r *Request) env() (base, added []string) {
	base = r.BaseEnv
	if base == nil {
		base = os.Environ()
	}
	for _, kv := range r.Env {
		if !slices.Contains(base, kv) {
			added = append(added, kv)
		}
	}
	return base, added
}

// Guard checks commands for one project. Build it with [Open] or [New];
// it is safe for concurrent use, and suits a long-lived process (a
// server, an adapter): before each check it examines the files it was
// built from, one stat each, and the check uses them as they are then.
// A policy file opened with [Open] or [OpenPolicy] that changed is
// loaded again; one that no longer loads makes every check deny with the
// load error until it is fixed (never the old policy). Ignore files are
// read where a check needs them and examined the same way (see
// [ignore.Matcher]). It remembers the shell analysis of command strings
// it checked more than once (bounded; what a string says never depends on
// the files), never what the files say: every check resolves paths and
// matches ignore rules afresh. A nil or zero Guard denies everything.
type Guard struct {
	root string
	src  *source
	// managed is the managed policy layered over every check (see
	// ManagedPath).
	managed *managedLayer
	// log receives every decision (SetDecisionLog); nil logs nothing.
	log DecisionLog
	// procs holds the commands Start started, for Close.
	procs *procSet
	// stageHook, when set (by tests only), is called before each stage of
	// a check; it lets a test make any stage panic or fail.
	stageHook func(stage string)
	// probe, when set (by tests only), replaces the process's probe of
	// whether the kernel sets the sandbox up (sandboxWorks).
	probe func() error
	// opened holds what Open found finishing unfinished sandboxed runs,
	// for the first check to say.
	opened *openedRuns
	// bases keeps what recent refusals were made from, for their hints
	// (hint.go).
	bases *bases
	// gitDirs remembers which git directory git uses where, for the
	// checks of git commands (refcheck.Checker.Finder).
	gitDirs *gitdir.Finder
}

// openedRuns is what Open's look at unfinished sandboxed runs found.
type openedRuns struct {
	mu   sync.Mutex
	msgs []string
}

// Open builds the Guard for the project that dir belongs to: the policy
// is the first .cmdguard.yaml found walking up from dir's real path
// (symlinks resolved; the embedded default when there is none), and the
// project root is the policy's directory — or, with the default policy,
// the nearest enclosing git work tree, else dir itself. With the default policy, a .cmdguard.yaml
// created later in the root applies from the next check on.
func Open(dir string) (*Guard, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("cmdguard: %w", err)
	}
	// The walk starts from the real directory: a link into the project
	// from a place with a laxer policy (LAX/link -> PROJECT/src) must
	// not pick LAX's policy, and a link out of the project is judged
	// where it leads.
	if dir, err = filepath.EvalSymlinks(dir); err != nil {
		return nil, fmt.Errorf("cmdguard: %w", err)
	}
	// A sandboxed run whose end never came may have planted the policy
	// the walk up would find: its quarantine is done first, and what it
	// found is said by the first check.
	var early []string
	if runs, err := sandboxplan.RunsDir(); err == nil {
		early = sandboxplan.Pending(runs, dir)
	}
	g, err := openDir(dir)
	if err != nil {
		return nil, err
	}
	g.opened = &openedRuns{msgs: early}
	return g, nil
}

func openDir(dir string) (*Guard, error) {
	path, ok, err := policy.Find(dir)
	if err != nil {
		return nil, err
	}
	if ok {
		return OpenPolicy(path)
	}
	root, err := realRoot(findRoot(dir))
	if err != nil {
		return nil, err
	}
	return open(&source{live.Source{Root: root, Path: filepath.Join(root, policy.FileName), Optional: true}})
}

// OpenPolicy builds the Guard for the policy file at path; the project
// root is the file's directory.
func OpenPolicy(path string) (*Guard, error) {
	path, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("cmdguard: %w", err)
	}
	root, err := realRoot(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	return open(&source{live.Source{Root: root, Path: path}})
}

// New builds a Guard from a compiled policy for the project at root (an
// existing directory). The policy is fixed; the ignore files it names are
// read where checks need them, from root and its subdirectories.
func New(p *policy.Policy, root string) (*Guard, error) {
	if p == nil {
		return nil, errors.New("cmdguard: no policy")
	}
	root, err := realRoot(root)
	if err != nil {
		return nil, err
	}
	return open(&source{live.Source{Root: root, Fixed: p}})
}

// PolicyLoadOptions returns the options to load a policy for a [Guard] with
// (policy.Parse(name, data, dir, cmdguard.PolicyLoadOptions()...)): its deny
// and ask rules then match every spelling of their options as the
// parser's program table reads them (rm -fr, rm --recursive --force, git
// branch --delete --force for git branch -D). A policy loaded without
// them matches such a rule wider, on any option word (see
// [policy.Spelling]). The Guard loads its own policy files with them.
func PolicyLoadOptions() []policy.LoadOption {
	return []policy.LoadOption{policy.WithSpelling(policy.Spelling{Command: parser.CommandSpelling, Rule: parser.RuleSpelling})}
}

func realRoot(root string) (string, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("cmdguard: %w", err)
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	return root, nil
}

// open loads the source once: a policy or root ignore file that does not
// load is an error here, and a deny reason at later checks. Policy files
// load with PolicyLoadOptions.
func open(src *source) (*Guard, error) {
	if src.Options == nil {
		src.Options = PolicyLoadOptions()
	}
	if _, err := src.current(); err != nil {
		return nil, err
	}
	return &Guard{root: src.Root, src: src, procs: &procSet{}, managed: managedFile(), log: processLog(), bases: &bases{}, gitDirs: &gitdir.Finder{}}, nil
}

// source is where the Guard's policy and ignore files come from, kept
// current by package live.
type source struct{ live.Source }

// current returns the snapshot a check uses (see live.Source.Current).
func (s *source) current() (*live.Snapshot, error) { return s.Current() }

// findRoot returns the nearest directory at or above dir that holds .git,
// else dir.
func findRoot(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// Root returns the project root the Guard resolves paths against.
func (g *Guard) Root() string { return g.root }

// Policy returns the compiled policy of the Guard as of its last check
// (nil when it no longer loads).
func (g *Guard) Policy() *policy.Policy {
	if g == nil || g.src == nil {
		return nil
	}
	if st := g.src.Last(); st != nil {
		return st.Policy
	}
	return nil
}

// Check decides whether req.Command may run. It never returns Allow with
// an error: on any failure (including ctx's deadline and a panic in any
// stage) the Decision is a Deny whose reason names the failure, and the
// error says what went wrong.
func (g *Guard) Check(ctx context.Context, req Request) (Decision, error) {
	return g.check(ctx, req, false)
}

// Explain is Check that also fills Decision.Trace with every rule the
// policy considered, matched or not.
func (g *Guard) Explain(ctx context.Context, req Request) (Decision, error) {
	return g.check(ctx, req, true)
}

func (g *Guard) check(ctx context.Context, req Request, explain bool) (Decision, error) {
	d, _, err := g.checkPolicy(ctx, req, explain)
	if g != nil {
		g.logCheck(&req, &d)
	}
	return d, err
}

// checkPolicy is check that also returns the policy the decision was made
// with (nil on failure), for the exec settings of the run that follows.
func (g *Guard) checkPolicy(ctx context.Context, req Request, explain bool) (d Decision, used *policy.Policy, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cmdguard: panic while checking: %v\n%s", r, debug.Stack())
			d, used = failed("gate.panic", fmt.Sprintf("the gate panicked: %v", r)), nil
		}
	}()
	if g == nil || g.src == nil {
		return failed("gate.error", "no guard"), nil, errors.New("cmdguard: nil or zero Guard")
	}
	if err := ctx.Err(); err != nil {
		return failedCtx(err), nil, err
	}
	// First: a sandboxed run whose end never came may have planted
	// what the load reads.
	g.stage("runs")
	if d, ok := g.pendingRuns(); !ok {
		return d, nil, nil
	}
	g.stage("load")
	st, err := g.src.current()
	if err != nil {
		return failed("policy.invalid", err.Error()), nil, err
	}
	g.stage("analyze")
	in, err := g.input(req, st)
	if err != nil {
		return failed("gate.error", err.Error()), nil, err
	}
	if err := ctx.Err(); err != nil {
		return failedCtx(err), nil, err
	}
	g.stage("policy")
	var pd policy.Decision
	if explain {
		pd, d.Trace = st.Policy.Explain(ctx, in)
	} else {
		pd = st.Policy.Evaluate(ctx, in)
	}
	g.stage("managed")
	var trace *policy.Trace
	if explain {
		trace = &d.Trace
	}
	if pd, d.Layer, err = g.applyManaged(ctx, in, pd, trace); err != nil {
		d.Verdict, d.Reasons, d.Commands = pd.Verdict, pd.Reasons, []Command{}
		return d, nil, err
	}
	if err := ctx.Err(); err != nil {
		return failedCtx(err), nil, err
	}
	d.Verdict, d.Reasons, d.Commands = pd.Verdict, pd.Reasons, in.Commands
	if d.Verdict != Allow {
		g.bases.put(d, in, st.Policy)
	}
	if d.Verdict == Allow && len(d.Commands) == 0 {
		// Unreachable with a correct parser (empty input is a finding),
		// but an allow must always name what it allows.
		return failed("gate.error", "allow without a command"), nil, errors.New("cmdguard: allow without a command")
	}
	return d, st.Policy, nil
}

// pendingRuns finishes the sandboxed runs of this project (or one that
// holds it or that it holds) whose end never came (see
// sandboxplan.Pending): while one cannot be finished or trusted, every
// check is denied.
func (g *Guard) pendingRuns() (Decision, bool) {
	var msgs []string
	if dir, err := sandboxplan.RunsDir(); err == nil {
		// (No place for records: no sandboxed run can have left one;
		// a run refuses its sandbox without its record.)
		msgs = sandboxplan.Pending(dir, g.root)
	}
	if o := g.opened; o != nil {
		o.mu.Lock()
		msgs, o.msgs = append(o.msgs, msgs...), nil
		o.mu.Unlock()
	}
	if len(msgs) == 0 {
		return Decision{}, true
	}
	d := failed("sandbox.quarantine", msgs[0])
	for _, m := range msgs[1:] {
		d.Reasons = append(d.Reasons, Reason{Verdict: Deny, Rule: "sandbox.quarantine", Message: m, Source: "builtin"})
	}
	return d, false
}

func (g *Guard) stage(name string) {
	if g.stageHook != nil {
		g.stageHook(name)
	}
}

func failed(rule, msg string) Decision {
	return Decision{Verdict: Deny, Reasons: []Reason{{Verdict: Deny, Rule: rule, Message: msg, Source: "builtin"}}, Commands: []Command{}}
}

func failedCtx(err error) Decision {
	if errors.Is(err, context.DeadlineExceeded) {
		return failed("gate.timeout", "checking took longer than allowed")
	}
	return failed("gate.error", "check cancelled: "+err.Error())
}

// input builds the policy input of req: the analysis of the command
// (package analysis; taken from the snapshot's memo when it holds it),
// then the file checks of every command found (package refcheck).
func (g *Guard) input(req Request, st *live.Snapshot) (*policy.Input, error) {
	cwd := g.cwd(req.Cwd)
	base, added := req.env()
	k := analysis.NewKey(req.Command, cwd, base, added)
	in, cmds := st.Memo.Input(&k, added, st.Policy, g.root)
	in.Source, in.Cwd, in.Root = req.Command, cwd, g.root
	switch {
	case req.Sandboxed:
		// Asked for: the run requires it (Start never falls back).
		in.Sandboxed = true
	case req.running:
		// The policy's sandbox: enabled counts when the run will have it:
		// when it is required, or (required: false, as in the embedded
		// default) when this machine's kernel can set it up — the run
		// then requires it after all whenever the decision relies on it
		// (Start). Elsewhere the gate's own answers stand.
		if sb := st.Policy.Sandbox(); sb.Enabled {
			in.Sandboxed = sb.Required || g.sandboxWorks() == nil
		}
	}
	if in.Sandboxed {
		// The run's sandbox is the policy's (Guard.sandbox): its network too.
		in.SandboxNetwork = st.Policy.Sandbox().NetworkKind()
	}
	rc := refcheck.Checker{Root: g.root, Ign: st.Ign, Protected: st.Protected, Start: cwd, Git: st.Git, GitDirEnv: envValue(base, "GIT_DIR"), Finder: g.gitDirs, HomeEnv: append(slices.Clip(base), added...)}
	rc.Line = cmds
	for i := range cmds {
		rc.At = i
		rc.Command(&cmds[i], &in.Commands[i], &in.Findings)
	}
	return in, nil
}

func pos(p parser.Pos) policy.Pos { return policy.Pos{Line: p.Line, Col: p.Col} }

// envValue returns the value of name in env ("" when unset).
func envValue(env []string, name string) string {
	v := ""
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && k == name {
			v = val
		}
	}
	return v
}
