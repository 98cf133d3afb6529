package parser

import (
	"strings"
	"testing"
)

// The option guard's cases (they moved here from the policy with the
// guard): a command line, split on white space (in a word, \x00 stands
// for a space and \x01 for a newline; a word that starts with $ or holds
// ${ is dynamic), and whether the guard must find an option that writes,
// deletes or runs a program. The policy keeps the hits its matched prefix
// does not name; here every hit counts, as under a policy that allows
// every program.
type guardCase struct {
	argv string
	ask  bool
}

func TestGuardAbbreviations(t *testing.T) {
	t.Parallel()
	checkGuards(t, []guardCase{
		{"sort --out=.cmdguardignore /dev/null", true},
		{"sort --outp=.git/config src/a.txt", true},
		{"sort --o=x", true},
		{"sort --output x", true},
		{"sort --outpu x", true},
		{"sort --outputx=x", false}, // not a prefix of --output
		{"sort --stable in", false},
		{"git grep --open=sh --untracked X", true},
		{"git grep --open-files-in-pager=sh X", true},
		{"git grep -Osh X", true},
		{"git grep -iO X", true},
		{"git grep -i X", false},
		{"git diff --out=f", true},
		{"git diff --output-indicator-new=x", false},
		{"git log --ext=x", true},
		{"date --se=1", true},
		{"date -us 1", true},
		{"sort -no x in", true},
		{"sort -ofile in", true},
		{"sort -n in", false},
		{"sort -t -- -o x", true}, // -t takes -- as its value
		{"sort in -- -o", false},  // after --, an operand
		{"go test -toolexec=./evil ./...", true},
		{"go test --exec=./evil ./...", true},
		{"go test -count=1 ./...", false},
		{"go test -run TestX ./...", false},
	})
}

func TestGuardProgramsAndWrites(t *testing.T) {
	t.Parallel()
	checkGuards(t, []guardCase{
		{"sort -S 1K --compress-program=sh", true},
		{"sort --compress=sh", true},
		{"git grep -O X", true},
		{"git rebase -x make main", true},
		{"git rebase --exec=make main", true},
		{"git rebase --ex make main", true},
		{"git rebase main", false},
		{"git bisect run ./t.sh", true},
		{"git bisect start", false},
		{"git submodule foreach make", true},
		{"git submodule --quiet foreach make", true},
		{"git submodule status", false},
		{"git config user.name", false},
		{"git config --get user.name", false},
		{"git config --get-all remote.origin.url", false},
		{"git config --list --show-origin", false},
		{"git config -l", false},
		{"git config get user.name", false},
		{"git config list", false},
		{"git config user.name me", true},
		{"git config core.pager sh", true},
		{"git config --global core.pager sh", true},
		{"git config set core.pager sh", true},
		{"git config --unset user.name", true},
		{"git config --unse user.name", true},
		{"git config --get set x", true}, // a write subcommand, whatever comes before
		{"git config -e", true},
		{"git config --edit", true},
		{"git config --add x.y z", true},
		{"git config", true}, // usage, but over-matching only asks
		// -o is a written file reference (path.protected for .git/hooks,
		// see TestGoOutputIsAFileRef), not a dangerous option.
		{"go build -o .git/hooks/pre-commit .", false},
		{"go build -o=x .", false},
		{"go test -c -o x .", false},
		{"go test -coverprofile=.cmdguardignore ./...", true},
		{"go test -cpuprofile x", true},
		{"go test -memprofile x", true},
		{"go test -blockprofile x", true},
		{"go test -mutexprofile x", true},
		{"go test -trace x", true},
		{"go test -outputdir /tmp", true},
		{"go test ./... -args -test.coverprofile=x", true},
		{"go test -ldflags=-extld=./evil .", true},
		{"go build -gcflags=-cpuprofile=x .", true},
		{"go test -C ../elsewhere ./...", true},
		{"go test -cover -count=1 -run X -v ./...", false},
		{"go build ./...", false},
		{"go generate ./...", true},
		{"go list -f {{.Dir}} ./...", false},
		{"tar -xf a.tar --to-command=sh", true},
		{"tar --use-compress-program=sh -xf a.tar", true},
		{"tar -I sh -xf a.tar", true},
		{"tar -xIsh -f a.tar", true},
		{"tar xIf sh a.tar", true}, // old-style options without a dash
		{"tar --checkpoint=1 --checkpoint-action=exec=sh", true},
		{"tar -F ./next -cf a.tar .", true},
		{"tar --info-script=./next -cf a.tar .", true},
		{"tar --rsh-command=sh -xf h:a.tar", true},
		{"tar -tf a.tar", false},
		{"tar tvf a.tar", false},
		{"rsync -e sh a b", true},
		{"rsync -avze ssh a h:b", true},
		{"rsync --rsh=sh a b", true},
		{"rsync --rsync-path=sh a b", true},
		{"rsync -av a b", false},
		{"zip -T a.zip x", true},
		{"zip -TT sh a.zip x", true},
		{"zip --unzip-command=sh -T a.zip x", true},
		{"zip a.zip x", false},
		{"man -P sh ls", true},
		{"man --pager=sh ls", true},
		{"man -H ls", true},
		{"man --html=firefox ls", true},
		{"man -C ./evil.conf ls", true},
		{"man ls", false},
		{"find . -fprint x", true},
		{"find . -fprintf x %p", true},
		{"find . -fls x", true},
		{"find . -okdir rm {} ;", true},
		{"git log -p --textconv", true},
		{"git show --ext-diff HEAD", true},
		{"git cat-file --textconv HEAD:x", true},
		{"git cat-file --filters HEAD:x", true},
		{"git cat-file -p HEAD", false},
		{"git grep --textconv X", true},
		{"git stash list --output=x", true},
		{"git stash list", false},
		{"rg --hostname-bin=sh x", true},
		{"tree -R -H . -L 1", true},
		{"time -o x ls", true},
		{"time --output=x ls", true},
		{"time -p ls", false},
	})
}

func TestGuardDefaultReview(t *testing.T) {
	t.Parallel()
	checkGuards(t, []guardCase{
		// A dynamic word may be any option: $X=--output=.git/config.
		{"sort $X /dev/null", true},
		{"sort -u src/$F", false}, // cannot start with a dash
		{"git diff $OPT", true},
		{"sed $S a", true},
		{"sed s/x/${Y}/ a", true}, // $Y may hold /w file
		{"awk {print\x00$1} a", false},
		{"git config $K", true},
		{"cat $X", false}, // no guard for cat
		// Options of allowed programs that were not guarded.
		{"sort --files0-from=list", true},
		{"git blame --textconv f", true},
		{"git shortlog --output=x", true},
		{"git shortlog -sn", false},
	})
}

func TestGuardFalsePositives(t *testing.T) {
	t.Parallel()
	checkGuards(t, []guardCase{
		// time runs the command after its options: those are not its own.
		{"time go test -count=1 ./...", false},
		{"time -p sort in", false},
		{"time -f %e -o x ls", true},
		{"time -vo x ls", true},
		{"time --out=x ls", true},
		{"time -f %e ls -o", false},
		// Whole options that happen to abbreviate a guarded one.
		{"git diff --text", false},
		{"git log -p --text", false},
		{"git grep --text X", false},
		{"git diff --tex", true}, // ambiguous: git refuses it, and we ask
		{"tar --checkpoint=10 -cf a.tar .", false},
		{"tar --checkpoint-action=exec=sh -cf a.tar .", true},
	})
}

// FuzzScriptGuards checks that the git config and time scans never panic
// and return -1 or the index of a word after the program name (sed and
// awk: FuzzScriptRisk).
func FuzzScriptGuards(f *testing.F) {
	f.Add("git config -f\x00x a")
	f.Add("time -o out ls")
	f.Fuzz(func(t *testing.T, line string) {
		argv := strings.Split(line, " ")
		for i := range argv {
			argv[i] = strings.ReplaceAll(argv[i], "\x00", " ")
		}
		for _, check := range []func([]string, int) int{gitConfigWrite, timeOutput} {
			if got := check(argv, 1); got != -1 && (got < 0 || got >= len(argv)) {
				t.Fatalf("check(%q) = %d, out of range", argv, got)
			}
		}
	})
}

// BenchmarkGuardOptions measures the guard alone on commands it scans: it
// must not allocate.
func BenchmarkGuardOptions(b *testing.B) {
	for _, line := range []string{"git log --oneline -n 5", "sort -u -k2 in", "sed -n s/foo/bar/p;/x/{p;q} in", "awk -F: {print} in"} {
		argv := strings.Fields(line)
		c := &Command{MatchArgv: argv}
		for _, a := range argv {
			c.Argv = append(c.Argv, Word{Value: a})
		}
		w := guardWords{argv: argv, c: c}
		p := progs()[argv[0]]
		b.Run(argv[0], func(b *testing.B) {
			hits := make([]guardHit, 0, 4)
			b.ReportAllocs()
			for b.Loop() {
				hits = guardOptions(w, p, 1, hits[:0])
			}
		})
	}
}

// Options that make a program run a command of your choice (issue 11).
func TestGuardRunnerOptions(t *testing.T) {
	t.Parallel()
	checkGuards(t, []guardCase{
		{"ssh -o ProxyCommand=id host", true},
		{"ssh -oProxyCommand=id host", true},
		{"ssh -F cfg host", true},
		{"ssh -v host ls", false},
		{"scp -S ./x a host:b", true},
		{"scp -o LocalCommand=id a host:b", true},
		{"scp a host:b", false},
		{"sftp -S ./x host", true},
		{"gdb -ex shell\x00id -batch ./a", true},
		{"gdb --eval-command=shell\x00id ./a", true},
		{"gdb -x cmds ./a", true},
		{"gdb -batch ./a", false},
		{"vim -c !id x", true},
		{"vim +!id x", true},
		{"vim --cmd !id x", true},
		{"vim -S s.vim x", true},
		{"vim +10 x", false},
		{"vim +/main x", false},
		{"nvim +!id x", true},
		{"vi x", false},
		{"emacs --eval (shell-command\x00\"id\") x", true},
		{"emacs -l x.el", true},
		{"emacs -nw x", false},
		{"make -f other.mk", true},
		{"make --file=other.mk", true},
		{"make -C sub", true},
		{"make -j4 test", false},
		{"git send-pack --receive-pack=id x", true},
		{"git fetch-pack --upload-pack=id x", true},
		{"git clone -u id x", true},
		{"git clone --upload-pack id x", true},
		{"git fetch --upload-pack=id origin", true},
		{"git ls-remote --upload-pack=id origin", true},
		{"git push --receive-pack=id origin", true},
		{"git clone ext::sh\x00-c\x00id x", true},
		{"git fetch ext::sh\x00-c\x00id", true},
		{"git clone https://example.com/x x", false},
		{"git push origin main", false},
	})
}

// The default policy's readers that can write or run (issue 11).
func TestGuardDefaultReaders(t *testing.T) {
	t.Parallel()
	checkGuards(t, []guardCase{
		{"uniq a", false},
		{"uniq -c a", false},
		{"uniq -f 1 a", false},
		{"uniq a out", true},
		{"uniq -c a -- out", true},
		{"git branch", false},
		{"git branch foo", true},
		{"git branch foo HEAD~1", true},
		{"git branch -a", false},
		{"git branch -r", false},
		{"git branch --list f*", false},
		{"git branch --contains HEAD", false},
		{"git branch --merged main", false},
		{"git branch -v", false},
		{"git branch --show-current", false},
		{"rg -z foo", true},
		{"rg --search-zip foo", true},
		{"rg --search foo", true}, // abbreviates --search-zip
		{"rg foo", false},
	})
}

// TestGuardHitOrder: an entry's hits come in the order of its guards:
// its checks marked first, then its options' guards (one a reason, in
// the order the reasons are declared), then its other checks.
func TestGuardHitOrder(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string // each hit's What
	}{
		{"git branch -d foo", []string{"git branch foo", "git branch -d"}},
		{"git reflog expire --output=x", []string{"git reflog expire", "git reflog --output=x"}},
		{"make -f x SHELL=/bin/sh", []string{"make -f", "make SHELL=/bin/sh"}},
		{"go test -cpuprofile y -gcflags x", []string{"go test -gcflags", "go test -cpuprofile"}},
		{"sort --files0-from y -o x", []string{"sort -o", "sort --files0-from"}},
	} {
		a := Analyze(tc.src, Options{})
		if len(a.Commands) != 1 {
			t.Errorf("%s: %d commands", tc.src, len(a.Commands))
			continue
		}
		var got []string
		for _, h := range a.Commands[0].OptionHits {
			got = append(got, h.What)
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("%s: hits %q, want %q", tc.src, got, tc.want)
		}
	}
}
