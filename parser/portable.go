package parser

import (
	"regexp"
	"strings"

	"mvdan.cc/sh/v3/pattern"
)

// posixClasses are the character classes bash knows in [[:name:]].
var posixClasses = map[string]bool{
	"alnum": true, "alpha": true, "ascii": true, "blank": true, "cntrl": true, "digit": true,
	"graph": true, "lower": true, "print": true, "punct": true, "space": true, "upper": true,
	"word": true, "xdigit": true,
}

// globUnsupported returns why Glob cannot expand pat (a Word.Pattern:
// quoted characters escaped by a backslash) exactly as bash does, or "".
// Only a plain subset of bracket expressions is supported: single ASCII
// characters, ASCII ranges low to high, and the POSIX classes. Collating
// symbols [[.x.]], equivalence classes [[=x=]], unknown classes, reversed
// ranges, a / or a non-ASCII byte inside brackets, and anything mvdan's
// translator rejects are refused: the gate would otherwise take the word
// for a literal that names nothing while bash expands it.
func globUnsupported(pat string) string {
	for i := 0; i < len(pat); i++ {
		switch pat[i] {
		case '\\':
			i++
		case '[':
			end, why := bracket(pat, i)
			if why != "" {
				return why
			}
			if end > i {
				i = end
			}
		}
	}
	if !strings.ContainsAny(pat, "[\\") {
		return "" // only * and ?: nothing the translator rejects (Glob still checks)
	}
	expr, err := pattern.Regexp(pat, pattern.EntireString|pattern.Filenames|pattern.NoGlobStar)
	if err != nil {
		return "the glob " + pat + " cannot be translated: " + err.Error()
	}
	if _, err := regexp.Compile(expr); err != nil {
		return "the glob " + pat + " cannot be translated: " + err.Error()
	}
	return ""
}

// bracket checks the bracket expression opening at pat[i]. It returns
// the index of its closing ']' (or i when the '[' is a literal: no
// closing bracket) and why it is unsupported.
func bracket(pat string, i int) (int, string) {
	j := i + 1
	if j < len(pat) && (pat[j] == '!' || pat[j] == '^') {
		j++
	}
	first := true
	prev := -1 // the last single character, for a range
	for ; j < len(pat); j++ {
		ch := pat[j]
		switch {
		case ch == ']' && !first:
			return j, ""
		case ch >= 0x80 || ch < 0x20:
			return 0, "a bracket expression with a non-ASCII or control character matches by locale"
		case ch == '/':
			return 0, "a bracket expression holds a /"
		case ch == '[' && j+1 < len(pat) && pat[j+1] == ':':
			end := strings.Index(pat[j+2:], ":]")
			if end < 0 || !posixClasses[pat[j+2:j+2+end]] {
				return 0, "unknown character class in " + pat
			}
			j += 2 + end + 1
			prev = -1
		case ch == '[' && j+1 < len(pat) && (pat[j+1] == '.' || pat[j+1] == '='):
			return 0, "collating symbols [[.x.]] and equivalence classes [[=x=]] are not supported"
		case ch == '-' && prev >= 0 && j+1 < len(pat) && pat[j+1] != ']':
			k := j + 1
			if pat[k] == '\\' {
				k++
			}
			if k >= len(pat) || pat[k] >= 0x80 || pat[k] < 0x20 || pat[k] == '[' || pat[k] == '/' {
				return 0, "unsupported range end in " + pat
			}
			if int(pat[k]) < prev {
				return 0, "a reversed range in " + pat + " (bash and the gate disagree on what it matches)"
			}
			j = k
			prev = -1
		case ch == '\\':
			if j+1 >= len(pat) {
				return i, ""
			}
			j++
			prev = int(pat[j])
			if pat[j] >= 0x80 || pat[j] < 0x20 || pat[j] == '/' {
				return 0, "a bracket expression with an unusual quoted character"
			}
		default:
			prev = int(ch)
		}
		first = false
	}
	return i, "" // no closing ]: the [ is literal
}

// zshLit returns why an unquoted literal of a word reads differently
// under zsh, or "": =cmd (a program's path), $~x $=x $^x $+x (expansion
// flags), extendedglob's ^x and x#. start reports that v starts the
// word, last that nothing follows it in the word.
func zshLit(v string, start, last bool) string {
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '\\':
			i++
		case '=':
			if i == 0 && start && (len(v) > 1 || !last) {
				return "zsh expands =" + v[1:] + "… to the path of a program"
			}
		case '$':
			if i+1 < len(v) && strings.IndexByte("~=^+", v[i+1]) >= 0 {
				return "zsh reads $" + v[i+1:i+2] + " as a parameter expansion flag (bash as a literal $)"
			}
		case '^':
			if i == 0 && start || i > 0 && v[i-1] == '/' {
				return "with extendedglob, zsh reads ^ as a negated glob"
			}
		case '#':
			if i > 0 || !start {
				return "with extendedglob, zsh reads # as a glob repetition"
			}
		}
	}
	return ""
}
