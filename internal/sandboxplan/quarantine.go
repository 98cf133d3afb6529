package sandboxplan

import (
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
// the start: it reads again only the directories that changed, and
// walks whole the directories that are new.
func (w *watch) newFiles() ([]string, error) {
	var out []string
	entries := 0
	for dir, snap := range w.dirs {
		var st syscall.Stat_t
		if err := syscall.Lstat(dir, &st); err != nil {
			continue // gone: its parent changed, and shows what replaced it
		}
		if !snap.recent && (dirSnap{uint64(st.Dev), st.Ino, ctime(&st), false}) == snap {
			continue
		}
		des, err := os.ReadDir(dir)
		if err != nil {
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
				files, _, err := projectFiles(p, w.names, maxSandboxEntries-entries)
				if err != nil {
					return out, err
				}
				entries += len(files)
				out = append(out, files...)
			case slices.Contains(w.names, d.Name()) && !w.files[p]:
				out = append(out, p)
			}
			if entries++; entries > maxSandboxEntries {
				return out, fmt.Errorf("more than %d entries below %s", maxSandboxEntries, w.root)
			}
		}
	}
	slices.Sort(out)
	return out, nil
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
// not there at the start. It is Plan.After.
func (w *watch) quarantine() []Quarantined {
	var out []Quarantined
	now := time.Now()
	moved := map[string]bool{}
	for _, a := range w.absent {
		if _, err := os.Lstat(a.path); err != nil || moved[a.anchor] {
			continue
		}
		moved[a.anchor] = true
		out = append(out, moveAside(a.anchor, a.path, a.why, now))
	}
	files, err := w.newFiles()
	if err != nil {
		out = append(out, Quarantined{Path: w.root, Reason: WhyIgnore,
			Error: "could not look for new policy and ignore files: " + err.Error()})
	}
	for _, f := range files {
		if w.files[f] {
			continue
		}
		out = append(out, moveAside(f, f, whyFile(f), now))
	}
	return out
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

// moveAside renames anchor (which is path or holds it) beside itself.
// Every process of the sandbox has ended: none can swap a directory on
// the way meanwhile.
func moveAside(anchor, path, why string, now time.Time) Quarantined {
	q := Quarantined{Path: path, Reason: why}
	to := anchor + ".cmdguard-quarantined-" + now.UTC().Format("20060102T150405.000000000Z")
	if err := os.Rename(anchor, to); err != nil {
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
