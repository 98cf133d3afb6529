package cmdguard

import (
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/cmdguard/cmdguard/exec"
	"github.com/cmdguard/cmdguard/policy"
)

// A watch is what a sandboxed run must not create, looked at once it has
// ended (see exec.Sandbox.After): the kernel can make a file read-only,
// but not keep a name from being created in a directory that must stay
// writable (.git, the home directory, any directory of the project).
// What was created is moved aside, beside where it was made, under a
// name no tool reads, and reported.
type watch struct {
	root   string
	names  []string        // the policy- and ignore-file names
	files  map[string]bool // those found in the project at the start
	absent []absentPath
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

// absentPaths returns the paths for exec.Sandbox.Absent.
func (w *watch) absentPaths() []string {
	out := make([]string, len(w.absent))
	for i, a := range w.absent {
		out[i] = a.path
	}
	return out
}

// quarantine moves aside what the run created: the protected paths that
// were absent, and every policy or ignore file of the project that was
// not there at the start. It is exec.Sandbox.After.
func (w *watch) quarantine() []exec.Quarantined {
	var out []exec.Quarantined
	now := time.Now()
	moved := map[string]bool{}
	for _, a := range w.absent {
		if _, err := os.Lstat(a.path); err != nil || moved[a.anchor] {
			continue
		}
		moved[a.anchor] = true
		out = append(out, moveAside(a.anchor, a.path, a.why, now))
	}
	files, err := ignoreFilesIn(w.root, w.names, maxSandboxEntries)
	if err != nil {
		out = append(out, exec.Quarantined{Path: w.root, Reason: whyIgnore,
			Error: "could not look for new policy and ignore files: " + err.Error()})
	}
	for _, f := range files {
		if w.files[f] {
			continue
		}
		why := whyIgnore
		if filepath.Base(f) == policy.FileName {
			why = whyPolicy
		}
		out = append(out, moveAside(f, f, why, now))
	}
	return out
}

// moveAside renames anchor (which is path or holds it) beside itself.
// Every process of the sandbox has ended: none can swap a directory on
// the way meanwhile.
func moveAside(anchor, path, why string, now time.Time) exec.Quarantined {
	q := exec.Quarantined{Path: path, Reason: why}
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
