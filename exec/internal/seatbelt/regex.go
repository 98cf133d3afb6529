package seatbelt

import (
	"errors"
	"fmt"
	"math/bits"
	"slices"
)

// This file is a matcher for the regular expressions this package writes
// into profiles: the part of the syntax on which POSIX extended regular
// expressions (what Seatbelt's (regex …) filter is documented to take)
// and Go's RE2 give the same answer, matched byte by byte.
//
// The subset:
//
//	^ $        anchors (at the start and the end of the text, anywhere in
//	           the expression)
//	.          any byte but '\n' (as Go; POSIX also matches '\n': the
//	           generator never writes '.')
//	[set]      a bracket expression: ']' may come first, '-' first or
//	           last, ranges a-b with a ≤ b; no '\' inside (POSIX reads it
//	           as itself, Go as an escape), no "[:", "[." or "[="
//	[^set]     its complement ('\n' included, as in both)
//	x* x+ x?   greedy repetition of one atom; no "{m,n}", no lazy "*?",
//	           no repetition of a repetition or of an anchor
//	( ) |      grouping and alternation; no "(?", no empty group or branch
//	\c         c itself, for c one of \ . [ ] ( ) * + ? { } | ^ $
//
// Anything else that is special in either dialect ("{", "\d", a NUL byte)
// is refused with an error. Every other byte stands for itself.

// errSubset is wrapped by every parse error.
var errSubset = errors.New("not in the regex subset")

// byteSet is a set of bytes.
type byteSet [4]uint64

func (s *byteSet) add(b byte)      { s[b>>6] |= 1 << (b & 63) }
func (s *byteSet) has(b byte) bool { return s[b>>6]&(1<<(b&63)) != 0 }
func (s *byteSet) addRange(lo, hi byte) { // lo ≤ hi
	for c := int(lo); c <= int(hi); c++ {
		s.add(byte(c))
	}
}
func (s byteSet) not() byteSet {
	for i := range s {
		s[i] = ^s[i]
	}
	return s
}
func (s byteSet) count() int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// A node is one piece of a parsed expression.
type node struct {
	op   nodeOp
	set  byteSet // opSet
	subs []*node // opCat, opAlt, and the one operand of opStar/opPlus/opQuest
}

type nodeOp uint8

const (
	opSet   nodeOp = iota // one byte of set
	opBegin               // ^
	opEnd                 // $
	opCat
	opAlt
	opStar
	opPlus
	opQuest
)

// maxRegex bounds the expressions Match takes (and so the matcher's work:
// it is linear in the text for a fixed expression).
const maxRegex = 1 << 16

// A Regex is a compiled expression of the subset.
type Regex struct {
	prog []inst
}

// CompileRegex parses expr, which must be in the subset described above.
func CompileRegex(expr string) (*Regex, error) {
	if len(expr) > maxRegex {
		return nil, fmt.Errorf("%w: longer than %d bytes", errSubset, maxRegex)
	}
	p := &rparser{s: expr}
	n, err := p.alt(0)
	if err != nil {
		return nil, err
	}
	if p.i < len(p.s) {
		return nil, p.errf("unmatched ')'")
	}
	var c compiler
	c.emit(n)
	c.prog = append(c.prog, inst{op: iMatch})
	return &Regex{prog: c.prog}, nil
}

type rparser struct {
	s string
	i int
}

func (p *rparser) errf(format string, a ...any) error {
	return fmt.Errorf("%w: at byte %d of %q: %s", errSubset, p.i, p.s, fmt.Sprintf(format, a...))
}

// alt parses branches separated by '|' up to ')' or the end.
func (p *rparser) alt(depth int) (*node, error) {
	if depth > 100 {
		return nil, p.errf("groups nested too deep")
	}
	var branches []*node
	for {
		b, err := p.cat(depth)
		if err != nil {
			return nil, err
		}
		if len(b.subs) == 0 {
			return nil, p.errf("empty branch")
		}
		branches = append(branches, b)
		if p.i < len(p.s) && p.s[p.i] == '|' {
			p.i++
			continue
		}
		break
	}
	if len(branches) == 1 {
		return branches[0], nil
	}
	return &node{op: opAlt, subs: branches}, nil
}

// cat parses quantified atoms up to '|', ')' or the end.
func (p *rparser) cat(depth int) (*node, error) {
	cat := &node{op: opCat}
	for p.i < len(p.s) {
		c := p.s[p.i]
		var atom *node
		switch c {
		case '|', ')':
			return cat, nil
		case '*', '+', '?':
			return nil, p.errf("repetition %q of nothing", c)
		case '{':
			return nil, p.errf("'{' (intervals are not in the subset; escape it)")
		case 0:
			return nil, p.errf("NUL byte")
		case '^':
			p.i++
			atom = &node{op: opBegin}
		case '$':
			p.i++
			atom = &node{op: opEnd}
		case '.':
			p.i++
			var s byteSet
			s.add('\n')
			atom = &node{op: opSet, set: s.not()}
		case '(':
			p.i++
			if p.i < len(p.s) && p.s[p.i] == '?' {
				return nil, p.errf("'(?'")
			}
			if p.i < len(p.s) && p.s[p.i] == ')' {
				return nil, p.errf("empty group")
			}
			sub, err := p.alt(depth + 1)
			if err != nil {
				return nil, err
			}
			if p.i >= len(p.s) || p.s[p.i] != ')' {
				return nil, p.errf("missing ')'")
			}
			p.i++
			atom = sub
		case '[':
			s, err := p.class()
			if err != nil {
				return nil, err
			}
			atom = &node{op: opSet, set: s}
		case '\\':
			if p.i+1 >= len(p.s) {
				return nil, p.errf("trailing backslash")
			}
			e := p.s[p.i+1]
			if !isEscapable(e) {
				return nil, p.errf("escape \\%c", e)
			}
			p.i += 2
			var s byteSet
			s.add(e)
			atom = &node{op: opSet, set: s}
		default:
			p.i++
			var s byteSet
			s.add(c)
			atom = &node{op: opSet, set: s}
		}
		if p.i < len(p.s) {
			var op nodeOp
			switch p.s[p.i] {
			case '*':
				op = opStar
			case '+':
				op = opPlus
			case '?':
				op = opQuest
			}
			if op != 0 {
				if atom.op == opBegin || atom.op == opEnd {
					return nil, p.errf("repetition of an anchor")
				}
				p.i++
				if p.i < len(p.s) && (p.s[p.i] == '*' || p.s[p.i] == '+' || p.s[p.i] == '?' || p.s[p.i] == '{') {
					return nil, p.errf("repetition of a repetition")
				}
				atom = &node{op: op, subs: []*node{atom}}
			}
		}
		cat.subs = append(cat.subs, atom)
	}
	return cat, nil
}

// isEscapable reports the bytes that "\c" may escape.
func isEscapable(c byte) bool {
	switch c {
	case '\\', '.', '[', ']', '(', ')', '*', '+', '?', '{', '}', '|', '^', '$':
		return true
	}
	return false
}

// class parses a bracket expression at p.s[p.i] == '['.
func (p *rparser) class() (byteSet, error) {
	var s byteSet
	p.i++
	neg := false
	if p.i < len(p.s) && p.s[p.i] == '^' {
		neg = true
		p.i++
	}
	start := p.i
	for {
		if p.i >= len(p.s) {
			return s, p.errf("missing ']'")
		}
		c := p.s[p.i]
		switch {
		case c == ']' && p.i > start:
			p.i++
			if neg {
				s = s.not()
			}
			return s, nil
		case c == '\\':
			return s, p.errf("'\\' in a bracket expression")
		case c == 0:
			return s, p.errf("NUL byte")
		case c == '[' && p.i+1 < len(p.s) && (p.s[p.i+1] == ':' || p.s[p.i+1] == '.' || p.s[p.i+1] == '='):
			return s, p.errf("%q in a bracket expression", p.s[p.i:p.i+2])
		case c == '-' && p.i > start && !(p.i+1 < len(p.s) && p.s[p.i+1] == ']'):
			return s, p.errf("'-' neither first, last nor in a range")
		}
		p.i++
		if p.i+1 < len(p.s) && p.s[p.i] == '-' && p.s[p.i+1] != ']' {
			hi := p.s[p.i+1]
			switch {
			case hi == '\\' || hi == 0:
				return s, p.errf("range end %q", hi)
			case hi == '[' && p.i+2 < len(p.s) && (p.s[p.i+2] == ':' || p.s[p.i+2] == '.' || p.s[p.i+2] == '='):
				return s, p.errf("range end %q", p.s[p.i+1:p.i+3])
			case hi < c:
				return s, p.errf("range %c-%c out of order", c, hi)
			}
			p.i += 2
			if p.i < len(p.s) && p.s[p.i] == '-' && !(p.i+1 < len(p.s) && p.s[p.i+1] == ']') {
				return s, p.errf("'-' right after a range")
			}
			s.addRange(c, hi)
			continue
		}
		s.add(c)
	}
}

// The program: a Thompson NFA over bytes.
type inst struct {
	op   instOp
	set  byteSet // iSet
	x, y int     // iJmp: x; iSplit: x, y
}

type instOp uint8

const (
	iSet instOp = iota
	iBegin
	iEnd
	iJmp
	iSplit
	iMatch
)

type compiler struct{ prog []inst }

func (c *compiler) add(i inst) int {
	c.prog = append(c.prog, i)
	return len(c.prog) - 1
}

func (c *compiler) emit(n *node) {
	switch n.op {
	case opSet:
		c.add(inst{op: iSet, set: n.set})
	case opBegin:
		c.add(inst{op: iBegin})
	case opEnd:
		c.add(inst{op: iEnd})
	case opCat:
		for _, s := range n.subs {
			c.emit(s)
		}
	case opAlt:
		var jumps []int
		for k, s := range n.subs {
			if k < len(n.subs)-1 {
				split := c.add(inst{op: iSplit})
				c.prog[split].x = len(c.prog)
				c.emit(s)
				jumps = append(jumps, c.add(inst{op: iJmp}))
				c.prog[split].y = len(c.prog)
			} else {
				c.emit(s)
			}
		}
		for _, j := range jumps {
			c.prog[j].x = len(c.prog)
		}
	case opStar:
		split := c.add(inst{op: iSplit})
		c.prog[split].x = len(c.prog)
		c.emit(n.subs[0])
		c.add(inst{op: iJmp, x: split})
		c.prog[split].y = len(c.prog)
	case opPlus:
		start := len(c.prog)
		c.emit(n.subs[0])
		c.add(inst{op: iSplit, x: start, y: len(c.prog) + 1})
	case opQuest:
		split := c.add(inst{op: iSplit})
		c.prog[split].x = len(c.prog)
		c.emit(n.subs[0])
		c.prog[split].y = len(c.prog)
	}
}

// Match reports whether the expression matches somewhere in text (as
// regexec and Go's MatchString do: anchors say where). It takes time
// linear in len(text) times the size of the expression.
func (r *Regex) Match(text string) bool {
	n := len(r.prog)
	cur, next := make([]int, 0, n), make([]int, 0, n)
	onCur, onNext := make([]bool, n), make([]bool, n)
	var addState func(list *[]int, on []bool, pc, pos int) bool
	addState = func(list *[]int, on []bool, pc, pos int) bool {
		if on[pc] {
			return false
		}
		on[pc] = true
		switch in := r.prog[pc]; in.op {
		case iJmp:
			return addState(list, on, in.x, pos)
		case iSplit:
			a := addState(list, on, in.x, pos)
			b := addState(list, on, in.y, pos)
			return a || b
		case iBegin:
			if pos == 0 {
				return addState(list, on, pc+1, pos)
			}
		case iEnd:
			if pos == len(text) {
				return addState(list, on, pc+1, pos)
			}
		case iMatch:
			return true
		default:
			*list = append(*list, pc)
		}
		return false
	}
	for pos := 0; ; pos++ {
		// Unanchored search: a new thread starts at every position.
		if addState(&cur, onCur, 0, pos) {
			return true
		}
		if pos == len(text) {
			return false
		}
		b := text[pos]
		for _, pc := range cur {
			if r.prog[pc].set.has(b) && addState(&next, onNext, pc+1, pos+1) {
				return true
			}
		}
		cur, next = next, cur[:0]
		onCur, onNext = onNext, onCur
		clear(onNext)
	}
}

// Intersects reports whether some text matches both r and s from its
// first byte to its last. For expressions anchored at both ends ("^…$",
// as every one Translate writes) that is whether some text matches both.
func (r *Regex) Intersects(s *Regex) bool {
	_, ok := r.witness(s)
	return ok
}

// witness returns a shortest text that both match from first to last byte.
func (r *Regex) witness(s *Regex) (string, bool) {
	type state struct {
		p, q       int
		start, end bool // no byte read yet; a '$' was passed (no byte may follow)
	}
	type from struct {
		prev state
		b    int // the byte read to get here, -1 for none
	}
	seen := map[state]from{}
	first := state{start: true}
	seen[first] = from{prev: first, b: -1}
	queue := []state{first}
	push := func(st, prev state, b int) {
		if _, ok := seen[st]; !ok {
			seen[st] = from{prev: prev, b: b}
			queue = append(queue, st)
		}
	}
	for len(queue) > 0 {
		st := queue[0]
		queue = queue[1:]
		a, b := r.prog[st.p], s.prog[st.q]
		if a.op == iMatch && b.op == iMatch {
			var text []byte
			for cur := st; cur != first; cur = seen[cur].prev {
				if f := seen[cur]; f.b >= 0 {
					text = append(text, byte(f.b))
				}
			}
			slices.Reverse(text)
			return string(text), true
		}
		// Moves of one side that read no byte.
		for side, in := range []inst{a, b} {
			pc := st.p
			if side == 1 {
				pc = st.q
			}
			move := func(to int, end bool) {
				n := st
				if side == 0 {
					n.p = to
				} else {
					n.q = to
				}
				n.end = n.end || end
				push(n, st, -1)
			}
			switch in.op {
			case iJmp:
				move(in.x, false)
			case iSplit:
				move(in.x, false)
				move(in.y, false)
			case iBegin:
				if st.start {
					move(pc+1, false)
				}
			case iEnd:
				move(pc+1, true)
			}
		}
		// Both read the same byte.
		if a.op == iSet && b.op == iSet && !st.end {
			for c := 0; c < 256; c++ {
				if a.set.has(byte(c)) && b.set.has(byte(c)) {
					push(state{p: st.p + 1, q: st.q + 1}, st, c)
					break
				}
			}
		}
	}
	return "", false
}
