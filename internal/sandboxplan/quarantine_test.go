package sandboxplan

import (
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestSandboxNewFiles: after a run, new policy and ignore files are found
// in a directory that existed (and had not changed for a while), in new
// directories, and in a directory put in the place of a known one, while
// only the directories that changed are read again.
func TestSandboxNewFiles(t *testing.T) {
	t.Parallel()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"a/b", "c", "quiet/deep"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "a/.cmdguardignore"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(recentDir + 50*time.Millisecond) // the directories are no longer recent
	names := []string{".cmdguardignore", ".cursorignore", ".cmdguard.yaml"}
	files, dirs, err := projectFiles(root, names, 1000)
	if err != nil || len(files) != 1 || len(dirs) != 6 {
		t.Fatalf("start: %v %v %v", files, dirs, err)
	}
	for _, s := range dirs {
		if s.recent {
			t.Fatalf("a directory is still recent: %+v", dirs)
		}
	}
	w := &watch{root: root, names: names, files: map[string]bool{files[0]: true}, dirs: dirs}
	if got := w.newFiles(newLooker(root)); len(got) != 0 {
		t.Fatalf("nothing changed: %v", got)
	}
	script := `set -e
		echo '!x' > a/b/.cmdguardignore
		echo y > a/.cmdguardignore
		echo note > quiet/deep/notes.txt
		mkdir -p d/e && echo '!x' > d/e/.cursorignore
		mv c c.old && mkdir c && echo 'version: 1' > c/.cmdguard.yaml`
	cmd := osexec.Command("bash", "-c", script)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	l := newLooker(root)
	got := w.newFiles(l)
	want := []string{filepath.Join(root, "a/b/.cmdguardignore"), filepath.Join(root, "c/.cmdguard.yaml"), filepath.Join(root, "d/e/.cursorignore")}
	if !slices.Equal(got, want) || len(l.problems) != 0 {
		t.Errorf("new files = %q, problems %+v; want %q", got, l.problems, want)
	}
}
