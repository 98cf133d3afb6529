package live

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"

	"github.com/cmdguard/cmdguard/ignore"
	"github.com/cmdguard/cmdguard/internal/analysis"
	"github.com/cmdguard/cmdguard/internal/gitdir"
	"github.com/cmdguard/cmdguard/policy"
)

// racyWindow: a file whose timestamps are younger than this when it is
// examined may change again within the same clock tick without changing
// its stat, so it is read again (and compared) at every check until it is
// older. As ignore's, and git's racy index entries.
const racyWindow = 2 * time.Second

// Source is where a Guard's policy and ignore files come from. Before
// each check it examines the policy file and its Rego modules with one
// stat each (mtime, size, inode, ctime) and loads them again when they
// changed; the ignore Matcher examines its own files. Set its fields
// before the first Current; it is then safe for concurrent use.
type Source struct {
	Root     string              // the project root (real path)
	Path     string              // the policy file; "" when the policy is fixed
	Optional bool                // Path may be missing: the default policy applies then
	Fixed    *policy.Policy      // the policy when Path is ""
	Options  []policy.LoadOption // how the policy file is loaded
	Max      int                 // ignore walk bound, 0 for the default
	Racy     time.Duration       // racyWindow when zero; shorter in tests

	mu      sync.Mutex // guards watched and loading
	watched []watchedFile
	cur     atomic.Pointer[Snapshot]
}

// Snapshot is one loaded state of the policy and the ignore Matcher. It
// is immutable; a check uses one snapshot throughout.
type Snapshot struct {
	Policy *policy.Policy
	Ign    *ignore.Matcher
	// err is why the policy or the root's ignore files do not load:
	// every check denies with it until they are fixed.
	Err error
	// protected holds root-relative paths that must never be written:
	// the policy file itself (ignore files and .git/hooks are checked
	// apart).
	Protected []string
	// Git is the project's own repository (see refcheck.Checker.Git).
	Git gitdir.Repo
	// git are git's files the snapshot was built from (gitFiles).
	git []watchedFile
	// memo remembers the analyses of the command strings checked with
	// this snapshot's policy (see package analysis); nil remembers nothing.
	Memo *analysis.Memo
}

// watchedFile is one file a policy was loaded from, as it was.
type watchedFile struct {
	path    string
	missing bool
	key     fileKey
	trusted bool
	data    []byte
	// dir: a directory that must stay one (its entries change all the
	// time: a .git directory).
	dir bool
}

type fileKey struct {
	dev, ino     uint64
	mode         uint32
	size         int64
	mtime, ctime int64
}

func statFile(path string) (fileKey, error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return fileKey{}, err
	}
	return fileKey{uint64(st.Dev), uint64(st.Ino), uint32(st.Mode), st.Size,
		unix.TimespecToNsec(st.Mtim), unix.TimespecToNsec(st.Ctim)}, nil
}

func (k fileKey) trusted(now int64, window time.Duration) bool {
	return max(k.mtime, k.ctime) < now-int64(window)
}

func (s *Source) window() time.Duration {
	if s.Racy > 0 {
		return s.Racy
	}
	return racyWindow
}

// watch records the state of path before it is read.
func (s *Source) watch(path string) watchedFile {
	t := time.Now().UnixNano()
	k, err := statFile(path)
	if err != nil {
		return watchedFile{path: path, missing: errors.Is(err, fs.ErrNotExist)}
	}
	w := watchedFile{path: path, key: k, trusted: k.trusted(t, s.window())}
	if !w.trusted {
		w.data, _ = os.ReadFile(path)
	}
	return w
}

// unchanged reports whether w still describes its file. A racy entry is
// compared by content, and trusted from then on when its new stat is old
// enough.
func (w *watchedFile) unchanged(window time.Duration) bool {
	t := time.Now().UnixNano()
	if w.dir {
		fi, err := os.Stat(w.path)
		return err == nil && fi.IsDir()
	}
	k, err := statFile(w.path)
	switch {
	case err != nil:
		return w.missing && errors.Is(err, fs.ErrNotExist)
	case w.missing:
		return false
	case w.trusted:
		return k == w.key
	}
	data, err := os.ReadFile(w.path)
	if err != nil || !bytes.Equal(data, w.data) {
		return false
	}
	w.key, w.trusted = k, k.trusted(t, window)
	return true
}

// Current returns the snapshot for a check: the one in use when nothing
// it was loaded from changed, else a new one. Its error is the
// snapshot's: the policy does not load.
func (s *Source) Current() (*Snapshot, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.cur.Load()
	if cur == nil || cur.Err != nil || !s.unchanged() || !s.gitUnchanged(cur) { // a failed load is tried again
		cur = s.load()
		s.cur.Store(cur)
	}
	cur.Ign.Refresh()
	return cur, cur.Err
}

// Last returns the snapshot of the last Current (nil before the first).
func (s *Source) Last() *Snapshot { return s.cur.Load() }

func (s *Source) unchanged() bool {
	if s.Path == "" {
		return true
	}
	if s.watched == nil {
		return false // the last load failed: try again
	}
	for i := range s.watched {
		if !s.watched[i].unchanged(s.window()) {
			return false
		}
	}
	return true
}

// load reads the policy (unless it is fixed) and prepares the Matcher.
// Caller holds s.mu.
func (s *Source) load() *Snapshot {
	p := s.Fixed
	// The modules of the last policy are examined before the new one is
	// read: an edit while it loads shows at the next check.
	pre := map[string]watchedFile{}
	for _, w := range s.watched[min(1, len(s.watched)):] {
		pre[w.path] = s.watch(w.path)
	}
	s.watched = nil
	if s.Path != "" {
		w := s.watch(s.Path)
		var err error
		switch {
		case w.missing && s.Optional:
			p, err = policy.Default(s.Options...)
		default:
			p, err = policy.Load(s.Path, s.Options...)
		}
		if err != nil {
			return &Snapshot{Err: err}
		}
		watched := []watchedFile{w}
		for _, f := range p.RegoFiles() {
			if pw, ok := pre[f]; ok {
				watched = append(watched, pw)
			} else {
				// New: it was read before any stat, so it cannot be
				// vouched for; loading once more at the next check
				// examines it first.
				watched = append(watched, watchedFile{path: f})
			}
		}
		s.watched = watched
	}
	git := s.gitFiles()
	st := newSnapshot(p, s.Root, s.Max)
	st.git = git
	return st
}

// gitFiles examines git's files as they are before a snapshot is
// built: the .git at the root and above it up to the first one (a git
// init creates one), the .git file, commondir, the configuration files
// and their includes (git config core.hooksPath .husky moves the hooks:
// what is protected changes). A change makes the next check load again.
func (s *Source) gitFiles() []watchedFile {
	var ws []watchedFile
	for d := s.Root; ; d = filepath.Dir(d) {
		g := filepath.Join(d, ".git")
		if fi, err := os.Stat(g); err == nil && fi.IsDir() {
			ws = append(ws, watchedFile{path: g, dir: true})
			break
		}
		w := s.watch(g)
		ws = append(ws, w)
		if !w.missing || filepath.Dir(d) == d {
			break
		}
	}
	d, err := gitdir.Find(s.Root)
	if err != nil || d == "" {
		return ws
	}
	common, _ := gitdir.Common(d)
	files := []string{filepath.Join(d, "commondir"), filepath.Join(common, "config"), filepath.Join(d, "config.worktree"), filepath.Join(common, "config.worktree")}
	home, _ := os.UserHomeDir()
	_, read, _, _ := gitdir.Configs(d, home)
	for _, f := range append(files, read...) {
		ws = append(ws, s.watch(f))
	}
	return ws
}

// gitUnchanged reports whether git's files of cur are as they were.
func (s *Source) gitUnchanged(cur *Snapshot) bool {
	for i := range cur.git {
		if !cur.git[i].unchanged(s.window()) {
			return false
		}
	}
	return true
}

// newSnapshot prepares the Matcher of policy p for root.
func newSnapshot(p *policy.Policy, root string, maxEntries int) *Snapshot {
	var inline []ignore.Pattern
	for _, pt := range p.IgnorePatterns() {
		inline = append(inline, ignore.Pattern{Text: pt.Pattern, Source: pt.Source})
	}
	protected, fold := gitdir.Protected(root) // where git really keeps its config and hooks, and its core.ignorecase
	m, err := ignore.Load(root, ignore.Options{Files: p.IgnoreFiles(), Patterns: inline, MaxEntries: maxEntries, FoldCase: fold})
	if err != nil {
		return &Snapshot{Policy: p, Err: fmt.Errorf("cmdguard: load ignore files: %w", err)}
	}
	home, _ := os.UserHomeDir()
	st := &Snapshot{Policy: p, Ign: m, Memo: analysis.NewMemo(), Git: gitdir.Own(root, home)}
	st.Protected = protected
	if path := p.Path(); path != "" {
		if rel, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(rel, "..") {
			st.Protected = append(st.Protected, filepath.ToSlash(rel))
		}
	}
	return st
}
