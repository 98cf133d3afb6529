package ignore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// maxLinks bounds the symbolic links followed while resolving one path,
// as the kernel's ELOOP limit does.
const maxLinks = 40

// PathInfo is what the gate needs to know about one file reference.
type PathInfo struct {
	// Abs is the reference made absolute against the cwd and cleaned
	// lexically ("a/../b" is "b"): the path as written.
	Abs string
	// Real is the path the kernel would open: every symbolic link
	// resolved, ".." applied after the link it follows. For a path that
	// does not exist, the longest existing prefix is resolved (dangling
	// links included: writing through one creates its target) and the
	// rest appended.
	Real string
	// Rel and RealRel are Abs and Real relative to the root,
	// slash-separated, "." for the root itself; empty when outside.
	Rel, RealRel string
	// Outside and RealOutside report that Abs or Real leaves the root.
	Outside, RealOutside bool
	// Exists reports that Real exists; IsDir that it is a directory.
	Exists, IsDir bool
}

// Resolve computes the PathInfo of name, a file reference whose ~ and
// $HOME are already expanded (see ExpandHome), resolved against cwd.
// root must be absolute; a relative cwd is taken relative to root, an
// empty one is root. The written path counts as inside when it is inside
// root either as given or with root's own symlinks resolved. Resolve reads
// the file system (lstat and readlink per component) and returns an error
// for a symlink loop or a component that cannot be examined.
func Resolve(root, cwd, name string) (PathInfo, error) {
	if !filepath.IsAbs(root) {
		return PathInfo{}, fmt.Errorf("resolve %q: root %q is not absolute", name, root)
	}
	root = filepath.Clean(root)
	realRoot, _, _, err := realpath("/", root, nil)
	if err != nil {
		return PathInfo{}, fmt.Errorf("resolve root: %w", err)
	}
	return resolve(root, realRoot, cwd, name, nil)
}

// Resolve is the function Resolve for the Matcher's root, whose real path
// it resolved once at Load: cheaper per call.
func (m *Matcher) Resolve(cwd, name string) (PathInfo, error) {
	if m == nil {
		return PathInfo{}, errors.New("resolve: nil Matcher")
	}
	return resolve(m.root, m.real, cwd, name, m.look)
}

// resolve is Resolve with root clean and realRoot its real path; look
// looks up directory entries (lstatEntry when nil).
func resolve(root, realRoot, cwd, name string, look lookupFunc) (PathInfo, error) {
	switch {
	case cwd == "":
		cwd = root
	case !filepath.IsAbs(cwd):
		cwd = root + "/" + cwd
	}
	raw := name
	if !filepath.IsAbs(name) {
		raw = cwd + "/" + name
	}
	// Start from the real root when the path is written under the root:
	// its components are resolved already.
	start, rest := "/", raw
	if r, ok := under(root, raw); ok {
		start, rest = realRoot, r
	} else if r, ok := under(realRoot, raw); ok {
		start, rest = realRoot, r
	}
	real, exists, isDir, err := realpath(start, rest, look)
	if err != nil {
		return PathInfo{}, fmt.Errorf("resolve %q: %w", name, err)
	}
	info := PathInfo{Abs: filepath.Clean(raw), Real: real, Exists: exists, IsDir: isDir}
	var ok bool
	if info.Rel, ok = within(root, info.Abs); !ok {
		info.Rel, ok = within(realRoot, info.Abs)
	}
	info.Outside = !ok
	info.RealRel, ok = within(realRoot, real)
	info.RealOutside = !ok
	return info, nil
}

// under returns the rest of p after dir and a separator (p not cleaned).
func under(dir, p string) (string, bool) {
	if dir == "/" {
		return p[1:], true
	}
	if len(p) > len(dir) && p[len(dir)] == '/' && p[:len(dir)] == dir {
		return p[len(dir)+1:], true
	}
	return "", false
}

// entry is what resolution needs of one directory entry: its type and,
// for a symlink, its target. missing is set for a name that does not
// exist (ENOENT, ENOTDIR).
type entry struct {
	mode    fs.FileMode // type bits only
	target  string
	missing bool
}

// lookupFunc looks up entry name of directory dir (absolute, real).
type lookupFunc func(dir, name string) (entry, error)

// lstatEntry is the uncached lookupFunc: one lstat, and a readlink for a
// symlink.
func lstatEntry(dir, name string) (entry, error) {
	next := dir + "/" + name
	if dir == "/" {
		next = "/" + name
	}
	fi, err := os.Lstat(next)
	if err != nil {
		if missing(err) {
			return entry{missing: true}, nil
		}
		return entry{}, err
	}
	e := entry{mode: fi.Mode().Type()}
	if e.mode&fs.ModeSymlink != 0 {
		if e.target, err = os.Readlink(next); err != nil {
			return entry{}, err
		}
	}
	return e, nil
}

// realpath resolves rest (a relative path, not necessarily clean) below
// dir (absolute and real) component by component as the kernel does, and
// reports whether the result exists and is a directory. Past the first
// missing component the rest is appended lexically. look looks entries
// up (lstatEntry when nil).
func realpath(dir, rest string, look lookupFunc) (real string, exists, isDir bool, err error) {
	if look == nil {
		look = lstatEntry
	}
	resolved := dir
	known, lastDir := false, false // the type of resolved, when known
	links := 0
	for rest != "" {
		c := rest
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			c, rest = rest[:i], rest[i+1:]
		} else {
			rest = ""
		}
		switch c {
		case "", ".":
			continue
		case "..":
			resolved, known = filepath.Dir(resolved), false
			continue
		}
		e, err := look(resolved, c)
		if err != nil {
			return "", false, false, err
		}
		next := resolved + "/" + c
		if resolved == "/" {
			next = "/" + c
		}
		if e.missing {
			if rest == "" {
				return next, false, false, nil
			}
			return filepath.Join(next, rest), false, false, nil
		}
		if e.mode&fs.ModeSymlink == 0 {
			resolved, known, lastDir = next, true, e.mode.IsDir()
			continue
		}
		if links++; links > maxLinks {
			return "", false, false, &fs.PathError{Op: "resolve", Path: next, Err: syscall.ELOOP}
		}
		target := e.target
		if filepath.IsAbs(target) {
			resolved, known = "/", false
		}
		if rest != "" {
			target += "/" + rest
		}
		rest = target
	}
	if !known {
		fi, err := os.Stat(resolved)
		if err != nil {
			if missing(err) {
				return resolved, false, false, nil
			}
			return "", false, false, err
		}
		lastDir = fi.IsDir()
	}
	return resolved, true, lastDir, nil
}

// missing reports errors that mean "this path does not exist".
func missing(err error) bool {
	return errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
}

// within returns p relative to root (slash-separated, "." for root).
func within(root, p string) (string, bool) {
	switch {
	case p == root:
		return ".", true
	case root == string(filepath.Separator):
		return filepath.ToSlash(p[1:]), true
	case strings.HasPrefix(p, root) && p[len(root)] == filepath.Separator:
		return filepath.ToSlash(p[len(root)+1:]), true
	}
	return "", false
}

// ExpandHome replaces a leading "~", "$HOME" or "${HOME}" (alone or
// followed by '/') with home. Other forms ("~user", "$HOMEDIR") and an
// empty home leave p unchanged.
func ExpandHome(p, home string) string {
	if home == "" {
		return p
	}
	for _, prefix := range [...]string{"~", "${HOME}", "$HOME"} {
		if rest, ok := strings.CutPrefix(p, prefix); ok && (rest == "" || rest[0] == '/') {
			return home + rest
		}
	}
	return p
}
