package cmdguard_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/cmdguard/cmdguard"
)

// TestOpenRealPath: Open walks up from the real directory. A link into
// the project from a directory with a lax policy (LAX/link ->
// PROJECT/src) must give the project's policy and root, not LAX's: on
// main the textual walk found LAX/.cmdguard.yaml, and `cat .env` in the
// link (PROJECT/src/.env) was allowed.
func TestOpenRealPath(t *testing.T) {
	work := t.TempDir()
	project := filepath.Join(work, "project")
	lax := filepath.Join(work, "lax")
	for name, data := range map[string]string{
		filepath.Join(project, ".cmdguard.yaml"):  "version: 1\ndefault: ask\nallow: [cat]\nignore_files: [.cmdguardignore]\n",
		filepath.Join(project, ".cmdguardignore"): ".env\n",
		filepath.Join(project, "src", ".env"):     "TOKEN=x\n",
		filepath.Join(lax, ".cmdguard.yaml"):      "version: 1\ndefault: allow\nrules:\n  path.outside_root: allow\n",
		filepath.Join(project, "src", "main.go"):  "package main\n",
		filepath.Join(lax, "notes", "readme.txt"): "hi\n",
	} {
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := filepath.Join(lax, "link")
	if err := os.Symlink(filepath.Join(project, "src"), link); err != nil {
		t.Fatal(err)
	}
	g, err := cmdguard.Open(link)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close(context.Background())
	realProject, _ := filepath.EvalSymlinks(project)
	if g.Root() != realProject {
		t.Errorf("Open(%s).Root() = %s, want the project %s", link, g.Root(), realProject)
	}
	d, err := g.Check(context.Background(), cmdguard.Request{Command: "cat .env", Cwd: filepath.Join(realProject, "src")})
	if err != nil || d.Verdict == cmdguard.Allow {
		t.Errorf("cat .env through the link: %v %v, want it refused", d.Verdict, err)
	}
	if _, err := cmdguard.Open(filepath.Join(work, "missing")); err == nil {
		t.Errorf("Open of a missing directory: no error")
	}
}
