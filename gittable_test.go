package cmdguard_test

import (
	"context"
	"testing"

	"github.com/cmdguard/cmdguard"
)

// gitEveryday are git commands agents run all day: under the embedded
// default policy, with git's subcommands' options in the program table,
// every one stays allowed. (git grep without "-- PATH" reads the whole
// tree, ignored files included with --untracked: it asks, as before.)
var gitEveryday = []string{
	"git status", "git status -s", "git status --short --branch", "git status --porcelain", "git status --porcelain=v1 -uno",
	"git status -sb", "git status --untracked-files=all", "git -C src status",
	"git log", "git log --oneline", "git log --oneline -n 5", "git log --oneline -5", "git log -n5 --stat",
	"git log --oneline --graph --decorate --all", "git log -p -1 -- src/main.go", "git log --pretty=format:'%h %s' -10",
	"git log --format='%H %an %s' --since='2 weeks ago'", "git log --author=alice --grep fix --oneline",
	"git log main..HEAD --oneline", "git log --name-only -3", "git log --follow -p -- src/main.go",
	"git log -S foo --oneline", "git log -1 --format=%cd --date=iso", "git --no-pager log --oneline -n 20",
	"git log --no-merges --first-parent --reverse", "git log --stat=80 -2", "git log -L1,3:src/main.go",
	"git diff", "git diff --stat", "git diff --stat HEAD~1", "git diff --cached", "git diff --staged --name-only",
	"git diff HEAD~1 -- src/main.go", "git diff --name-status main...HEAD", "git diff -U0", "git diff --word-diff",
	"git diff --no-color", "git diff --color=never --stat", "git diff --check", "git diff --ignore-all-space HEAD",
	"git diff --no-index src/main.go tool/pre-commit.go", "git diff --shortstat", "git diff -w -M --numstat",
	"git show", "git show HEAD", "git show HEAD:src/main.go", "git show --stat HEAD~2", "git show -s --format=%H",
	"git show --name-only HEAD", "git show --oneline --no-patch", "git show HEAD~1 -- src/main.go",
	"git branch", "git branch -a", "git branch -r", "git branch -vv", "git branch --show-current",
	"git branch --list 'feat*'", "git branch --contains HEAD", "git branch --merged main", "git branch --sort=-committerdate",
	"git rev-parse HEAD", "git rev-parse --show-toplevel", "git rev-parse --abbrev-ref HEAD", "git rev-parse --short HEAD",
	"git rev-parse --git-dir", "git rev-parse --is-inside-work-tree", "git rev-parse --verify -q main",
	"git ls-files", "git ls-files -m", "git ls-files --others --exclude-standard", "git ls-files src", "git ls-files -z",
	"git blame src/main.go", "git blame -L 1,2 src/main.go", "git blame -w -C src/main.go",
	"git describe --tags", "git describe --always --dirty", "git describe --tags --abbrev=0",
	"git shortlog -sn", "git shortlog -sne --all", "git shortlog -s -n HEAD",
	"git grep -n foo -- src", "git grep -i -e foo -e bar -- src", "git grep -l foo -- src tool", "git grep -c TODO -- src",
	"git ls-tree HEAD", "git ls-tree -r --name-only HEAD", "git ls-tree -r HEAD src",
	"git cat-file -p HEAD", "git cat-file -t HEAD", "git cat-file -s HEAD:src/main.go",
	"git merge-base main HEAD", "git merge-base --is-ancestor main HEAD",
	"git stash list", "git stash list --oneline", "git stash list --stat",
}

func TestGitEverydayAllowed(t *testing.T) {
	t.Parallel()
	root, _, _ := fixture(t, polDefault, false)
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range gitEveryday {
		d, err := g.Check(context.Background(), cmdguard.Request{Command: cmd, Cwd: root})
		if err != nil {
			t.Fatal(err)
		}
		if d.Verdict != cmdguard.Allow {
			t.Errorf("Check(%q) = %v, want allow: %v", cmd, d.Verdict, d.Reasons)
		}
	}
}

// TestGitUnknownOptionAsks: an option the table does not know for an
// allowed git subcommand asks (policy.unknown_option), like any
// program's; so does an unknown option of git itself.
func TestGitUnknownOptionAsks(t *testing.T) {
	t.Parallel()
	root, _, _ := fixture(t, polDefault, false)
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	checkVerdicts(t, g, []verdictCase{
		{"git status --frobnicate", cmdguard.Ask, "policy.unknown_option"},
		{"git log --oneline --cmdguard-x", cmdguard.Ask, "policy.unknown_option"},
		{"git diff -Y", cmdguard.Ask, "policy.unknown_option"},
		{"git show --bogus HEAD", cmdguard.Ask, "policy.unknown_option"},
		{"git branch -a --bogus", cmdguard.Ask, "policy.unknown_option"},
		{"git rev-parse --bogus", cmdguard.Ask, "policy.unknown_option"},
		{"git ls-files --bogus", cmdguard.Ask, "policy.unknown_option"},
		{"git grep --bogus foo", cmdguard.Ask, "policy.unknown_option"},
		{"git stash list --bogus", cmdguard.Ask, "policy.unknown_option"},
		{"git --bogus status", cmdguard.Ask, "policy.unknown_option"},
		{"git -C src log --bogus", cmdguard.Ask, "policy.unknown_option"},
	})
}
