package seatbelt

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os/exec"
	"regexp"
	"strconv"
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
func genRegex(r *rand.Rand, depth int) string { return genRegexDot(r, depth, true) }

// genRegexDot is genRegex, with '.' only when dot.
func genRegexDot(r *rand.Rand, depth int, dot bool) string {
	alphabet := "ab/.-]^[\\\n\xff\x01"
	pickByte := func() byte { return alphabet[r.IntN(len(alphabet))] }
	var atom func() string
	atom = func() string {
		switch r.IntN(8) {
		case 0:
			if depth > 0 {
				return "(" + genRegexDepthDot(r, depth-1, dot) + ")"
			}
			return "a"
		case 1:
			if !dot {
				return "a"
			}
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

func genRegexDepth(r *rand.Rand, depth int) string { return genRegexDepthDot(r, depth, true) }

func genRegexDepthDot(r *rand.Rand, depth int, dot bool) string {
	s := genRegexDot(r, depth, dot)
	if r.IntN(3) == 0 {
		s += "|" + genRegexDot(r, depth, dot)
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

// posixMatches runs GNU grep -E (a POSIX ERE engine, in the C locale so
// that it reads bytes) on texts, one NUL-terminated record each, and
// returns which match.
func posixMatches(t *testing.T, grep, expr string, texts []string) []bool {
	t.Helper()
	cmd := exec.Command(grep, "-z", "-E", "-n", "-e", expr)
	cmd.Env = []string{"LC_ALL=C"}
	cmd.Stdin = strings.NewReader(strings.Join(texts, "\x00") + "\x00")
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		t.Fatalf("grep -E %q: %v", expr, err)
	}
	got := make([]bool, len(texts))
	for _, rec := range bytes.Split(bytes.TrimSuffix(out, []byte{0}), []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		n, _, _ := bytes.Cut(rec, []byte(":"))
		i, err := strconv.Atoi(string(n))
		if err != nil || i < 1 || i > len(texts) {
			t.Fatalf("grep output %q", rec)
		}
		got[i-1] = true
	}
	return got
}

// TestSubsetMatcherAgainstPOSIX runs generated expressions of the subset
// (without '.', which POSIX lets match '\n') through GNU grep -E, a
// second dialect beside Go's: the subset is meant to be read the same by
// every POSIX ERE engine, Apple's included.
func TestSubsetMatcherAgainstPOSIX(t *testing.T) {
	t.Parallel()
	grep, err := exec.LookPath("grep")
	if err != nil {
		t.Fatalf("GNU grep is the POSIX oracle: %v", err)
	}
	r := rand.New(rand.NewPCG(3, 4))
	var texts []string
	for range 200 {
		texts = append(texts, genText(r))
	}
	for n := 0; n < 300; {
		expr := genRegexDepthDot(r, 2, false)
		if strings.Contains(expr, "\n") {
			continue // grep reads a line break as the start of another pattern
		}
		n++
		re, err := CompileRegex(expr)
		if err != nil {
			t.Fatalf("CompileRegex(%q): %v", expr, err)
		}
		for i, want := range posixMatches(t, grep, expr, texts) {
			if got := re.Match(texts[i]); got != want {
				t.Fatalf("Match(%q, %q) = %v, grep -E says %v", expr, texts[i], got, want)
			}
		}
	}
}

// TestProfileRegexesAgainstPOSIX runs every regex of the golden profile
// through GNU grep -E and the subset matcher on paths near what they
// name.
func TestProfileRegexesAgainstPOSIX(t *testing.T) {
	t.Parallel()
	grep, err := exec.LookPath("grep")
	if err != nil {
		t.Fatalf("GNU grep is the POSIX oracle: %v", err)
	}
	p := goldenPolicy(t)
	p.Network = true
	text, err := Profile(p)
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{"/Users/me/proj/.env", "/users/ME/proj/a/.ENV", "/System/Volumes/Data/Users/me/proj/x.pem",
		"/Users/me/proj/public.pem", "/Users/me/proj/config/prod.yaml", "/Users/me/proj/x/config/prod.yaml",
		"/Users/me/proj/keys/a/id_rsa", "/Users/me/proj/keys/a/b/id_rsa", "/Users/me/proj/keys/a", "/Users/me/proj/a/secrets",
		"/Users/me/proj/a/secrets/x", "/Users/me/proj/deploy/a.tfvars", "/Users/me/.ssh", "/Users/me/.sshx", "/Users/me",
		"/Users", "/Users/me/proj/.git/hooks/pre-commit", "/Users/me/proj/.git", "/dev/ttys003", "/dev/ttys", "/dev/fd/1",
		"/private/var/folders/x1/abc/T/cmdguard-run-1/d/.aws/credentials", "/Users/me/proj/main.go", "/"}
	n := 0
	for _, rx := range regexp.MustCompile(`#"([^"]*)"`).FindAllStringSubmatch(text, -1) {
		expr := rx[1]
		re, err := CompileRegex(expr)
		if err != nil {
			t.Fatalf("profile regex outside the subset: %v", err)
		}
		for i, want := range posixMatches(t, grep, expr, paths) {
			if got := re.Match(paths[i]); got != want {
				t.Errorf("Match(%q, %q) = %v, grep -E says %v", expr, paths[i], got, want)
			}
		}
		n++
	}
	if n < 40 {
		t.Errorf("only %d regexes in the profile, want ≥ 40", n)
	}
}

// TestIntersects checks Intersects on generated expressions: a witness
// it finds matches both, and when it finds none, no short text matches
// both.
func TestIntersects(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 6))
	// Every text over a small alphabet, up to 4 bytes.
	texts := []string{""}
	for n, prev := 0, []string{""}; n < 4; n++ {
		var next []string
		for _, p := range prev {
			for _, c := range "a/]" {
				next = append(next, p+string(c))
			}
		}
		texts = append(texts, next...)
		prev = next
	}
	both := 0
	for range 1500 {
		e1, e2 := "^("+genRegexDepth(r, 1)+")$", "^("+genRegexDepth(r, 1)+")$"
		a, err1 := CompileRegex(e1)
		b, err2 := CompileRegex(e2)
		if err1 != nil || err2 != nil {
			t.Fatalf("CompileRegex: %v, %v", err1, err2)
		}
		w, ok := a.witness(b)
		if ok {
			both++
			if !a.Match(w) || !b.Match(w) {
				t.Fatalf("witness %q of %q and %q does not match both", w, e1, e2)
			}
			continue
		}
		for _, x := range texts {
			if a.Match(x) && b.Match(x) {
				t.Fatalf("%q matches %q and %q, but Intersects found nothing", x, e1, e2)
			}
		}
	}
	if both < 100 || both > 1400 {
		t.Errorf("%d of 1500 pairs intersect: the generator tests too little of one side", both)
	}
}
