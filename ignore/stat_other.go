//go:build !unix

package ignore

import (
	"io/fs"
	"os"
)

// keyOfInfo is the key of a file where the platform has no stat(2)
// (Windows): no device, inode or change time, so a file replaced by one
// of the same size and modification time is not seen to change.
func keyOfInfo(fi fs.FileInfo) statKey {
	k := statKey{mode: uint32(fi.Mode()), size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	k.ctime = k.mtime
	switch {
	case fi.Mode().IsRegular():
		k.typ = typeRegular
	case fi.IsDir():
		k.typ = typeDir
	case fi.Mode()&fs.ModeSymlink != 0:
		k.typ = typeLink
	}
	return k
}

// lstatKey is lstat without following a final symlink.
func lstatKey(path string) (statKey, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return statKey{}, err
	}
	return keyOfInfo(fi), nil
}

// statKeyOf is stat, following symlinks.
func statKeyOf(path string) (statKey, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return statKey{}, err
	}
	return keyOfInfo(fi), nil
}

// openFile opens an ignore file for reading and returns it with the key
// of the open file.
func openFile(abs string) (*os.File, statKey, error) {
	f, err := os.Open(abs)
	if err != nil {
		return nil, statKey{}, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, statKey{}, err
	}
	return f, keyOfInfo(fi), nil
}
