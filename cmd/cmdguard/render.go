package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/policy"
)

// writeJSON writes v as one JSON object. The JSON shape is the stable
// contract for scripts; text output may change.
func writeJSON(w io.Writer, v any) {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(w, "{\"decision\":\"deny\",\"error\":%q}\n", err.Error())
	}
}

// renderDecision writes a decision for people: the verdict, then each
// reason that decided it with the command line, a caret under the
// position, and a hint of what in the policy would change it; then, one
// line each, the reasons that would matter once those are gone.
func renderDecision(w io.Writer, src string, d cmdguard.Decision, g *cmdguard.Guard) {
	fmt.Fprintf(w, "%s\n", d.Verdict)
	lines := strings.Split(src, "\n")
	var also []cmdguard.Reason
	for _, r := range d.Reasons {
		switch {
		case r.Verdict == cmdguard.Allow && d.Verdict != cmdguard.Allow:
			continue // not a cause
		case r.Verdict != d.Verdict:
			also = append(also, r)
			continue
		}
		reasonLine(w, r)
		if d.Verdict == cmdguard.Allow {
			continue
		}
		if r.Pos.Line > 0 && r.Pos.Line <= len(lines) {
			line := lines[r.Pos.Line-1]
			fmt.Fprintf(w, "    %s\n    %s^\n", printable(line), pad(line, r.Pos.Col-1))
		}
		if h := hint(r, d, g); h != "" {
			fmt.Fprintf(w, "    hint: %s\n", h)
		}
	}
	if len(also) > 0 {
		fmt.Fprintln(w, "also:")
		for _, r := range also {
			fmt.Fprint(w, "  ")
			reasonLine(w, r)
		}
	}
}

// reasonLine writes "line:col: verdict: rule: message [source]".
func reasonLine(w io.Writer, r cmdguard.Reason) {
	if r.Pos.Line > 0 {
		fmt.Fprintf(w, "%d:%d: ", r.Pos.Line, r.Pos.Col)
	}
	fmt.Fprintf(w, "%s: %s: %s [%s]\n", r.Verdict, r.Rule, r.Message, r.Source)
}

// pad returns white space as wide as the first n bytes of line, keeping
// tabs so that the caret lines up.
func pad(line string, n int) string {
	n = min(max(n, 0), len(line))
	var b strings.Builder
	for _, r := range line[:n] {
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()
}

// policyName names the policy file for hints.
func policyName(g *cmdguard.Guard) string {
	if g == nil || g.Policy().Path() == "" {
		return "a .cmdguard.yaml (cmdguard init writes one)"
	}
	return g.Policy().Path()
}

// hint says what would change the verdict of a reason.
func hint(r cmdguard.Reason, d cmdguard.Decision, g *cmdguard.Guard) string {
	file := policyName(g)
	switch r.Rule {
	case "policy.no_match", "policy.ask":
		argv := argvOf(d, r)
		if argv == nil {
			return "to allow it, add its prefix to allow: in " + file
		}
		if pr, ok := allowPrefix(g, argv); ok {
			return fmt.Sprintf("to allow it, add %q to allow: in %s", strings.Join(pr, " "), file)
		}
		return fmt.Sprintf("the rule at %s names exactly this command: change or remove it to allow it", r.Source)
	case "policy.deny":
		return fmt.Sprintf("the deny rule at %s matched; a longer allow: prefix in %s wins over it", r.Source, file)
	case "rego.deny", "rego.ask", "rego.error":
		return "fired by the Rego policy at " + r.Source
	}
	info, ok := policy.LookupRule(r.Rule)
	switch {
	case !ok:
		return ""
	case info.Fixed:
		return r.Rule + " cannot be re-rated: change the command"
	case r.Verdict == cmdguard.Allow:
		return ""
	}
	looser := r.Verdict + 1
	if looser > info.Loosest {
		return fmt.Sprintf("%s cannot be rated looser than %s: change the command", r.Rule, info.Loosest)
	}
	return fmt.Sprintf("to make it %s: rules: {%s: %s} in %s (or change the command)", looser, r.Rule, looser, file)
}

// allowPrefix returns the narrowest allow prefix that would allow argv —
// argv itself — unless the policy already names exactly that prefix (an
// allow prefix there would contradict it).
func allowPrefix(g *cmdguard.Guard, argv []string) ([]string, bool) {
	if len(argv) == 0 {
		return nil, false
	}
	for _, p := range g.Policy().Prefixes() {
		if p.Verdict != cmdguard.Allow && slices.Equal(p.Tokens, argv) {
			return nil, false
		}
	}
	return argv, true
}

// argvOf returns the match argv of the command a reason is about.
func argvOf(d cmdguard.Decision, r cmdguard.Reason) []string {
	if r.Command < 1 || r.Command > len(d.Commands) {
		return nil
	}
	return d.Commands[r.Command-1].MatchArgv
}

// printable replaces control characters and the line-break look-alikes
// with '?', one for one, so that what a person reviews is not rewritten by
// the terminal and the caret still lines up.
func printable(line string) string {
	return strings.Map(func(r rune) rune {
		if r != '\t' && (unicode.IsControl(r) || r == '\u2028' || r == '\u2029') {
			return '?'
		}
		return r
	}, line)
}

// renderTrace writes the explain trace: every rule considered.
func renderTrace(w io.Writer, t policy.Trace) {
	fmt.Fprintln(w, "trace:")
	for _, s := range t {
		mark := "  "
		if s.Matched {
			mark = "✓ "
		}
		fmt.Fprintf(w, "  %s", mark)
		if s.Command >= 0 {
			fmt.Fprintf(w, "command %d ", s.Command)
		}
		fmt.Fprintf(w, "%s %s", s.Kind, s.Rule)
		if s.Prefix != "" {
			fmt.Fprintf(w, " %q", s.Prefix)
		}
		fmt.Fprintf(w, " → %s [%s]", s.Verdict, s.Source)
		if s.Note != "" {
			fmt.Fprintf(w, " (%s)", s.Note)
		}
		fmt.Fprintln(w)
	}
}
