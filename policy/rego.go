package policy

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// regoQuery is the one query evaluated per check: the three decision sets
// of package cmdguard as arrays (an undefined set is empty).
const regoQuery = `r := {` +
	`"deny": [x | x := data.cmdguard.deny[_]], ` +
	`"ask": [x | x := data.cmdguard.ask[_]], ` +
	`"allow": [x | x := data.cmdguard.allow[_]]}`

// regoPolicy is the compiled Rego of a policy: a query prepared once and
// shared by every evaluation (rego.PreparedEvalQuery is safe for
// concurrent use).
type regoPolicy struct {
	query  rego.PreparedEvalQuery
	source string // "file:line" of the rego: key
	files  []string
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
	pq, err := rego.New(
		rego.Query(regoQuery),
		rego.Compiler(c),
		rego.Capabilities(caps),
		rego.StrictBuiltinErrors(true),
	).PrepareForEval(context.Background())
	if err != nil {
		return nil, astErrors(files[0], err)
	}
	return &regoPolicy{query: pq, source: source, files: files}, nil
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

// regoEntry is one element of a deny/ask/allow set.
type regoEntry struct {
	msg, rule string
	command   int // index into Input.Commands, -1 for the whole input
}

// apply evaluates the Rego query once for in. deny and ask entries add
// reasons (they can only make the verdict stricter); an allow entry lifts
// the policy.no_match reason of its command (or of every command, when it
// names none) to allow, and never touches any other reason.
func (rp *regoPolicy) apply(ctx context.Context, in *Input, reasons []Reason, noMatch []int, trace *Trace) []Reason {
	fail := func(err error) []Reason {
		if trace != nil {
			*trace = append(*trace, TraceStep{Command: -1, Kind: "rego", Rule: "rego.error", Verdict: Deny, Source: rp.source, Matched: true, Note: err.Error()})
		}
		return append(reasons, Reason{Verdict: Deny, Rule: "rego.error", Message: err.Error(), Source: rp.source})
	}
	rs, err := rp.query.Eval(ctx, rego.EvalParsedInput(inputValue(in)))
	if err == nil {
		err = ctx.Err() // OPA may finish a small query without looking
	}
	if err != nil {
		return fail(fmt.Errorf("rego: %w", err))
	}
	if len(rs) != 1 {
		return fail(fmt.Errorf("rego: query returned %d results, want 1", len(rs)))
	}
	obj, _ := rs[0].Bindings["r"].(map[string]any)
	sets := [3]struct {
		name    string
		verdict Verdict
		entries []regoEntry
	}{{"deny", Deny, nil}, {"ask", Ask, nil}, {"allow", Allow, nil}}
	for i := range sets {
		s := &sets[i]
		list, _ := obj[s.name].([]any)
		for _, x := range list {
			e, err := toEntry(x, len(in.Commands))
			if err != nil {
				return fail(fmt.Errorf("rego: %s entry %v: %w", s.name, x, err))
			}
			s.entries = append(s.entries, e)
		}
	}
	for _, s := range sets {
		rule := "rego." + s.name
		for _, e := range s.entries {
			msg := e.msg
			if e.rule != "" {
				msg = e.rule + ": " + msg
			}
			var pos Pos
			if e.command >= 0 {
				pos = in.Commands[e.command].Pos
			}
			r := Reason{Verdict: s.verdict, Rule: rule, Message: msg, Pos: pos, Source: rp.source}
			lifted := 0
			if s.verdict != Allow {
				reasons = append(reasons, r)
			} else {
				for ci, ri := range noMatch {
					if ri >= 0 && (e.command < 0 || e.command == ci) {
						r.Pos = in.Commands[ci].Pos
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

// toEntry converts a set element: a string, or an object with a string
// msg, an optional string rule and an optional command index.
func toEntry(x any, ncmd int) (regoEntry, error) {
	e := regoEntry{command: -1}
	switch v := x.(type) {
	case string:
		e.msg = v
		return e, nil
	case map[string]any:
		var ok bool
		if e.msg, ok = v["msg"].(string); !ok {
			return e, fmt.Errorf("want a string msg")
		}
		if r, has := v["rule"]; has {
			if e.rule, ok = r.(string); !ok {
				return e, fmt.Errorf("rule must be a string")
			}
		}
		if c, has := v["command"]; has {
			n, ok := c.(json.Number)
			i, err := n.Int64()
			if !ok || err != nil || i < 0 || i >= int64(ncmd) {
				return e, fmt.Errorf("command must be an index into input.commands")
			}
			e.command = int(i)
		}
		return e, nil
	}
	return e, fmt.Errorf("want a string or an object {msg, rule}")
}

// inputValue builds the Rego input document directly as an ast.Value, the
// same document json.Marshal(in) gives except that arrays are never null.
func inputValue(in *Input) ast.Value {
	cmds := make([]*ast.Term, len(in.Commands))
	for i := range in.Commands {
		cmds[i] = ast.NewTerm(commandValue(&in.Commands[i]))
	}
	finds := make([]*ast.Term, len(in.Findings))
	for i, f := range in.Findings {
		finds[i] = ast.ObjectTerm(
			item("rule", ast.StringTerm(f.Rule)),
			item("message", ast.StringTerm(f.Message)),
			item("pos", posTerm(f.Pos)),
		)
	}
	return ast.NewObject(
		item("source", ast.StringTerm(in.Source)),
		item("commands", ast.ArrayTerm(cmds...)),
		item("findings", ast.ArrayTerm(finds...)),
		item("cwd", ast.StringTerm(in.Cwd)),
		item("root", ast.StringTerm(in.Root)),
	)
}

func commandValue(c *Command) ast.Value {
	dyn := make([]*ast.Term, len(c.Dynamic))
	for i, d := range c.Dynamic {
		dyn[i] = ast.BooleanTerm(d)
	}
	reds := make([]*ast.Term, len(c.Redirects))
	for i, r := range c.Redirects {
		reds[i] = ast.ObjectTerm(
			item("op", ast.StringTerm(r.Op)),
			item("target", ast.StringTerm(r.Target)),
			item("write", ast.BooleanTerm(r.Write)),
			item("pos", posTerm(r.Pos)),
		)
	}
	files := make([]*ast.Term, len(c.Files))
	for i := range c.Files {
		f := &c.Files[i]
		items := [...][2]*ast.Term{
			item("path", ast.StringTerm(f.Path)),
			item("written", ast.StringTerm(f.Written)),
			item("pos", posTerm(f.Pos)),
			item("kind", ast.StringTerm(f.Kind)),
			item("write", ast.BooleanTerm(f.Write)),
			item("recursive", ast.BooleanTerm(f.Recursive)),
			item("dynamic", ast.BooleanTerm(f.Dynamic)),
			item("ignored", ast.BooleanTerm(f.Ignored)),
			item("outside_root", ast.BooleanTerm(f.OutsideRoot)),
			item("is_dir", ast.BooleanTerm(f.IsDir)),
			item("exists", ast.BooleanTerm(f.Exists)),
			item("ignored_by", ast.StringTerm(f.IgnoredBy)),
		}
		n := len(items)
		if f.IgnoredBy == "" {
			n-- // omitempty, as in JSON
		}
		files[i] = ast.ObjectTerm(items[:n]...)
	}
	return ast.NewObject(
		item("argv", stringsTerm(c.Argv)),
		item("match_argv", stringsTerm(c.MatchArgv)),
		item("dynamic", ast.ArrayTerm(dyn...)),
		item("pos", posTerm(c.Pos)),
		item("wrappers", stringsTerm(c.Wrappers)),
		item("redirects", ast.ArrayTerm(reds...)),
		item("files", ast.ArrayTerm(files...)),
		item("cwd", ast.StringTerm(c.Cwd)),
	)
}

func item(k string, v *ast.Term) [2]*ast.Term { return ast.Item(ast.StringTerm(k), v) }

func posTerm(p Pos) *ast.Term {
	return ast.ObjectTerm(item("line", ast.IntNumberTerm(p.Line)), item("col", ast.IntNumberTerm(p.Col)))
}

func stringsTerm(ss []string) *ast.Term {
	ts := make([]*ast.Term, len(ss))
	for i, s := range ss {
		ts[i] = ast.StringTerm(s)
	}
	return ast.ArrayTerm(ts...)
}
