package policy_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/cmdguard/cmdguard/policy"
)

func TestRego(t *testing.T) {
	t.Parallel()
	full := mustLoad(t, "testdata/valid/full.yaml")
	index := mustLoad(t, "testdata/valid/rego_index.yaml")
	at := func(c policy.Command, col int) policy.Command { c.Pos = policy.Pos{Line: 1, Col: col}; return c }
	const fullRego = "testdata/valid/full.yaml:10"
	const indexRego = "testdata/valid/rego_index.yaml:4"
	tests := []struct {
		name string
		p    *policy.Policy
		in   *policy.Input
		want []policy.Reason
	}{
		{"rego deny adds a reason", full, input(at(cmd("sudo", "ls"), 1)), []policy.Reason{
			{Verdict: policy.Deny, Rule: "rego.deny", Message: "no-sudo: no sudo", Source: fullRego},
			{Verdict: policy.Ask, Rule: "policy.no_match", Message: "no prefix rule matches `sudo ls`; default: ask", Pos: policy.Pos{Line: 1, Col: 1}, Source: "testdata/valid/full.yaml:3"},
		}},
		{"rego allow lifts no_match", full, input(at(cmd("make"), 1)), []policy.Reason{
			{Verdict: policy.Allow, Rule: "rego.allow", Message: "make is fine", Pos: policy.Pos{Line: 1, Col: 1}, Source: fullRego},
		}},
		{"rego allow never lifts a deny rule", full, input(at(cmd("make"), 1), at(cmd("curl", "x"), 8)), []policy.Reason{
			{Verdict: policy.Deny, Rule: "policy.deny", Message: "`curl x` matches deny prefix \"curl\"", Pos: policy.Pos{Line: 1, Col: 8}, Source: "testdata/valid/full.yaml:5"},
			{Verdict: policy.Allow, Rule: "rego.allow", Message: "make is fine", Pos: policy.Pos{Line: 1, Col: 1}, Source: fullRego},
		}},
		{"rego allow never lifts an ask rule", full, input(at(cmd("make"), 1), at(cmd("git", "push"), 8)), []policy.Reason{
			{Verdict: policy.Ask, Rule: "policy.ask", Message: "`git push` matches ask prefix \"git push\"", Pos: policy.Pos{Line: 1, Col: 8}, Source: "testdata/valid/full.yaml:6"},
			{Verdict: policy.Allow, Rule: "rego.allow", Message: "make is fine", Pos: policy.Pos{Line: 1, Col: 1}, Source: fullRego},
		}},
		{"rego allow never lifts a finding", full, &policy.Input{Commands: []policy.Command{at(cmd("make"), 2)},
			Findings: []policy.Finding{{Rule: "parser.subshell", Message: "subshell", Pos: policy.Pos{Line: 1, Col: 1}}}}, []policy.Reason{
			{Verdict: policy.Ask, Rule: "parser.subshell", Message: "subshell", Pos: policy.Pos{Line: 1, Col: 1}, Source: "testdata/valid/full.yaml:9"},
			{Verdict: policy.Allow, Rule: "rego.allow", Message: "make is fine", Pos: policy.Pos{Line: 1, Col: 2}, Source: fullRego},
		}},
		{"string allow speaks for the whole input", full, input(at(cmd("make"), 1), at(cmd("foo"), 8)), []policy.Reason{
			{Verdict: policy.Allow, Rule: "rego.allow", Message: "make is fine", Pos: policy.Pos{Line: 1, Col: 1}, Source: fullRego},
			{Verdict: policy.Allow, Rule: "rego.allow", Message: "make is fine", Pos: policy.Pos{Line: 1, Col: 8}, Source: fullRego},
		}},
		{"indexed allow lifts its command only", index, input(at(cmd("make"), 1), at(cmd("foo"), 8)), []policy.Reason{
			{Verdict: policy.Ask, Rule: "policy.no_match", Message: "no prefix rule matches `foo`; default: ask", Pos: policy.Pos{Line: 1, Col: 8}, Source: "default"},
			{Verdict: policy.Allow, Rule: "rego.allow", Message: "make: make targets are fine", Pos: policy.Pos{Line: 1, Col: 1}, Source: indexRego},
		}},
		{"indexed ask points at its command", index, input(at(cmd("ls"), 1), at(cmd("make", "clean"), 5)), []policy.Reason{
			{Verdict: policy.Ask, Rule: "rego.ask", Message: "make-clean: make clean deletes build output", Pos: policy.Pos{Line: 1, Col: 5}, Source: indexRego},
			{Verdict: policy.Allow, Rule: "policy.allow", Message: "`ls` matches allow prefix \"ls\"", Pos: policy.Pos{Line: 1, Col: 1}, Source: "testdata/valid/rego_index.yaml:2"},
			{Verdict: policy.Allow, Rule: "rego.allow", Message: "make: make targets are fine", Pos: policy.Pos{Line: 1, Col: 5}, Source: indexRego},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := tt.p.Evaluate(context.Background(), tt.in)
			want := policy.Decision{Verdict: tt.want[0].Verdict, Reasons: withCommand(tt.in, tt.want)}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Evaluate mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRegoRuntimeError: a Rego runtime error denies, even under
// default: allow.
func TestRegoRuntimeError(t *testing.T) {
	t.Parallel()
	p := mustLoad(t, "testdata/valid/rego_runtime.yaml")
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name   string
		ctx    context.Context
		source string
	}{
		{"builtin error", context.Background(), "builtin"},
		{"conflict", context.Background(), "conflict"},
		{"bad allow entry", context.Background(), "badentry"},
		{"bad command index", context.Background(), "badindex"},
		{"canceled", canceled, "fine"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := &policy.Input{Source: tt.source, Commands: []policy.Command{cmd("x")}}
			d := p.Evaluate(tt.ctx, in)
			if d.Verdict != policy.Deny || d.Reasons[0].Rule != "rego.error" {
				t.Errorf("Evaluate(source %q) = %v %v, want deny rego.error", tt.source, d.Verdict, d.Reasons)
			}
		})
	}
	// And without an error, the same policy allows.
	d := p.Evaluate(context.Background(), &policy.Input{Source: "fine", Commands: []policy.Command{cmd("x")}})
	if d.Verdict != policy.Allow {
		t.Errorf("Evaluate(fine) = %v %v, want allow", d.Verdict, d.Reasons)
	}
}

// TestRegoConcurrent shares one prepared query between goroutines (run
// with -race).
func TestRegoConcurrent(t *testing.T) {
	t.Parallel()
	p := mustLoad(t, "testdata/valid/full.yaml")
	want := p.Evaluate(context.Background(), input(cmd("sudo", "ls")))
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for range 8 {
		wg.Go(func() {
			for range 50 {
				got := p.Evaluate(context.Background(), input(cmd("sudo", "ls")))
				if diff := cmp.Diff(want, got); diff != "" {
					errs <- diff
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for diff := range errs {
		t.Errorf("concurrent Evaluate mismatch (-want +got):\n%s", diff)
	}
}

func TestRegoInputDocument(t *testing.T) {
	t.Parallel()
	// The input document a Rego module sees: echo it back through a deny
	// message and compare with the documented JSON shape.
	dir := t.TempDir()
	writeFile(t, dir+"/echo.rego", `package cmdguard

deny contains json.marshal(input) if true
`)
	p, err := policy.Parse(dir+"/p.yaml", []byte("version: 1\nrego: [echo.rego]\n"), dir)
	if err != nil {
		t.Fatal(err)
	}
	in := &policy.Input{
		Source: "cat .env > out", Cwd: "/r", Root: "/r",
		Commands: []policy.Command{{
			Argv: []string{"cat", ".env"}, MatchArgv: []string{"cat", ".env"}, Dynamic: []bool{false, false},
			Pos: policy.Pos{Line: 1, Col: 1}, Cwd: "/r",
			Redirects: []policy.Redirect{{Op: ">", Target: "out", Write: true, Pos: policy.Pos{Line: 1, Col: 10}}},
			Files:     []policy.File{{Path: ".env", Written: ".env", Pos: policy.Pos{Line: 1, Col: 5}, Kind: "arg", Ignored: true, IgnoredBy: ".cmdguardignore:1", Exists: true}},
		}},
		Findings: []policy.Finding{{Rule: "path.outside_root", Message: "m", Pos: policy.Pos{Line: 1, Col: 2}}},
	}
	d := p.Evaluate(context.Background(), in)
	var got string
	for _, r := range d.Reasons {
		if r.Rule == "rego.deny" {
			got = r.Message
		}
	}
	const want = `{"commands":[{"argv":["cat",".env"],"cwd":"/r","dynamic":[false,false],` +
		`"files":[{"dynamic":false,"exists":true,"ignored":true,"ignored_by":".cmdguardignore:1","is_dir":false,"kind":"arg","maybe":false,"outside_root":false,"path":".env","pos":{"col":5,"line":1},"recursive":false,"write":false,"written":".env"}],` +
		`"match_argv":["cat",".env"],"pos":{"col":1,"line":1},` +
		`"redirects":[{"op":"\u003e","pos":{"col":10,"line":1},"target":"out","write":true}],"wrappers":[]}],` +
		`"cwd":"/r","findings":[{"message":"m","pos":{"col":2,"line":1},"rule":"path.outside_root"}],"root":"/r","sandbox_network":"","sandboxed":false,"source":"cat .env \u003e out"}`
	if diff := cmp.Diff(want, got, cmpopts.AcyclicTransformer("x", func(s string) string { return s })); diff != "" {
		t.Errorf("Rego input mismatch (-want +got):\n%s", diff)
	}
}

// TestDocExample runs the worked example of the package documentation.
func TestDocExample(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, dir+"/exfil.rego", `package cmdguard

deny contains {"msg": "secret piped into a file", "rule": "no-exfil", "command": i} if {
	some i, c in input.commands
	some r in c.redirects
	r.write
	some f in input.commands[_].files
	f.ignored
}
`)
	p, err := policy.Parse(dir+"/p.yaml", []byte("version: 1\nallow: [cat, grep]\nrego: [exfil.rego]\n"), dir)
	if err != nil {
		t.Fatal(err)
	}
	cat := cmd("cat", ".env")
	cat.Pos = policy.Pos{Line: 1, Col: 1}
	cat.Files = []policy.File{{Path: ".env", Written: ".env", Kind: "arg", Ignored: true}}
	grep := cmd("grep", "KEY")
	grep.Pos = policy.Pos{Line: 1, Col: 12}
	grep.Redirects = []policy.Redirect{{Op: ">", Target: "out.txt", Write: true}}
	d := p.Evaluate(context.Background(), input(cat, grep))
	want := policy.Reason{Verdict: policy.Deny, Rule: "rego.deny", Message: "no-exfil: secret piped into a file", Pos: policy.Pos{Line: 1, Col: 12}, Source: dir + "/p.yaml:3", Command: 2}
	if diff := cmp.Diff(want, d.Reasons[0]); diff != "" {
		t.Errorf("doc example mismatch (-want +got):\n%s", diff)
	}
	grep.Redirects = nil
	if d := p.Evaluate(context.Background(), input(cat, grep)); d.Verdict != policy.Allow {
		t.Errorf("without the redirect: %v %v, want allow", d.Verdict, d.Reasons)
	}
}

// TestRegoRefusedBuiltins: a repository's policy cannot reach the network
// or the host; calls are compile errors with positions.
func TestRegoRefusedBuiltins(t *testing.T) {
	t.Parallel()
	calls := []string{
		`http.send({"method": "GET", "url": "https://example.com"})`,
		`net.lookup_ip_addr("example.com")`,
		`net.cidr_contains("10.0.0.0/8", "10.1.1.1")`,
		`opa.runtime()`,
		`json.match_schema({}, {"$ref": "https://example.com/s.json"})`,
		`json.verify_schema({"$ref": "file:///etc/passwd"})`,
	}
	for _, call := range calls {
		t.Run(call, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			writeFile(t, dir+"/m.rego", "package cmdguard\n\ndeny contains \"x\" if {\n\t"+call+"\n}\n")
			_, err := policy.Parse(dir+"/p.yaml", []byte("version: 1\nrego: [m.rego]\n"), dir)
			var errs policy.Errors
			if !errors.As(err, &errs) {
				t.Fatalf("Parse = %v, want policy.Errors", err)
			}
			e := errs[0]
			if e.File != dir+"/m.rego" || e.Line != 4 || e.Col != 2 || !strings.Contains(e.Msg, " is refused by cmdguard: ") {
				t.Errorf("Parse error = %v, want m.rego:4:2: … is refused by cmdguard: …", e)
			}
		})
	}
}
