package parser

import "errors"

// DirEntry is one entry of a directory, as a caller of ReachesIgnored
// lists it: a symbolic link is not a directory (grep -r, ripgrep and git
// do not follow links inside the tree).
type DirEntry struct {
	Name  string
	IsDir bool
}

// ErrWalkLimit is returned by ReachesIgnored when the directory holds
// more entries than it may visit: what lies beyond is unknown.
var ErrWalkLimit = errors.New("parser: more entries than the walk limit")

// ReachesIgnored reports whether the recursive reference fr can reach an
// ignored file under its directory: a file that is ignored itself or
// lies in an ignored directory, and that fr's Filter lets through (see
// PathFilter). Without a Filter it is whether any ignored entry lies
// under the directory, as a recursive read reaches every one.
//
// list returns the entries of a directory given relative to fr's
// directory ("" for the directory itself); ignored says whether an entry
// (relative path, whether it is a directory) is ignored. Neither is
// called outside fr's directory. At most limit entries are visited;
// beyond, the answer is true with ErrWalkLimit. An error of list or
// ignored ends the walk with true and that error: fail closed.
func (fr *FileRef) ReachesIgnored(list func(dir string) ([]DirEntry, error), ignored func(rel string, isDir bool) (bool, error), limit int) (bool, error) {
	w := reachWalk{fr: fr, list: list, ignored: ignored, budget: limit}
	return w.dir("", false)
}

type reachWalk struct {
	fr      *FileRef
	list    func(string) ([]DirEntry, error)
	ignored func(string, bool) (bool, error)
	budget  int
}

// dir walks the directory rel; under says it lies in an ignored
// directory, so that every file in it is ignored.
func (w *reachWalk) dir(rel string, under bool) (bool, error) {
	ents, err := w.list(rel)
	if err != nil {
		return true, err
	}
	for _, e := range ents {
		if w.budget--; w.budget < 0 {
			return true, ErrWalkLimit
		}
		p := e.Name
		if rel != "" {
			p = rel + "/" + e.Name
		}
		ign := under
		if !ign {
			if ign, err = w.ignored(p, e.IsDir); err != nil {
				return true, err
			}
		}
		if w.fr.Filter == nil && ign {
			return true, nil
		}
		if !w.fr.Selects(p, e.IsDir) {
			continue
		}
		if !e.IsDir {
			if ign {
				return true, nil
			}
			continue
		}
		if found, err := w.dir(p, ign); found || err != nil {
			return found, err
		}
	}
	return false, nil
}
