package parser

import "strings"

// scriptRefs analyses the program of sed or awk (an -e value or the
// first operand): commands that run a shell (sed e, s///e; awk system(),
// pipes, @load) are parser.eval, and the files they name are file
// references (sed r/w) or Maybe references (awk string literals).
func (s *state) scriptRefs(cmd *Command, base string, args []Word, spec fileSpec) {
	var scriptsArr [2]Word
	scripts := scriptsArr[:0]
	fromFile := false
	vals := spec.skipVal + spec.fileVal
	if base != "sed" {
		vals += "eilE" // gawk --source, --include, --load, --exec
	}
	split := splitShort(cutOptVal(args, spec.optVal, vals), vals, true)
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
		case base != "sed" && (v == "-l" || long && longIs(name, "load")):
			s.find("parser.eval", a.Pos, base+" "+v+" loads a shared library")
			next()
		case v == "-e" && base == "sed", long && (base == "sed" && longIs(name, "expression") || base != "sed" && longIs(name, "source")),
			v == "-e" && base != "sed":
			w := Word{Value: val, Pos: a.Pos, Dynamic: a.Dynamic}
			if !hasVal {
				var ok bool
				if w, ok = next(); !ok {
					continue
				}
			}
			scripts = append(scripts, w)
		case v == "-f" || v == "-E" && base != "sed" || v == "-i" && base != "sed" || long && (longIs(name, "file") || longIs(name, "exec") || longIs(name, "include")):
			fromFile = true
			if !hasVal {
				next()
			}
		case !long && strings.IndexByte(spec.skipVal, v[1]) >= 0, long && !hasVal && longMatch(name, spec.longSkip):
			next()
		}
	}
	for _, w := range scripts {
		if w.Dynamic {
			continue
		}
		if base == "sed" {
			eval, reads, writes, _ := sedScript(w.Value)
			if eval {
				s.find("parser.eval", w.Pos, "the sed script runs a shell command (e)")
			}
			for _, f := range reads {
				s.fileRef(cmd, Word{Value: f, Pos: w.Pos}, RefArg, false, false)
			}
			for _, f := range writes {
				s.fileRef(cmd, Word{Value: f, Pos: w.Pos}, RefArg, true, false)
			}
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

// sedScript parses a GNU sed script far enough to find the commands that
// run a shell (e, s///e) and the files it reads (r, R) and writes (w, W,
// s///w). A command it does not know counts as running a shell. bad
// reports an s or y command whose parts do not end (at the end of the
// script or a newline), which GNU sed refuses.
func sedScript(p string) (eval bool, reads, writes []string, bad bool) {
	i := 0
	spaces := func() {
		for i < len(p) && (p[i] == ' ' || p[i] == '\t') {
			i++
		}
	}
	line := func() string { // the rest of the line, as a/i/c/r/w read it
		j := strings.IndexByte(p[i:], '\n')
		if j < 0 {
			j = len(p) - i
		}
		r := p[i : i+j]
		i += j
		return r
	}
	word := func() { // a label or version: up to ; or newline
		for i < len(p) && p[i] != ';' && p[i] != '\n' && p[i] != '}' {
			i++
		}
	}
	for i < len(p) {
		for i < len(p) && strings.IndexByte(" \t\n;", p[i]) >= 0 {
			i++
		}
		if i >= len(p) {
			break
		}
		i = sedAddr(p, i)
		spaces()
		if i < len(p) && p[i] == ',' {
			i++
			spaces()
			i = sedAddr(p, i)
		}
		spaces()
		for i < len(p) && p[i] == '!' {
			i++
			spaces()
		}
		if i >= len(p) {
			break
		}
		c := p[i]
		i++
		switch c {
		case '{', '}', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		case '#':
			line()
		case ':', 'b', 't', 'T', 'v':
			spaces()
			word()
		case 'a', 'i', 'c':
			for strings.HasSuffix(line(), `\`) && i < len(p) {
				i++ // a continued text line
			}
		case 'q', 'Q', 'l', 'L':
			spaces()
			for i < len(p) && p[i] >= '0' && p[i] <= '9' {
				i++
			}
		case 'r', 'R', 'w', 'W':
			spaces()
			if f := line(); c == 'r' || c == 'R' {
				reads = append(reads, f)
			} else {
				writes = append(writes, f)
			}
		case 'e':
			eval = true
			line()
		case 's', 'y':
			if i >= len(p) {
				return true, reads, writes, true
			}
			d := p[i]
			start := i
			i = sedDelimited(p, sedDelimited(p, i+1, d), d)
			if i > len(p) || i == len(p) && (i == start+1 || p[i-1] != d) || strings.IndexByte(p[start:i], '\n') >= 0 && d != '\n' {
				bad = true
			}
			for c == 's' && i < len(p) {
				f := p[i]
				if f == 'e' {
					eval = true
				} else if f == 'w' {
					i++
					spaces()
					writes = append(writes, line())
					break
				} else if strings.IndexByte("gpiImM0123456789", f) < 0 {
					break
				}
				i++
			}
		default:
			return true, reads, writes, bad
		}
	}
	return eval, reads, writes, bad
}

// sedAddr skips an address (N, $, N~S, +N, ~N, /re/I, \cREc) at p[i].
func sedAddr(p string, i int) int {
	switch {
	case i >= len(p):
	case p[i] == '/':
		i = sedDelimited(p, i+1, '/')
	case p[i] == '\\' && i+1 < len(p):
		i = sedDelimited(p, i+2, p[i+1])
	case p[i] == '$':
		i++
	default:
		if p[i] == '+' || p[i] == '~' {
			i++
		}
		for i < len(p) && (p[i] >= '0' && p[i] <= '9' || p[i] == '~') {
			i++
		}
		return i
	}
	for i < len(p) && (p[i] == 'I' || p[i] == 'M') {
		i++
	}
	return i
}

// sedDelimited returns the index after the delimiter d that ends the
// part starting at p[i] (a backslash escapes the next byte).
func sedDelimited(p string, i int, d byte) int {
	for i < len(p) {
		switch p[i] {
		case '\\':
			i += 2
			continue
		case d:
			return i + 1
		}
		i++
	}
	return len(p)
}

// awkScript reports whether an awk program may run a command (system(),
// a | pipe, @load) and returns its string literals, which may name the
// files it reads (getline < "f") or writes (print > "f").
func awkScript(p string) (eval bool, strs []string) {
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '"':
			j := i + 1
			for j < len(p) && p[j] != '"' {
				if p[j] == '\\' {
					j++
				}
				j++
			}
			strs = append(strs, p[i+1:min(j, len(p))])
			i = j
		case c == '/' && awkRegexStart(p[:i]):
			for i++; i < len(p) && p[i] != '/'; i++ { // a regex literal: /a|b/
				if p[i] == '\\' {
					i++
				}
			}
		case c == '|':
			if i+1 < len(p) && p[i+1] == '|' {
				i++
				continue
			}
			eval = true
		case strings.HasPrefix(p[i:], "system"), strings.HasPrefix(p[i:], "@load"):
			eval = true
		}
	}
	return eval, strs
}

// awkRegexStart reports whether a / after before starts a regex literal
// rather than a division: at the start or after an operator.
func awkRegexStart(before string) bool {
	before = strings.TrimRight(before, " \t\n")
	return before == "" || strings.IndexByte("(,{;!~&|=\n", before[len(before)-1]) >= 0
}
