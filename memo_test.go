package cmdguard

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/cmdguard/cmdguard/internal/analysis"
	"github.com/cmdguard/cmdguard/internal/live"
	"github.com/cmdguard/cmdguard/parser"
	"github.com/cmdguard/cmdguard/policy"
)

// memoProject writes a project for the memo tests and returns its (real)
// root.
func memoProject(t testing.TB) string {
	t.Helper()
	root := t.TempDir()
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	for name, body := range map[string]string{
		".cmdguardignore": ".env\nsecrets/\n*.pem\n", ".env": "TOKEN=x\n", "secrets/db.txt": "pw\n",
		"src/main.go": "package main\n", "src/util.go": "package main\n", "docs/readme.md": "hi\n",
		".git/config": "[core]\n", ".git/hooks/.keep": "", "nested/.rooignore": "private.txt\n",
		"nested/private.txt": "p\n", "nested/public.txt": "p\n",
	} {
		writeTestFile(t, root, name, body)
	}
	return root
}

// memoCommands exercise every part of the policy input the memo keeps or
// copies: redirects, wrappers, globs, findings, option hits, unknown
// options and references, git's MatchArgv, a transparent shell, write
// then run, ~ and $HOME.
var memoCommands = []string{
	"git status && go test ./... | tail -5",
	"cat src/main.go .env 2>/dev/null | head -n 3",
	"find src -name '*.go' | xargs grep -n TODO",
	"cat src/*.go nested/*.txt",
	"echo $(whoami) > out.txt",
	"sudo rm -rf build",
	"sort -o out.txt src/main.go",
	"ls --frobnicate src",
	"cd src && cat ../.env ../nested/public.txt",
	"echo hi > .git/hooks/pre-commit",
	"echo x > run.sh && ./run.sh",
	"bash -c 'git status && cat docs/readme.md'",
	"git -C . log -n 1 -- docs/readme.md",
	"cat ~/.env $HOME/src/main.go",
	"cat $F src/util.go",
	"X=1",
	"grep -r pw . secrets",
}

func memoPolicies(t testing.TB, root string) map[string]*policy.Policy {
	t.Helper()
	def, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	own, err := policy.Parse(filepath.Join(root, ".cmdguard.yaml"), []byte(`version: 1
default: ask
allow: [ls, cat, echo, grep, git, find, cd, xargs, sort, bash -c, go test, tail, head]
deny: [rm -rf]
ignore_files: [.cmdguardignore, .rooignore]
`), root)
	if err != nil {
		t.Fatal(err)
	}
	// A Rego module that reads every part of the input a prepared
	// command holds: a stale or mismatched term changes its verdict.
	writeTestFile(t, root, "memo.rego", `package cmdguard

deny contains msg if {
	some c in input.commands
	c.argv[0] == "sudo"
	msg := "no sudo"
}

ask contains msg if {
	some c in input.commands
	some f in c.files
	f.exists
	msg := sprintf("reads %s from %s (%v, %v, %d:%d)", [f.path, c.cwd, c.match_argv, c.dynamic, c.pos.line, c.pos.col])
}

deny contains msg if {
	some c in input.commands
	some r in c.redirects
	r.write
	msg := sprintf("writes %s (%v)", [r.target, c.wrappers])
}

allow contains msg if {
	count(input.findings) == 0
	msg := concat(" ", [input.source, input.cwd])
}
`)
	withRego, err := policy.Parse(filepath.Join(root, ".cmdguard.yaml"), []byte(`version: 1
default: ask
allow: [ls, cat, git status]
rego: [memo.rego]
`), root)
	if err != nil {
		t.Fatal(err)
	}
	return map[string]*policy.Policy{"default": def, "own": own, "rego": withRego}
}

func memoRequest(root, cmd string) Request {
	return Request{Command: cmd, Cwd: root, BaseEnv: []string{"HOME=" + root, "PWD=" + root}, Env: []string{"F=.env"}}
}

// entryOf returns the memo entry of req on g's current snapshot.
func entryOf(g *Guard, req Request) (*analysis.Entry, *analysis.Key) {
	base, added := req.env()
	k := analysis.NewKey(req.Command, g.cwd(req.Cwd), base, added)
	return g.src.Last().Memo.Peek(&k), &k
}

// mutate changes every element of every list of d, as a careless caller
// might.
func mutate(d *Decision) {
	for i := range d.Commands {
		c := &d.Commands[i]
		for j := range c.Argv {
			c.Argv[j] = "rm"
		}
		for j := range c.MatchArgv {
			c.MatchArgv[j] = "rm"
		}
		for j := range c.Dynamic {
			c.Dynamic[j] = !c.Dynamic[j]
		}
		for j := range c.Wrappers {
			c.Wrappers[j] = "x"
		}
		for j := range c.Redirects {
			c.Redirects[j] = policy.Redirect{Op: "<"}
		}
		for j := range c.Files {
			c.Files[j] = policy.File{Path: "x"}
		}
		for j := range c.OptionHits {
			c.OptionHits[j] = policy.OptionHit{}
		}
		for j := range c.UnknownOptions {
			c.UnknownOptions[j] = policy.Option{}
		}
		c.Argv = append(c.Argv, "x")
		c.Files = append(c.Files, policy.File{})
	}
	for j := range d.Reasons {
		d.Reasons[j] = Reason{Verdict: Allow}
	}
}

// TestMemoSameDecision: a check that finds its analysis in the memo
// decides exactly as the first check of the string and as a new Guard,
// even after the caller changed every list of an earlier Decision; and
// the remembered analysis is still exactly what the parser makes of the
// string (nothing wrote through it).
func TestMemoSameDecision(t *testing.T) {
	t.Parallel()
	root := memoProject(t)
	ctx := context.Background()
	for name, p := range memoPolicies(t, root) {
		g, err := New(p, root)
		if err != nil {
			t.Fatal(err)
		}
		for _, cmd := range memoCommands {
			req := memoRequest(root, cmd)
			first, err1 := g.Check(ctx, req)
			if e, _ := entryOf(g, req); e != nil {
				t.Fatalf("%s: %q: remembered at its first check", name, cmd)
			}
			mutate(&first)
			first, _ = g.Check(ctx, req)
			if e, _ := entryOf(g, req); e == nil {
				t.Fatalf("%s: %q: not remembered at its second check", name, cmd)
			}
			mutate(&first)
			first, _ = g.Check(ctx, req) // from the memo, after the mutations
			mutate(&first)
			again, err2 := g.Check(ctx, req)
			fresh, err3 := mustNew(t, p, root).Check(ctx, req)
			if err1 != nil || err2 != nil || err3 != nil {
				t.Fatalf("%s: %q: errors %v, %v, %v", name, cmd, err1, err2, err3)
			}
			for _, d := range []Decision{fresh, again} {
				for _, c := range d.Commands {
					if c.Argv == nil || c.MatchArgv == nil || c.Dynamic == nil || c.Wrappers == nil || c.Redirects == nil || c.Files == nil {
						t.Errorf("%s: Check(%q): a nil list in %+v (Rego and JSON would see null)", name, cmd, c)
					}
				}
			}
			if diff := cmp.Diff(fresh, again); diff != "" {
				t.Errorf("%s: Check(%q) from the memo mismatch (-fresh +memo):\n%s", name, cmd, diff)
			}
			e, k := entryOf(g, req)
			_, added := req.env()
			want := analysis.Analyse(k, added, p, root)
			if diff := cmp.Diff(want, e, cmp.AllowUnexported(analysis.Entry{}, analysis.Key{}, parser.Command{}), cmpopts.IgnoreFields(analysis.Entry{}, "prep")); diff != "" {
				t.Errorf("%s: memo entry of %q changed (-fresh +memo):\n%s", name, cmd, diff)
			}
		}
	}
}

func mustNew(t testing.TB, p *policy.Policy, root string) *Guard {
	t.Helper()
	g, err := New(p, root)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestMemoConcurrent checks the same strings from many goroutines on one
// Guard (run it with -race): every decision is the one a new Guard makes.
func TestMemoConcurrent(t *testing.T) {
	t.Parallel()
	root := memoProject(t)
	ctx := context.Background()
	p := memoPolicies(t, root)["rego"]
	want := map[string]Decision{}
	for _, cmd := range memoCommands {
		want[cmd], _ = mustNew(t, p, root).Check(ctx, memoRequest(root, cmd))
	}
	g := mustNew(t, p, root)
	var wg sync.WaitGroup
	errs := make(chan string, 8)
	for w := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 40 {
				cmd := memoCommands[(i+w)%len(memoCommands)]
				d, err := g.Check(ctx, memoRequest(root, cmd))
				if diff := cmp.Diff(want[cmd], d); err != nil || diff != "" {
					select {
					case errs <- fmt.Sprintf("Check(%q) = %v, mismatch (-want +got):\n%s", cmd, err, diff):
					default:
					}
					return
				}
				mutate(&d)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestMemoFileSystem: what the file system says is checked at every
// check, memo or not: a symlink re-pointed, an ignore file created or
// edited, a file a glob now matches, a directory replaced by a link,
// between two checks of the same string, changes the verdict. Once with
// fresh files, once with a project at rest (past the racy window, when
// stat caches are trusted).
func TestMemoFileSystem(t *testing.T) {
	t.Parallel()
	for _, rest := range []bool{false, true} {
		t.Run(fmt.Sprintf("at_rest=%v", rest), func(t *testing.T) {
			t.Parallel()
			testMemoFileSystem(t, rest)
		})
	}
}

func testMemoFileSystem(t *testing.T, rest bool) {
	root := memoProject(t)
	link := func(target, name string) func() {
		return func() {
			os.Remove(filepath.Join(root, name))
			if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
				t.Fatal(err)
			}
		}
	}
	link("src/main.go", "l.txt")()
	link("docs", "d")()
	writeTestFile(t, root, "g/a.txt", "a")
	if rest {
		time.Sleep(2100 * time.Millisecond)
	}
	p := memoPolicies(t, root)["own"]
	g := mustNew(t, p, root)
	steps := []struct {
		what, cmd string
		do        func()
		want      Verdict
	}{
		{"link to a source file", "cat l.txt", func() {}, Allow},
		{"link re-pointed to .env", "cat l.txt", link(".env", "l.txt"), Deny},
		{"link pointed back", "cat l.txt", link("src/main.go", "l.txt"), Allow},
		{"no ignore rule", "cat nested/public.txt", func() {}, Allow},
		{"ignore file edited", "cat nested/public.txt", func() { writeTestFile(t, root, "nested/.rooignore", "public.txt\n") }, Deny},
		{"ignore file deleted", "cat nested/public.txt", func() { os.Remove(filepath.Join(root, "nested/.rooignore")) }, Allow},
		{"glob matches a.txt", "cat g/*", func() {}, Allow},
		{"glob now matches a key", "cat g/*", func() { writeTestFile(t, root, "g/k.pem", "k") }, Deny},
		{"dir link to docs", "cat d/db.txt", func() {}, Allow},
		{"dir link to secrets", "cat d/db.txt", link("secrets", "d"), Deny},
	}
	for _, st := range steps { // every string is remembered before the steps
		for range 2 {
			g.Check(context.Background(), Request{Command: st.cmd, Cwd: root})
		}
	}
	for _, st := range steps {
		st.do()
		if e, _ := entryOf(g, Request{Command: st.cmd, Cwd: root}); e == nil {
			t.Fatalf("%s: %s is not remembered", st.what, st.cmd)
		}
		d, err := g.Check(context.Background(), Request{Command: st.cmd, Cwd: root})
		if err != nil || d.Verdict != st.want {
			t.Errorf("%s: %s = %s %v, %v; want %s", st.what, st.cmd, d.Verdict, d.Reasons, err, st.want)
		}
	}
}

// TestMemoKey: everything the analysis depends on is in the key. One
// Guard checks the same string with different HOME, PWD, CDPATH, cwd and
// added variables, in both orders; each must decide as a new Guard does.
func TestMemoKey(t *testing.T) {
	t.Parallel()
	root := memoProject(t)
	other := t.TempDir()
	ctx := context.Background()
	p := memoPolicies(t, root)["own"]
	reqs := []Request{
		{Command: "cat ~/.env", BaseEnv: []string{"HOME=" + root}},
		{Command: "cat ~/.env", BaseEnv: []string{"HOME=" + other}},
		{Command: "cat ~/.env", BaseEnv: []string{}},
		{Command: "cat $PWD/.env", BaseEnv: []string{"PWD=" + root}},
		{Command: "cat $PWD/.env", BaseEnv: []string{"PWD=" + other}},
		{Command: "cat $PWD/.env", BaseEnv: []string{}, Cwd: "src"},
		{Command: "cd secrets && cat db.txt", BaseEnv: []string{}},
		{Command: "cd secrets && cat db.txt", BaseEnv: []string{"CDPATH=" + other}},
		{Command: "cat db.txt", Cwd: "secrets"},
		{Command: "cat db.txt", Cwd: ""},
		{Command: "cat $F", BaseEnv: []string{}, Env: []string{"F=.env"}},
		{Command: "cat $F", BaseEnv: []string{}, Env: []string{"F=docs/readme.md"}},
		{Command: "cat $F", BaseEnv: []string{}, Env: []string{"F=docs/readme.md", "F=.env"}},
		{Command: "cat $F", BaseEnv: []string{}},
		{Command: "cat $F", BaseEnv: []string{"F=.env"}, Env: []string{"F=.env"}},
	}
	for _, order := range []string{"forward", "backward"} {
		g := mustNew(t, p, root)
		for i := range reqs {
			if order == "backward" {
				i = len(reqs) - 1 - i
			}
			want, _ := mustNew(t, p, root).Check(ctx, reqs[i])
			got, _ := g.Check(ctx, reqs[i])
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s: request %d %+v mismatch (-new Guard +memo):\n%s", order, i, reqs[i], diff)
			}
		}
	}
	// The verdicts differ, or the test would prove nothing.
	g := mustNew(t, p, root)
	for _, pair := range [][2]int{{0, 1}, {6, 7}, {8, 9}, {10, 11}, {11, 12}} {
		a, _ := g.Check(ctx, reqs[pair[0]])
		b, _ := g.Check(ctx, reqs[pair[1]])
		if a.Verdict == b.Verdict {
			t.Errorf("requests %d and %d: both %s; want different verdicts", pair[0], pair[1], a.Verdict)
		}
	}
}

// TestMemoPolicyEdit: the memo belongs to the policy snapshot. A policy
// edited to trust an environment variable (env_safe:, which the parser
// reads) applies at the next check of a remembered string.
func TestMemoPolicyEdit(t *testing.T) {
	t.Parallel()
	root := memoProject(t)
	path := filepath.Join(root, ".cmdguard.yaml")
	writeTestFile(t, root, ".cmdguard.yaml", "version: 1\nallow: [git status]\n")
	g, err := open(&source{live.Source{Root: root, Path: path, Racy: time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range []struct {
		policy string
		want   Verdict
	}{
		{"", Ask},
		{"version: 1\nallow: [git status]\nenv_safe: [MYVAR]\n", Allow},
		{"version: 1\nallow: [git status]\n", Ask},
	} {
		if st.policy != "" {
			time.Sleep(5 * time.Millisecond)
			writeTestFile(t, root, ".cmdguard.yaml", st.policy)
		}
		if got, why := verdictOf(t, g, "MYVAR=1 git status"); got != st.want {
			t.Errorf("policy %q: MYVAR=1 git status = %s (%s), want %s", st.policy, got, why, st.want)
		}
	}
}

// TestMemoBounded: the memo keeps nothing of strings checked once, at
// most two generations however many strings it sees, and skips long
// commands.
func TestMemoBounded(t *testing.T) {
	t.Parallel()
	root := memoProject(t)
	g := mustNew(t, memoPolicies(t, root)["default"], root)
	ctx := context.Background()
	m := g.src.Last().Memo
	for i := range 3 * analysis.MaxEntries {
		g.Check(ctx, Request{Command: fmt.Sprintf("git status && head -%d src/main.go", i), BaseEnv: []string{}})
	}
	if n, _ := m.Len(); n != 0 {
		t.Errorf("%d strings checked once each: the memo holds %d; want none", 3*analysis.MaxEntries, n)
	}
	for i := range 3*analysis.MaxEntries + 7 {
		req := Request{Command: fmt.Sprintf("git status && tail -%d src/main.go", i), BaseEnv: []string{}}
		g.Check(ctx, req)
		g.Check(ctx, req)
	}
	if n, w := m.Len(); n > 2*analysis.MaxEntries || n < analysis.MaxEntries || w > 2*analysis.MaxWeight {
		t.Errorf("memo holds %d entries weighing %d; want %d to %d entries, at most %d", n, w, analysis.MaxEntries, 2*analysis.MaxEntries, 2*analysis.MaxWeight)
	}
	long := Request{Command: "echo " + strings.Repeat("a", analysis.MaxSource), BaseEnv: []string{}}
	g.Check(ctx, long)
	g.Check(ctx, long)
	if e, _ := entryOf(g, long); e != nil {
		t.Errorf("a command of %d bytes is remembered", len(long.Command))
	}
	// A heavy entry (many words) counts by its weight.
	hk := analysis.NewKey("echo"+strings.Repeat(" a", 2000), "", nil, nil)
	heavy := analysis.Analyse(&hk, nil, memoPolicies(t, root)["default"], root)
	if heavy.Weight() < 2000*80 {
		t.Errorf("an analysis of 2000 words weighs %d", heavy.Weight())
	}
}
