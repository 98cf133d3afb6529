package parser

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// maxBraceResults bounds the words one brace expansion may produce.
const maxBraceResults = 256

// words decodes w and appends the results of its brace expansion to dst
// (one Word when w has no brace expansion).
func (s *state) words(w *syntax.Word, c *ctx, dst []Word) []Word {
	if !hasBrace(w) {
		return append(dst, s.word(w, c))
	}
	if braceDepth(w) > maxBraceDepth {
		s.find("parser.unsupported", c.pos(w.Pos()), "brace expansion nested too deeply")
		return append(dst, s.word(w, c))
	}
	cp := *w
	if !syntax.SplitBraces(&cp) {
		return append(dst, s.word(w, c))
	}
	pos := c.pos(w.Pos())
	alts, ok := expandBraces(cp.Parts)
	if !ok {
		s.find("parser.unsupported", pos, "brace expansion yields too many words")
		return append(dst, s.word(w, c))
	}
	s.scanWord(w, c) // report findings once, not once per result
	s.quiet++
	for _, parts := range alts {
		w := s.decode(parts, c, pos)
		if w.Value == "" && allLit(parts) {
			continue // bash drops empty unquoted results: {a,} is just a
		}
		dst = append(dst, w)
	}
	s.quiet--
	return dst
}

// maxBraceDepth bounds the nesting of braces in one word.
const maxBraceDepth = 16

// braceDepth returns the deepest nesting of { in the literals of w.
func braceDepth(w *syntax.Word) int {
	depth, deepest := 0, 0
	for _, p := range w.Parts {
		l, ok := p.(*syntax.Lit)
		if !ok {
			continue
		}
		for i := 0; i < len(l.Value); i++ {
			switch l.Value[i] {
			case '\\':
				i++
			case '{':
				depth++
				deepest = max(deepest, depth)
			case '}':
				depth = max(depth-1, 0)
			}
		}
	}
	return deepest
}

func allLit(parts []syntax.WordPart) bool {
	for _, p := range parts {
		if _, ok := p.(*syntax.Lit); !ok {
			return false
		}
	}
	return true
}

func hasBrace(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.IndexByte(l.Value, '{') >= 0 {
			return true
		}
	}
	return false
}

// expandBraces turns parts with BraceExp nodes into every combination.
func expandBraces(parts []syntax.WordPart) ([][]syntax.WordPart, bool) {
	out := [][]syntax.WordPart{nil}
	for _, p := range parts {
		br, ok := p.(*syntax.BraceExp)
		if !ok {
			for i := range out {
				out[i] = append(out[i], p)
			}
			continue
		}
		var alts [][]syntax.WordPart
		if br.Sequence {
			seq, ok := braceSequence(br)
			if !ok {
				return nil, false
			}
			for _, v := range seq {
				alts = append(alts, []syntax.WordPart{&syntax.Lit{Value: v}})
			}
		} else {
			for _, e := range br.Elems {
				sub, ok := expandBraces(e.Parts)
				if !ok {
					return nil, false
				}
				alts = append(alts, sub...)
			}
		}
		if len(out)*len(alts) > maxBraceResults {
			return nil, false
		}
		next := make([][]syntax.WordPart, 0, len(out)*len(alts))
		for _, o := range out {
			for _, a := range alts {
				n := make([]syntax.WordPart, 0, len(o)+len(a))
				n = append(append(n, o...), a...)
				next = append(next, n)
			}
		}
		out = next
	}
	return out, true
}

// braceSequence expands {x..y[..incr]} like bash.
func braceSequence(br *syntax.BraceExp) ([]string, bool) {
	from, to := br.Elems[0].Lit(), br.Elems[1].Lit()
	incr := int64(1)
	if len(br.Elems) == 3 {
		n, err := strconv.ParseInt(br.Elems[2].Lit(), 10, 64)
		if err != nil {
			return nil, false
		}
		if n < 0 {
			n = -n
		}
		if n != 0 {
			incr = n
		}
	}
	a, errA := strconv.ParseInt(from, 10, 64)
	b, errB := strconv.ParseInt(to, 10, 64)
	chars := errA != nil || errB != nil
	if chars {
		if len(from) != 1 || len(to) != 1 {
			return nil, false
		}
		a, b = int64(from[0]), int64(to[0])
	}
	width := 0
	if !chars && (hasLeadingZero(from) || hasLeadingZero(to)) {
		width = max(len(from), len(to))
	}
	step := incr
	if a > b {
		step = -incr
	}
	if n := (b-a)/step + 1; n > maxBraceResults || n < 0 {
		return nil, false
	}
	var out []string
	for v := a; (step > 0 && v <= b) || (step < 0 && v >= b); v += step {
		if chars {
			out = append(out, string(rune(v)))
			continue
		}
		str := strconv.FormatInt(v, 10)
		if width > 0 {
			neg := v < 0
			str = strings.TrimPrefix(str, "-")
			w := width
			if neg {
				w--
			}
			for len(str) < w {
				str = "0" + str
			}
			if neg {
				str = "-" + str
			}
		}
		out = append(out, str)
	}
	return out, true
}

func hasLeadingZero(s string) bool {
	s = strings.TrimPrefix(s, "-")
	return len(s) > 1 && s[0] == '0'
}

// word decodes w (no brace expansion) and reports the findings in it.
func (s *state) word(w *syntax.Word, c *ctx) Word {
	return s.decode(w.Parts, c, c.pos(w.Pos()))
}

// decode renders word parts as bash would pass them: quotes removed,
// escapes and $'…' decoded, ~ $HOME $PWD resolved. Non-static parts are
// kept as written and mark the word Dynamic.
func (s *state) decode(parts []syntax.WordPart, c *ctx, pos Pos) Word {
	// Fast path: one plain literal, nothing to decode.
	if len(parts) == 1 {
		if l, ok := parts[0].(*syntax.Lit); ok && plainLit(l.Value) {
			return Word{Value: l.Value, Pos: pos}
		}
	}
	out := Word{Pos: pos}
	s.buf, s.pbuf = s.buf[:0], s.pbuf[:0]
	s.decodeParts(parts, c, &out, false)
	if i := strings.IndexByte(string(s.buf), 0); i >= 0 {
		s.buf = s.buf[:i] // argv strings end at NUL
	}
	out.Value = string(s.buf)
	if out.Glob {
		out.Pattern = string(s.pbuf)
		out.Dynamic = out.Dynamic || s.globUnknown
	}
	return out
}

// plainLit reports whether an unquoted literal stands for itself.
func plainLit(v string) bool {
	if v == "" || v[0] == '~' {
		return false
	}
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '\\', '*', '?', '[', '=', 0:
			return false
		}
	}
	return true
}

func (s *state) decodeParts(parts []syntax.WordPart, c *ctx, out *Word, quoted bool) {
	for i, p := range parts {
		switch p := p.(type) {
		case *syntax.Lit:
			if quoted {
				n := len(s.buf)
				s.buf = appendDquoted(s.buf, p.Value)
				s.pbuf = appendQuoteMeta(s.pbuf, s.buf[n:])
			} else {
				s.unquotedLit(p.Value, i == 0 && len(s.buf) == 0, i == len(parts)-1, c, out)
			}
		case *syntax.SglQuoted:
			n := len(s.buf)
			if p.Dollar {
				s.buf = appendANSIC(s.buf, p.Value)
			} else {
				s.buf = append(s.buf, p.Value...)
			}
			s.pbuf = appendQuoteMeta(s.pbuf, s.buf[n:])
		case *syntax.DblQuoted:
			s.decodeParts(p.Parts, c, out, true)
		case *syntax.ParamExp:
			if s.quiet == 0 {
				s.paramExp(p, c)
			}
			if v, ok := s.resolve(p); ok {
				s.buf = append(s.buf, v...)
				if quoted {
					s.pbuf = appendQuoteMeta(s.pbuf, []byte(v))
				} else {
					s.pbuf = append(s.pbuf, v...)
				}
				continue
			}
			out.Dynamic = true
			s.raw(c.text(p))
		case *syntax.ExtGlob:
			out.Glob = true
			s.raw(c.text(p))
		default:
			if s.quiet == 0 { // brace expansion results: already scanned once
				s.scanPart(p, c)
			}
			out.Dynamic = true
			s.raw(c.text(p))
		}
	}
}

// raw appends text kept as written.
func (s *state) raw(t string) {
	s.buf = append(s.buf, t...)
	s.pbuf = append(s.pbuf, t...)
}

// appendQuoteMeta appends v with the pattern metacharacters escaped.
func appendQuoteMeta(dst, v []byte) []byte {
	for _, ch := range v {
		switch ch {
		case '*', '?', '[', ']', '\\':
			dst = append(dst, '\\')
		}
		dst = append(dst, ch)
	}
	return dst
}

// unquotedLit decodes an unquoted literal: backslash escapes, tilde
// prefixes, glob characters.
func (s *state) unquotedLit(v string, wordStart, last bool, c *ctx, out *Word) {
	if wordStart && strings.HasPrefix(v, "~") {
		v = s.tilde(v, last, out)
	}
	assign := wordStart && assignPrefix(v) > 0
	for i := 0; i < len(v); i++ {
		ch := v[i]
		switch ch {
		case '\\':
			if i+1 < len(v) {
				i++
				ch = v[i]
				s.pbuf = appendQuoteMeta(s.pbuf, []byte{ch})
				s.buf = append(s.buf, ch)
				continue
			}
		case '*', '?':
			out.Glob = true
		case '[':
			if strings.IndexByte(v[i+1:], ']') >= 0 {
				out.Glob = true
			}
		case '=', ':':
			// bash expands ~ after = and : in words that look like
			// assignments (x=~/a, PATH=~/bin:~/sbin).
			if assign && i+1 < len(v) && v[i+1] == '~' {
				s.buf = append(s.buf, ch)
				s.pbuf = append(s.pbuf, ch)
				rest := s.tilde(v[i+1:], last, out)
				i += len(v) - (i + 1) - len(rest) // skip the expanded prefix
				continue
			}
		}
		s.buf = append(s.buf, ch)
		s.pbuf = append(s.pbuf, ch)
	}
}

// assignPrefix returns the length of NAME= at the start of v, or 0.
func assignPrefix(v string) int {
	for i := 0; i < len(v); i++ {
		ch := v[i]
		switch {
		case ch == '=' && i > 0:
			return i + 1
		case ch == '_' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || i > 0 && ch >= '0' && ch <= '9':
		default:
			return 0
		}
	}
	return 0
}

// tilde expands a leading tilde prefix of v from Options.Env, returning
// the rest of v. A prefix it cannot resolve marks the word Dynamic.
func (s *state) tilde(v string, last bool, out *Word) string {
	end := strings.IndexAny(v, "/:")
	if end < 0 {
		if !last {
			return v // ~"user" or ~$x: quoted or dynamic prefix, kept
		}
		end = len(v)
	}
	var val string
	ok := false
	switch v[:end] {
	case "~":
		val, ok = s.opts.Env["HOME"]
		ok = ok && val != ""
	case "~+":
		val, ok = s.pwd()
	}
	if !ok {
		out.Dynamic = true
		return v
	}
	s.buf = append(s.buf, val...)
	s.pbuf = appendQuoteMeta(s.pbuf, []byte(val))
	return v[end:]
}

// pwd is the value of $PWD at the current command, if known.
func (s *state) pwd() (string, bool) {
	if s.cwd.dyn || !strings.HasPrefix(s.cwd.dir, "/") {
		return "", false
	}
	return s.cwd.dir, true
}

// resolve returns the value of $HOME or $PWD when p is a plain reference.
func (s *state) resolve(p *syntax.ParamExp) (string, bool) {
	if p.Param == nil || p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil ||
		p.Repl != nil || p.Names != 0 || p.Exp != nil || p.NestedParam != nil {
		return "", false
	}
	switch p.Param.Value {
	case "HOME":
		v, ok := s.opts.Env["HOME"]
		return v, ok
	case "PWD":
		return s.pwd()
	}
	return "", false
}

// appendDquoted decodes a literal inside double quotes (or an unquoted
// heredoc): a backslash escapes only $ ` " \ and newline.
func appendDquoted(buf []byte, v string) []byte {
	for i := 0; i < len(v); i++ {
		ch := v[i]
		if ch == '\\' && i+1 < len(v) {
			switch v[i+1] {
			case '$', '`', '"', '\\':
				i++
				ch = v[i]
			case '\n':
				i++
				continue
			}
		}
		buf = append(buf, ch)
	}
	return buf
}

// appendANSIC decodes the body of $'…' like bash.
func appendANSIC(buf []byte, v string) []byte {
	for i := 0; i < len(v); i++ {
		ch := v[i]
		if ch != '\\' || i+1 == len(v) {
			buf = append(buf, ch)
			continue
		}
		i++
		switch e := v[i]; e {
		case 'a':
			buf = append(buf, '\a')
		case 'b':
			buf = append(buf, '\b')
		case 'e', 'E':
			buf = append(buf, 0x1b)
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'v':
			buf = append(buf, '\v')
		case '\\', '\'', '"', '?':
			buf = append(buf, e)
		case 'c':
			if i+1 < len(v) {
				i++
				c := v[i]
				if c == '\\' && i+1 < len(v) && v[i+1] == '\\' {
					i++
				}
				if c >= 'a' && c <= 'z' {
					c -= 'a' - 'A'
				}
				buf = append(buf, c&0x1f)
			} else {
				buf = append(buf, '\\', 'c')
			}
		case '0', '1', '2', '3', '4', '5', '6', '7':
			n, j := 0, i
			for ; j < len(v) && j < i+3 && v[j] >= '0' && v[j] <= '7'; j++ {
				n = n*8 + int(v[j]-'0')
			}
			buf = append(buf, byte(n))
			i = j - 1
		case 'x', 'u', 'U':
			maxDigits := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			n, j := 0, i+1
			for ; j < len(v) && j < i+1+maxDigits && isHex(v[j]); j++ {
				n = n*16 + hexVal(v[j])
			}
			if j == i+1 {
				buf = append(buf, '\\', e)
				continue
			}
			if e == 'x' {
				buf = append(buf, byte(n))
			} else {
				buf = utf8.AppendRune(buf, rune(n))
			}
			i = j - 1
		default:
			buf = append(buf, '\\', e)
		}
	}
	return buf
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexVal(c byte) int {
	switch {
	case c >= 'a':
		return int(c-'a') + 10
	case c >= 'A':
		return int(c-'A') + 10
	}
	return int(c - '0')
}

// scanWord reports the findings inside w without decoding it.
func (s *state) scanWord(w *syntax.Word, c *ctx) {
	if w == nil {
		return
	}
	for _, p := range w.Parts {
		s.scanPart(p, c)
	}
}

func (s *state) scanPart(p syntax.WordPart, c *ctx) {
	switch p := p.(type) {
	case *syntax.Lit, *syntax.SglQuoted, *syntax.ExtGlob:
	case *syntax.DblQuoted:
		for _, q := range p.Parts {
			s.scanPart(q, c)
		}
	case *syntax.ParamExp:
		s.paramExp(p, c)
	case *syntax.CmdSubst:
		s.find("parser.command_substitution", c.pos(p.Left), "command substitution runs a command")
		s.list(p.Stmts, s.cwd, c)
	case *syntax.ProcSubst:
		s.find("parser.process_substitution", c.pos(p.OpPos), "process substitution runs a command")
		s.list(p.Stmts, s.cwd, c)
	case *syntax.ArithmExp:
		s.arithm(p.X, c)
	case *syntax.BraceExp:
		for _, e := range p.Elems {
			s.scanWord(e, c)
		}
	default:
		s.unsupported(p, c)
	}
}

// paramExp reports parameter expansions that run or re-read code.
func (s *state) paramExp(p *syntax.ParamExp, c *ctx) {
	pos := c.pos(p.Pos())
	if p.Excl || p.Names != 0 {
		s.find("parser.indirect_expansion", pos, "indirect expansion ${!…} reads a variable named by a value")
	}
	if p.NestedParam != nil || p.Flags != nil || len(p.Modifiers) > 0 {
		s.unsupported(p, c)
	}
	if p.Index != nil {
		if w, ok := p.Index.(*syntax.Word); !ok || (w.Lit() != "@" && w.Lit() != "*") {
			s.arithm(p.Index, c)
		}
	}
	if p.Slice != nil {
		if p.Slice.Offset != nil {
			s.arithm(p.Slice.Offset, c)
		}
		if p.Slice.Length != nil {
			s.arithm(p.Slice.Length, c)
		}
	}
	if p.Repl != nil {
		s.scanWord(p.Repl.Orig, c)
		s.scanWord(p.Repl.With, c)
	}
	if p.Exp != nil {
		if (p.Exp.Op == syntax.AssignUnset || p.Exp.Op == syntax.AssignUnsetOrNull) && p.Param != nil {
			s.checkEnv(p.Param.Value, pos) // ${PATH:=…} assigns
		}
		if p.Exp.Op == syntax.OtherParamOps {
			if op := p.Exp.Word.Lit(); op == "P" || op == "" {
				s.find("parser.indirect_expansion", pos, "${x@P} expands a value as a prompt, running code")
			}
		}
		s.scanWord(p.Exp.Word, c)
	}
}
