package parser

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// scriptRefs analyses the program of sed or awk (an -e value or the
// first operand): commands that run a shell (sed e, s///e; awk system(),
// pipes, @load) are parser.eval, and the files they name are file
// references (sed r/w) or Maybe references (awk string literals).
func (s *state) scriptRefs(cmd *Command, kind scriptKind, base string, args []Word, roles *roleTable) {
	var scriptsArr [2]Word
	scripts := scriptsArr[:0]
	fromFile := false
	vals, suffix := "", ""
	if roles != nil {
		vals, suffix = roles.vals, roles.suffix
	}
	if kind != sedLang {
		vals += "eilE" // gawk --source, --include, --load, --exec
	}
	split := splitShort(cutOptVal(args, suffix, vals), letters(vals), true)
	for i := 0; i < len(split); i++ {
		a := split[i]
		v := a.Value
		if v == "--" {
			if !fromFile && len(scripts) == 0 && i+1 < len(split) {
				scripts = append(scripts, split[i+1])
			}
			break
		}
		next := func() (Word, bool) {
			if i+1 >= len(split) {
				return Word{}, false
			}
			i++
			return split[i], true
		}
		name, val, hasVal, long := longOpt(v)
		switch {
		case a.Dynamic || len(v) < 2 || v[0] != '-':
			if !fromFile && len(scripts) == 0 {
				scripts = append(scripts, a)
			}
			i = len(split) // only the first operand is a program
		case kind != sedLang && (v == "-l" || long && longIs(name, "load")):
			s.find("parser.eval", a.Pos, base+" "+v+" loads a shared library")
			next()
		case v == "-e" && kind == sedLang, long && (kind == sedLang && longIs(name, "expression") || kind != sedLang && longIs(name, "source")),
			v == "-e" && kind != sedLang:
			w := Word{Value: val, Pos: a.Pos, Dynamic: a.Dynamic}
			if !hasVal {
				var ok bool
				if w, ok = next(); !ok {
					continue
				}
			}
			scripts = append(scripts, w)
		case v == "-f" || v == "-E" && kind != sedLang || v == "-i" && kind != sedLang || long && (longIs(name, "file") || longIs(name, "exec") || longIs(name, "include")):
			fromFile = true
			if !hasVal {
				next()
			}
		case !long && roles.shortRole(v[1])&notFile != 0, long && !hasVal && roles.union(name)&notFile != 0:
			next()
		}
	}
	if kind == sedLang {
		s.sedRefs(cmd, scripts, fromFile)
		return
	}
	for _, w := range scripts {
		if w.Dynamic {
			continue
		}
		eval, strs := awkScript(w.Value)
		if eval {
			s.find("parser.eval", w.Pos, "the awk program runs a command (system, |, @load)")
		}
		for _, str := range strs {
			s.maybeRef(cmd, Word{Value: str, Pos: w.Pos}, RefArg)
		}
	}
}

// sedRefs reads the sed scripts (the -e values, or the first operand) as
// one program, joined by newlines as GNU sed joins them (a label set by
// one -e is jumped to from another; a\ ends one and its text is the next).
// A dynamic word, and a script read from a file (-f) between them, are
// left to the guard (it asks): the others are then not the whole
// program, so a script that seems refused (a label defined elsewhere) is
// no finding.
func (s *state) sedRefs(cmd *Command, scripts []Word, fromFile bool) {
	var static []Word
	for _, w := range scripts {
		if !w.Dynamic {
			static = append(static, w)
		}
	}
	if len(static) == 0 {
		return
	}
	vals := make([]string, len(static))
	for k, w := range static {
		vals[k] = w.Value
	}
	sp := newSedParser(vals)
	sp.program()
	pos := static[sedChunk(vals, sp.at)].Pos
	switch {
	case sp.eval:
		s.find("parser.eval", pos, "the sed script runs a shell command (e)")
	case sp.bad && !fromFile && len(static) == len(scripts):
		s.find("parser.eval", pos, "the sed script is not read the way GNU sed reads it, or GNU sed refuses it: it may run a shell command")
	}
	for _, f := range sp.reads {
		s.fileRef(cmd, Word{Value: f, Pos: pos}, RefArg, useRead)
	}
	for _, f := range sp.writes {
		s.fileRef(cmd, Word{Value: f, Pos: pos}, RefArg, useWrite)
	}
}

// sedChunk returns the index of the script of chunks (joined by
// newlines) that holds the byte at offset at.
func sedChunk(chunks []string, at int) int {
	for k, c := range chunks {
		if at <= len(c) {
			return k
		}
		at -= len(c) + 1
	}
	return len(chunks) - 1
}

// cutOptVal drops the optional value attached to an option in optVal
// (sed -i.bak is -i with suffix .bak, never -i -. -b -a -k), so that
// splitShort does not read it as options.
func cutOptVal(args []Word, optVal, vals string) []Word {
	if optVal == "" {
		return args
	}
	var out []Word
	for k, a := range args {
		v := a.Value
		if v == "--" {
			break
		}
		if a.Dynamic || len(v) < 3 || v[0] != '-' || v[1] == '-' {
			continue
		}
		for j := 1; j < len(v)-1; j++ {
			if strings.IndexByte(vals, v[j]) >= 0 {
				break
			}
			if strings.IndexByte(optVal, v[j]) >= 0 {
				if out == nil {
					out = append([]Word(nil), args...)
				}
				out[k].Value = v[:j+1]
				break
			}
		}
	}
	if out == nil {
		return args
	}
	return out
}

// sedScript parses a GNU sed script (the -e values joined by newlines,
// as GNU sed joins them) the way GNU sed 4.9 parses it, far enough to
// find the commands that run a shell (e, s///e) and the files it reads
// (r, R) and writes (w, W, s///w; GNU sed opens these while it parses,
// even when a later command is refused). A command it does not know
// counts as running a shell. bad reports a script GNU sed refuses (it
// stops reading there, and so does sedScript: what follows never runs)
// or one sedScript cannot be sure it reads as GNU sed does (bytes that
// are not UTF-8, a delimiter that is not ASCII); the callers ask for it.
func sedScript(p string) (eval bool, reads, writes []string, bad bool) {
	return sedScriptChunks([]string{p})
}

// sedScriptChunks is sedScript for several scripts (-e values), which
// GNU sed reads as one program, each ending as at a newline but for a, i
// and c: one at the very end of a script is refused.
func sedScriptChunks(chunks []string) (eval bool, reads, writes []string, bad bool) {
	sp := newSedParser(chunks)
	sp.program()
	return sp.eval, sp.reads, sp.writes, sp.bad
}

// newSedParser returns the parser of the scripts chunks, joined by
// newlines.
func newSedParser(chunks []string) *sedParser {
	sp := &sedParser{p: strings.Join(chunks, "\n")}
	n := 0
	for _, c := range chunks[:max(len(chunks)-1, 0)] {
		n += len(c)
		sp.ends = append(sp.ends, n)
		n++
	}
	return sp
}

// sedParser is the state of sedScript: the script p, the position i,
// and what it found so far.
type sedParser struct {
	p             string
	i             int
	eval, bad     bool
	reads, writes []string
	ends          []int // the offsets of the newlines that end a script (chunk)
	at            int   // where the first command that runs, reads or writes (or the error) is, or -1
	found         bool
}

// sedSpace is C's isspace in the C locale: the blanks a sed script skips
// between commands and that end a label.
func sedSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// peek returns the byte at the position, or -1 at the end.
func (sp *sedParser) peek() int {
	if sp.i < len(sp.p) {
		return int(sp.p[sp.i])
	}
	return -1
}

// next returns the byte at the position and moves past it, or -1 at the end.
func (sp *sedParser) next() int {
	c := sp.peek()
	if c >= 0 {
		sp.i++
	}
	return c
}

// blanks skips spaces and tabs (GNU sed's in_nonblank).
func (sp *sedParser) blanks() {
	for sp.i < len(sp.p) && (sp.p[sp.i] == ' ' || sp.p[sp.i] == '\t') {
		sp.i++
	}
}

// fail records that GNU sed refuses the script here: it reads no further.
func (sp *sedParser) fail() {
	sp.bad = true
	sp.mark()
}

// mark records the position of the first finding.
func (sp *sedParser) mark() {
	if !sp.found {
		sp.found, sp.at = true, max(sp.i-1, 0)
	}
}

// program reads the whole script: GNU sed's compile_program.
func (sp *sedParser) program() {
	if !utf8.ValidString(sp.p) {
		sp.fail() // in a multibyte locale GNU sed reads such bytes its own way
		return
	}
	depth := 0
	var labels []string
	var jumps []sedJump
	for !sp.bad {
		for sp.i < len(sp.p) && (sedSpace(sp.p[sp.i]) || sp.p[sp.i] == ';') {
			sp.i++
		}
		c := sp.next()
		if c < 0 {
			break
		}
		addrs := 0
		if a1 := sp.address(c); a1 != sedNoAddr {
			addrs = 1
			if a1 == sedStep {
				sp.fail() // invalid usage of +N or ~N as first address
				return
			}
			sp.blanks()
			a2 := sedNoAddr
			if sp.peek() == ',' {
				sp.i++
				sp.blanks()
				if a2 = sp.address(sp.next()); a2 == sedNoAddr {
					sp.fail() // unexpected ,
					return
				}
				addrs = 2
				sp.blanks()
			}
			if a1 == sedLine0 && a2 != sedRegex {
				sp.fail() // invalid usage of line address 0
				return
			}
			c = sp.next()
		} else if sp.bad {
			return
		} else {
			c = sp.next() // not an address: c is the command
		}
		if c == '!' {
			sp.blanks()
			if c = sp.next(); c == '!' {
				sp.fail() // multiple !s
				return
			}
		}
		switch c {
		case -1:
			sp.fail() // missing command
		case '#':
			if addrs > 0 {
				sp.fail()
				return
			}
			sp.line()
		case 'v':
			if v := sp.label(); v != "" && sedVersionAbove(v, "4.9") {
				sp.fail() // expected newer version of sed
				return
			}
		case '{':
			depth++
		case '}':
			if depth == 0 || addrs > 0 {
				sp.fail()
				return
			}
			depth--
			sp.end()
		case ':':
			if addrs > 0 {
				sp.fail()
				return
			}
			l := sp.label()
			if l == "" {
				sp.fail()
				return
			}
			labels = append(labels, l)
		case 'b', 't', 'T':
			at := sp.i
			if l := sp.label(); l != "" {
				jumps = append(jumps, sedJump{l, at})
			}
		case '=', 'd', 'D', 'F', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z':
			sp.end()
		case 'q', 'Q', 'l', 'L':
			if (c == 'q' || c == 'Q') && addrs > 1 {
				sp.fail() // command only uses one address
				return
			}
			sp.blanks()
			for sp.i < len(sp.p) && sp.p[sp.i] >= '0' && sp.p[sp.i] <= '9' {
				sp.i++
			}
			sp.end()
		case 'a', 'i', 'c':
			sp.blanks()
			if slices.Contains(sp.ends, sp.i) {
				sp.fail() // expected \ after a, c or i (at the end of an -e)
				return
			}
			switch sp.next() {
			case -1:
				sp.fail() // expected \ after a, c or i
			case '\\': // a\TEXT, or a\ and the text on the next line
				sp.next()
				sp.text()
			default:
				sp.i--
				sp.text()
			}
		case 'e':
			sp.mark()
			sp.eval = true
			sp.blanks()
			sp.text()
		case 'r', 'R', 'w', 'W':
			sp.mark()
			f := sp.filename()
			switch {
			case f == "":
				sp.fail() // missing filename
			case c == 'r' || c == 'R':
				sp.reads = append(sp.reads, f)
			default:
				sp.writes = append(sp.writes, f)
			}
		case 's':
			sp.subst()
		case 'y':
			d := sp.next()
			if !sp.delimiter(d) {
				return
			}
			j := sp.i
			if !sp.slash(byte(d), false) {
				return
			}
			k := sp.i
			if !sp.slash(byte(d), false) {
				return
			}
			if sedYLen(sp.p[j:k-1], byte(d)) != sedYLen(sp.p[k:sp.i-1], byte(d)) {
				sp.fail() // strings for y command are different lengths
				return
			}
			sp.end()
		default:
			sp.eval = true // unknown command: GNU sed refuses it
			sp.fail()
		}
	}
	if sp.bad {
		return
	}
	if depth > 0 {
		sp.fail() // unmatched {
		return
	}
	for _, j := range jumps {
		if !slices.Contains(labels, j.label) {
			sp.i = j.at
			sp.fail() // can't find label for jump
			return
		}
	}
}

// sedJump is a b, t or T command: its label and where it is.
type sedJump struct {
	label string
	at    int
}

// end reads the end of a command that takes no argument: blanks, then
// the end, a newline or ;, or a } or # left for the next command.
func (sp *sedParser) end() {
	sp.blanks()
	switch sp.peek() {
	case -1:
	case '\n', ';':
		sp.i++
	case '}', '#':
	default:
		sp.i++
		sp.fail() // extra characters after command
	}
}

// line skips the rest of the line (a comment).
func (sp *sedParser) line() {
	for sp.i < len(sp.p) && sp.p[sp.i] != '\n' {
		sp.i++
	}
}

// label reads a label (:, b, t, T) or version (v): after blanks, up to a
// white space, ; , # or }, as GNU sed 4.9 ends it.
func (sp *sedParser) label() string {
	sp.blanks()
	j := sp.i
	for sp.i < len(sp.p) && !sedSpace(sp.p[sp.i]) && strings.IndexByte(";#}", sp.p[sp.i]) < 0 {
		sp.i++
	}
	return sp.p[j:sp.i]
}

// filename reads the file name of r, R, w, W and s///w: after blanks,
// the rest of the line, as written (a ; or } is part of it).
func (sp *sedParser) filename() string {
	sp.blanks()
	j := sp.i
	sp.line()
	return sp.p[j:sp.i]
}

// text reads the text of a, i, c and e: up to a newline that no
// backslash escapes.
func (sp *sedParser) text() {
	for sp.i < len(sp.p) && sp.p[sp.i] != '\n' {
		if sp.p[sp.i] == '\\' {
			sp.i++
		}
		sp.i++
	}
	sp.i = min(sp.i, len(sp.p))
}

// The kinds of address sedParser.address reads.
const (
	sedNoAddr = iota
	sedLine0  // 0: only before ,/re/
	sedLine   // N, $, first~step
	sedStep   // +N, ~N: only second
	sedRegex  // /re/, \cREc
)

// address reads an address starting with c (already read): a number,
// first~step, $, +N, ~N, /re/ or \cREc with I and M flags, and returns
// its kind; if there is none (sedNoAddr), the position is back at c.
func (sp *sedParser) address(c int) int {
	switch {
	case c == '/' || c == '\\':
		if c == '\\' {
			if c = sp.next(); !sp.delimiter(c) {
				return sedNoAddr
			}
		}
		if !sp.slash(byte(c), true) {
			return sedNoAddr
		}
		for sp.peek() == 'I' || sp.peek() == 'M' {
			sp.i++
		}
		return sedRegex
	case c == '$':
		return sedLine
	case c == '+' || c == '~':
		if d := sp.peek(); d < '0' || d > '9' {
			return sedLine // GNU sed 4.9 reads a + or ~ without digits as an empty address
		}
		j := sp.i
		sp.digits()
		if strings.Trim(sp.p[j:sp.i], "0") == "" {
			return sedLine // +0 and ~0 are no steps: GNU sed 4.9 takes them as a first address (matching every line)
		}
		return sedStep
	case c >= '0' && c <= '9':
		j := sp.i - 1
		sp.digits()
		zero := strings.Trim(sp.p[j:sp.i], "0") == ""
		if sp.peek() == '~' {
			sp.i++
			sp.digits()
			return sedLine
		}
		if zero {
			return sedLine0
		}
		return sedLine
	}
	if c >= 0 {
		sp.i--
	}
	return sedNoAddr
}

// digits skips decimal digits.
func (sp *sedParser) digits() {
	for sp.i < len(sp.p) && sp.p[sp.i] >= '0' && sp.p[sp.i] <= '9' {
		sp.i++
	}
}

// delimiter checks the delimiter of s, y or \cREc: a byte (not a
// newline or backslash), ASCII.
func (sp *sedParser) delimiter(d int) bool {
	if d < 0 || d == '\n' || d == '\\' || d >= 0x80 {
		sp.fail()
		return false
	}
	return true
}

// slash reads a part of s, y or an address up to the delimiter d (GNU
// sed's match_slash): a backslash escapes the next byte; in a regular
// expression (re) a bracket expression [...] runs to its ], over any d,
// with [:class:], [.coll.] and [=equiv=] inside it. A newline or the end
// before d is an unterminated command.
func (sp *sedParser) slash(d byte, re bool) bool {
	for sp.i < len(sp.p) {
		c := sp.p[sp.i]
		sp.i++
		switch {
		case c == '\n':
			sp.fail()
			return false
		case c == d:
			return true
		case c == '\\':
			if sp.i < len(sp.p) {
				sp.i++
			}
		case c == '[' && re:
			if !sp.bracket() {
				sp.fail()
				return false
			}
		}
	}
	sp.fail()
	return false
}

// bracket skips a bracket expression after its [: an optional ^, a ]
// that is the first member, then members up to the closing ]. A
// backslash is a member of its own there. It reports false at a newline
// or the end.
func (sp *sedParser) bracket() bool {
	if sp.peek() == '^' {
		sp.i++
	}
	if sp.peek() == ']' {
		sp.i++
	}
	for sp.i < len(sp.p) {
		c := sp.p[sp.i]
		sp.i++
		switch {
		case c == '\n':
			return false
		case c == ']':
			return true
		case c == '[' && sp.i < len(sp.p) && strings.IndexByte(":.=", sp.p[sp.i]) >= 0:
			k := strings.Index(sp.p[sp.i+1:], string(sp.p[sp.i])+"]")
			if k < 0 || strings.IndexByte(sp.p[sp.i+1:sp.i+1+k], '\n') >= 0 {
				return false
			}
			sp.i += 1 + k + 2
		}
	}
	return false
}

// subst reads an s command after the s: the delimiter, the regular
// expression, the replacement and the flags (g, p, N, i, I, m, M, e, and
// w FILE, which ends the line).
func (sp *sedParser) subst() {
	d := sp.next()
	if !sp.delimiter(d) || !sp.slash(byte(d), true) || !sp.slash(byte(d), false) {
		return
	}
	var seen [3]bool // g, p, a number
	once := func(k int) bool {
		if seen[k] {
			sp.fail() // multiple g, p or number options
			return false
		}
		seen[k] = true
		return true
	}
	for {
		switch c := sp.next(); {
		case c == 'g' || c == 'p':
			if !once(strings.IndexByte("gp", byte(c))) {
				return
			}
		case c >= '0' && c <= '9':
			j := sp.i - 1
			sp.digits()
			if !once(2) {
				return
			}
			if strings.Trim(sp.p[j:sp.i], "0") == "" {
				sp.fail() // number option to s command may not be zero
				return
			}
		case c == 'e':
			sp.mark()
			sp.eval = true
		case c == 'w':
			sp.mark()
			if f := sp.filename(); f != "" {
				sp.writes = append(sp.writes, f)
			} else {
				sp.fail()
			}
			return
		case c == ' ' || c == '\t' || c == 'i' || c == 'I' || c == 'm' || c == 'M':
		case c == -1 || c == '\n' || c == ';':
			return
		case c == '}' || c == '#':
			sp.i--
			return
		default:
			sp.fail() // unknown option to s
			return
		}
	}
}

// awkScript reports whether an awk program may run a command (system(),
// a | or |& pipe, an indirect call, @load) and returns its string
// literals, which may name the files it reads (getline < "f") or writes
// (print > "f").
func awkScript(p string) (eval bool, strs []string) {
	a := awkLex(p)
	return a.eval, a.strs
}

// awkInfo is what awkLex found in an awk program.
type awkInfo struct {
	eval   bool     // system(), | or |& (print | "cmd", "cmd" | getline), @f() or an @ directive
	reads  bool     // getline < FILE, or ARGV or SYMTAB (which name the files awk reads)
	writes bool     // print or printf > FILE or >> FILE
	bad    bool     // a string or regex that does not end: awk refuses the program
	strs   []string // the string literals
}

// awkKeywords are the awk words after which an operand (so a regex
// literal, not a division) comes. getline is not one: it is an operand
// itself (getline / 2 divides).
var awkKeywords = []string{"BEGIN", "END", "BEGINFILE", "ENDFILE", "case", "default", "delete", "do", "else", "exit",
	"function", "func", "in", "print", "printf", "return"}

// awkLex reads an awk program token by token as gawk's lexer does, far
// enough to tell a regex literal from a division (a / where an operand is
// expected starts a regex: at the start, after an operator, a keyword, a
// newline or the ) of if, while, for or switch), a string from code, and
// a comparison from a redirection: in a print or printf statement a > or
// >> outside parentheses writes a file; < right after getline [lvalue]
// reads one. Any | that is not || runs a command.
func awkLex(p string) awkInfo {
	var a awkInfo
	operand := true   // an operand is expected: a / starts a regex
	lval := false     // the operand before is an lvalue: a /= after it divides, else it starts a regex
	dollar := false   // the token before is $: the operand is a field, an lvalue
	var parens []byte // open parentheses: c for the ( of if, while, for, switch; $ after $; else (
	control := false  // the last word was if, while, for or switch
	inPrint, printDepth := false, 0
	getline, getDepth := false, 0
	cont := true // a newline here does not end the statement
	for i := 0; i < len(p); {
		c := p[i]
		wasControl := control
		control = false
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			i++
			control = wasControl
			continue
		case c == '\\' && i+1 < len(p) && p[i+1] == '\n': // a continued line
			i += 2
			control = wasControl
			continue
		case c == '\\' && i+2 < len(p) && p[i+1] == '\r' && p[i+2] == '\n':
			i += 3
			control = wasControl
			continue
		case c == '#':
			for i < len(p) && p[i] != '\n' {
				i++
			}
			control = wasControl
			continue
		case c == '\n':
			i++
			if !cont {
				if inPrint && len(parens) == printDepth {
					inPrint = false
				}
				if getline && len(parens) == getDepth {
					getline = false
				}
				operand = true
			}
			control = wasControl
			continue
		}
		cont = false
		wasDollar, wasLval := dollar, lval
		dollar, lval = false, false
		switch {
		case c == '"':
			j := i + 1
			for j < len(p) && p[j] != '"' {
				if p[j] == '\n' {
					a.bad = true
					return a
				}
				if p[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(p) {
				a.bad = true
				return a
			}
			a.strs = append(a.strs, p[i+1:j])
			i = j + 1
			operand, lval = false, wasDollar
		case c == '/' && (operand || !wasLval && i+1 < len(p) && p[i+1] == '='):
			// gawk reads /= after an operand that is not an lvalue as
			// the start of a regex (" " /=x/ concatenates)
			j, ok := awkRegex(p, i+1)
			if !ok {
				a.bad = true
				return a
			}
			i = j
			operand = false
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(p) && (p[j] == '_' || p[j] >= 'a' && p[j] <= 'z' || p[j] >= 'A' && p[j] <= 'Z' || p[j] >= '0' && p[j] <= '9' ||
				p[j] == ':' && j+1 < len(p) && p[j+1] == ':') {
				if p[j] == ':' {
					j++
				}
				j++
			}
			w := p[i:j]
			i = j
			operand = slices.Contains(awkKeywords, w)
			lval = !operand && w != "length" && w != "getline" || wasDollar
			switch w {
			case "system":
				a.eval = true
			case "ARGV", "SYMTAB":
				a.reads = true
			case "print", "printf":
				inPrint, printDepth = true, len(parens)
			case "getline":
				getline, getDepth = true, len(parens)
			case "if", "while", "for", "switch":
				control = true
			case "do", "else":
				cont = true
			}
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(p) && p[i+1] >= '0' && p[i+1] <= '9':
			i = awkNumber(p, i)
			operand, lval = false, wasDollar
		case c == '(':
			kind := byte('(')
			switch {
			case wasControl:
				kind = 'c'
			case wasDollar:
				kind = '$'
			}
			parens = append(parens, kind)
			i++
			operand, cont = true, true
		case c == ')':
			var kind byte
			if len(parens) > 0 {
				kind = parens[len(parens)-1]
				parens = parens[:len(parens)-1]
			}
			ctl := kind == 'c'
			lval = kind == '$'
			if getline && len(parens) < getDepth {
				getline = false
			}
			i++
			operand = ctl
			cont = ctl
		case c == ']':
			i++
			operand, lval = false, true
		case c == ';' || c == '{' || c == '}':
			if inPrint && len(parens) <= printDepth {
				inPrint = false
			}
			if getline && len(parens) <= getDepth {
				getline = false
			}
			i++
			operand, cont = true, c == '{' || c == ';'
		case c == '|':
			if i+1 < len(p) && p[i+1] == '|' {
				i += 2
				operand, cont = true, true
				continue
			}
			a.eval = true // print | "cmd", "cmd" | getline, and |& (a coprocess)
			i++
			if i < len(p) && p[i] == '&' {
				i++
			}
			operand = true
		case c == '>':
			if inPrint && len(parens) == printDepth {
				a.writes = true
			}
			i++
			if i < len(p) && (p[i] == '>' || p[i] == '=') {
				i++
			}
			operand = true
		case c == '<':
			if getline && len(parens) == getDepth {
				a.reads = true
			}
			i++
			if i < len(p) && p[i] == '=' {
				i++
			}
			operand = true
		case c == '@':
			a.eval = true // @f() calls the function f names (system too); @load, @include
			i++
			operand = true
		case c == '$':
			i++
			operand, dollar = true, true
		case c == '+' || c == '-':
			i++
			if i < len(p) && p[i] == c { // ++ or --: prefix where an operand is expected, else postfix
				i++
				dollar = wasDollar && operand
				continue
			}
			if i < len(p) && p[i] == '=' {
				i++
			}
			operand = true
		case c == '&' || c == ',' || c == '?' || c == ':':
			i++
			if c == '&' && i < len(p) && p[i] == '&' {
				i++
			}
			operand, cont = true, true
		default: // = == != ! ~ !~ * ** / % ^ and their assignments, [
			i++
			operand = true
		}
	}
	return a
}

// awkNumber returns the index after the number at p[i], read as gawk's
// lexer reads it: digits and one dot, an exponent (e or E, a sign,
// digits), 0x and hex digits — and an x or X anywhere else in the digits,
// which gawk keeps in the number (70X0system("id") is the number 70X0,
// then a call: the fuzz smoke found it). A letter after it starts a name
// (2system("id") is 2 then a call).
func awkNumber(p string, i int) int {
	digit := func(k int) bool { return k < len(p) && p[k] >= '0' && p[k] <= '9' }
	xdigit := func(k int) bool { return k < len(p) && strings.IndexByte("0123456789abcdefABCDEF", p[k]) >= 0 }
	start, dot, hex := i, false, false
	for i < len(p) {
		switch c := p[i]; {
		case c >= '0' && c <= '9':
		case c == '.' && !dot && !hex:
			dot = true
		case c == 'x' || c == 'X':
			// gawk: an x right after the first character starts hex
			// digits when one follows, and ends the number when none
			// does; anywhere else it is kept in the number.
			if i == start+1 {
				if !xdigit(i + 1) {
					return i
				}
				hex = true
			}
		case hex && xdigit(i):
		case (c == 'e' || c == 'E') && !hex:
			switch {
			case digit(i + 1):
				i++
			case i+1 < len(p) && (p[i+1] == '+' || p[i+1] == '-') && digit(i+2):
				i += 2
			default:
				return i
			}
			for digit(i) {
				i++
			}
			return i
		default:
			return i
		}
		i++
	}
	return i
}

// awkRegex returns the index after the regex literal that starts at
// p[i] (after its /): a backslash escapes the next byte, and a bracket
// expression runs to its ], over any /. ok is false when a newline or
// the end comes first.
func awkRegex(p string, i int) (int, bool) {
	for i < len(p) {
		switch p[i] {
		case '\n':
			return i, false
		case '\\':
			i += 2
			continue
		case '/':
			return i + 1, true
		case '[':
			i++
			if i < len(p) && p[i] == '^' {
				i++
			}
			if i < len(p) && p[i] == ']' {
				i++
			}
			for i < len(p) && p[i] != ']' {
				switch {
				case p[i] == '\n':
					return i, false
				case p[i] == '\\':
					i++
				case p[i] == '[' && i+1 < len(p) && (p[i+1] == ':' || p[i+1] == '.' || p[i+1] == '='):
					if k := strings.Index(p[i+2:], string(p[i+1])+"]"); k >= 0 && strings.IndexByte(p[i+2:i+2+k], '\n') < 0 {
						i += 2 + k + 1
					}
				}
				i++
			}
			if i >= len(p) {
				return i, false
			}
		}
		i++
	}
	return i, false
}

// sedYLen is the number of characters of a part of a y command (between
// delimiters d) after GNU sed's escapes: \d (the delimiter), \\, \n and
// the like are one; \xHH, \dNNN, \oNNN and \cX are one.
func sedYLen(s string, d byte) int {
	n := 0
	for i := 0; i < len(s); n++ {
		if s[i] != '\\' || i+1 >= len(s) {
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
			continue
		}
		c := s[i+1]
		i += 2
		digits, max := "", 0
		switch c {
		case 'x':
			digits, max = "0123456789abcdefABCDEF", 2
		case 'd':
			digits, max = "0123456789", 3
		case 'o':
			digits, max = "01234567", 3
		case 'c':
			if i < len(s) {
				i++
			}
		}
		for k := 0; k < max && i < len(s) && strings.IndexByte(digits, s[i]) >= 0; k++ {
			i++
		}
	}
	return n
}

// sedVersionAbove reports whether the version v of a v command is above
// have, compared as strverscmp compares them: runs of digits as numbers
// (a run with a leading zero byte by byte, as a fraction).
func sedVersionAbove(v, have string) bool {
	for v != "" && have != "" {
		a, b := v[0], have[0]
		if sedDigit(a) && sedDigit(b) && a != '0' && b != '0' { // a leading zero: strverscmp compares bytes
			i, j := 0, 0
			for i < len(v) && sedDigit(v[i]) {
				i++
			}
			for j < len(have) && sedDigit(have[j]) {
				j++
			}
			x, y := strings.TrimLeft(v[:i], "0"), strings.TrimLeft(have[:j], "0")
			if len(x) != len(y) {
				return len(x) > len(y)
			}
			if x != y {
				return x > y
			}
			v, have = v[i:], have[j:]
			continue
		}
		if a != b {
			return a > b
		}
		v, have = v[1:], have[1:]
	}
	return v != ""
}

// sedDigit reports whether c is a decimal digit.
func sedDigit(c byte) bool { return c >= '0' && c <= '9' }
