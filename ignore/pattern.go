package ignore

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Pattern is one inline ignore pattern, in gitignore syntax, relative to
// the project root, with the place it came from.
type Pattern struct {
	// Text is the pattern as written, e.g. "*.pem", "secrets/", "!keep.env".
	Text string
	// Source names where the pattern was written, e.g. ".cmdguard.yaml:12".
	// Results cite it; it may be empty.
	Source string
}

// Error is a malformed ignore file or pattern: an unreadable file, a NUL
// byte, or a pattern git would never match (an unclosed '[', an unknown
// [:class:]). A pattern ending in an unescaped backslash is not one: it
// matches nothing, as in git, and [Warnings] reports it.
type Error struct {
	Source string // "dir/.rooignore:3", or an inline pattern's Source
	Text   string // the offending pattern, if any
	Err    error
}

func (e *Error) Error() string {
	if e.Text == "" {
		return fmt.Sprintf("%s: %v", e.Source, e.Err)
	}
	return fmt.Sprintf("%s: %v: %q", e.Source, e.Err, e.Text)
}

func (e *Error) Unwrap() error { return e.Err }

var (
	errTrailingBackslash = errors.New("pattern ends in an unescaped backslash: it matches nothing, as in git")
	errBracket           = errors.New("unclosed '[' or unknown [:class:]: the pattern can never match")
	errNUL               = errors.New("NUL byte in pattern")
	errNewline           = errors.New("line break in inline pattern")
	errEmpty             = errors.New("inline pattern is empty or a comment (write \\# for a leading #)")
)

// pattern is one compiled gitignore line.
type pattern struct {
	text    string  // as written after trimming: reported in Result.Pattern
	source  string  // "file:line": reported in Result.Source
	body    string  // without '!', trailing '/' and (for path patterns) leading '/'
	prefix  int     // length of the literal (wildcard-free) start of body
	lit     string  // body[:prefix], lower case when folding
	flags   wmFlags // wmCaseFold or 0
	negate  bool    // "!pat"
	dirOnly bool    // "pat/": matches directories only
	base    bool    // no '/' in body: matched against the last path component
}

// matches reports whether the pattern matches a path, given as name
// (relative to the directory of the pattern's file) and its last
// component, both lower case when folding. Directory-only patterns are
// filtered by the caller.
//
// When budget runs out (see wmBudget) the answer errs on the safe side: a
// pattern that ignores counts as matching, a negation as not.
func (pt *pattern) matches(name, last string, budget *int) bool {
	var matched, exhausted bool
	switch n := pt.prefix; {
	case pt.base:
		matched, exhausted = wildmatch(pt.body, last, pt.flags, budget)
	case n > 0:
		// As git's match_pathname: the literal prefix is compared as
		// is and the rest is matched as a pattern of its own (so a
		// '**' right after the prefix counts as starting the pattern).
		if n > len(name) || name[:n] != pt.lit {
			return false
		}
		if n == len(pt.body) {
			return n == len(name)
		}
		matched, exhausted = wildmatch(pt.body[n:], name[n:], pt.flags|wmPathname, budget)
	default:
		matched, exhausted = wildmatch(pt.body, name, pt.flags|wmPathname, budget)
	}
	if exhausted {
		return !pt.negate
	}
	return matched
}

// lines splits an ignore file into pattern lines as git does: an optional
// UTF-8 BOM is skipped, lines end at '\n' with one '\r' before it dropped,
// blank lines and lines starting with '#' are skipped, and unescaped
// trailing spaces are trimmed. fn receives each pattern with its 1-based
// line number; its error stops the scan.
func lines(data []byte, fn func(line int, text string) error) error {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	for n := 1; len(data) > 0; n++ {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		text := trimTrailingSpaces(string(line))
		if text == "" {
			continue
		}
		if err := fn(n, text); err != nil {
			return err
		}
	}
	return nil
}

// trimTrailingSpaces drops trailing ' ' (not tabs) unless escaped by a
// backslash, as git does.
func trimTrailingSpaces(s string) string {
	cut := -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ':
			if cut < 0 {
				cut = i
			}
		case '\\':
			i++
			if i == len(s) {
				return s
			}
			cut = -1
		default:
			cut = -1
		}
	}
	if cut >= 0 {
		return s[:cut]
	}
	return s
}

// compile turns one trimmed, non-blank, non-comment pattern line into a
// pattern, rejecting patterns git would silently never match. With fold,
// the pattern matches ASCII letters in either case (git's core.ignorecase).
func compile(text, source string, fold bool) (pattern, error) {
	pt := pattern{text: text, source: source}
	fail := func(err error) (pattern, error) {
		return pattern{}, &Error{Source: source, Text: text, Err: err}
	}
	if strings.IndexByte(text, 0) >= 0 {
		return fail(errNUL)
	}
	body := text
	if body[0] == '!' {
		pt.negate = true
		body = body[1:]
	}
	if strings.HasSuffix(body, "/") {
		pt.dirOnly = true
		body = body[:len(body)-1]
	}
	pt.base = strings.IndexByte(body, '/') < 0
	pt.prefix = literalLen(body)
	if !pt.base && body[0] == '/' {
		body = body[1:]
		pt.prefix--
	}
	pt.body = body
	pt.lit = body[:pt.prefix]
	if fold {
		pt.flags = wmCaseFold
		pt.lit = asciiLower(pt.lit)
	}
	if err := checkSyntax(body); err == errTrailingBackslash {
		// git reads it and never matches it: neither do we (Lint warns).
		pt.body, pt.lit, pt.prefix, pt.base, pt.flags = "\x00", "\x00", 1, true, 0
	} else if err != nil {
		return fail(err)
	}
	return pt, nil
}

// Warnings returns the patterns of an ignore file's data (named name)
// that git reads but that never match anything: a pattern ending in an
// unescaped backslash. They are not errors (git's answer is "matches
// nothing", and so is ours), but the person who wrote one meant to hide
// something. Lines that are errors are left to Load.
func Warnings(data []byte, name string) []*Error {
	var out []*Error
	lines(data, func(n int, text string) error {
		if w := warning(text, source(name, n)); w != nil {
			out = append(out, w)
		}
		return nil
	})
	return out
}

// PatternWarning is Warnings for one inline pattern.
func PatternWarning(p Pattern) *Error { return warning(p.Text, p.Source) }

func warning(text, src string) *Error {
	body := strings.TrimPrefix(text, "!")
	if checkSyntax(body) == errTrailingBackslash {
		return &Error{Source: src, Text: text, Err: errTrailingBackslash}
	}
	return nil
}

// literalLen returns the length of the wildcard-free start of p.
func literalLen(p string) int {
	for i := 0; i < len(p); i++ {
		if isGlobSpecial(p[i]) {
			return i
		}
	}
	return len(p)
}

// checkSyntax walks p as wildmatch does and reports a trailing backslash
// or a bracket expression that always aborts. Neither depends on the text,
// so git never matches such a pattern; we refuse it instead.
func checkSyntax(p string) error {
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
			if i == len(p) {
				return errTrailingBackslash
			}
		case '[':
			end, _, abort := bracket(p, i, 'a', false)
			if abort {
				return errBracket
			}
			i = end
		}
	}
	return nil
}

// asciiLower lowers ASCII letters only (as git's case folding does),
// without allocating when there are none.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				b[j] = toLower(b[j])
			}
			return string(b)
		}
	}
	return s
}

// source formats "file:line".
func source(file string, line int) string {
	return file + ":" + strconv.Itoa(line)
}
