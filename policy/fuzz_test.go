package policy_test

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard/parser"
	"github.com/cmdguard/cmdguard/policy"
)

// FuzzParse: any bytes either parse into a policy that keeps every safety
// invariant, or fail with positioned errors and no policy. Never a panic.
func FuzzParse(f *testing.F) {
	f.Add([]byte("version: 1\nallow: [ls]\n"))
	f.Add(policy.DefaultYAML())
	f.Add(policy.StarterYAML())
	f.Fuzz(func(t *testing.T, data []byte) {
		// rego: globs resolve in a directory that does not exist: they
		// match nothing, and nothing is created per run.
		p, err := policy.Parse("f.yaml", data, "/nonexistent-cmdguard-fuzz")
		if err != nil {
			var errs policy.Errors
			if p != nil || !errors.As(err, &errs) || len(errs) == 0 {
				t.Fatalf("Parse error %v with policy %v: want positioned errors and no policy", err, p)
			}
			for _, e := range errs {
				if e.Line < 1 || e.Col < 1 || e.Msg == "" {
					t.Fatalf("error without position: %#v", e)
				}
			}
			return
		}
		ctx := context.Background()
		// Fixed rules keep their registry verdicts: a syntax error or a
		// gate failure is deny under every policy that loads.
		for _, id := range []string{"parser.syntax", "gate.error", "gate.timeout", "gate.panic", "policy.invalid", "rego.error"} {
			in := &policy.Input{Commands: []policy.Command{cmd("ls")}, Findings: []policy.Finding{{Rule: id}}}
			if d := p.Evaluate(ctx, in); d.Verdict != policy.Deny {
				t.Fatalf("policy allows past %s: %v %v\n%s", id, d.Verdict, d.Reasons, data)
			}
		}
		// Findings that mean part of the command was never seen never allow.
		for _, id := range []string{"parser.unsupported", "parser.too_deep", "parser.too_many_commands"} {
			in := &policy.Input{Commands: []policy.Command{cmd("ls")}, Findings: []policy.Finding{{Rule: id}}}
			if d := p.Evaluate(ctx, in); d.Verdict == policy.Allow {
				t.Fatalf("policy allows past %s\n%s", id, data)
			}
		}
		// An unknown finding id denies; so does an empty input.
		if d := p.Evaluate(ctx, &policy.Input{Commands: []policy.Command{cmd("ls")}, Findings: []policy.Finding{{Rule: "x.y"}}}); d.Verdict != policy.Deny {
			t.Fatalf("unknown finding not denied: %v", d.Reasons)
		}
		seen := map[string]bool{}
		for _, pr := range p.Prefixes() {
			if len(pr.Tokens) == 0 {
				t.Fatalf("empty prefix %+v", pr)
			}
			k := pr.Verdict.String() + "\x00" + strings.Join(pr.Tokens, "\x00") // a tie across lists is allowed
			if seen[k] {
				t.Fatalf("prefix %q twice", pr)
			}
			seen[k] = true
			// The rule applies to the command it names, unless an equally
			// long "*" rule is stricter.
			d := p.Evaluate(ctx, input(policy.Command{Argv: pr.Tokens, MatchArgv: pr.Tokens}))
			if d.Verdict > pr.Verdict && !(len(pr.Tokens) == 1 && pr.Tokens[0] == "*") {
				t.Fatalf("command %q gets %v, looser than its own rule %v", pr.Tokens, d.Verdict, pr.Verdict)
			}
		}
	})
}

// FuzzMatch checks the trie against a direct reading of the prefix rules
// (docs/contract.md, "Policy file"): the longest matching prefix wins, ties go to the
// stricter, "*" matches any one word. A dynamic word may expand to any
// words or none, so the verdict is the strictest of the longest match
// before it (or the default) and every rule that could match beyond it.
func FuzzMatch(f *testing.F) {
	f.Add([]byte{1, 0, 2, 3, 4, 2, 1, 3, 3, 5, 0, 4, 3, 7, 4})
	f.Add([]byte{2, 1, 1, 5, 2, 2, 3, 4, 0, 3, 3, 4, 1, 2, 7, 3, 7, 8})
	f.Add([]byte{0, 2, 3, 5, 5, 5, 1, 1, 0, 3, 5, 6, 7})
	words := []string{"git", "push", "-f", "rm", "-rf", "*", "x", "$X", "$Y"}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		next := func() int { b := int(data[0]); data = data[1:]; return b }
		def := policy.Verdict(next() % 3)
		nrules := next() % 8
		type rule struct {
			v    policy.Verdict
			toks []string
		}
		var rules []rule
		var yaml strings.Builder
		yaml.WriteString("version: 1\ndefault: " + def.String() + "\n")
		lists := map[policy.Verdict][]string{}
		seen := map[string]bool{}
		for range nrules {
			if len(data) < 2 {
				break
			}
			v := policy.Verdict(next() % 3)
			n := 1 + next()%3
			var toks []string
			for range n {
				if len(data) == 0 {
					break
				}
				toks = append(toks, words[next()%7]) // no dynamic words in rules
			}
			if len(toks) == 0 || seen[strings.Join(toks, " ")] {
				continue
			}
			seen[strings.Join(toks, " ")] = true
			rules = append(rules, rule{v, toks})
			var q []string
			for _, tk := range toks {
				q = append(q, strconv.Quote(tk))
			}
			lists[v] = append(lists[v], "["+strings.Join(q, ", ")+"]")
		}
		for _, v := range []policy.Verdict{policy.Allow, policy.Ask, policy.Deny} {
			if len(lists[v]) > 0 {
				yaml.WriteString(v.String() + ": [" + strings.Join(lists[v], ", ") + "]\n")
			}
		}
		var argv []string
		for len(data) > 0 && len(argv) < 5 {
			argv = append(argv, words[next()%len(words)])
		}
		if len(argv) == 0 {
			return
		}
		p, err := policy.Parse("m.yaml", []byte(yaml.String()), "")
		if err != nil {
			t.Fatalf("Parse: %v\n%s", err, yaml.String())
		}
		// The same policy with the parser's reader of spellings, as the
		// cmdguard package loads it: never looser either.
		ps, err := policy.Parse("m.yaml", []byte(yaml.String()), "", policy.WithSpelling(policy.Spelling{Command: parser.CommandSpelling, Rule: parser.RuleSpelling}))
		if err != nil {
			t.Fatalf("Parse: %v\n%s", err, yaml.String())
		}

		// The reference: a linear scan.
		dyn := len(argv)
		for i, w := range argv {
			if strings.HasPrefix(w, "$") {
				dyn = i
				break
			}
		}
		matchesUpTo := func(toks []string, n int) bool { // toks[:n] match argv[:n]
			for i := range n {
				if toks[i] != "*" && (toks[i] != argv[i] || i >= dyn) {
					return false
				}
			}
			return true
		}
		// The longest matching prefix wins, the stricter on a tie; a lone *
		// is the shortest prefix (length 0), above only the default.
		want, best := def, -1
		for _, r := range rules {
			if len(r.toks) <= dyn && matchesUpTo(r.toks, len(r.toks)) {
				n := len(r.toks)
				if n == 1 && r.toks[0] == "*" {
					n = 0
				}
				switch {
				case n > best:
					want, best = r.v, n
				case n == best:
					want = min(want, r.v)
				}
			}
		}
		if dyn < len(argv) {
			for _, r := range rules {
				if len(r.toks) > dyn && matchesUpTo(r.toks, dyn) {
					want = min(want, r.v)
				}
			}
		}
		for _, p := range []*policy.Policy{p, ps} {
			d := p.Evaluate(context.Background(), input(cmd(argv...)))
			got := policy.Allow
			for _, r := range d.Reasons {
				if r.Rule != "policy.dangerous_option" {
					got = min(got, r.Verdict)
				}
			}
			// Deny and ask rules also match other spellings of their prefix
			// (options split, reordered, completed by a dynamic word), so the
			// gate may be stricter than this exact-token reference, never
			// looser.
			if got > want {
				t.Fatalf("Evaluate(%q) = %v, looser than the reference %v\npolicy:\n%s\nreasons: %v", argv, got, want, yaml.String(), d.Reasons)
			}
		}
	})
}
