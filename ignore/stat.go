package ignore

import "time"

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
	typ          fileType
	size         int64
	mtime, ctime int64 // nanoseconds
}

// fileType is a statKey's kind of file, from the platform's mode bits.
type fileType uint8

const (
	typeOther fileType = iota
	typeRegular
	typeDir
	typeLink
)

func (k statKey) isDir() bool     { return k.typ == typeDir }
func (k statKey) isLink() bool    { return k.typ == typeLink }
func (k statKey) isRegular() bool { return k.typ == typeRegular }

// trusted reports whether k, taken at or after now, may vouch for the
// file later: its timestamps are older than the racy window.
func (k statKey) trusted(now int64, window time.Duration) bool {
	return max(k.mtime, k.ctime) < now-int64(window)
}

func now() int64 { return time.Now().UnixNano() }
