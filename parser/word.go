package parser

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// words decodes w and appends the results of its brace expansion to dst
// (one Word when w has no brace expansion).
func (s *state) words(w *syntax.Word, c *ctx, dst []Word) []Word {
	if len(s.vars) > 0 {
		if p, quoted := soleParam(w); p != nil {
			if out, ok := s.wholeWords(p, quoted, c, c.pos(w.Pos()), dst); ok {
				return out
			}
		}
	}
	if hasBrace(w) {
		if out, ok := s.braceWords(w, c, dst); ok {
			return out
		}
	}
	return append(dst, s.word(w, c))
}

// hasBrace reports an unquoted { in w, which may start a brace expansion.
func hasBrace(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.IndexByte(l.Value, '{') >= 0 {
			return true
		}
	}
	return false
}

// word decodes w (no brace expansion) and reports the findings in it.
func (s *state) word(w *syntax.Word, c *ctx) Word {
	if len(s.vars) > 0 {
		if p, quoted := soleParam(w); p != nil {
			// One word: a scalar, or an array of one literal ("${a[@]}"
			// of a glob may be several names, joined in an assignment).
			if out, ok := s.wholeWords(p, quoted, c, c.pos(w.Pos()), nil); ok && len(out) == 1 &&
				(!out[0].Glob || kindOf(p) == refPlain) {
				return out[0]
			}
		}
	}
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
	s.bracket, s.zshTilde = false, false
	s.decodeParts(parts, c, &out, false)
	if i := strings.IndexByte(string(s.buf), 0); i >= 0 {
		s.buf = s.buf[:i] // argv strings end at NUL
	}
	out.Value = string(s.buf)
	if out.Glob {
		out.Pattern = string(s.pbuf)
		out.Dynamic = out.Dynamic || s.sticky&stickyGlob != 0
		if why := globUnsupported(out.Pattern); why != "" {
			s.find("parser.unsupported", pos, why)
		}
		if strings.Contains(out.Pattern, "**") || s.zshTilde {
			s.find("parser.not_portable", pos, "zsh expands this glob differently from bash (** recurses, ~ excludes)")
		}
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
		case '\\', '*', '?', '[', '=', '^', '#', '$', 0:
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
				if strings.HasSuffix(p.Value, "$") && i+1 < len(parts) && s.quiet == 0 {
					if l, ok := parts[i+1].(*syntax.Lit); ok && l.Value != "" && strings.IndexByte("~=^+", l.Value[0]) >= 0 {
						s.find("parser.not_portable", out.Pos, "zsh reads $"+l.Value[:1]+" as a parameter expansion flag (bash as a literal $)")
					}
				}
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
				if p.Short && i+1 < len(parts) {
					s.zshSuffix(p, parts[i+1], c)
				}
			}
			// After brace expansion, $HOME{a,b} reads $HOMEa: the name
			// runs on into the literal that follows.
			nameRunsOn := false
			if p.Short && i+1 < len(parts) {
				if l, ok := parts[i+1].(*syntax.Lit); ok && l.Value != "" && isNameByte(l.Value[0]) {
					nameRunsOn = true
				}
			}
			if v, ok := s.resolve(p); ok && !nameRunsOn {
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
			// bash's extglob operators, and zsh's glob qualifiers
			// (*(e:cmd:) runs cmd): neither is expanded here.
			s.find("parser.not_portable", out.Pos, "an extended glob or zsh glob qualifier "+c.text(p)+" is not expanded by the gate")
			out.Glob = true
			s.raw(c.text(p))
		case *syntax.ArithmExp:
			if s.quiet == 0 {
				s.scanPart(p, c)
			}
			if n, ok := arithValue(p); ok {
				v := strconv.FormatInt(n, 10)
				s.buf = append(s.buf, v...)
				s.pbuf = append(s.pbuf, v...)
				continue
			}
			out.Dynamic = true
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
		case '*', '?', '[', ']', '\\', '!', '^', '-':
			// ! ^ and - only mean something inside brackets ([!a], [a-z]),
			// where a quoted one is literal.
			dst = append(dst, '\\')
		}
		dst = append(dst, ch)
	}
	return dst
}

// unquotedLit decodes an unquoted literal: backslash escapes, tilde
// prefixes, glob characters.
func (s *state) unquotedLit(v string, wordStart, last bool, c *ctx, out *Word) {
	ext := s.sticky&stickyGlob != 0 // an option may turn zsh's extendedglob on
	if why := zshLit(v, wordStart, last, ext); why != "" && s.quiet == 0 {
		s.find("parser.not_portable", out.Pos, why)
	}
	if i := strings.IndexByte(v, '~'); ext && (i > 0 || i == 0 && !wordStart) {
		s.zshTilde = true
	}
	if wordStart && strings.HasPrefix(v, "~") {
		v = s.tilde(v, last, false, out)
	}
	eq := -1 // the = of NAME=, after which (and after each :) bash expands ~
	if n := assignPrefix(v); wordStart && n > 0 && s.noAssignTilde == 0 {
		eq = n - 1
	}
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
			// An unquoted [ and a later unquoted ] make a bracket
			// expression, even when parts between them are quoted
			// (.e["n"]v matches .env).
			s.bracket = true
			if strings.IndexByte(v[i+1:], ']') >= 0 {
				out.Glob = true
			}
		case ']':
			if s.bracket {
				out.Glob = true
			}
		case '=', ':':
			// bash expands ~ after = and : in words that look like
			// assignments (x=~/a, PATH=~/bin:~/sbin).
			if eq >= 0 && (i == eq || ch == ':' && i > eq) && i+1 < len(v) && v[i+1] == '~' {
				s.buf = append(s.buf, ch)
				s.pbuf = append(s.pbuf, ch)
				rest := s.tilde(v[i+1:], last, true, out)
				i += len(v) - (i + 1) - len(rest) // skip the expanded prefix
				continue
			}
		}
		s.buf = append(s.buf, ch)
		s.pbuf = append(s.pbuf, ch)
	}
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
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
func (s *state) tilde(v string, last, inAssign bool, out *Word) string {
	stop := "/"
	if inAssign {
		stop = "/:"
	}
	end := strings.IndexAny(v, stop)
	if end < 0 {
		if !last {
			// ~"user" or ~$x: a quoted or dynamic prefix, kept; bash
			// treats ~x:… and ~x=… oddly, so those stay unknown.
			out.Dynamic = out.Dynamic || !inAssign && strings.ContainsAny(v, ":=")
			return v
		}
		end = len(v)
	}
	var val string
	ok := false
	switch v[:end] { // ~user, ~-, ~N and bash's odd ~x:y and ~x=y forms stay unknown
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
	if s.cwd.dyn || s.sticky&stickyPWD != 0 || !strings.HasPrefix(s.cwd.dir, "/") || s.cwd.chain.unsure() {
		return "", false
	}
	return s.cwd.dir, true
}

// resolve returns the value of $HOME or $PWD when p is a plain reference.
func (s *state) resolve(p *syntax.ParamExp) (string, bool) {
	if p.Param == nil || p.Excl || p.Length || p.Width || p.Index != nil || p.Slice != nil ||
		p.Repl != nil || p.Names != 0 || p.Exp != nil || p.NestedParam != nil {
		return s.varText(p) // ${#a[@]}
	}
	switch p.Param.Value {
	case "HOME":
		v, ok := s.opts.Env["HOME"]
		return v, ok
	case "PWD":
		return s.pwd()
	}
	return s.varText(p)
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
			s.zshParam(p.Param.Value, pos)
		}
		if p.Exp.Op == syntax.OtherParamOps {
			if op := p.Exp.Word.Lit(); op == "P" || op == "" {
				s.find("parser.indirect_expansion", pos, "${x@P} expands a value as a prompt, running code")
			}
		}
		s.scanWord(p.Exp.Word, c)
	}
}

// zshSuffix reports what zsh reads after an unbraced $name that bash
// reads as a literal: a subscript $F[2,-1] or a modifier $F:h, $F:s/x/y/.
// zsh names another word than bash, so a value the gate resolved is not
// what zsh uses; a subscript zsh evaluates as arithmetic (a variable's
// value runs as code there).
func (s *state) zshSuffix(p *syntax.ParamExp, next syntax.WordPart, c *ctx) {
	l, ok := next.(*syntax.Lit)
	if !ok || l.Value == "" || p.Param == nil {
		return
	}
	pos := c.pos(p.Pos())
	switch v := l.Value; {
	case v[0] == '[':
		sub, _, _ := strings.Cut(v[1:], "]")
		if strings.Trim(sub, "0123456789,-@*") != "" {
			s.find("parser.arithmetic_variable", pos, "zsh reads $"+p.Param.Value+"["+sub+"] as a subscript, evaluated as arithmetic: a variable's value runs as code")
			return
		}
		if _, known := s.resolve(p); known {
			s.find("parser.not_portable", pos, "zsh reads $"+p.Param.Value+"["+sub+"] as a subscript of the value (bash as the value followed by ["+sub+"])")
		}
	case v[0] == ':' && len(v) > 1 && strings.IndexByte(zshModifiers, v[1]) >= 0:
		if _, known := s.resolve(p); known {
			s.find("parser.not_portable", pos, "zsh reads $"+p.Param.Value+v[:2]+" as a modifier of the value (bash as the value followed by "+v[:2]+")")
		}
	}
}

// zshModifiers are the letters zsh reads as a history-style modifier
// after $name: (zshexpn(1), Modifiers), checked with zsh 5.9.
const zshModifiers = "aAcefFghlPqQrstuwWx&"
