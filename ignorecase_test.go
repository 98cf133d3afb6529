package cmdguard_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/cmdguard/cmdguard"
)

// TestGitIgnoreCase: the repository's core.ignorecase, as git reads it,
// decides whether ignore patterns match in either case, whatever the
// file system (this one is case-sensitive: .ENV and .env are two files);
// git check-ignore on the same fixture is the oracle. Not parallel: it
// points HOME and git's global configuration at a fixture of its own.
func TestGitIgnoreCase(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("this test needs git: %v", err)
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("GIT_CONFIG_GLOBAL", "")
	os.Unsetenv("GIT_CONFIG_GLOBAL") // set but empty, git reads no global file
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	tests := []struct {
		name   string
		global string // ~/.gitconfig
		local  string // appended to .git/config
		extra  string // .git/extra.cfg, for include.path
		noRepo bool
		fold   bool
	}{
		{name: "true", local: "[core]\n\tignorecase = true\n", fold: true},
		{name: "false", local: "[core]\n\tignorecase = false\n", fold: false},
		{name: "unset", fold: false},
		{name: "bare key", local: "[core]\n\tignoreCase\n", fold: true},
		{name: "yes, quoted, comment", local: "[CORE]\n\tIgnoreCase = \"yes\" ; set by hand\n", fold: true},
		{name: "number", local: "[core]\n\tignorecase = 0\n", fold: false},
		{name: "include", local: "[include]\n\tpath = extra.cfg\n", extra: "[core]\n\tignorecase = on\n", fold: true},
		{name: "global", global: "[core]\n\tignorecase = true\n", fold: true},
		{name: "local over global", global: "[core]\n\tignorecase = true\n", local: "[core]\n\tignorecase = false\n", fold: false},
		{name: "no repository: the probe", global: "[core]\n\tignorecase = true\n", noRepo: true, fold: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(tc.global), 0o644); err != nil {
				t.Fatal(err)
			}
			root := t.TempDir()
			if r, err := filepath.EvalSymlinks(root); err == nil {
				root = r
			}
			files := map[string]string{
				".cmdguardignore": ".env\nsecrets/\n",
				".gitignore":      ".env\nsecrets/\n", // the same patterns, for git check-ignore
				".ENV":            "TOKEN=x\n",
				"Secrets/db.txt":  "password\n",
			}
			for name, body := range files {
				p := filepath.Join(root, name)
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if !tc.noRepo {
				gitIn(t, root, "init", "-q")
				appendFile(t, filepath.Join(root, ".git", "config"), tc.local)
				if tc.extra != "" {
					appendFile(t, filepath.Join(root, ".git", "extra.cfg"), tc.extra)
				}
			}
			g, err := cmdguard.Open(root)
			if err != nil {
				t.Fatal(err)
			}
			for _, path := range []string{".ENV", "Secrets/db.txt"} {
				d, err := g.Check(context.Background(), cmdguard.Request{Command: "cat " + path})
				if err != nil {
					t.Fatal(err)
				}
				want := cmdguard.Allow
				if tc.fold {
					want = cmdguard.Deny
				}
				if d.Verdict != want {
					t.Errorf("cat %s: %v, want %v (%v)", path, d.Verdict, want, d.Reasons)
				}
				if tc.noRepo {
					continue
				}
				// git check-ignore -q: exit 0 ignored, 1 not ignored.
				cmd := exec.Command("git", "check-ignore", "-q", path)
				cmd.Dir = root
				err = cmd.Run()
				var ee *exec.ExitError
				switch {
				case err == nil:
					if !tc.fold {
						t.Errorf("git check-ignore says %s is ignored; the gate's fold is %v", path, tc.fold)
					}
				case errors.As(err, &ee) && ee.ExitCode() == 1:
					if tc.fold {
						t.Errorf("git check-ignore says %s is not ignored; the gate's fold is %v", path, tc.fold)
					}
				default:
					t.Fatalf("git check-ignore %s: %v", path, err)
				}
			}
		})
	}
}

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

func appendFile(t *testing.T, name, text string) {
	t.Helper()
	f, err := os.OpenFile(name, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}
