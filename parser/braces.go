package parser

import (
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Brace expansion follows bash's brace.c on the raw text of a word, before
// any other expansion, because that is what bash does: {x}a,b} is "x}a"
// and "b", and {$,}HOME is "$HOME" and "HOME". Each result is then parsed
// again as a word and analysed like any other (so a $[x] that braces
// create is found).

const (
	maxBraceResults = 256 // words one brace expansion may produce
	maxBraceDepth   = 16  // nesting of { in one word
	maxBraceOpen    = 128 // { characters in one word (the scan is quadratic)
)

// braceWords expands the braces of w and appends the analysed results to
// dst. ok is false when w has no brace expansion (dst is unchanged).
func (s *state) braceWords(w *syntax.Word, c *ctx, dst []Word) ([]Word, bool) {
	raw := braceSource(w, c)
	budget := maxBraceResults
	pos := c.pos(w.Pos())
	if strings.Count(raw, "{") > maxBraceOpen {
		s.find("parser.unsupported", pos, "too many braces in one word")
		return dst, false
	}
	results, ok := braceExpand(raw, &budget, 0)
	if !ok {
		s.find("parser.unsupported", pos, "brace expansion too large or nested too deeply")
		return dst, false
	}
	if len(results) == 1 && results[0] == raw {
		return dst, false
	}
	// Results are parsed again; their positions map to the word's start.
	nc := &ctx{fr: frame{nested: true, line: pos.Line, col: pos.Col}, wrappers: c.wrappers, depth: c.depth}
	for _, r := range results {
		if r == "" {
			continue // bash drops a word that braces made empty
		}
		src := "x " + escapeBraceDollar(r)
		if r[0] == '#' { // not a comment: quote it
			src = "x \\#" + escapeBraceDollar(r[1:])
		}
		f, err := s.p.Parse(strings.NewReader(src), "")
		var ce *syntax.CallExpr
		if err == nil && len(f.Stmts) == 1 && len(f.Stmts[0].Redirs) == 0 {
			ce, _ = f.Stmts[0].Cmd.(*syntax.CallExpr)
		}
		if ce == nil || len(ce.Args) != 2 || len(ce.Assigns) != 0 {
			s.find("parser.unsupported", pos, "brace expansion result "+strconv.Quote(r)+" is not one word")
			continue
		}
		nc.src = src
		s.noAssignTilde++ // bash does not expand a=~ in words braces made
		d := s.decode(ce.Args[1].Parts, nc, pos)
		s.noAssignTilde--
		dst = append(dst, d)
	}
	return dst, true
}

// braceSource is the text of w as bash's brace expansion sees it: $'…'
// and $"…" are already decoded by bash's parser, so they become plain
// quotes; anything else is the source as written.
func braceSource(w *syntax.Word, c *ctx) string {
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.SglQuoted:
			if !p.Dollar {
				b.WriteString(c.text(p))
				continue
			}
			v := string(appendANSIC(nil, p.Value))
			if i := strings.IndexByte(v, 0); i >= 0 {
				v = v[:i]
			}
			b.WriteString("'" + strings.ReplaceAll(v, "'", `'\''`) + "'")
		case *syntax.DblQuoted:
			t := c.text(p)
			if p.Dollar {
				t = t[1:]
			}
			b.WriteString(t)
		default:
			b.WriteString(c.text(p))
		}
	}
	return b.String()
}

// escapeBraceDollar quotes a $ that braces placed before a quote ($'…'
// or $"…" made by {$,}'…'): bash's parser never saw it, so it is a plain
// dollar sign.
func escapeBraceDollar(r string) string {
	if !strings.Contains(r, "$'") && !strings.Contains(r, `$"`) {
		return r
	}
	var b strings.Builder
	for i := 0; i < len(r); i++ {
		ch := r[i]
		switch {
		case ch == '\\' && i+1 < len(r):
			b.WriteString(r[i : i+2])
			i++
			continue
		case ch == '\'':
			j := strings.IndexByte(r[i+1:], '\'')
			if j < 0 {
				b.WriteString(r[i:])
				return b.String()
			}
			b.WriteString(r[i : i+j+2])
			i += j + 1
			continue
		case ch == '"':
			j := skipDquoted(r, i+1)
			b.WriteString(r[i:j])
			i = j - 1
			continue
		case ch == '$' && i+1 < len(r) && r[i+1] == '$': // $$, the shell's pid
			b.WriteString("$$")
			i++
			continue
		case ch == '$' && i+1 < len(r) && (r[i+1] == '{' || r[i+1] == '('):
			j := skipBalanced(r, i+1)
			b.WriteString(r[i:j])
			i = j - 1
			continue
		case ch == '$' && i+1 < len(r) && (r[i+1] == '\'' || r[i+1] == '"'):
			b.WriteByte('\\')
		}
		b.WriteByte(ch)
	}
	return b.String()
}

// skipDquoted returns the index after the double-quoted string whose body
// starts at i.
func skipDquoted(r string, i int) int {
	for ; i < len(r); i++ {
		switch r[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(r)
}

// skipBalanced returns the index after the bracketed text opening at i
// (${…}, $(…)), honouring quotes and backslashes.
func skipBalanced(r string, i int) int {
	open := r[i]
	closeCh := byte('}')
	if open == '(' {
		closeCh = ')'
	}
	depth := 0
	for ; i < len(r); i++ {
		switch r[i] {
		case '\\':
			i++
		case '\'':
			if j := strings.IndexByte(r[i+1:], '\''); j >= 0 {
				i += j + 1
			}
		case '"':
			i = skipDquoted(r, i+1) - 1
		case open:
			depth++
		case closeCh:
			if depth--; depth == 0 {
				return i + 1
			}
		}
	}
	return len(r)
}

// braceExpand is bash's brace_expand. budget bounds the number of words.
func braceExpand(text string, budget *int, depth int) ([]string, bool) {
	if depth > maxBraceDepth {
		return nil, false
	}
	// Find a { that starts a valid expansion.
	i, c := 0, byte(0)
	for {
		var c1 byte
		i, c1 = braceGobble(text, i, '{')
		if c1 == 0 {
			break
		}
		if _, c2 := braceGobble(text, i+1, '}'); c2 != 0 {
			c = '{'
			break
		}
		i++
	}
	if c != '{' {
		return []string{text}, true
	}
	preamble := text[:i]
	start := i + 1
	i, c = braceGobble(text, start, '}')
	if c == 0 {
		return []string{text}, true
	}
	amble := text[start:i]
	var tack []string
	if !hasBraceComma(amble) {
		seq, ok := braceSeq(amble)
		switch {
		case ok:
			tack = seq
		case seq != nil: // a sequence bash refuses to expand statically
			return nil, false
		case i+1 < len(text):
			tack = []string{text[start-1 : i+1]}
		default:
			return []string{text}, true
		}
	} else {
		var ok bool
		if tack, ok = braceAmble(amble, budget, depth+1); !ok {
			return nil, false
		}
	}
	result := make([]string, len(tack))
	for k, t := range tack {
		result[k] = preamble + t
	}
	if post := text[i+1:]; post != "" {
		rest, ok := braceExpand(post, budget, depth+1)
		if !ok {
			return nil, false
		}
		if len(result)*len(rest) > *budget {
			return nil, false
		}
		cross := make([]string, 0, len(result)*len(rest))
		for _, a := range result {
			for _, b := range rest {
				cross = append(cross, a+b)
			}
		}
		result = cross
	}
	if len(result) > *budget {
		return nil, false
	}
	return result, true
}

// hasBraceComma reports an unescaped comma (bash ignores quotes here).
func hasBraceComma(amble string) bool {
	for j := 0; j < len(amble); j++ {
		switch amble[j] {
		case '\\':
			j++
		case ',':
			return true
		}
	}
	return false
}

// braceAmble is bash's expand_amble: split at top-level commas, expand
// each piece.
func braceAmble(amble string, budget *int, depth int) ([]string, bool) {
	var out []string
	start := 0
	for {
		i, c := braceGobble(amble, start, ',')
		part, ok := braceExpand(amble[start:i], budget, depth)
		if !ok {
			return nil, false
		}
		out = append(out, part...)
		if len(out) > *budget {
			return nil, false
		}
		if c == 0 {
			return out, true
		}
		start = i + 1
	}
}

func braceSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

// braceGobble is bash's brace_gobbler: it returns the index of the first
// satisfy character at nesting level 0 outside quotes, and that character
// (0 when there is none). A closing brace only counts once a comma or ..
// was seen, so {x}a,b} closes at the last brace.
func braceGobble(text string, i int, satisfy byte) (int, byte) {
	level, commas := 0, 1
	if satisfy == '}' {
		commas = 0
	}
	var quoted byte
	for ; i < len(text); i++ {
		c := text[i]
		if c == '\\' && (quoted == 0 || quoted == '"' || quoted == '`') {
			i++
			continue
		}
		if quoted != 0 {
			if c == quoted {
				quoted = 0
			} else if quoted == '"' && c == '$' && i+1 < len(text) && text[i+1] == '(' {
				i = skipBalanced(text, i+1) - 1
			}
			continue
		}
		switch {
		case c == '"' || c == '\'' || c == '`':
			quoted = c
			continue
		case c == '$' && i+1 < len(text) && text[i+1] == '{':
			i++ // ${…} is not a brace expansion
			level++
			continue
		case (c == '$' || c == '<' || c == '>') && i+1 < len(text) && text[i+1] == '(':
			i = skipBalanced(text, i+1) - 1
			continue
		}
		if c == satisfy && level == 0 && commas > 0 {
			if c == '{' && (i == 0 || braceSpace(text[i-1])) &&
				(i+1 == len(text) || braceSpace(text[i+1]) || text[i+1] == '}') {
				continue
			}
			return i, c
		}
		switch {
		case c == '{':
			level++
		case c == '}' && level > 0:
			level--
		case satisfy == '}' && c == ',' && level == 0:
			commas++
		case satisfy == '}' && strings.HasPrefix(text[i:], "..") && i+2 < len(text) && text[i+2] != satisfy && level == 0:
			commas++
		}
	}
	return len(text), 0
}

// braceSeq is bash's expand_seqterm for x..y[..incr]. It returns ok=false
// and a nil slice when amble is not a sequence, and ok=false with a
// non-nil slice for a sequence it will not expand (too long, or letters
// that span punctuation, which bash would quote-process).
func braceSeq(amble string) ([]string, bool) {
	k := strings.Index(amble, "..")
	if k <= 0 || k+2 >= len(amble) {
		return nil, false
	}
	lhs, rhs := amble[:k], amble[k+2:]
	incrText := ""
	if j := strings.Index(rhs, ".."); j >= 0 {
		rhs, incrText = rhs[:j], rhs[j+2:]
		if incrText == "" {
			return nil, false
		}
	}
	isLetter := func(v string) bool {
		return len(v) == 1 && (v[0] >= 'a' && v[0] <= 'z' || v[0] >= 'A' && v[0] <= 'Z')
	}
	a, errA := strconv.ParseInt(lhs, 10, 64)
	b, errB := strconv.ParseInt(rhs, 10, 64)
	chars := false
	switch {
	case errA == nil && errB == nil:
	case isLetter(lhs) && isLetter(rhs):
		chars = true
		a, b = int64(lhs[0]), int64(rhs[0])
	default:
		return nil, false
	}
	incr := int64(1)
	if incrText != "" {
		n, err := strconv.ParseInt(incrText, 10, 64)
		if err != nil {
			return nil, false
		}
		incr = n
	}
	if incr == 0 {
		incr = 1
	}
	if (a > b && incr > 0) || (a < b && incr < 0) {
		incr = -incr
	}
	if n := (b-a)/incr + 1; n > maxBraceResults || n < 0 {
		return []string{}, false
	}
	width := 0
	if !chars {
		for _, t := range []string{lhs, rhs} {
			if len(t) > 1 && t[0] == '0' || len(t) > 2 && t[0] == '-' && t[1] == '0' {
				width = max(width, len(lhs), len(rhs))
			}
		}
	}
	var out []string
	for v := a; ; v += incr {
		if chars {
			ch := byte(v)
			if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z') {
				return []string{}, false
			}
			out = append(out, string(ch))
		} else {
			out = append(out, padInt(v, width))
		}
		if (incr > 0 && v+incr > b) || (incr < 0 && v+incr < b) {
			break
		}
	}
	return out, true
}

// padInt formats v like printf("%0*d", width, v).
func padInt(v int64, width int) string {
	str := strconv.FormatInt(v, 10)
	if len(str) >= width {
		return str
	}
	pad := strings.Repeat("0", width-len(str))
	if v < 0 {
		return "-" + pad + str[1:]
	}
	return pad + str
}
