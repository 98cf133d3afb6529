package cmdguard

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/cmdguard/cmdguard/exec"
	"github.com/google/go-cmp/cmp"
)

// hideFilesProject writes a project whose hide patterns come from
// .gitignore and .cmdguardignore files at several depths, one below an
// ignored directory and one inside .git, and the policy's hide: and
// ignore: patterns; it returns the root and the Guard.
func hideFilesProject(t *testing.T) (string, *Guard) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		".cmdguard.yaml": `version: 1
default: ask
ignore_files: [.cmdguardignore, .gitignore]
ignore:
  - "*.secret"
sandbox:
  enabled: true
  hide:
    - .env.*
    - "!.env.example"
    - ~/.ssh
`,
		".gitignore":                  ".env\nsecrets/\n*.pem\n!keep.pem\nbuild/\n",
		".cmdguardignore":             "*.key\n",
		"sub/.cmdguardignore":         "local.key\n",
		"sub/deeper/.gitignore":       "*.log\n",
		"sub/deeper/.GitIgnore":       "# another spelling of the name\ncase.txt\n",
		"build/.gitignore":            "not-read\n", // below an ignored directory
		"secrets/.cmdguardignore":     "not-read\n",
		".git/.gitignore":             "not-read\n",
		".git/info/exclude":           "not-read\n",
		"src/main.go":                 "package main\n",
		"src/.rooignore":              "not a file the policy names\n",
		"keep.pem":                    "cert\n",
		"sub/deeper/.gitignore.orig":  "not-read\n",
		"sub/deeper/notes/.gitignore": "draft.md\n",
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
	g, err := OpenPolicy(filepath.Join(root, ".cmdguard.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return root, g
}

// TestFillHideFiles: what run.go gives a macOS sandbox is every ignore
// file the policy names in the project (nested ones included, not those
// below an ignored directory or inside .git), then the policy's own
// patterns (hide:, then ignore:) with their sources, then the ~/ ones
// anchored in each home directory.
func TestFillHideFiles(t *testing.T) {
	t.Parallel()
	root, g := hideFilesProject(t)
	home := filepath.Join(root, "home")
	sb := &exec.Sandbox{}
	fillHideFiles(sb, root, g.Policy(), []string{home})
	if sb.Err != nil {
		t.Fatal(sb.Err)
	}
	pf := filepath.Join(root, ".cmdguard.yaml")
	want := []exec.HideFile{
		{Dir: root, Name: ".cmdguardignore", Set: ".cmdguardignore", Content: []byte("*.key\n")},
		{Dir: root, Name: ".gitignore", Set: ".gitignore", Content: []byte(".env\nsecrets/\n*.pem\n!keep.pem\nbuild/\n")},
		{Dir: root + "/sub", Name: "sub/.cmdguardignore", Set: ".cmdguardignore", Content: []byte("local.key\n")},
		{Dir: root + "/sub/deeper", Name: "sub/deeper/.GitIgnore", Set: ".gitignore", Content: []byte("# another spelling of the name\ncase.txt\n")},
		{Dir: root + "/sub/deeper", Name: "sub/deeper/.gitignore", Set: ".gitignore", Content: []byte("*.log\n")},
		{Dir: root + "/sub/deeper/notes", Name: "sub/deeper/notes/.gitignore", Set: ".gitignore", Content: []byte("draft.md\n")},
		{Dir: root, Name: "policy", Content: []byte(".env.*\n!.env.example\n*.secret\n"),
			Sources: []string{pf + ":9", pf + ":10", pf + ":5"}},
		{Dir: home, Name: "policy ~/", Set: "~", Content: []byte("/.ssh\n"), Sources: []string{pf + ":11"}},
	}
	if diff := cmp.Diff(want, sb.HideFiles); diff != "" {
		t.Errorf("HideFiles mismatch (-want +got):\n%s", diff)
	}
}

// TestFillHideFilesFailsClosed: an ignore file that cannot be read (a
// directory's place taken by a FIFO under the name) is a sandbox that
// cannot be set up, not one without its patterns.
func TestFillHideFilesFailsClosed(t *testing.T) {
	t.Parallel()
	root, g := hideFilesProject(t)
	if err := os.Remove(filepath.Join(root, "sub/.cmdguardignore")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "sub/.cmdguardignore"), 0o600); err != nil {
		t.Fatal(err)
	}
	sb := &exec.Sandbox{}
	fillHideFiles(sb, root, g.Policy(), nil)
	if sb.Err == nil || !strings.Contains(sb.Err.Error(), "sub/.cmdguardignore") {
		t.Errorf("Err = %v, want one naming sub/.cmdguardignore; HideFiles %d", sb.Err, len(sb.HideFiles))
	}
}

// TestSandboxHideFilesByPlatform: the Guard's sandbox carries the hide
// files where the platform's sandbox reads them (macOS), and does not
// walk the project for them elsewhere.
func TestSandboxHideFilesByPlatform(t *testing.T) {
	t.Parallel()
	root, g := hideFilesProject(t)
	sb := g.sandbox(RunRequest{Sandbox: true, Request: Request{BaseEnv: []string{"HOME=" + root}}}, g.Policy())
	if sb.Err != nil {
		t.Fatal(sb.Err)
	}
	if runtime.GOOS != "darwin" {
		if sb.HideFiles != nil {
			t.Errorf("on %s the sandbox got %d hide files, want none (it hides by path)", runtime.GOOS, len(sb.HideFiles))
		}
		return
	}
	names := map[string]bool{}
	for _, f := range sb.HideFiles {
		names[f.Name] = true
	}
	for _, n := range []string{".gitignore", "sub/.cmdguardignore", "sub/deeper/notes/.gitignore", "policy"} {
		if !names[n] {
			t.Errorf("the sandbox's hide files lack %s: %v", n, names)
		}
	}
}

// BenchmarkFillHideFiles measures what a macOS run adds before it starts
// in the project of BenchmarkSandboxPaths (10,000 files in 100
// directories): the walk for the ignore files.
func BenchmarkFillHideFiles(b *testing.B) {
	g := benchProject(b)
	b.ReportAllocs()
	for b.Loop() {
		sb := &exec.Sandbox{}
		fillHideFiles(sb, g.root, g.Policy(), nil)
		if sb.Err != nil || len(sb.HideFiles) == 0 {
			b.Fatalf("%v, %d files", sb.Err, len(sb.HideFiles))
		}
	}
}
