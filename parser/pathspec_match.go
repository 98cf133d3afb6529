package parser

// This file holds the pattern matchers of the filters: git's wildmatch
// (pathspecs; ripgrep's globs are gitignore globs, matched the same
// way) and POSIX fnmatch (grep's --include and --exclude). Both are
// written from the programs' documented behaviour and checked against
// the real programs (pathspec_test.go, misread_filter_test.go).

// Flags of wildmatch.
const (
	// wmPathname: *, ? and […] never match a slash, and ** matches
	// across directories where it stands for whole components (**/x,
	// x/**, x/**/y): git's :(glob) magic, gitignore globs. Without it a
	// star matches any string, slashes included, and ** is *: git's
	// default pathspec matching (fnmatch without FNM_PATHNAME).
	wmPathname = 1 << iota
	// wmCasefold: letters match either case (git's :(icase)).
	wmCasefold
	// wmPeriod: a leading dot of the text matches only a literal dot
	// (fnmatch's FNM_PERIOD).
	wmPeriod
)

// maxMatchWork bounds the table of a match (pattern tokens × text
// bytes): a longer input is answered by the caller's conservative
// default instead.
const maxMatchWork = 1 << 16

type wmKind uint8

const (
	wmLit   wmKind = iota // one byte
	wmAny                 // ?: one byte
	wmStar                // * (slash says whether it crosses /)
	wmDirs                // **/ under wmPathname: nothing, or anything ending in /
	wmClass               // […]
)

type wmToken struct {
	kind  wmKind
	c     byte   // wmLit
	slash bool   // wmStar: matches / too
	neg   bool   // wmClass: [!…] or [^…]
	set   string // wmClass: the class's items, see inClass
}

// wmCompile splits a pattern into tokens; ok is false for a pattern
// that never matches (an unterminated […], an unknown [:class:], a
// trailing backslash), as in git, where the whole match then fails.
func wmCompile(pat string, flags int) (toks []wmToken, ok bool) {
	pathname := flags&wmPathname != 0
	for i := 0; i < len(pat); i++ {
		c := pat[i]
		switch c {
		case '\\':
			if i+1 >= len(pat) {
				return nil, false
			}
			i++
			toks = append(toks, wmToken{kind: wmLit, c: pat[i]})
		case '?':
			toks = append(toks, wmToken{kind: wmAny})
		case '*':
			j := i
			for j < len(pat) && pat[j] == '*' {
				j++
			}
			double := j-i >= 2
			switch {
			case !pathname:
				toks = append(toks, wmToken{kind: wmStar, slash: true})
			case double && (i == 0 || pat[i-1] == '/') && j < len(pat) && pat[j] == '/':
				toks = append(toks, wmToken{kind: wmDirs})
				j++ // the slash is part of the token
			case double && (i == 0 || pat[i-1] == '/') && j == len(pat):
				toks = append(toks, wmToken{kind: wmStar, slash: true})
			default:
				toks = append(toks, wmToken{kind: wmStar})
			}
			i = j - 1
		case '[':
			t, n, ok := wmClassToken(pat[i:])
			if !ok {
				return nil, false
			}
			toks = append(toks, t)
			i += n - 1
		default:
			toks = append(toks, wmToken{kind: wmLit, c: c})
		}
	}
	return toks, true
}

// wmClassToken reads the bracket expression at the start of p (p[0] is
// '['), returning its token and length. The set is encoded as items of
// three bytes: 'c' X X for a byte, 'r' LO HI for a range, ':' N 0 for a
// named class (index into classNames).
func wmClassToken(p string) (wmToken, int, bool) {
	t := wmToken{kind: wmClass}
	i := 1
	if i < len(p) && (p[i] == '!' || p[i] == '^') {
		t.neg = true
		i++
	}
	var set []byte
	first := true
	for ; i < len(p); i++ {
		c := p[i]
		if c == ']' && !first {
			t.set = string(set)
			return t, i + 1, true
		}
		first = false
		if c == '\\' {
			if i+1 >= len(p) {
				return t, 0, false
			}
			i++
			c = p[i]
		} else if c == '[' && i+1 < len(p) && p[i+1] == ':' {
			end := -1
			for k := i + 2; k+1 < len(p); k++ {
				if p[k] == ':' && p[k+1] == ']' {
					end = k
					break
				}
				if p[k] == ']' {
					break
				}
			}
			if end >= 0 {
				n := classIndex(p[i+2 : end])
				if n < 0 {
					return t, 0, false // git: an unknown class fails the match
				}
				set = append(set, ':', byte(n), 0)
				i = end + 1
				continue
			}
			// not a class: [ is an ordinary member
		}
		if i+2 < len(p) && p[i+1] == '-' && p[i+2] != ']' {
			hi := p[i+2]
			i += 2
			if hi == '\\' {
				if i+1 >= len(p) {
					return t, 0, false
				}
				i++
				hi = p[i]
			}
			set = append(set, 'r', c, hi)
			continue
		}
		set = append(set, 'c', c, c)
	}
	return t, 0, false // unterminated
}

var classNames = []string{"alnum", "alpha", "blank", "cntrl", "digit", "graph", "lower", "print", "punct", "space", "upper", "xdigit"}

func classIndex(name string) int {
	for i, n := range classNames {
		if n == name {
			return i
		}
	}
	return -1
}

func inNamedClass(n int, c byte, fold bool) bool {
	isLower, isUpper := c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z'
	isDigit := c >= '0' && c <= '9'
	switch classNames[n] {
	case "alnum":
		return isLower || isUpper || isDigit
	case "alpha":
		return isLower || isUpper
	case "blank":
		return c == ' ' || c == '\t'
	case "cntrl":
		return c < 32 || c == 127
	case "digit":
		return isDigit
	case "graph":
		return c > 32 && c < 127
	case "lower":
		return isLower || fold && isUpper
	case "print":
		return c >= 32 && c < 127
	case "punct":
		return c > 32 && c < 127 && !isLower && !isUpper && !isDigit
	case "space":
		return c == ' ' || c >= '\t' && c <= '\r'
	case "upper":
		return isUpper || fold && isLower
	case "xdigit":
		return isDigit || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
	}
	return false
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

func (t *wmToken) inClass(c byte, fold bool) bool {
	in := false
	for k := 0; k+2 < len(t.set); k += 3 {
		lo, hi := t.set[k+1], t.set[k+2]
		switch t.set[k] {
		case ':':
			in = inNamedClass(int(lo), c, fold)
		default:
			in = lo <= c && c <= hi || fold && (lo <= lower(c) && lower(c) <= hi || lo <= upper(c) && upper(c) <= hi)
		}
		if in {
			break
		}
	}
	return in != t.neg
}

// wildmatch reports whether text matches pat under flags; ok is false
// when the input is too long to decide within maxMatchWork, and the
// caller must take its conservative answer.
func wildmatch(pat, text string, flags int) (match, ok bool) {
	toks, valid := wmCompile(pat, flags)
	if !valid {
		return false, true
	}
	return wmTokens(toks, text, flags)
}

// wmTokens matches compiled tokens by dynamic programming over (token,
// text offset): polynomial for any pattern.
func wmTokens(toks []wmToken, text string, flags int) (match, ok bool) {
	n, m := len(toks), len(text)
	if (n+1)*(m+1) > maxMatchWork {
		return false, false
	}
	pathname, fold, period := flags&wmPathname != 0, flags&wmCasefold != 0, flags&wmPeriod != 0
	// can[j] after row i: the tokens i… match text[j:].
	next := make([]bool, m+1)
	cur := make([]bool, m+1)
	next[m] = true // no tokens match only the empty rest
	for i := n - 1; i >= 0; i-- {
		t := &toks[i]
		for j := m; j >= 0; j-- {
			v := false
			leadingDot := period && j == 0 && j < m && text[j] == '.'
			switch t.kind {
			case wmLit:
				v = j < m && (text[j] == t.c || fold && lower(text[j]) == lower(t.c)) && next[j+1]
			case wmAny:
				v = j < m && !(pathname && text[j] == '/') && !leadingDot && next[j+1]
			case wmClass:
				v = j < m && !(pathname && text[j] == '/') && !leadingDot && t.inClass(text[j], fold) && next[j+1]
			case wmStar:
				// * matches nothing (next[j]) or one more byte (cur[j+1]).
				v = next[j] || j < m && (t.slash || text[j] != '/') && !leadingDot && cur[j+1]
			case wmDirs:
				// nothing, or a run of components each ending in /.
				v = next[j]
				for k := j; !v && k < m; k++ {
					if text[k] == '/' && next[k+1] {
						v = true
					}
				}
			}
			cur[j] = v
		}
		next, cur = cur, next
	}
	return next[0], true
}

// fnmatch is POSIX fnmatch without FNM_PATHNAME: grep's --include and
// --exclude globs on a base name. A leading dot needs no literal dot.
func fnmatch(pat, name string) (match, ok bool) {
	return wildmatch(pat, name, 0)
}
