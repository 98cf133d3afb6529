package cmdguard_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cmdguard/cmdguard"
)

// The differential test of issue 26's "zsh as zsh reads it" and "readers
// and writers named elsewhere": each row really reads a secret or writes
// a protected file when the named shell runs it in a throwaway project
// (the damage is checked first: a row that no longer does harm fails),
// and the gate, under a policy that allows everything it finds no reason
// to refuse, must not allow it.

// zshShells are the ways a row is run. "omz" has the options oh-my-zsh
// sets (lib/directories.zsh, lib/misc.zsh, lib/history.zsh,
// lib/completion.zsh, lib/theme-and-appearance.zsh at ohmyzsh master);
// "-tty" reads the line from standard input as a terminal would give
// it (zsh's auto_cd and its reading of comments apply there).
var zshShells = map[string][]string{
	"bash":    {"bash", "-c"},
	"zsh":     {"zsh", "-f", "-c"},
	"omz":     append(append([]string{"zsh", "-f"}, omzOptions...), "-c"),
	"zsh-tty": {"zsh", "-f", "-i"},
	"omz-tty": append([]string{"zsh", "-f", "-i"}, omzOptions...),
}

var omzOptions = []string{"-o", "auto_cd", "-o", "auto_pushd", "-o", "pushd_ignore_dups", "-o", "pushdminus",
	"-o", "multios", "-o", "interactivecomments", "-o", "prompt_subst", "-o", "extended_history",
	"-o", "share_history", "-o", "hist_verify", "-o", "auto_menu", "-o", "complete_in_word", "-o", "always_to_end"}

const zshCanary = "canary_" // every secret of zshFixture starts with it

// zshFixture writes the throwaway project and returns its root.
func zshFixture(t *testing.T) string {
	t.Helper()
	tmp, err := os.MkdirTemp("", "cmdguard-zsh")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	if r, err := filepath.EvalSymlinks(tmp); err == nil {
		tmp = r
	}
	root := filepath.Join(tmp, "p")
	files := map[string]string{
		".env":                 "canary_env\n",
		"secrets/db.txt":       "canary_db\n",
		"secrets/inner/k.txt":  "canary_inner\n",
		"key1.pem":             "canary_pem\n",
		".cmdguardignore":      ".env\nsecrets/\nkey1.pem\n",
		".cmdguard.yaml":       "version: 1\ndefault: allow\n",
		"bin/ls":               "#!/bin/sh\n/bin/cat .env\n",
		"evil.hex":             "00000000: 6563 686f 2070 776e 6564 0a              echo pwned.\n",
		"o.json":               `{"Replace": {"` + filepath.Join(root, "main.go") + `": "` + filepath.Join(root, ".env") + `"}}` + "\n",
		"main.go":              "package main\n\nfunc main() {}\n",
		"go.mod":               "module example.com/p\n\ngo 1.21\n",
		".git/hooks/.keep":     "",
		"public/readme.txt":    "public\n",
		"secrets/inner/.keep2": "",
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
	if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	return root
}

// protectedSum hashes .git (config, hooks, …): a row that writes there
// changes it.
func protectedSum(t *testing.T, root string) [32]byte {
	t.Helper()
	h := sha256.New()
	filepath.WalkDir(filepath.Join(root, ".git"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.Contains(p, "/objects/") {
			return nil
		}
		b, _ := os.ReadFile(p)
		h.Write([]byte(p))
		h.Write(b)
		return nil
	})
	var s [32]byte
	copy(s[:], h.Sum(nil))
	return s
}

// runShell runs cmd as shell does in root and returns what it printed.
func runShell(t *testing.T, shell, cmd, root string) string {
	t.Helper()
	argv := zshShells[shell]
	stdin := ""
	if strings.HasSuffix(shell, "-tty") {
		stdin = cmd + "\nexit\n"
	} else {
		argv = append(append([]string(nil), argv...), cmd)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	gocache, _ := exec.Command("go", "env", "GOCACHE").Output()
	goroot, _ := exec.Command("go", "env", "GOROOT").Output()
	run := exec.CommandContext(ctx, argv[0], argv[1:]...)
	run.Dir = root
	run.Stdin = strings.NewReader(stdin)
	run.Env = []string{"PATH=" + filepath.Join(strings.TrimSpace(string(goroot)), "bin") + ":/usr/local/bin:/usr/bin:/bin",
		"HOME=" + filepath.Dir(root), "PWD=" + root, "LANG=C", "GIT_CONFIG_NOSYSTEM=1", "TERM=dumb",
		"GOCACHE=" + strings.TrimSpace(string(gocache)), "GOFLAGS=-mod=mod", "GOPROXY=off", "GOTOOLCHAIN=local"}
	if strings.HasPrefix(shell, "omz") {
		// lib/history.zsh: an interactive zsh saves its history.
		run.Env = append(run.Env, "HISTSIZE=50000", "SAVEHIST=10000")
	}
	var out bytes.Buffer
	run.Stdout, run.Stderr = &out, &out
	run.Run() // the exit status does not matter: the damage does
	return out.String()
}

func TestZshDifferential(t *testing.T) {
	t.Parallel()
	for _, need := range []string{"bash", "zsh", "git", "xxd", "go"} {
		needProgram(t, need)
	}
	tests := []struct {
		class, shell, cmd string
	}{
		// zsh's special parameters, in every assignment form.
		{"param", "zsh", `path=(./bin $path); ls`},
		{"param", "zsh", `path=./bin; ls`},
		{"param", "zsh", `path+=(x); path[1]=./bin; ls`},
		{"param", "zsh", `commands=(ls $PWD/bin/ls); ls`},
		{"param", "zsh", `functions=(ls 'cat .env'); ls`},
		{"param", "zsh-tty", `aliases=(ls 'cat .env')
ls`},
		{"param", "zsh", `set -A path ./bin; ls`},
		{"param", "zsh", `read -A path <<< ./bin; ls`},
		{"param", "zsh", `for path in ./bin; do ls; done`},
		{"param", "zsh", `typeset -a path=(./bin); ls`},
		{"param", "zsh", `cdpath=($PWD/secrets); cd inner && cat k.txt`},
		{"param", "zsh", `hash ls=$PWD/bin/ls; ls`},
		{"param", "zsh", `: ${cdpath:=$PWD/secrets}; cd inner && cat k.txt`},
		{"option", "zsh", `x=$PWD/secrets; set -o cdablevars; cd x && cat db.txt`},
		{"option", "bash", `zsh -f -o cdablevars -c 'x=$PWD/secrets; cd x && cat db.txt'`},
		{"param", "zsh", `print -v path ./bin; ls`},
		{"param", "zsh", `print -z ./bin; getln path; ls`},
		{"param", "bash", `zsh -fc 'path=(./bin $path); ls'`},
		// Redirections bash reads as a file named !.
		{"redirect", "zsh", `echo pwned >! .git/hooks/pre-commit`},
		{"redirect", "zsh", `echo pwned >>! .git/config`},
		{"redirect", "zsh", `echo pwned &>! .git/hooks/pre-commit`},
		{"redirect", "zsh", `echo pwned 2>!.git/hooks/pre-commit >&2`},
		{"redirect", "bash", `zsh -fc 'echo pwned >! .git/hooks/pre-commit'`},
		{"redirect", "zsh", `cat key<->.pem`},
		// Subscripts and modifiers without braces.
		{"subscript", "zsh", `F=x.env; cat $F[2,-1]`},
		{"subscript", "zsh", `F=.env.bak; cat $F:r`},
		{"subscript", "zsh", `F=.env.bak; cat "$F:r"`},
		{"subscript", "zsh", `F=.envX; cat $F:s/X//`},
		{"subscript", "omz", `F=x.env; cat $F[2,-1]`},
		{"prompt", "omz", `print -P '$(cat .env)'`},
		// The directory stack.
		{"dirstack", "omz", `cd secrets && cd ../public && cd +1 && cat db.txt`},
		{"dirstack", "zsh", `pushd secrets && pushd ../public && cd +1 && cat db.txt`},
		{"autocd", "omz-tty", `./secrets; cat db.txt`},
		{"autocd", "omz-tty", `secrets/; cat db.txt`},
		// Comments under an interactive zsh without interactivecomments.
		{"comment", "zsh-tty", `echo a # ; cat .env`},
		{"comment", "zsh-tty", `cat public/readme.txt # .env`},
		{"comment", "zsh-tty", "echo a # x > .git/hooks/pre-commit"},
		{"comment", "bash", "zsh -f -i <<'EOF'\necho a # ; cat .env\nEOF"},
		// Readers and writers named elsewhere (bash).
		{"history", "bash", `HISTFILE=.env; set -o history; history -r; history`},
		{"history", "bash", `HISTFILE=.git/hooks/pre-commit; set -o history; history -s pwned; history -w`},
		{"history", "bash", `read HISTFILE <<< .env; set -o history; history -r; history`},
		{"history", "omz-tty", `HISTFILE=.git/hooks/pre-commit; ls`},
		{"history", "omz-tty", `read HISTFILE <<< .git/hooks/pre-push`},
		{"remote", "bash", `printf 'connect git-upload-pack\n' | git remote-ext origin 'sh -c cat% .env'`},
		{"remote", "bash", `printf 'connect git-upload-pack\n' | git -C . remote-ext origin 'sh -c cat% .env'`},
		{"xxd", "bash", `xxd -r evil.hex .git/hooks/pre-commit`},
		{"xxd", "bash", `xxd main.go .git/config`},
		{"go", "bash", `go build -overlay o.json .`},
	}
	// Every row zsh runs with its defaults also runs with oh-my-zsh's
	// options: the damage (and the refusal) hold under both.
	for _, tc := range tests {
		if tc.shell == "zsh" {
			tc.shell = "omz"
			tests = append(tests, tc)
		}
	}
	for _, tc := range tests {
		t.Run(tc.class+"/"+tc.shell+"/"+tc.cmd, func(t *testing.T) {
			t.Parallel()
			root := zshFixture(t)
			g, err := cmdguard.Open(root)
			if err != nil {
				t.Fatal(err)
			}
			d, err := g.Check(context.Background(), cmdguard.Request{Command: tc.cmd, Cwd: root,
				BaseEnv: []string{"HOME=" + filepath.Dir(root), "PWD=" + root}})
			if err != nil {
				t.Fatal(err)
			}
			before := protectedSum(t, root)
			out := runShell(t, tc.shell, tc.cmd, root)
			leaked := strings.Contains(out, zshCanary)
			wrote := protectedSum(t, root) != before
			if !leaked && !wrote {
				t.Fatalf("%s %q did no damage (output %q): the row proves nothing", tc.shell, tc.cmd, out)
			}
			if d.Verdict == cmdguard.Allow {
				t.Errorf("Check(%q) = allow, but %s read a secret (%v) or wrote a protected file (%v):\n%s",
					tc.cmd, tc.shell, leaked, wrote, d.Summary())
			}
		})
	}
}

// TestZshDefaultLiterals: what zsh reads as a plain word under its
// default options (extendedglob off), the gate allows; under an option
// the line sets, it refuses.
func TestZshDefaultLiterals(t *testing.T) {
	t.Parallel()
	needProgram(t, "zsh")
	root := zshFixture(t)
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	check := func(cmd string) cmdguard.Verdict {
		d, err := g.Check(context.Background(), cmdguard.Request{Command: cmd, Cwd: root,
			BaseEnv: []string{"HOME=" + filepath.Dir(root), "PWD=" + root}})
		if err != nil {
			t.Fatal(err)
		}
		return d.Verdict
	}
	for _, words := range []string{`task#27 a#b .e#nv x#`, `^x ^.env a^b`, `a~b .e~v x~`} {
		// zsh prints each word as written: nothing matched, nothing
		// expanded.
		out := runShell(t, "zsh", "print -r -- "+words, root)
		if got := strings.TrimSpace(out); got != words {
			t.Errorf("zsh -f printed %q for %q: these are not literals under zsh's defaults", got, words)
		}
		if v := check("echo " + words); v != cmdguard.Allow {
			t.Errorf("Check(echo %s) = %v, want allow (zsh reads literals)", words, v)
		}
	}
	for _, cmd := range []string{`git checkout task#27`, `git log --grep='#27' task#27`, `echo a#b # comment`} {
		if v := check(cmd); v != cmdguard.Allow {
			t.Errorf("Check(%q) = %v, want allow", cmd, v)
		}
	}
	// With the option set in the line, zsh globs: .e#nv is .env.
	for _, cmd := range []string{`setopt extendedglob; cat .e#nv`, `set -o extendedglob; cat .e#nv`,
		`setopt EXTENDED_GLOB; cat ^(public|bin|inner|main.go|go.mod|o.json|evil.hex)`, `zsh -o extendedglob -c 'cat .e#nv'`,
		`zsh -fc 'setopt extendedglob; cat .e#nv'`} {
		shell, line := "zsh", cmd
		if strings.HasPrefix(cmd, "zsh ") {
			shell = "bash"
		}
		if out := runShell(t, shell, line, root); !strings.Contains(out, zshCanary) {
			t.Errorf("%s %q read no secret (%q): the row proves nothing", shell, line, out)
		}
		if v := check(cmd); v == cmdguard.Allow {
			t.Errorf("Check(%q) = allow, want a refusal (the line turns extendedglob on)", cmd)
		}
	}
}
