package policy_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard/policy"
)

// guardCase is a command line (split on white space; a word of the form
// 'a b' keeps its spaces when written with \x00 for them) and whether the
// option guard must catch it.
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
				words[i] = strings.ReplaceAll(w, "\x00", " ")
			}
			d := p.Evaluate(context.Background(), input(cmd(words...)))
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
