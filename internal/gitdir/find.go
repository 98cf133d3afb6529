package gitdir

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// Find returns the git directory git uses in dir (absolute), found as
// git discovers it: at each directory from dir up, a .git directory, a
// .git file ("gitdir: PATH"), or the directory itself when it is a git
// directory (a bare repository). "" when there is none.
func Find(dir string) (string, error) { return find(dir, nil) }

// IsGitDir reports whether d is a git directory, as git checks it.
func IsGitDir(d string) bool { return isGitDir(d, nil) }

// find is Find; rec, when not nil, records what the answer was read
// from (see Finder).
func find(dir string, rec *record) (string, error) {
	for d := dir; ; d = filepath.Dir(d) {
		rec.dir(d)
		g := filepath.Join(d, ".git")
		fi, err := rec.stat(g)
		switch {
		case err == nil && fi.IsDir() && isGitDir(g, rec):
			return g, nil
		case err == nil && fi.Mode().IsRegular():
			rec.file(g)
			gd, err := readGitFile(g)
			if err != nil {
				return "", err
			}
			if !isGitDir(gd, rec) {
				return "", fmt.Errorf("%s names %s, which is not a git directory", g, gd)
			}
			return Real(gd), nil
		case err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission):
			return "", err
		}
		if isGitDir(d, rec) {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", nil
		}
	}
}

// readGitFile reads a .git file as git's read_gitfile_gently does:
// "gitdir: " and a path, the newlines and carriage returns at its end
// removed, a relative path taken from the file's directory as written
// (the kernel resolves it).
func readGitFile(g string) (string, error) {
	b, err := os.ReadFile(g)
	if err != nil {
		return "", err
	}
	p, ok := strings.CutPrefix(strings.TrimRight(string(b), "\r\n"), "gitdir: ")
	if !ok || p == "" {
		return "", fmt.Errorf("%s is not a gitdir: file", g)
	}
	return joinPath(filepath.Dir(g), p), nil
}

// isGitDir reports what git's is_git_directory checks: HEAD is a valid
// reference (validHead), and objects and refs can be searched (access
// X_OK: an executable file passes, as for git), in the directory that
// a commondir file names when there is one.
func isGitDir(d string, rec *record) bool {
	rec.dir(d)
	if !validHead(d+"/HEAD", rec) {
		return false
	}
	base := d
	if _, err := os.Stat(d + "/commondir"); err == nil {
		rec.file(d + "/commondir")
		b, err := os.ReadFile(d + "/commondir")
		if err != nil {
			return false // git dies: it uses no directory
		}
		base = joinPath(d, strings.TrimRight(string(b), "\n"))
		rec.dir(base)
	}
	for _, sub := range []string{"/objects", "/refs"} {
		rec.entry(base + sub) // its mode: what access answers
		if unix.Access(base+sub, unix.X_OK) != nil {
			return false
		}
	}
	return true
}

// validHead is git's validate_headref: a symbolic link whose text starts
// with refs/, or a file starting with "ref:", blanks and refs/, or with
// an object name (40 or 64 hex digits).
func validHead(p string, rec *record) bool {
	fi, err := os.Lstat(p)
	switch {
	case err != nil:
		return false
	case fi.Mode()&fs.ModeSymlink != 0:
		rec.link(p)
		t, err := os.Readlink(p)
		return err == nil && strings.HasPrefix(t, "refs/")
	case !fi.Mode().IsRegular():
		return false // a directory does not read; a FIFO would block git
	}
	rec.file(p)
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	buf := make([]byte, 255)
	n, _ := io.ReadFull(f, buf)
	b := string(buf[:n])
	if ref, ok := strings.CutPrefix(b, "ref:"); ok && strings.HasPrefix(strings.TrimLeft(ref, " \t\n\v\f\r"), "refs/") {
		return true
	}
	return hexPrefix(b, 40) || hexPrefix(b, 64)
}

// hexPrefix reports whether s starts with n hexadecimal digits.
func hexPrefix(s string, n int) bool {
	if len(s) < n {
		return false
	}
	for i := range n {
		if c := s[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

// A Finder answers Find for directories asked about again and again (a
// long-lived Guard's checks), remembering each answer with the state of
// what it was read from: the directory and each one above it that Find
// looked in, a .git directory it looked into, a .git file it read.
// Creating, removing or renaming an entry changes its directory's
// modification time, and writing a file changes the file's, so one stat
// each tells whether an answer still holds. An answer that went through
// a symbolic link (whose target can change with none of these), or that
// was read from something changed within the racy window (a change in
// the same clock tick leaves its time as it was), is not remembered. A
// Finder is safe for concurrent use; its zero value is ready.
type Finder struct {
	// Racy is the racy window; 2 seconds when zero.
	Racy time.Duration

	mu    sync.Mutex
	found map[string]*finding
}

// maxFindings bounds the directories a Finder remembers.
const maxFindings = 64

// A finding is one remembered answer of Find.
type finding struct {
	gitDir string
	from   []stamp
}

// A stamp is a file or directory as it was when an answer was read.
type stamp struct {
	path string
	key  statKey
}

type statKey struct {
	dev, ino     uint64
	mode         uint32
	size         int64
	mtime, ctime int64
}

func lstatKey(path string) (statKey, error) {
	var st unix.Stat_t
	if err := unix.Lstat(path, &st); err != nil {
		return statKey{}, err
	}
	return statKey{uint64(st.Dev), uint64(st.Ino), uint32(st.Mode), st.Size,
		unix.TimespecToNsec(st.Mtim), unix.TimespecToNsec(st.Ctim)}, nil
}

// Lookup returns the remembered answer of Find(dir) when nothing it
// was read from changed; dir is then the directory it was. A nil Finder
// remembers nothing.
func (f *Finder) Lookup(dir string) (gitDir string, ok bool) {
	if f == nil {
		return "", false
	}
	f.mu.Lock()
	fd := f.found[dir]
	f.mu.Unlock()
	if fd != nil && fd.holds() {
		return fd.gitDir, true
	}
	return "", false
}

// Find is Find(dir), from memory when nothing it was read from changed
// (a nil Finder: Find).
func (f *Finder) Find(dir string) (string, error) {
	if f == nil {
		return Find(dir)
	}
	if d, ok := f.Lookup(dir); ok {
		return d, nil
	}
	rec := &record{since: time.Now().UnixNano() - int64(f.window()), ok: true}
	d, err := find(dir, rec)
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case err == nil && rec.ok:
		if f.found == nil || len(f.found) >= maxFindings {
			f.found = map[string]*finding{}
		}
		f.found[dir] = &finding{gitDir: d, from: rec.from}
	default:
		delete(f.found, dir)
	}
	return d, err
}

func (f *Finder) window() time.Duration {
	if f.Racy > 0 {
		return f.Racy
	}
	return 2 * time.Second
}

// holds reports whether everything fd was read from is as it was.
func (fd *finding) holds() bool {
	for _, s := range fd.from {
		if k, err := lstatKey(s.path); err != nil || k != s.key {
			return false
		}
	}
	return true
}

// A record collects the stamps of one Find. Its methods do what
// os.Stat and os.Lstat do; on a nil record they are those.
type record struct {
	since int64 // a time older than this is out of the racy window
	from  []stamp
	ok    bool // the answer may be remembered
}

// dir stamps a directory whose entries Find reads (once each).
func (r *record) dir(path string) { r.add(path, false) }

// file stamps a file whose content or mode Find reads.
func (r *record) file(path string) { r.add(path, false) }

// link stamps a symbolic link whose text Find reads.
func (r *record) link(path string) { r.add(path, true) }

// entry stamps an entry of a stamped directory whose mode Find reads:
// when it is missing, the directory's stamp stands for it.
func (r *record) entry(path string) {
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return
	}
	r.add(path, false)
}

func (r *record) add(path string, link bool) {
	if r == nil || !r.ok {
		return
	}
	for _, s := range r.from {
		if s.path == path {
			return
		}
	}
	k, err := lstatKey(path)
	if err != nil || !link && k.mode&unix.S_IFMT == unix.S_IFLNK || max(k.mtime, k.ctime) >= r.since {
		r.ok = false
		return
	}
	r.from = append(r.from, stamp{path, k})
}

// stat is os.Stat. What it reaches through a symbolic link may change
// unseen: the answer is not remembered then.
func (r *record) stat(path string) (fs.FileInfo, error) {
	if r == nil {
		return os.Stat(path)
	}
	fi, err := os.Lstat(path)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		r.ok = false
		return os.Stat(path)
	}
	return fi, err
}
