package sandboxplan

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"time"

	"github.com/cmdguard/cmdguard/policy"
)

// A watch is what a sandboxed run must not create, looked at once it has
// ended (see Plan.After): the kernel can make a file read-only,
// but not keep a name from being created in a directory that must stay
// writable (.git, the home directory, any directory of the project).
// What was created is moved aside, beside where it was made, under a
// name no tool reads, and reported.
type watch struct {
	root   string
	names  []string        // the policy- and ignore-file names
	files  map[string]bool // those found in the project at the start
	dirs   map[string]dirSnap
	absent []absentPath
}

// A dirSnap is a directory of the project as it was at the start. A
// directory whose change time has not moved since holds the same names
// (creating, removing or renaming an entry sets it, and it cannot be set
// back), and is not read again after the run. The change time's clock is
// coarse (a tick) on some file systems: a directory changed in the last
// recentDir before the walk is read again whatever it says.
type dirSnap struct {
	dev, ino uint64
	ctime    int64 // ns
	recent   bool
}

const recentDir = 100 * time.Millisecond

// projectFiles walks root (not .git) for the files named like one of
// names, and notes each directory's state; at most max entries.
func projectFiles(root string, names []string, max int) (files []string, dirs map[string]dirSnap, err error) {
	dirs = map[string]dirSnap{}
	recent := time.Now().Add(-recentDir).UnixNano()
	entries := 0
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == root {
				return err
			}
			return nil // what cannot be read holds nothing to find
		}
		if entries++; entries > max {
			return fmt.Errorf("more than %d entries below %s", max, root)
		}
		switch {
		case d.Name() == ".git":
			// A git directory (or a .git file naming one) is noted, not
			// looked into.
			if slices.Contains(names, ".git") && p != root {
				files = append(files, p)
			}
			if d.IsDir() {
				return filepath.SkipDir
			}
		case d.IsDir():
			if fi, err := d.Info(); err == nil {
				if st, ok := fi.Sys().(*syscall.Stat_t); ok {
					ct := ctime(st)
					dirs[p] = dirSnap{uint64(st.Dev), st.Ino, ct, ct >= recent}
				}
			}
		case slices.Contains(names, d.Name()):
			files = append(files, p)
		}
		return nil
	})
	return files, dirs, err
}

// newFiles returns the files named like w.names that were not there at
// the start: it reads again only the directories that changed, parents
// first, and walks whole the directories that are new. A directory the
// run made unreadable is made readable again (see looker); one that
// stays unreadable is a problem of l's, never skipped.
func (w *watch) newFiles(l *looker) []string {
	var out []string
	dirs := make([]string, 0, len(w.dirs))
	for dir := range w.dirs {
		dirs = append(dirs, dir)
	}
	// A parent sorts before what it holds: one whose search bit the run
	// took is restored before its subdirectories are looked at.
	slices.Sort(dirs)
	for _, dir := range dirs {
		snap := w.dirs[dir]
		var st syscall.Stat_t
		if err := syscall.Lstat(dir, &st); err != nil {
			if errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ENOTDIR) {
				continue // gone: its parent changed, and shows what replaced it
			}
			l.problem(dir, err)
			continue
		}
		if !snap.recent && (dirSnap{uint64(st.Dev), st.Ino, ctime(&st), false}) == snap {
			continue
		}
		if st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
			continue // replaced by a file: its parent changed, and shows it
		}
		des, ok := l.readDir(dir, &st)
		if !ok {
			continue
		}
		for _, d := range des {
			p := filepath.Join(dir, d.Name())
			switch {
			case d.Name() == ".git":
				if !w.files[p] && slices.Contains(w.names, ".git") {
					out = append(out, p)
				}
			case d.IsDir():
				if _, known := w.dirs[p]; known {
					continue // looked at on its own
				}
				out = l.find(p, w.names, out)
			case slices.Contains(w.names, d.Name()) && !w.files[p]:
				out = append(out, p)
			}
			if !l.count() {
				return out
			}
		}
	}
	slices.Sort(out)
	return out
}

// A looker reads the project's directories after a run. The run's
// command is the owner of the directories it made, and may have taken
// their owner's read or search bits (chmod 311 dir, chmod 000 dir) so
// that nothing is found in them: a looker gives them back (it is the
// caller's own directory) and says so, and what it still cannot read is
// a problem: the quarantine could not finish.
type looker struct {
	root     string
	uid      int
	entries  int
	max      int
	restored []Quarantined // directories made readable again
	problems []Quarantined // what could not be looked at
}

func newLooker(root string) *looker {
	return &looker{root: root, uid: os.Geteuid(), max: maxSandboxEntries}
}

// WhyUnreadable is the reason of a directory of the project that the
// quarantine found unreadable.
const WhyUnreadable = "a directory the run made unreadable: a policy or ignore file in it would go unseen"

func (l *looker) problem(p string, err error) {
	l.problems = append(l.problems, Quarantined{Path: p, Reason: WhyUnreadable,
		Error: "the quarantine could not look into it: " + err.Error()})
}

// count counts one entry; false (and a problem) past the bound.
func (l *looker) count() bool {
	if l.entries++; l.entries == l.max+1 {
		l.problems = append(l.problems, Quarantined{Path: l.root, Reason: WhyUnreadable,
			Error: fmt.Sprintf("more than %d entries to look at: the quarantine could not finish", l.max)})
	}
	return l.entries <= l.max
}

// readable gives the directory dir (as st says it is) back its owner's
// read and search bits when the caller owns it and they are missing.
// Root reads and searches whatever the bits say, and is left alone.
func (l *looker) readable(dir string, st *syscall.Stat_t) {
	const rx = syscall.S_IRUSR | syscall.S_IXUSR
	if l.uid == 0 || int(st.Uid) != l.uid || st.Mode&rx == rx {
		return
	}
	mode := st.Mode&0o7777 | rx
	if err := syscall.Chmod(dir, uint32(mode)); err != nil {
		return // the read that follows fails, and says why
	}
	l.restored = append(l.restored, Quarantined{Path: dir, MovedTo: dir,
		Reason: fmt.Sprintf("%s; its owner's read and search bits are restored (mode %#o, was %#o)", WhyUnreadable, mode, st.Mode&0o7777)})
	st.Mode |= rx
}

// readDir reads the directory dir (as st says it is), made readable
// first; a failure is a problem.
func (l *looker) readDir(dir string, st *syscall.Stat_t) ([]fs.DirEntry, bool) {
	l.readable(dir, st)
	des, err := os.ReadDir(dir)
	if err != nil {
		l.problem(dir, err)
		return nil, false
	}
	return des, true
}

// find adds to out the files below dir (dir included) named like one of
// names, not looking into .git (a .git is one of them when ".git" is).
func (l *looker) find(dir string, names []string, out []string) []string {
	var st syscall.Stat_t
	if err := syscall.Lstat(dir, &st); err != nil {
		if !errors.Is(err, syscall.ENOENT) {
			l.problem(dir, err)
		}
		return out
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
		return out
	}
	des, ok := l.readDir(dir, &st)
	if !ok {
		return out
	}
	for _, d := range des {
		if !l.count() {
			return out
		}
		p := filepath.Join(dir, d.Name())
		switch {
		case d.Name() == ".git":
			if slices.Contains(names, ".git") {
				out = append(out, p)
			}
		case d.IsDir():
			out = l.find(p, names, out)
		case slices.Contains(names, d.Name()):
			out = append(out, p)
		}
	}
	return out
}

// An absentPath is a protected path that did not exist at the start.
type absentPath struct {
	path string
	// anchor is its highest directory that did not exist either (or the
	// path itself): what is moved aside, so that a directory made on the
	// way, or a symbolic link put there, goes too.
	anchor string
	why    string
}

func (w *watch) addAbsent(p protectedPath) {
	if slices.ContainsFunc(w.absent, func(a absentPath) bool { return a.path == p.path }) {
		return
	}
	anchor := p.path
	for {
		parent := filepath.Dir(anchor)
		if parent == anchor {
			return
		}
		if _, err := os.Lstat(parent); err == nil {
			break
		}
		anchor = parent
	}
	w.absent = append(w.absent, absentPath{path: p.path, anchor: anchor, why: p.why})
}

// absentPaths returns the paths for Plan.Absent.
func (w *watch) absentPaths() []string {
	out := make([]string, len(w.absent))
	for i, a := range w.absent {
		out[i] = a.path
	}
	return out
}

// quarantine moves aside what the run created: the protected paths that
// were absent, and every policy or ignore file of the project that was
// not there at the start. It is Plan.After. What it could not look at
// or move is reported with its Error set.
func (w *watch) quarantine() []Quarantined {
	l := newLooker(w.root)
	return moveAll(w.absent, w.newFiles(l), w.files, l)
}

// moveAll moves aside the absent paths that exist and the files that
// are not known, and returns what it did, what it made readable and
// what it could not do.
func moveAll(absent []absentPath, files []string, known map[string]bool, l *looker) []Quarantined {
	var out []Quarantined
	now := time.Now()
	moved := map[string]bool{}
	for _, a := range absent {
		if _, err := os.Lstat(a.path); err != nil || moved[a.anchor] {
			continue
		}
		moved[a.anchor] = true
		out = append(out, l.moveAside(a.anchor, a.path, a.why, now))
	}
	for _, f := range files {
		if known[f] || movedWith(f, moved) {
			continue // there at the start, or moved aside with an absent path
		}
		out = append(out, l.moveAside(f, f, whyFile(f), now))
	}
	out = append(out, l.restored...)
	return append(out, l.problems...)
}

// whyFile says why a new policy, ignore or git file may not be created.
func whyFile(p string) string {
	switch filepath.Base(p) {
	case policy.FileName:
		return WhyPolicy
	case ".git":
		return WhyGitDir
	}
	return WhyIgnore
}

// movedWith reports whether p was below (or is) one of the paths moved.
func movedWith(p string, moved map[string]bool) bool {
	for a := range moved {
		if within(p, a) {
			return true
		}
	}
	return false
}

// moveAside renames anchor (which is path or holds it) beside itself.
// Every process of the sandbox has ended: none can swap a directory on
// the way meanwhile. A directory the caller owns whose owner's write or
// search bit the run took is given it back first.
func (l *looker) moveAside(anchor, path, why string, now time.Time) Quarantined {
	q := Quarantined{Path: path, Reason: why}
	to := anchor + ".cmdguard-quarantined-" + now.UTC().Format("20060102T150405.000000000Z")
	err := os.Rename(anchor, to)
	if errors.Is(err, fs.ErrPermission) && l.uid != 0 {
		dir := filepath.Dir(anchor)
		var st syscall.Stat_t
		const wx = syscall.S_IWUSR | syscall.S_IXUSR
		if syscall.Lstat(dir, &st) == nil && int(st.Uid) == l.uid && st.Mode&wx != wx &&
			syscall.Chmod(dir, uint32(st.Mode&0o7777|wx)) == nil {
			l.restored = append(l.restored, Quarantined{Path: dir, MovedTo: dir,
				Reason: fmt.Sprintf("a directory the run made unwritable, so that what it created there could not be moved aside; its owner's write and search bits are restored (mode %#o, was %#o)", st.Mode&0o7777|wx, st.Mode&0o7777)})
			err = os.Rename(anchor, to)
		}
	}
	if err != nil {
		q.Error = err.Error()
		return q
	}
	rel, err := filepath.Rel(anchor, path)
	if err != nil {
		rel = "."
	}
	q.MovedTo = filepath.Join(to, rel)
	return q
}
