package cmdguard

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

// source is where a Guard's policy and ignore files come from. Before
// each check it examines the policy file and its Rego modules with one
// stat each (mtime, size, inode, ctime) and loads them again when they
// changed; the ignore Matcher examines its own files.
type source struct {
	root     string
	path     string         // the policy file; "" when the policy is fixed (New)
	optional bool           // path may be missing: the default policy applies then
	fixed    *policy.Policy // the policy of New
	max      int            // ignore walk bound, 0 for the default
	racy     time.Duration  // racyWindow when zero; shorter in tests

	mu      sync.Mutex // guards watched and loading
	watched []watchedFile
	cur     atomic.Pointer[snapshot]
}

// snapshot is one loaded state of the policy and the ignore Matcher. It
// is immutable; a check uses one snapshot throughout.
type snapshot struct {
	policy *policy.Policy
	ign    *ignore.Matcher
	// err is why the policy or the root's ignore files do not load:
	// every check denies with it until they are fixed.
	err error
	// protected holds root-relative paths that must never be written:
	// the policy file itself (ignore files and .git/hooks are checked
	// apart).
	protected []string
	// memo remembers the analyses of the command strings checked with
	// this snapshot's policy (see package analysis); nil remembers nothing.
	memo *analysis.Memo
}

// watchedFile is one file a policy was loaded from, as it was.
type watchedFile struct {
	path    string
	missing bool
	key     fileKey
	trusted bool
	data    []byte
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

func (s *source) window() time.Duration {
	if s.racy > 0 {
		return s.racy
	}
	return racyWindow
}

// watch records the state of path before it is read.
func (s *source) watch(path string) watchedFile {
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

// current returns the snapshot for a check: the one in use when nothing
// it was loaded from changed, else a new one. Its error is the
// snapshot's: the policy does not load.
func (s *source) current() (*snapshot, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.cur.Load()
	if cur == nil || cur.err != nil || !s.unchanged() { // a failed load is tried again
		cur = s.load()
		s.cur.Store(cur)
	}
	cur.ign.Refresh()
	return cur, cur.err
}

func (s *source) unchanged() bool {
	if s.path == "" {
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
func (s *source) load() *snapshot {
	p := s.fixed
	// The modules of the last policy are examined before the new one is
	// read: an edit while it loads shows at the next check.
	pre := map[string]watchedFile{}
	for _, w := range s.watched[min(1, len(s.watched)):] {
		pre[w.path] = s.watch(w.path)
	}
	s.watched = nil
	if s.path != "" {
		w := s.watch(s.path)
		var err error
		switch {
		case w.missing && s.optional:
			p, err = policy.Default(PolicyOptions()...)
		default:
			p, err = policy.Load(s.path, PolicyOptions()...)
		}
		if err != nil {
			return &snapshot{err: err}
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
	return newSnapshot(p, s.root, s.max)
}

// newSnapshot prepares the Matcher of policy p for root.
func newSnapshot(p *policy.Policy, root string, maxEntries int) *snapshot {
	var inline []ignore.Pattern
	for _, pt := range p.IgnorePatterns() {
		inline = append(inline, ignore.Pattern{Text: pt.Pattern, Source: pt.Source})
	}
	protected, fold := gitdir.Protected(root) // where git really keeps its config and hooks, and its core.ignorecase
	m, err := ignore.Load(root, ignore.Options{Files: p.IgnoreFiles(), Patterns: inline, MaxEntries: maxEntries, FoldCase: fold})
	if err != nil {
		return &snapshot{policy: p, err: fmt.Errorf("cmdguard: load ignore files: %w", err)}
	}
	st := &snapshot{policy: p, ign: m, memo: analysis.NewMemo()}
	st.protected = protected
	if path := p.Path(); path != "" {
		if rel, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(rel, "..") {
			st.protected = append(st.protected, filepath.ToSlash(rel))
		}
	}
	return st
}
