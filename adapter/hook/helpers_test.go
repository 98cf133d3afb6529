package hook_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard/adapter/hook"
	"github.com/cmdguard/cmdguard/internal/testneed"
)

// Test helpers shared by the package's test files.

func runHook(t *testing.T, opts hook.Options, stdin io.Reader) result {
	t.Helper()
	var out, errb bytes.Buffer
	code := hook.Run(context.Background(), opts, stdin, &out, &errb)
	r := result{raw: out.String(), stderr: errb.String(), code: code}
	if !strings.HasSuffix(r.raw, "\n") || strings.Count(r.raw, "\n") != 1 {
		t.Fatalf("stdout is not one line of JSON: %q", r.raw)
	}
	if err := json.Unmarshal(out.Bytes(), &r.out); err != nil {
		t.Fatalf("stdout is not a JSON object: %v: %q", err, r.raw)
	}
	return r
}

func fill(tmpl, cwd, cmd string) string {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	return strings.ReplaceAll(strings.ReplaceAll(tmpl, "CWD", q(cwd)), "CMD", q(cmd))
}

// project writes a small project with a policy, an ignored .env and a
// source file, and returns its root.
func project(t testing.TB, policy string) string {
	t.Helper()
	root := t.TempDir()
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	for name, body := range map[string]string{
		".cmdguard.yaml":  policy,
		".cmdguardignore": ".env\n*.secret\n/top.txt\n",
		"top.txt":         "t\n",
		"keys.secret":     "k\n",
		".env":            "TOKEN=x\n",
		"src/main.go":     "package main\n",
	} {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// needProgram: see package testneed (skips without the program, fails under CI).
func needProgram(t testing.TB, name string) { t.Helper(); testneed.Program(t, name) }
