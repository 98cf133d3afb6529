package cmdguard_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/internal/testneed"
)

// project writes a small project: a policy, an ignore file, a secret, a
// symlink to it, a directory of secrets and an ordinary source tree.
func project(t testing.TB, policyYAML string) string {
	t.Helper()
	root := t.TempDir()
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	files := map[string]string{
		".cmdguard.yaml":       policyYAML,
		".cmdguardignore":      ".env\nsecrets/\n*.pem\n",
		".env":                 "TOKEN=x\n",
		"secrets/db.txt":       "password\n",
		"src/main.go":          "package main\n",
		"src/util.go":          "package main\n",
		"docs/readme.md":       "hi\n",
		"keys/server.pem":      "-----BEGIN-----\n",
		".git/config":          "[core]\n",
		".git/hooks/.keep":     "",
		"build/out.txt":        "x\n",
		"nested/.rooignore":    "private.txt\n",
		"nested/private.txt":   "p\n",
		"nested/public.txt":    "p\n",
		"outside-link-target/": "",
	}
	for name, body := range files {
		p := filepath.Join(root, name)
		if strings.HasSuffix(name, "/") {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(".env", filepath.Join(root, "innocent.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("secrets", filepath.Join(root, "data")); err != nil {
		t.Fatal(err)
	}
	return root
}

const testPolicy = `version: 1
default: ask
allow: [ls, cat, echo, grep, git, find, cp, cd, xargs, curl, wc, head, sort, true, env, sudo, bash -c, timeout, tee, touch, sed]
deny: [rm -rf]
ignore_files: [.cmdguardignore, .rooignore]
`

// needProgram: see package testneed (skips without the program, fails under CI).
func needProgram(t testing.TB, name string) { t.Helper(); testneed.Program(t, name) }

func checkIn(t *testing.T, g *cmdguard.Guard, cmd string) cmdguard.Decision {
	t.Helper()
	d, _ := g.Check(context.Background(), cmdguard.Request{Command: cmd, BaseEnv: []string{}})
	return d
}

// managedFile writes a managed policy and points CMDGUARD_MANAGED at it.
func managedFile(t *testing.T, yaml string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "managed.yaml")
	if err := os.WriteFile(p, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(cmdguard.ManagedEnv, p)
	return p
}
