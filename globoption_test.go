package cmdguard_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/cmdguard/cmdguard"
)

// TestGlobOption: a glob that matches a file named like an option passes
// it to the program as an option (wildcard injection). Each row first
// runs in real bash and zsh in a throwaway project to show the damage
// (the ignore file rewritten or a file deleted), then asks the gate,
// which must deny with path.glob_option. Without a file named -… the
// same globs stay allowed.
func TestGlobOption(t *testing.T) {
	t.Parallel()
	for _, sh := range []string{"bash", "zsh"} {
		if _, err := exec.LookPath(sh); err != nil {
			t.Fatalf("this test needs %s (CI installs zsh): %v", sh, err)
		}
	}
	tests := []struct {
		cmd   string
		files map[string]string
		// damaged reports whether the shell's run did what the gate
		// must prevent.
		damaged func(root string) bool
	}{
		{
			cmd:     "sort *",
			files:   map[string]string{"-o.cmdguardignore": ""},
			damaged: ignoreRewritten,
		},
		{
			cmd:     "echo > ./-o.cmdguardignore; sort *",
			damaged: ignoreRewritten,
		},
		{
			cmd:     "sort ?o.cmdguardignore a.txt",
			files:   map[string]string{"-o.cmdguardignore": ""},
			damaged: ignoreRewritten,
		},
		{
			cmd:   "cd sub && find -- *",
			files: map[string]string{"sub/-delete": "", "sub/.keep": ""},
			damaged: func(root string) bool {
				_, err := os.Stat(filepath.Join(root, "sub/.keep"))
				return err != nil
			},
		},
	}
	for _, tc := range tests {
		for _, sh := range []string{"bash", "zsh"} {
			t.Run(sh+"/"+tc.cmd, func(t *testing.T) {
				t.Parallel()
				shellRoot := globProject(t, tc.files)
				run := exec.Command(sh, "-c", tc.cmd)
				run.Dir = shellRoot
				_ = run.Run() // the effect matters, not the status
				if !tc.damaged(shellRoot) {
					t.Fatalf("%s -c %q did no damage: the row proves nothing", sh, tc.cmd)
				}
				root := globProject(t, tc.files)
				g, err := cmdguard.Open(root)
				if err != nil {
					t.Fatal(err)
				}
				d, err := g.Check(context.Background(), cmdguard.Request{Command: tc.cmd, Cwd: root})
				if err != nil {
					t.Fatal(err)
				}
				if d.Verdict != cmdguard.Deny || !hasRule(d, "path.glob_option") {
					t.Errorf("Check(%q) = %v %+v, want deny path.glob_option", tc.cmd, d.Verdict, d.Reasons)
				}
			})
		}
	}
	// The same globs without a file named like an option.
	root := globProject(t, nil)
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"sort *", "ls *", "cat *.txt", "find *", "echo hi > out.txt"} {
		d, err := g.Check(context.Background(), cmdguard.Request{Command: cmd, Cwd: root})
		if err != nil {
			t.Fatal(err)
		}
		if d.Verdict != cmdguard.Allow {
			t.Errorf("Check(%q) = %v %+v, want allow", cmd, d.Verdict, d.Reasons)
		}
	}
}

func globProject(t *testing.T, extra map[string]string) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{".env": "TOKEN=SECRET\n", ".cmdguardignore": ".env\n", "a.txt": "hello\n"}
	for name, body := range extra {
		files[name] = body
	}
	for name, body := range files {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func ignoreRewritten(root string) bool {
	b, err := os.ReadFile(filepath.Join(root, ".cmdguardignore"))
	return err != nil || string(b) != ".env\n"
}

func hasRule(d cmdguard.Decision, rule string) bool {
	for _, r := range d.Reasons {
		if r.Rule == rule {
			return true
		}
	}
	return false
}
