package cmdguard_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/exec"
)

// TestRequestEnvNeverDropped: an added harmless variable reaches the
// command even when exec.env_allow does not list it; the base is filtered;
// a request repeating the base adds nothing.
func TestRequestEnvNeverDropped(t *testing.T) {
	t.Parallel()
	root := project(t, testPolicy+"exec: {env_allow: [PATH, HOME]}\nenv_safe: [GREETING]\n")
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	req := cmdguard.RunRequest{Request: cmdguard.Request{Command: `echo "$GREETING|$SECRET_TOKEN|${PATH:+path}"`, Cwd: root,
		BaseEnv: []string{"PATH=" + os.Getenv("PATH"), "SECRET_TOKEN=s3cret"},
		Env:     []string{"GREETING=hi", "PATH=" + os.Getenv("PATH")}}}
	d, res, err := g.Run(context.Background(), req)
	if err != nil {
		t.Fatalf("Run: %s %v: %+v", d.Verdict, err, d.Reasons)
	}
	if got := res.Stdout.String(); got != "hi||path\n" {
		t.Errorf("the command printed %q, want \"hi||path\\n\" (added variable kept, base filtered)", got)
	}
	// A nil BaseEnv is the host's environment: bash finds programs.
	d, res, err = g.Run(context.Background(), cmdguard.RunRequest{Request: cmdguard.Request{Command: "env", Cwd: root}})
	if err != nil || !strings.Contains(res.Stdout.String(), "PATH=") {
		t.Errorf("Run(env) without BaseEnv: %v, %q; want the host's PATH", err, res.Stdout.String())
	}
}

// TestStartOutlivesContext: Start's context bounds the check, not the
// command; Close ends every command the Guard started.
func TestStartOutlivesContext(t *testing.T) {
	t.Parallel()
	root := project(t, testPolicy+"exec: {timeout: 50ms}\n")
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	_, p, err := g.Start(ctx, cmdguard.RunRequest{Request: cmdguard.Request{Command: "echo a; sleep 300", Cwd: root},
		Approve: func(cmdguard.Decision) bool { return true }})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	cancel()
	// The policy's soft exec.timeout makes Wait return while it runs.
	r, _ := p.Wait(context.Background())
	if r.Status != exec.StatusRunning {
		t.Fatalf("after the request context ended and the soft timeout: %s, want running", r.Explain())
	}
	if err := g.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if r, _ := p.Status(); r.Status != exec.StatusKilled {
		t.Errorf("after Close: %s, want killed", r.Explain())
	}
	if _, _, err := g.Start(context.Background(), cmdguard.RunRequest{Request: cmdguard.Request{Command: "true", Cwd: root}}); !errors.Is(err, cmdguard.ErrClosed) {
		t.Errorf("Start after Close: %v, want ErrClosed", err)
	}
}
