package ignore

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
)

// DefaultMaxEntries is the walk bound used when Options.MaxEntries is zero.
const DefaultMaxEntries = 1_000_000

// maxFileSize bounds one ignore file; a larger one is an error.
const maxFileSize = 16 << 20

// AlwaysFile is the ignore-file name that Load reads whatever the options say.
const AlwaysFile = ".cmdguardignore"

// ErrTooManyEntries is returned (wrapped) by Load when the project tree has
// more entries than Options.MaxEntries. Load does not return a partial
// Matcher: ignore files beyond the bound would go unread.
var ErrTooManyEntries = errors.New("too many directory entries")

// DefaultFiles returns the ignore-file names read when Options.Files is
// empty (docs/contract.md, "What is checked"). Each call returns a new slice.
func DefaultFiles() []string {
	return []string{AlwaysFile, ".kilocodeignore", ".rooignore", ".clineignore",
		".geminiignore", ".cursorignore", ".aiexclude"}
}

// Options configures Load. The zero Options reads DefaultFiles with no
// inline patterns and the default walk bound.
type Options struct {
	// Files lists ignore-file names (base names, e.g. ".rooignore"), read
	// in the root and in every subdirectory. Empty means DefaultFiles;
	// AlwaysFile is added when missing.
	Files []string
	// Patterns are inline patterns (the policy's ignore: list), matched
	// as if written in a file in the root.
	Patterns []Pattern
	// MaxEntries bounds the number of directory entries Load visits;
	// zero means DefaultMaxEntries. A larger tree makes Load fail with
	// ErrTooManyEntries.
	MaxEntries int
	// FoldCase makes ASCII letters match in either case, as git does
	// with core.ignorecase (and with its quirks: see the package doc).
	// Load also folds case by itself when it finds the root on a
	// case-insensitive file system (as macOS and Windows use by
	// default), where ".ENV" opens ".env".
	FoldCase bool
}

// Result is the answer for one path.
//
// Ignored reports the verdict. Source and Pattern name the pattern that
// decided it, as git check-ignore -v does: for an ignored path the
// excluding pattern (for a path under an ignored directory, the pattern
// that excluded the directory), and for a path that is not ignored a
// negation pattern ("!keep.env") that re-included it, if any. Both are
// empty when no pattern matched.
type Result struct {
	Ignored bool
	Source  string // "sub/.rooignore:3", or an inline Pattern's Source
	Pattern string // the pattern as written (trailing spaces trimmed)
}

// Matcher answers whether paths under one project root are ignored, with
// git's semantics, by the ignore files found there at Load time.
//
// Each ignore-file name is a separate ignore system, as each agent that
// honours one reads only its own: the .rooignore files of a tree form one
// git-style stack (a deeper file overrides a shallower one, a later line
// an earlier one), the .cursorignore files another, and the inline
// patterns a third. A path is ignored if any of them ignores it, so a '!'
// in one file can never re-include what another file excludes.
//
// A Matcher is immutable after Load and safe for concurrent use. It is a
// snapshot: files created later are matched by pattern, but ignore files
// created later are not read and ContainsIgnored reports true for
// directories it has not indexed; call Load again to refresh. The zero
// Matcher (and a nil *Matcher) has no patterns: it ignores nothing and
// ContainsIgnored always reports true.
type Matcher struct {
	root  string
	real  string             // root with symlinks resolved, at Load time
	fold  bool               // ASCII case folding: keys below are lower case
	names map[string]int     // ignore-file name → set index; inline patterns use set len(names)
	sets  int                // len(names) + 1
	dirs  map[string][]*list // directory → one list per set (nil where none)
	files []string           // ignore files read, relative to root
	clean map[string]bool    // directories fully indexed with nothing ignored at or below
}

// Load reads the ignore files under root (an absolute directory) and the
// inline patterns, and indexes the tree for ContainsIgnored.
//
// It walks the tree once, without following symbolic links and skipping
// .git directories. As git does, it does not descend into ignored
// directories: everything below one is ignored by the directory's pattern,
// so an ignore file inside cannot change any answer. A subdirectory that
// cannot be listed is not an error; it counts as containing ignored files.
// An ignore file that cannot be read or holds a malformed pattern is an
// error (an *Error with file:line), never silently empty.
func Load(root string, opts Options) (*Matcher, error) {
	if !filepath.IsAbs(root) {
		return nil, fmt.Errorf("ignore: root %q is not absolute", root)
	}
	root = filepath.Clean(root)
	real, exists, isDir, err := realpath("/", root)
	switch {
	case err != nil:
		return nil, fmt.Errorf("ignore: %w", err)
	case !exists || !isDir:
		return nil, fmt.Errorf("ignore: root %s is not a directory", root)
	}
	files := opts.Files
	if len(files) == 0 {
		files = DefaultFiles()
	}
	m := &Matcher{
		root:  root,
		real:  real,
		fold:  opts.FoldCase || caseInsensitive(root),
		names: map[string]int{},
		dirs:  map[string][]*list{},
		clean: map[string]bool{},
	}
	for _, name := range append([]string{AlwaysFile}, files...) {
		if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\x00") {
			return nil, fmt.Errorf("ignore: ignore-file name %q is not a base name", name)
		}
		if _, dup := m.names[m.key(name)]; !dup {
			m.names[m.key(name)] = len(m.names)
		}
	}
	m.sets = len(m.names) + 1
	if len(opts.Patterns) > 0 {
		pats := make([]pattern, 0, len(opts.Patterns))
		for _, p := range opts.Patterns {
			pt, err := compileInline(p, m.fold)
			if err != nil {
				return nil, fmt.Errorf("ignore: %w", err)
			}
			pats = append(pats, pt)
		}
		m.lists("")[m.sets-1] = newList("", pats)
	}
	w := &walker{m: m, max: opts.MaxEntries}
	if w.max <= 0 {
		w.max = DefaultMaxEntries
	}
	if _, err := w.walk("", root); err != nil {
		return nil, err
	}
	w.resolveLinks()
	slices.Sort(m.files)
	return m, nil
}

func compileInline(p Pattern, fold bool) (pattern, error) {
	if strings.ContainsAny(p.Text, "\n\r") {
		return pattern{}, &Error{Source: p.Source, Text: p.Text, Err: errNewline}
	}
	text := trimTrailingSpaces(p.Text)
	if text == "" || text[0] == '#' {
		return pattern{}, &Error{Source: p.Source, Text: p.Text, Err: errEmpty}
	}
	return compile(text, p.Source, fold)
}

// key returns p as stored in the Matcher's maps: lower case when folding.
func (m *Matcher) key(p string) string {
	if m.fold {
		return asciiLower(p)
	}
	return p
}

// caseInsensitive probes whether the file system holding root ignores
// case: it looks up an entry of root, or root itself, under a name with
// the case of its letters swapped.
func caseInsensitive(root string) bool {
	same := func(dir, name string) (bool, bool) {
		swapped := []byte(name)
		for i, c := range swapped {
			if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
				swapped[i] = c ^ 0x20
			}
		}
		if string(swapped) == name {
			return false, false
		}
		a, err1 := os.Lstat(filepath.Join(dir, name))
		b, err2 := os.Lstat(filepath.Join(dir, string(swapped)))
		return err1 == nil && err2 == nil && os.SameFile(a, b), true
	}
	if entries, err := os.ReadDir(root); err == nil {
		for _, e := range entries {
			if insensitive, probed := same(root, e.Name()); probed {
				return insensitive
			}
		}
	}
	insensitive, _ := same(filepath.Dir(root), filepath.Base(root))
	return insensitive
}

// lists returns the per-set lists of dir, creating them.
func (m *Matcher) lists(dir string) []*list {
	dir = m.key(dir)
	ls := m.dirs[dir]
	if ls == nil {
		ls = make([]*list, m.sets)
		m.dirs[dir] = ls
	}
	return ls
}

// Root returns the cleaned absolute root given to Load.
func (m *Matcher) Root() string {
	if m == nil {
		return ""
	}
	return m.root
}

// Files returns the ignore files read by Load, relative to the root and
// slash-separated, sorted. The caller may modify the returned slice.
func (m *Matcher) Files() []string {
	if m == nil {
		return nil
	}
	return slices.Clone(m.files)
}

// IsIgnoreFile reports whether the last component of p is one of the
// ignore-file names, wherever it is: writing such a file (even a new one)
// could change what is ignored.
func (m *Matcher) IsIgnoreFile(p string) bool {
	if m == nil {
		return false
	}
	_, ok := m.names[m.key(lastComponent(strings.TrimRight(p, "/")))]
	return ok
}

// Match reports whether p is ignored. p is relative to the root
// (slash-separated; it is cleaned) or absolute inside the root; a trailing
// '/' marks a directory, as does isDir. The root itself and paths outside
// it are never ignored: check those with Resolve. Match does not touch the
// file system, does not resolve symlinks, and allocates nothing for a
// clean path (without case folding).
func (m *Matcher) Match(p string, isDir bool) Result {
	if strings.HasSuffix(p, "/") {
		isDir = true
	}
	rel, ok := m.rel(p)
	if !ok {
		return Result{}
	}
	return m.match(rel, isDir)
}

// MatchPath reports whether p is ignored either as a file or as a
// directory: the check for a path whose type is unknown, such as one that
// does not exist yet. The ignoring result is returned when there is one.
func (m *Matcher) MatchPath(p string) Result {
	rel, ok := m.rel(p)
	if !ok {
		return Result{}
	}
	r := m.match(rel, false)
	if r.Ignored {
		return r
	}
	if d := m.match(rel, true); d.Ignored {
		return d
	}
	return r
}

// MatchRef is the gate's check of one file reference: it resolves name
// against cwd and the Matcher's root (see Resolve; ~ and $HOME must be
// expanded already) and reports the reference ignored when its written
// path or its real path is. An existing path is matched with the type of
// what it finally names (a symlink to a directory counts as a directory);
// a missing one with MatchPath. The Result is the ignoring one, else that
// of the written path. Paths outside the root are not ignored: see
// PathInfo.Outside and RealOutside.
func (m *Matcher) MatchRef(cwd, name string) (PathInfo, Result, error) {
	info, err := m.Resolve(cwd, name)
	if err != nil {
		return info, Result{}, err
	}
	match := func(rel string) Result {
		if info.Exists {
			return m.Match(rel, info.IsDir)
		}
		return m.MatchPath(rel)
	}
	var written Result
	if !info.Outside {
		written = match(info.Rel)
	}
	if !written.Ignored && !info.RealOutside && info.RealRel != info.Rel {
		if r := match(info.RealRel); r.Ignored {
			return info, r, nil
		}
	}
	return info, written, nil
}

// ContainsIgnored reports whether directory dir (as for Match) or
// anything below it is ignored, from the index built by Load: one map
// lookup, no file system access. It answers true, conservatively, for a
// directory that Load did not index fully: one that did not exist or
// could not be listed, an ignored directory and everything below it, .git,
// a path that is not a directory, and anything outside the root. Symbolic links count by their
// targets: a link to an ignored file, to a directory that contains ignored
// files, or to anything outside the root makes its directory report true.
func (m *Matcher) ContainsIgnored(dir string) bool {
	if m == nil {
		return true
	}
	rel, ok := m.rel(dir)
	if !ok {
		if rel != "." {
			return true
		}
		rel = ""
	}
	return !m.clean[m.key(rel)]
}

// rel turns p into a clean root-relative path. It reports false for the
// root itself (returning ".") and for paths outside the root.
func (m *Matcher) rel(p string) (string, bool) {
	if m == nil {
		return "", false
	}
	p = path.Clean(p)
	if path.IsAbs(p) {
		switch {
		case m.root == "":
			return "", false
		case p == m.root:
			return ".", false
		case m.root == "/":
			p = p[1:]
		case strings.HasPrefix(p, m.root) && p[len(m.root)] == '/':
			p = p[len(m.root)+1:]
		default:
			return "", false
		}
	}
	if p == "." {
		return ".", false
	}
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", false
	}
	return p, true
}

// match implements git's rules for a clean relative path: first each
// ancestor directory, from the top, may be excluded (then everything
// below is, whatever later patterns say); then the path itself is decided
// by the last matching pattern of the deepest ignore file that has one.
func (m *Matcher) match(p string, isDir bool) Result {
	p = m.key(p)
	budget := wmBudget
	var buf [32][]*list
	top, ok := m.dirs[""]
	chain := append(buf[:0], top)
	// Only the root has lists: skip the per-directory lookups.
	nested := len(m.dirs) > 1 || (len(m.dirs) == 1 && !ok)
	for i := 0; i < len(p); i++ {
		if p[i] != '/' {
			continue
		}
		dir := p[:i]
		for s := 0; s < m.sets; s++ {
			if pt := decide(chain, s, dir, true, &budget); pt != nil && !pt.negate {
				return Result{Ignored: true, Source: pt.source, Pattern: pt.text}
			}
		}
		if nested {
			if ls := m.dirs[dir]; ls != nil {
				chain = append(chain, ls)
			}
		}
	}
	var neg *pattern
	for s := 0; s < m.sets; s++ {
		pt := decide(chain, s, p, isDir, &budget)
		switch {
		case pt == nil:
		case !pt.negate:
			return Result{Ignored: true, Source: pt.source, Pattern: pt.text}
		case neg == nil:
			neg = pt
		}
	}
	if neg != nil {
		return Result{Source: neg.source, Pattern: neg.text}
	}
	return Result{}
}

// decide returns the pattern of set s that decides p: the last matching
// one in the deepest list of the chain that has a match.
func decide(chain [][]*list, s int, p string, isDir bool, budget *int) *pattern {
	for j := len(chain) - 1; j >= 0; j-- {
		if chain[j] == nil {
			continue
		}
		if l := chain[j][s]; l != nil {
			if i := l.match(p, isDir, budget); i >= 0 {
				return &l.pats[i]
			}
		}
	}
	return nil
}

// walker is Load's single pass over the tree.
type walker struct {
	m     *Matcher
	max   int
	count int
	links []link
}

// link is a symbolic link found by the walk, judged after the walk when
// every ignore file is known.
type link struct {
	dir string // directory holding the link, relative to root
	rel string // the link, relative to root
}

// walk reads the ignore files of directory rel, then indexes its entries
// and recurses into the subdirectories that are not ignored. It reports
// whether nothing at or below rel is ignored.
func (w *walker) walk(rel, abs string) (bool, error) {
	m := w.m
	entries, err := os.ReadDir(abs)
	if err != nil {
		if rel == "" {
			return false, fmt.Errorf("ignore: %w", err)
		}
		return false, nil
	}
	for _, e := range entries {
		s, ok := m.names[m.key(e.Name())]
		if !ok || e.IsDir() {
			continue
		}
		file := join(rel, e.Name())
		pats, err := readIgnoreFile(filepath.Join(abs, e.Name()), file, m.fold)
		if err != nil {
			return false, fmt.Errorf("ignore: %w", err)
		}
		m.lists(rel)[s] = newList(m.key(rel), pats)
		m.files = append(m.files, file)
	}
	clean := true
	for _, e := range entries {
		if w.count++; w.count > w.max {
			return false, fmt.Errorf("ignore: walk of %s: more than %d entries: %w", m.root, w.max, ErrTooManyEntries)
		}
		name := e.Name()
		p := join(rel, name)
		switch t := e.Type(); {
		case t&fs.ModeSymlink != 0:
			w.links = append(w.links, link{dir: rel, rel: p})
			if m.match(p, false).Ignored {
				clean = false
			}
		case t.IsDir():
			if name == ".git" {
				continue
			}
			if m.match(p, true).Ignored {
				clean = false
				continue
			}
			sub, err := w.walk(p, filepath.Join(abs, name))
			if err != nil {
				return false, err
			}
			clean = clean && sub
		default:
			if m.match(p, false).Ignored {
				clean = false
			}
		}
	}
	if clean {
		m.clean[m.key(rel)] = true
	}
	return clean, nil
}

// resolveLinks marks the directory of each symlink unclean when the
// link's target is ignored, outside the root, unresolvable, or a
// directory that is not clean (repeated until nothing changes, so chains
// of directory links settle).
func (w *walker) resolveLinks() {
	m := w.m
	type dep struct{ dir, target string }
	var deps []dep
	for _, l := range w.links {
		info, err := resolve(m.root, m.real, "", l.rel)
		if err != nil || info.RealOutside {
			w.dirty(m.key(l.dir))
			continue
		}
		r := m.MatchPath(info.RealRel)
		if info.Exists {
			r = m.Match(info.RealRel, info.IsDir)
		}
		if r.Ignored {
			w.dirty(m.key(l.dir))
			continue
		}
		if info.IsDir {
			target := info.RealRel
			if target == "." {
				target = ""
			}
			deps = append(deps, dep{m.key(l.dir), m.key(target)})
		}
	}
	for changed := true; changed; {
		changed = false
		for _, d := range deps {
			if m.clean[d.dir] && !m.clean[d.target] {
				w.dirty(d.dir)
				changed = true
			}
		}
	}
}

// dirty removes dir (a map key) and its ancestors from the clean set.
func (w *walker) dirty(dir string) {
	for {
		delete(w.m.clean, dir)
		if dir == "" {
			return
		}
		dir = path.Dir(dir)
		if dir == "." {
			dir = ""
		}
	}
}

// readIgnoreFile reads and compiles one ignore file; name is its
// root-relative path, used in sources.
func readIgnoreFile(abs, name string, fold bool) ([]pattern, error) {
	// O_NONBLOCK: a FIFO planted under an ignore-file name must not hang
	// Load; it is refused below like any other non-regular file.
	f, err := os.OpenFile(abs, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, &Error{Source: name, Err: err}
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil {
		return nil, &Error{Source: name, Err: err}
	} else if !fi.Mode().IsRegular() {
		return nil, &Error{Source: name, Err: fmt.Errorf("not a regular file (%s)", fi.Mode().Type())}
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, &Error{Source: name, Err: err}
	}
	if len(data) > maxFileSize {
		return nil, &Error{Source: name, Err: fmt.Errorf("larger than %d bytes", maxFileSize)}
	}
	var pats []pattern
	err = lines(data, func(n int, text string) error {
		pt, err := compile(text, source(name, n), fold)
		pats = append(pats, pt)
		return err
	})
	return pats, err
}

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}
