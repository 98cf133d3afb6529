package seatbelt

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// latin1 maps every byte to the rune of the same value, so that Go's
// regexp (which reads UTF-8) matches byte by byte as the subset does.
func latin1(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteRune(rune(s[i]))
	}
	return b.String()
}

// goAgrees compiles expr with Go's regexp and checks it against the
// subset matcher on text.
func goAgrees(t *testing.T, expr string, re *Regex, text string) {
	t.Helper()
	g, err := regexp.Compile(latin1(expr))
	if err != nil {
		t.Fatalf("CompileRegex(%q) accepts what Go's regexp refuses: %v", expr, err)
	}
	if got, want := re.Match(text), g.MatchString(latin1(text)); got != want {
		t.Fatalf("Match(%q, %q) = %v, Go's regexp says %v", expr, text, got, want)
	}
}

func TestRegexOutsideSubset(t *testing.T) {
	t.Parallel()
	for _, expr := range []string{
		`(?:a)`, `(?i)a`, `\d`, `\w`, `\n`, `a{2}`, `a{2,3}`, `{`, `a*?`, `a+?`, `a**`, `a*+`, `^*`, `$+`,
		`[\d]`, `[a\]`, `[[:alpha:]]`, `[[.a.]]`, `[[=a=]]`, `[a-[:b]`, `()`, `a|`, `|a`, `(a|)`, `[a-c-e]`,
		`[z-a]`, "a\x00", `[a`, `[]`, `[^]`, `(a`, `a)`, `*a`, `+`, `?`, `\`, `[a-\]`, `[b-a]`, `a||b`,
	} {
		if _, err := CompileRegex(expr); err == nil {
			t.Errorf("CompileRegex(%q) = nil error, want it refused", expr)
		}
	}
}

func TestRegexMatch(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		expr, text string
		want       bool
	}{
		{`^/a/b$`, "/a/b", true},
		{`^/a/b$`, "/a/bc", false},
		{`/a`, "x/a/y", true},
		{`^([^/]*/)*\.env$`, "/p/q/.env", true},
		{`^([^/]*/)*\.env$`, "/p/q/xenv", false},
		{`^/p/[^/]*\.pem(/[^/]*)*$`, "/p/x.pem/y/z", true},
		{`^/p/[^/]*\.pem(/[^/]*)*$`, "/p/d/x.pem", false},
		{`[^/]`, "\n", true},
		{`^.$`, "\n", false},
		{`^.$`, "\xff", true},
		{`^[]a]$`, "]", true},
		{`^[^]a]$`, "]", false},
		{`^[a-]$`, "-", true},
		{`^[--/]$`, ".", true},
		{`^(a|bc)+$`, "abca", true},
		{`^(a|bc)+$`, "abcb", false},
		{`^a?b$`, "b", true},
		{`^\$\^\.\[\]\(\)\*\+\?\{\}\|\\$`, `$^.[]()*+?{}|\`, true},
		{`a$|^b`, "ba", true},
		{`}]`, "}]", true},
		{`^[a^]$`, "^", true},
	} {
		re, err := CompileRegex(c.expr)
		if err != nil {
			t.Errorf("CompileRegex(%q): %v", c.expr, err)
			continue
		}
		if got := re.Match(c.text); got != c.want {
			t.Errorf("Match(%q, %q) = %v, want %v", c.expr, c.text, got, c.want)
		}
		goAgrees(t, c.expr, re, c.text)
	}
}

// genRegex builds an expression of the subset from r, with bytes chosen
// from alphabet so that texts over the same alphabet often match.
func genRegex(r *rand.Rand, depth int) string {
	alphabet := "ab/.-]^[\\\n\xff\x01"
	pickByte := func() byte { return alphabet[r.IntN(len(alphabet))] }
	var atom func() string
	atom = func() string {
		switch r.IntN(8) {
		case 0:
			if depth > 0 {
				return "(" + genRegexDepth(r, depth-1) + ")"
			}
			return "a"
		case 1:
			return "."
		case 2, 3:
			var b strings.Builder
			b.WriteByte('[')
			if r.IntN(2) == 0 {
				b.WriteByte('^')
			}
			if r.IntN(4) == 0 {
				b.WriteByte(']')
			}
			for n := 1 + r.IntN(3); n > 0; n-- {
				c := pickByte()
				if c == '\\' || c == '[' || c == ']' || c == '-' || c == '^' {
					c = 'a'
				}
				b.WriteByte(c)
				if r.IntN(3) == 0 {
					hi := pickByte()
					if hi >= c && hi != '\\' && hi != '[' && hi != ']' && hi != '-' {
						b.WriteByte('-')
						b.WriteByte(hi)
						if r.IntN(2) == 0 {
							b.WriteByte('/')
						}
					}
				}
			}
			if r.IntN(4) == 0 {
				b.WriteByte('-')
			}
			b.WriteByte(']')
			return b.String()
		case 4:
			c := pickByte()
			if isEscapable(c) {
				return `\` + string(c)
			}
			return string(c)
		default:
			c := pickByte()
			if strings.IndexByte(`\.[()*+?{|^$`, c) >= 0 {
				return `\` + string(c)
			}
			return string(c)
		}
	}
	var b strings.Builder
	if r.IntN(3) == 0 {
		b.WriteByte('^')
	}
	for n := 1 + r.IntN(4); n > 0; n-- {
		b.WriteString(atom())
		switch r.IntN(6) {
		case 0:
			b.WriteByte('*')
		case 1:
			b.WriteByte('+')
		case 2:
			b.WriteByte('?')
		}
	}
	if r.IntN(3) == 0 {
		b.WriteByte('$')
	}
	return b.String()
}

func genRegexDepth(r *rand.Rand, depth int) string {
	s := genRegex(r, depth)
	if r.IntN(3) == 0 {
		s += "|" + genRegex(r, depth)
	}
	return s
}

func genText(r *rand.Rand) string {
	alphabet := "ab/.-]^[\\\n\xff\x01"
	var b strings.Builder
	for n := r.IntN(8); n > 0; n-- {
		b.WriteByte(alphabet[r.IntN(len(alphabet))])
	}
	return b.String()
}

// TestSubsetMatcherAgainstGo runs generated expressions of the subset
// against Go's regexp, on generated texts (FuzzSubsetMatcher does the
// same with the fuzzer's inputs).
func TestSubsetMatcherAgainstGo(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for range 3000 {
		expr := genRegexDepth(r, 2)
		re, err := CompileRegex(expr)
		if err != nil {
			t.Fatalf("CompileRegex(%q) of a generated expression: %v", expr, err)
		}
		for range 10 {
			goAgrees(t, expr, re, genText(r))
		}
	}
}

// FuzzSubsetMatcher checks that for every expression the subset accepts
// (given by the fuzzer, or built from its bytes), Go's regexp accepts it
// too and both agree on the text.
func FuzzSubsetMatcher(f *testing.F) {
	f.Add(`^/p/([^/]*/)*\.env(/[^/]*)*$`, "/p/a/.env/x", uint64(1))
	f.Add(`^[^]/a-c^[-]$`, "]", uint64(2))
	f.Add(`^(/System/Volumes/Data)?/[uU]sers/x$`, "/System/Volumes/Data/Users/x", uint64(3))
	f.Add(`^([^/\x01]|\\|\[)*$`, "a\\[", uint64(4))
	f.Fuzz(func(t *testing.T, expr, text string, seed uint64) {
		if len(expr) > 256 || len(text) > 256 {
			return
		}
		if re, err := CompileRegex(expr); err == nil {
			goAgrees(t, expr, re, text)
		}
		r := rand.New(rand.NewPCG(seed, uint64(len(expr))))
		gen := genRegexDepth(r, 2)
		re, err := CompileRegex(gen)
		if err != nil {
			t.Fatalf("CompileRegex(%q) of a generated expression: %v", gen, err)
		}
		goAgrees(t, gen, re, text)
	})
}
