package sandboxplan

import (
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strings"
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

// TestPendingEndsTheRun: a run record whose process is gone but whose
// sandbox's first process still runs (its parent-death signal did not
// end it): the check that finishes the run kills it, waits for it, and
// does the quarantine. A record that does not name it is left alone
// when the process is not the one recorded (a reused pid).
func TestPendingEndsTheRun(t *testing.T) {
	t.Parallel()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root, runs := filepath.Join(tmp, "proj"), filepath.Join(tmp, "runs")
	for _, d := range []string{root, runs} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	sleeper := func() (*osexec.Cmd, procID) {
		c := osexec.Command("sleep", "300")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Process.Kill() })
		id, ok := procOf(c.Process.Pid)
		if !ok || id.Start == 0 || id.Boot == "" {
			t.Fatalf("procOf(%d) = %+v, %v", c.Process.Pid, id, ok)
		}
		return c, id
	}
	write := func(name string, init procID) {
		rec := record{Version: recordVersion, Root: root, PID: 1, Names: []string{".cmdguard.yaml"}, Files: []string{}, Absent: []recordAbsent{}, Init: &init}
		if _, err := writeRecord(runs, name, &rec, false); err != nil {
			t.Fatal(err)
		}
	}

	c, id := sleeper()
	write("a.json", id)
	if err := os.WriteFile(filepath.Join(root, ".cmdguard.yaml"), []byte("version: 1\ndefault: allow\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	msgs := Pending(runs, root)
	if len(msgs) != 1 || !strings.Contains(msgs[0], "moved to") {
		t.Errorf("Pending = %q, want the planted policy reported moved", msgs)
	}
	if err := c.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
		t.Errorf("the run's first process: %v, want killed", err)
	}
	if des, _ := os.ReadDir(runs); len(des) != 0 {
		t.Errorf("records left: %v", des)
	}

	// A recorded start time that is not the process's: not killed.
	c, id = sleeper()
	id.Start++
	write("b.json", id)
	if msgs := Pending(runs, root); len(msgs) != 0 {
		t.Errorf("Pending = %q, want nothing to report", msgs)
	}
	if !(procID{PID: c.Process.Pid, Start: id.Start - 1, Boot: id.Boot}).alive() {
		t.Errorf("a process the record does not name was killed")
	}
}

// TestPendingEmptyCache: a records directory found empty is not read
// again while it stays so, and a record written later is seen at once.
func TestPendingEmptyCache(t *testing.T) {
	t.Parallel()
	runs := filepath.Join(t.TempDir(), "runs")
	if err := os.Mkdir(runs, 0o700); err != nil {
		t.Fatal(err)
	}
	time.Sleep(recentDir + 50*time.Millisecond)
	for range 3 {
		if msgs := Pending(runs, "/p"); len(msgs) != 0 {
			t.Fatalf("empty: %q", msgs)
		}
	}
	if err := os.WriteFile(filepath.Join(runs, "x.json"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if msgs := Pending(runs, "/p"); len(msgs) != 1 || !strings.Contains(msgs[0], "x.json") {
		t.Errorf("after a record was written: %q, want it refused", msgs)
	}
}
