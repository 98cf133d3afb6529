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
	"sync"
	"sync/atomic"
	"time"
)

// DefaultMaxEntries is the walk bound used when Options.MaxEntries is zero.
const DefaultMaxEntries = 100_000

// maxFileSize bounds one ignore file; a larger one is an error.
const maxFileSize = 16 << 20

// AlwaysFile is the ignore-file name that Load reads whatever the options say.
const AlwaysFile = ".cmdguardignore"

// ErrTooManyEntries is returned (wrapped) by [Matcher.CheckDir] when the
// subtree it must walk has more entries than Options.MaxEntries: what
// lies beyond the bound is unknown.
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
	// MaxEntries bounds the number of directory entries one walk of a
	// subtree visits (see [Matcher.CheckDir]); zero means
	// DefaultMaxEntries.
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
// git's semantics.
//
// Each ignore-file name is a separate ignore system, as each agent that
// honours one reads only its own: the .rooignore files of a tree form one
// git-style stack (a deeper file overrides a shallower one, a later line
// an earlier one), the .cursorignore files another, and the inline
// patterns a third. A path is ignored if any of them ignores it, so a '!'
// in one file can never re-include what another file excludes.
//
// A Matcher reads ignore files where they matter, as git does: to answer
// for a path it reads the ignore files of the directories from the root
// down to the path's directory (and none below an ignored directory),
// and keeps them. [Matcher.CheckDir] walks only the subtree asked about,
// bounded by Options.MaxEntries, and keeps the answer. What it keeps is
// examined again, one stat per directory and per ignore file (mtime,
// size, inode, ctime), at its first use after each [Matcher.Refresh]: a
// long-lived Matcher sees ignore files created, edited and deleted.
//
// A Matcher is safe for concurrent use. The zero Matcher (and a nil
// *Matcher) has no patterns: it ignores nothing and ContainsIgnored
// always reports true.
type Matcher struct {
	root   string
	real   string         // root with symlinks resolved, at Load time
	fold   bool           // ASCII case folding: keys below are lower case
	names  map[string]int // ignore-file name → set index; inline patterns use set len(names)
	sets   int            // len(names) + 1
	inline *list          // the inline patterns, nil when none
	max    int            // walk bound
	racy   time.Duration  // racyWindow; shorter in tests

	epoch atomic.Uint64 // advanced by Refresh
	stats atomic.Int64  // lstat and stat calls made for matching and Resolve (for tests)
	gen   atomic.Uint64 // source of dirSnap.gen

	mu   sync.Mutex
	dirs map[string]*dirState // by root-relative path as spelled on disk

	wmu   sync.Mutex
	walks map[walkKey]*walkResult
}

// Load prepares a Matcher for root (an absolute directory) with the
// inline patterns, and reads the ignore files of the root itself. It does
// not walk the tree: the ignore files of subdirectories are read when a
// path below them is first matched.
//
// An ignore file that cannot be read or holds a malformed pattern is an
// error (an *Error with file:line), never silently empty: at Load for
// the root's files, from [Matcher.MatchErr] and [Matcher.CheckDir] for
// the others. A subdirectory that cannot be listed is not an error; it
// counts as containing ignored files.
func Load(root string, opts Options) (*Matcher, error) {
	if !filepath.IsAbs(root) {
		return nil, fmt.Errorf("ignore: root %q is not absolute", root)
	}
	root = filepath.Clean(root)
	real, exists, isDir, err := realpath("/", root, nil)
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
	m := newMatcher(root, real, opts.FoldCase || caseInsensitive(root))
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
		m.inline = newList("", pats)
	}
	if opts.MaxEntries > 0 {
		m.max = opts.MaxEntries
	}
	if s := m.dir(""); s.err != nil {
		return nil, s.err
	}
	return m, nil
}

func newMatcher(root, real string, fold bool) *Matcher {
	m := &Matcher{
		root:  root,
		real:  real,
		fold:  fold,
		names: map[string]int{},
		sets:  1,
		max:   DefaultMaxEntries,
		racy:  racyWindow,
		dirs:  map[string]*dirState{},
		walks: map[walkKey]*walkResult{},
	}
	m.epoch.Store(1)
	return m
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
	// A few entries are enough: the cost must not grow with the root.
	if f, err := os.Open(root); err == nil {
		entries, _ := f.ReadDir(16)
		f.Close()
		for _, e := range entries {
			if insensitive, probed := same(root, e.Name()); probed {
				return insensitive
			}
		}
	}
	insensitive, _ := same(filepath.Dir(root), filepath.Base(root))
	return insensitive
}

// Root returns the cleaned absolute root given to Load.
func (m *Matcher) Root() string {
	if m == nil {
		return ""
	}
	return m.root
}

// Files returns the ignore files read so far (those on the way to the
// paths matched and in the subtrees walked), relative to the root and
// slash-separated, sorted. The caller may modify the returned slice.
func (m *Matcher) Files() []string {
	if m == nil || m.dirs == nil {
		return nil
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var files []string
	for _, s := range m.dirs {
		for _, f := range s.files {
			if f.name != "" && s.snap.isDir {
				files = append(files, join(s.rel, f.name))
			}
		}
	}
	slices.Sort(files)
	return files
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
// it are never ignored: check those with Resolve. Match does not resolve
// symlinks; it reads the ignore files on the way to p that it has not
// read yet (see [Matcher.Refresh]), and allocates nothing for a clean
// path whose ignore files it holds (without case folding).
//
// When an ignore file on the way cannot be read or compiled, Match fails
// closed: p is reported ignored, with the file as Source and an empty
// Pattern. [Matcher.MatchErr] returns the error.
func (m *Matcher) Match(p string, isDir bool) Result {
	r, _ := m.MatchErr(p, isDir)
	return r
}

// MatchErr is Match that also returns the error of an ignore file that
// cannot be read or compiled (the Result is then an ignoring one).
func (m *Matcher) MatchErr(p string, isDir bool) (Result, error) {
	if strings.HasSuffix(p, "/") {
		isDir = true
	}
	rel, ok := m.rel(p)
	if !ok {
		return Result{}, nil
	}
	return m.match(rel, isDir)
}

// MatchPath reports whether p is ignored either as a file or as a
// directory: the check for a path whose type is unknown, such as one that
// does not exist yet. The ignoring result is returned when there is one.
// It fails closed as Match does.
func (m *Matcher) MatchPath(p string) Result {
	r, _ := m.MatchPathErr(p)
	return r
}

// MatchPathErr is MatchPath that also returns the error of an ignore
// file that cannot be read or compiled.
func (m *Matcher) MatchPathErr(p string) (Result, error) {
	rel, ok := m.rel(p)
	if !ok {
		return Result{}, nil
	}
	return m.matchPath(rel)
}

func (m *Matcher) matchPath(rel string) (Result, error) {
	r, err := m.match(rel, false)
	if r.Ignored || err != nil {
		return r, err
	}
	if d, err := m.match(rel, true); d.Ignored || err != nil {
		return d, err
	}
	return r, nil
}

// MatchRef is the gate's check of one file reference: it resolves name
// against cwd and the Matcher's root (see Resolve; ~ and $HOME must be
// expanded already) and reports the reference ignored when its written
// path or its real path is. An existing path is matched with the type of
// what it finally names (a symlink to a directory counts as a directory);
// a missing one with MatchPath. The Result is the ignoring one, else that
// of the written path. Paths outside the root are not ignored: see
// PathInfo.Outside and RealOutside. An ignore file that cannot be read
// is an error.
func (m *Matcher) MatchRef(cwd, name string) (PathInfo, Result, error) {
	info, err := m.Resolve(cwd, name)
	if err != nil {
		return info, Result{}, err
	}
	match := func(rel string) (Result, error) {
		if info.Exists {
			return m.MatchErr(rel, info.IsDir)
		}
		return m.MatchPathErr(rel)
	}
	var written Result
	if !info.Outside {
		if written, err = match(info.Rel); err != nil {
			return info, written, err
		}
	}
	if !written.Ignored && !info.RealOutside && info.RealRel != info.Rel {
		r, err := match(info.RealRel)
		if r.Ignored || err != nil {
			return info, r, err
		}
	}
	return info, written, nil
}

// ContainsIgnored reports whether directory dir (as for Match) or
// anything below it is ignored; it is CheckDir answering true when
// CheckDir fails.
func (m *Matcher) ContainsIgnored(dir string) bool {
	found, err := m.CheckDir(dir)
	return found || err != nil
}

// CheckDir reports whether directory dir (as for Match) or anything
// below it is ignored. It walks dir's subtree only, without following
// symbolic links and skipping .git directories, stopping at the first
// ignored entry and after Options.MaxEntries entries (then the error
// wraps [ErrTooManyEntries]); the answer is kept and examined again
// after [Matcher.Refresh] by one stat per directory it rests on. An
// ignore file in the subtree that cannot be read is an error.
//
// It answers true, conservatively, for a directory that cannot be walked
// fully: one that does not exist or cannot be listed, an ignored
// directory and everything below it, .git, a path that is not a
// directory, and anything outside the root. Symbolic links count by their
// targets: a link to an ignored file, to a directory that contains
// ignored files, or to anything outside the root makes its directory
// report true.
func (m *Matcher) CheckDir(dir string) (bool, error) {
	if m == nil || m.dirs == nil {
		return true, nil
	}
	rel, ok := m.rel(dir)
	if !ok {
		if rel != "." {
			return true, nil
		}
		rel = ""
	}
	return m.walk(rel, findIgnored)
}

// AnyPatterns reports whether any ignore pattern exists for the tree:
// inline patterns or an ignore file anywhere (not below an ignored
// directory). When no pattern exists no place can hold an ignored file.
// It walks the tree as CheckDir does, stopping at the first ignore file,
// and answers true when the walk cannot finish.
func (m *Matcher) AnyPatterns() bool {
	if m == nil || m.dirs == nil {
		return false
	}
	found, err := m.walk("", findPattern)
	return found || err != nil
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
// The ignore files of a directory are read only when no ancestor is
// excluded, the directory is a real one (not reached through a symlink)
// and not in .git.
func (m *Matcher) match(p string, isDir bool) (Result, error) {
	if m.dirs == nil {
		return Result{}, nil
	}
	kp := m.key(p)
	budget := wmBudget
	var buf [32][]*list
	root := m.dir("")
	if root.err != nil {
		return errResult(root.err), root.err
	}
	chain := buf[:0]
	if root.lists != nil {
		chain = append(chain, root.lists)
	}
	descend, start := root.isDir, 0
	for i := 0; i < len(p); i++ {
		if p[i] != '/' {
			continue
		}
		dir := kp[:i]
		for s := 0; s < m.sets; s++ {
			if pt := decide(chain, s, dir, true, &budget); pt != nil && !pt.negate {
				return Result{Ignored: true, Source: pt.source, Pattern: pt.text}, nil
			}
		}
		if descend && p[start:i] == ".git" {
			descend = false
		}
		if descend {
			st := m.dir(p[:i])
			if st.err != nil {
				return errResult(st.err), st.err
			}
			descend = st.isDir
			if st.lists != nil {
				chain = append(chain, st.lists)
			}
		}
		start = i + 1
	}
	var neg *pattern
	for s := 0; s < m.sets; s++ {
		pt := decide(chain, s, kp, isDir, &budget)
		switch {
		case pt == nil:
		case !pt.negate:
			return Result{Ignored: true, Source: pt.source, Pattern: pt.text}, nil
		case neg == nil:
			neg = pt
		}
	}
	if neg != nil {
		return Result{Source: neg.source, Pattern: neg.text}, nil
	}
	return Result{}, nil
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

// readIgnoreFile reads one ignore file; name is its root-relative path,
// used in errors. The key is that of the open file.
func readIgnoreFile(abs, name string) ([]byte, statKey, error) {
	f, k, err := openFile(abs)
	if err != nil {
		var pe *fs.PathError
		if !errors.As(err, &pe) {
			err = &fs.PathError{Op: "open", Path: abs, Err: err}
		}
		return nil, statKey{}, &Error{Source: name, Err: err}
	}
	defer f.Close()
	if !k.isRegular() {
		typ := "unknown type"
		if fi, err := f.Stat(); err == nil {
			typ = fi.Mode().Type().String()
		}
		return nil, k, &Error{Source: name, Err: fmt.Errorf("not a regular file (%s)", typ)}
	}
	data, err := io.ReadAll(io.LimitReader(f, maxFileSize+1))
	if err != nil {
		return nil, k, &Error{Source: name, Err: err}
	}
	if len(data) > maxFileSize {
		return nil, k, &Error{Source: name, Err: fmt.Errorf("larger than %d bytes", maxFileSize)}
	}
	return data, k, nil
}

// compileFile compiles the content of one ignore file.
func compileFile(data []byte, name string, fold bool) ([]pattern, error) {
	var pats []pattern
	err := lines(data, func(n int, text string) error {
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
