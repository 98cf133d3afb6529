package cmdguard_test

// The gate scenarios: testdata/gate/*.txtar, read by TestGate (and
// TestGateSetenv).
//
// Each archive is a project and a script. Its files are written into a
// fresh directory $ROOT (a file named ../x goes to $WORK/x, beside the
// project: $WORK is $ROOT's parent); the script is the archive's comment,
// one step a line, run in order. Words are split at blanks; '…' is taken
// literally, "…" is a Go string literal (for \n, \r and quotes), and
// quoted and plain parts of a word join as in the shell. A word starting
// with # starts a comment. A line starting with ! expects the step to fail
// (open, exists).
//
// Setup steps change the project (a real step replays them in its copy):
//
//	symlink LINK -> TARGET   make LINK a symbolic link to TARGET
//	mkdir DIR                make DIR and its parents
//	chmod MODE PATH          set PATH's mode (octal)
//	cp SRC DST               copy the file SRC to DST
//	exec [env=N=V]… [exit=N] PROG ARG…
//	                         run PROG in $ROOT with the host environment
//	                         (plus env=); it must exit N (default 0): a
//	                         setup step, or an oracle such as git
//	                         check-ignore. PROG missing: see needProgram.
//
// Process steps (the archive then runs in TestGateSetenv, alone):
//
//	setenv NAME VALUE        t.Setenv
//	unsetenv NAME            unset NAME for the rest of the test
//
// The Guard:
//
//	open [POLICY]            cmdguard.Open($ROOT), or cmdguard.OpenPolicy of
//	                         $ROOT/POLICY; ! open: it must fail. The first
//	                         check opens the Guard if no step did.
//	new POLICY               policy.Parse of $ROOT/POLICY with
//	                         cmdguard.PolicyLoadOptions, then cmdguard.New
//	request OPTION…          the options every later check starts from
//
// Checks, each its own subtest:
//
//	check [OPTION…] COMMAND VERDICT [EXPECT…]
//	                         Guard.Check of a Request
//	run [OPTION…] COMMAND VERDICT [EXPECT…]
//	                         Guard.Run: unless VERDICT is allow, it must
//	                         return ErrRefused (the command never starts)
//	checkfile [write] [recursive] [cwd=DIR] PATH VERDICT [EXPECT…]
//	                         Guard.CheckFile of a FileRequest
//	exists PATH              PATH exists in $ROOT (! exists: it does not)
//
// OPTION is env=N=V (Request.Env, repeatable), base=N=V (Request.BaseEnv,
// repeatable; without one BaseEnv is nil, the host's), cwd=DIR
// (Request.Cwd, relative to $ROOT or absolute; without one, empty: the
// Guard's root) or sandboxed (Request.Sandboxed). VERDICT is allow, ask or deny, !allow (ask or deny),
// or * (any). EXPECT is:
//
//	RULE                     a reason with this rule id (it has a dot)
//	!RULE                    no reason with this rule id
//	none                     no reason at all
//
// and, after a RULE, what that same reason must also have: L:C (its
// position), ~TEXT (its message contains TEXT), src=SOURCE (its source),
// verdict=V (its own verdict), first (it is the first reason).
//
// The oracle, each its own subtest:
//
//	real [env=N=V]… [needs=PROG]… PROG ARG… -c COMMAND EFFECT…
//
// runs PROG (bash, zsh) with its arguments up to the word after -c in a
// fresh copy of the project (its files and the setup steps so far), with
// the environment of the last realenv step (the host's if none) plus env=,
// and asserts every EFFECT, so that a row whose command no longer does
// the damage fails. When PROG or a needs= program is not on PATH, the
// step skips with the reason, or fails under CI (needProgram). EFFECT is:
//
//	output:TEXT              stdout or stderr contains TEXT
//	exists:PATH              PATH exists afterwards
//	gone:PATH                PATH no longer exists
//	changed:PATH             the file or tree at PATH differs from before
//	contains:PATH:TEXT       the file PATH contains TEXT
//
//	realenv [N=V]…           the environment of later real steps
//
// In every word but COMMAND, $ROOT, $WORK, $PATH (the host's), $GOROOT and
// $GOCACHE are replaced by their values (in a real step, those of its
// copy).

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/policy"
	"github.com/rogpeppe/go-internal/txtar"
)

// TestGate runs the scenarios of testdata/gate (the syntax above), in
// parallel; each step that checks is a subtest named by its line
// (TestGate/gate/L12).
func TestGate(t *testing.T) {
	t.Parallel()
	runScenarios(t, false)
}

// TestGateSetenv runs the scenarios that set the process environment
// (setenv, unsetenv): one at a time, before any parallel test resumes.
func TestGateSetenv(t *testing.T) {
	runScenarios(t, true)
}

// runScenarios runs the scenarios that set the environment, or the others.
func runScenarios(t *testing.T, setsEnv bool) {
	files, err := filepath.Glob(filepath.Join("testdata", "gate", "*.txtar"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no gate scenarios: %v", err)
	}
	for _, file := range files {
		sc, err := parseScenario(file)
		if err != nil {
			t.Fatal(err)
		}
		if sc.setsEnv != setsEnv {
			continue
		}
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			if !sc.setsEnv {
				t.Parallel()
			}
			sc.run(t)
		})
	}
}

// A scenario is one archive: its files and its steps.
type scenario struct {
	files   []txtar.File
	steps   []step
	setsEnv bool
}

// A step is one line of a scenario's script.
type step struct {
	pos   string // file:line
	text  string
	neg   bool // the line starts with !
	verb  string
	words []word
}

// A word is one word of a step, and whether any part of it was quoted.
type word struct {
	s      string
	quoted bool
	lead   string // the plain text before the first quote
}

// opt reports whether w is an option word starting with prefix: its name
// is not quoted.
func (w word) opt(prefix string) bool { return strings.HasPrefix(w.lead, prefix) }

func parseScenario(file string) (*scenario, error) {
	a, err := txtar.ParseFile(file)
	if err != nil {
		return nil, err
	}
	sc := &scenario{files: a.Files}
	for i, line := range strings.Split(string(a.Comment), "\n") {
		pos := fmt.Sprintf("%s:%d", file, i+1)
		ws, err := splitWords(line)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", pos, err)
		}
		if len(ws) == 0 {
			continue
		}
		st := step{pos: pos, text: strings.TrimSpace(line)}
		if ws[0].s == "!" && !ws[0].quoted {
			st.neg = true
			ws = ws[1:]
		}
		if len(ws) == 0 {
			return nil, fmt.Errorf("%s: a lone !", pos)
		}
		st.verb, st.words = ws[0].s, ws[1:]
		switch st.verb {
		case "setenv", "unsetenv":
			sc.setsEnv = true
		case "symlink", "mkdir", "chmod", "cp", "exec", "open", "new", "request",
			"check", "run", "checkfile", "exists", "real", "realenv":
		default:
			return nil, fmt.Errorf("%s: unknown step %q", pos, st.verb)
		}
		if st.neg && st.verb != "open" && st.verb != "exists" {
			return nil, fmt.Errorf("%s: ! applies to open and exists only", pos)
		}
		sc.steps = append(sc.steps, st)
	}
	return sc, nil
}

// splitWords splits a line as the syntax above says.
func splitWords(line string) ([]word, error) {
	var ws []word
	i := 0
	for {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i >= len(line) || line[i] == '#' {
			return ws, nil
		}
		var b strings.Builder
		quoted := false
		lead := -1
		for i < len(line) && line[i] != ' ' && line[i] != '\t' {
			if line[i] == '\'' || line[i] == '"' {
				if lead < 0 {
					lead = b.Len()
				}
			}
			switch line[i] {
			case '\'':
				j := strings.IndexByte(line[i+1:], '\'')
				if j < 0 {
					return nil, errors.New("unterminated '")
				}
				b.WriteString(line[i+1 : i+1+j])
				i += j + 2
				quoted = true
			case '"':
				j := i + 1
				for j < len(line) && line[j] != '"' {
					if line[j] == '\\' {
						j++
					}
					j++
				}
				if j >= len(line) {
					return nil, errors.New(`unterminated "`)
				}
				s, err := strconv.Unquote(line[i : j+1])
				if err != nil {
					return nil, fmt.Errorf("%s: %v", line[i:j+1], err)
				}
				b.WriteString(s)
				i = j + 1
				quoted = true
			default:
				b.WriteByte(line[i])
				i++
			}
		}
		if lead < 0 {
			lead = b.Len()
		}
		ws = append(ws, word{b.String(), quoted, b.String()[:lead]})
	}
}

// goEnv holds go env's GOROOT and GOCACHE, read once.
var goEnv = sync.OnceValues(func() (string, string) {
	out, _ := exec.Command("go", "env", "GOROOT", "GOCACHE").Output()
	goroot, gocache, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return goroot, gocache
})

// A workdir is one copy of a scenario's files.
type workdir struct {
	work, root string
}

func (p workdir) expand(s string) string {
	goroot, gocache := goEnv()
	return strings.NewReplacer("$ROOT", p.root, "$WORK", p.work, "$PATH", os.Getenv("PATH"),
		"$GOROOT", goroot, "$GOCACHE", gocache).Replace(s)
}

// path is name in the project: relative to $ROOT, or absolute.
func (p workdir) path(name string) string {
	name = p.expand(name)
	if filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(p.root, name)
}

// newProject writes the scenario's files into a fresh directory.
func (sc *scenario) newProject(t *testing.T) workdir {
	t.Helper()
	work, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := workdir{work: work, root: filepath.Join(work, "root")}
	if err := os.Mkdir(p.root, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range sc.files {
		name := filepath.Join(p.root, f.Name)
		if !strings.HasPrefix(name, p.work+string(filepath.Separator)) {
			t.Fatalf("archive file %s lands outside the work directory", f.Name)
		}
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// setup runs a setup step in p.
func (p workdir) setup(st step) error {
	args := make([]string, len(st.words))
	for i, w := range st.words {
		args[i] = w.s
	}
	switch st.verb {
	case "symlink":
		if len(args) != 3 || args[1] != "->" {
			return errors.New("want symlink LINK -> TARGET")
		}
		return os.Symlink(p.expand(args[2]), p.path(args[0]))
	case "mkdir":
		for _, a := range args {
			if err := os.MkdirAll(p.path(a), 0o755); err != nil {
				return err
			}
		}
		return nil
	case "chmod":
		if len(args) != 2 {
			return errors.New("want chmod MODE PATH")
		}
		mode, err := strconv.ParseUint(args[0], 8, 32)
		if err != nil {
			return err
		}
		return os.Chmod(p.path(args[1]), fs.FileMode(mode))
	case "cp":
		if len(args) != 2 {
			return errors.New("want cp SRC DST")
		}
		b, err := os.ReadFile(p.path(args[0]))
		if err != nil {
			return err
		}
		return os.WriteFile(p.path(args[1]), b, 0o644)
	case "exec":
		var env []string
		exit := 0
		for len(args) > 0 {
			if v, ok := strings.CutPrefix(args[0], "env="); ok {
				env = append(env, p.expand(v))
			} else if v, ok := strings.CutPrefix(args[0], "exit="); ok {
				n, err := strconv.Atoi(v)
				if err != nil {
					return err
				}
				exit = n
			} else {
				break
			}
			args = args[1:]
		}
		if len(args) == 0 {
			return errors.New("exec: no program")
		}
		for i := range args {
			args[i] = p.expand(args[i])
		}
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = p.root
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			return err
		}
		if code != exit {
			return fmt.Errorf("exit %d, want %d\n%s", code, exit, out)
		}
		return nil
	}
	return fmt.Errorf("not a setup step: %s", st.verb)
}

// request is what a check asks about, and its expectation.
type request struct {
	req   cmdguard.Request
	write bool // checkfile
	rec   bool // checkfile
}

// An expectation is the words after a command.
type expectation struct {
	verdict string
	none    bool
	present []reasonWant
	absent  []string
}

type reasonWant struct {
	rule, pos, msg, src, verdict string
	first                        bool
}

func parseExpectation(ws []word) (expectation, error) {
	var e expectation
	if len(ws) == 0 {
		return e, errors.New("no verdict")
	}
	switch e.verdict = ws[0].s; e.verdict {
	case "allow", "ask", "deny", "!allow", "*":
	default:
		return e, fmt.Errorf("verdict %q: want allow, ask, deny, !allow or *", e.verdict)
	}
	for _, w := range ws[1:] {
		s := w.s
		last := len(e.present) - 1
		qualifier := func() (*reasonWant, error) {
			if last < 0 {
				return nil, fmt.Errorf("%q follows no rule", s)
			}
			return &e.present[last], nil
		}
		switch {
		case s == "none":
			e.none = true
		case strings.HasPrefix(s, "!") && strings.Contains(s, "."):
			e.absent = append(e.absent, s[1:])
		case strings.HasPrefix(s, "~"):
			r, err := qualifier()
			if err != nil {
				return e, err
			}
			r.msg = s[1:]
		case strings.HasPrefix(s, "src="):
			r, err := qualifier()
			if err != nil {
				return e, err
			}
			r.src = s[len("src="):]
		case strings.HasPrefix(s, "verdict="):
			r, err := qualifier()
			if err != nil {
				return e, err
			}
			r.verdict = s[len("verdict="):]
		case s == "first":
			r, err := qualifier()
			if err != nil {
				return e, err
			}
			r.first = true
		case isPos(s):
			r, err := qualifier()
			if err != nil {
				return e, err
			}
			r.pos = s
		case strings.Contains(s, ".") && !strings.ContainsAny(s, " =~!"):
			e.present = append(e.present, reasonWant{rule: s})
		default:
			return e, fmt.Errorf("expectation %q: not a rule id, none, L:C, ~TEXT, src=, verdict= or first", s)
		}
	}
	return e, nil
}

func isPos(s string) bool {
	l, c, ok := strings.Cut(s, ":")
	_, err1 := strconv.Atoi(l)
	_, err2 := strconv.Atoi(c)
	return ok && err1 == nil && err2 == nil
}

// mismatch says how d fails e, or "".
func (e expectation) mismatch(d cmdguard.Decision) string {
	var bad []string
	switch v := d.Verdict.String(); e.verdict {
	case "*":
	case "!allow":
		if d.Verdict == cmdguard.Allow {
			bad = append(bad, "verdict allow, want ask or deny")
		}
	default:
		if v != e.verdict {
			bad = append(bad, fmt.Sprintf("verdict %s, want %s", v, e.verdict))
		}
	}
	if e.none && len(d.Reasons) != 0 {
		bad = append(bad, "reasons, want none")
	}
	for _, w := range e.present {
		if !slices.ContainsFunc(d.Reasons, w.matches(d.Reasons)) {
			bad = append(bad, fmt.Sprintf("no reason %s", w))
		}
	}
	for _, rule := range e.absent {
		if slices.ContainsFunc(d.Reasons, func(r cmdguard.Reason) bool { return r.Rule == rule }) {
			bad = append(bad, fmt.Sprintf("reason %s present", rule))
		}
	}
	if len(bad) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(strings.Join(bad, "; "))
	b.WriteString("\ngot:")
	for _, r := range d.Reasons {
		fmt.Fprintf(&b, "\n\t%s %s %d:%d src=%s: %s", r.Verdict, r.Rule, r.Pos.Line, r.Pos.Col, r.Source, r.Message)
	}
	return b.String()
}

func (w reasonWant) matches(all []cmdguard.Reason) func(cmdguard.Reason) bool {
	return func(r cmdguard.Reason) bool {
		return r.Rule == w.rule &&
			(w.pos == "" || fmt.Sprintf("%d:%d", r.Pos.Line, r.Pos.Col) == w.pos) &&
			(w.msg == "" || strings.Contains(r.Message, w.msg)) &&
			(w.src == "" || r.Source == w.src) &&
			(w.verdict == "" || r.Verdict.String() == w.verdict) &&
			(!w.first || len(all) > 0 && all[0] == r)
	}
}

func (w reasonWant) String() string {
	s := w.rule
	for _, q := range []struct{ k, v string }{{"at ", w.pos}, {"~", w.msg}, {"src=", w.src}, {"verdict=", w.verdict}} {
		if q.v != "" {
			s += " " + q.k + q.v
		}
	}
	if w.first {
		s += " first"
	}
	return s
}

// gateRun is the state of one scenario's run.
type gateRun struct {
	sc      *scenario
	p       workdir
	g       *cmdguard.Guard
	base    request  // from request
	realEnv []string // from realenv; nil: the host's
	setup   []step   // the setup steps so far, for real's copies
	hasReal bool     // realenv was given
}

func (sc *scenario) run(t *testing.T) {
	r := &gateRun{sc: sc, p: sc.newProject(t)}
	for _, st := range sc.steps {
		r.step(t, st)
	}
}

func (r *gateRun) step(t *testing.T, st step) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s: %s: %s", st.pos, st.text, fmt.Sprintf(format, args...))
	}
	switch st.verb {
	case "symlink", "mkdir", "chmod", "cp", "exec":
		if st.verb == "exec" {
			if prog := execProgram(st.words); prog != "" {
				needProgram(t, prog)
			}
		}
		if err := r.p.setup(st); err != nil {
			fail("%v", err)
		}
		r.setup = append(r.setup, st)
	case "setenv":
		if len(st.words) != 2 {
			fail("want setenv NAME VALUE")
		}
		t.Setenv(st.words[0].s, r.p.expand(st.words[1].s))
	case "unsetenv":
		if len(st.words) != 1 {
			fail("want unsetenv NAME")
		}
		t.Setenv(st.words[0].s, "")
		os.Unsetenv(st.words[0].s)
	case "open":
		var g *cmdguard.Guard
		var err error
		switch len(st.words) {
		case 0:
			g, err = cmdguard.Open(r.p.root)
		case 1:
			g, err = cmdguard.OpenPolicy(r.p.path(st.words[0].s))
		default:
			fail("want open [POLICY]")
		}
		if st.neg {
			if err == nil {
				fail("the Guard opened, want an error")
			}
			return
		}
		if err != nil {
			fail("%v", err)
		}
		r.use(t, g)
	case "new":
		if len(st.words) != 1 {
			fail("want new POLICY")
		}
		name := r.p.path(st.words[0].s)
		data, err := os.ReadFile(name)
		if err != nil {
			fail("%v", err)
		}
		pol, err := policy.Parse(filepath.Base(name), data, r.p.root, cmdguard.PolicyLoadOptions()...)
		if err != nil {
			fail("%v", err)
		}
		g, err := cmdguard.New(pol, r.p.root)
		if err != nil {
			fail("%v", err)
		}
		r.use(t, g)
	case "request":
		req, rest, err := r.options(st.words, request{})
		if err != nil || len(rest) != 0 {
			fail("want request OPTION…: %v", err)
		}
		r.base = req
	case "realenv":
		r.realEnv, r.hasReal = nil, true
		for _, w := range st.words {
			r.realEnv = append(r.realEnv, w.s) // expanded per copy
		}
	case "check", "run", "checkfile":
		if r.g == nil {
			g, err := cmdguard.Open(r.p.root)
			if err != nil {
				fail("open: %v", err)
			}
			r.use(t, g)
		}
		req, rest, err := r.options(st.words, r.base)
		if err != nil {
			fail("%v", err)
		}
		if st.verb != "checkfile" && (req.write || req.rec) {
			fail("write and recursive are checkfile's")
		}
		if len(rest) == 0 {
			fail("no command")
		}
		want, err := parseExpectation(rest[1:])
		if err != nil {
			fail("%v", err)
		}
		subject := rest[0].s
		t.Run(lineName(st), func(t *testing.T) {
			t.Helper()
			var d cmdguard.Decision
			var err error
			ctx := context.Background()
			switch st.verb {
			case "check":
				req.req.Command = subject
				d, err = r.g.Check(ctx, req.req)
				if err != nil {
					t.Errorf("%s: %s: Check error: %v", st.pos, st.text, err)
				}
			case "checkfile":
				// CheckFile's error goes with its deny (gate.error).
				d, _ = r.g.CheckFile(ctx, cmdguard.FileRequest{Path: r.p.expand(subject), Cwd: req.req.Cwd, Write: req.write, Recursive: req.rec})
			case "run":
				req.req.Command = subject
				var res interface{ Explain() string }
				d, res, err = r.g.Run(ctx, cmdguard.RunRequest{Request: req.req})
				refused := errors.Is(err, cmdguard.ErrRefused)
				if want.verdict == "allow" && err != nil || want.verdict != "allow" && !refused {
					t.Errorf("%s: %s: Run = %v (ran: %s), want ErrRefused unless allowed", st.pos, st.text, err, res.Explain())
				}
			}
			if m := want.mismatch(d); m != "" {
				t.Errorf("%s: %s\n%s", st.pos, st.text, m)
			}
		})
	case "exists":
		if len(st.words) != 1 {
			fail("want exists PATH")
		}
		t.Run(lineName(st), func(t *testing.T) {
			_, err := os.Lstat(r.p.path(st.words[0].s))
			if st.neg && err == nil || !st.neg && err != nil {
				t.Errorf("%s: %s: %v", st.pos, st.text, err)
			}
		})
	case "real":
		setup := slices.Clone(r.setup)
		realEnv, hasReal := r.realEnv, r.hasReal
		t.Run(lineName(st), func(t *testing.T) {
			r.real(t, st, setup, realEnv, hasReal)
		})
	}
}

// use makes g the Guard of the later checks, closed when the test ends.
func (r *gateRun) use(t *testing.T, g *cmdguard.Guard) {
	r.g = g
	t.Cleanup(func() { g.Close(context.Background()) })
}

func lineName(st step) string {
	_, line, _ := strings.Cut(st.pos, ".txtar:")
	return "L" + line
}

// execProgram is the program an exec step runs.
func execProgram(ws []word) string {
	for _, w := range ws {
		if !strings.HasPrefix(w.s, "env=") && !strings.HasPrefix(w.s, "exit=") {
			return w.s
		}
	}
	return ""
}

// options reads a check's options into a copy of base, and returns the
// words after them.
func (r *gateRun) options(ws []word, base request) (request, []word, error) {
	req := base
	req.req.Env = slices.Clone(base.req.Env)
	req.req.BaseEnv = slices.Clone(base.req.BaseEnv)
	for len(ws) > 0 {
		s, w := ws[0].s, ws[0]
		switch {
		case w.opt("env="):
			req.req.Env = append(req.req.Env, r.p.expand(s[len("env="):]))
		case w.opt("base="):
			req.req.BaseEnv = append(req.req.BaseEnv, r.p.expand(s[len("base="):]))
		case w.opt("cwd="):
			req.req.Cwd = r.p.expand(s[len("cwd="):])
		case w.lead == "sandboxed" && !w.quoted:
			req.req.Sandboxed = true
		case w.lead == "write" && !w.quoted:
			req.write = true
		case w.lead == "recursive" && !w.quoted:
			req.rec = true
		default:
			return req, ws, nil
		}
		ws = ws[1:]
	}
	return req, ws, nil
}

// real runs a real step in a fresh copy of the project.
func (r *gateRun) real(t *testing.T, st step, setup []step, realEnv []string, hasReal bool) {
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("%s: %s: %s", st.pos, st.text, fmt.Sprintf(format, args...))
	}
	ws := st.words
	var env, needs []string
	for len(ws) > 0 {
		if v, ok := strings.CutPrefix(ws[0].s, "env="); ok && ws[0].opt("env=") {
			env = append(env, v)
		} else if v, ok := strings.CutPrefix(ws[0].s, "needs="); ok && ws[0].opt("needs=") {
			needs = append(needs, v)
		} else {
			break
		}
		ws = ws[1:]
	}
	c := slices.IndexFunc(ws, func(w word) bool { return w.s == "-c" && !w.quoted })
	if c < 1 || c+1 >= len(ws) {
		fail("want real PROG ARG… -c COMMAND EFFECT…")
	}
	argv, effects := ws[:c+2], ws[c+2:]
	if len(effects) == 0 {
		fail("no effect: the row would prove nothing")
	}
	needProgram(t, argv[0].s)
	for _, n := range needs {
		needProgram(t, n)
	}
	p := r.sc.newProject(t)
	for _, s := range setup {
		if err := p.setup(s); err != nil {
			t.Fatalf("%s: %s: %v", s.pos, s.text, err)
		}
	}
	var changed []string
	before := map[string]string{}
	for _, e := range effects {
		if v, ok := strings.CutPrefix(e.s, "changed:"); ok {
			changed = append(changed, v)
			before[v] = treeHash(p.path(v))
		}
	}
	args := make([]string, len(argv)-1)
	for i, w := range argv[1:] {
		args[i] = w.s
		if i < len(argv)-2 {
			args[i] = p.expand(w.s)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0].s, args...)
	cmd.Dir = p.root
	cmd.Env = os.Environ()
	if hasReal {
		cmd.Env = nil
		for _, v := range realEnv {
			cmd.Env = append(cmd.Env, p.expand(v))
		}
	}
	for _, v := range env {
		cmd.Env = append(cmd.Env, p.expand(v))
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	_ = cmd.Run() // the effect matters, not the status
	for _, e := range effects {
		kind, arg, _ := strings.Cut(e.s, ":")
		ok := false
		switch kind {
		case "output":
			ok = bytes.Contains(out.Bytes(), []byte(arg))
		case "exists":
			_, err := os.Lstat(p.path(arg))
			ok = err == nil
		case "gone":
			_, err := os.Lstat(p.path(arg))
			ok = errors.Is(err, fs.ErrNotExist)
		case "changed":
			ok = treeHash(p.path(arg)) != before[arg]
		case "contains":
			name, text, _ := strings.Cut(arg, ":")
			b, err := os.ReadFile(p.path(name))
			ok = err == nil && strings.Contains(string(b), text)
		default:
			fail("unknown effect %q", e.s)
		}
		if !ok {
			t.Errorf("%s: %s: no effect %s: the row proves nothing\n%s", st.pos, st.text, e.s, out.Bytes())
		}
	}
}

// treeHash hashes the file, link or tree at name: names, modes, link
// targets and contents.
func treeHash(name string) string {
	h := sha256.New()
	err := filepath.WalkDir(name, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(name, p)
		info, err := e.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %v\n", rel, info.Mode())
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			fmt.Fprintf(h, "-> %s\n", target)
		case info.Mode().IsRegular():
			b, _ := os.ReadFile(p)
			fmt.Fprintf(h, "%x\n", sha256.Sum256(b))
		}
		return nil
	})
	if err != nil {
		return "error: " + err.Error()
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// TestFailClosed checks that every error path ends in deny.
func TestFailClosed(t *testing.T) {
	t.Parallel()
	root := project(t, testPolicy)
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	req := cmdguard.Request{Command: "ls", Cwd: root}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	d, err := g.Check(ctx, req)
	if err == nil || d.Verdict != cmdguard.Deny || len(d.Reasons) == 0 || d.Reasons[0].Rule != "gate.error" {
		t.Errorf("Check with a cancelled context = %s %+v, %v; want deny gate.error and an error", d.Verdict, d.Reasons, err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), -1)
	defer cancel()
	d, err = g.Check(ctx, req)
	if err == nil || d.Verdict != cmdguard.Deny || len(d.Reasons) == 0 || d.Reasons[0].Rule != "gate.timeout" {
		t.Errorf("Check past its deadline = %s %+v, %v; want deny gate.timeout and an error", d.Verdict, d.Reasons, err)
	}
	var zero cmdguard.Guard
	if d, err := zero.Check(context.Background(), req); err == nil || d.Verdict != cmdguard.Deny {
		t.Errorf("zero Guard: Check = %s, %v; want deny and an error", d.Verdict, err)
	}
	var nilGuard *cmdguard.Guard
	if d, err := nilGuard.Check(context.Background(), req); err == nil || d.Verdict != cmdguard.Deny {
		t.Errorf("nil Guard: Check = %s, %v; want deny and an error", d.Verdict, err)
	}
	if (cmdguard.Decision{}).Verdict != cmdguard.Deny {
		t.Errorf("the zero Decision is not a deny")
	}

	// A policy that does not load: testdata/gate/broken-policy.txtar.
}

// TestConcurrentChecks runs many checks on one Guard at once (run it with
// -race): every goroutine gets the same verdicts as a lone check.
func TestConcurrentChecks(t *testing.T) {
	t.Parallel()
	root := project(t, testPolicy)
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	cmds := map[string]cmdguard.Verdict{
		"ls -la":                    cmdguard.Allow,
		"cat .env":                  cmdguard.Deny,
		"npm install":               cmdguard.Ask,
		"cd secrets && cat db.txt":  cmdguard.Deny,
		"grep -r TODO src | head":   cmdguard.Allow,
		"bash -c 'cat data/db.txt'": cmdguard.Deny,
	}
	errs := make(chan string, 64)
	done := make(chan struct{})
	for range 16 {
		go func() {
			defer func() { done <- struct{}{} }()
			for range 50 {
				for cmd, want := range cmds {
					d, err := g.Check(context.Background(), cmdguard.Request{Command: cmd, Cwd: root})
					if err != nil || d.Verdict != want {
						select {
						case errs <- fmt.Sprintf("Check(%q) = %s, %v; want %s", cmd, d.Verdict, err, want):
						default:
						}
						return
					}
				}
			}
		}()
	}
	for range 16 {
		<-done
	}
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestStart drives a started command as an ACP or /v1/bash adapter would:
// write its stdin, wait, read its output; and a refused one never starts.
func TestStart(t *testing.T) {
	t.Parallel()
	root := project(t, testPolicy)
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	req := cmdguard.RunRequest{Request: cmdguard.Request{Command: "tr a-z A-Z", Cwd: root}, StdinPipe: true}
	if _, p, err := g.Start(ctx, req); !errors.Is(err, cmdguard.ErrRefused) || p != nil {
		t.Fatalf("Start(tr) with tr not allowed = %v, %v; want ErrRefused and no process", p, err)
	}
	req.Approve = func(d cmdguard.Decision) bool { return d.Verdict == cmdguard.Ask }
	d, p, err := g.Start(ctx, req)
	if err != nil || d.Verdict != cmdguard.Ask {
		t.Fatalf("Start(tr) approved = %s, %v", d.Verdict, err)
	}
	defer p.Release()
	if _, err := p.Write(ctx, []byte("b\na\n")); err != nil {
		t.Fatal(err)
	}
	p.CloseStdin()
	res, err := p.Wait(ctx)
	if err != nil || res.ExitCode == nil || *res.ExitCode != 0 || string(res.Stdout.Data) != "B\nA\n" {
		t.Errorf("tr: %s, %v, stdout %q; want exit 0 and \"B\\nA\\n\"", res.Explain(), err, res.Stdout.Data)
	}

	marker := filepath.Join(root, "made")
	for _, cmd := range []string{"touch made && cat .env", "rm -rf build; touch made"} {
		if _, _, err := g.Run(ctx, cmdguard.RunRequest{Request: cmdguard.Request{Command: cmd, Cwd: root}}); !errors.Is(err, cmdguard.ErrRefused) {
			t.Errorf("Run(%q) = %v, want ErrRefused", cmd, err)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("Run(%q) was refused but ran", cmd)
		}
	}
}
