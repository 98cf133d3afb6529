package ignore

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// settle waits until what was just written is older than the Matcher's
// racy window, so that the next examination trusts an unchanged stat.
func settle(m *Matcher) { time.Sleep(m.racy + 15*time.Millisecond) }

func writeFile(t *testing.T, root, name, content string) {
	t.Helper()
	p := filepath.Join(root, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestRefreshIgnoreFile: an ignore file created, edited (also to the
// same size) and deleted changes the answer after each Refresh, both
// when the change is inside the racy window (the file is read again)
// and after it (an unchanged stat is trusted).
func TestRefreshIgnoreFile(t *testing.T) {
	t.Parallel()
	for _, window := range []time.Duration{racyWindow, 20 * time.Millisecond} {
		root := t.TempDir()
		writeFile(t, root, "a/b/key.txt", "")
		m, err := Load(root, Options{})
		if err != nil {
			t.Fatal(err)
		}
		m.racy = window
		steps := []struct {
			do   func()
			want Result
		}{
			{func() {}, Result{}},
			{func() { writeFile(t, root, "a/.cmdguardignore", "key.txt\n") }, Result{true, "a/.cmdguardignore:1", "key.txt"}},
			{func() { writeFile(t, root, "a/.cmdguardignore", "key.txx\n") }, Result{}}, // same size
			{func() { writeFile(t, root, "a/.cmdguardignore", "# x\n*.txt\n") }, Result{true, "a/.cmdguardignore:2", "*.txt"}},
			{func() { writeFile(t, root, "a/b/.cmdguardignore", "!key.txt\n") }, Result{false, "a/b/.cmdguardignore:1", "!key.txt"}},
			{func() { os.Remove(filepath.Join(root, "a/b/.cmdguardignore")) }, Result{true, "a/.cmdguardignore:2", "*.txt"}},
			{func() { os.Remove(filepath.Join(root, "a/.cmdguardignore")) }, Result{}},
		}
		for i, st := range steps {
			if window < racyWindow {
				settle(m)
			}
			st.do()
			if window < racyWindow {
				settle(m)
			}
			m.Refresh()
			got, err := m.MatchErr("a/b/key.txt", false)
			if err != nil || got != st.want {
				t.Errorf("window %v, step %d: Match = %+v, %v; want %+v", window, i, got, err, st.want)
			}
		}
	}
}

// TestNoRefreshKeeps: without Refresh a Matcher keeps what it read.
func TestNoRefreshKeeps(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeFile(t, root, "x.txt", "")
	m, err := Load(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m.Match("x.txt", false).Ignored {
		t.Fatal("x.txt ignored before any ignore file")
	}
	writeFile(t, root, ".cmdguardignore", "x.txt\n")
	if m.Match("x.txt", false).Ignored {
		t.Error("x.txt ignored without Refresh")
	}
	m.Refresh()
	if !m.Match("x.txt", false).Ignored {
		t.Error("x.txt not ignored after Refresh")
	}
}

// TestRefreshCheckDir: a walk's answer is kept, and changes when an entry
// deep in the subtree or an ignore file above it changes.
func TestRefreshCheckDir(t *testing.T) {
	t.Parallel()
	for _, window := range []time.Duration{racyWindow, 20 * time.Millisecond} {
		root := t.TempDir()
		writeFile(t, root, ".cmdguardignore", "*.pem\n")
		writeFile(t, root, "src/a/b/c.go", "")
		writeFile(t, root, "src/x/y.go", "")
		m, err := Load(root, Options{})
		if err != nil {
			t.Fatal(err)
		}
		m.racy = window
		steps := []struct {
			do   func()
			want bool
		}{
			{func() {}, false},
			{func() { writeFile(t, root, "src/a/b/k.pem", "") }, true},
			{func() { os.Remove(filepath.Join(root, "src/a/b/k.pem")) }, false},
			{func() { writeFile(t, root, ".cmdguardignore", "*.go\n") }, true},
			{func() { writeFile(t, root, "src/x/.cmdguardignore", "!*.go\n") }, true}, // src/a still holds .go files
			{func() { writeFile(t, root, ".cmdguardignore", "*.pm\n") }, false},
			{func() { os.Symlink("../../.cmdguardignore", filepath.Join(root, "src/x/link")) }, false},
			{func() { writeFile(t, root, ".cmdguardignore", ".cmdguardignore\n") }, true}, // the link's target is ignored
		}
		for i, st := range steps {
			if window < racyWindow {
				settle(m)
			}
			st.do()
			if window < racyWindow {
				settle(m)
			}
			m.Refresh()
			got, err := m.CheckDir("src")
			if err != nil || got != st.want {
				t.Errorf("window %v, step %d: CheckDir(src) = %v, %v; want %v", window, i, got, err, st.want)
			}
		}
	}
}

// TestCheckDirBound: a walk over the bound is an error wrapping
// ErrTooManyEntries, never a clean answer; a smaller subtree of the same
// tree is still answered.
func TestCheckDirBound(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, f := range []string{"big/1", "big/2", "big/3", "big/4", "small/1"} {
		writeFile(t, root, f, "")
	}
	m, err := Load(root, Options{MaxEntries: 3})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second answer comes from the cache
		if found, err := m.CheckDir("big"); !errors.Is(err, ErrTooManyEntries) {
			t.Errorf("CheckDir(big) = %v, %v; want ErrTooManyEntries", found, err)
		}
		if !m.ContainsIgnored("big") {
			t.Error("ContainsIgnored(big) over the bound = false, want true")
		}
		if found, err := m.CheckDir("small"); found || err != nil {
			t.Errorf("CheckDir(small) = %v, %v; want false, nil", found, err)
		}
		m.Refresh()
	}
	os.Remove(filepath.Join(root, "big/4"))
	m.Refresh()
	if found, err := m.CheckDir("big"); found || err != nil {
		t.Errorf("CheckDir(big) under the bound = %v, %v; want false, nil", found, err)
	}
}

// TestLazy: Load reads no ignore file below the root, so a broken one
// elsewhere does not stop it; matching below it is an error.
func TestLazy(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeFile(t, root, "other/deep/.cmdguardignore", "bad[\n")
	writeFile(t, root, "src/a.go", "")
	m, err := Load(root, Options{})
	if err != nil {
		t.Fatalf("Load with a broken nested file: %v", err)
	}
	if r, err := m.MatchErr("src/a.go", false); err != nil || r.Ignored {
		t.Errorf("Match(src/a.go) = %+v, %v; want not ignored", r, err)
	}
	if files := m.Files(); len(files) != 0 {
		t.Errorf("Files() = %q, want none read", files)
	}
	r, err := m.MatchErr("other/deep/x", false)
	var ie *Error
	if !errors.As(err, &ie) || !r.Ignored || r.Source != "other/deep/.cmdguardignore:1" {
		t.Errorf("Match(other/deep/x) = %+v, %v; want ignored with an *Error", r, err)
	}
	if r := m.Match("other/deep/x", false); !r.Ignored {
		t.Errorf("Match fails open on a broken file: %+v", r)
	}
}

// TestResolveCache: entries Resolve keeps are dropped when their
// directory changes, so a directory or link swapped between two uses is
// seen, whether the change is inside the racy window or after it.
func TestResolveCache(t *testing.T) {
	t.Parallel()
	for _, window := range []time.Duration{racyWindow, 20 * time.Millisecond} {
		root := t.TempDir()
		writeFile(t, root, ".cmdguardignore", "secrets/\n")
		writeFile(t, root, "pub/x.txt", "")
		writeFile(t, root, "secrets/x.txt", "")
		if err := os.Symlink("pub", filepath.Join(root, "link")); err != nil {
			t.Fatal(err)
		}
		m, err := Load(root, Options{})
		if err != nil {
			t.Fatal(err)
		}
		m.racy = window
		steps := []struct {
			what string
			do   func() error
			name string
			want bool // ignored
		}{
			{"link to pub", func() error { return nil }, "link/x.txt", false},
			{"again, from the cache", func() error { return nil }, "link/x.txt", false},
			{"link swapped", func() error {
				os.Remove(filepath.Join(root, "link"))
				return os.Symlink("secrets", filepath.Join(root, "link"))
			}, "link/x.txt", true},
			{"pub", func() error { return nil }, "pub/x.txt", false},
			{"pub replaced by a link", func() error {
				if err := os.Rename(filepath.Join(root, "pub"), filepath.Join(root, "pub2")); err != nil {
					return err
				}
				return os.Symlink("secrets", filepath.Join(root, "pub"))
			}, "pub/x.txt", true},
			{"deep file removed", func() error { return os.Remove(filepath.Join(root, "pub2/x.txt")) }, "pub2/x.txt", false},
		}
		for i, st := range steps {
			if window < racyWindow {
				settle(m)
			}
			if err := st.do(); err != nil {
				t.Fatal(err)
			}
			if window < racyWindow {
				settle(m)
			}
			m.Refresh()
			info, r, err := m.MatchRef("", st.name)
			if err != nil || r.Ignored != st.want {
				t.Errorf("window %v, step %d (%s): MatchRef(%s) = %+v %+v, %v; want ignored %v", window, i, st.what, st.name, info, r, err, st.want)
			}
			if i == len(steps)-1 && info.Exists {
				t.Errorf("window %v: %s exists after its removal", window, st.name)
			}
		}
	}
}

// TestWarmStats counts the stat calls of a warm Matcher: after Refresh,
// one lstat per directory on the way to the references (however many
// references share it) and one stat per ignore file there; nothing per
// file below a directory whose stat is unchanged.
func TestWarmStats(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeFile(t, root, ".cmdguardignore", "*.pem\n")
	for _, f := range []string{"src/a.go", "src/b.go", "src/c.go", "docs/x.md", "deep/er/still/y.txt"} {
		writeFile(t, root, f, "")
	}
	m, err := Load(root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	m.racy = 20 * time.Millisecond
	settle(m)
	refs := []string{"src/a.go", "src/b.go", "src/c.go", "src/new.go", "docs/x.md", "deep/er/still/y.txt"}
	check := func() int64 {
		m.Refresh()
		before := m.stats.Load()
		for _, r := range refs {
			if _, _, err := m.MatchRef("", r); err != nil {
				t.Fatal(err)
			}
		}
		return m.stats.Load() - before
	}
	check() // cold
	check() // the directories' stats are now trusted
	// Directories: the root, src, docs, deep, deep/er, deep/er/still (6
	// lstat); the root's ignore file (1 stat). Six references.
	if got := check(); got != 7 {
		t.Errorf("warm check of %d references: %d stat calls, want 7", len(refs), got)
	}
}
