package seatbelt

import (
	"bytes"
	"fmt"
	"path"
	"strconv"
	"strings"
)

// An IgnoreFile is one ignore file (gitignore syntax) and the directory
// its patterns are relative to.
type IgnoreFile struct {
	// Dir is the absolute directory the patterns apply to (the ignore
	// file's own directory), spelled as on disk; it is put in the kernel's
	// spelling (see KernelPath).
	Dir string
	// Name is cited in the rules' Source ("sub/.gitignore").
	Name string
	// Content is the file's content, read as git reads it (an optional
	// BOM, CRLF lines, comments, trailing spaces).
	Content []byte
}

// TranslateOptions changes how patterns are matched.
type TranslateOptions struct {
	// FoldCase matches as git does with core.ignorecase=true (its quirks
	// included: an escaped capital letter and a single capital bracket
	// member match nothing), and the ignore files' directories in either
	// case. Give it on a case-insensitive volume (the default on macOS),
	// as the gate's matcher is given ignore.Options.FoldCase: otherwise a
	// program that names ".ENV" may get past a rule for ".env".
	FoldCase bool
}

// A Rule is one ignore pattern as regular expressions over absolute
// paths, in the subset of [CompileRegex]. The paths it hides are those
// Self matches (when DirOnly, only if they are directories) and
// everything under them (Under).
type Rule struct {
	Source  string // "file:line"
	Pattern string // the line as git read it
	DirOnly bool   // "foo/": the directory and what is under it
	// Self matches the paths the pattern names; Under matches every path
	// below one of them. Both are anchored (^…$) and exact: every byte as
	// itself.
	Self, Under string
	// SBPLSelf and SBPLUnder are the same for a profile: bytes a profile
	// cannot hold (see Widened) are written as classes that also match
	// other such bytes.
	SBPLSelf, SBPLUnder string
	// Widened reports that SBPLSelf and SBPLUnder match more paths than
	// Self and Under (a control byte, '"', '\' or a byte ≥ 0x80 in the
	// pattern or its directory).
	Widened bool

	dir  string // kernel spelling
	pt   pattern
	fold bool
}

// A Negation is an ignore pattern "!…" that would take a path back out of
// what an earlier pattern hides. Deny rules cannot give a path back, so
// the stricter answer holds: the paths it names stay hidden. Self matches
// them (only directories when DirOnly).
type Negation struct {
	Source, Pattern string
	DirOnly         bool
	Self            string
}

// A Skipped pattern matches no path: git reads it and never matches it
// (a trailing backslash, an unclosed '[', an unknown [:class:], or with
// FoldCase an escaped capital letter).
type Skipped struct {
	Source, Pattern, Reason string
}

// A Translation is what [Translate] makes of a set of ignore files.
type Translation struct {
	Rules     []Rule
	Negations []Negation // re-inclusions not honoured: their paths stay hidden
	Skipped   []Skipped
}

// Translate turns ignore files into rules that hide what git would
// ignore, as `git check-ignore` decides it, given every file of the
// project's ignore files; nested ones may be given in any order. No
// negation is honoured: the rules hide exactly the paths git ignores,
// everything under an ignored directory, and the paths negations would
// give back. Those negations are listed (see [Negation]): each one that
// names a path an earlier pattern (one it could override) names too.
// The list may hold a negation git does not honour either (it cannot
// give back a file below an excluded directory), never leaves one out.
//
// Its error is a directory that is not absolute, or a NUL byte.
func Translate(files []IgnoreFile, opts TranslateOptions) (*Translation, error) {
	tr := &Translation{}
	type placed struct {
		pt         pattern
		dir        string
		file, line int
		neg        Negation
	}
	var positives, negs []placed
	for fi, f := range files {
		if !path.IsAbs(f.Dir) {
			return nil, fmt.Errorf("ignore file %s: directory %q is not absolute", f.Name, f.Dir)
		}
		dir := KernelPath(f.Dir)
		if strings.IndexByte(dir, 0) >= 0 {
			return nil, fmt.Errorf("ignore file %s: NUL byte in directory", f.Name)
		}
		var err error
		forLines(f.Content, func(line int, text string) {
			if err != nil {
				return
			}
			src := f.Name + ":" + strconv.Itoa(line)
			if strings.IndexByte(text, 0) >= 0 {
				err = fmt.Errorf("%s: NUL byte in pattern", src)
				return
			}
			pt, reason := parsePattern(text, opts.FoldCase)
			if reason != "" {
				tr.Skipped = append(tr.Skipped, Skipped{Source: src, Pattern: text, Reason: reason})
				return
			}
			if pt.negate {
				exact := &emitter{}
				writeSelf(exact, dir, pt, opts.FoldCase)
				negs = append(negs, placed{pt, dir, fi, line,
					Negation{Source: src, Pattern: text, DirOnly: pt.dirOnly, Self: exact.b.String() + "$"}})
				return
			}
			r := Rule{Source: src, Pattern: text, DirOnly: pt.dirOnly, dir: dir, pt: pt, fold: opts.FoldCase}
			exact := &emitter{}
			writeSelf(exact, dir, pt, opts.FoldCase)
			r.Self = exact.b.String() + "$"
			r.Under = exact.b.String() + "(/[^/]*)+$"
			sb := &emitter{unsafe: sbplUnsafe}
			writeSelf(sb, dir, pt, opts.FoldCase)
			r.SBPLSelf = sb.b.String() + "$"
			r.SBPLUnder = sb.b.String() + "(/[^/]*)+$"
			r.Widened = sb.widened
			tr.Rules = append(tr.Rules, r)
			positives = append(positives, placed{pt: pt, dir: dir, file: fi, line: line})
		})
		if err != nil {
			return nil, err
		}
	}
	// A negation matters when a positive pattern it could override comes
	// before it (one in the same file above it, or one in a file of a
	// directory above its own: git lets the deeper file win) and some
	// path matches both. The expressions compared leave out the
	// directory all the files share, which both would start with.
	if len(negs) == 0 {
		return tr, nil
	}
	root := negs[0].dir
	for _, p := range append(positives, negs...) {
		for !under(p.dir, root) {
			root = path.Dir(root)
		}
	}
	rel := func(p placed, suffix string) *Regex {
		e := &emitter{}
		writeSelf(e, path.Join("/", strings.TrimPrefix(p.dir, root)), p.pt, opts.FoldCase)
		re, err := CompileRegex(e.b.String() + suffix)
		if err != nil {
			return nil // never: the emitter writes the subset
		}
		return re
	}
	for _, n := range negs {
		nre := rel(n, "$")
		for _, p := range positives {
			same := p.file == n.file && p.line < n.line
			if !same && !(p.dir != n.dir && under(n.dir, p.dir)) && !(p.file != n.file && p.dir == n.dir) {
				continue
			}
			// Only what p names itself: what is below a directory it
			// excludes git never takes back (and a negation that gives
			// back the directory is listed for it).
			self := rel(p, "$")
			if nre == nil || self == nil || nre.Intersects(self) {
				tr.Negations = append(tr.Negations, n.neg)
				break
			}
		}
	}
	return tr, nil
}

// under reports whether dir is at or below top.
func under(dir, top string) bool {
	return dir == top || top == "/" || strings.HasPrefix(dir, top+"/")
}

// forLines calls fn with each pattern line of an ignore file, as git
// reads it: an optional UTF-8 BOM is skipped, lines end at '\n' with one
// '\r' before it dropped, empty lines and lines starting with '#' are
// skipped, and unescaped trailing spaces are trimmed.
func forLines(data []byte, fn func(line int, text string)) {
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
		text := trimSpaces(string(line))
		if text != "" {
			fn(n, text)
		}
	}
}

// trimSpaces drops trailing ' ' (not tabs) unless escaped by a backslash.
func trimSpaces(s string) string {
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

// A pattern is one parsed ignore line.
type pattern struct {
	negate, dirOnly bool
	base            bool   // no '/': matches the last component at any depth
	prefix          string // anchored: the literal start, compared as is
	atoms           []atom // the rest, from its own start
}

// parsePattern parses one trimmed line. A non-empty reason says why it
// matches nothing.
func parsePattern(text string, fold bool) (pattern, string) {
	var pt pattern
	body := text
	if body[0] == '!' {
		pt.negate = true
		body = body[1:]
	}
	if strings.HasSuffix(body, "/") {
		pt.dirOnly = true
		body = body[:len(body)-1]
	}
	if body == "" {
		return pt, "empty pattern"
	}
	pt.base = strings.IndexByte(body, '/') < 0
	if !pt.base && body[0] == '/' {
		body = body[1:]
	}
	if !pt.base {
		// git compares the wildcard-free start as is and matches the rest
		// as a pattern of its own (so "**" right after it counts as
		// starting the pattern).
		n := 0
		for n < len(body) && !strings.ContainsRune(`*?[\`, rune(body[n])) {
			n++
		}
		pt.prefix, body = body[:n], body[n:]
	}
	atoms, reason := globAtoms(body, fold)
	if reason != "" {
		return pt, reason
	}
	pt.atoms = atoms
	return pt, ""
}

// globAtoms translates a wildmatch pattern (in WM_PATHNAME mode: '*', '?'
// and brackets never match '/') into atoms.
func globAtoms(p string, fold bool) ([]atom, string) {
	var out []atom
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '\\':
			i++
			if i == len(p) {
				return nil, "ends in an unescaped backslash"
			}
			var s byteSet
			e := p[i]
			// With folding git lowers the text byte but compares it to
			// the escaped byte as written: a capital matches nothing.
			switch {
			case !fold:
				s.add(e)
			case 'a' <= e && e <= 'z':
				s = litSet(e, true)
			case 'A' <= e && e <= 'Z':
				return nil, "escaped capital letter under case folding matches nothing"
			default:
				s.add(e)
			}
			out = append(out, atom{kind: one, set: s})
		case '?':
			out = append(out, atom{kind: one, set: notSlash})
		case '[':
			s, end, ok := bracketSet(p, i, fold)
			if !ok {
				return nil, "unclosed '[' or unknown [:class:]"
			}
			s = s.without('/').without(0)
			if s.empty() {
				return nil, "bracket expression matches no byte"
			}
			out = append(out, atom{kind: one, set: s})
			i = end
		case '*':
			first := i
			for i+1 < len(p) && p[i+1] == '*' {
				i++
			}
			double := i > first
			next := i + 1
			special := double && (first == 0 || p[first-1] == '/') &&
				(next == len(p) || p[next] == '/' || (p[next] == '\\' && next+1 < len(p) && p[next+1] == '/'))
			switch {
			case !special:
				if len(out) == 0 || out[len(out)-1].kind != many {
					out = append(out, atom{kind: many, set: notSlash})
				}
			case next == len(p):
				out = append(out, atom{kind: rest})
			case p[next] == '/':
				// "**/": any number of directories, none included.
				out = append(out, atom{kind: dirs0})
				i = next
			default:
				// "**\/": at least one '/', the escaped one last.
				out = append(out, atom{kind: dirs1})
				i = next + 1
			}
		default:
			out = append(out, atom{kind: one, set: litSet(c, fold)})
		}
	}
	return out, ""
}

// bracketSet reads the bracket expression at p[open] == '[' as git's
// wildmatch does, and returns the set of text bytes it matches (before
// the '/' rule), the index of its ']', and false when git never matches
// it (unclosed, or an unknown class). With fold, membership is git's: the
// text byte is lowered first, ranges also try its capital, [:upper:] and
// [:lower:] take every letter, single members compare as written.
func bracketSet(p string, open int, fold bool) (byteSet, int, bool) {
	var set byteSet
	end := -1
	for t := 1; t < 256; t++ {
		tc := byte(t)
		if fold && 'A' <= tc && tc <= 'Z' {
			tc += 'a' - 'A'
		}
		e, ok, abort := bracketMatch(p, open, tc, fold)
		if abort {
			return set, 0, false
		}
		end = e
		if ok {
			set.add(byte(t))
		}
	}
	return set, end, true
}

// at returns p[i], or 0 past the end (as the C string's NUL).
func at(p string, i int) byte {
	if i < len(p) {
		return p[i]
	}
	return 0
}

// bracketMatch is git's bracket step for one text byte tc.
func bracketMatch(p string, open int, tc byte, fold bool) (end int, ok, abort bool) {
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
			} else if fold && 'a' <= tc && tc <= 'z' {
				if up := tc - 'a' + 'A'; prev <= up && up <= c {
					matched = true
				}
			}
			c = 0
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
				if tc == '[' {
					matched = true
				}
				c = '['
				break
			}
			in, known := posixClass(p[s:j-1], tc, fold)
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

// posixClass is git's ASCII-only ctype for [:name:].
func posixClass(name string, c byte, fold bool) (in, known bool) {
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

// writeSelf writes the start of a rule's regex: the directory, then the
// pattern, without the final anchor.
func writeSelf(e *emitter, dir string, pt pattern, fold bool) {
	e.b.WriteString("^")
	writeDir(e, dir, fold)
	e.b.WriteString("/")
	if pt.base {
		e.atom(atom{kind: dirs0})
	} else {
		e.literal(pt.prefix, fold)
	}
	for _, a := range pt.atoms {
		e.atom(a)
	}
}

// writeDir writes an absolute directory (kernel spelling) as a regex
// piece: with fold every letter in either case (the default APFS volume
// ignores case), and an optional "/System/Volumes/Data" before a
// firmlinked top directory.
func writeDir(e *emitter, dir string, fold bool) {
	if dir == "/" {
		return
	}
	if firmlinked(dir) {
		e.b.WriteString("(")
		e.literal(dataVolume, false)
		e.b.WriteString(")?")
	}
	e.literal(dir, fold)
}
