package cmdguard_test

import (
	"context"
	"testing"
	"time"

	"github.com/cmdguard/cmdguard"
)

// BenchmarkCheckSpelled is Guard.Check under a policy file with deny and
// ask rules that name options, over commands that spell them otherwise
// (the deny-wide path: the rule's options read at load, the command's at
// each check).
func BenchmarkCheckSpelled(b *testing.B) {
	root := project(b, "version: 1\ndefault: ask\nallow: [rm, git, curl, ls, cat, grep]\n"+
		"deny: [rm -rf, git push --force, git branch -D, curl -o, git clean -fdx]\nask: [git add -A, cp -a]\n")
	g, err := cmdguard.Open(root)
	if err != nil {
		b.Fatal(err)
	}
	cmds := []string{"rm -fr build", "git push origin main", "git push --follow-tags origin +main", "git branch --delete --force x",
		"curl -sSL http://127.0.0.1/", "ls -la", "git status", "rm -v build/x", "git add .", "cat README.md | grep x"}
	time.Sleep(2100 * time.Millisecond) // a warm Guard, as in benchGuard
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := g.Check(ctx, cmdguard.Request{Command: cmds[i%len(cmds)], Cwd: root}); err != nil {
			b.Fatal(err)
		}
	}
}
