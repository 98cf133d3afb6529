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
