//go:build unix

package ignore

import (
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

func keyOf(st *unix.Stat_t) statKey {
	k := statKey{
		dev: uint64(st.Dev), ino: uint64(st.Ino), mode: uint32(st.Mode), size: st.Size,
		mtime: unix.TimespecToNsec(st.Mtim), ctime: unix.TimespecToNsec(st.Ctim),
	}
	switch uint32(st.Mode) & unix.S_IFMT {
	case unix.S_IFREG:
		k.typ = typeRegular
	case unix.S_IFDIR:
		k.typ = typeDir
	case unix.S_IFLNK:
		k.typ = typeLink
	}
	return k
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

// openFile opens an ignore file for reading and returns it with the key
// of the open file. O_NONBLOCK: a FIFO planted under an ignore-file name
// must not hang the Matcher; the caller refuses any non-regular file.
func openFile(abs string) (*os.File, statKey, error) {
	fd, err := unix.Open(abs, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, statKey{}, &fs.PathError{Op: "open", Path: abs, Err: err}
	}
	f := os.NewFile(uintptr(fd), abs)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		f.Close()
		return nil, statKey{}, err
	}
	return f, keyOf(&st), nil
}
