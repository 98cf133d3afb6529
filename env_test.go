package cmdguard_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/exec"
)

// evilProject is project() plus a script that copies the secret into a
// marker file, to be run by whatever bash is made to run it.
func evilProject(t *testing.T) (root, marker string) {
	t.Helper()
	root = project(t, testPolicy)
	marker = filepath.Join(root, "leaked")
	if err := os.WriteFile(filepath.Join(root, "sub-evil.sh"), []byte("cat "+filepath.Join(root, ".env")+" > "+marker+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return root, marker
}

// leaks reports whether running command with env under plain bash (no
// gate) copies the secret: the judge that the gate must agree with.
func leaks(t *testing.T, root, marker, command string, env []string) bool {
	t.Helper()
	os.Remove(marker)
	_, err := exec.Run(context.Background(), exec.Cmd{Command: command, Dir: root, Env: append([]string{"PATH=" + os.Getenv("PATH")}, env...)})
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.ReadFile(marker)
	os.Remove(marker)
	return err == nil && strings.Contains(string(out), "TOKEN")
}

// TestRequestEnvGated: variables a request adds are judged like VAR=x
// prefix assignments; the command never starts when one injects code.
// Each case is first run by real bash without the gate, to prove it leaks.
func TestRequestEnvGated(t *testing.T) {
	t.Parallel()
	root, marker := evilProject(t)
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	evil := filepath.Join(root, "sub-evil.sh")
	tests := []struct {
		name, command string
		env           []string
		bashLeaks     bool // real bash copies the secret with this env
		rule          string
	}{
		{"BASH_ENV", "true", []string{"BASH_ENV=" + evil}, true, "env.code_injection"},
		{"BASH_ENV relative", "true", []string{"BASH_ENV=sub-evil.sh"}, true, "env.code_injection"},
		{"ENV", "true", []string{"ENV=" + evil}, false, "env.code_injection"},
		{"exported function", "echo hi", []string{"BASH_FUNC_echo%%=() { bash " + evil + "; }"}, true, "env.code_injection"},
		{"PROMPT_COMMAND", "true", []string{"PROMPT_COMMAND=bash " + evil}, false, "env.code_injection"},
		{"SHELLOPTS xtrace PS4", "true", []string{"SHELLOPTS=xtrace", "PS4=$(bash " + evil + ")"}, false /* bash ignores PS4 from the environment as root */, "env.code_injection"},
		{"BASHOPTS", "true", []string{"BASHOPTS=extglob"}, false, "env.code_injection"},
		{"PATH", "cat /dev/null", []string{"PATH=" + root + ":/usr/bin:/bin"}, false, "env.code_injection"},
		{"IFS", "true", []string{"IFS=/"}, false, "env.code_injection"},
		{"LD_PRELOAD", "true", []string{"LD_PRELOAD=" + root + "/x.so"}, false, "env.code_injection"},
		{"GIT_SSH_COMMAND", "git status", []string{"GIT_SSH_COMMAND=bash " + evil}, false, "env.code_injection"},
		{"GIT_CONFIG_COUNT", "git status", []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.fsmonitor", "GIT_CONFIG_VALUE_0=bash " + evil}, false, "env.code_injection"},
		{"not NAME=value", "true", []string{"NOEQUALS"}, false, "env.code_injection"},
		{"not a shell name", "true", []string{"A B=1"}, false, "env.code_injection"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.bashLeaks && !leaks(t, root, marker, tt.command, tt.env) {
				t.Fatalf("real bash with %q did not leak the secret: the case proves nothing", tt.env)
			}
			os.Remove(marker)
			req := cmdguard.RunRequest{Request: cmdguard.Request{Command: tt.command, Cwd: root, Env: tt.env}}
			d, res, err := g.Run(context.Background(), req)
			if !errors.Is(err, cmdguard.ErrRefused) || d.Verdict != cmdguard.Deny {
				t.Fatalf("Run(%q) with env %q = %s, %v (ran: %s); want deny, ErrRefused", tt.command, tt.env, d.Verdict, err, res.Explain())
			}
			if _, err := os.Stat(marker); err == nil {
				t.Fatalf("the refused command ran")
			}
			name, _, _ := strings.Cut(tt.env[0], "=")
			if !slices.ContainsFunc(d.Reasons, func(r cmdguard.Reason) bool {
				return r.Rule == tt.rule && r.Verdict == cmdguard.Deny && r.Source == "env:"+name && strings.Contains(r.Message, name)
			}) {
				t.Errorf("reasons %+v lack %s with source env:%s", d.Reasons, tt.rule, name)
			}
		})
	}
}

// TestRequestEnvValues: an added variable's value is known to the file
// checks, unless the script may change the variable.
func TestRequestEnvValues(t *testing.T) {
	t.Parallel()
	root := project(t, testPolicy+"env_safe: [F, D]\n")
	if err := os.WriteFile(filepath.Join(root, "notes.txt"), []byte("n\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		command string
		env     []string
		want    cmdguard.Verdict
		rule    string
	}{
		{"cat $F", []string{"F=.env"}, cmdguard.Deny, "ignore.denied"},
		{`cat "${F}"`, []string{"F=.env"}, cmdguard.Deny, "ignore.denied"},
		{"cat $D/db.txt", []string{"D=secrets"}, cmdguard.Deny, "ignore.denied"},
		{"cat $F", []string{"F=notes.txt"}, cmdguard.Allow, "policy.allow"},
		{"echo $F", []string{"F=hello"}, cmdguard.Allow, "policy.allow"},
		// Real agents mark their commands (claude-code-acp sends it in
		// every terminal/create).
		{"echo hi", []string{"CLAUDECODE=1"}, cmdguard.Allow, "policy.allow"},
		// A name env_safe does not list asks, whatever its value.
		{"echo $G", []string{"G=hello"}, cmdguard.Ask, "env.unknown"},
		// The script may reassign F: its value is unknown, unless one
		// unconditional top-level assignment gives it a value known
		// statically (F=.env; cat $F reads .env).
		{"true && F=notes.txt; cat $F", []string{"F=.env"}, cmdguard.Ask, "ignore.unknown_ref"},
		{"F=notes.txt; true && F=x; cat $F", []string{"F=.env"}, cmdguard.Ask, "ignore.unknown_ref"},
		{"F=notes.txt; F=.env; cat $F", []string{"F=notes.txt"}, cmdguard.Deny, "ignore.denied"},
		{"F=.env; cat $F", []string{"F=notes.txt"}, cmdguard.Deny, "ignore.denied"},
		{"read F; cat $F", []string{"F=notes.txt"}, cmdguard.Ask, "ignore.unknown_ref"},
		// A value that globs or splits is not taken literally.
		{"cat $F", []string{"F=.e?v"}, cmdguard.Ask, "ignore.unknown_ref"},
		{"cat $F", []string{"F=src/main.go .env"}, cmdguard.Ask, "ignore.unknown_ref"},
	}
	for _, tt := range tests {
		d, err := g.Check(context.Background(), cmdguard.Request{Command: tt.command, Cwd: root, Env: tt.env})
		if err != nil {
			t.Fatal(err)
		}
		if d.Verdict != tt.want || !slices.ContainsFunc(d.Reasons, func(r cmdguard.Reason) bool { return r.Rule == tt.rule }) {
			t.Errorf("Check(%q, env %q) = %s %+v; want %s with %s", tt.command, tt.env, d.Verdict, d.Reasons, tt.want, tt.rule)
		}
	}
}

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

// TestBaseCDPATH: a CDPATH in the trusted environment moves a relative cd
// as bash does (real bash reads the secret below), so the gate must not
// resolve what follows as if cd went to ./sub.
func TestBaseCDPATH(t *testing.T) {
	t.Parallel()
	root := project(t, testPolicy)
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, "secrets", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	const cmd = "cd sub && cat ../db.txt"
	env := []string{"PATH=" + os.Getenv("PATH"), "CDPATH=" + filepath.Join(root, "secrets")}
	r, err := exec.Run(context.Background(), exec.Cmd{Command: cmd, Dir: root, Env: env})
	if err != nil || !strings.Contains(r.Stdout.String(), "password") {
		t.Fatalf("real bash did not read the secret through CDPATH: %q, %v", r.Stdout.String(), err)
	}
	d, _ := g.Check(context.Background(), cmdguard.Request{Command: cmd, Cwd: root, BaseEnv: env})
	if d.Verdict == cmdguard.Allow {
		t.Errorf("with CDPATH in the base environment, %q = allow: %+v", cmd, d.Reasons)
	}
}

// TestRequestEnvRedTeam: variables a red team used through cmdguard serve
// to read a secret or run code (judged with real bash at the time); none
// may leave the command allowed.
func TestRequestEnvRedTeam(t *testing.T) {
	t.Parallel()
	root := project(t, testPolicy+"env_safe: [SAFE_*]\n")
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(root, "d", "e"), 0o755)
	os.Symlink("d/e", filepath.Join(root, "l"))
	for _, tt := range []struct{ cmd, env string }{
		{"cat x", "MAGIC=.env"},                               // file(1) reads it: a file reference
		{"git status", "GIT_TEST_FSMONITOR=" + root + "/h"},   // git runs it
		{"git status", "GOTOOLCHAIN=go1.999.0"},               // go fetches and runs a toolchain
		{"git status", "GOPROXY=file://" + root},              // …from where the request says
		{"cd .. && cat secrets/db.txt", "PWD=" + root + "/l"}, // bash's cd .. is logical from an imported PWD
		{"cd - && cat db.txt", "OLDPWD=" + root + "/secrets"},
		{"git status", "Npm_Config_Script_Shell=/tmp/x"},
		{"git status", "RIPGREP_CONFIG_PATH=.env"},
		{"git status", "TAR_OPTIONS=--to-command=sh"},
		{"git status", "SAFE_X=" + root + "/x"}, // a listed name with a path value asks
	} {
		d, _ := g.Check(context.Background(), cmdguard.Request{Command: tt.cmd, Cwd: filepath.Join(root, "l"), Env: []string{tt.env}})
		if d.Verdict == cmdguard.Allow {
			t.Errorf("Check(%q, env %s) = allow: %+v", tt.cmd, tt.env, d.Reasons)
		}
	}
}

// TestGitCommondirProtected: .git/commondir tells git where to read its
// config and hooks from; writing it is as good as writing .git/config (a
// red team ran code on the next git status that way).
func TestGitCommondirProtected(t *testing.T) {
	t.Parallel()
	root := project(t, testPolicy)
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"echo ../evil > .git/commondir", "echo ../evil | tee .git/commondir", "cp x .git/commondir"} {
		d, _ := g.Check(context.Background(), cmdguard.Request{Command: cmd, Cwd: root})
		if d.Verdict != cmdguard.Deny || !slices.ContainsFunc(d.Reasons, func(r cmdguard.Reason) bool { return r.Rule == "path.protected" }) {
			t.Errorf("Check(%q) = %s %+v; want deny with path.protected", cmd, d.Verdict, d.Reasons)
		}
	}
}
