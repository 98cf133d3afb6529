package ignore

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
)

// maxStates bounds the directories a Matcher remembers; past it the
// cache starts over (every directory is examined again at its next use),
// so that a long-lived Matcher asked about ever new paths stays bounded.
const maxStates = 1 << 16

// dirState is what a Matcher knows of one directory of the tree: whether
// it is a real directory, its ignore files compiled, and the stat that
// vouches for both. It is guarded by Matcher.mu; snap is replaced, never
// modified, so readers may keep it.
type dirState struct {
	rel     string // root-relative ("" for the root); "/abs" for a directory outside the root
	path    string // absolute path examined
	noFiles bool   // outside the root or inside .git: no ignore files are read there
	epoch   uint64 // Matcher epoch of the last examination
	key     statKey
	trusted bool // key was taken outside the racy window
	ok      bool // key is that of a directory
	files   []ignoreFile
	snap    dirSnap
	// children caches the entries looked up by Resolve. It is valid while
	// the directory's stat is unchanged and trusted: entries cannot be
	// created, removed, renamed or replaced without changing it.
	children map[string]entry
}

// maxChildren bounds the cached entries of one directory.
const maxChildren = 1 << 12

// dirSnap is the immutable answer of one examination of a directory.
type dirSnap struct {
	isDir bool    // a directory (not a symlink to one)
	lists []*list // one per set, nil when the directory has no list at all
	err   error   // an ignore file there cannot be read or compiled
	gen   uint64  // changes whenever the directory's entries or lists may have
}

// ignoreFile is one ignore file of a directory, per set.
type ignoreFile struct {
	name    string // base name as found; "" when the set has no file here
	key     statKey
	trusted bool
	data    []byte
	list    *list
	err     error
}

// Refresh makes the next use of every ignore file and directory listing
// the Matcher has cached examine it again with one stat (mtime, size,
// inode, ctime), re-reading what changed: call it before each check in a
// long-lived gate, so that ignore files created, edited or deleted since
// the last check apply to this one. Without Refresh a Matcher keeps what
// it read.
func (m *Matcher) Refresh() {
	if m != nil {
		m.epoch.Add(1)
	}
}

// dir returns the current snapshot of directory rel (root-relative, as
// spelled on disk; "/abs" for a directory outside the root), examining it
// once per epoch.
func (m *Matcher) dir(rel string) dirSnap {
	e := m.epoch.Load()
	m.mu.Lock()
	defer m.mu.Unlock()
	s := m.dirs[rel]
	if s == nil {
		if len(m.dirs) >= maxStates {
			clear(m.dirs)
		}
		rel = strings.Clone(rel)
		s = &dirState{rel: rel, path: m.abs(rel), noFiles: strings.HasPrefix(rel, "/") || hasGitComponent(rel)}
		m.dirs[rel] = s
	} else if s.epoch == e {
		return s.snap
	}
	m.examine(s)
	s.epoch = e
	return s.snap
}

// look is the lookupFunc of Resolve: for a directory inside the root, the
// entry comes from the directory's cache when its stat (examined once
// per Refresh) is unchanged; else one lstat (and readlink), kept when
// the directory's stat is trusted.
func (m *Matcher) look(dir, name string) (entry, error) {
	rel, ok := within(m.real, dir)
	if !ok || m.dirs == nil {
		m.stats.Add(1)
		return lstatEntry(dir, name)
	}
	if rel == "." {
		rel = ""
	}
	snap := m.dir(rel)
	m.mu.Lock()
	s := m.dirs[rel]
	if s != nil && s.ok && s.trusted && s.snap.gen == snap.gen {
		if e, ok := s.children[name]; ok {
			m.mu.Unlock()
			return e, nil
		}
	}
	m.mu.Unlock()
	m.stats.Add(1)
	e, err := lstatEntry(dir, name)
	if err != nil {
		return e, err
	}
	m.mu.Lock()
	// Kept only if the directory was examined before this lstat and not
	// found changed since: a change in between shows at the next
	// examination, which drops the cache.
	if s != nil && m.dirs[rel] == s && s.ok && s.trusted && s.snap.gen == snap.gen && len(s.children) < maxChildren {
		if s.children == nil {
			s.children = map[string]entry{}
		}
		s.children[strings.Clone(name)] = e
	}
	m.mu.Unlock()
	return e, nil
}

// abs returns the path to examine for a state key.
func (m *Matcher) abs(rel string) string {
	switch {
	case rel == "":
		return m.real
	case rel[0] == '/':
		return rel
	}
	return m.real + "/" + rel
}

func hasGitComponent(rel string) bool {
	for c := range strings.SplitSeq(rel, "/") {
		if c == ".git" {
			return true
		}
	}
	return false
}

// examine stats s and re-reads what may have changed. Caller holds m.mu.
func (m *Matcher) examine(s *dirState) {
	t := now()
	m.stats.Add(1)
	k, err := lstatKey(s.path)
	if err != nil || !k.isDir() {
		// Missing, not a directory, a symlink, or not examinable: no
		// ignore file is read there (git does not follow symlinks).
		if s.ok || s.snap.gen == 0 || !s.trusted || k != s.key {
			s.ok, s.files, s.children, s.key, s.trusted = false, nil, nil, k, err == nil && k.trusted(t, m.racy)
			s.snap = dirSnap{lists: m.withInline(s.rel, nil), gen: m.gen.Add(1)}
		}
		return
	}
	same := s.ok && s.trusted && k == s.key
	s.key, s.trusted, s.ok = k, k.trusted(t, m.racy), true
	if !same || !s.trusted {
		s.children = nil
	}
	if s.noFiles {
		if !same {
			s.snap = dirSnap{isDir: true, gen: m.gen.Add(1)}
		}
		return
	}
	changed := !same
	if s.files == nil {
		s.files = make([]ignoreFile, m.sets-1)
	}
	if same {
		// The entries are the same; the files may have been edited.
		for i := range s.files {
			if f := &s.files[i]; f.name != "" && m.reread(s, f, t) {
				changed = true
			}
		}
	} else {
		// Entries may have been created, deleted or renamed: look for
		// every ignore-file name again.
		found := m.probe(s.path)
		for i := range s.files {
			f := &s.files[i]
			if found[i] == "" {
				*f = ignoreFile{}
				continue
			}
			if f.name != found[i] {
				*f = ignoreFile{name: found[i]}
			}
			m.reread(s, f, t)
		}
	}
	if !changed && s.snap.gen != 0 {
		return
	}
	snap := dirSnap{isDir: true, gen: m.gen.Add(1)}
	var lists []*list
	for i := range s.files {
		f := &s.files[i]
		if f.err != nil && snap.err == nil {
			snap.err = fmt.Errorf("ignore: %w", f.err)
		}
		if f.list != nil {
			if lists == nil {
				lists = make([]*list, m.sets)
			}
			lists[i] = f.list
		}
	}
	snap.lists = m.withInline(s.rel, lists)
	s.snap = snap
}

// withInline adds the inline patterns to the root's lists.
func (m *Matcher) withInline(rel string, lists []*list) []*list {
	if rel != "" || m.inline == nil {
		return lists
	}
	if lists == nil {
		lists = make([]*list, m.sets)
	}
	lists[m.sets-1] = m.inline
	return lists
}

// probe returns, per set, the name of the set's ignore file in directory
// abs, or "". A directory under an ignore-file name is not an ignore
// file; anything else is (and fails to read unless it is a regular file).
func (m *Matcher) probe(abs string) []string {
	found := make([]string, m.sets-1)
	if m.fold {
		// Names match in either case: list the directory.
		entries, _ := os.ReadDir(abs)
		for _, e := range entries {
			if s, ok := m.names[m.key(e.Name())]; ok && !e.IsDir() && found[s] == "" {
				found[s] = e.Name()
			}
		}
		return found
	}
	for name, s := range m.names {
		m.stats.Add(1)
		k, err := lstatKey(abs + "/" + name)
		if err == nil && !k.isDir() {
			found[s] = name
		}
	}
	return found
}

// reread brings f up to date and reports whether its patterns changed.
func (m *Matcher) reread(s *dirState, f *ignoreFile, t int64) bool {
	abs := s.path + "/" + f.name
	if f.trusted && f.err == nil {
		m.stats.Add(1)
		if k, err := statKeyOf(abs); err == nil && k == f.key {
			return false
		}
	}
	name := join(s.rel, f.name)
	data, k, err := readIgnoreFile(abs, name)
	f.key, f.trusted = k, err == nil && k.trusted(t, m.racy)
	if err == nil && f.err == nil && f.list != nil && bytes.Equal(data, f.data) {
		return false // touched, or a racy re-read: same content
	}
	f.data, f.err, f.list = data, err, nil
	if err == nil {
		var pats []pattern
		pats, f.err = compileFile(data, name, m.fold)
		if f.err == nil {
			f.list = newList(m.key(s.rel), pats)
		}
	}
	return true
}

// walkMode is what a subtree walk looks for.
type walkMode uint8

const (
	findIgnored walkMode = iota // anything ignored at or below
	findPattern                 // any ignore file or pattern that applies at or below
)

type walkKey struct {
	rel  string
	mode walkMode
}

// walkResult is the cached answer of one subtree walk, with every
// directory whose snapshot it rests on.
type walkResult struct {
	epoch uint64
	found bool
	err   error
	deps  []walkDep
}

type walkDep struct {
	rel string
	gen uint64
}

// walk answers mode for the subtree at rel (clean, root-relative, "" for
// the root), from the cache when every directory it rests on is
// unchanged.
func (m *Matcher) walk(rel string, mode walkMode) (bool, error) {
	e := m.epoch.Load()
	m.wmu.Lock()
	defer m.wmu.Unlock()
	k := walkKey{rel, mode}
	if w := m.walks[k]; w != nil && (w.epoch == e || m.valid(w)) {
		w.epoch = e
		return w.found, w.err
	}
	w := &walker{m: m, mode: mode, max: m.max, root: rel, seen: map[string]bool{}}
	w.run(rel)
	if len(m.walks) >= maxStates {
		clear(m.walks)
	}
	m.walks[k] = &walkResult{epoch: e, found: w.found, err: w.err, deps: w.deps}
	return w.found, w.err
}

func (m *Matcher) valid(w *walkResult) bool {
	for _, d := range w.deps {
		if m.dir(d.rel).gen != d.gen {
			return false
		}
	}
	return true
}

// walker is one walk of a subtree, stopping at the first find.
type walker struct {
	m     *Matcher
	mode  walkMode
	max   int
	count int
	root  string          // the subtree asked about
	seen  map[string]bool // subtrees walked (the root and link targets)
	queue []string        // link targets outside the walked subtrees
	deps  []walkDep
	found bool
	err   error
}

func (w *walker) done() bool { return w.found || w.err != nil }

func (w *walker) snap(rel string) dirSnap {
	s := w.m.dir(rel)
	w.deps = append(w.deps, walkDep{rel, s.gen})
	return s
}

// run walks the subtree at rel and then the link targets it found.
func (w *walker) run(rel string) {
	for w.queue = append(w.queue, rel); len(w.queue) > 0 && !w.done(); {
		top := w.queue[0]
		w.queue = w.queue[1:]
		if w.seen[top] {
			continue
		}
		w.seen[top] = true
		w.subtree(top)
	}
}

// subtree checks the top of one subtree (its ancestors decide whether it
// is ignored) and walks it.
func (w *walker) subtree(rel string) {
	if hasGitComponent(rel) {
		w.found = true // never indexed: .git is not the project's files
		return
	}
	// The ancestors' lists apply below: the answer rests on them.
	for i := 0; i < len(rel); i++ {
		if rel[i] == '/' {
			if s := w.snap(rel[:i]); s.err != nil {
				w.err = s.err
				return
			}
		}
	}
	if s := w.snap(""); s.err != nil {
		w.err = s.err
		return
	} else if w.mode == findPattern && s.lists != nil {
		w.found = true
		return
	}
	if rel != "" {
		r, err := w.m.match(rel, true)
		if err != nil {
			w.err = err
			return
		}
		if r.Ignored {
			w.found = true
			return
		}
	}
	w.dir(rel)
}

func (w *walker) dir(rel string) {
	s := w.snap(rel)
	switch {
	case s.err != nil:
		w.err = s.err
		return
	case !s.isDir:
		w.found = true // missing, not a directory, or not examinable: unknown
		return
	case w.mode == findPattern && s.lists != nil:
		w.found = true
		return
	}
	entries, err := os.ReadDir(w.m.abs(rel))
	if err != nil {
		w.found = true // cannot be listed: it may hold anything
		return
	}
	for _, e := range entries {
		if w.count++; w.count > w.max {
			where := w.root
			if where == "" {
				where = "."
			}
			w.err = fmt.Errorf("ignore: walk of %s: more than %d entries: %w", where, w.max, ErrTooManyEntries)
			return
		}
		name := e.Name()
		p := join(rel, name)
		t := e.Type()
		if t.IsDir() && name == ".git" {
			continue
		}
		r, err := w.m.match(p, t.IsDir())
		if err != nil {
			w.err = err
			return
		}
		if r.Ignored {
			w.found = true // findPattern too: a pattern applies
			return
		}
		switch {
		case t.IsDir():
			w.dir(p)
		case t&os.ModeSymlink != 0 && w.mode == findIgnored:
			w.link(p)
		}
		if w.done() {
			return
		}
	}
}

// link judges a symbolic link by its target: outside the root, ignored,
// or not resolvable makes a find; a directory elsewhere in the tree is
// walked too.
func (w *walker) link(p string) {
	m := w.m
	info, err := resolve(m.root, m.real, "", p, func(dir, name string) (entry, error) {
		rel, ok := within(m.real, dir)
		switch {
		case !ok:
			rel = dir
		case rel == ".":
			rel = ""
		}
		w.snap(rel)
		return m.look(dir, name)
	})
	if err != nil || info.RealOutside {
		w.found = true
		return
	}
	var r Result
	if info.Exists {
		r, err = m.match(info.RealRel, info.IsDir)
	} else {
		r, err = m.matchPath(info.RealRel)
	}
	switch {
	case err != nil:
		w.err = err
	case r.Ignored:
		w.found = true
	case info.Exists && info.IsDir:
		target := info.RealRel
		if target == "." {
			target = ""
		}
		if !inWalked(w.seen, target) {
			w.queue = append(w.queue, target)
		}
	}
}

// inWalked reports whether rel is inside one of the walked subtrees.
func inWalked(seen map[string]bool, rel string) bool {
	for top := range seen {
		if top == "" || rel == top || strings.HasPrefix(rel, top+"/") {
			return true
		}
	}
	return false
}

// errResult is the fail-closed Result for a path whose ignore files
// cannot be read.
func errResult(err error) Result {
	r := Result{Ignored: true, Source: "ignore"}
	var ie *Error
	if errors.As(err, &ie) {
		r.Source = ie.Source
	}
	return r
}
