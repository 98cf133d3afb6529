package refcheck

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/cmdguard/cmdguard/internal/gitdir"
	"github.com/cmdguard/cmdguard/parser"
)

// gitLayout are the entries that make a directory a git directory for
// git's discovery (is_git_directory), or that it reads there first: a
// write of one in a directory discovery passes through may make git stop
// there instead.
var gitLayout = []string{".git", "HEAD", "objects", "refs", "commondir"}

// lateWrite says why a write the command line makes before the git
// command at x.At runs (or while it runs: a background job, a loop) may
// change which git directory it uses, or what it reads there, after the
// gate looked: a write inside gitDir or its common directory (unless it
// is the project's own, whose files are protected paths), a .git, HEAD,
// objects, refs or commondir in a directory git's discovery from from
// passes through. "" when none may. (A write of a file an include names is the missing include's
// case: see gitConfig.)
func (x *Checker) lateWrite(from, gitDir string, own bool) string {
	if x.At < 0 || x.At >= len(x.Line) {
		return ""
	}
	var passed []string // resolved lazily: only a line that writes pays
	resolved := false
	for j := range x.Line {
		if j == x.At || !parser.RunsBefore(x.Line, j, x.At) {
			continue
		}
		// Another writer that cannot list its files (tar x, unzip,
		// curl -O) may write any, a .git/hooks file too: the policy
		// that allows it decides that, here as anywhere (the sandbox
		// protects .git).
		w := &x.Line[j]
		paths, placed := parser.WritePaths(w)
		// (git init and clone write a git directory of their own, fresh
		// but for what its own check vets: otherGitDirs.)
		tree := !placed && parser.WritesGitTree(w) && w.MatchArgv[1] != "init" && w.MatchArgv[1] != "clone"
		if len(paths) == 0 && !tree {
			continue
		}
		if !resolved {
			passed, resolved = discoveryPasses(from, gitDir), true
		}
		// git's own writes of the work tree are what the repository
		// holds, which a git add made: a HEAD among them, in a
		// directory discovery passes through, makes it a git directory.
		if tree && len(passed) > 0 {
			return "git " + w.MatchArgv[1] + " before it on the line writes files of the work tree the gate cannot name, in " + passed[0] + " or above, where git looks for its directory: what git finds there is not known before it runs"
		}
		for _, p := range paths {
			if why := x.lateWritePath(p, passed, gitDir, own); why != "" {
				return "a command before it on the line writes " + p + why + ": what git finds there is not known before it runs"
			}
		}
	}
	return ""
}

// lateWritePath says why a write of p matters to git (see lateWrite).
func (x *Checker) lateWritePath(p string, passed []string, gitDir string, own bool) string {
	parent := filepath.Dir(p)
	if r, err := filepath.EvalSymlinks(parent); err == nil {
		parent = r
	}
	rp := filepath.Join(parent, filepath.Base(p))
	if gitDir != "" && !own {
		for _, d := range []string{gitdir.Real(gitDir), commonOf(gitDir)} {
			if d != "" && inside(d, rp) {
				return ", inside " + d + ", the git directory git uses"
			}
		}
	}
	for _, d := range passed {
		rel, err := filepath.Rel(d, rp)
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
			continue
		}
		first, _, _ := strings.Cut(rel, "/")
		for _, n := range gitLayout {
			if first == n {
				return ", " + n + " in " + d + ", where git looks for its directory"
			}
		}
	}
	return ""
}

// commonOf is the real common directory of gitDir ("" when it cannot
// be read).
func commonOf(gitDir string) string {
	c, err := gitdir.Common(gitDir)
	if err != nil {
		return ""
	}
	return gitdir.Real(c)
}

// discoveryPasses returns the directories (real paths) git's discovery
// from from looks in without stopping: from and each one above it up to
// the one holding a .git (or that is gitDir), all up to / when git found
// none. None when an option named the git directory (from is "").
func discoveryPasses(from, gitDir string) []string {
	if from == "" {
		return nil
	}
	if r, err := filepath.EvalSymlinks(from); err == nil {
		from = r
	}
	real := ""
	if gitDir != "" {
		real = gitdir.Real(gitDir)
	}
	var out []string
	for d := from; ; d = filepath.Dir(d) {
		if d == real {
			break // a bare repository: gitDir's own files count
		}
		g := filepath.Join(d, ".git")
		if fi, err := os.Lstat(g); err == nil && real != "" && (fi.Mode().IsRegular() || gitdir.Real(g) == real) {
			break // discovery stops at this .git (a file: protected by its name)
		}
		out = append(out, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	return out
}
