package cmdguard

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
