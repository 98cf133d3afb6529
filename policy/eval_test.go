package policy_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/cmdguard/cmdguard/policy"
)

// matched returns "verdict rule prefix" for the one command of in: the
// prefix is the rule the reason's source names ("" for no_match).
func matched(p *policy.Policy, d policy.Decision) string {
	for _, r := range d.Reasons {
		if !strings.HasPrefix(r.Rule, "policy.") || r.Rule == "policy.dangerous_option" {
			continue
		}
		pr := ""
		for _, x := range p.Prefixes() {
			if x.Source == r.Source {
				pr = x.String()
			}
		}
		return fmt.Sprintf("%s %s %s", d.Verdict, r.Rule, pr)
	}
	return d.Verdict.String() + " (no policy reason)"
}

func TestPrefixSemantics(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		policy string // YAML after "version: 1\n", one list per line
		argv   []string
		want   string
	}{
		{"token-wise", "allow: [git status]", []string{"git", "status", "-s"}, "allow policy.allow git status"},
		{"token-wise not chars", "allow: [git status]", []string{"git", "statusx"}, "ask policy.no_match "},
		{"token-wise not shorter", "allow: [git status]", []string{"git"}, "ask policy.no_match "},
		{"case-sensitive", "allow: [ls]", []string{"LS"}, "ask policy.no_match "},
		{"case-sensitive arg", "deny: [rm -rf]\nallow: [rm]", []string{"rm", "-RF"}, "allow policy.allow rm"},
		{"path-qualified program", "allow: [git]", []string{"/usr/bin/git", "status"}, "ask policy.no_match "},
		{"longest wins deny", "allow: [git]\ndeny: [git push]\nallow2", []string{"git", "push", "origin"}, "deny policy.deny git push"},
		{"longest wins allow", "allow: [git, git push origin]\ndeny: [git push]", []string{"git", "push", "origin", "main"}, "allow policy.allow git push origin"},
		{"longest wins shorter", "allow: [git]\ndeny: [git push]", []string{"git", "log"}, "allow policy.allow git"},
		{"tie stricter deny", "allow: [git status]\ndeny: [git *]", []string{"git", "status"}, "deny policy.deny git *"},
		{"star is the shortest", "allow: [ls]\nask: [\"*\"]", []string{"ls", "-l"}, "allow policy.allow ls"},
		{"star is the shortest deny", "allow: [ls]\ndeny: [\"*\"]", []string{"ls", "-la"}, "allow policy.allow ls"},
		{"star alone still applies", "allow: [ls]\ndeny: [\"*\"]", []string{"cat", "x"}, "deny policy.deny *"},
		{"same prefix in allow and deny", "allow: [git push]\ndeny: [git push]", []string{"git", "push"}, "deny policy.deny git push"},
		{"same prefix in deny and allow", "deny: [git push]\nallow: [git push]", []string{"git", "push", "x"}, "deny policy.deny git push"},
		{"same prefix in ask and allow", "allow: [make]\nask: [make]", []string{"make"}, "ask policy.ask make"},
		{"star any word", "deny: [npm run *]\nallow: [npm run]", []string{"npm", "run", "build"}, "deny policy.deny npm run *"},
		{"star needs a word", "deny: [npm run *]\nallow: [npm run]", []string{"npm", "run"}, "allow policy.allow npm run"},
		{"star in the middle", "deny: [git * --force]\nallow: [git]", []string{"git", "push", "--force"}, "deny policy.deny git * --force"},
		{"star matches dynamic", "ask: [cat *]\nallow: [cat]", []string{"cat", "$F"}, "ask policy.ask cat *"},
		{"dynamic could be deny", "allow: [rm]\ndeny: [rm -rf]", []string{"rm", "$X"}, "deny policy.deny rm -rf"},
		{"dynamic later could be deny", "allow: [rm]\ndeny: [rm -r -f]", []string{"rm", "-r", "$X"}, "deny policy.deny rm -r -f"},
		{"dynamic could be ask", "allow: [git]\nask: [git push]", []string{"git", "$SUB"}, "ask policy.ask git push"},
		{"dynamic nothing below", "allow: [ls]\ndeny: [rm]", []string{"ls", "$DIR"}, "allow policy.allow ls"},
		{"dynamic after longer match", "allow: [npm test]\ndeny: [npm]", []string{"npm", "test", "$PKG"}, "allow policy.allow npm test"}, // not go test: the option guard asks for a dynamic word ($PKG may be -toolexec=x)
		{"dynamic literal never equal", "allow: [echo $HOME]\nask: [echo]", []string{"echo", "$HOME"}, "ask policy.ask echo"},
		{"static literal equal", "allow: [echo $HOME]\nask: [echo]", []string{"echo", "'$HOME'"}, "ask policy.ask echo"},
		{"no match default deny", "default: deny\nallow: [ls]", []string{"cat"}, "deny policy.no_match "},
		{"no match default allow", "default: allow\ndeny: [rm]", []string{"cat"}, "allow policy.no_match "},
		{"dynamic no match default", "default: deny", []string{"foo", "$X"}, "deny policy.no_match "},
		{"empty token", "allow: [[printf, \"\"]]", []string{"printf", ""}, "allow policy.allow printf "},
		{"token with space", "allow: [[grep, \"a b\"]]", []string{"grep", "a b", "f"}, "allow policy.allow grep a b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			src := "version: 1\n" + strings.ReplaceAll(tt.policy, "\nallow2", "")
			p := mustParse(t, src)
			d := p.Evaluate(context.Background(), input(cmd(tt.argv...)))
			if got := matched(p, d); got != tt.want {
				t.Errorf("Evaluate(%q) under %q = %q, want %q", tt.argv, tt.policy, got, tt.want)
			}
		})
	}
}

func TestMatchArgv(t *testing.T) {
	t.Parallel()
	p := mustParse(t, "version: 1\nallow: [git status]\ndeny: [git push]\n")
	tests := []struct {
		name string
		c    policy.Command
		want policy.Verdict
	}{
		{"global options skipped", policy.Command{
			Argv: []string{"git", "-C", ".", "push"}, MatchArgv: []string{"git", "push"}, Dynamic: make([]bool, 4)}, policy.Deny},
		{"dynamic global option", policy.Command{
			Argv: []string{"git", "-C", "$D", "status"}, MatchArgv: []string{"git", "status"}, Dynamic: []bool{false, false, true, false}}, policy.Allow},
		{"dynamic subcommand", policy.Command{
			Argv: []string{"git", "-C", "d", "$S"}, MatchArgv: []string{"git", "$S"}, Dynamic: []bool{false, false, false, true}}, policy.Deny},
		{"misaligned is dynamic", policy.Command{
			Argv: []string{"git", "status", "x"}, MatchArgv: []string{"git", "status"}, Dynamic: make([]bool, 3)}, policy.Deny},
		{"no MatchArgv uses Argv", policy.Command{Argv: []string{"git", "status"}}, policy.Allow},
		{"assignment only", policy.Command{}, policy.Allow},
		{"empty command in a wrapper", policy.Command{Wrappers: []string{"bash"}}, policy.Ask},
		{"redirect only", policy.Command{Redirects: []policy.Redirect{{Op: ">", Target: "f"}}}, policy.Ask},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := p.Evaluate(context.Background(), input(tt.c))
			if d.Verdict != tt.want {
				t.Errorf("Evaluate(%+v) = %v, want %v\n%v", tt.c, d.Verdict, tt.want, d.Reasons)
			}
		})
	}
}

func TestChains(t *testing.T) {
	t.Parallel()
	p := mustParse(t, `version: 1
allow: [ls, cat, git status]
ask: [git push]
deny: [curl]
rules:
  parser.subshell: ask
`)
	at := func(c policy.Command, line, col int) policy.Command {
		c.Pos = policy.Pos{Line: line, Col: col}
		return c
	}
	tests := []struct {
		name    string
		in      *policy.Input
		want    policy.Verdict
		wantWhy []policy.Reason // strictest first; messages not compared
	}{
		{"all allowed", input(at(cmd("ls"), 1, 1), at(cmd("cat", "x"), 1, 6)), policy.Allow, []policy.Reason{
			{Verdict: policy.Allow, Rule: "policy.allow", Pos: policy.Pos{Line: 1, Col: 1}, Source: "p.yaml:2"},
			{Verdict: policy.Allow, Rule: "policy.allow", Pos: policy.Pos{Line: 1, Col: 6}, Source: "p.yaml:2"},
		}},
		{"one ask", input(at(cmd("ls"), 1, 1), at(cmd("git", "push"), 1, 6)), policy.Ask, []policy.Reason{
			{Verdict: policy.Ask, Rule: "policy.ask", Pos: policy.Pos{Line: 1, Col: 6}, Source: "p.yaml:3"},
			{Verdict: policy.Allow, Rule: "policy.allow", Pos: policy.Pos{Line: 1, Col: 1}, Source: "p.yaml:2"},
		}},
		{"unmatched asks", input(at(cmd("ls"), 1, 1), at(cmd("make"), 2, 1)), policy.Ask, []policy.Reason{
			{Verdict: policy.Ask, Rule: "policy.no_match", Pos: policy.Pos{Line: 2, Col: 1}, Source: "default"},
			{Verdict: policy.Allow, Rule: "policy.allow", Pos: policy.Pos{Line: 1, Col: 1}, Source: "p.yaml:2"},
		}},
		{"any deny", input(at(cmd("git", "push"), 1, 1), at(cmd("curl", "x"), 1, 12), at(cmd("ls"), 1, 20)), policy.Deny, []policy.Reason{
			{Verdict: policy.Deny, Rule: "policy.deny", Pos: policy.Pos{Line: 1, Col: 12}, Source: "p.yaml:4"},
			{Verdict: policy.Ask, Rule: "policy.ask", Pos: policy.Pos{Line: 1, Col: 1}, Source: "p.yaml:3"},
			{Verdict: policy.Allow, Rule: "policy.allow", Pos: policy.Pos{Line: 1, Col: 20}, Source: "p.yaml:2"},
		}},
		{"finding denies", &policy.Input{Commands: []policy.Command{at(cmd("ls"), 1, 1)},
			Findings: []policy.Finding{{Rule: "parser.command_substitution", Message: "$(…)", Pos: policy.Pos{Line: 1, Col: 4}}}}, policy.Deny, []policy.Reason{
			{Verdict: policy.Deny, Rule: "parser.command_substitution", Pos: policy.Pos{Line: 1, Col: 4}, Source: "builtin"},
			{Verdict: policy.Allow, Rule: "policy.allow", Pos: policy.Pos{Line: 1, Col: 1}, Source: "p.yaml:2"},
		}},
		{"finding re-rated", &policy.Input{Commands: []policy.Command{at(cmd("ls"), 1, 2)},
			Findings: []policy.Finding{{Rule: "parser.subshell", Pos: policy.Pos{Line: 1, Col: 1}}}}, policy.Ask, []policy.Reason{
			{Verdict: policy.Ask, Rule: "parser.subshell", Pos: policy.Pos{Line: 1, Col: 1}, Source: "p.yaml:6"},
			{Verdict: policy.Allow, Rule: "policy.allow", Pos: policy.Pos{Line: 1, Col: 2}, Source: "p.yaml:2"},
		}},
		{"unknown finding denies", &policy.Input{Commands: []policy.Command{at(cmd("ls"), 1, 1)},
			Findings: []policy.Finding{{Rule: "parser.new_thing"}}}, policy.Deny, []policy.Reason{
			{Verdict: policy.Deny, Rule: "parser.new_thing", Source: "builtin"},
			{Verdict: policy.Allow, Rule: "policy.allow", Pos: policy.Pos{Line: 1, Col: 1}, Source: "p.yaml:2"},
		}},
		{"nothing denies", &policy.Input{}, policy.Deny, []policy.Reason{
			{Verdict: policy.Deny, Rule: "parser.empty", Source: "builtin"},
		}},
		{"nil input denies", nil, policy.Deny, []policy.Reason{
			{Verdict: policy.Deny, Rule: "parser.empty", Source: "builtin"},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := p.Evaluate(context.Background(), tt.in)
			want := policy.Decision{Verdict: tt.want, Reasons: withCommand(tt.in, tt.wantWhy)}
			if diff := cmp.Diff(want, d, cmpopts.IgnoreFields(policy.Reason{}, "Message")); diff != "" {
				t.Errorf("Evaluate mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDefaultPolicy(t *testing.T) {
	t.Parallel()
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	// hit: where the parser finds an option that writes or runs a
	// program (its guard tests; the gate tests run these end to end).
	tests := []struct {
		argv string
		want policy.Verdict
		hit  int
	}{
		{"ls -la", policy.Allow, 0},
		{"cat README.md", policy.Allow, 0},
		{"grep -rn foo .", policy.Allow, 0},
		{"git status", policy.Allow, 0},
		{"git log --oneline", policy.Allow, 0},
		{"go test ./...", policy.Allow, 0},
		{"find . -name *.go", policy.Allow, 0},
		{"find . -name x -delete", policy.Ask, 4},
		{"find . -exec rm {} ;", policy.Ask, 2},
		{"find . -fprint out", policy.Ask, 2},
		{"rg --pre=./x foo", policy.Ask, 1},
		{"rg --pre ./x foo", policy.Ask, 1},
		{"sort -uo out in", policy.Ask, 1},
		{"sort -u in", policy.Allow, 0},
		{"git branch", policy.Allow, 0},
		{"git branch -D main", policy.Ask, 2},
		{"git diff --output=/tmp/x", policy.Ask, 2},
		{"go env -w GOFLAGS=x", policy.Ask, 2},
		{"go test -exec ./evil", policy.Ask, 2},
		{"git push", policy.Ask, 0},
		{"git fetch", policy.Ask, 0},
		{"curl https://example.com", policy.Ask, 0},
		{"wget x", policy.Ask, 0},
		{"ssh host", policy.Ask, 0},
		{"npm publish", policy.Ask, 0}, // npm install: installs_test.go (it needs the parser's Fetches)
		{"rm -rf /", policy.Deny, 0},   // issue 30: the default denies it
		{"git $SUB", policy.Ask, 0},
		{"timeout 5 ls", policy.Allow, 0},
		{"env", policy.Ask, 0},
	}
	for _, tt := range tests {
		t.Run(tt.argv, func(t *testing.T) {
			t.Parallel()
			d := p.Evaluate(context.Background(), input(withHit(cmd(strings.Fields(tt.argv)...), tt.hit)))
			if d.Verdict != tt.want {
				t.Errorf("Default().Evaluate(%q) = %v, want %v\n%v", tt.argv, d.Verdict, tt.want, d.Reasons)
			}
		})
	}
}

func TestDangerousOptionNamedByRule(t *testing.T) {
	t.Parallel()
	p := mustParse(t, "version: 1\nallow: [find, find . -delete]\nrules: {policy.dangerous_option: deny}\n")
	tests := []struct {
		argv string
		want policy.Verdict
		hit  int // where the parser finds -delete (none after --)
	}{
		{"find . -delete", policy.Allow, 2},        // the longer rule names it
		{"find . -name x -delete", policy.Deny, 4}, // it does not
		{"find src -delete", policy.Deny, 2},
		{"find . -- -delete", policy.Allow, 0}, // after --, an operand
	}
	for _, tt := range tests {
		d := p.Evaluate(context.Background(), input(withHit(cmd(strings.Fields(tt.argv)...), tt.hit)))
		if d.Verdict != tt.want {
			t.Errorf("Evaluate(%q) = %v, want %v\n%v", tt.argv, d.Verdict, tt.want, d.Reasons)
		}
	}
}

func TestExplain(t *testing.T) {
	t.Parallel()
	p := mustParse(t, "version: 1\nallow: [git, git log]\nask: [git push]\ndeny: [git push --force, curl]\n")
	d, trace := p.Explain(context.Background(), input(cmd("git", "push", "origin")))
	if d.Verdict != policy.Ask {
		t.Errorf("Explain verdict = %v, want ask", d.Verdict)
	}
	type step struct {
		Prefix  string
		Matched bool
		Note    string
	}
	var got []step
	for _, s := range trace {
		got = append(got, step{s.Prefix, s.Matched, s.Note})
	}
	want := []step{
		{"git", true, "matches, but a longer prefix wins"},
		{"git log", false, `word 2 is "push", not "log"`},
		{"git push", true, "longest match"},
		{"git push --force", false, `word 3 is "origin", not "--force"`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Explain trace mismatch (-want +got):\n%s", diff)
	}
	if d2 := p.Evaluate(context.Background(), input(cmd("git", "push", "origin"))); !cmp.Equal(d, d2) {
		t.Errorf("Explain and Evaluate disagree:\n%v\n%v", d, d2)
	}
}

func TestRegistry(t *testing.T) {
	t.Parallel()
	ids := []string{
		"parser.syntax", "parser.command_substitution", "parser.process_substitution", "parser.coprocess",
		"parser.subshell", "parser.eval", "parser.function_definition", "parser.indirect_expansion",
		"parser.arithmetic_variable", "parser.dynamic_command", "parser.line_break_lookalike", "parser.unsupported",
		"parser.empty", "parser.too_deep", "parser.too_many_commands", "env.code_injection", "git.dangerous_config",
		"redirect.network", "ignore.denied", "path.protected", "path.outside_root", "ignore.contains_ignored",
		"ignore.unknown_ref", "path.dynamic_cwd", "policy.allow", "policy.ask", "policy.deny", "policy.no_match",
		"path.glob_option", "rego.allow", "rego.ask", "rego.deny", "rego.error", "gate.error", "gate.timeout", "gate.panic", "policy.invalid",
	}
	for _, id := range ids {
		info, ok := policy.LookupRule(id)
		if !ok || info.ID != id || info.Description == "" {
			t.Errorf("LookupRule(%q) = %+v, %v", id, info, ok)
		}
		if strings.HasPrefix(id, "gate.") && (!info.Fixed || info.Verdict != policy.Deny) {
			t.Errorf("LookupRule(%q) = %+v: gate rules are fixed deny", id, info)
		}
	}
	rules := policy.Rules()
	for i := 1; i < len(rules); i++ {
		if rules[i-1].ID >= rules[i].ID {
			t.Errorf("Rules() not sorted: %q before %q", rules[i-1].ID, rules[i].ID)
		}
	}
	if _, ok := policy.LookupRule("nope"); ok {
		t.Error(`LookupRule("nope") found`)
	}
}

func TestVerdictJSON(t *testing.T) {
	t.Parallel()
	d := policy.Decision{Verdict: policy.Ask, Reasons: []policy.Reason{{Verdict: policy.Deny, Rule: "policy.deny", Source: "builtin"}}}
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	const want = `{"decision":"ask","reasons":[{"verdict":"deny","rule":"policy.deny","message":"","pos":{"line":0,"col":0},"source":"builtin"}]}`
	if string(b) != want {
		t.Errorf("json.Marshal(Decision) = %s, want %s", b, want)
	}
	var back policy.Decision
	if err := json.Unmarshal(b, &back); err != nil || !cmp.Equal(d, back) {
		t.Errorf("json round trip = %+v, %v", back, err)
	}
	var v policy.Verdict = policy.Allow
	if err := json.Unmarshal([]byte(`"maybe"`), &v); err == nil || v != policy.Allow {
		t.Errorf(`Unmarshal("maybe") = %v, %v: want an error and no change`, v, err)
	}
	if _, err := json.Marshal(policy.Verdict(7)); err == nil {
		t.Error("Marshal(Verdict(7)) succeeded")
	}
	for _, s := range []string{"allow", "ask", "deny"} {
		if v, err := policy.ParseVerdict(s); err != nil || v.String() != s {
			t.Errorf("ParseVerdict(%q) = %v, %v", s, v, err)
		}
	}
	if v, err := policy.ParseVerdict("Allow"); err == nil || v != policy.Deny {
		t.Errorf(`ParseVerdict("Allow") = %v, %v: want deny and an error`, v, err)
	}
}

// TestFindingSource checks that a finding's own source is cited unless
// rules: re-rates its id.
func TestFindingSource(t *testing.T) {
	t.Parallel()
	in := &policy.Input{
		Commands: []policy.Command{{Argv: []string{"cat", ".env"}, MatchArgv: []string{"cat", ".env"}, Dynamic: []bool{false, false}}},
		Findings: []policy.Finding{{Rule: "ignore.denied", Message: "ignored", Pos: policy.Pos{Line: 1, Col: 5}, Source: ".cmdguardignore:1"}},
	}
	for _, tt := range []struct{ yaml, want string }{
		{"version: 1\nallow: [cat]\n", ".cmdguardignore:1"},
		{"version: 1\nallow: [cat]\nrules:\n  ignore.denied: ask\n", "p.yaml:4"},
	} {
		p, err := policy.Parse("p.yaml", []byte(tt.yaml), t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		d := p.Evaluate(context.Background(), in)
		i := slices.IndexFunc(d.Reasons, func(r policy.Reason) bool { return r.Rule == "ignore.denied" })
		if i < 0 || d.Reasons[i].Source != tt.want {
			t.Errorf("policy %q: ignore.denied reason %+v, want source %s", tt.yaml, d.Reasons, tt.want)
		}
	}
}

// TestReasonCommand checks that a prefix reason names its command even
// when two commands share a position (the inner commands of bash -c "…").
func TestReasonCommand(t *testing.T) {
	t.Parallel()
	p, err := policy.Parse("p.yaml", []byte("version: 1\nallow: [git status]\n"), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	at := policy.Pos{Line: 1, Col: 9}
	in := &policy.Input{Commands: []policy.Command{
		{Argv: []string{"git", "status"}, MatchArgv: []string{"git", "status"}, Dynamic: []bool{false, false}, Pos: at},
		{Argv: []string{"make"}, MatchArgv: []string{"make"}, Dynamic: []bool{false}, Pos: at},
	}}
	d := p.Evaluate(context.Background(), in)
	got := map[string]int{}
	for _, r := range d.Reasons {
		got[r.Rule] = r.Command
	}
	want := map[string]int{"policy.allow": 1, "policy.no_match": 2}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Reason.Command mismatch (-want +got):\n%s", diff)
	}
}

// TestIndexJSON checks the one base of command indexes in JSON: a reason's
// and a trace step's "command" is the 0-based index into commands, as in
// Rego, and is absent when they name no command; both read back.
func TestIndexJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		r    policy.Reason
		json string
	}{
		{policy.Reason{Verdict: policy.Allow, Rule: "policy.allow", Source: "p:1", Command: 1},
			`{"verdict":"allow","rule":"policy.allow","message":"","pos":{"line":0,"col":0},"source":"p:1","command":0}`},
		{policy.Reason{Verdict: policy.Deny, Rule: "rego.deny", Source: "p:2", Command: 3},
			`{"verdict":"deny","rule":"rego.deny","message":"","pos":{"line":0,"col":0},"source":"p:2","command":2}`},
		{policy.Reason{Verdict: policy.Deny, Rule: "ignore.denied", Source: "builtin"},
			`{"verdict":"deny","rule":"ignore.denied","message":"","pos":{"line":0,"col":0},"source":"builtin"}`},
	}
	for _, tt := range tests {
		b, err := json.Marshal(tt.r)
		if err != nil || string(b) != tt.json {
			t.Errorf("json.Marshal(%+v) = %s, %v; want %s", tt.r, b, err, tt.json)
		}
		var back policy.Reason
		if err := json.Unmarshal(b, &back); err != nil || back != tt.r {
			t.Errorf("json.Unmarshal(%s) = %+v, %v; want %+v", b, back, err, tt.r)
		}
	}
	if err := json.Unmarshal([]byte(`{"command":-1}`), new(policy.Reason)); err == nil {
		t.Error(`json.Unmarshal({"command":-1}) into a Reason: no error`)
	}
	for _, st := range []policy.TraceStep{{Command: -1, Kind: "finding"}, {Command: 0, Kind: "prefix"}, {Command: 4, Kind: "rego"}} {
		b, err := json.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		if has := strings.Contains(string(b), `"command"`); has != (st.Command >= 0) {
			t.Errorf("json.Marshal(%+v) = %s: \"command\" present = %v", st, b, has)
		}
		var back policy.TraceStep
		if err := json.Unmarshal(b, &back); err != nil || back != st {
			t.Errorf("json.Unmarshal(%s) = %+v, %v; want %+v", b, back, err, st)
		}
	}
}

// TestLongWordMessages checks that reason messages cut a word longer than
// 200 bytes to its first 80 and the count, leaving short ones alone.
func TestLongWordMessages(t *testing.T) {
	t.Parallel()
	p := mustParse(t, "version: 1\nallow: [rm]\ndeny: [rm -rf]\n")
	long := strings.Repeat("é", 500) // 1000 bytes, cut at a rune boundary
	c := cmd("rm", "$X"+long)
	c.Dynamic[1] = true
	in := input(c)
	in.Findings = []policy.Finding{{Rule: "ignore.denied", Message: "'" + long + "' is ignored by .cmdguardignore:1 (x)"}}
	d := p.Evaluate(context.Background(), in)
	for _, r := range d.Reasons {
		if len(r.Message) > 400 || !strings.Contains(r.Message, "…[") {
			t.Errorf("reason %s: message of %d bytes, want it cut with the count: %q", r.Rule, len(r.Message), r.Message)
		}
		if !utf8.ValidString(r.Message) {
			t.Errorf("reason %s: cut inside a character: %q", r.Rule, r.Message)
		}
	}
	want := "'" + strings.Repeat("é", 39) + "…[1002 bytes] is ignored by .cmdguardignore:1 (x)"
	if i := slices.IndexFunc(d.Reasons, func(r policy.Reason) bool { return r.Rule == "ignore.denied" }); i < 0 || d.Reasons[i].Message != want {
		t.Errorf("ignore.denied reason: %v, want message %q", d.Reasons, want)
	}
	short := p.Evaluate(context.Background(), input(cmd("rm", "x")))
	if m := short.Reasons[0].Message; strings.Contains(m, "…[") {
		t.Errorf("short message cut: %q", m)
	}
}
