package policy_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard/policy"
)

// benchInput is `git status && ls -la src | grep -n foo`.
func benchInput() *policy.Input {
	at := func(c policy.Command, col int) policy.Command { c.Pos = policy.Pos{Line: 1, Col: col}; return c }
	return &policy.Input{
		Source: "git status && ls -la src | grep -n foo",
		Commands: []policy.Command{
			at(cmd("git", "status"), 1),
			at(cmd("ls", "-la", "src"), 15),
			at(cmd("grep", "-n", "foo"), 28),
		},
		Cwd: "/repo", Root: "/repo",
	}
}

func benchEvaluate(b *testing.B, p *policy.Policy, want policy.Verdict) {
	in := benchInput()
	ctx := context.Background()
	if d := p.Evaluate(ctx, in); d.Verdict != want {
		b.Fatalf("Evaluate = %v, want %v: %v", d.Verdict, want, d.Reasons)
	}
	b.ReportAllocs()
	for b.Loop() {
		p.Evaluate(ctx, in)
	}
}

func BenchmarkEvaluateDefault(b *testing.B) {
	p, err := policy.Default()
	if err != nil {
		b.Fatal(err)
	}
	benchEvaluate(b, p, policy.Allow)
}

func BenchmarkEvaluateRego(b *testing.B) {
	dir := b.TempDir()
	writeFile(b, dir+"/small.rego", `package cmdguard

deny contains {"msg": "no sudo", "rule": "no-sudo", "command": i} if {
	some i, c in input.commands
	c.argv[0] == "sudo"
}
`)
	p, err := policy.Parse(dir+"/p.yaml", append(policy.DefaultYAML(), "rego: [small.rego]\n"...), dir)
	if err != nil {
		b.Fatal(err)
	}
	benchEvaluate(b, p, policy.Allow)
}

// prefixPolicy has n rules: the three the input needs, the rest made-up
// programs with subcommands.
func prefixPolicy(b *testing.B, n int) *policy.Policy {
	var sb strings.Builder
	sb.WriteString("version: 1\nallow: [git status, ls, grep]\ndeny:\n")
	for i := 3; i < n; i++ {
		fmt.Fprintf(&sb, "  - prog%d sub%d --flag%d\n", i%97, i, i%7)
	}
	p, err := policy.Parse("bench.yaml", []byte(sb.String()), "")
	if err != nil {
		b.Fatal(err)
	}
	if got := len(p.Prefixes()); got != n {
		b.Fatalf("policy has %d rules, want %d", got, n)
	}
	return p
}

func BenchmarkEvaluatePrefixes(b *testing.B) {
	for _, n := range []int{10, 1000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			benchEvaluate(b, prefixPolicy(b, n), policy.Allow)
		})
	}
}
