package policy_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cmdguard/cmdguard/policy"
)

func TestRunTests(t *testing.T) {
	t.Parallel()
	results, err := policy.RunTests(context.Background(), "testdata/regotest")
	if err != nil {
		t.Fatal(err)
	}
	type res struct{ Name, Status, File string }
	var got []res
	for _, r := range results {
		got = append(got, res{r.Name, r.Status, filepath.Base(r.File)})
		if r.Line == 0 {
			t.Errorf("%s: no line", r.Name)
		}
	}
	want := []res{
		{"test_rm_denied", "pass", "p_test.rego"},
		{"test_ls_denied_fails", "fail", "p_test.rego"},
		{"test_builtin_error", "error", "p_test.rego"},
		{"todo_test_later", "skip", "p_test.rego"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("RunTests mismatch (-want +got):\n%s", diff)
	}
}

func TestRunTestsRefusesNetwork(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "x_test.rego"), "package cmdguard\n\ntest_net if {\n\thttp.send({\"method\": \"GET\", \"url\": \"http://x\"})\n}\n")
	_, err := policy.RunTests(context.Background(), dir)
	var errs policy.Errors
	if !errors.As(err, &errs) {
		t.Fatalf("RunTests = %v, want policy.Errors", err)
	}
	if e := errs[0]; !strings.HasSuffix(e.File, "x_test.rego") || e.Line != 4 || e.Col != 2 || !strings.Contains(e.Msg, "http.send is refused by cmdguard: ") {
		t.Errorf("RunTests error = %v, want x_test.rego:4:2 http.send is refused by cmdguard", e)
	}
}

func TestLint(t *testing.T) {
	t.Parallel()
	diags, err := policy.Lint("testdata/lint")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range diags {
		got = append(got, d.String())
	}
	want := []string{
		"testdata/lint/.cmdguard.yaml:2:10: warning: default: allow lets every command no rule names run",
		`testdata/lint/.cmdguard.yaml:5:5: warning: allow: "curl" reaches the network`,
		`testdata/lint/.cmdguard.yaml:6:5: warning: allow: "git push origin" reaches the network`,
		`testdata/lint/.cmdguard.yaml:7:5: warning: allow: "bash -c" runs arbitrary code`,
		"testdata/lint/.cmdguard.yaml:9:3: warning: rules: parser.subshell: allow lets a construct the gate cannot follow run",
		`testdata/lint/.cmdguard.yaml:12:8: warning: prefix "git push origin" is in both allow (testdata/lint/.cmdguard.yaml:6) and deny: the stricter, deny, wins`,
		"testdata/lint/rego/sloppy.rego:3:1: warning: rego_compile_error: import data.unused unused",
		"testdata/lint/rego/sloppy.rego:6:2: warning: rego_compile_error: assigned var y unused",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Lint mismatch (-want +got):\n%s", diff)
	}

	diags, err = policy.Lint("testdata/invalid/unknown_key.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want = []string{`testdata/invalid/unknown_key.yaml:3:1: error: unknown key "alow"`}
	got = nil
	for _, d := range diags {
		got = append(got, d.String())
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Lint(invalid) mismatch (-want +got):\n%s", diff)
	}
	if _, err := policy.Lint("testdata/nope.yaml"); err == nil {
		t.Error("Lint(missing file) = nil error")
	}
}

func TestAppendAllow(t *testing.T) {
	t.Parallel()
	const src = `# My policy.
version: 1
allow:
  - ls # listing is fine
  # Git, read only.
  - git status
deny: [rm -rf] # never
`
	tests := []struct {
		name    string
		src     string
		prefix  []string
		want    string
		wantErr string
	}{
		{"append keeps comments", src, []string{"npm", "run", "build"}, `# My policy.
version: 1
allow:
  - ls # listing is fine
  # Git, read only.
  - git status
  - npm run build
deny: [rm -rf] # never
`, ""},
		{"token with a space", src, []string{"grep", "a b"}, `# My policy.
version: 1
allow:
  - ls # listing is fine
  # Git, read only.
  - git status
  - [grep, "a b"]
deny: [rm -rf] # never
`, ""},
		{"already allowed", src, []string{"git", "status"}, src, ""},
		{"denied", src, []string{"rm", "-rf"}, src, `"rm -rf" is in deny`},
		{"no allow key", "version: 1\n", []string{"ls"}, "version: 1\nallow: [ls]\n", ""},
		{"empty allow key", "version: 1\nallow:\nask: [x]\n", []string{"ls"}, "version: 1\nallow: [ls]\nask: [x]\n", ""},
		{"invalid policy", "version: 2\n", []string{"ls"}, "version: 2\n", "unsupported version"},
		{"empty prefix", src, nil, src, "empty prefix"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), policy.FileName)
			writeFile(t, path, tt.src)
			err := policy.AppendAllow(path, tt.prefix)
			if (err != nil) != (tt.wantErr != "") || (err != nil && !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("AppendAllow(%q) error = %v, want %q", tt.prefix, err, tt.wantErr)
			}
			data, _ := os.ReadFile(path)
			if diff := cmp.Diff(tt.want, string(data)); diff != "" {
				t.Errorf("AppendAllow(%q) file mismatch (-want +got):\n%s", tt.prefix, diff)
			}
			if err == nil {
				p := mustLoad(t, path)
				d := p.Evaluate(context.Background(), input(cmd(append(tt.prefix, "x")...)))
				if d.Verdict != policy.Allow {
					t.Errorf("after AppendAllow(%q): %v %v, want allow", tt.prefix, d.Verdict, d.Reasons)
				}
			}
		})
	}
}

func TestSuggestAllow(t *testing.T) {
	t.Parallel()
	p := mustParse(t, "version: 1\nallow: [ls]\nask: [git push]\ndeny: [rm -rf]\n")
	tests := []struct {
		argv   string
		want   []string
		wantOK bool
		hit    int // where the parser finds a guarded option
	}{
		{"make build", []string{"make", "build"}, true, 0},
		{"git push origin main", []string{"git", "push", "origin", "main"}, true, 0},
		{"git push", nil, false, 0},                                   // the exact prefix is in ask:
		{"rm $X build", nil, false, 0},                                // $X could be -rf
		{"cat $F", []string{"cat"}, true, 0},                          // nothing stricter beyond
		{"$CMD x", nil, false, 0},                                     // nothing static to name
		{"find . -delete", []string{"find", ".", "-delete"}, true, 2}, // the rule names the option
		{"find $D -delete", nil, false, 2},                            // the option lies beyond the dynamic word
	}
	for _, tt := range tests {
		c := withHit(cmd(strings.Fields(tt.argv)...), tt.hit)
		got, ok := p.SuggestAllow(&c)
		if ok != tt.wantOK || !cmp.Equal(got, tt.want) {
			t.Errorf("SuggestAllow(%q) = %q, %v; want %q, %v", tt.argv, got, ok, tt.want, tt.wantOK)
			continue
		}
		if !ok {
			continue
		}
		// Appending it really allows the command.
		path := filepath.Join(t.TempDir(), policy.FileName)
		writeFile(t, path, "version: 1\nallow: [ls]\nask: [git push]\ndeny: [rm -rf]\n")
		if err := policy.AppendAllow(path, got); err != nil {
			t.Fatal(err)
		}
		if d := mustLoad(t, path).Evaluate(context.Background(), input(c)); d.Verdict != policy.Allow {
			t.Errorf("after AppendAllow(%q): %v %v", got, d.Verdict, d.Reasons)
		}
	}
}

// TestLintSandboxSockets: each sandbox.sockets entry is a warning (its
// server acts outside the sandbox), and one below a hidden home entry
// (the default hides ~/.ssh) is told that it stays out of reach.
func TestLintSandboxSockets(t *testing.T) {
	t.Parallel()
	f := filepath.Join(t.TempDir(), ".cmdguard.yaml")
	if err := os.WriteFile(f, []byte("version: 1\nsandbox:\n  sockets:\n    - /run/user/1000/gcr/ssh\n    - ~/.ssh/agent.sock\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	diags, err := policy.Lint(f)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range diags {
		got = append(got, strings.TrimPrefix(d.String(), f))
	}
	want := []string{
		`:4:1: warning: sandbox.sockets: "/run/user/1000/gcr/ssh": every sandboxed command may connect to it, and what its server does for a client (an ssh agent signs with the person's keys) happens outside the sandbox`,
		`:5:1: warning: sandbox.sockets: "~/.ssh/agent.sock": every sandboxed command may connect to it, and what its server does for a client (an ssh agent signs with the person's keys) happens outside the sandbox`,
		`:5:1: warning: sandbox.sockets: "~/.ssh/agent.sock" is below sandbox.hide "~/.ssh": it stays out of reach`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Lint mismatch (-want +got):\n%s", diff)
	}
}
