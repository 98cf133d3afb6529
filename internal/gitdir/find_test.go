package gitdir

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestFinderFollowsChanges: a Finder remembers an answer of Find, then
// the tree changes in one of the ways that change where git finds its
// directory (at the directory asked about or above it, inside a .git
// directory, in a .git file's content, through a symbolic link, with
// the directory's times set back); its next answer is Find's again.
func TestFinderFollowsChanges(t *testing.T) {
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	at := func(p string) string { return filepath.Join(tmp, p) }
	dir := at("a/b/c")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	gitDir := func(d string) {
		must(os.MkdirAll(at(d+"/objects"), 0o755))
		must(os.MkdirAll(at(d+"/refs"), 0o755))
		must(os.WriteFile(at(d+"/HEAD"), []byte("ref: refs/heads/main\n"), 0o644))
	}
	// A repository at the top: no answer goes on up to /tmp, whose
	// stamp changes all the time on a busy machine (an answer read from
	// it is then rightly not remembered).
	gitDir(".git")
	steps := []struct {
		name   string
		change func()
		unkept bool // after it, the answer is not remembered: it goes through a symbolic link, or it is an error
	}{
		{"an empty .git above", func() { must(os.Mkdir(at("a/.git"), 0o755)) }, false},
		{"it becomes a git directory", func() { gitDir("a/.git") }, false},
		{"a bare repository nearer", func() { gitDir("a/b") }, false},
		{"a .git file at dir", func() {
			gitDir("w1")
			gitDir("w2")
			must(os.WriteFile(at("a/b/c/.git"), []byte("gitdir: ../../../w1\n"), 0o644))
		}, false},
		{"the .git file names another, same size", func() { must(os.WriteFile(at("a/b/c/.git"), []byte("gitdir: ../../../w2\n"), 0o644)) }, false},
		{"the git directory it names loses its HEAD (git stops there)", func() { must(os.Remove(at("w2/HEAD"))) }, true},
		{"the .git file goes", func() { must(os.Remove(at("a/b/c/.git"))) }, false},
		{"HEAD of the bare repository holds no reference", func() { must(os.WriteFile(at("a/b/HEAD"), []byte("garbage\n"), 0o644)) }, false},
		{"HEAD holds an object name", func() {
			must(os.WriteFile(at("a/b/HEAD"), []byte("0123456789012345678901234567890123456789\n"), 0o644))
		}, false},
		{"the bare repository loses refs", func() { must(os.RemoveAll(at("a/b/refs"))) }, false},
		{"refs comes back with the time set back", func() {
			fi, err := os.Stat(at("a/b"))
			must(err)
			must(os.Mkdir(at("a/b/refs"), 0o755))
			must(os.Chtimes(at("a/b"), fi.ModTime(), fi.ModTime()))
		}, false},
		{"refs becomes a plain file", func() {
			must(os.RemoveAll(at("a/b/refs")))
			must(os.WriteFile(at("a/b/refs"), nil, 0o644))
		}, false},
		{"the plain file refs made executable (git searches it)", func() { must(os.Chmod(at("a/b/refs"), 0o755)) }, false},
		{"the bare repository goes", func() {
			for _, n := range []string{"HEAD", "objects", "refs"} {
				must(os.RemoveAll(at("a/b/" + n)))
			}
		}, false},
		{"the .git above is renamed away", func() { must(os.Rename(at("a/.git"), at("a/g1"))) }, false},
		{"a symbolic link .git to it", func() { must(os.Symlink("g1", at("a/.git"))) }, true},
		{"the link's target is no git directory any more", func() {
			must(os.Rename(at("a/g1"), at("a/g2")))
			must(os.Mkdir(at("a/g1"), 0o755))
		}, true},
		{"a git directory at dir's .git with objects linked", func() {
			must(os.Mkdir(at("a/b/c/.git"), 0o755))
			must(os.Mkdir(at("a/b/c/.git/refs"), 0o755))
			must(os.WriteFile(at("a/b/c/.git/HEAD"), []byte("ref: refs/heads/main\n"), 0o644))
			must(os.Symlink(at("a/g2/objects"), at("a/b/c/.git/objects")))
		}, true},
		{"the linked objects go", func() { must(os.RemoveAll(at("a/g2/objects"))) }, true},
	}
	const racy = 30 * time.Millisecond
	f := &Finder{Racy: racy}
	unkept := false // the state before the step's change
	for _, s := range steps {
		time.Sleep(2 * racy) // what the answer is read from is out of the racy window
		before, err := f.Find(dir)
		if err != nil {
			before = "error"
		}
		if _, ok := f.Lookup(dir); ok == unkept {
			t.Fatalf("before %s: remembered %v, want %v", s.name, ok, !unkept)
		}
		unkept = s.unkept
		s.change()
		got, err := f.Find(dir)
		want, werr := Find(dir)
		if got != want || (err == nil) != (werr == nil) {
			t.Errorf("%s: Finder %q, %v; Find %q, %v", s.name, got, err, want, werr)
		}
		if err != nil {
			got = "error"
		}
		if got == before && s.name != "an empty .git above" && s.name != "the .git above is renamed away" {
			t.Errorf("%s: the answer %q did not change: the step tests nothing", s.name, got)
		}
	}
}

// TestFinderRacy: an answer read from a directory changed within the
// racy window is not remembered.
func TestFinderRacy(t *testing.T) {
	dir := t.TempDir()
	f := &Finder{Racy: time.Hour}
	if _, err := f.Find(dir); err != nil {
		t.Fatal(err)
	}
	if _, ok := f.Lookup(dir); ok {
		t.Error("an answer read from a directory made a moment ago is remembered")
	}
}
