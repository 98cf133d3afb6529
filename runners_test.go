package cmdguard

import (
	"context"
	"errors"
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
	// The embedded default runs commands sandboxed where the kernel
	// allows it (issue 24): asked for or not, go test runs, and cannot
	// read .env.
	for _, sandbox := range []bool{false, true} {
		d, r, err := g.Run(context.Background(), RunRequest{Request: Request{Command: cmd, BaseEnv: p.env()}, Sandbox: sandbox})
		if err != nil || d.Verdict != Allow || r.Sandbox == nil || !r.Sandbox.Applied {
			t.Fatalf("Run (Sandbox %v): %s, %v, sandbox %+v: %s", sandbox, d.Verdict, err, r.Sandbox, d.Summary())
		}
		out := sbOutput(r)
		if !strings.Contains(out, "ENV:") || strings.Contains(out, sbSecret) {
			t.Errorf("go test in the sandbox: want the test to run and not see the secret, got:\n%s", out)
		}
	}
	// On a machine whose kernel cannot set it up, the gate's own answer
	// stands: go test asks and does not run.
	g.probe = func() error { return errors.New("no user namespaces here") }
	d, _, err := g.Run(context.Background(), RunRequest{Request: Request{Command: cmd, BaseEnv: p.env()}})
	if err == nil || d.Verdict != Ask {
		t.Fatalf("Run where the sandbox cannot be set up: %s, %v, want ask and refused", d.Verdict, err)
	}
}

// TestInputSandboxed: the policy input says sandboxed only when the
// command will run in the sandbox for sure: asked for (Request.Sandboxed:
// the run then requires it), or enabled by the policy for a command Start
// runs, required or (required: false) set up by this machine's kernel —
// not for a Check alone, whose caller runs the command itself.
func TestInputSandboxed(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		sandbox          string
		sandboxed, start bool
		want             bool
		noKernel         bool
	}{
		{"", false, false, false, false},
		{"", true, false, true, false},
		{"sandbox: {enabled: true}\n", false, false, false, false},
		{"sandbox: {enabled: true}\n", false, true, true, false},
		{"sandbox: {enabled: true, required: false}\n", false, true, true, false},
		{"sandbox: {enabled: true, required: false}\n", false, true, false, true},
		{"sandbox: {enabled: true}\n", false, true, true, true},
		{"sandbox: {required: false}\n", true, false, true, true},
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
		if c.noKernel {
			g.probe = func() error { return errors.New("no user namespaces here") }
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
