package ignore

// list is the compiled content of one ignore file (or the inline
// patterns): its patterns in file order, plus indexes so that literal
// patterns cost a map lookup instead of a scan. The answer is the same as
// scanning all patterns from the last to the first: the highest-numbered
// matching pattern wins.
type list struct {
	dir  string // directory of the file, relative to the root; "" for the root
	pats []pattern

	names    map[string]hit // literal last-component patterns: "id_rsa", ".env/"
	paths    map[string]hit // literal path patterns: "/config/prod.yaml"
	suffixes map[string]hit // "*.ext" patterns, keyed by ".ext"
	globs    []int          // every other pattern, ascending
}

// hit holds the highest pattern index for one index key: among all
// patterns, and among those that also match non-directories.
type hit struct{ any, file int }

func (h hit) pick(isDir bool) int {
	if isDir {
		return h.any
	}
	return h.file
}

// newList indexes the patterns of one file; dir is the file's directory
// relative to the root (lower case when folding).
func newList(dir string, pats []pattern) *list {
	l := &list{dir: dir, pats: pats}
	for i := range pats {
		pt := &pats[i]
		switch {
		case pt.prefix == len(pt.body) && pt.base:
			l.names = index(l.names, pt.lit, i, pt.dirOnly)
		case pt.prefix == len(pt.body):
			l.paths = index(l.paths, pt.lit, i, pt.dirOnly)
		case pt.base && len(pt.body) > 1 && pt.body[0] == '*' && pt.body[1] == '.' &&
			literalLen(pt.body[1:]) == len(pt.body)-1:
			suffix := pt.body[1:]
			if pt.flags&wmCaseFold != 0 {
				suffix = asciiLower(suffix)
			}
			l.suffixes = index(l.suffixes, suffix, i, pt.dirOnly)
		default:
			l.globs = append(l.globs, i)
		}
	}
	return l
}

func index(m map[string]hit, key string, i int, dirOnly bool) map[string]hit {
	if m == nil {
		m = make(map[string]hit)
	}
	h, ok := m[key]
	if !ok {
		h = hit{-1, -1}
	}
	h.any = i // patterns are added in ascending order
	if !dirOnly {
		h.file = i
	}
	m[key] = h
	return m
}

// match returns the index of the last pattern of l matching p (a path
// relative to the root, inside l.dir, lower case when folding), or -1.
// budget is the wildmatch step budget of the Match call.
func (l *list) match(p string, isDir bool, budget *int) int {
	name := p
	if l.dir != "" {
		name = p[len(l.dir)+1:]
	}
	last := lastComponent(p)
	best := -1
	if h, ok := l.names[last]; ok {
		best = max(best, h.pick(isDir))
	}
	if h, ok := l.paths[name]; ok {
		best = max(best, h.pick(isDir))
	}
	if l.suffixes != nil {
		for i := 0; i < len(last); i++ {
			if last[i] != '.' {
				continue
			}
			if h, ok := l.suffixes[last[i:]]; ok {
				best = max(best, h.pick(isDir))
			}
		}
	}
	for j := len(l.globs) - 1; j >= 0 && l.globs[j] > best; j-- {
		pt := &l.pats[l.globs[j]]
		if pt.dirOnly && !isDir {
			continue
		}
		if pt.matches(name, last, budget) {
			return l.globs[j]
		}
	}
	return best
}

func lastComponent(p string) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == '/' {
			return p[i+1:]
		}
	}
	return p
}
