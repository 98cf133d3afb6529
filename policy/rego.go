package policy

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/metrics"
	"github.com/open-policy-agent/opa/v1/rego"
)

// decisionSets are the rules of package cmdguard a policy module may
// define, with the verdict of their entries.
var decisionSets = [...]struct {
	name    string
	verdict Verdict
}{{"deny", Deny}, {"ask", Ask}, {"allow", Allow}}

// regoPolicy is the compiled Rego of a policy: a query prepared once and
// shared by every evaluation (rego.PreparedEvalQuery is safe for
// concurrent use).
type regoPolicy struct {
	query  rego.PreparedEvalQuery
	sets   []string // the decision sets the modules define, queried as variables of the same name
	keys   *keyTerms
	source string // "file:line" of the rego: key
	files  []string
}

// RegoFiles returns the Rego modules the policy evaluates (the files its
// rego: globs matched at load), in order.
func (p *Policy) RegoFiles() []string {
	if p == nil || p.rego == nil {
		return nil
	}
	return slices.Clone(p.rego.files)
}

// refusedBuiltin reports builtins a repository's policy may not call:
// anything that reaches the network or the host (JSON schema checks can
// fetch remote $refs).
func refusedBuiltin(name string) bool {
	switch name {
	case "http.send", "opa.runtime", "json.match_schema", "json.verify_schema":
		return true
	}
	return strings.HasPrefix(name, "net.")
}

// capabilities returns OPA's capabilities for this version minus the
// refused builtins, with no network access for schema references.
func capabilities() *ast.Capabilities {
	caps := ast.CapabilitiesForThisVersion()
	kept := caps.Builtins[:0]
	for _, b := range caps.Builtins {
		if !refusedBuiltin(b.Name) {
			kept = append(kept, b)
		}
	}
	caps.Builtins = kept
	caps.AllowNet = []string{}
	return caps
}

// parseModules reads and parses Rego files in v1 syntax with the
// restricted capabilities.
func parseModules(files []string, caps *ast.Capabilities) (map[string]*ast.Module, Errors) {
	mods := map[string]*ast.Module{}
	var errs Errors
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			errs = append(errs, &Error{File: f, Line: 1, Col: 1, Msg: err.Error()})
			continue
		}
		m, err := ast.ParseModuleWithOpts(f, string(src), ast.ParserOptions{RegoVersion: ast.RegoV1, Capabilities: caps})
		if err != nil {
			errs = append(errs, astErrors(f, err)...)
			continue
		}
		mods[f] = m
	}
	return mods, errs
}

// compileRego compiles the policy's modules and prepares the query.
func compileRego(files []string, source string) (*regoPolicy, Errors) {
	caps := capabilities()
	mods, errs := parseModules(files, caps)
	for _, f := range files {
		if m := mods[f]; m != nil {
			errs = append(errs, checkModule(f, m)...)
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	c := ast.NewCompiler().WithCapabilities(caps)
	if c.Compile(mods); c.Failed() {
		return nil, astErrors(files[0], c.Errors)
	}
	rp := &regoPolicy{keys: newKeyTerms(), source: source, files: files}
	// One query for the defined sets only: "deny := data.cmdguard.deny;
	// allow := data.cmdguard.allow". A defined partial set is never
	// undefined (at worst empty), so the query always has one result.
	var q []string
	for _, s := range decisionSets {
		if definesSet(mods, s.name) {
			rp.sets = append(rp.sets, s.name)
			q = append(q, s.name+" := data.cmdguard."+s.name)
		}
	}
	if len(q) == 0 {
		return rp, nil // helpers only: nothing to evaluate
	}
	pq, err := rego.New(
		rego.Query(strings.Join(q, "; ")),
		rego.Compiler(c),
		rego.Capabilities(caps),
		rego.StrictBuiltinErrors(true),
		// Keep results as AST terms: no conversion to Go values.
		rego.GenerateJSON(func(t *ast.Term, _ *rego.EvalContext) (any, error) { return t, nil }),
	).PrepareForEval(context.Background())
	if err != nil {
		return nil, astErrors(files[0], err)
	}
	rp.query = pq
	return rp, nil
}

func definesSet(mods map[string]*ast.Module, name string) bool {
	for _, m := range mods {
		if m.Package.Path.String() != "data.cmdguard" {
			continue
		}
		for _, r := range m.Rules {
			if r.Head.Ref()[0].Value.String() == name {
				return true
			}
		}
	}
	return false
}

// checkModule requires package cmdguard (or a package below it) and
// deny/ask/allow in package cmdguard to be sets: a boolean "deny if …"
// would otherwise be silently ignored.
func checkModule(file string, m *ast.Module) Errors {
	var errs Errors
	pkg := m.Package.Path.String()
	if pkg != "data.cmdguard" && !strings.HasPrefix(pkg, "data.cmdguard.") {
		return Errors{locError(file, m.Package.Location, fmt.Sprintf("package %s: a policy module must be in package cmdguard", strings.TrimPrefix(pkg, "data.")))}
	}
	for _, s := range decisionSets {
		if p := "data.cmdguard." + s.name; pkg == p || strings.HasPrefix(pkg, p+".") {
			return Errors{locError(file, m.Package.Location, fmt.Sprintf("package %s: %s is a decision set of package cmdguard, not a package", strings.TrimPrefix(pkg, "data."), s.name))}
		}
	}
	if pkg != "data.cmdguard" {
		return nil
	}
	for _, r := range m.Rules {
		ref := r.Head.Ref()
		name := ref[0].Value.String()
		if name != "deny" && name != "ask" && name != "allow" {
			continue
		}
		if len(ref) != 1 || r.Head.RuleKind() != ast.MultiValue || len(r.Head.Args) > 0 {
			errs = append(errs, locError(file, r.Location, fmt.Sprintf("%s must be a set rule: write \"%s contains msg if { … }\"", name, name)))
		}
	}
	return errs
}

func locError(file string, loc *ast.Location, msg string) *Error {
	e := &Error{File: file, Line: 1, Col: 1, Msg: msg}
	if loc != nil {
		if loc.File != "" {
			e.File = loc.File
		}
		e.Line, e.Col = max(loc.Row, 1), max(loc.Col, 1)
	}
	return e
}

// astErrors re-renders OPA errors as file:line:col errors.
func astErrors(file string, err error) Errors {
	var list ast.Errors
	switch e := err.(type) {
	case ast.Errors:
		list = e
	case *ast.Error:
		list = ast.Errors{e}
	default:
		return Errors{&Error{File: file, Line: 1, Col: 1, Msg: err.Error()}}
	}
	errs := make(Errors, 0, len(list))
	for _, e := range list {
		msg := e.Message
		if e.Code != "" {
			msg = e.Code + ": " + msg
		}
		errs = append(errs, locError(file, e.Location, msg))
	}
	return errs
}

// apply evaluates the Rego query once for in. deny and ask entries add
// reasons (they can only make the verdict stricter); an allow entry lifts
// the policy.no_match reason of its command (or of every command, when it
// names none) to allow, and never touches any other reason.
func (rp *regoPolicy) apply(ctx context.Context, in *Input, reasons []Reason, noMatch []int, trace *Trace) []Reason {
	if len(rp.sets) == 0 {
		return reasons
	}
	fail := func(err error) []Reason {
		if trace != nil {
			*trace = append(*trace, TraceStep{Command: -1, Kind: "rego", Rule: "rego.error", Verdict: Deny, Source: rp.source, Matched: true, Note: err.Error()})
		}
		return append(reasons, Reason{Verdict: Deny, Rule: "rego.error", Message: err.Error(), Source: rp.source})
	}
	// No metrics: nobody reads them, and they cost a map and timers per
	// evaluation.
	rs, err := rp.query.Eval(ctx, rego.EvalParsedInput(rp.keys.inputValue(in)), rego.EvalMetrics(metrics.NoOp()))
	if err == nil {
		err = ctx.Err() // OPA may finish a small query without looking
	}
	if err != nil {
		return fail(fmt.Errorf("rego: %w", err))
	}
	if len(rs) != 1 {
		return fail(fmt.Errorf("rego: query returned %d results, want 1", len(rs)))
	}
	// Check every entry before using any: a malformed one fails the whole
	// evaluation rather than being skipped.
	var entries [len(decisionSets)][]regoEntry
	for si, s := range decisionSets {
		t, _ := rs[0].Bindings[s.name].(*ast.Term)
		if t == nil {
			continue // not defined by any module
		}
		set, ok := t.Value.(ast.Set)
		if !ok {
			return fail(fmt.Errorf("rego: %s is %s, want a set", s.name, ast.ValueName(t.Value)))
		}
		err := set.Iter(func(x *ast.Term) error {
			e, err := toEntry(x.Value, len(in.Commands))
			if err != nil {
				return fmt.Errorf("rego: %s entry %v: %w", s.name, x, err)
			}
			entries[si] = append(entries[si], e)
			return nil
		})
		if err != nil {
			return fail(err)
		}
	}
	for si, s := range decisionSets {
		rule := "rego." + s.name
		for _, e := range entries[si] {
			msg := e.msg
			if e.rule != "" {
				msg = e.rule + ": " + msg
			}
			var pos Pos
			if e.command >= 0 {
				pos = in.Commands[e.command].Pos
			}
			r := Reason{Verdict: s.verdict, Rule: rule, Message: msg, Pos: pos, Source: rp.source, Command: e.command + 1}
			lifted := 0
			if s.verdict != Allow {
				reasons = append(reasons, r)
			} else {
				for ci, ri := range noMatch {
					if ri >= 0 && (e.command < 0 || e.command == ci) {
						r.Pos, r.Command = in.Commands[ci].Pos, ci+1
						reasons[ri] = r
						lifted++
					}
				}
			}
			if trace != nil {
				note := msg
				if s.verdict == Allow {
					note = fmt.Sprintf("%s (lifted %d unmatched command(s))", msg, lifted)
				}
				*trace = append(*trace, TraceStep{Command: e.command, Kind: "rego", Rule: rule, Verdict: s.verdict, Source: rp.source, Matched: true, Note: note})
			}
		}
	}
	return reasons
}

// regoEntry is one element of a deny/ask/allow set.
type regoEntry struct {
	msg, rule string
	command   int // index into Input.Commands, -1 for the whole input
}

// toEntry converts a set element: a string, or an object with a string
// msg, an optional string rule and an optional command index.
func toEntry(x ast.Value, ncmd int) (regoEntry, error) {
	e := regoEntry{command: -1}
	switch v := x.(type) {
	case ast.String:
		e.msg = string(v)
		return e, nil
	case ast.Object:
		t := v.Get(ast.InternedTerm("msg"))
		if t == nil {
			return e, fmt.Errorf("want a string msg")
		}
		msg, ok := t.Value.(ast.String)
		if !ok {
			return e, fmt.Errorf("want a string msg")
		}
		e.msg = string(msg)
		if t := v.Get(ast.InternedTerm("rule")); t != nil {
			r, ok := t.Value.(ast.String)
			if !ok {
				return e, fmt.Errorf("rule must be a string")
			}
			e.rule = string(r)
		}
		if t := v.Get(ast.InternedTerm("command")); t != nil {
			n, ok := t.Value.(ast.Number)
			i, isInt := n.Int()
			if !ok || !isInt || i < 0 || i >= ncmd {
				return e, fmt.Errorf("command must be an index into input.commands")
			}
			e.command = i
		}
		return e, nil
	}
	return e, fmt.Errorf("want a string or an object {msg, rule}")
}

// inputKeys are the object keys of the input document, in the order of
// the k* constants.
var inputKeys = [...]string{
	"source", "commands", "findings", "cwd", "root", "rule", "message", "pos", "line", "col",
	"argv", "match_argv", "dynamic", "wrappers", "redirects", "files", "op", "target", "write",
	"path", "written", "kind", "recursive", "ignored", "outside_root", "is_dir", "exists", "maybe", "ignored_by",
	"sandboxed", "sandbox_network",
}

const (
	kSource = iota
	kCommands
	kFindings
	kCwd
	kRoot
	kRule
	kMessage
	kPos
	kLine
	kCol
	kArgv
	kMatchArgv
	kDynamic
	kWrappers
	kRedirects
	kFiles
	kOp
	kTarget
	kWrite
	kPath
	kWritten
	kKind
	kRecursive
	kIgnored
	kOutsideRoot
	kIsDir
	kExists
	kMaybe
	kIgnoredBy
	kSandboxed
	kSandboxNetwork
	numKeys
)

// keyTerms holds the key terms of the input document, and the position
// objects of small positions as they are first built. Each Policy with
// Rego builds its own once, at load; terms are never modified once
// built, so concurrent evaluations share them.
type keyTerms struct {
	k   [numKeys]*ast.Term
	pos [(posLines + 1) * (posCols + 1)]atomic.Pointer[ast.Term]
}

// Positions up to posLines:posCols (and the zero Pos) share their
// {line, col} object.
const posLines, posCols = 4, 255

func newKeyTerms() *keyTerms {
	k := new(keyTerms)
	for i, s := range inputKeys {
		k.k[i] = ast.StringTerm(s)
	}
	return k
}

// inputValue builds the Rego input document directly as an ast.Value, the
// same document json.Marshal(in) gives except that arrays are never null.
// It is about three times faster than OPA's generic conversion (a JSON
// round trip); see BenchmarkInputValue.
func (k *keyTerms) inputValue(in *Input) ast.Value {
	b := &builder{keys: k, cwd: in.Cwd}
	cmds := make([]*ast.Term, len(in.Commands))
	var pre []preparedCommand
	if in.Prepared != nil && in.Prepared.keys == k {
		pre = in.Prepared.cmds
	}
	for i := range in.Commands {
		c := &in.Commands[i]
		switch {
		case i >= len(pre) || !pre[i].matches(c):
			cmds[i] = b.term(b.command(c))
		case len(c.Files) == 0:
			cmds[i] = pre[i].whole
		default:
			items := pre[i].items
			items[filesItem] = b.item(kFiles, b.files(c.Files))
			cmds[i] = b.object(items[:]...)
		}
	}
	finds := make([]*ast.Term, len(in.Findings))
	for i, f := range in.Findings {
		finds[i] = b.object(
			b.item(kRule, b.str(f.Rule)),
			b.item(kMessage, b.str(f.Message)),
			b.item(kPos, b.pos(f.Pos)),
		)
	}
	return ast.NewObject(
		b.item(kSource, b.str(in.Source)),
		b.item(kCommands, b.array(cmds)),
		b.item(kFindings, b.array(finds)),
		b.item(kCwd, b.str(in.Cwd)),
		b.item(kRoot, b.str(in.Root)),
		b.item(kSandboxed, ast.InternedTerm(in.Sandboxed)),
		b.item(kSandboxNetwork, b.str(in.SandboxNetwork)),
	)
}

// builder makes the terms of one input document, allocating them in
// chunks.
type builder struct {
	keys    *keyTerms
	cwd     string
	cwdTerm *ast.Term
	terms   []ast.Term
}

func (b *builder) term(v ast.Value) *ast.Term {
	if len(b.terms) == cap(b.terms) {
		b.terms = make([]ast.Term, 0, 64)
	}
	b.terms = append(b.terms, ast.Term{Value: v})
	return &b.terms[len(b.terms)-1]
}

func (b *builder) str(s string) *ast.Term {
	if s == b.cwd { // every command's cwd is usually the input's
		if b.cwdTerm == nil {
			b.cwdTerm = b.term(ast.String(s))
		}
		return b.cwdTerm
	}
	return b.term(ast.String(s))
}

func (b *builder) strs(ss []string) *ast.Term {
	if len(ss) == 0 {
		return ast.InternedEmptyArray
	}
	ts := make([]*ast.Term, len(ss))
	for i, s := range ss {
		ts[i] = b.str(s)
	}
	return b.term(ast.NewArray(ts...))
}

func (b *builder) object(items ...[2]*ast.Term) *ast.Term { return b.term(ast.NewObject(items...)) }

func (b *builder) item(key int, v *ast.Term) [2]*ast.Term { return [2]*ast.Term{b.keys.k[key], v} }

// array is an array term; the empty one is shared.
func (b *builder) array(ts []*ast.Term) *ast.Term {
	if len(ts) == 0 {
		return ast.InternedEmptyArray
	}
	return b.term(ast.NewArray(ts...))
}

func (b *builder) pos(p Pos) *ast.Term {
	build := func() *ast.Term {
		return ast.ObjectTerm(b.item(kLine, ast.InternedTerm(p.Line)), b.item(kCol, ast.InternedTerm(p.Col)))
	}
	if p.Line < 0 || p.Line > posLines || p.Col < 0 || p.Col > posCols {
		return build()
	}
	slot := &b.keys.pos[p.Line*(posCols+1)+p.Col]
	if t := slot.Load(); t != nil {
		return t
	}
	t := build()
	slot.CompareAndSwap(nil, t)
	return slot.Load()
}

func (b *builder) command(c *Command) ast.Value {
	var items [8][2]*ast.Term
	b.commandItems(c, &items)
	items[filesItem] = b.item(kFiles, b.files(c.Files))
	return ast.NewObject(items[:]...)
}

// filesItem is the index of "files" among the items of a command's
// object (in the order of its JSON).
const filesItem = 6

// commandItems builds the items of a command's object but its files.
func (b *builder) commandItems(c *Command, items *[8][2]*ast.Term) {
	dyn := make([]*ast.Term, len(c.Dynamic))
	for i, d := range c.Dynamic {
		dyn[i] = ast.InternedTerm(d)
	}
	reds := make([]*ast.Term, len(c.Redirects))
	for i, r := range c.Redirects {
		reds[i] = b.object(
			b.item(kOp, b.str(r.Op)),
			b.item(kTarget, b.str(r.Target)),
			b.item(kWrite, ast.InternedTerm(r.Write)),
			b.item(kPos, b.pos(r.Pos)),
		)
	}
	argv := b.strs(c.Argv)
	matchArgv := argv // usually the same words: share the term
	if !slices.Equal(c.Argv, c.MatchArgv) {
		matchArgv = b.strs(c.MatchArgv)
	}
	*items = [8][2]*ast.Term{
		b.item(kArgv, argv),
		b.item(kMatchArgv, matchArgv),
		b.item(kDynamic, b.array(dyn)),
		b.item(kPos, b.pos(c.Pos)),
		b.item(kWrappers, b.strs(c.Wrappers)),
		b.item(kRedirects, b.array(reds)),
		filesItem: {},
		b.item(kCwd, b.str(c.Cwd)),
	}
}

// files builds the array of a command's files.
func (b *builder) files(fs []File) *ast.Term {
	files := make([]*ast.Term, len(fs))
	for i := range fs {
		f := &fs[i]
		items := [...][2]*ast.Term{
			b.item(kPath, b.str(f.Path)),
			b.item(kWritten, b.str(f.Written)),
			b.item(kPos, b.pos(f.Pos)),
			b.item(kKind, b.str(f.Kind)),
			b.item(kWrite, ast.InternedTerm(f.Write)),
			b.item(kRecursive, ast.InternedTerm(f.Recursive)),
			b.item(kDynamic, ast.InternedTerm(f.Dynamic)),
			b.item(kIgnored, ast.InternedTerm(f.Ignored)),
			b.item(kOutsideRoot, ast.InternedTerm(f.OutsideRoot)),
			b.item(kIsDir, ast.InternedTerm(f.IsDir)),
			b.item(kExists, ast.InternedTerm(f.Exists)),
			b.item(kMaybe, ast.InternedTerm(f.Maybe)),
			b.item(kIgnoredBy, b.str(f.IgnoredBy)),
		}
		n := len(items)
		if f.IgnoredBy == "" {
			n-- // omitempty, as in JSON
		}
		files[i] = b.object(items[:n]...)
	}
	return b.array(files)
}

// Prepared holds the Rego terms of commands, built once, for the
// evaluations of inputs that hold the same commands: a long-lived gate
// sees the same command string again and again, and building the input
// document is a good part of a Rego evaluation. Evaluate uses a prepared
// command only where Input.Commands[i] has exactly the words, dynamic
// flags, position, wrappers, redirects and cwd it was prepared with, and
// builds the term afresh otherwise: a Prepared never changes what Rego
// sees, only what it costs. It is immutable and safe for concurrent use.
type Prepared struct {
	keys *keyTerms
	cmds []preparedCommand
}

// preparedCommand is one command as it was prepared (its own copies) and
// its terms.
type preparedCommand struct {
	c     Command         // Argv, MatchArgv, Dynamic, Pos, Wrappers, Redirects and Cwd; no Files
	items [8][2]*ast.Term // items[filesItem] is empty
	whole *ast.Term       // the command's object with no files
}

// Prepare returns the Prepared of cmds for Input.Prepared, or nil when the
// policy evaluates no Rego.
func (p *Policy) Prepare(cmds []Command) *Prepared {
	if p == nil || p.rego == nil || len(p.rego.sets) == 0 {
		return nil
	}
	pr := &Prepared{keys: p.rego.keys, cmds: make([]preparedCommand, len(cmds))}
	for i := range cmds {
		c := &cmds[i]
		pc := &pr.cmds[i]
		pc.c = Command{Argv: nonNil(slices.Clone(c.Argv)), MatchArgv: nonNil(slices.Clone(c.MatchArgv)), Dynamic: nonNil(slices.Clone(c.Dynamic)),
			Pos: c.Pos, Wrappers: nonNil(slices.Clone(c.Wrappers)), Redirects: nonNil(slices.Clone(c.Redirects)), Cwd: c.Cwd}
		b := &builder{keys: p.rego.keys}
		b.commandItems(&pc.c, &pc.items)
		items := pc.items
		items[filesItem] = b.item(kFiles, ast.InternedEmptyArray)
		pc.whole = ast.ObjectTerm(items[:]...)
	}
	return pr
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// matches reports whether c has the words, flags, position, wrappers,
// redirects and cwd pc was prepared with. The strings of a command built
// from the same analysis share their bytes, so most comparisons stop at
// the pointer.
func (pc *preparedCommand) matches(c *Command) bool {
	p := &pc.c
	return p.Pos == c.Pos && p.Cwd == c.Cwd && slices.Equal(p.Argv, c.Argv) && slices.Equal(p.MatchArgv, c.MatchArgv) &&
		slices.Equal(p.Dynamic, c.Dynamic) && slices.Equal(p.Wrappers, c.Wrappers) && slices.Equal(p.Redirects, c.Redirects)
}
