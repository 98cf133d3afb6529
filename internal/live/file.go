package live

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/cmdguard/cmdguard/policy"
)

// File is one policy file outside the project (cmdguard's managed
// policy), kept current as Source keeps the project's: before each use
// its file and Rego modules are examined with one stat each and loaded
// again when they changed. Unlike Source it prepares no ignore files.
// Set its fields before the first Current; it is then safe for
// concurrent use.
type File struct {
	Path string // the policy file
	// Optional: a missing file is no policy (Current returns nil, nil);
	// otherwise it is an error. A file that exists and does not load is
	// always an error.
	Optional bool
	Options  []policy.LoadOption
	Racy     time.Duration // racyWindow when zero

	mu      sync.Mutex
	watched []watchedFile
	cur     atomic.Pointer[FileState]
}

// FileState is one loaded state of a File.
type FileState struct {
	Policy *policy.Policy // nil when the file is missing (and Optional) or does not load
	Err    error          // why it does not load
	Loaded time.Time      // when it was read
}

// Current returns the file's policy as it is now: nil and no error when
// it is missing and Optional, an error when it does not load.
func (f *File) Current() (*FileState, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	cur := f.cur.Load()
	if cur == nil || cur.Err != nil || !f.unchanged() {
		cur = f.load()
		f.cur.Store(cur)
	}
	return cur, cur.Err
}

// Last returns the state of the last Current (nil before the first).
func (f *File) Last() *FileState { return f.cur.Load() }

func (f *File) unchanged() bool {
	s := Source{Racy: f.Racy}
	if f.watched == nil {
		return false
	}
	for i := range f.watched {
		if !f.watched[i].unchanged(s.window()) {
			return false
		}
	}
	return true
}

// load reads the file. Caller holds f.mu.
func (f *File) load() *FileState {
	s := Source{Racy: f.Racy}
	pre := map[string]watchedFile{}
	for _, w := range f.watched[min(1, len(f.watched)):] {
		pre[w.path] = s.watch(w.path)
	}
	f.watched = nil
	st := &FileState{Loaded: time.Now()}
	w := s.watch(f.Path)
	if w.missing && f.Optional {
		f.watched = []watchedFile{w}
		return st
	}
	p, err := policy.Load(f.Path, f.Options...)
	if err != nil {
		st.Err = err
		return st
	}
	watched := []watchedFile{w}
	for _, rf := range p.RegoFiles() {
		if pw, ok := pre[rf]; ok {
			watched = append(watched, pw)
		} else {
			watched = append(watched, watchedFile{path: rf})
		}
	}
	f.watched = watched
	st.Policy = p
	return st
}
