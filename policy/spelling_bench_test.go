package policy_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard/policy"
)

// BenchmarkEvaluateSpelled is Evaluate under deny and ask rules that
// name options, over commands that spell them otherwise or not at all
// (the deny-wide path, the spellings read as the cmdguard package wires
// it).
func BenchmarkEvaluateSpelled(b *testing.B) {
	p := mustParse(b, "version: 1\ndefault: ask\nallow: [rm, git, curl, ls, cat, grep]\n"+
		"deny: [rm -rf, git push --force, git branch -D, curl -o, git clean -fdx]\nask: [git add -A, cp -a]\n")
	var ins []*policy.Input
	for _, c := range []string{"rm -fr build", "git push origin main", "git push --follow-tags origin +main", "git branch --delete --force x",
		"curl -sSL http://127.0.0.1/", "ls -la", "git status", "rm -v build/x", "git add .", "grep -rn x ."} {
		ins = append(ins, input(cmd(strings.Fields(c)...)))
	}
	ctx := context.Background()
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		p.Evaluate(ctx, ins[i%len(ins)])
	}
}
