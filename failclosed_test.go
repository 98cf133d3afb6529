package cmdguard_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/cmdguard/cmdguard"
)

// The differential test of "unknown is not harmless" (issue 10): every
// command below really reads a secret, writes a protected path or runs a
// denied program when bash (or zsh) runs it in a throwaway project, and
// the gate must never allow it. Each command must still have its effect:
// a row whose command no longer demonstrates anything fails, so the
// table cannot rot into commands that prove nothing.

// Policies the rows are judged under.
const (
	polDefault = "" // the embedded default policy
	polUser    = `version: 1
default: ask
allow: [cat, head, ls, git, file, diff, printf, read, declare, export, env, bash, ln, mv, cd, go, jq, split, set, shopt, echo, unset]
deny: [pwned]
`
	polDenylist = `version: 1
default: allow
deny: [pwned, curl]
`
)

// fixture writes the throwaway project: secrets (every one holds the
// marker SECRET_), ignore files, a Go module and a git repository with
// everything committed. gitFile makes .git a file pointing to .gitdata
// (as git init --separate-git-dir and worktrees leave it); otherwise the
// repository's core.hooksPath is githooks/. It returns the project and
// the program directory to put first in PATH: pwned there leaves a
// marker file when run.
func fixture(t *testing.T, policyYAML string, gitFile bool) (root, bin, marker string) {
	t.Helper()
	// Not t.TempDir: its name comes from the row's command, and a = or (
	// in a path changes what env and sh make of it.
	tmp, err := os.MkdirTemp("", "cmdguard-diff")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	if r, err := filepath.EvalSymlinks(tmp); err == nil {
		tmp = r
	}
	root = filepath.Join(tmp, "p")
	bin = filepath.Join(tmp, "bin")
	marker = filepath.Join(tmp, "PWNED")
	files := map[string]string{
		".env":                "TOKEN=SECRET_ENV\n",
		"secrets/db.txt":      "SECRET_DB\n",
		"secrets/cfg.json":    `{"k":"SECRET_JSON"}` + "\n",
		"secrets/key.go":      "// Package secrets holds SECRET_GO.\npackage secrets\n\n// Key is SECRET_GO.\nconst Key = 1\n",
		".cmdguardignore":     ".env\nsecrets/\n*.secret\n",
		"sub/.cmdguardignore": "private.txt\n",
		"sub/private.txt":     "SECRET_SUB\n",
		"sub/public.txt":      "public\n",
		"deep/a/b/k.secret":   "SECRET_DEEP\n",
		"odd/x .env":          "a blank in the name\n",
		"src/main.go":         "package main\n\nfunc main() {}\n",
		"tool/pre-commit.go":  "package main\n\nfunc main() {}\n",
		"go.mod":              "module example.com/p\n\ngo 1.21\n",
		"githooks/.keep":      "",
		"../bin/pwned":        "#!/bin/sh\necho ran >> '" + marker + "'\n",
	}
	if policyYAML != "" {
		files[".cmdguard.yaml"] = policyYAML
	}
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	initArgs := []string{"init", "-q", "-b", "main"}
	if gitFile {
		initArgs = append(initArgs, "--separate-git-dir=.gitdata")
	}
	for _, args := range [][]string{
		initArgs,
		{"config", "user.email", "t@example.com"},
		{"config", "user.name", "t"},
		{"add", "-A"},
		{"commit", "-qm", "init"},
	} {
		gitRun(t, root, args...)
	}
	if !gitFile {
		gitRun(t, root, "config", "core.hooksPath", "githooks")
	}
	return root, bin, marker
}

func gitRun(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// protectedState hashes what steers git and the gate: the ignore files,
// the policy, git's own view of its configuration, and every file of
// .git/hooks, githooks/ and .gitdata/hooks.
func protectedState(root string) string {
	h := sha256.New()
	for _, f := range []string{".cmdguardignore", "sub/.cmdguardignore", ".cmdguard.yaml", ".git/config", ".gitdata/config"} {
		b, _ := os.ReadFile(filepath.Join(root, f))
		fmt.Fprintf(h, "%s:%x\n", f, sha256.Sum256(b))
	}
	for _, d := range []string{".git/hooks", "githooks", ".gitdata/hooks"} {
		var names []string
		filepath.WalkDir(filepath.Join(root, d), func(p string, e fs.DirEntry, err error) error {
			if err == nil && !e.IsDir() {
				b, _ := os.ReadFile(p)
				names = append(names, fmt.Sprintf("%s:%x", p, sha256.Sum256(b)))
			}
			return nil
		})
		sort.Strings(names)
		fmt.Fprintln(h, strings.Join(names, ","))
	}
	cmd := exec.Command("git", "config", "--list", "--local")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+root)
	out, _ := cmd.Output()
	h.Write(out)
	return fmt.Sprintf("%x", h.Sum(nil))
}

func TestUnknownIsNotHarmless(t *testing.T) {
	t.Parallel()
	for _, need := range []string{"bash", "zsh", "git", "diff", "file", "jq", "split"} {
		if _, err := exec.LookPath(need); err != nil {
			t.Fatalf("this test needs %s (CI installs it: apt-get install -y zsh jq file): %v", need, err)
		}
	}
	gocache, _ := exec.Command("go", "env", "GOCACHE").Output()
	goroot, _ := exec.Command("go", "env", "GOROOT").Output()
	tests := []struct {
		class  string
		shell  string // bash, or zsh (with the options a person's zsh often has)
		policy string
		gitDir bool // .git is a file pointing to .gitdata
		cmd    string
	}{
		// A glob the gate cannot evaluate exactly as bash does.
		{class: "glob", policy: polDefault, cmd: `cat .e[[=n=]]v`},
		{class: "glob", policy: polDefault, cmd: `cat .e[[.n.]]v`},
		{class: "glob", policy: polDefault, cmd: `cat .e[[:foo:]n]v`},
		{class: "glob", policy: polDefault, cmd: `head secret[[=s=]]/db.txt`},
		{class: "glob", policy: polDefault, cmd: `cat .e[[=n]v`},
		// An environment variable the gate does not know.
		{class: "env", policy: polUser, cmd: `GIT_GRAFT_FILE=.env git log`},
		{class: "env", policy: polUser, cmd: `export GIT_GRAFT_FILE=.env; git log`},
		{class: "env", policy: polUser, cmd: `MAGIC=.env file src/main.go`},
		{class: "env", policy: polUser, cmd: `env MAGIC=.env file src/main.go`},
		{class: "env", policy: polUser, cmd: `set -a; MAGIC=.env; file src/main.go`},
		{class: "env", policy: polUser, cmd: `shopt -so allexport; MAGIC=.env; file src/main.go`},
		{class: "env", policy: polUser, cmd: `GIT_TEST_FSMONITOR=pwned git status`},
		// A directory operand of a program not known to ignore directories.
		{class: "dir", policy: polDefault, cmd: `diff -N src .`},
		{class: "dir", policy: polDefault, cmd: `diff -N . src`},
		{class: "dir", policy: polUser, cmd: `cd src && diff -N . ..`},
		// The shell's own state, changed by the script.
		{class: "state", policy: polUser, cmd: `printf -v PWD %s secrets; cat $PWD/db.txt`},
		{class: "state", policy: polUser, cmd: `for PWD in secrets; do cat $PWD/db.txt; done`},
		{class: "state", policy: polUser, cmd: `read PWD <<< secrets; cat $PWD/db.txt`},
		{class: "state", policy: polUser, cmd: `declare PWD=secrets; cat ~+/db.txt`},
		{class: "state", policy: polUser, cmd: `bash -O dotglob -c 'cat ?env'`},
		{class: "state", policy: polUser, cmd: `bash -O nocaseglob -c 'cat .EN[V]'`},
		// Names a program resolves itself.
		{class: "resolve", policy: polDefault, cmd: `go doc secrets`},
		{class: "resolve", policy: polDefault, cmd: `go doc example.com/p/secrets.Key`},
		{class: "resolve", policy: polDefault, cmd: `go list -f '{{.Doc}}' example.com/p/secrets`},
		{class: "resolve", policy: polDefault, cmd: `jq -n -L . 'import "secrets/cfg" as $c; $c'`},
		{class: "resolve", policy: polDefault, cmd: `file -m .env:/dev/null src/main.go`},
		{class: "resolve", policy: polDefault, cmd: `git log -p -- ':(icase)SECRETS'`},
		{class: "resolve", policy: polDefault, cmd: `git show HEAD -- ':(top)secrets'`},
		{class: "resolve", policy: polUser, cmd: `git cat-file --batch <<< HEAD:.env`},
		{class: "resolve", policy: polDefault, cmd: `git log -p -- ':!src'`},
		{class: "resolve", policy: polDefault, cmd: `git log -p -- ':^src'`},
		// Outputs a program names itself.
		{class: "output", policy: polDefault, cmd: `cd .git/hooks && go build ../../tool/pre-commit.go`},
		{class: "output", policy: polUser, cmd: `cd .git/hooks && split -n 1 ../../src/main.go`},
		// Paths changed earlier in the same chain.
		{class: "links", policy: polUser, cmd: `ln -s sub s2 && cat s2/private.txt`},
		{class: "links", policy: polUser, cmd: `mv sub s3 && cat s3/private.txt`},
		{class: "links", policy: polUser, cmd: `ln -s .env e.txt && cat e.txt`},
		{class: "links", policy: polUser, cmd: `ln -s secrets pub; cat pub/db.txt`},
		// Where git really keeps its config and hooks.
		{class: "gitdir", policy: polUser, cmd: `echo '#!/bin/sh' > githooks/pre-commit`},
		{class: "gitdir", policy: polUser, gitDir: true, cmd: `echo x > .gitdata/hooks/pre-commit`},
		{class: "gitdir", policy: polUser, gitDir: true, cmd: `printf '[alias]\n\tx = !pwned\n' >> .gitdata/config`},
		{class: "gitdir", policy: polUser, cmd: `git init -q --separate-git-dir=gd && printf '[alias]\n\tx = !pwned\n' >> gd/config`},
		// An option of an allowed program that writes.
		{class: "writeopt", policy: polDefault, cmd: `git branch -t newb main`},
		{class: "writeopt", policy: polDefault, cmd: `git branch --track newb main`},
		// Values the gate knows statically (issue 11): a loop over a glob,
		// arrays, and whatever could change them behind the gate's back.
		{class: "values", policy: polUser, cmd: `for f in secrets/*; do cat "$f"; done`},
		{class: "values", shell: "zsh", policy: polUser, cmd: `for f in secrets/*; do cat "$f"; done`},
		{class: "values", policy: polUser, cmd: `for f in src/* secrets/*; do cat "$f"; done`},
		{class: "values", policy: polUser, cmd: `for f in *.go .env; do cat "$f"; done`},
		{class: "values", policy: polUser, cmd: `for f in secrets/*; do cat $f; done`},
		{class: "values", policy: polUser, cmd: `for f in odd/*; do cat $f; done`},
		{class: "values", policy: polUser, cmd: `a=(odd/*); cat ${a[@]}`},
		{class: "values", policy: polUser, cmd: `printf x > 'src/a .env'; for f in src/*; do cat $f; done`},
		{class: "values", policy: polUser, cmd: `for d in secret?; do cat "$d/db.txt"; done`},
		{class: "values", policy: polUser, cmd: `for d in secret?; do cd "$d"; cat db.txt; done`},
		{class: "values", policy: polUser, cmd: `for f in deep/*/*/*; do cat "$f"; done`},
		{class: "values", policy: polUser, cmd: `shopt -s dotglob; for f in *; do cat "$f"; done`},
		{class: "values", policy: polUser, cmd: `GLOBIGNORE=x; for f in *; do cat "$f"; done`},
		{class: "values", policy: polUser, cmd: `f=(.e*); cat "${f[@]}"`},
		{class: "values", shell: "zsh", policy: polUser, cmd: `f=(.e*); cat "${f[@]}"`},
		{class: "values", policy: polUser, cmd: `f=(.e*); cat "$f"`},
		{class: "values", policy: polUser, cmd: `f=(deep/*/*/*); for x in "${f[@]}"; do cat "$x"; done`},
		{class: "values", policy: polUser, cmd: `a=(src/main.go); a+=(.env); cat "${a[@]}"`},
		{class: "values", shell: "zsh", policy: polUser, cmd: `a=(src/main.go); a+=(.env); cat "${a[@]}"`},
		{class: "values", policy: polUser, cmd: `a=(src/main.go .env); for f in "${a[@]}"; do cat "$f"; done`},
		{class: "values", policy: polUser, cmd: `a=(src/main.go .env); cat "${a[1]}"`},
		{class: "values", shell: "zsh", policy: polUser, cmd: `a=(.env src/main.go); cat "${a[1]}"`},
		{class: "values", policy: polUser, cmd: `a=(src/main.go); a[1]=.env; cat "${a[@]}"`},
		{class: "values", policy: polUser, cmd: `a=(src/main.go); read -a a <<< .env; cat "${a[@]}"`},
		{class: "values", policy: polUser, cmd: `mapfile -t a <<< .env; cat "${a[@]}"`},
		{class: "values", policy: polUser, cmd: `a=(src/main.go); declare -n r=a; r=(.env); cat "${a[@]}"`},
		{class: "values", policy: polUser, cmd: `a=(src/main.go); unset 'a[0]'; a+=(.env); cat "${a[@]}"`},
		{class: "values", policy: polUser, cmd: `a=(src/main.go); true && a=(.env); cat "${a[@]}"`},
		{class: "values", policy: polUser, cmd: `a=(src/main.go); for x in 1; do a=(.env); done; cat "${a[@]}"`},
		{class: "values", policy: polUser, cmd: `f=src/main.go; for f in .env; do :; done; cat "$f"`},
		{class: "values", shell: "zsh", policy: polUser, cmd: `f=src/main.go; for f in .env; do :; done; cat "$f"`},
		{class: "values", policy: polUser, cmd: `for f in .env; do export f; bash -c 'cat "$f"'; done`},
		{class: "values", policy: polUser, cmd: `F=x; bash -c 'cat .env$F'`},
		{class: "values", policy: polUser, cmd: `for f in x; do bash -c 'cat .env$f'; done`},
		{class: "values", policy: polUser, cmd: `select f in x; do cat .env$f; done <<< 9`},
		{class: "values", policy: polUser, cmd: `F=src/main.go; F=.env; cat $F`},
		{class: "values", policy: polUser, cmd: `F=src/main.go; printf -vF %s .env; cat $F`},
		{class: "values", policy: polUser, cmd: `a=(src/main.go); read -aa <<< .env; cat "${a[@]}"`},
		// zsh reads these differently from bash.
		{class: "zsh", shell: "zsh", policy: polDenylist, cmd: `=pwned`},
		{class: "zsh", shell: "zsh", policy: polDenylist, cmd: `env =pwned`},
		{class: "zsh", shell: "zsh", policy: polDefault, cmd: `ls *(e:pwned:)`},
		{class: "zsh", shell: "zsh", policy: polDefault, cmd: `cat sub/^public.txt`},
		{class: "zsh", shell: "zsh", policy: polDefault, cmd: `cat .en#v`},
		{class: "zsh", shell: "zsh", policy: polDefault, cmd: `cat deep/**/k.s*`},
		{class: "zsh", shell: "zsh", policy: polDefault, cmd: `cat sub/p*~*public*`},
		{class: "zsh", shell: "zsh", policy: polDefault, cmd: `x=.e*; cat $~x`},
		{class: "zsh", shell: "zsh", policy: polDenylist, cmd: `x=pwned; =$x`},
	}
	for _, tc := range tests {
		shell := tc.shell
		if shell == "" {
			shell = "bash"
		}
		t.Run(tc.class+"/"+shell+"/"+tc.cmd, func(t *testing.T) {
			t.Parallel()
			root, bin, marker := fixture(t, tc.policy, tc.gitDir)
			g, err := cmdguard.Open(root)
			if err != nil {
				t.Fatal(err)
			}
			// The trusted environment (BaseEnv): variables in Env would be
			// the request's own, judged (HOME=… is env.code_injection).
			d, err := g.Check(context.Background(), cmdguard.Request{Command: tc.cmd, Cwd: root,
				BaseEnv: []string{"HOME=" + filepath.Dir(root), "PWD=" + root}})
			if err != nil {
				t.Fatal(err)
			}

			before := protectedState(root)
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			args := []string{"-c", tc.cmd}
			if shell == "zsh" {
				args = []string{"-f", "-o", "extendedglob", "-c", tc.cmd}
			}
			run := exec.CommandContext(ctx, shell, args...)
			run.Dir = root
			run.Env = []string{"PATH=" + bin + ":" + filepath.Join(strings.TrimSpace(string(goroot)), "bin") + ":/usr/local/bin:/usr/bin:/bin",
				"HOME=" + filepath.Dir(root), "PWD=" + root, "LANG=C", "GIT_CONFIG_NOSYSTEM=1",
				"GOCACHE=" + strings.TrimSpace(string(gocache)), "GOFLAGS=-mod=mod", "GOPROXY=off",
				"GOTOOLCHAIN=local", "GOPATH=" + filepath.Join(filepath.Dir(root), "gopath")}
			var out bytes.Buffer
			run.Stdout, run.Stderr = &out, &out
			_ = run.Run() // the exit status does not matter, the effect does
			var effects []string
			if bytes.Contains(out.Bytes(), []byte("SECRET_")) {
				effects = append(effects, "read a secret")
			}
			if _, err := os.Stat(marker); err == nil {
				effects = append(effects, "ran the denied program")
			}
			if protectedState(root) != before {
				effects = append(effects, "wrote a protected path")
			}
			if len(effects) == 0 {
				t.Fatalf("%s -c %q had no effect: the row proves nothing\n%s", shell, tc.cmd, out.Bytes())
			}
			if d.Verdict == cmdguard.Allow {
				t.Errorf("Check(%q) = allow, but %s %s", tc.cmd, shell, strings.Join(effects, ", "))
			}
		})
	}
}

// TestUnknownOptionDefaultPolicy: under the embedded default policy an
// allowed program passes only with the options the gate knows for it; a
// policy file's own allow rule keeps trusting the program.
func TestUnknownOptionDefaultPolicy(t *testing.T) {
	t.Parallel()
	def, _, _ := fixture(t, polDefault, false)
	user, _, _ := fixture(t, polUser, false)
	tests := []struct {
		root, cmd string
		want      cmdguard.Verdict
		rule      string
	}{
		{def, `cat -n src/main.go`, cmdguard.Allow, ""},
		{def, `grep -rn TODO src --include=*.go | head -20`, cmdguard.Allow, ""},
		{def, `cat --frobnicate src/main.go`, cmdguard.Ask, "policy.unknown_option"},
		{def, `ls -la && diff -Q src/main.go tool/pre-commit.go`, cmdguard.Ask, "policy.unknown_option"},
		{user, `cat --frobnicate src/main.go`, cmdguard.Allow, ""},
	}
	for _, tc := range tests {
		g, err := cmdguard.Open(tc.root)
		if err != nil {
			t.Fatal(err)
		}
		d, err := g.Check(context.Background(), cmdguard.Request{Command: tc.cmd, Cwd: tc.root})
		if err != nil {
			t.Fatal(err)
		}
		has := tc.rule == ""
		for _, r := range d.Reasons {
			has = has || r.Rule == tc.rule
		}
		if d.Verdict != tc.want || !has {
			t.Errorf("Check(%q) = %v %v, want %v with %s", tc.cmd, d.Verdict, d.Reasons, tc.want, tc.rule)
		}
	}
}
