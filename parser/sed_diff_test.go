package parser

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// GNU sed is the oracle of the sed scanner (sedScript, sedRisk): it
// reads the same script in a scratch directory, with empty input so
// that no command runs, three ways:
//
//   - sed --debug prints the program as it parsed it ("SED PROGRAM:"),
//     or refuses it with a message;
//   - sed --sandbox refuses a script with an e, r, R, w, W command or an
//     s///e or s///w flag, at the first one ("e/r/w commands disabled in
//     sandbox mode"): whether GNU sed sees one;
//   - the files GNU sed creates in the scratch directory while it parses
//     are the files the script writes (w, W and s///w open theirs then,
//     even when a later command is refused).

// sedOracle is what GNU sed made of a script.
type sedOracle struct {
	parsed  bool     // --debug printed the program (exit 0)
	danger  bool     // --sandbox refused an e/r/w command
	created []string // the files created while parsing, sorted
	msg     string   // GNU sed's error, if any
}

// gnuSed runs GNU sed with args (options and -e/-f scripts) in the empty
// directory dir, and removes what it created there.
func gnuSed(t testing.TB, dir string, args []string) sedOracle {
	t.Helper()
	run := func(extra string) (string, bool) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, "sed", append([]string{extra}, args...)...)
		cmd.Dir = dir
		cmd.Env = []string{"LC_ALL=C.UTF-8", "PATH=" + os.Getenv("PATH")}
		cmd.Stdin = strings.NewReader("")
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		if ctx.Err() != nil {
			t.Fatalf("sed %q: timed out", args)
		}
		return out.String(), err == nil
	}
	var o sedOracle
	out, ok := run("--sandbox")
	o.danger = !ok && strings.Contains(out, "e/r/w commands disabled in sandbox mode")
	out, ok = run("--debug")
	o.parsed = ok && strings.HasPrefix(out, "SED PROGRAM:")
	if !ok {
		o.msg = strings.TrimSpace(out)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		o.created = append(o.created, e.Name())
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			t.Fatal(err)
		}
	}
	slices.Sort(o.created)
	return o
}

// sedParseErrors are GNU sed 4.9's own messages for a script it refuses
// while reading it (compile.c); any other refusal comes from compiling a
// regular expression, which the scanner does not do.
var sedParseErrors = []string{"unterminated", "unknown option to", "extra characters after command", "unexpected `}'",
	"unmatched `{'", "missing command", "unknown command", "expected \\ after", "comments don't accept any addresses",
	"lacks a label", "can't find label", "command only uses one address", "unexpected `,'", "invalid usage of line address 0",
	"multiple `!'s", "multiple `p' options", "multiple `g' options", "multiple number options", "may not be zero",
	"strings for `y' command are different lengths", "delimiter character is not a single-byte character",
	"expected newer version of sed", "invalid usage of +N or ~N", "missing filename", "doesn't want any addresses",
	"e/r/w commands disabled"}

// sedCase is a generated sed command line: its options and scripts (the
// -e values; with file, the last one is given with -f instead).
type sedCase struct {
	opts   []string
	chunks []string
	file   bool
}

// args are the arguments of the case for GNU sed; a -f script is written
// to a file in fdir (not the scratch directory).
func (c sedCase) args(t testing.TB, fdir string) []string {
	args := slices.Clone(c.opts)
	for k, ch := range c.chunks {
		if c.file && k == len(c.chunks)-1 {
			f := filepath.Join(fdir, "script.sed")
			if err := os.WriteFile(f, []byte(ch), 0o644); err != nil {
				t.Fatal(err)
			}
			args = append(args, "-f", f)
			continue
		}
		args = append(args, "-e", ch)
	}
	return args
}

// sedSafeToRun reports whether GNU sed may read the scripts in the
// scratch directory: no w, W, r or R (or a byte that might be one) is
// followed by an absolute file name, which sed would open (and, for w,
// truncate) outside the scratch directory while it parses. A relative
// name stays inside it: the directory is empty, and sed makes no
// directories.
func sedSafeToRun(chunks []string) bool {
	for _, c := range chunks {
		for i := 0; i < len(c); i++ {
			if strings.IndexByte("wWrR", c[i]) < 0 {
				continue
			}
			j := i + 1
			for j < len(c) && (c[j] == ' ' || c[j] == '\t') {
				j++
			}
			if j < len(c) && c[j] == '/' {
				return false
			}
		}
	}
	return true
}

// sedStats counts what GNU sed made of the generated scripts.
type sedStats struct{ n, parsed, danger int }

// checkSed compares the scanner with the oracle on one case and returns
// the disagreements.
func checkSed(t testing.TB, dir, fdir string, c sedCase) []string {
	return checkSedStats(t, dir, fdir, c, &sedStats{})
}

func checkSedStats(t testing.TB, dir, fdir string, c sedCase, st *sedStats) []string {
	t.Helper()
	if !sedSafeToRun(c.chunks) {
		t.Fatalf("sed -e %q: not run, it may open a file outside the scratch directory", c.chunks)
		return nil
	}
	o := gnuSed(t, dir, c.args(t, fdir))
	st.n++
	if o.parsed {
		st.parsed++
	}
	if o.danger || len(o.created) > 0 {
		st.danger++
	}
	var errs []string
	// The gate's verdict: the guard must ask whenever GNU sed sees a
	// command that runs, reads or writes, or creates a file.
	argv := append([]string{"sed"}, c.args(t, fdir)...)
	if (o.danger || len(o.created) > 0) && scriptRisk(argv) == 0 {
		errs = append(errs, "sedRisk allows a script in which GNU sed sees e/r/w or that creates "+strings.Join(o.created, ","))
	}
	if c.file || slices.Contains(c.opts, "--posix") {
		return errs // the guard asks for these (-f is not read; --posix is another reading)
	}
	eval, reads, writes, bad := sedScriptChunks(c.chunks)
	mine := eval || len(reads) > 0 || len(writes) > 0
	if !bad && !mine && (o.danger || len(o.created) > 0) {
		errs = append(errs, "sedScript sees nothing in a script in which GNU sed sees e/r/w or that creates "+strings.Join(o.created, ","))
	}
	for _, f := range o.created {
		if !bad && !slices.Contains(writes, f) {
			errs = append(errs, "GNU sed created "+f+", sedScript's writes are "+strings.Join(writes, ","))
		}
	}
	switch {
	case bad: // the gate asks; it must not refuse what GNU sed reads, but for bytes that are not UTF-8
		if o.parsed && sedValid(c.chunks) {
			errs = append(errs, "GNU sed reads the script, sedScript refuses it")
		}
	case o.parsed && mine != o.danger:
		errs = append(errs, "GNU sed and sedScript disagree on e/r/w")
	case o.parsed:
		var files []string
		for _, f := range writes {
			if f != "/dev/stdout" && f != "/dev/stderr" && !slices.Contains(files, f) {
				files = append(files, f)
			}
		}
		slices.Sort(files)
		if !slices.Equal(files, o.created) {
			errs = append(errs, "writes "+strings.Join(files, ",")+", GNU sed created "+strings.Join(o.created, ","))
		}
	case sedParseError(o.msg):
		errs = append(errs, "GNU sed refuses the script ("+o.msg+"), sedScript reads it")
	}
	return errs
}

// sedValid reports whether every script is UTF-8: sedScript refuses
// the others (fails closed), as a multibyte locale reads them its own way.
func sedValid(chunks []string) bool {
	return !slices.ContainsFunc(chunks, func(c string) bool { return !utf8.ValidString(c) })
}

// sedParseError reports whether msg is one of GNU sed's parse errors.
func sedParseError(msg string) bool {
	for _, m := range sedParseErrors {
		if strings.Contains(msg, m) {
			return true
		}
	}
	return false
}

// sedScratch returns the scratch directory and the directory of -f
// scripts, after checking that sed is GNU sed with --debug.
func sedScratch(t testing.TB) (string, string) {
	t.Helper()
	needProgram(t, "sed")
	out, err := exec.Command("sed", "--version").Output()
	if err != nil || !bytes.Contains(out, []byte("GNU sed")) {
		t.Fatalf("the sed differential needs GNU sed (4.6 or later, for --debug): %v %.40s", err, out)
	}
	dir, fdir := filepath.Join(t.TempDir(), "scratch"), t.TempDir()
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir, fdir
}

// The pieces the generator builds sed scripts from: addresses, regular
// expressions (brackets, escapes, delimiters inside them), file names,
// labels, flags, separators, commands.
var (
	sedGenAddrs = []string{"", "", "", "1", "$", "2,5", "0~3", "/a/", "/a/I", `\%a%`, "/a/,+2", "1,~4", "0,/x/", " 1 , 3 ",
		"/[/]/", `/a\/b/`, `\,[,],`, "$!", "1!", "1 ! ", "/x/!", "~2", "+1", "1,", ",2", "/a/M,/b/", `\na\nb`}
	sedGenRes = []string{"a", "[/]", "[]/]", "[^/]", "[[:alpha:]/]", "[[./.]]", "[[=/=]]", `[\]`, `[\/]`, `\/`, `\\`, `\n`,
		"[", "]", ".*", `\(x\)`, "[[:a", "[a-[", "/", "#", ";", "}", " ", "w", "e", "[[:]:]]", "[^]/]", "x", "[\n]", `\`, "[,]", "[|]"}
	sedGenDelims = []string{"/", "/", "/", ",", "|", "#", ";", " ", "[", "]", "e", "w", "x", "}", "{", "n", "\t", "é"}
	sedGenFiles  = []string{"o1", "o2", "o3;p", "o4}", "o5 ", "o6#x", `o7\`, "o8\\\nw o9", ""}
	sedGenLabels = []string{"", "a", "a;w o10", "a}", "a#x", "a w o11", "a\tw o12", "a;e", " a", "b{"}
	sedGenFlags  = []string{"", "", "g", "p", "2", "e", "w ", "I", "M", "g;", "e;", " w ", "pe", "0", "gg", "w", "m", " ; ", "}", "#x", "\\"}
	sedGenSeps   = []string{";", "\n", " ; ", "", " ", ";;", "\n\n", "}", "{", "#c\n", "#c\\\n", "\\\n"}
)

// genSed builds a random case: 1 to 6 commands, split into 1 to 3
// scripts, with some of -n, -E, -z, -s, --posix, and sometimes the last
// script given with -f.
func genSed(rng *rand.Rand) sedCase {
	if rng.IntN(2) == 0 {
		return genSedValid(rng)
	}
	pick := func(s []string) string { return s[rng.IntN(len(s))] }
	var pieces []string
	for range 1 + rng.IntN(6) {
		cmd := pick(sedGenAddrs)
		switch rng.IntN(16) {
		case 0, 1, 2:
			d := pick(sedGenDelims)
			cmd += "s" + d + pick(sedGenRes) + pick(sedGenRes) + d + pick([]string{"x", "&", `\/`, "[", "/", `\` + d, "\\\n", ""}) + d + pick(sedGenFlags)
			if strings.HasSuffix(cmd, "w ") || strings.HasSuffix(cmd, "w") {
				cmd += pick(sedGenFiles)
			}
		case 3:
			d := pick(sedGenDelims)
			cmd += "y" + d + pick([]string{"ab", "a" + `\` + d, "[]", `\n`, "a"}) + d + pick([]string{"xy", "x", "]["}) + d
		case 4:
			cmd += pick([]string{"r", "R", "w", "W"}) + pick([]string{" ", "", "  "}) + pick(sedGenFiles)
		case 5:
			cmd += pick([]string{"e", "e ", "e echo hi", "e \\\necho", "e;p"})
		case 6:
			cmd += pick([]string{"a", "i", "c"}) + pick([]string{" text", "\\\ntext", "\\", "\\text\\\nw o13", " text\\", "", "\\\n", " w o14"})
		case 7:
			cmd += pick([]string{":", "b", "t", "T", "v", "b ", "t ", ": "}) + pick(sedGenLabels)
		case 8:
			cmd += "{"
		case 9:
			cmd += "}"
		case 10:
			cmd += pick([]string{"#", "#n", "# w o15"})
		case 11:
			cmd += pick([]string{"q", "Q 3", "l 5", "q5", "L", "l;"})
		default:
			cmd += pick([]string{"p", "d", "=", "N", "D", "G", "h", "x", "F", "z", "k", "!", "pw o16"})
		}
		pieces = append(pieces, cmd, pick(sedGenSeps))
	}
	c := sedCase{}
	for _, o := range []string{"-n", "-E", "-z", "-s", "--posix"} {
		if rng.IntN(4) == 0 && (o != "--posix" || rng.IntN(3) == 0) {
			c.opts = append(c.opts, o)
		}
	}
	n := 1 + rng.IntN(3)
	cuts := make([]int, 0, n)
	for range n - 1 {
		cuts = append(cuts, rng.IntN(len(pieces)+1))
	}
	cuts = append(cuts, len(pieces))
	slices.Sort(cuts)
	prev := 0
	for _, k := range cuts {
		c.chunks = append(c.chunks, strings.Join(pieces[prev:k], ""))
		prev = k
	}
	c.file = rng.IntN(8) == 0
	return c
}

// TestSedDifferential generates sed scripts and checks the scanner
// against GNU sed on each (see checkSed). On the scanner of main it
// fails: it ended a regex at a / inside [...], and so read the w or e
// that follows as part of a flag or another command.
func TestSedDifferential(t *testing.T) {
	t.Parallel()
	dir, fdir := sedScratch(t)
	seed, n := uint64(3), 1500
	if testing.Short() {
		n = 200
	}
	if v := os.Getenv("CMDGUARD_SED_CASES"); v != "" { // a longer run: N,SEED
		a, b, _ := strings.Cut(v, ",")
		n, _ = strconv.Atoi(a)
		seed, _ = strconv.ParseUint(b, 10, 64)
	}
	rng := rand.New(rand.NewPCG(26, seed))
	failed := 0
	var st sedStats
	defer func() {
		t.Logf("%d scripts: GNU sed read %d; %d run, read or write (or create a file)", st.n, st.parsed, st.danger)
	}()
	for range n {
		c := genSed(rng)
		if !sedSafeToRun(c.chunks) {
			continue // the generator never writes an absolute name; a piece that does is not run
		}
		if errs := checkSedStats(t, dir, fdir, c, &st); len(errs) > 0 {
			failed++
			if failed <= 15 {
				t.Errorf("sed %q -e %q: %s", c.opts, c.chunks, strings.Join(errs, "; "))
			}
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d generated scripts disagree with GNU sed", failed, n)
	}
}

// FuzzSedScript checks the scanner against GNU sed on one script; a NUL
// byte in the input separates -e scripts.
func FuzzSedScript(f *testing.F) {
	for _, s := range []string{"s/[/]/x/w o1", ":a;b a;w o2", "s/a/b/;e echo", "1a\\\nw o3", "y/a\\/b/xyz/", "\\%[%]%w o4",
		"s/[[:alpha:]/]/x/e", "b a}\x00:a", "$!N;s/\\n/ /;ta\x00:a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := sedCase{chunks: strings.Split(s, "\x00")}
		if len(s) > 200 || !sedSafeToRun(c.chunks) {
			return
		}
		dir, fdir := sedScratch(t)
		if errs := checkSed(t, dir, fdir, c); len(errs) > 0 {
			t.Errorf("sed -e %q: %s", c.chunks, strings.Join(errs, "; "))
		}
	})
}

// TestSedGNU: scripts in which the scanner of main missed a w, r or e
// that GNU sed 4.9 sees (found by TestSedDifferential), and scripts it
// must read as safe. Each row is checked against GNU sed itself (what it
// creates and whether --sandbox refuses it) and the scanner must agree.
func TestSedGNU(t *testing.T) {
	t.Parallel()
	dir, fdir := sedScratch(t)
	tests := []struct {
		chunks  []string // -e values
		danger  bool     // GNU sed sees e, r, R, w, W, s///e or s///w
		created []string // the files GNU sed creates while it parses
	}{
		// a / inside [...] does not end a regex (main ended it there)
		{[]string{"s/[/]/x/w o1"}, true, []string{"o1"}},
		{[]string{"s/[]/]/x/w o1"}, true, []string{"o1"}},
		{[]string{"s/[^/]/x/e"}, true, nil},
		{[]string{"s/[[:alpha:]/]/x/gw o1"}, true, []string{"o1"}},
		{[]string{"s,[,],x,w o1"}, true, []string{"o1"}},
		{[]string{"/[/]/w o1"}, true, []string{"o1"}},
		{[]string{`\%[%]%r .env`}, true, nil},
		{[]string{"/[/]/e id"}, true, nil},
		// a label ends at a blank, ; # or } (main read it to ; or newline)
		{[]string{"ta w o1"}, true, []string{"o1"}},
		{[]string{":a w o1"}, true, []string{"o1"}},
		{[]string{":x", "T x e id"}, true, nil},
		{[]string{":a", "b a\tr .env"}, true, nil},
		{[]string{"v 4.2 w o1"}, true, []string{"o1"}},
		// the file name of w is the rest of the line, ; and } included
		{[]string{"w o1;p"}, true, []string{"o1;p"}},
		// safe: the w is inside a regex, a label or the text of a
		{[]string{"s/[w]/x/;/[/]w[ab]/p"}, false, nil},
		{[]string{"s/a\\/w x/b/"}, false, nil},
		{[]string{"1a\\", "w o1"}, false, nil},
		{[]string{":a;w", "ba"}, true, nil}, // GNU sed: missing filename (refused; nothing runs, but the scan asks)
		{[]string{"$!N;s/\\n/ /;ta", ":a"}, false, nil},
		{[]string{"y/a\\/b/xyz/"}, false, nil},
		{[]string{"s/[a-z]*/X/2;y/abc/xyz/;1!G;h;$!d"}, false, nil},
	}
	for _, tt := range tests {
		o := gnuSed(t, dir, sedCase{chunks: tt.chunks}.args(t, fdir))
		if o.danger != tt.danger && !(tt.danger && !o.parsed) || !slices.Equal(o.created, tt.created) {
			t.Errorf("GNU sed -e %q: danger %v created %q (%s), the row says %v %q", tt.chunks, o.danger, o.created, o.msg, tt.danger, tt.created)
		}
		if errs := checkSed(t, dir, fdir, sedCase{chunks: tt.chunks}); len(errs) > 0 {
			t.Errorf("sed -e %q: %s", tt.chunks, strings.Join(errs, "; "))
		}
		argv := []string{"sed", "-n"}
		for _, c := range tt.chunks {
			argv = append(argv, "-e", c)
		}
		if got := scriptRisk(argv) > 0; got != tt.danger {
			t.Errorf("scriptRisk(%q) asks %v, want %v", argv, got, tt.danger)
		}
	}
}

// TestSedVersion: the v command refuses a version above GNU sed's own
// (4.9), compared as strverscmp compares; GNU sed is the oracle.
func TestSedVersion(t *testing.T) {
	t.Parallel()
	dir, fdir := sedScratch(t)
	for _, v := range []string{"070", "4.10", "4.9", "4.9.1", "5", "10", "4.09", "04", "1x", "4.8z", "a", "4.9a", "3.99", "4.10.0", "00"} {
		o := gnuSed(t, dir, sedCase{chunks: []string{"v " + v}}.args(t, fdir))
		if got := sedVersionAbove(v, "4.9"); got != !o.parsed {
			t.Errorf("sedVersionAbove(%q) = %v, GNU sed refuses v %s: %v (%s)", v, got, v, !o.parsed, o.msg)
		}
	}
}

// genSedValid builds a random case from pieces GNU sed reads (mostly):
// the corners are in what the pieces hold (brackets with the delimiter,
// labels and file names with ; } # and blanks), not in broken syntax.
func genSedValid(rng *rand.Rand) sedCase {
	pick := func(s []string) string { return s[rng.IntN(len(s))] }
	addrs := []string{"", "", "1", "$", "2,5", "0~3", "/a/", "/a/I", `\%a%`, "/a/,+2", "1,~4", "0,/x/", "/[/]/", `/a\/b/`, `\,[,],`, "$!", "/x/!", "/[]/]/,/[^/]/"}
	res := []string{"a", "[/]", "[]/]", "[^/]", "[[:alpha:]/]", "[[./.]]", "[[=/=]]", `[\]`, `\/`, `\n`, ".*", `\(x\)`, "[[:]:]]", "[^]/]", "x", "[,]", "[|]", "[;]", "[#]", "[}]", "[w]", "[ ]"}
	delims := []string{"/", "/", "/", ",", "|", "#", ";", ":", "_", "}"}
	files := []string{"o1", "o2", "o3;p", "o4}", "o5 ", "o6#x", "o7 ; w o8"}
	labels := []string{"a", "a;w o10", "a}", "a#x", "a w o11", "a\tw o12", "a;e", " a", "a ;r o13"}
	var pieces []string
	depth := 0
	for range 1 + rng.IntN(6) {
		cmd := pick(addrs)
		switch rng.IntN(12) {
		case 0, 1, 2, 3:
			d := pick(delims)
			re := pick(res)
			if d != "/" && strings.Contains(re, d) && !strings.Contains(re, "[") {
				re = "a"
			}
			cmd += "s" + d + re + d + pick([]string{"x", "&", "[", "/"}) + d + pick([]string{"", "g", "p", "2", "e", "w " + pick(files), "I", "gw " + pick(files), "pe", "m"})
		case 4:
			cmd += "y/ab/xy/"
		case 5:
			cmd += pick([]string{"r", "R", "w", "W"}) + " " + pick(files)
		case 6:
			cmd += pick([]string{"e", "e echo hi"})
		case 7:
			cmd += pick([]string{"a", "i", "c"}) + pick([]string{" text", "\\\ntext", "\\text\\\nw o14", " w o15"})
		case 8:
			cmd = pick([]string{":", "b", "t", "T", "b ", "t "}) + pick(labels)
		case 9:
			if depth == 0 || rng.IntN(2) == 0 {
				cmd += "{"
				depth++
			} else {
				cmd = "}"
				depth--
			}
		case 10:
			cmd = pick([]string{"#", "# w o16", "#c;w o17"})
		default:
			cmd += pick([]string{"p", "d", "=", "N", "D", "G", "h", "x", "F", "z", "q", "l 5"})
		}
		pieces = append(pieces, cmd, pick([]string{";", "\n", " ; ", "\n\n"}))
	}
	for ; depth > 0; depth-- {
		pieces = append(pieces, "}", "\n")
	}
	if rng.IntN(3) == 0 {
		pieces = append(pieces, ":a\n")
	}
	c := sedCase{}
	for _, o := range []string{"-n", "-E", "-z", "-s"} {
		if rng.IntN(4) == 0 {
			c.opts = append(c.opts, o)
		}
	}
	n := 1 + rng.IntN(2)
	k := rng.IntN(len(pieces)/2+1) * 2
	if n == 1 || k == 0 || k == len(pieces) {
		c.chunks = []string{strings.Join(pieces, "")}
	} else {
		c.chunks = []string{strings.Join(pieces[:k], ""), strings.Join(pieces[k:], "")}
	}
	return c
}
