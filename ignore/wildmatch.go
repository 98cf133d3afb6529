package ignore

import "strings"

// Results of dowild. Besides match and no match, two "abort" results prune
// the search the way git's wildmatch does: abortAll means no other split of
// an enclosing '*' can succeed either (the text ran out), and
// abortToStarStar means only an enclosing '**' may still try further. They
// are sound prunings that keep patterns like "*a*a*a*a*b" from exploding.
const (
	wmMatch = iota
	wmNoMatch
	wmAbortAll
	wmAbortToStarStar
	wmExhausted // the step budget ran out
)

// wmBudget bounds the wildmatch steps of one Match call, across all the
// patterns and ancestor directories it tries. Backtracking over several
// "**" can take time polynomial of high degree in the text length (git's
// wildmatch too: "a/**/b/**/c/**/d/**/e" against a 4 KB path of "b/c/d/"
// repeats takes minutes); a path written by an agent must not stall the
// gate. An ordinary Match takes a few hundred steps, a thousand patterns
// a few thousand.
const wmBudget = 1 << 20

// Flags of wildmatch, as git's WM_PATHNAME and WM_CASEFOLD.
type wmFlags uint8

const (
	// wmPathname: '*', '?' and brackets do not match '/', and '**'
	// between slashes (or at either end) matches any number of
	// directories.
	wmPathname wmFlags = 1 << iota
	// wmCaseFold: ASCII letters match either case, with git's quirks: an
	// escaped letter and a single bracket member are compared as written
	// (so "\A" and "[A]" match nothing), a range also matches the upper
	// case of a lower-case byte, and [:upper:] and [:lower:] match any
	// letter.
	wmCaseFold
)

// toLower lowers ASCII letters only, as git's ctype does.
func toLower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// isGlobSpecial reports the bytes that start a wildcard construct.
func isGlobSpecial(c byte) bool {
	return c == '*' || c == '?' || c == '[' || c == '\\'
}

// at returns p[i], or 0 past the end: the end of a pattern reads as NUL,
// as in C. Patterns with NUL bytes are rejected by compile.
func at(p string, i int) byte {
	if i < len(p) {
		return p[i]
	}
	return 0
}

// wildmatch reports whether text matches the glob pattern p with git's
// wildmatch semantics, or that it could not tell within the steps left in
// budget (which it decrements).
func wildmatch(p, text string, f wmFlags, budget *int) (matched, exhausted bool) {
	r := dowild(p, text, f, budget)
	return r == wmMatch, r == wmExhausted
}

func dowild(p, t string, f wmFlags, budget *int) int {
	if *budget--; *budget < 0 {
		return wmExhausted
	}
	pathname, fold := f&wmPathname != 0, f&wmCaseFold != 0
	pi, ti := 0, 0
	for ; pi < len(p); pi, ti = pi+1, ti+1 {
		pc := p[pi]
		if ti >= len(t) && pc != '*' {
			return wmAbortAll
		}
		tc := at(t, ti)
		if fold {
			tc, pc = toLower(tc), toLower(pc)
		}
		switch pc {
		case '\\':
			// An escaped byte matches itself; a trailing backslash
			// matches nothing.
			pi++
			if pi >= len(p) || tc != p[pi] {
				return wmNoMatch
			}
		default:
			if tc != pc {
				return wmNoMatch
			}
		case '?':
			if pathname && tc == '/' {
				return wmNoMatch
			}
		case '[':
			end, ok, abort := bracket(p, pi, tc, fold)
			if abort {
				return wmAbortAll
			}
			if !ok || (pathname && tc == '/') {
				return wmNoMatch
			}
			pi = end
		case '*':
			first := pi
			pi++
			matchSlash := !pathname
			if at(p, pi) == '*' {
				for pi < len(p) && p[pi] == '*' {
					pi++
				}
				// "**" is special only as a whole path component:
				// preceded by the pattern start or '/', followed
				// by the end, '/' or an escaped '/'.
				if pathname && (first == 0 || p[first-1] == '/') &&
					(pi == len(p) || p[pi] == '/' || (p[pi] == '\\' && at(p, pi+1) == '/')) {
					// "**/" may match no directory at all.
					if pi < len(p) && p[pi] == '/' {
						if r := dowild(p[pi+1:], t[ti:], f, budget); r == wmMatch || r == wmExhausted {
							return r
						}
					}
					matchSlash = true
				} else if pathname {
					matchSlash = false
				}
			}
			if pi == len(p) {
				// A trailing '*' matches the rest of this
				// component, a trailing '**' everything.
				if !matchSlash && strings.IndexByte(t[ti:], '/') >= 0 {
					return wmNoMatch
				}
				return wmMatch
			}
			if !matchSlash && p[pi] == '/' {
				// "*/" matches exactly one component.
				slash := strings.IndexByte(t[ti:], '/')
				if slash < 0 {
					return wmNoMatch
				}
				ti += slash
				continue // the loop step consumes the '/' in both
			}
			for ti < len(t) {
				// A literal after the star: skip text up to it.
				if c := p[pi]; !isGlobSpecial(c) {
					if fold {
						c = toLower(c)
					}
					for ti < len(t) && (matchSlash || t[ti] != '/') && t[ti] != c && (!fold || toLower(t[ti]) != c) {
						ti++
					}
					if ti >= len(t) || (t[ti] != c && (!fold || toLower(t[ti]) != c)) {
						return wmNoMatch
					}
				}
				r := dowild(p[pi:], t[ti:], f, budget)
				if r != wmNoMatch {
					if !matchSlash || r != wmAbortToStarStar {
						return r
					}
				} else if !matchSlash && t[ti] == '/' {
					return wmAbortToStarStar
				}
				ti++
			}
			return wmAbortAll
		}
	}
	if ti < len(t) {
		return wmNoMatch
	}
	return wmMatch
}

// bracket matches the text byte tc against the bracket expression that
// starts at p[open] == '['. It returns the index of the closing ']',
// whether tc is in the set (negation applied), and abort when the
// expression is malformed (unclosed, or an unknown [:class:]); git never
// matches such a pattern. As in git, ']' right after "[" or "[!" is a
// member, '^' negates like '!', a '-' at either end is literal, and "[:"
// without a closing ":]" is an ordinary '['. With fold, tc is already
// lower case (see wmCaseFold).
func bracket(p string, open int, tc byte, fold bool) (end int, ok, abort bool) {
	i := open + 1
	c := at(p, i)
	negated := c == '!' || c == '^'
	if negated {
		i++
		c = at(p, i)
	}
	var prev byte
	matched := false
	for {
		switch {
		case c == 0:
			return 0, false, true
		case c == '\\':
			i++
			c = at(p, i)
			if c == 0 {
				return 0, false, true
			}
			if tc == c {
				matched = true
			}
		case c == '-' && prev != 0 && at(p, i+1) != 0 && at(p, i+1) != ']':
			i++
			c = p[i]
			if c == '\\' {
				i++
				c = at(p, i)
				if c == 0 {
					return 0, false, true
				}
			}
			if prev <= tc && tc <= c {
				matched = true
			} else if up := tc - 'a' + 'A'; fold && 'a' <= tc && tc <= 'z' && prev <= up && up <= c {
				matched = true
			}
			c = 0 // a range end cannot start another range
		case c == '[' && at(p, i+1) == ':':
			s := i + 2
			j := s
			for at(p, j) != 0 && p[j] != ']' {
				j++
			}
			if at(p, j) == 0 {
				return 0, false, true
			}
			if j-s-1 < 0 || p[j-1] != ':' {
				// No ":]": a literal '['.
				if tc == '[' {
					matched = true
				}
				c = '['
				break
			}
			in, known := class(p[s:j-1], tc, fold)
			if !known {
				return 0, false, true
			}
			if in {
				matched = true
			}
			i = j
			c = 0
		default:
			if tc == c {
				matched = true
			}
		}
		prev = c
		i++
		c = at(p, i)
		if c == ']' {
			return i, matched != negated, false
		}
	}
}

// class reports whether c is in the POSIX character class name, using
// git's ASCII-only ctype (bytes ≥ 0x80 are in no class; "space" is
// " \t\n\r"), and whether name is a known class. With fold, "upper" and
// "lower" hold every letter.
func class(name string, c byte, fold bool) (in, known bool) {
	lower := 'a' <= c && c <= 'z'
	upper := 'A' <= c && c <= 'Z'
	digit := '0' <= c && c <= '9'
	switch name {
	case "alnum":
		return lower || upper || digit, true
	case "alpha":
		return lower || upper, true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return digit, true
	case "graph":
		return 0x21 <= c && c <= 0x7e, true
	case "lower":
		return lower || (fold && upper), true
	case "print":
		return 0x20 <= c && c <= 0x7e, true
	case "punct":
		return 0x21 <= c && c <= 0x7e && !lower && !upper && !digit, true
	case "space":
		return c == ' ' || c == '\t' || c == '\n' || c == '\r', true
	case "upper":
		return upper || (fold && lower), true
	case "xdigit":
		return digit || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F'), true
	}
	return false, false
}
