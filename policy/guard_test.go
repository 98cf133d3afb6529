package policy_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard/policy"
)

// guardCase is a command line, split on white space (in a word, \x00
// stands for a space and \x01 for a newline; a word that starts with $ or
// holds ${ is dynamic), and whether the option guard must catch it.
type guardCase struct {
	argv string
	ask  bool
}

// checkGuards evaluates every case under p and checks whether a
// policy.dangerous_option reason was given.
func checkGuards(t *testing.T, p *policy.Policy, tests []guardCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.argv, func(t *testing.T) {
			t.Parallel()
			words := strings.Fields(tt.argv)
			for i, w := range words {
				words[i] = strings.NewReplacer("\x00", " ", "\x01", "\n").Replace(w)
			}
			c := cmd(words...)
			for i, w := range words {
				c.Dynamic[i] = strings.HasPrefix(w, "$") || strings.Contains(w, "${")
			}
			d := p.Evaluate(context.Background(), input(c))
			got := false
			for _, r := range d.Reasons {
				got = got || r.Rule == "policy.dangerous_option"
			}
			if got != tt.ask {
				t.Errorf("Evaluate(%q): dangerous_option = %v, want %v\n%v", words, got, tt.ask, d.Reasons)
			}
		})
	}
}

// permissive allows every program the guards know, so that only the
// guard can ask.
func permissive(t *testing.T) *policy.Policy {
	return mustParse(t, "version: 1\ndefault: allow\n")
}

func TestGuardAbbreviations(t *testing.T) {
	t.Parallel()
	checkGuards(t, permissive(t), []guardCase{
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
	checkGuards(t, permissive(t), []guardCase{
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
		{"go build -o .git/hooks/pre-commit .", true},
		{"go build -o=x .", true},
		{"go test -c -o x .", true},
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

// TestGuardScripts: sed and awk programs are read once, by the parser
// (parser.TestScriptRisk holds the cases this test had); the guard turns
// the fact it reports, Command.ScriptRisk, into policy.dangerous_option
// unless the prefix rule that matched names that word.
func TestGuardScripts(t *testing.T) {
	t.Parallel()
	named := mustParse(t, "version: 1\ndefault: ask\nallow: [sed, sed -n -e wout]\n")
	tests := []struct {
		p    *policy.Policy
		argv []string
		risk int
		dyn  int // a dynamic word, 0 for none
		ask  bool
	}{
		{permissive(t), []string{"sed", "-n", "-e", "w x", "a"}, 3, 0, true},
		{permissive(t), []string{"sed", "-n", "-e", "p", "a"}, 0, 0, false},
		{permissive(t), []string{"awk", "-f", "prog.awk", "a"}, 1, 0, true},
		{permissive(t), []string{"gawk", "{print}", "$F"}, 0, 2, true}, // a dynamic word may change the program
		{named, []string{"sed", "-n", "-e", "wout", "a"}, 3, 0, false}, // the allow rule names the script
		{named, []string{"sed", "-e", "wout", "a"}, 2, 0, true},
	}
	for _, tt := range tests {
		c := cmd(tt.argv...)
		c.ScriptRisk = tt.risk
		if tt.dyn > 0 {
			c.Dynamic[tt.dyn] = true
		}
		d := tt.p.Evaluate(context.Background(), input(c))
		got := false
		for _, r := range d.Reasons {
			got = got || r.Rule == "policy.dangerous_option"
		}
		if got != tt.ask {
			t.Errorf("Evaluate(%q, ScriptRisk %d): dangerous_option = %v, want %v\n%v", tt.argv, tt.risk, got, tt.ask, d.Reasons)
		}
	}
}

func TestGuardDefaultReview(t *testing.T) {
	t.Parallel()
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	checkGuards(t, p, []guardCase{
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
	checkGuards(t, permissive(t), []guardCase{
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
