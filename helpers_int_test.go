package cmdguard

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard/exec"
	"github.com/cmdguard/cmdguard/internal/testneed"
)

// Test helpers shared by the package's test files.

// verdictOf checks cmd and returns the verdict and the rule ids.
func verdictOf(t *testing.T, g *Guard, cmd string) (Verdict, string) {
	t.Helper()
	d, _ := g.Check(context.Background(), Request{Command: cmd})
	var rules []string
	for _, r := range d.Reasons {
		rules = append(rules, r.Rule+": "+r.Message)
	}
	return d.Verdict, strings.Join(rules, "; ")
}

func writeTestFile(t testing.TB, root, name, content string) {
	t.Helper()
	p := filepath.Join(root, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func benchProject(b *testing.B) *Guard {
	root, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	for d := range 100 {
		dir := filepath.Join(root, fmt.Sprintf("pkg%03d", d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := range 100 {
			name := fmt.Sprintf("f%03d.go", f)
			if f == 0 {
				name = "x.key"
			}
			if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(root, ".cmdguard.yaml"), []byte(sbPolicy), 0o644); err != nil {
		b.Fatal(err)
	}
	g, err := OpenPolicy(filepath.Join(root, ".cmdguard.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	return g
}

func sbOutput(r exec.Result) string { return string(r.Stdout.Data) + string(r.Stderr.Data) }

// needProgram: see package testneed (skips without the program, fails under CI).
func needProgram(t testing.TB, name string) { t.Helper(); testneed.Program(t, name) }

func newSBProject(t *testing.T, policyYAML string, separateGitDir bool) *sbProject {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := &sbProject{t: t, tmp: tmp, root: filepath.Join(tmp, "proj"), home: filepath.Join(tmp, "home")}
	files := map[string]string{
		".cmdguard.yaml":                    policyYAML,
		".cmdguardignore":                   "internal/vault/\n",
		".gitignore":                        ".env\n*.pem\nout.txt\n",
		".env":                              "API_KEY=" + sbSecret + "\n",
		".env.example":                      "API_KEY=changeme\n",
		"certs/server.pem":                  sbSecret + "\n",
		"go.mod":                            "module example.com/p\n\ngo 1.22\n",
		"main.go":                           "package main\n\nfunc main() { println(\"hi\") }\n\nfunc add(a, b int) int { return a + b }\n",
		"main_test.go":                      "package main\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif add(1, 2) != 3 {\n\t\tt.Fatal(\"add\")\n\t}\n}\n",
		"internal/vault/vault.go":           "// Package vault holds the key.\npackage vault\n\n// Key is the key.\nconst Key = \"" + sbSecret + "\"\n",
		"package.json":                      `{"name":"p","version":"1.0.0","scripts":{"test":"node test.js"}}` + "\n",
		"test.js":                           "const pad = require('leftpad');\nif (pad('1', 3) !== '001') { process.exit(1); }\nconsole.log('npm test ok');\n",
		"node_modules/leftpad/index.js":     "module.exports = (s, n) => s.padStart(n, '0');\n",
		"node_modules/leftpad/package.json": `{"name":"leftpad","version":"1.0.0","main":"index.js"}` + "\n",
		"Makefile":                          "all:\n\techo built > out.txt\n",
		"../home/.ssh/id_ed25519":           sbSecret + "\n",
		"../home/.bashrc":                   "# rc\n",
		"../home/.gitconfig":                "[user]\n\tname = T\n\temail = t@example.com\n",
	}
	for name, data := range files {
		f := filepath.Join(p.root, name)
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"init", "-q"}
	p.gitDir = filepath.Join(p.root, ".git")
	if separateGitDir {
		p.gitDir = filepath.Join(tmp, "gitdir")
		args = append(args, "--separate-git-dir="+p.gitDir)
	}
	p.git(append(args, ".")...)
	p.git("add", ".")
	p.git("commit", "-qm", "initial")
	return p
}

// TestMain gives the package's tests a state directory of their own
// (XDG_STATE_HOME: the records of sandboxed runs, the sandbox probe's
// answer): a run a test leaves unfinished (a test killed by its
// timeout) must not quarantine every later check of the person who ran
// the tests. Tests that need one set their own.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "cmdguard-test-state-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "TestMain:", err)
		os.Exit(1)
	}
	os.Setenv("XDG_STATE_HOME", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
