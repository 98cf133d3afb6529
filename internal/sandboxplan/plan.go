package sandboxplan

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/cmdguard/cmdguard/ignore"
	"github.com/cmdguard/cmdguard/internal/agentfiles"
	"github.com/cmdguard/cmdguard/internal/gitdir"
	"github.com/cmdguard/cmdguard/policy"
)

// maxSandboxEntries bounds the directory entries looked at to build one
// sandbox; a larger project refuses the sandbox (with that reason) rather
// than leave part of it unread.
const maxSandboxEntries = 500_000

// Plan is what a sandboxed command of a project runs with, worked out
// before it starts: the fields of exec.Sandbox that depend on the project.
type Plan struct {
	// Hide and Protect are the real paths to hide and to make read-only.
	Hide, Protect []string
	// Absent are protected paths that did not exist; After moves aside
	// what the run created there, and every new policy or ignore file of
	// the project, once the run has ended. Both are nil when Err is set.
	Absent []string
	After  func() []Quarantined
	// Err is why the plan could not be worked out: the sandbox must then
	// be refused (or run without, when it is optional).
	Err error
	// w is what After looks at, and what a run record keeps (Begin).
	w *watch
}

// A Quarantined is a file a sandboxed run created where it must not, as
// exec.Quarantined (the same fields, so that one converts to the other).
type Quarantined struct {
	Path    string // where it was created
	Reason  string // what it would have changed
	MovedTo string // where it is now
	Error   string // why it could not be moved: it is still at Path
}

// New works out the plan of a run in the project at root (a real path)
// under policy pol, whose hide: and protect: patterns starting with ~/
// apply in each of homes (see Homes).
func New(root string, pol *policy.Policy, homes []string) Plan {
	var pl Plan
	var w *watch
	pl.Hide, pl.Protect, w, pl.Err = paths(root, pol, pol.Sandbox(), homes)
	if w != nil {
		pl.w = w
		pl.Absent = w.absentPaths()
		pl.After = w.quarantine
	}
	return pl
}

// Homes returns the home directories whose credentials are hidden: the
// caller's, and every other one a HOME in env names (the request cannot
// move the caller's credentials out of view by setting HOME).
func Homes(env []string) []string {
	var hs []string
	if h, err := os.UserHomeDir(); err == nil && filepath.IsAbs(h) {
		hs = append(hs, filepath.Clean(h))
	}
	for _, kv := range env {
		if h, ok := strings.CutPrefix(kv, "HOME="); ok && filepath.IsAbs(h) && !slices.Contains(hs, filepath.Clean(h)) {
			hs = append(hs, filepath.Clean(h))
		}
	}
	return hs
}

// paths works out the real paths to hide and to protect, and what
// to watch for: protected paths that do not exist yet, and the policy and
// ignore files that do.
func paths(root string, pol *policy.Policy, cfg policy.Sandbox, homes []string) (hide, protect []string, w *watch, err error) {
	// One matcher, loaded afresh for each run (a secret created since
	// the Guard was built is hidden too): the ignore files, then the
	// hide: patterns and, after them, the policy's ignore: patterns, so
	// that a "!" in hide: never re-includes what the policy ignores
	// (hidefiles.go, shared with HideFiles).
	inline, homePats := hidePatterns(cfg.Hide, pol.IgnorePatterns())
	m, err := hideMatcher(root, pol, inline)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("hide patterns: %w", err)
	}
	hw := &hideWalk{m: m, hidden: map[string]bool{}}
	if m.ContainsIgnored("") {
		if err := hw.walk("", root); err != nil {
			return nil, nil, nil, err
		}
	}
	// A hide: path of a home directory that does not exist is watched
	// as an absent protect: path is: a credential or a tool's
	// configuration the command creates there (~/.npmrc with a
	// script-shell, ~/.docker/config.json with a credential helper)
	// would be read by the next command outside the sandbox.
	var hideAbsent []protectedPath
	for _, h := range homes {
		for _, hp := range homePats {
			pat := hp.Text
			p := filepath.Join(h, pat)
			matches, _ := filepath.Glob(p)
			for _, m := range matches {
				hw.add(m)
			}
			if len(matches) == 0 && !hasMeta(pat) {
				hideAbsent = append(hideAbsent, protectedPath{p, WhyHidden})
			}
		}
	}
	if err := hw.hardLinks(root); err != nil {
		return nil, nil, nil, err
	}

	ps, files, dirs, err := protectedPaths(root, pol, cfg, homes)
	if err != nil {
		return nil, nil, nil, err
	}
	w = &watch{root: root, names: watchedNames(pol), files: map[string]bool{}, dirs: dirs}
	for _, f := range files {
		w.files[f] = true
	}
	type evaled struct {
		dir string
		err error
	}
	evals := map[string]evaled{} // the protected paths share their directories
	evalDir := func(d string) (string, error) {
		e, ok := evals[d]
		if !ok {
			e.dir, e.err = filepath.EvalSymlinks(d)
			evals[d] = e
		}
		return e.dir, e.err
	}
	for _, p := range ps {
		chain := linkChain(p.path, evalDir)
		if len(chain) == 0 {
			w.addAbsent(p)
		}
		for _, q := range chain {
			if !slices.Contains(protect, q) {
				protect = append(protect, q)
			}
		}
	}
	for _, p := range hideAbsent {
		w.addAbsent(p)
	}
	if protect, err = protectLinks(root, protect); err != nil {
		return nil, nil, nil, err
	}
	return hw.list, protect, w, nil
}

// hideWalk collects the paths of the project that a matcher ignores.
type hideWalk struct {
	m       *ignore.Matcher
	hidden  map[string]bool
	list    []string
	entries int
}

// add hides the file that p finally names (a symbolic link is followed:
// reading through it reads its target).
func (w *hideWalk) add(p string) {
	real, err := filepath.EvalSymlinks(p)
	if err != nil || w.hidden[real] {
		return
	}
	w.hidden[real] = true
	w.list = append(w.list, real)
}

func (w *hideWalk) count() error {
	if w.entries++; w.entries > maxSandboxEntries {
		return fmt.Errorf("the project has more than %d entries to look at: %w", maxSandboxEntries, ignore.ErrTooManyEntries)
	}
	return nil
}

// walk visits the directories below abs (root-relative rel) that hold
// something ignored, by the index the matcher built while loading. It
// does not descend into .git or into what it hides.
func (w *hideWalk) walk(rel, abs string) error {
	f, err := os.Open(abs)
	if err != nil {
		if rel == "" {
			return fmt.Errorf("read %s: %w", abs, err)
		}
		// The executor cannot hide below a directory it cannot read,
		// and neither can the command read it.
		return nil
	}
	entries, err := f.ReadDir(-1)
	f.Close()
	if err != nil && rel == "" {
		return fmt.Errorf("read %s: %w", abs, err)
	}
	for _, e := range entries {
		if err := w.count(); err != nil {
			return err
		}
		name := e.Name()
		r := name
		if rel != "" {
			r = rel + "/" + name
		}
		isDir := e.IsDir()
		if isDir && name == ".git" {
			continue
		}
		var res ignore.Result
		if e.Type()&fs.ModeSymlink != 0 {
			// A symbolic link is matched as git matches it (a file),
			// and also as what it names, as the gate does.
			res = w.m.MatchPath(r)
		} else {
			res = w.m.Match(r, isDir)
		}
		switch {
		case res.Ignored:
			w.add(abs + "/" + name)
		case isDir && w.m.ContainsIgnored(r):
			if err := w.walk(r, abs+"/"+name); err != nil {
				return err
			}
		}
	}
	return nil
}

type devIno struct{ dev, ino uint64 }

// hardLinks finds the other names of hidden files that have more than
// one: those in the project are hidden too; if some are not found, the
// sandbox cannot hide them, and that is an error.
func (w *hideWalk) hardLinks(root string) error {
	want := map[devIno]uint64{} // links not yet accounted for
	first := map[devIno]string{}
	note := func(p string, st *syscall.Stat_t) {
		if st.Mode&syscall.S_IFMT != syscall.S_IFREG || st.Nlink < 2 {
			return
		}
		k := devIno{uint64(st.Dev), st.Ino}
		if _, seen := want[k]; !seen {
			want[k] = uint64(st.Nlink)
			first[k] = p
		}
		want[k]--
	}
	for _, p := range slices.Clone(w.list) {
		err := filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // unreadable: the command cannot read it either
			}
			if err := w.count(); err != nil {
				return err
			}
			if d.IsDir() || d.Type()&fs.ModeSymlink != 0 {
				return nil
			}
			if fi, err := d.Info(); err == nil {
				if st, ok := fi.Sys().(*syscall.Stat_t); ok {
					note(q, st)
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	open := func() bool {
		for _, n := range want {
			if n > 0 {
				return true
			}
		}
		return false
	}
	if !open() {
		return nil
	}
	// Look for the other names in the whole project, outside what is
	// hidden already.
	found, err := otherLinks(root, want, func(q string) bool { return w.hidden[q] }, w.count)
	if err != nil {
		return err
	}
	for _, q := range found {
		w.add(q)
	}
	for k, n := range want {
		if n > 0 {
			return fmt.Errorf("hidden file %s has %d other hard link(s) outside the project (or its hidden paths) that cannot be hidden: remove them, or the command could read it", first[k], n)
		}
	}
	return nil
}

// linkChain returns the real paths to protect for p: each symbolic link
// on the way from p to what it finally names (so that a dotfile that is a
// link cannot be replaced by a file), and that file. Its directories have
// their links resolved by evalDir (filepath.EvalSymlinks, or a memo of it for
// one plan). A path that does not exist gives nothing.
func linkChain(p string, evalDir func(string) (string, error)) []string {
	var out []string
	for range 16 {
		dir, err := evalDir(filepath.Dir(p))
		if err != nil {
			return out
		}
		p = filepath.Join(dir, filepath.Base(p))
		fi, err := os.Lstat(p)
		if err != nil {
			return out
		}
		out = append(out, p)
		if fi.Mode()&fs.ModeSymlink == 0 {
			return out
		}
		target, err := os.Readlink(p)
		if err != nil {
			return out
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(dir, target)
		}
		p = target
	}
	return out
}

// otherLinks walks root for the regular files that are other names of
// the inodes in want (how many names are still to be found), counting
// them off; it skips the paths (and directories) for which skip is true.
func otherLinks(root string, want map[devIno]uint64, skip func(string) bool, count func() error) ([]string, error) {
	var found []string
	err := filepath.WalkDir(root, func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if err := count(); err != nil {
			return err
		}
		if skip(q) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok {
			return nil
		}
		k := devIno{uint64(st.Dev), st.Ino}
		if n, ok := want[k]; ok && n > 0 {
			want[k]--
			found = append(found, q)
		}
		return nil
	})
	return found, err
}

// protectLinks adds to protect the other names, in the project, of
// protected files that have hard links: a write through one would change
// the protected file. A name it cannot find is an error.
func protectLinks(root string, protect []string) ([]string, error) {
	want := map[devIno]uint64{}
	first := map[devIno]string{}
	isProtected := map[string]bool{}
	for _, p := range protect {
		isProtected[p] = true
	}
	for _, p := range protect {
		fi, err := os.Lstat(p)
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		st, ok := fi.Sys().(*syscall.Stat_t)
		if !ok || st.Nlink < 2 {
			continue
		}
		k := devIno{uint64(st.Dev), st.Ino}
		if _, seen := want[k]; !seen {
			want[k], first[k] = uint64(st.Nlink), p
		}
		want[k]--
	}
	if len(want) == 0 {
		return protect, nil
	}
	n := 0
	count := func() error {
		if n++; n > maxSandboxEntries {
			return fmt.Errorf("the project has more than %d entries to look at: %w", maxSandboxEntries, ignore.ErrTooManyEntries)
		}
		return nil
	}
	found, err := otherLinks(root, want, func(q string) bool { return isProtected[q] }, count)
	if err != nil {
		return nil, err
	}
	protect = append(protect, found...)
	for k, n := range want {
		if n > 0 {
			return nil, fmt.Errorf("protected file %s has %d other hard link(s) outside the project that cannot be protected: a write through one would change it", first[k], n)
		}
	}
	return protect, nil
}

// A protectedPath is a path no command may write, and why.
type protectedPath struct{ path, why string }

// The reasons a Quarantined gives: why a protected path that did not
// exist may not be created.
const (
	WhyGit    = "git reads its configuration and hooks there"
	WhyPolicy = "a policy file: it would govern the commands checked below it"
	WhyIgnore = "an ignore file: its patterns ('!' re-includes) would change what the next check and sandbox hide"
	WhyListed = "listed in the policy's sandbox protect:"
	WhyHidden = "listed in the policy's sandbox hide: the next command outside the sandbox would read it"
	WhyAgent  = "an agent's settings: the agent would read its hooks, permissions or MCP servers from it"
	WhyGitDir = "a new git repository: git would run its hooks and read its config for the commands run below it"
)

// protectedPaths returns the paths no command may write, as found: the
// real git directory's config and hooks (and the .git file that points
// to it), the policy file and its Rego modules, the policy and ignore
// files in the project, and the policy's protect: list. Paths named
// exactly (not by a glob) are returned whether they exist or not. files
// are the policy and ignore files found in the project, and dirs its
// directories as they are (see projectFiles).
func protectedPaths(root string, pol *policy.Policy, cfg policy.Sandbox, homes []string) (ps []protectedPath, files []string, dirs map[string]dirSnap, err error) {
	places, common, _ := gitdir.Places(root)
	if common != "" {
		// A missing hooks directory is created empty, so that it is
		// protected rather than creatable with a hook in it.
		if _, err := os.Lstat(filepath.Join(common, "hooks")); errors.Is(err, fs.ErrNotExist) {
			os.Mkdir(filepath.Join(common, "hooks"), 0o755)
		}
	}
	for _, pl := range places {
		if fi, err := os.Stat(pl.Path); err == nil && fi.IsDir() && !pl.Tree {
			continue // a git directory itself stays writable: git writes its objects and index there
		}
		ps = append(ps, protectedPath{pl.Path, WhyGit})
	}
	// The policy file: the one loaded, or where one would take over from
	// the embedded default.
	if p := pol.Path(); p != "" {
		ps = append(ps, protectedPath{p, WhyPolicy})
	} else {
		ps = append(ps, protectedPath{filepath.Join(root, policy.FileName), WhyPolicy})
	}
	for _, p := range pol.RegoFiles() {
		ps = append(ps, protectedPath{p, WhyPolicy})
	}
	files, dirs, err = projectFiles(root, watchedNames(pol), maxSandboxEntries)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, f := range files {
		if filepath.Base(f) != ".git" { // a git directory stays writable
			ps = append(ps, protectedPath{f, whyFile(f)})
		}
	}
	// The agents' settings, in the project and in each home directory
	// (the same lists path.protected reads): a run must not rewrite
	// the hook that runs the gate, nor add one.
	// One that does not exist is watched only where its directory
	// exists with no symbolic link on the way: the directories above an
	// absent path become mounts of their own, which a missing or linked
	// directory cannot (path.protected still refuses the command).
	// A path whose directory is missing too is watched by its first
	// missing directory (creating .claude, then .claude/settings.json).
	real := map[string]bool{} // realDir's answers: the lists share their directories
	isReal := func(d string) bool {
		r, ok := real[d]
		if !ok {
			r = realDir(d)
			real[d] = r
		}
		return r
	}
	agent := func(base, p string) {
		for {
			_, err := os.Lstat(p)
			d := filepath.Dir(p)
			if err == nil || isReal(d) {
				if !slices.ContainsFunc(ps, func(q protectedPath) bool { return q.path == p }) {
					ps = append(ps, protectedPath{p, WhyAgent})
				}
				return
			}
			if d == base || len(d) <= len(base) {
				return
			}
			p = d
		}
	}
	for _, p := range agentfiles.Project {
		agent(root, filepath.Join(root, p))
	}
	for _, h := range homes {
		for _, p := range agentfiles.Home {
			agent(h, filepath.Join(h, p))
		}
	}
	for _, pt := range cfg.Protect {
		var pats []string
		switch rest, home := strings.CutPrefix(pt.Pattern, "~/"); {
		case home:
			for _, h := range homes {
				pats = append(pats, filepath.Join(h, rest))
			}
		case filepath.IsAbs(pt.Pattern):
			pats = append(pats, filepath.Clean(pt.Pattern))
		default:
			pats = append(pats, filepath.Join(root, pt.Pattern))
		}
		for _, pat := range pats {
			if !hasMeta(pat) {
				ps = append(ps, protectedPath{pat, WhyListed})
				continue
			}
			matches, _ := filepath.Glob(pat)
			for _, m := range matches {
				ps = append(ps, protectedPath{m, WhyListed})
			}
		}
	}
	return ps, files, dirs, nil
}

// realDir reports whether d is an existing directory reached with no
// symbolic link.
func realDir(d string) bool {
	r, err := filepath.EvalSymlinks(d)
	if err != nil || r != d {
		return false
	}
	fi, err := os.Stat(d)
	return err == nil && fi.IsDir()
}

// watchedNames are the names of the files a sandboxed command may not
// create anywhere in the project: policy files, ignore files, and .git
// (a nested repository, or one where there was none).
func watchedNames(pol *policy.Policy) []string {
	return append(pol.IgnoreFiles(), policy.FileName, ".git")
}

// hasMeta reports whether a protect: path is a glob.
func hasMeta(p string) bool { return strings.ContainsAny(p, `*?[\`) }
