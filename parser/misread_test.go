package parser

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Issue 24 §2, the gate's own misreadings: commands agents run all day,
// read as what they are. Each class has its rows here; the differential
// tests (pathspec_test.go, misread_filter_test.go) hold the oracles.

// Printing builtins are not code: alias NAME and alias alone print; a
// word with = (or one not known before it runs) defines.
func TestMisreadPrintingBuiltins(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		src  string
		want []string
	}{
		{`alias ll`, nil},
		{`alias`, nil},
		{`alias -p`, nil},
		{`alias ll gs`, nil},
		{`type ls`, nil},
		{`type -a python3`, nil},
		{`hash`, nil},
		{`hash -t ls`, nil},
		{`alias x=y`, []string{"1:1 parser.eval"}},
		{`alias ll 'rm=rm -rf'`, []string{"1:1 parser.eval"}},
		{`alias $X`, []string{"1:1 parser.eval"}},
		{`alias -- x=y`, []string{"1:1 parser.eval"}},
		{`hash -p /tmp/x ls`, []string{"1:1 parser.eval"}},
		{`bash -c 'alias ls=rm'`, []string{"1:10 parser.eval"}},
	} {
		got := findings(Analyze(tt.src, Options{Cwd: "/repo", Env: testEnv}))
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Analyze(%q) findings mismatch (-want +got):\n%s", tt.src, diff)
		}
	}
}

// git pathspecs with wildcards or magic are filtered recursive
// references of their literal directory (f), from the top with :(top)
// or :/ (t); excludes alone narrow what the command reads without a
// pathspec: the whole tree, less the excludes from the top. On
// today's main git add '.e*' was a reference to the file named .e*
// (none: allowed) and magic an UnknownRef (ignore.unknown_ref).
func TestMisreadPathspecRefs(t *testing.T) {
	t.Parallel()
	runRefTests(t, []refTest{
		{`git add '.e*'`, []string{"git: arg . rf"}},
		{`git add -- '*.env'`, []string{"git: arg . rf"}},
		{`git add 'src/*.go'`, []string{"git: arg src rf"}},
		{`git add ':(glob)**/*.go'`, []string{"git: arg . rf"}},
		{`git add ':(glob)src/**/*.go'`, []string{"git: arg src rf"}},
		{`git ls-files ':(icase)X.md'`, []string{"git: arg . rf"}},
		{`git add ':(top)src'`, []string{"git: arg src rt"}},
		{`git add ':/'`, []string{"git: arg . rt"}},
		{`git add ':/*.go'`, []string{"git: arg . rft"}},
		{`git -C sub add ':/*.go' '*.md'`, []string{"git: option sub ", "git: arg . rft", "git: arg sub rf"}},
		{`git diff ':!vendor'`, []string{"git: arg . rft"}},
		{`git branch --list 'feat*'`, []string{"git: arg feat* "}},
		{`git for-each-ref 'refs/tags/v*'`, nil},
		{`git diff -- . ':(exclude)vendor'`, []string{"git: arg . "}},
		{`git add -A ':!vendor'`, []string{"git: arg . rft", "git: arg . r"}},
		{`git log -p -- '*.env'`, []string{"git: arg . rf"}},
		{`git add ':(literal)a*'`, []string{"git: arg a* r"}},
		{`git --literal-pathspecs add '.e*'`, []string{"git: arg .e* r"}},
		{`GIT_LITERAL_PATHSPECS=1 git add '.e*'`, []string{"git: arg .e* r"}},
		{`git add ':(bogus)x'`, []string{"git: arg . rt"}},
		{`git add ../'*.go'`, []string{"git: arg .. rf"}},
		{`git show HEAD:.env`, []string{"git: rev .env "}},
		{`git config --blob HEAD:secrets.ini --list`, []string{"git: rev secrets.ini "}},
		{`git config --blob=HEAD:secrets.ini -l`, []string{"git: rev secrets.ini ", "git: option HEAD:secrets.ini "}},
		{`git config --blob 0123abcd --list`, []string{"git: arg 0123abcd ", "git: unknown []"}},
		{`git add *.go`, []string{"git: arg . rf", "git: arg *.go rg"}},
	})
}

// Listing is not reading: ls, stat, du, lsof and rg --files name their
// operands Listed (l); what xargs or find -exec appends to a program
// that names no file or only lists is no UnknownRef.
func TestMisreadListing(t *testing.T) {
	t.Parallel()
	runRefTests(t, []refTest{
		{`ls -la .env*`, []string{"ls: arg .env* gl"}},
		{`stat .env`, []string{"stat: arg .env l"}},
		{`du -sh src`, []string{"du: option h m", "du: arg src l"}},
		{`du --files0-from=.env`, []string{"du: option .env ", "du: unknown []"}},
		{`rg --files src`, []string{"rg: arg src rl"}},
		{`rg --files`, []string{"rg: arg . rl"}},
		{`rg x src`, []string{"rg: arg x m", "rg: arg src r"}},
		{`lsof +D src`, []string{"lsof: arg +D l", "lsof: arg src l"}},
		{`find . -name x | xargs ls -la`, []string{"find: arg . "}},
		{`find . | xargs basename`, []string{"find: arg . "}},
		{`find . -name '*.go' -exec stat {} +`, []string{"find: arg . r"}},
		{`find . | xargs cat`, []string{"find: arg . ", "cat: unknown []"}},
		{`find . | xargs du`, []string{"find: arg . ", "du: unknown []"}},
		{`find . | xargs lsof`, []string{"find: arg . ", "lsof: unknown []"}},
		{`cat .env`, []string{"cat: arg .env "}},
	})
	for _, tt := range []struct {
		argv []string
		want bool
	}{
		{[]string{"cat", "x"}, true}, {[]string{"ls"}, true}, {[]string{"od", "x"}, true}, {[]string{"strings", "x"}, true},
		{[]string{"xxd", "x"}, true}, {[]string{"git", "diff"}, true}, {[]string{"git", "check-ignore", "x"}, true},
		{[]string{"git", "add", "x"}, false}, {[]string{"git"}, false}, {[]string{"sort", "x"}, false},
		{[]string{"go", "build"}, false}, {[]string{"/bin/cat", "x"}, false}, {nil, false}, {[]string{"nosuch"}, false},
	} {
		if got := ReadsOnly(tt.argv); got != tt.want {
			t.Errorf("ReadsOnly(%q) = %v, want %v", tt.argv, got, tt.want)
		}
	}
}

// The inspection programs: the binary readers' operands are files read
// (ignore rules apply), the guarded options are hits.
func TestMisreadInspection(t *testing.T) {
	t.Parallel()
	runRefTests(t, []refTest{
		{`od -c .env`, []string{"od: arg .env "}},
		{`hexdump -C .env`, []string{"hexdump: arg .env "}},
		{`hexdump -f .env x`, []string{"hexdump: option .env ", "hexdump: arg x "}},
		{`strings @.env`, []string{"strings: at .env "}},
		{`nm bin.o`, []string{"nm: arg bin.o "}},
		{`readelf -a bin.o`, []string{"readelf: arg bin.o "}},
		{`objdump -d bin.o`, []string{"objdump: arg bin.o "}},
		{`pgrep -F .env`, []string{"pgrep: option .env "}},
		{`ps aux`, nil},
		{`ss -F .env`, []string{"ss: option .env "}},
		{`ss -D out`, []string{"ss: option out w"}},
	})
	for _, tt := range []struct {
		src  string
		hits int
	}{
		{"ps aux", 0}, {"ps -ef", 0}, {"ps -o pid,user -p 1", 0}, {"ps auxe", 1}, {"ps e", 1},
		{"objdump -d x", 0}, {"objdump -S x", 1}, {"objdump --source x", 1}, {"objdump -dS x", 1}, {"objdump -I src -l x", 1},
		{"nm -C x", 0}, {"nm --plugin ./p.so x", 1}, {"nm --plug=./p.so x", 1},
		{"ss -tlnp", 0}, {"ss -K dst 1.2.3.4", 1}, {"ss --diag=out", 1},
		{"git remote -v", 0}, {"git remote get-url origin", 0}, {"git remote add x https://h/r", 1}, {"git remote -v set-url origin u", 1},
		{"git remote show origin", 1}, {"git worktree list", 0}, {"git worktree add ../x", 1}, {"git reflog", 0},
		{"git reflog expire --all", 1}, {"git notes list", 0}, {"git notes add -m x", 1}, {"git stash show -p", 0},
		{"git stash show --output=x", 1}, {"git reflog -p --output=x", 1}, {"git rev-list --output=x HEAD", 1}, {"git reflog --ext-diff -p", 1}, {"git config --get user.name", 0}, {"git config --list", 0}, {"git config user.name x", 1},
	} {
		a := Analyze(tt.src, Options{Cwd: "/repo", Env: testEnv})
		n := 0
		for _, c := range a.Commands {
			n += len(c.OptionHits)
		}
		if n != tt.hits {
			t.Errorf("Analyze(%q): %d option hits, want %d (%v)", tt.src, n, tt.hits, a.Commands)
		}
	}
	for _, src := range []string{"ps aux", "pgrep -fl node", "lsof -i :3000", "ss -tlnp", "netstat -tlnp", "od -An -tx1 f",
		"hexdump -C f", "nm -D f", "objdump -d f", "strings -n 8 f", "readelf -hS f", "git remote -v", "git worktree list --porcelain",
		"git for-each-ref --format='%(refname)' refs/heads", "git count-objects -vH", "git remote get-url --push origin"} {
		a := Analyze(src, Options{Cwd: "/repo", Env: testEnv})
		for _, c := range a.Commands {
			if len(c.UnknownOptions) > 0 {
				t.Errorf("Analyze(%q): unknown options %v", src, c.UnknownOptions)
			}
		}
	}
}

// An operand after -- is no option; an assignment no program the
// command runs reads is harmless when the program's entry lists what it
// reads (envAll); removing a file named like an option creates none.
func TestMisreadOperandsAndEnv(t *testing.T) {
	t.Parallel()
	opts, ops, _ := CommandSpelling([]string{"rm"}, []string{"--", "-f"})
	if len(opts) != 0 || !slices.Equal(ops, []string{"-f"}) {
		t.Errorf("Spelling(rm -- -f) = %q, %q; want no option, operand -f", opts, ops)
	}
	a := Analyze(`rm -- -f`, Options{Cwd: "/repo", Env: testEnv})
	if fr := a.Commands[0].Files; len(fr) != 1 || !fr[0].Write || !fr[0].Removed {
		t.Errorf("rm -- -f: refs %+v, want one removed write", fr)
	}
	if fr := Analyze(`touch -- -f`, Options{Cwd: "/repo", Env: testEnv}).Commands[0].Files; len(fr) != 1 || fr[0].Removed {
		t.Errorf("touch -- -f: refs %+v, want a write that creates", fr)
	}
	for _, tt := range []struct {
		src  string
		want []string
	}{
		{`FOO=bar ls`, nil},
		{`FOO=bar cat a.txt`, nil},
		{`FOO=1 BAR=x wc -l a`, nil},
		{`FOO=bar make`, []string{"1:1 env.unknown"}},
		{`FOO=bar xargs ls`, []string{"1:1 env.unknown"}},
		{`FOO=bar env ls`, []string{"1:1 env.unknown"}},
		{`FOO=bar $X`, []string{"1:1 env.unknown", "1:9 parser.dynamic_command"}},
		{`export FOO=bar; ls`, []string{"1:8 env.unknown"}},
		{`TZ=/etc/x ls`, []string{"1:1 env.unknown"}},
		{`LD_PRELOAD=x.so ls`, []string{"1:1 env.code_injection"}},
		{`GLIBC_TUNABLES=x ls`, []string{"1:1 env.code_injection"}},
		{`MALLOC_ARENA_MAX=2 ls`, nil},
		{`MALLOC_TRACE=.git/hooks/pre-commit ls`, nil}, // a written file reference (below)
		{`PATH=/tmp ls`, []string{"1:1 env.code_injection"}},
		{`files=(a b c)`, nil},
	} {
		got := findings(Analyze(tt.src, Options{Cwd: "/repo", Env: testEnv}))
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Analyze(%q) findings mismatch (-want +got):\n%s", tt.src, diff)
		}
	}
	if refs := Analyze(`MALLOC_TRACE=.git/hooks/x ls`, Options{Cwd: "/repo", Env: testEnv}).Commands[0].Files; len(refs) != 1 || !refs[0].Write {
		t.Errorf("MALLOC_TRACE=.git/hooks/x ls: refs %+v, want a written file", refs)
	}
	if refs := Analyze(`LOCPATH=.env ls`, Options{Cwd: "/repo", Env: testEnv}).Commands[0].Files; len(refs) != 1 || refs[0].Path != ".env" {
		t.Errorf("LOCPATH=.env ls: refs %+v, want the file .env", refs)
	}
}

// A filter says what it lets through, for the gate's messages.
func TestMisreadFilterStrings(t *testing.T) {
	t.Parallel()
	for src, want := range map[string]string{
		`grep -r --include='*.go' --exclude-dir=vendor x .`: "files grep reads with --include=*.go --exclude-dir=vendor",
		`rg -g '*.md' -t go x`:                              "files ripgrep reads with --glob=*.md --type=go",
		`git add '.e*'`:                                     "files matching git's pathspec '.e*'",
	} {
		a := Analyze(src, Options{Cwd: "/repo", Env: testEnv})
		got := ""
		for _, c := range a.Commands {
			for _, f := range c.Files {
				if f.Filter != nil {
					got = f.Filter.String()
				}
			}
		}
		if got != want {
			t.Errorf("Analyze(%q): Filter.String() = %q, want %q", src, got, want)
		}
	}
}
