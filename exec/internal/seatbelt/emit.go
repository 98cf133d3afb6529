package seatbelt

import "strings"

// This file writes byte sets and path pieces in the regex subset of
// regex.go. Two renderings exist: the exact one (every byte may be
// written as itself), which the tests run against git, and the one that
// goes into a profile, where some bytes cannot be written at all (see
// sbplUnsafe) and a set holding one is widened so that the rule hides
// more, never less.

// An atom is one piece of a translated pattern.
type atom struct {
	kind atomKind
	set  byteSet // one, many
}

type atomKind uint8

const (
	one   atomKind = iota // one byte of set
	many                  // any number of bytes of set
	dirs0                 // zero or more whole components, each with its '/': ([^/]*/)*
	dirs1                 // one or more: ([^/]*/)+
	rest                  // anything at all: [^/]*(/[^/]*)*
)

// notSlash is every byte but NUL and '/': what '?' and '*' match.
var notSlash = func() byteSet {
	var s byteSet
	s.addRange(1, 255)
	return s.without('/')
}()

func (s byteSet) without(b byte) byteSet {
	s[b>>6] &^= 1 << (b & 63)
	return s
}

func (s byteSet) union(t byteSet) byteSet {
	for i := range s {
		s[i] |= t[i]
	}
	return s
}

func (s byteSet) intersects(t byteSet) bool {
	for i := range s {
		if s[i]&t[i] != 0 {
			return true
		}
	}
	return false
}

func (s byteSet) subsetOf(t byteSet) bool {
	for i := range s {
		if s[i]&^t[i] != 0 {
			return false
		}
	}
	return true
}

func (s byteSet) empty() bool { return s == byteSet{} }

// sbplUnsafe are the bytes a profile never holds as themselves: control
// bytes and DEL (a Scheme string literal has no agreed spelling for them),
// bytes from 0x80 up (whether Seatbelt's regex reads them as bytes or as
// parts of UTF-8 characters is for a Mac to confirm), '"' (it ends the
// #"…" literal, and no escape for it inside one is known to work) and '\'
// (inside a bracket expression POSIX reads it as itself, Go as an escape;
// kept out of profiles altogether).
var sbplUnsafe = func() byteSet {
	var s byteSet
	s.addRange(1, 0x1f)
	s.addRange(0x7f, 0xff)
	s.add('"')
	s.add('\\')
	return s
}()

// An emitter writes atoms. unsafe holds the bytes it may not write as
// themselves (empty for the exact rendering); widened records that a set
// was widened because of them.
type emitter struct {
	b       strings.Builder
	unsafe  byteSet
	widened bool
}

// metas are escaped outside bracket expressions.
const metas = `\.[]()*+?{}|^$`

// awkward bytes never stand as members of a bracket expression written
// here: '\' (read differently by POSIX and Go), '[' (could start "[:"),
// ']' and '^' and '-' (special by position). They are written as escaped
// alternatives instead.
func awkward(c byte) bool {
	return c == '\\' || c == '[' || c == ']' || c == '^' || c == '-'
}

func (e *emitter) atom(a atom) {
	switch a.kind {
	case one:
		e.set(a.set)
	case many:
		if a.set != notSlash {
			panic("seatbelt: many of a set other than [^/]") // never: only '*' makes it
		}
		e.b.WriteString("[^/]*")
	case dirs0:
		e.b.WriteString("([^/]*/)*")
	case dirs1:
		e.b.WriteString("([^/]*/)+")
	case rest:
		e.b.WriteString("[^/]*(/[^/]*)*")
	}
}

// literal writes the bytes of s, each as itself (case folded when fold).
func (e *emitter) literal(s string, fold bool) {
	for i := 0; i < len(s); i++ {
		e.set(litSet(s[i], fold))
	}
}

// litSet is the set a literal byte matches: both cases of a letter when
// fold.
func litSet(c byte, fold bool) byteSet {
	var s byteSet
	s.add(c)
	if fold {
		switch {
		case 'a' <= c && c <= 'z':
			s.add(c - 'a' + 'A')
		case 'A' <= c && c <= 'Z':
			s.add(c - 'A' + 'a')
		}
	}
	return s
}

// set writes one byte of s (s holds no NUL and is not empty).
func (e *emitter) set(s byteSet) {
	s = s.without(0)
	if s.intersects(e.unsafe) && !e.unsafe.subsetOf(s) {
		s = s.union(e.unsafe)
		e.widened = true
	}
	if s.count() == 1 {
		for c := 1; c < 256; c++ {
			if s.has(byte(c)) {
				if strings.IndexByte(metas, byte(c)) >= 0 {
					e.b.WriteByte('\\')
				}
				e.b.WriteByte(byte(c))
				return
			}
		}
	}
	neg, negOK := e.negated(s)
	pos, posOK := e.positive(s)
	switch {
	case negOK && (!posOK || len(neg) <= len(pos)):
		e.b.WriteString(neg)
	case posOK:
		e.b.WriteString(pos)
	default:
		// Only in a profile: a big set that leaves out '\'. Take '\'
		// in (the rule hides more) and write the complement.
		e.widened = true
		neg, _ = e.negated(s.union(litSet('\\', false)))
		e.b.WriteString(neg)
	}
}

// negated writes s as "[^…]" listing its complement (which holds '/'
// always, NUL never): ']' first, '^' '[' '-' last, in that order.
func (e *emitter) negated(s byteSet) (string, bool) {
	k := s.not().without(0)
	if k.has('\\') || k.intersects(e.unsafe) {
		return "", false
	}
	var b strings.Builder
	b.WriteString("[^")
	if k.has(']') {
		b.WriteByte(']')
	}
	e.members(&b, k, true)
	for _, c := range []byte{'^', '[', '-'} {
		if k.has(c) {
			b.WriteByte(c)
		}
	}
	b.WriteByte(']')
	return b.String(), true
}

// positive writes s as "[…]", with its awkward bytes as escaped
// alternatives: "([…]|\[|-)".
func (e *emitter) positive(s byteSet) (string, bool) {
	if s.intersects(e.unsafe) {
		return "", false
	}
	var class strings.Builder
	n := e.members(&class, s, false)
	var alts []string
	if n > 0 {
		alts = append(alts, "["+class.String()+"]")
	}
	for _, c := range []byte{'\\', '[', ']', '^', '-'} {
		if s.has(c) {
			if strings.IndexByte(metas, c) >= 0 {
				alts = append(alts, `\`+string(c))
			} else {
				alts = append(alts, string(c))
			}
		}
	}
	if len(alts) == 1 {
		return alts[0], true
	}
	return "(" + strings.Join(alts, "|") + ")", true
}

// members writes the members of s that are not awkward, runs of three or
// more as ranges whose ends are not awkward (the bytes inside a range may
// be anything). With inNeg, awkward bytes inside a range are fine too:
// they are written after (a negated class lists them anyway). It returns
// how many bytes it covered.
func (e *emitter) members(b *strings.Builder, s byteSet, inNeg bool) int {
	covered := 0
	for c := 1; c < 256; {
		if !s.has(byte(c)) || awkward(byte(c)) {
			c++
			continue
		}
		// The longest run from c whose last byte is not awkward.
		end := c
		for d := c; d < 256 && s.has(byte(d)); d++ {
			if !awkward(byte(d)) {
				end = d
			}
		}
		if end-c >= 2 {
			b.WriteByte(byte(c))
			b.WriteByte('-')
			b.WriteByte(byte(end))
			for d := c; d <= end; d++ {
				if !awkward(byte(d)) || !inNeg {
					covered++
				}
			}
			c = end + 1
			continue
		}
		b.WriteByte(byte(c))
		covered++
		c++
	}
	return covered
}
