package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestInitBehavesAsDefault: the policy cmdguard init writes decides every
// command as the embedded default does (issue 30: after init, echo, sleep
// and go test under --sandbox asked), with and without --sandbox: the same
// verdict and the same rule ids, only the sources differ (file:line
// instead of builtin).
func TestInitBehavesAsDefault(t *testing.T) {
	t.Parallel()
	none, withInit := t.TempDir(), t.TempDir()
	for _, dir := range []string{none, withInit} {
		for name, body := range map[string]string{".env": "KEY=1\n", "main.go": "package main\n", "go.mod": "module x\n", "src/a.txt": "a\n"} {
			os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	var out, errb bytes.Buffer
	if code := run([]string{"init", withInit}, nil, &out, &errb); code != 0 {
		t.Fatalf("init: %d %s", code, errb.String())
	}
	commands := []string{
		"echo hi", "sleep 1", "go test ./...", "go vet ./...", "go build ./...", "git status", "git log --oneline -5",
		"ls -la", "cat .env", "cat main.go", "grep -rn TODO .", "rg main", "sed -n 1,5p main.go", "sed -i s/a/b/ main.go",
		"rm -rf src", "npm install", "curl https://example.com", "find . -name '*.go' -delete", "sort -o out main.go",
		"gofmt -l .", "cd src && cat a.txt", "echo x > .cmdguard.yaml", "cat ../x", "tree -a", "wc -l main.go | sort",
	}
	type verdict struct {
		Decision string
		Rules    []string
	}
	check := func(dir, cmd string, sandbox bool) verdict {
		args := []string{"check", "--format", "json", "--cwd", dir}
		if sandbox {
			args = append(args, "--sandbox")
		}
		var out, errb bytes.Buffer
		run(append(args, "--", cmd), nil, &out, &errb)
		var d struct {
			Decision string `json:"decision"`
			Reasons  []struct {
				Rule string `json:"rule"`
			} `json:"reasons"`
		}
		if err := json.Unmarshal(out.Bytes(), &d); err != nil {
			t.Fatalf("check %q in %s: %v\n%s%s", cmd, dir, err, out.String(), errb.String())
		}
		v := verdict{Decision: d.Decision}
		for _, r := range d.Reasons {
			v.Rules = append(v.Rules, r.Rule)
		}
		slices.Sort(v.Rules)
		return v
	}
	allowed := 0
	for _, cmd := range commands {
		for _, sandbox := range []bool{false, true} {
			want, got := check(none, cmd, sandbox), check(withInit, cmd, sandbox)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("check %q (sandbox %v): init's policy differs from the default (-default +init):\n%s", cmd, sandbox, diff)
			}
			if want.Decision == "allow" {
				allowed++
			}
		}
	}
	if allowed == 0 || allowed == 2*len(commands) {
		t.Errorf("%d of %d checks allowed: the corpus does not tell policies apart", allowed, 2*len(commands))
	}
	text, err := os.ReadFile(filepath.Join(withInit, ".cmdguard.yaml"))
	if err != nil || !strings.Contains(string(text), "\nstrict: true\n") {
		t.Errorf("the written policy does not say strict: true (%v)", err)
	}
}
