package policy

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Trace is the list of every rule considered by [Policy.Explain], in
// evaluation order.
type Trace []TraceStep

// TraceStep is one rule considered while evaluating an Input.
type TraceStep struct {
	Command int     `json:"command"` // 0-based index into Input.Commands, -1 for none (absent in JSON)
	Kind    string  `json:"kind"`    // prefix | default | option | finding | rego
	Rule    string  `json:"rule"`    // rule id
	Prefix  string  `json:"prefix,omitempty"`
	Verdict Verdict `json:"verdict"`
	Source  string  `json:"source"`
	Matched bool    `json:"matched"`
	Note    string  `json:"note,omitempty"`
}

// MarshalJSON writes the step with "command" absent when it names no
// command, as for a [Reason].
func (s TraceStep) MarshalJSON() ([]byte, error) {
	j := traceJSON{Kind: s.Kind, Rule: s.Rule, Prefix: s.Prefix, Verdict: s.Verdict, Source: s.Source, Matched: s.Matched, Note: s.Note}
	if s.Command >= 0 {
		j.Command = &s.Command
	}
	return json.Marshal(j)
}

type traceJSON struct {
	Command *int    `json:"command,omitempty"`
	Kind    string  `json:"kind"`
	Rule    string  `json:"rule"`
	Prefix  string  `json:"prefix,omitempty"`
	Verdict Verdict `json:"verdict"`
	Source  string  `json:"source"`
	Matched bool    `json:"matched"`
	Note    string  `json:"note,omitempty"`
}

// UnmarshalJSON reads what MarshalJSON writes.
func (s *TraceStep) UnmarshalJSON(b []byte) error {
	var j traceJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*s = TraceStep{Command: -1, Kind: j.Kind, Rule: j.Rule, Prefix: j.Prefix, Verdict: j.Verdict, Source: j.Source, Matched: j.Matched, Note: j.Note}
	if j.Command != nil {
		s.Command = *j.Command
	}
	return nil
}

// Evaluate decides on in. Every simple command gets one reason from the
// prefix rules (policy.allow, policy.ask, policy.deny or policy.no_match),
// every finding one reason rated by rules:, and Rego adds its own; the
// verdict is the strictest of them (docs/contract.md, "Policy file"). Reasons come strictest
// first. Evaluate never fails: a nil or zero Policy, a nil Input, an
// unknown finding id and a Rego error are all Deny reasons. It is safe for
// concurrent use.
func (p *Policy) Evaluate(ctx context.Context, in *Input) Decision {
	return p.evaluate(ctx, in, nil)
}

// Explain is Evaluate that also returns the trace of every rule
// considered, matched or not. It is slower than Evaluate: it walks every
// prefix rule for the program of each command.
func (p *Policy) Explain(ctx context.Context, in *Input) (Decision, Trace) {
	var t Trace
	d := p.evaluate(ctx, in, &t)
	return d, t
}

func (p *Policy) evaluate(ctx context.Context, in *Input, trace *Trace) Decision {
	if p == nil || p.trie == nil {
		return decide([]Reason{{Verdict: Deny, Rule: "policy.invalid", Message: "no policy loaded", Source: "builtin"}})
	}
	if in == nil {
		in = &Input{}
	}
	reasons := make([]Reason, 0, len(in.Commands)+len(in.Findings)+1)
	var noMatch []int // per command: index of its no_match reason, or -1 (for Rego)
	if p.rego != nil {
		noMatch = make([]int, len(in.Commands))
	}
	var hits []OptionHit
	var t texts
	t.b.Grow(160 * len(in.Commands)) // about one reason per command: often all of them
	for ci := range in.Commands {
		c := &in.Commands[ci]
		w := matchWords(c)
		m := p.widen(c, w, p.trie.lookup(w))
		r := p.commandReason(&t, c, w, m)
		r.Command = ci + 1
		if noMatch != nil {
			noMatch[ci] = -1
			if r.Rule == "policy.no_match" && !c.Transparent {
				noMatch[ci] = len(reasons)
			}
		}
		// An assignment-only statement (F=x, files=(a b c)) runs
		// nothing: its findings (env.code_injection, a command
		// substitution, arithmetic on a variable, …) rate it, not a
		// prefix rule. When every statement of the input is one, a
		// policy.assign_only reason says so: the input is not empty.
		if assignOnly(c) {
			if noMatch != nil {
				noMatch[ci] = -1 // no reason of its own for Rego to lift
			}
			if ci == len(in.Commands)-1 && onlyAssigns(in.Commands) {
				reasons = append(reasons, Reason{Verdict: Allow, Rule: "policy.assign_only", Pos: c.Pos, Source: "builtin", Command: ci + 1,
					Message: "only assigns shell variables: runs nothing"})
			}
			continue
		}
		if !(c.Transparent && r.Rule == "policy.no_match" && ci+1 < len(in.Commands) && len(in.Commands[ci+1].Wrappers) > len(c.Wrappers)) {
			reasons = append(reasons, r) // a transparent shell is rated by its inner commands, which follow it
		}
		if r.Rule == "policy.allow" && p.strict {
			// The embedded policy allows a program with the options it
			// knows, not with any option (unknown is not harmless).
			for _, o := range c.UnknownOptions {
				v, src := p.RuleVerdict("policy.unknown_option")
				reasons = append(reasons, Reason{Verdict: v, Rule: "policy.unknown_option", Pos: o.Pos, Source: src, Command: ci + 1,
					Message: t.add(p.strictName(), " does not know the option ", o.Value, " of ", c.Argv[0],
						": it may write a file or run a program; allow the command in a .cmdguard.yaml").done()})
			}
		}
		if r.Rule == "policy.allow" && p.strict && c.Fetches != "" {
			reasons = append(reasons, p.installReason(&t, c, w, in, ci))
		} else if r.Rule == "policy.allow" && p.strict && c.Runs != "" {
			reasons = append(reasons, p.sandboxReason(&t, c, w, in.Sandboxed, ci))
		}
		hits = guardHits(c, m.depth, hits[:0])
		for _, h := range hits {
			v, src := p.RuleVerdict("policy.dangerous_option")
			reasons = append(reasons, Reason{Verdict: v, Rule: "policy.dangerous_option", Pos: c.Pos, Source: src, Command: ci + 1,
				Message: t.add(h.What, " ", h.Why, "; allow it with a longer prefix that names the option").done()})
		}
		if trace != nil {
			p.tracePrefixes(trace, ci, w, m, hits)
		}
	}
	for _, f := range in.Findings {
		if info, ok := LookupRule(f.Rule); ok && info.OptIn && !p.rerated(f.Rule) {
			continue // off unless the policy turns it on
		}
		v, src := p.RuleVerdict(f.Rule)
		if src == "builtin" && f.Source != "" {
			src = f.Source // not re-rated: cite the fact's own source (an ignore file line)
		}
		msg := f.Message
		if _, ok := LookupRule(f.Rule); !ok {
			msg = fmt.Sprintf("unknown rule id %q: %s", f.Rule, f.Message)
		}
		r := Reason{Verdict: v, Rule: f.Rule, Message: msg, Pos: f.Pos, Source: src}
		if in.Sandboxed && f.Sandbox != "" && v != Allow && !p.rerated(f.Rule) {
			// The sandbox the command runs under enforces this instance.
			r.Verdict, r.EnforcedBy = Allow, "sandbox"
			r.Message = "allowed: " + f.Sandbox + " (" + msg + ")"
		}
		reasons = append(reasons, r)
		if trace != nil {
			*trace = append(*trace, TraceStep{Command: -1, Kind: "finding", Rule: f.Rule, Verdict: v, Source: src, Matched: true, Note: msg})
		}
	}
	if len(in.Commands) == 0 && len(in.Findings) == 0 {
		v, src := p.RuleVerdict("parser.empty")
		reasons = append(reasons, Reason{Verdict: v, Rule: "parser.empty", Message: "no command to check", Source: src})
	}
	// cmdguard's own messages cut long words; Rego's are the policy
	// author's text, kept as written.
	for i := range reasons {
		reasons[i].Message = cutWords(reasons[i].Message)
	}
	if trace != nil {
		for i := range *trace {
			(*trace)[i].Note = cutWords((*trace)[i].Note)
		}
	}
	if p.rego != nil {
		reasons = p.rego.apply(ctx, in, reasons, noMatch, trace)
	}
	return decide(reasons)
}

// Words longer than maxWord bytes are cut in messages to their first
// keepWord bytes and the count, so that a reason about a 1 MB word stays a
// line a person can read. The command itself (Input, Decision.Commands)
// keeps every byte.
const (
	maxWord  = 200
	keepWord = 80
)

// cutWords shortens every run of non-space bytes longer than maxWord in
// msg: "'aaaa…[1000002 bytes]'". Runs are cut at a UTF-8 boundary.
func cutWords(msg string) string {
	if len(msg) <= maxWord {
		return msg
	}
	var b strings.Builder
	start, changed := 0, false
	flush := func(end int) {
		w := msg[start:end]
		if len(w) <= maxWord {
			b.WriteString(w)
			return
		}
		changed = true
		k := keepWord
		for k > 0 && !utf8.RuneStart(w[k]) {
			k--
		}
		b.WriteString(w[:k])
		b.WriteString("…[")
		b.WriteString(strconv.Itoa(len(w)))
		b.WriteString(" bytes]")
	}
	for i := 0; i < len(msg); i++ {
		if msg[i] == ' ' || msg[i] == '\n' {
			flush(i)
			b.WriteByte(msg[i])
			start = i + 1
		}
	}
	flush(len(msg))
	if !changed {
		return msg
	}
	return b.String()
}

// decide sorts reasons strictest first (stable) and takes the strictest
// verdict. No reason at all is Deny.
func decide(reasons []Reason) Decision {
	d := Decision{Verdict: Deny, Reasons: reasons}
	if len(reasons) == 0 {
		return d
	}
	slices.SortStableFunc(reasons, func(a, b Reason) int { return int(clamp(a.Verdict)) - int(clamp(b.Verdict)) })
	d.Verdict = clamp(reasons[0].Verdict)
	return d
}

// words is the argv prefix rules match for a command, and which of its
// words are dynamic.
type words struct {
	argv []string
	c    *Command
	off  int
}

// matchWords returns what prefix rules match for c: MatchArgv, or Argv
// when MatchArgv is empty.
func matchWords(c *Command) words {
	argv := c.MatchArgv
	if len(argv) == 0 {
		argv = c.Argv
	}
	return words{argv: argv, c: c, off: len(c.Argv) - len(argv)}
}

// dynamic reports whether word i is dynamic. MatchArgv is Argv with git's
// global options removed while Dynamic indexes Argv, so the two are
// aligned from the end; any doubt makes a word dynamic.
func (w words) dynamic(i int) bool {
	j := i
	if i > 0 {
		j = i + w.off
	}
	if j < 0 || j >= len(w.c.Argv) || w.c.Argv[j] != w.argv[i] {
		return true
	}
	return j < len(w.c.Dynamic) && w.c.Dynamic[j]
}

func (p *Policy) commandReason(t *texts, c *Command, w words, m match) Reason {
	r := Reason{Pos: c.Pos}
	switch {
	case m.worst != nil && (m.rule == nil && m.worst.Verdict < p.def || m.rule != nil && m.worst.Verdict < m.rule.Verdict):
		r.Verdict, r.Source, r.Rule = m.worst.Verdict, m.worst.Source, ruleIDs[m.worst.Verdict]
		r.Message = t.add("word ", strconv.Itoa(m.dynIdx+1), " (", w.argv[m.dynIdx], ") of ").argv(w.argv).
			add(" is dynamic: it could make ", m.worst.Verdict.String(), " prefix ", strconv.Quote(m.worst.String()), " match").done()
	case m.rule != nil && m.spelled:
		r.Verdict, r.Source, r.Rule = m.rule.Verdict, m.rule.Source, ruleIDs[m.rule.Verdict]
		r.Message = t.argv(w.argv).add(" could be ", m.rule.Verdict.String(), " prefix ", m.rule.quoted,
			" (another spelling, or words the gate cannot see)").done()
	case m.rule != nil:
		r.Verdict, r.Source, r.Rule = m.rule.Verdict, m.rule.Source, ruleIDs[m.rule.Verdict]
		r.Message = t.argv(w.argv).add(" matches ", m.rule.Verdict.String(), " prefix ", m.rule.quoted).done()
	default:
		r.Verdict, r.Source, r.Rule = p.def, p.defSource, "policy.no_match"
		if r.Verdict == Allow {
			if name, ok := p.runsDenied(w); ok {
				// A program no rule names may run its operands (a wrapper
				// the gate does not know): strace rm -rf x.
				r.Verdict = Ask
				r.Message = t.argv(w.argv).add(" names ", strconv.Quote(name),
					", which a deny or ask rule names, as its first operand: it may run it").done()
				return r
			}
		}
		r.Message = t.add("no prefix rule matches ").argv(w.argv).add("; default: ", p.def.String()).done()
	}
	return r
}

// assignOnly reports whether c is an assignment-only statement of the
// shell walked: no program, no redirect, no wrapper around it.
func assignOnly(c *Command) bool {
	return len(c.Argv) == 0 && len(c.Redirects) == 0 && len(c.Wrappers) == 0
}

// onlyAssigns reports whether every command of cmds is assignment-only.
func onlyAssigns(cmds []Command) bool {
	for i := range cmds {
		if !assignOnly(&cmds[i]) {
			return false
		}
	}
	return true
}

// ruleIDs are the reason rule ids of prefix rules, by verdict.
var ruleIDs = [...]string{Deny: "policy.deny", Ask: "policy.ask", Allow: "policy.allow"}

// texts builds the messages of one evaluation in one buffer, which grows
// as needed: each message is a substring of the builder's contents, whose
// bytes a strings.Builder never changes once written. The zero texts is
// ready to use.
type texts struct {
	b     strings.Builder
	start int
}

// add appends parts to the message being built.
func (t *texts) add(parts ...string) *texts {
	for _, s := range parts {
		t.b.WriteString(s)
	}
	return t
}

// argv appends argv quoted for a message, as "`a b c`", cut to its
// first 57 bytes and "..." when it is longer than 60.
func (t *texts) argv(argv []string) *texts {
	const maxLen, keepLen = 60, 57
	t.b.WriteByte('`')
	n := len(argv) - 1 // the spaces
	for _, a := range argv {
		n += len(a)
	}
	if n <= maxLen {
		for i, a := range argv {
			if i > 0 {
				t.b.WriteByte(' ')
			}
			t.b.WriteString(a)
		}
	} else {
		n = keepLen // bytes left
		for i, a := range argv {
			if i > 0 {
				if n == 0 {
					break
				}
				t.b.WriteByte(' ')
				n--
			}
			if len(a) >= n {
				t.b.WriteString(a[:n])
				break
			}
			t.b.WriteString(a)
			n -= len(a)
		}
		t.b.WriteString("...")
	}
	t.b.WriteByte('`')
	return t
}

// done returns the message built since the last done.
func (t *texts) done() string {
	s := t.b.String()[t.start:]
	t.start = t.b.Len()
	return s
}

// tracePrefixes records every prefix rule for argv's program (first token
// equal to argv[0], or "*"), with whether and how it matched.
func (p *Policy) tracePrefixes(trace *Trace, ci int, w words, m match, hits []OptionHit) {
	argv := w.argv
	for i := range p.prefixes {
		pr := &p.prefixes[i]
		if len(argv) == 0 || (pr.Tokens[0] != argv[0] && pr.Tokens[0] != wildcard) {
			continue
		}
		st := TraceStep{Command: ci, Kind: "prefix", Rule: "policy." + pr.Verdict.String(), Prefix: pr.String(), Verdict: pr.Verdict, Source: pr.Source}
		st.Matched, st.Note = prefixNote(pr, w)
		switch {
		case pr == m.rule:
			st.Note = "longest match"
		case pr == m.worst:
			st.Note = "could match through a dynamic word"
		case st.Matched && m.rule != nil && len(pr.Tokens) < m.depth:
			st.Note = "matches, but a longer prefix wins"
		case st.Matched:
			st.Note = "matches, but ties with a stricter prefix"
		}
		*trace = append(*trace, st)
	}
	if m.rule == nil {
		*trace = append(*trace, TraceStep{Command: ci, Kind: "default", Rule: "policy.no_match", Verdict: p.def, Source: p.defSource, Matched: true, Note: "no prefix rule matches"})
	}
	for _, h := range hits {
		v, src := p.RuleVerdict("policy.dangerous_option")
		*trace = append(*trace, TraceStep{Command: ci, Kind: "option", Rule: "policy.dangerous_option", Prefix: h.What, Verdict: v, Source: src, Matched: true, Note: h.Why})
	}
}

// prefixNote says whether pr matches argv token by token, and if not,
// where it stops.
func prefixNote(pr *Prefix, w words) (bool, string) {
	argv := w.argv
	for i, t := range pr.Tokens {
		switch {
		case i >= len(argv):
			return false, fmt.Sprintf("longer than the command (%d words)", len(argv))
		case t == wildcard:
		case w.dynamic(i):
			return false, fmt.Sprintf("word %d (%s) is dynamic", i+1, argv[i])
		case t != argv[i]:
			return false, fmt.Sprintf("word %d is %q, not %q", i+1, argv[i], t)
		}
	}
	return true, ""
}
