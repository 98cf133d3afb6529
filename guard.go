package cmdguard

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/cmdguard/cmdguard/ignore"
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
}

// Request is what the gate is asked about.
type Request struct {
	// Command is the bash source to check: one line or a whole script.
	Command string
	// Cwd is the directory the command would run in. Empty means the
	// Guard's root; a relative Cwd is taken relative to the root.
	Cwd string
	// Env is the environment the command would run with ("KEY=value").
	// Only HOME and PWD are read, to resolve ~, $HOME and $PWD.
	Env []string
}

// Guard checks commands for one project. Build it with [Open] or [New];
// it is immutable afterwards and safe for concurrent use. A nil or zero
// Guard denies everything.
type Guard struct {
	root   string
	policy *policy.Policy
	ign    *ignore.Matcher
	// protected holds root-relative paths that must never be written: the
	// policy file itself (ignore files and .git/hooks are checked apart).
	protected []string
	// anyIgnore reports whether any ignore pattern exists at all: when none
	// does, no place can hold an ignored file.
	anyIgnore bool
	// stageHook, when set (by tests only), is called before each stage of
	// a check; it lets a test make any stage panic or fail.
	stageHook func(stage string)
}

// Open builds the Guard for the project that dir belongs to: the policy
// is the first .cmdguard.yaml found walking up from dir (the embedded
// default when there is none), and the project root is the policy's
// directory — or, with the default policy, the nearest enclosing git work
// tree, else dir itself.
func Open(dir string) (*Guard, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("cmdguard: %w", err)
	}
	path, ok, err := policy.Find(dir)
	if err != nil {
		return nil, err
	}
	if ok {
		return OpenPolicy(path)
	}
	p, err := policy.Default()
	if err != nil {
		return nil, err
	}
	return New(p, findRoot(dir))
}

// OpenPolicy builds the Guard for the policy file at path; the project
// root is the file's directory.
func OpenPolicy(path string) (*Guard, error) {
	path, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("cmdguard: %w", err)
	}
	p, err := policy.Load(path)
	if err != nil {
		return nil, err
	}
	return New(p, filepath.Dir(path))
}

// New builds a Guard from a compiled policy for the project at root (an
// existing directory). It reads the ignore files the policy names from
// root and every subdirectory, once.
func New(p *policy.Policy, root string) (*Guard, error) {
	if p == nil {
		return nil, errors.New("cmdguard: no policy")
	}
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("cmdguard: %w", err)
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	var inline []ignore.Pattern
	for _, pt := range p.IgnorePatterns() {
		inline = append(inline, ignore.Pattern{Text: pt.Pattern, Source: pt.Source})
	}
	m, err := ignore.Load(root, ignore.Options{Files: p.IgnoreFiles(), Patterns: inline})
	if err != nil {
		return nil, fmt.Errorf("cmdguard: load ignore files: %w", err)
	}
	g := &Guard{root: root, policy: p, ign: m, anyIgnore: len(inline) > 0 || len(m.Files()) > 0}
	g.protected = gitProtected(root) // where git really keeps its config and hooks
	if path := p.Path(); path != "" {
		if rel, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(rel, "..") {
			g.protected = append(g.protected, filepath.ToSlash(rel))
		}
	}
	return g, nil
}

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

// Policy returns the compiled policy of the Guard.
func (g *Guard) Policy() *policy.Policy { return g.policy }

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

func (g *Guard) check(ctx context.Context, req Request, explain bool) (d Decision, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("cmdguard: panic while checking: %v\n%s", r, debug.Stack())
			d = failed("gate.panic", fmt.Sprintf("the gate panicked: %v", r))
		}
	}()
	if g == nil || g.policy == nil || g.ign == nil {
		return failed("gate.error", "no guard"), errors.New("cmdguard: nil or zero Guard")
	}
	if err := ctx.Err(); err != nil {
		return failedCtx(err), err
	}
	g.stage("analyze")
	in, err := g.input(req)
	if err != nil {
		return failed("gate.error", err.Error()), err
	}
	if err := ctx.Err(); err != nil {
		return failedCtx(err), err
	}
	g.stage("policy")
	var pd policy.Decision
	if explain {
		pd, d.Trace = g.policy.Explain(ctx, in)
	} else {
		pd = g.policy.Evaluate(ctx, in)
	}
	if err := ctx.Err(); err != nil {
		return failedCtx(err), err
	}
	d.Verdict, d.Reasons, d.Commands = pd.Verdict, pd.Reasons, in.Commands
	if d.Verdict == Allow && len(d.Commands) == 0 {
		// Unreachable with a correct parser (empty input is a finding),
		// but an allow must always name what it allows.
		return failed("gate.error", "allow without a command"), errors.New("cmdguard: allow without a command")
	}
	return d, nil
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

// input runs the analysis and the file checks and builds the policy input.
func (g *Guard) input(req Request) (*policy.Input, error) {
	cwd := g.cwd(req.Cwd)
	env := map[string]string{}
	for _, kv := range req.Env {
		if k, v, ok := strings.Cut(kv, "="); ok && (k == "HOME" || k == "PWD") {
			env[k] = v
		}
	}
	if _, ok := env["PWD"]; !ok {
		env["PWD"] = cwd
	}
	a := parser.Analyze(req.Command, parser.Options{Cwd: cwd, Env: env, EnvSafe: g.policy.EnvSafe()})
	in := &policy.Input{
		Source:   req.Command,
		Cwd:      cwd,
		Root:     g.root,
		Commands: make([]policy.Command, len(a.Commands)),
		Findings: make([]policy.Finding, 0, len(a.Findings)),
	}
	for _, f := range a.Findings {
		in.Findings = append(in.Findings, policy.Finding{Rule: f.Rule, Message: f.Message, Pos: pos(f.Pos)})
	}
	for i := range a.Commands {
		g.command(&a.Commands[i], &in.Commands[i], &in.Findings)
	}
	return in, nil
}

func pos(p parser.Pos) policy.Pos { return policy.Pos{Line: p.Line, Col: p.Col} }

// command converts one analysed command, checking its file references.
func (g *Guard) command(c *parser.Command, out *policy.Command, findings *[]policy.Finding) {
	// Lists are empty rather than nil, so that Rego and JSON see [] (count
	// of null is a Rego type error). Empty slices do not allocate.
	out.Argv = nonNil(c.Args)
	out.MatchArgv = nonNil(c.MatchArgv)
	out.Pos = pos(c.Pos)
	out.Wrappers = nonNil(c.Wrappers)
	out.Cwd = c.Cwd
	out.Redirects = []policy.Redirect{}
	out.Files = []policy.File{}
	out.Dynamic = make([]bool, len(c.Argv))
	for i, w := range c.Argv {
		out.Dynamic[i] = w.Dynamic
	}
	if len(c.Redirects) > 0 {
		out.Redirects = make([]policy.Redirect, len(c.Redirects))
		for i, r := range c.Redirects {
			out.Redirects[i] = policy.Redirect{Op: r.Op, Target: r.Target.Value, Write: r.Write, Pos: pos(r.Pos)}
		}
	}
	for i := range c.Files {
		out.Files = g.fileRef(c, &c.Files[i], out.Files, findings)
	}
	for _, h := range c.OptionHits {
		out.OptionHits = append(out.OptionHits, policy.OptionHit{Index: h.Index, What: h.What, Why: h.Why})
	}
	for _, o := range c.UnknownOptions {
		out.UnknownOptions = append(out.UnknownOptions, policy.Option{Value: o.Value, Pos: pos(o.Pos)})
	}
	for _, u := range c.Unknown {
		g.unknownRef(c, u, findings)
	}
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
