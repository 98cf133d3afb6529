package ignore

import (
	"time"

	"golang.org/x/sys/unix"
)

// racyWindow is how old a file's timestamps must be, compared with the
// moment it was examined, for an equal stat later to prove that it did
// not change. File systems stamp files with a coarse clock (a jiffy on
// Linux, a second or two on ext3, FAT or some network file systems), so
// a change made in the same tick as the stat leaves the stat unchanged:
// as git's "racy" index entries, such a file is examined again at every
// use until it is older than the window.
const racyWindow = 2 * time.Second

// statKey is what an examination of a file or directory remembers: a
// change of content, of the directory entries, or a replacement changes
// at least one field (given racyWindow).
type statKey struct {
	dev, ino     uint64
	mode         uint32
	size         int64
	mtime, ctime int64 // nanoseconds
}

func keyOf(st *unix.Stat_t) statKey {
	return statKey{
		dev: uint64(st.Dev), ino: uint64(st.Ino), mode: uint32(st.Mode), size: st.Size,
		mtime: unix.TimespecToNsec(st.Mtim), ctime: unix.TimespecToNsec(st.Ctim),
	}
}

func (k statKey) isDir() bool     { return k.mode&unix.S_IFMT == unix.S_IFDIR }
func (k statKey) isLink() bool    { return k.mode&unix.S_IFMT == unix.S_IFLNK }
func (k statKey) isRegular() bool { return k.mode&unix.S_IFMT == unix.S_IFREG }

// trusted reports whether k, taken at or after now, may vouch for the
// file later: its timestamps are older than the racy window.
func (k statKey) trusted(now int64, window time.Duration) bool {
	return max(k.mtime, k.ctime) < now-int64(window)
}

// lstatKey is lstat(2) without following a final symlink.
func lstatKey(path string) (statKey, error) {
	var st unix.Stat_t
	if err := unix.Lstat(path, &st); err != nil {
		return statKey{}, err
	}
	return keyOf(&st), nil
}

// statKeyOf is stat(2), following symlinks.
func statKeyOf(path string) (statKey, error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return statKey{}, err
	}
	return keyOf(&st), nil
}

func now() int64 { return time.Now().UnixNano() }
