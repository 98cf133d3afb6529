package parser

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// gawk is the oracle of the awk scanner (awkLex): its debugger's dump
// (gawk -D, then "dump" and "quit": the program is compiled, never run)
// lists the byte code of the program as gawk parsed it, and names what
// runs, reads and writes: Op_builtin system, Op_indirect_func_call,
// redir_type " | " and " |& " (a command), " > " and " >> " (a file
// written), " < " (a file read), and the arrays ARGV and SYMTAB (which
// name the files awk reads).

// awkOracle is what gawk made of a program.
type awkOracle struct {
	parsed              bool
	eval, reads, writes bool
	dump                string
	// hung: gawk never finished compiling prog (gawk 5.2 loops for ever
	// on an unterminated regex ending in some multibyte characters,
	// "/˸"): it runs nothing, and gives no answer to compare.
	hung bool
}

var awkOp = regexp.MustCompile(`(?m)^\[[ 0-9]*:0x[0-9a-f]+\] (Op_[A-Za-z_]+) *: (.*)$`)

// gawkDump compiles prog with gawk's debugger in dir and reads its dump.
func gawkDump(t testing.TB, dir, prog string) awkOracle {
	t.Helper()
	f := filepath.Join(dir, "prog.awk")
	if err := os.WriteFile(f, []byte(prog), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(f)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "gawk", "-D", "-f", f)
	cmd.Dir = dir
	cmd.Env = []string{"LC_ALL=C.UTF-8", "PATH=" + os.Getenv("PATH")}
	cmd.Stdin = strings.NewReader("dump\nquit\n")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Logf("gawk -D %q: timed out: gawk hangs compiling it (no answer to compare)", prog)
		return awkOracle{hung: true}
	}
	o := awkOracle{dump: out.String()}
	ops := awkOp.FindAllStringSubmatch(o.dump, -1)
	o.parsed = err == nil && len(ops) > 0
	for _, m := range ops {
		op, rest := m[1], m[2]
		redir := ""
		if k := strings.Index(rest, `[redir_type = "`); k >= 0 && strings.HasPrefix(op, "Op_K_") {
			redir = rest[k+len(`[redir_type = "`):]
		}
		switch {
		case op == "Op_builtin" && strings.HasPrefix(rest, "system "),
			op == "Op_indirect_func_cal" || op == "Op_indirect_func_call",
			strings.HasPrefix(redir, " | "), strings.HasPrefix(redir, " |& "):
			o.eval = true
		case strings.HasPrefix(redir, " > "), strings.HasPrefix(redir, " >> "):
			o.writes = true
		case strings.HasPrefix(redir, " < "),
			// Any op on ARGV or SYMTAB (a push, a store: SYMTAB=0 is
			// Op_store_var, fatal at run time): awkLex asks for every
			// mention, which names the files awk reads.
			awkFirst(rest) == "ARGV" || awkFirst(rest) == "SYMTAB":
			o.reads = true
		}
	}
	return o
}

// mawk is the second oracle (Debian's awk): mawk -W dump lists its
// byte code; a print, printf or getline after "pushint -N" redirects
// (-1 and -2 write a file, -3 and -4 pipe to or from a command, -5 reads
// a file), the op system runs a command, and ARGV names the files read.
var mawkOp = regexp.MustCompile(`(?m)^[0-9]+ \.\t([a-z_0-9]+)\t?(.*)$`)

// mawkDump compiles prog with mawk -W dump in dir.
func mawkDump(t testing.TB, dir, prog string) awkOracle {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "mawk", "-W", "dump", "--", prog)
	cmd.Dir = dir
	cmd.Env = []string{"LC_ALL=C.UTF-8", "PATH=" + os.Getenv("PATH")}
	cmd.Stdin = strings.NewReader("")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("mawk -W dump %q: timed out", prog)
	}
	o := awkOracle{dump: out.String(), parsed: err == nil}
	prev := ""
	for _, m := range mawkOp.FindAllStringSubmatch(o.dump, -1) {
		op, arg := m[1], strings.TrimSpace(m[2])
		switch {
		case op == "system":
			o.eval = true
		case op == "print" || op == "printf" || op == "getline":
			switch prev {
			case "pushint -1", "pushint -2":
				o.writes = true
			case "pushint -3", "pushint -4":
				o.eval = true
			case "pushint -5":
				o.reads = true
			}
		case strings.HasSuffix(arg, "ARGV") && awkFirst(arg) == "ARGV" || strings.HasSuffix(arg, "\tARGV"):
			o.reads = true
		}
		prev = op + " " + arg
	}
	return o
}

// awkFirst returns the first field of s.
func awkFirst(s string) string {
	f, _, _ := strings.Cut(strings.TrimSpace(s), " ")
	return f
}

// awkSafeToRun reports whether gawk may compile prog: @load and
// @include act while gawk compiles (they load a library, read a file).
func awkSafeToRun(prog string) bool {
	return !strings.Contains(prog, "load") && !strings.Contains(prog, "include")
}

// awkStats counts what the oracles made of the generated programs.
type awkStats struct{ n, parsed, danger, mawkParsed int }

// checkAwk compares awkLex with gawk on one program and returns the
// disagreements: where gawk sees a command, a file read or written, the
// scanner must (the guard asks); where gawk sees none, it must not (the
// program is allowed).
func checkAwk(t testing.TB, dir, prog string) []string {
	return checkAwkStats(t, dir, prog, &awkStats{})
}

func checkAwkStats(t testing.TB, dir, prog string, st *awkStats) []string {
	t.Helper()
	if !awkSafeToRun(prog) {
		t.Fatalf("awk %q: not compiled, it names @load or @include", prog)
		return nil
	}
	o := gawkDump(t, dir, prog)
	if o.hung {
		return nil
	}
	a := awkLex(prog)
	mine := a.eval || a.reads || a.writes
	var errs []string
	m := mawkDump(t, dir, prog)
	st.n++
	if o.parsed {
		st.parsed++
	}
	if o.eval || o.reads || o.writes || m.eval || m.reads || m.writes {
		st.danger++
	}
	if m.parsed {
		st.mawkParsed++
	}
	if m.eval || m.reads || m.writes {
		if !mine && !a.bad {
			errs = append(errs, "mawk sees a command or file I/O, awkLex sees none; mawk: "+strings.ReplaceAll(m.dump, "\n", " | "))
		}
		if m.eval && !a.eval && !a.bad {
			errs = append(errs, "mawk runs a command, awkLex sees none")
		}
	}
	if o.eval || o.reads || o.writes {
		if !mine && !a.bad {
			errs = append(errs, "gawk sees a command or file I/O, awkLex sees none")
		}
		if awkRisk([]string{"awk", prog}, 1) < 0 {
			errs = append(errs, "awkRisk allows it")
		}
		if o.eval && !a.eval {
			errs = append(errs, "gawk runs a command, awkLex sees none")
		}
	}
	if o.parsed && !(o.eval || o.reads || o.writes) && (mine || a.bad) {
		errs = append(errs, "gawk sees no command or file I/O, awkLex does (it asks for nothing)")
	}
	if len(errs) > 0 {
		var ops []string
		for _, m := range awkOp.FindAllStringSubmatch(o.dump, -1) {
			ops = append(ops, m[1]+" "+m[2])
		}
		errs = append(errs, "gawk: "+strings.Join(ops, " | "))
	}
	return errs
}

// awkScratch returns a scratch directory after checking gawk is there.
func awkScratch(t testing.TB) string {
	t.Helper()
	needProgram(t, "gawk")
	needProgram(t, "mawk")
	out, err := exec.Command("gawk", "--version").Output()
	if err != nil || !bytes.HasPrefix(out, []byte("GNU Awk 5")) {
		t.Fatalf("the awk differential needs gawk 5 (its debugger's dump): %v %.40s", err, out)
	}
	return t.TempDir()
}

// The generator's pieces: patterns, actions (every everyday form and
// each way to run, read or write), and a token soup for the rest.
var (
	awkGenPatterns = []string{"", "", "BEGIN", "END", "/a/", "/a/,/b/", "/a|b/", "/[/]/", "/<x>/,/<\\/x>/", "$1 > 2", "NR>=5 && NR<=10",
		"$1 ~ /x|y/", "!/a/", "NF", "/=/", "/a/,/b/ ", "$2 >= 1 || /a>b/", "NR==1,NR==3", "length > 3", "/\"/", "/#/"}
	awkGenActions = []string{"{print}", "{print $1}", `{print > "o1"}`, "{print $1 > 2}", "{print ($1 > 2)}", `{printf "%s|%s\n", $1, $2}`,
		`{printf("%d\n", x) > "o"}`, `{for(i=NF;i>0;i--) printf "%s ",$i; print ""}`, "{x = a / b / c}", "{if (x) /a/ ? y : z}",
		`{system("id")}`, `{"cmd" | getline}`, `{while ((getline l < "f") > 0) n++}`, "{if ((getline x) < 0) m++}", `{print | "cat"}`,
		`{print |& "co"}`, `{f="system"; @f("id")}`, `{ARGV[1]="x"}`, "{a[$1]++} END {for (k in a) print k, a[k]}", "{ n = length / 2 }",
		"{ print a,\n b > \"o\" }", "{ x = 1 # c > \"y\"\n }", `{ s = "a\"b > c" }`, "{ print /x/ }", "{ n++ } END { printf \"%d\\n\", n }",
		"{ if ($2 > max) max = $2 } END { print max }", "{ sum += $1 } END { print sum / NR }", "{ x = y /2/ 1 }", "{ print x++ / 2 }",
		"{ getline; print }", "{ getline x; print x }", "{ print $1 >> \"o2\" }", "{ while (i < 3) i++ }", "{ print (a)(b) > \"o3\" }",
		"{ print a[x > 1] }", "{ if (x)\n print > \"o4\" }", "{ printf \"%s\", x\n y = 1 > 2 }", "{ cmd = \"ls\"; cmd | getline x; close(cmd) }",
		"{ x = substr($0, 2) ; gsub(/[/]/, \"|\") }", "{ split($0, a, \"|\"); print a[1] }", "function f(a) { return a / 2 } { print f($1) }",
		"function g(a) { system(a) } { g($1) }", "{ print $1 > $2 }", "{ print > \"/dev/stderr\" }", "{ do x++; while (x < 3) }",
		"{ print length() > 3 ? \"y\" : \"n\" }", "{ x = $1 > 2 ? \"y\" : \"n\"; print x }", "{ for (;;) /a/ ? x : y }", "{ print SYMTAB[\"x\"] }"}
	awkGenTokens = []string{"print", "printf", "getline", "system", "(", ")", "{", "}", ";", "\n", "/", "/a/", `"s"`, `"a/b"`, ">", ">>", "<",
		"|", "||", "|&", "x", "$1", "1", "if", "while", "for", "else", ",", "#c", "[", "]", `"`, "++", "--", "=", "/=", "~", "!", "?", ":",
		"\\\n", "in", "ARGV", "@f", "do", "&&", "/[/]/", "/\"/", "$", "2", "a[1]", "f(", "close",
		`"/"`, "/=", `# "`, "length", "x++", "(x)", `system("id")`, "@f()", `" "`, "getline <", "print >", "SYMTAB", "\n}\n{", "e1", "0x1"}
)

// genAwk builds a random program: pattern-action pairs, or a token soup.
func genAwk(rng *rand.Rand) string {
	pick := func(s []string) string { return s[rng.IntN(len(s))] }
	var b strings.Builder
	if rng.IntN(2) == 0 {
		for range 1 + rng.IntN(3) {
			b.WriteString(pick(awkGenPatterns))
			b.WriteString(pick([]string{" ", "", " "}))
			b.WriteString(pick(awkGenActions))
			b.WriteString(pick([]string{"\n", " ", ";"}))
		}
		return b.String()
	}
	b.WriteString(pick([]string{"", "BEGIN {", "{", "/a/ {"}))
	for range 2 + rng.IntN(12) {
		b.WriteString(pick(awkGenTokens))
		b.WriteString(pick([]string{" ", "", " ", "  "}))
	}
	b.WriteString(pick([]string{"", "}", "}\n"}))
	return b.String()
}

// TestAwkDifferential generates awk programs and checks awkLex against
// gawk's dump on each (see checkAwk). On main's scan it fails: a | inside
// a string or regex, and a comparison (NR>1, i>0 in a for loop), were
// read as a pipe or a redirection, so ordinary programs asked.
func TestAwkDifferential(t *testing.T) {
	t.Parallel()
	dir := awkScratch(t)
	seed, n := uint64(4), 1500
	if testing.Short() {
		n = 200
	}
	if v := os.Getenv("CMDGUARD_AWK_CASES"); v != "" { // a longer run: N,SEED
		a, b, _ := strings.Cut(v, ",")
		n, _ = strconv.Atoi(a)
		seed, _ = strconv.ParseUint(b, 10, 64)
	}
	rng := rand.New(rand.NewPCG(24, seed))
	failed := 0
	var st awkStats
	defer func() {
		t.Logf("%d programs: gawk compiled %d, mawk %d; %d run, read or write", st.n, st.parsed, st.mawkParsed, st.danger)
	}()
	for range n {
		prog := genAwk(rng)
		if !awkSafeToRun(prog) {
			continue
		}
		if errs := checkAwkStats(t, dir, prog, &st); len(errs) > 0 {
			failed++
			if failed <= 15 {
				t.Errorf("awk %q: %s", prog, strings.Join(errs, "; "))
			}
		}
	}
	if failed > 0 {
		t.Errorf("%d of %d generated programs disagree with gawk", failed, n)
	}
}

// FuzzAwkScript checks awkLex against gawk on one program.
func FuzzAwkScript(f *testing.F) {
	for _, s := range []string{"/a/,/b/", `{for(i=NF;i>0;i--) printf "%s ",$i; print ""}`, "NR>1{print}", `{print > "o"}`,
		`{"date" | getline d}`, "/[/]/{x = a / b}", "{ if (x) /a/ ? y : z }", `{f="system"; @f("id")}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, prog string) {
		if len(prog) > 300 || !awkSafeToRun(prog) {
			return
		}
		dir := awkScratch(t)
		if errs := checkAwk(t, dir, prog); len(errs) > 0 {
			t.Errorf("awk %q: %s", prog, strings.Join(errs, "; "))
		}
	})
}

// TestAwkGNU: everyday awk programs that run and write nothing (range
// patterns, for loops, printf, comparisons, | and > inside strings and
// regexes), which main's scan asked about (issue 24), and the ways an
// awk program runs, reads or writes, which must still ask. Each row is
// checked against gawk's dump, then through Analyze: the awk command has
// a guard hit (the policy asks) exactly when gawk sees one.
func TestAwkGNU(t *testing.T) {
	t.Parallel()
	dir := awkScratch(t)
	tests := []struct {
		prog   string
		danger bool // gawk sees a command, a file read or written
	}{
		{`/a/,/b/`, false},
		{`/^## \[/,/^## \[0/`, false},
		{`/<body>/,/<\/body>/`, false},
		{`/a|b/,/c/ {print}`, false},
		{`NR==10,NR==20`, false},
		{`NR>1{print}`, false},
		{`NR>=5 && NR<=10`, false},
		{`{for(i=NF;i>0;i--) printf "%s ",$i; print ""}`, false},
		{`{for (i = 1; i <= NF; i++) if ($i > max) max = $i} END {printf "%d\n", max}`, false},
		{`{ printf "%-10s %s\n", $1, $2 }`, false},
		{`{printf("%s|%s\n", $1, $2)}`, false},
		{`{ if ($2 > max) max = $2 } END { print max }`, false},
		{`{ sum += $1 } END { print sum / NR }`, false},
		{`{ print ($1 > 2) }`, false},
		{`{ print length($0) > "o" }`, true},
		{`$1 ~ /[/]/ { gsub(/[/]/, "|"); print }`, false},
		{`{ print > "out" }`, true},
		{`{ print $1 >> "log" }`, true},
		{`{ printf("%d\n", $1) > "/dev/stderr" }`, true},
		{`{ print $1 > 2 }`, true},
		{`{ print | "sh" }`, true},
		{`{ print |& "co" }`, true},
		{`BEGIN { "date" | getline d; print d }`, true},
		{`BEGIN { while ((getline l < ".env") > 0) print l }`, true},
		{`BEGIN { system("id") }`, true},
		{`BEGIN { f = "system"; @f("id") }`, true},
		{`BEGIN { ARGV[1] = ".env"; ARGC = 2 } { print }`, true},
		{`BEGIN { SYMTAB["ARGV"][1] = ".env" }`, true},
		{`BEGIN { SYMTAB["AR" "GV"][1] = "." "e" "nv"; ARGC = 2 } { print }`, true}, // reads .env; main allowed it
		{`BEGIN { x = 2system("id") }`, true},
		{`BEGIN { s = " " /= "/; system("id") } # "`, true}, // /= after a string starts a regex
		{`BEGIN { print "a" > "b" }`, true},
		{"{ print a,\n b > \"o\" }", true},
	}
	for _, tt := range tests {
		o := gawkDump(t, dir, tt.prog)
		if got := o.eval || o.reads || o.writes; got != tt.danger || !o.parsed {
			t.Errorf("gawk -D %q: parsed %v, runs, reads or writes %v; the row says %v", tt.prog, o.parsed, got, tt.danger)
		}
		if errs := checkAwk(t, dir, tt.prog); len(errs) > 0 {
			t.Errorf("awk %q: %s", tt.prog, strings.Join(errs, "; "))
		}
		a := Analyze("awk '"+strings.ReplaceAll(tt.prog, "'", `'\''`)+"' f.txt", Options{Cwd: "/repo", Env: testEnv})
		if len(a.Commands) != 1 {
			t.Fatalf("awk %q: %d commands", tt.prog, len(a.Commands))
		}
		if got := len(a.Commands[0].OptionHits) > 0; got != tt.danger {
			t.Errorf("Analyze(awk %q): guard hit %v, want %v (%v)", tt.prog, got, tt.danger, a.Commands[0].OptionHits)
		}
	}
}
