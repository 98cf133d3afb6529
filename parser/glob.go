package parser

import (
	"errors"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/pattern"
)

// MaxGlobResults bounds the paths one Glob call may return.
const MaxGlobResults = 4096

// ErrTooManyMatches is returned by Glob when a pattern matches more than
// MaxGlobResults paths. Callers should refuse rather than check a subset.
var ErrTooManyMatches = errors.New("glob matches too many paths")

// Glob expands a bash pathname pattern the way bash does with its default
// options: no dotglob (a '*', '?' or bracket expression never matches a
// leading '.' of a name unless the pattern component starts with '.'),
// no globstar ('**' is '*'), no nullglob, no extglob, and '.' and '..'
// never match (bash 5.2's globskipdots). A backslash quotes the next
// character (see Word.Pattern). [!a] and [^a] negate.
//
// A relative pattern is resolved against dir and its results are relative
// too, written as the pattern is (src/*.go → src/a.go); an absolute
// pattern yields absolute paths. Results are sorted bytewise. No match
// returns nil and no error: bash then keeps the word as written. A
// pattern Glob cannot expand exactly as bash does (collating symbols,
// equivalence classes, unknown classes, reversed ranges: see the
// parser.unsupported finding) is an error, never "no match".
//
// readDir lists a directory (os.ReadDir fits); Glob touches nothing else,
// never the user database. An error other than fs.ErrNotExist and
// ErrNotDir-like failures of readDir on a directory that a pattern needs
// is returned.
func Glob(pat, dir string, readDir func(string) ([]fs.DirEntry, error)) ([]string, error) {
	if pat == "" {
		return nil, nil
	}
	root := ""
	if strings.HasPrefix(pat, "/") {
		root = "/"
		pat = strings.TrimLeft(pat, "/")
	}
	comps := strings.Split(pat, "/")
	// Candidates are pairs of the path as written and the path to read.
	type cand struct{ written, real string }
	real0 := dir
	if root != "" {
		real0 = "/"
	}
	cands := []cand{{written: root, real: real0}}
	for i, comp := range comps {
		last := i == len(comps)-1
		if comp == "" {
			if last { // trailing slash: only directories remain
				for k := range cands {
					cands[k].written += "/"
				}
			}
			continue
		}
		var next []cand
		if !pattern.HasMeta(comp, 0) {
			name := unescapeGlob(comp)
			for _, c := range cands {
				nc := cand{join(c.written, name), path.Join(c.real, name)}
				if last || name == "." || name == ".." {
					if last {
						ok, err := exists(readDir, c.real, name)
						if err != nil {
							return nil, err
						}
						if !ok {
							continue
						}
					}
				}
				next = append(next, nc)
			}
		} else {
			if why := globUnsupported(comp); why != "" {
				return nil, errors.New(why) // fail closed: bash may expand what the gate cannot
			}
			expr, err := pattern.Regexp(comp, pattern.EntireString|pattern.Filenames|pattern.NoGlobStar)
			if err != nil {
				return nil, err
			}
			rx, err := regexp.Compile(expr)
			if err != nil {
				return nil, err
			}
			dotOK := strings.HasPrefix(comp, ".") || strings.HasPrefix(comp, `\.`)
			// What a bracket expression matches of a non-ASCII name
			// depends on bash's locale ([[:alpha:]] matches é in
			// C.UTF-8): refuse rather than guess.
			brackets := strings.Contains(comp, "[")
			for _, c := range cands {
				ents, err := readDir(c.real)
				if err != nil {
					if errors.Is(err, fs.ErrNotExist) || isNotDir(err) {
						continue
					}
					return nil, err
				}
				for _, e := range ents {
					n := e.Name()
					if n == "." || n == ".." || (n[0] == '.' && !dotOK) {
						continue
					}
					if brackets && !isASCII(n) {
						return nil, errors.New("a bracket expression against the non-ASCII name " + n + " matches by locale")
					}
					if !rx.MatchString(n) {
						continue
					}
					if !last && !e.IsDir() && e.Type()&fs.ModeSymlink == 0 {
						continue
					}
					next = append(next, cand{join(c.written, n), path.Join(c.real, n)})
					if len(next) > MaxGlobResults {
						return nil, ErrTooManyMatches
					}
				}
			}
		}
		cands = next
		if len(cands) == 0 {
			return nil, nil
		}
	}
	out := make([]string, 0, len(cands))
	for _, c := range cands {
		out = append(out, c.written)
	}
	slices.Sort(out)
	return out, nil
}

func join(a, b string) string {
	switch {
	case a == "":
		return b
	case strings.HasSuffix(a, "/"):
		return a + b
	}
	return a + "/" + b
}

func isNotDir(err error) bool {
	return err != nil && strings.Contains(err.Error(), "not a directory")
}

// exists reports whether dir holds an entry called name.
func exists(readDir func(string) ([]fs.DirEntry, error), dir, name string) (bool, error) {
	if name == "." || name == ".." {
		return true, nil
	}
	ents, err := readDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || isNotDir(err) {
			return false, nil
		}
		return false, err
	}
	for _, e := range ents {
		if e.Name() == name {
			return true, nil
		}
	}
	return false, nil
}

// unescapeGlob removes the backslashes that quote characters of a pattern.
func unescapeGlob(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
