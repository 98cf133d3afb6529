package live

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/cmdguard/cmdguard/policy"
)

// TestSourceCurrent: a Source hands out the same snapshot while nothing
// it was loaded from changed, a new one after an edit, the load error
// while the policy does not load, and never the old policy then.
func TestSourceCurrent(t *testing.T) {
	t.Parallel()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, policy.FileName)
	write := func(body string) {
		t.Helper()
		time.Sleep(20 * time.Millisecond) // past the racy window
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("version: 1\nallow: [ls]\n")
	s := &Source{Root: root, Path: path, Racy: 10 * time.Millisecond}
	first, err := s.Current()
	if err != nil || first.Policy == nil || first.Ign == nil || first.Memo == nil {
		t.Fatalf("Current = %+v, %v", first, err)
	}
	if !slices.Contains(first.Protected, policy.FileName) {
		t.Errorf("Protected = %q; want the policy file in it", first.Protected)
	}
	time.Sleep(20 * time.Millisecond)
	if again, err := s.Current(); again != first || err != nil || s.Last() != first {
		t.Errorf("unchanged: Current = %p, %v; want the same snapshot %p", again, err, first)
	}
	write("version: 1\nallow: [ls, echo]\n")
	edited, err := s.Current()
	if err != nil || edited == first || edited.Policy == first.Policy {
		t.Fatalf("edited: Current = %p, %v; want a new snapshot", edited, err)
	}
	write("version: 1\nallow: [ls\n")
	if broken, err := s.Current(); err == nil || broken.Policy != nil || broken.Err != err {
		t.Errorf("broken: Current = %+v, %v; want the load error and no policy", broken, err)
	}
	write("version: 1\n")
	if fixed, err := s.Current(); err != nil || fixed.Policy == nil {
		t.Errorf("fixed: Current = %+v, %v", fixed, err)
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Current(); err == nil {
		t.Error("deleted: Current succeeded; want an error (the policy is not optional)")
	}
	opt := &Source{Root: root, Path: path, Optional: true}
	if st, err := opt.Current(); err != nil || st.Policy == nil {
		t.Errorf("optional and missing: Current = %+v, %v; want the default policy", st, err)
	}
}
