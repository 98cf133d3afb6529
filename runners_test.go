package cmdguard

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// reasonOf returns the first reason with rule id, and whether there is one.
func reasonOf(d Decision, rule string) (Reason, bool) {
	i := slices.IndexFunc(d.Reasons, func(r Reason) bool { return r.Rule == rule })
	if i < 0 {
		return Reason{}, false
	}
	return d.Reasons[i], true
}

// TestDefaultRunnerNeedsSandbox: under the embedded default policy, go
// test asks without the sandbox and is allowed with it, and the reasons
// say which applies; a command that runs no project code is allowed
// either way.
func TestDefaultRunnerNeedsSandbox(t *testing.T) {
	t.Parallel()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		cmd       string
		sandboxed bool
		want      Verdict
		reason    string // the message of policy.needs_sandbox, "" for none
	}{
		{"go test ./...", false, Ask, "allows it only under the sandbox"},
		{"go test ./...", true, Allow, "allowed because it runs under the sandbox"},
		{"go vet ./... && go build ./...", false, Ask, "allows it only under the sandbox"},
		{"go build ./...", true, Allow, "allowed because it runs under the sandbox"},
		{"go list ./...", false, Allow, ""},
		{"cat go.mod", false, Allow, ""},
		// The sandbox does not make write-then-run an allow.
		{"echo 'package x' > x_test.go && go test ./...", true, Ask, "allowed because it runs under the sandbox"},
	} {
		d, err := g.Check(context.Background(), Request{Command: c.cmd, Sandboxed: c.sandboxed})
		if err != nil {
			t.Fatal(err)
		}
		r, ok := reasonOf(d, "policy.needs_sandbox")
		if d.Verdict != c.want || ok != (c.reason != "") || !strings.Contains(r.Message, c.reason) {
			t.Errorf("Check(%q, sandboxed %v) = %s, want %s with needs_sandbox %q:\n%s", c.cmd, c.sandboxed, d.Verdict, c.want, c.reason, d.Summary())
		}
		if ok && r.Verdict != c.want && c.want != Ask {
			t.Errorf("Check(%q): needs_sandbox reason is %s", c.cmd, r.Verdict)
		}
	}
}

// TestDefaultRunnerRunsSandboxed: through Run, the default policy allows
// go test only with the sandbox, and then go test runs in it and cannot
// read the project's .env.
func TestDefaultRunnerRunsSandboxed(t *testing.T) {
	t.Parallel()
	p := newSBProject(t, "", false)
	if err := os.Remove(filepath.Join(p.root, ".cmdguard.yaml")); err != nil {
		t.Fatal(err)
	}
	leak := "package main\n\nimport (\"os\"; \"testing\")\n\nfunc TestLeak(t *testing.T) { b, _ := os.ReadFile(\".env\"); t.Log(\"ENV:\" + string(b)) }\n"
	if err := os.WriteFile(filepath.Join(p.root, "leak_test.go"), []byte(leak), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := Open(p.root)
	if err != nil {
		t.Fatal(err)
	}
	const cmd = "go test -v -count=1 -run TestLeak ."
	d, _, err := g.Run(context.Background(), RunRequest{Request: Request{Command: cmd, BaseEnv: p.env()}})
	if err == nil || d.Verdict != Ask {
		t.Fatalf("Run without the sandbox: %s, %v, want ask and refused", d.Verdict, err)
	}
	d, r, err := g.Run(context.Background(), RunRequest{Request: Request{Command: cmd, BaseEnv: p.env()}, Sandbox: true})
	if err != nil || d.Verdict != Allow || r.Sandbox == nil {
		t.Fatalf("Run with the sandbox: %s, %v, sandbox %+v: %s", d.Verdict, err, r.Sandbox, d.Summary())
	}
	out := sbOutput(r)
	if !strings.Contains(out, "ENV:") || strings.Contains(out, sbSecret) {
		t.Errorf("go test in the sandbox: want the test to run and not see the secret, got:\n%s", out)
	}
}

// TestWriteThenRunGate: the rule through the whole gate, in a policy that
// allows every command of the chain; re-rated by rules:.
func TestWriteThenRunGate(t *testing.T) {
	t.Parallel()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	const pol = "version: 1\ndefault: ask\nallow: [printf, go test, make, tee, cat, bash -c, xargs, sh -c, ls]\n"
	write := func(rules string) *Guard {
		if err := os.WriteFile(filepath.Join(root, ".cmdguard.yaml"), []byte(pol+rules), 0o644); err != nil {
			t.Fatal(err)
		}
		g, err := OpenPolicy(filepath.Join(root, ".cmdguard.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	g := write("")
	for _, c := range []struct {
		cmd  string
		want Verdict
		at   string // position of the write the reason names
	}{
		{"printf 'package x' > x_test.go && go test ./...", Ask, "at 1:22"},
		{"printf x > x_test.go; go test", Ask, "at 1:12"},
		{"printf x | tee Makefile | make", Ask, "at 1:16"},
		{"for i in 1 2; do go test; printf x > x_test.go; done", Ask, "at 1:38"},
		{"bash -c 'printf x > x_test.go && go test'", Ask, "at 1:21"},
		{"ls | xargs -I{} sh -c 'go test; printf x > {}_test.go'", Ask, "at 1:44"},
		{"go test ./...", Allow, ""},
		{"go test ./...; printf x > x_test.go", Allow, ""},
		{"go test ./... | tee test.log", Ask, "alongside the write of test.log at 1:21"},
		{"go test ./... && cat x", Allow, ""},
	} {
		d, err := g.Check(context.Background(), Request{Command: c.cmd})
		if err != nil {
			t.Fatal(err)
		}
		r, ok := reasonOf(d, "policy.write_then_run")
		if d.Verdict != c.want || ok != (c.at != "") || !strings.Contains(r.Message, c.at) {
			t.Errorf("Check(%q) = %s, want %s with write_then_run %q:\n%s", c.cmd, d.Verdict, c.want, c.at, d.Summary())
		}
	}
	g = write("rules: {policy.write_then_run: allow}\n")
	if d, _ := g.Check(context.Background(), Request{Command: "printf x > x_test.go && go test"}); d.Verdict != Allow {
		t.Errorf("re-rated to allow: %s\n%s", d.Verdict, d.Summary())
	}
}

// TestInputSandboxed: the policy input says sandboxed only when the
// command will run in a required sandbox: asked for (Request.Sandboxed),
// or enabled by the policy for a command Start runs — not for a Check
// alone, whose caller runs the command itself.
func TestInputSandboxed(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		sandbox          string
		sandboxed, start bool
		want             bool
	}{
		{"", false, false, false},
		{"", true, false, true},
		{"sandbox: {enabled: true}\n", false, false, false},
		{"sandbox: {enabled: true}\n", false, true, true},
		{"sandbox: {enabled: true, required: false}\n", false, true, false},
		{"sandbox: {required: false}\n", true, false, false},
	} {
		root, err := filepath.EvalSymlinks(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, ".cmdguard.yaml"), []byte("version: 1\ndefault: allow\n"+c.sandbox), 0o644); err != nil {
			t.Fatal(err)
		}
		g, err := OpenPolicy(filepath.Join(root, ".cmdguard.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		st, err := g.src.current()
		if err != nil {
			t.Fatal(err)
		}
		in, err := g.input(Request{Command: "go test", Sandboxed: c.sandboxed, running: c.start}, st)
		if err != nil || in.Sandboxed != c.want {
			t.Errorf("%q, Sandboxed %v, running %v: input sandboxed %v, %v; want %v", c.sandbox, c.sandboxed, c.start, in.Sandboxed, err, c.want)
		}
	}
}
