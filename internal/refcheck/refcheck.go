package refcheck

import (
	"errors"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cmdguard/cmdguard/ignore"
	"github.com/cmdguard/cmdguard/internal/agentfiles"
	"github.com/cmdguard/cmdguard/internal/gitdir"
	"github.com/cmdguard/cmdguard/internal/sandboxplan"
	"github.com/cmdguard/cmdguard/parser"
	"github.com/cmdguard/cmdguard/policy"
)

// Checker checks file references against one project's state, as it is
// for one check.
type Checker struct {
	// Root is the project root (real path): git resolves REV:PATH from it.
	Root string
	// Ign is the ignore Matcher of the check.
	Ign *ignore.Matcher
	// Protected holds root-relative paths that must never be written
	// (a tree with a trailing /): where git keeps its config and hooks,
	// the policy file. .git/hooks, .git/config, policy files and ignore
	// files are protected whatever it holds.
	Protected []string
	// Start is the directory the command line starts in (absolute): a
	// command's cd steps (parser.Command.Chdirs) are replayed from it as
	// bash does. Empty: the parser's lexical Cwd is used.
	Start string
	// Git is the project's own repository: its configuration is the
	// person's. GitDirEnv is $GIT_DIR of the trusted environment.
	Git       gitdir.Repo
	GitDirEnv string
	// Line is the command line's analysed commands, and At the index of
	// the one being checked (Command): what runs before it on the line
	// may change what git finds (lateWrite). Line nil: nothing is known
	// of the line.
	Line []parser.Command
	At   int
	// Finder remembers where git finds its directory (nil: Find each
	// time).
	Finder *gitdir.Finder
	// HomeEnv is the trusted environment: the caller's home directory
	// and every one a HOME in it names are those whose agents' settings
	// (agentfiles.Home) are protected too (see Homes).
	HomeEnv []string

	homes    []string
	homesSet bool
}

// Homes returns the home directories of HomeEnv, each also by its real
// path, worked out at the first reference that needs them.
func (x *Checker) Homes() []string {
	if !x.homesSet {
		x.homes, x.homesSet = sandboxplan.Homes(x.HomeEnv), true
		for _, h := range x.homes {
			if r, err := filepath.EvalSymlinks(h); err == nil && !slices.Contains(x.homes, r) {
				x.homes = append(x.homes, r)
			}
		}
	}
	return x.homes
}

// Command checks the file references of one analysed command (c is read
// only: it may be the memo's) into out.Files and findings.
func (x *Checker) Command(c *parser.Command, out *policy.Command, findings *[]policy.Finding) {
	c = x.chdir(c, out, findings)
	x.gitConfig(c, findings)
	var gl Globs // each glob expanded once, for both checks
	if !c.CwdDynamic {
		globOptions(c, &gl, findings)
	}
	for i := range c.Files {
		out.Files = x.FileRef(c, &c.Files[i], &gl, out.Files, findings)
	}
	for _, u := range c.Unknown {
		x.unknownRef(c, u, findings)
	}
	out.ProjectFile = x.projectProgram(c)
}

// globOptions reports a glob argument that matches a file whose name
// starts with "-": bash passes the name, and the program reads it as an
// option the gate never saw (sort * next to a file named -o.gitignore
// runs sort -o.gitignore, which overwrites .gitignore; tar * next to
// --checkpoint-action=exec=… runs a program). A literal "--" before it
// does not help: find reads "find -- *" next to a file named -delete as
// "find -delete", deleting the tree. A pattern that starts with a literal
// character cannot match such a name.
func globOptions(c *parser.Command, gl *Globs, findings *[]policy.Finding) {
	for i := 1; i < len(c.Argv); i++ {
		w := &c.Argv[i]
		if !w.Glob || w.Pattern == "" || strings.IndexByte("*?[", w.Pattern[0]) < 0 {
			continue
		}
		matches, err := gl.expand(w.Pattern, c.Cwd)
		if err != nil {
			// Unknown is not harmless: the word may be an option.
			*findings = append(*findings, policy.Finding{Rule: "ignore.unknown_ref", Pos: pos(w.Pos),
				Message: "cannot expand " + quote(w.Value) + " to see whether it names a file that reads as an option: " + err.Error()})
			continue
		}
		for _, m := range matches {
			if strings.HasPrefix(m, "-") {
				*findings = append(*findings, policy.Finding{Rule: "path.glob_option", Pos: pos(w.Pos),
					Message: "the glob " + quote(w.Value) + " matches " + quote(m) + ", which " + filepath.Base(c.Args[0]) + " reads as an option, not a file (name it ./" + w.Value + ")"})
				break
			}
		}
	}
}

// Globs are the glob expansions of one command's check, so that the
// option check and the file references read a directory once.
type Globs []globbed

type globbed struct {
	pat, dir string
	names    []string
	err      error
}

// expand returns parser.Glob(pat, dir), expanding each pattern and
// directory once per check.
func (gl *Globs) expand(pat, dir string) ([]string, error) {
	for _, e := range *gl {
		if e.pat == pat && e.dir == dir {
			return e.names, e.err
		}
	}
	names, err := parser.Glob(pat, dir, os.ReadDir)
	*gl = append(*gl, globbed{pat, dir, names, err})
	return names, err
}

// refCheck collects the findings of one command's file references.
type refCheck struct {
	x        *Checker
	c        *parser.Command
	findings *[]policy.Finding
}

func (rc refCheck) add(rule string, p parser.Pos, msg string) {
	rc.addFrom(rule, p, msg, "")
}

// addFrom adds a finding whose source is a file line (an ignore pattern).
func (rc refCheck) addFrom(rule string, p parser.Pos, msg, source string) {
	*rc.findings = append(*rc.findings, policy.Finding{Rule: rule, Message: msg, Pos: pos(p), Source: source})
}

// enforced marks the finding just added as one the kernel sandbox
// enforces for this instance, saying how (see policy.Finding.Sandbox).
func (rc refCheck) enforced(how string) {
	(*rc.findings)[len(*rc.findings)-1].Sandbox = how
}

// sandboxReads reports whether what the command reads is read through
// the file system the sandbox shapes. git is the exception: it reads the
// object store and the index (git show REV:.env, git diff, git log -p),
// which hold a secret's contents the sandbox does not hide.
func (rc refCheck) sandboxReads() bool {
	return len(rc.c.MatchArgv) > 0 && filepath.Base(rc.c.MatchArgv[0]) != "git"
}

// FileRef checks one file reference of c and appends what it found to
// files (one entry per glob match).
func (x *Checker) FileRef(c *parser.Command, fr *parser.FileRef, gl *Globs, files []policy.File, findings *[]policy.Finding) []policy.File {
	rc := refCheck{x: x, c: c, findings: findings}
	if fr.Write && !fr.Removed && !fr.Dynamic && strings.HasPrefix(filepath.Base(fr.Path), "-") {
		// A file named like an option is a trap for a later glob (sort *
		// next to -o.gitignore runs sort -o.gitignore): creating one is
		// what the glob check would find, a step earlier.
		rc.add("path.glob_option", fr.Pos, "writes "+quote(fr.Path)+", a file whose name starts with -: a glob that matches it passes it to a program as an option")
	}
	f := policy.File{Written: fr.Path, Pos: pos(fr.Pos), Kind: string(fr.Kind), Write: fr.Write, Recursive: fr.Recursive, Dynamic: fr.Dynamic, Maybe: fr.Maybe}
	if fr.Dynamic && fr.Maybe {
		return append(files, f) // a dynamic pattern or option value: nothing to check
	}
	if fr.Dynamic {
		if x.Ign.AnyPatterns() {
			rc.add("ignore.unknown_ref", fr.Pos, quote(fr.Path)+" is not known before it runs: it may name an ignored file")
		}
		return append(files, f)
	}
	base := c.Cwd
	if fr.Kind == parser.RefRev || fr.Top {
		base = x.Root // git resolves REV:PATH and :(top) pathspecs from the top of the work tree
	} else if c.CwdDynamic && !fr.Maybe && !filepath.IsAbs(fr.Path) {
		rc.add("path.dynamic_cwd", fr.Pos, quote(fr.Path)+" is relative to a directory that is not known before it runs")
	}
	if !fr.Glob {
		return append(files, rc.file(base, fr.Path, fr, f))
	}
	matches, err := gl.expand(fr.Pattern, base)
	if err != nil {
		if fr.Maybe {
			return append(files, f)
		}
		rc.add("ignore.unknown_ref", fr.Pos, "cannot expand "+quote(fr.Path)+": "+err.Error())
		return append(files, f)
	}
	if fr.Resplit {
		// An unquoted $f bound to the glob: bash splits each name at
		// blanks and globs it again (the pattern itself when nothing
		// matched).
		names := matches
		if len(names) == 0 {
			names = []string{fr.Path}
		}
		for _, name := range names {
			if strings.ContainsAny(name, " \t\n*?[]\\()") {
				rc.add("ignore.unknown_ref", fr.Pos, quote(name)+" is split and globbed again by bash: unquoted, it names other files (quote it)")
				break
			}
		}
	}
	if len(matches) == 0 {
		return append(files, rc.file(base, fr.Path, fr, f)) // bash passes the pattern itself
	}
	for _, m := range matches {
		f.Written = m
		files = append(files, rc.file(base, m, fr, f))
	}
	return files
}

// file resolves one path against base and checks it against the ignore
// rules, the root and the protected paths.
func (rc refCheck) file(base, name string, fr *parser.FileRef, f policy.File) policy.File {
	x, ign := rc.x, rc.x.Ign
	info, err := ign.Resolve(base, name)
	if err != nil {
		f.Path = name
		if fr.Maybe {
			return f // probably not a path at all
		}
		rc.add("ignore.unknown_ref", fr.Pos, "cannot resolve "+quote(name)+": "+err.Error())
		return f
	}
	f.Exists, f.IsDir = info.Exists, info.IsDir
	f.OutsideRoot = info.Outside || info.RealOutside
	if info.Outside {
		f.Path = info.Abs
	} else {
		f.Path = info.Rel
	}
	rels := [2]string{info.Rel, info.RealRel}
	n := 2
	if info.RealRel == info.Rel {
		n = 1
	}
	for _, rel := range rels[:n] {
		if rel == "" {
			continue
		}
		r, err := match(ign, rel, info)
		if err != nil {
			f.Ignored = true
			rc.add("ignore.error", fr.Pos, "cannot check "+quote(name)+": "+err.Error())
			break
		}
		if r.Ignored && !f.Ignored && fr.Listed {
			// Listed, not read (ls -l, stat, du): its name and size
			// are no secret's contents.
			f.Ignored, f.IgnoredBy = true, r.Source
		} else if r.Ignored && !f.Ignored {
			f.Ignored, f.IgnoredBy = true, r.Source
			by := r.Source
			if by == "builtin" {
				by = "the built-in policy"
			}
			msg := quote(name) + " is ignored by " + by + " (" + r.Pattern + ")"
			if rel != info.Rel {
				msg = quote(name) + " resolves to " + rel + ", which is ignored by " + by + " (" + r.Pattern + ")"
			}
			rc.addFrom("ignore.denied", fr.Pos, msg, r.Source)
			// The sandbox hides the real file: a read of it, not a
			// write, delete or rename, and not git's.
			if rel == info.RealRel && !fr.Write && fr.Kind != parser.RefRev && rc.sandboxReads() {
				rc.enforced("the sandbox hides " + quote(name))
			}
		}
		if (fr.Write || !parser.ReadsOnly(rc.c.MatchArgv)) && x.isProtected(rel) {
			what := ", which steers the gate or git"
			if agentfiles.InProject(rel) {
				what = ", an agent's settings (its hooks, permissions or MCP servers)"
			}
			rc.add("path.protected", fr.Pos, verbOf(fr)+rel+what)
			if x.sandboxProtects(rel) {
				rc.enforced("the sandbox makes " + rel + " read-only")
			}
			break
		}
	}
	if fr.Write && info.IsDir && !f.OutsideRoot && agentfiles.Holds(info.Real) {
		rc.add("path.protected", fr.Pos, "writes "+info.RealRel+", which holds an agent's settings (its hooks, permissions or MCP servers)")
	}
	if fr.Write && !f.OutsideRoot && !x.isProtected(info.RealRel) && gitInternal(info.Real) {
		rc.add("path.protected", fr.Pos, "writes "+info.RealRel+", in a git directory: git runs what its configuration and hooks name")
	} else if fr.Write && !f.OutsideRoot && !x.isProtected(info.RealRel) {
		if gd := x.madeGitDir(info.Real); gd != "" {
			rc.add("path.protected", fr.Pos, "writes "+info.RealRel+", in "+gd+", which git init makes a git directory before it on the line: git runs what its configuration and hooks name")
		}
	}
	if f.OutsideRoot && (fr.Write || !parser.ReadsOnly(rc.c.MatchArgv)) &&
		(agentfiles.InHome(info.Abs, x.Homes()) || agentfiles.InHome(info.Real, x.Homes())) {
		rc.add("path.protected", fr.Pos, verbOf(fr)+info.Real+", an agent's settings (its hooks, permissions or MCP servers)")
	}
	if f.OutsideRoot && !fr.Maybe {
		where := info.Abs
		if !info.Outside {
			where = info.Real
		}
		msg := quote(name) + " is outside the project " + x.Root
		if where != name {
			msg += " (" + where + ")"
		}
		rc.add("path.outside_root", fr.Pos, msg)
	}
	if fr.Recursive && !fr.Listed && !fr.Maybe && info.IsDir && !f.Ignored && !f.OutsideRoot {
		rc.recursive(fr, name, info.RealRel, !fr.Write && rc.sandboxReads())
	}
	return f
}

// verbOf says how a command touches a protected path: it writes it, or
// names it to a program that may write through an option the gate does
// not know.
func verbOf(fr *parser.FileRef) string {
	if fr.Write {
		return "writes "
	}
	return "names "
}

// recursive checks a directory that a program reads recursively: it
// walks the directory's subtree (bounded, cached by the Matcher).
// read says the program only reads the tree (what the sandbox hides is
// then not read).
func (rc refCheck) recursive(fr *parser.FileRef, name, rel string, read bool) {
	p := fr.Pos
	var found bool
	var err error
	if fr.Filter != nil {
		// Only what the filter lets through is read (a git pathspec,
		// grep --include, rg -g/-t): walk the tree with it.
		found, err = fr.ReachesIgnored(rc.x.lister(rel), rc.x.ignoredUnder(rel), walkLimit)
		if errors.Is(err, parser.ErrWalkLimit) {
			err = ignore.ErrTooManyEntries
		}
	} else {
		found, err = rc.x.Ign.CheckDir(rel)
	}
	switch {
	case errors.Is(err, ignore.ErrTooManyEntries):
		rc.add("ignore.walk_limit", p, quote(name)+" is read recursively and holds more entries than the gate walks ("+err.Error()+"): what lies beyond is unknown")
	case err != nil:
		rc.add("ignore.error", p, "cannot check "+quote(name)+": "+err.Error())
	case found:
		what := " contains ignored files and is read recursively"
		if fr.Filter != nil {
			what = " contains ignored files that " + fr.Filter.String() + " lets through, and is read recursively"
		}
		rc.add("ignore.contains_ignored", p, quote(name)+what)
		if read {
			rc.enforced("the sandbox hides the ignored files in " + quote(name))
		}
	}
}

// match matches a root-relative path: as what it is when it exists, else
// as both file and directory.
func match(ign *ignore.Matcher, rel string, info ignore.PathInfo) (ignore.Result, error) {
	if rel == "." {
		return ignore.Result{}, nil
	}
	if info.Exists {
		return ign.MatchErr(rel, info.IsDir)
	}
	return ign.MatchPathErr(rel)
}

// isProtected reports whether a write to the root-relative path rel could
// change what the gate, git or an agent runs: .git/hooks, .git/config,
// the .git directory itself, policy files, ignore files and the agents'
// settings (agentfiles.Project).
func (x *Checker) isProtected(rel string) bool {
	switch {
	case rel == ".git", rel == ".git/config", rel == ".git/hooks", len(rel) > 10 && rel[:10] == ".git/hooks" && rel[10] == '/':
		return true
	case path.Base(rel) == policy.FileName, x.Ign.IsIgnoreFile(rel):
		return true
	case nestedGitInternal(rel), agentfiles.InProject(rel):
		return true
	}
	for _, p := range x.Protected {
		if rel == p || strings.HasSuffix(p, "/") && (rel == p[:len(p)-1] || strings.HasPrefix(rel, p)) {
			return true
		}
	}
	return false
}

// sandboxProtects reports whether the sandbox keeps a write to the
// protected root-relative path rel from taking effect: it mounts the
// project's git config and hooks (Protected), the policy files and the
// ignore files read-only, and moves aside any such file the command
// creates. A nested repository's git directory and the .git directory
// itself stay writable there.
func (x *Checker) sandboxProtects(rel string) bool {
	if path.Base(rel) == policy.FileName || x.Ign.IsIgnoreFile(rel) || agentfiles.InProject(rel) {
		return true
	}
	for _, p := range x.Protected {
		if rel == p || strings.HasSuffix(p, "/") && strings.HasPrefix(rel, p) {
			return rel != ".git"
		}
	}
	return false
}

// unknownRef checks an argument the gate cannot see (xargs stdin, find's
// {}): it is a finding unless the place it comes from is known to hold no
// ignored file.
func (x *Checker) unknownRef(c *parser.Command, u parser.UnknownRef, findings *[]policy.Finding) {
	ign := x.Ign
	if !ign.AnyPatterns() {
		return
	}
	rc := refCheck{x: x, c: c, findings: findings}
	if len(u.From) == 0 || c.CwdDynamic {
		rc.add("ignore.unknown_ref", u.Pos, u.Message)
		rc.unknownEnforced()
		return
	}
	for _, from := range u.From {
		info, err := ign.Resolve(c.Cwd, from)
		if err != nil || info.Outside || info.RealOutside {
			rc.add("ignore.unknown_ref", u.Pos, u.Message+" ("+quote(from)+" holds ignored files)")
			rc.unknownEnforced()
			return
		}
		r1, err1 := match(ign, info.Rel, info)
		r2, err2 := match(ign, info.RealRel, info)
		found, err3 := ign.CheckDir(info.RealRel)
		switch err := errors.Join(err1, err2, err3); {
		case err != nil:
			rc.add("ignore.unknown_ref", u.Pos, u.Message+" ("+quote(from)+" may hold ignored files: "+err.Error()+")")
			rc.unknownEnforced()
			return
		case found || r1.Ignored || r2.Ignored:
			rc.add("ignore.unknown_ref", u.Pos, u.Message+" ("+quote(from)+" holds ignored files)")
			rc.unknownEnforced()
			return
		}
	}
}

// unknownEnforced marks the unknown argument just reported as one the
// sandbox enforces when the command only reads what it is given: any
// ignored file it names is hidden.
func (rc refCheck) unknownEnforced() {
	if parser.ReadsOnly(rc.c.MatchArgv) && rc.sandboxReads() {
		rc.enforced("the sandbox hides every ignored file " + filepath.Base(rc.c.MatchArgv[0]) + " could be given")
	}
}

func quote(s string) string {
	if s == "" {
		return `""`
	}
	return "'" + s + "'"
}

// nestedGitInternal reports a path into the git directory of any
// repository in the tree (a nested repository or a vendored one runs its
// own hooks): .git itself, .git/config, .git/hooks and what is under it.
func nestedGitInternal(rel string) bool {
	for i := strings.Index(rel, ".git"); i >= 0; {
		if i == 0 || rel[i-1] == '/' {
			switch rest := rel[i+4:]; {
			case rest == "", rest == "/config", rest == "/hooks", strings.HasPrefix(rest, "/hooks/"):
				return true
			}
		}
		j := strings.Index(rel[i+4:], ".git")
		if j < 0 {
			break
		}
		i += 4 + j
	}
	return false
}

func pos(p parser.Pos) policy.Pos { return policy.Pos{Line: p.Line, Col: p.Col} }

// walkLimit bounds the entries a filtered recursive read's walk visits
// (an unfiltered one uses the Matcher's cached CheckDir and its bound).
const walkLimit = 100_000

// lister lists the directories under the root-relative dir for a
// filtered walk: a symbolic link is not a directory (grep -r, rg and git
// do not follow links inside the tree).
func (x *Checker) lister(dir string) func(string) ([]parser.DirEntry, error) {
	return func(sub string) ([]parser.DirEntry, error) {
		ents, err := os.ReadDir(filepath.Join(x.Root, dir, sub))
		if err != nil {
			return nil, err
		}
		out := make([]parser.DirEntry, len(ents))
		for i, e := range ents {
			out[i] = parser.DirEntry{Name: e.Name(), IsDir: e.IsDir()}
		}
		return out, nil
	}
}

// ignoredUnder matches paths under the root-relative dir against the
// ignore rules.
func (x *Checker) ignoredUnder(dir string) func(string, bool) (bool, error) {
	return func(rel string, isDir bool) (bool, error) {
		r, err := x.Ign.MatchErr(path.Join(dir, rel), isDir)
		return r.Ignored, err
	}
}
