package cmdguard_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/policy"
)

// agentCommands are typical commands an agent proposes (30–200 chars),
// file references included.
var agentCommands = []string{
	"git status && git diff --stat",
	"go test ./... 2>&1 | tail -n 50",
	"cat src/main.go src/util.go | head -n 40",
	"grep -rn 'TODO' src --include=*.go | head -20",
	"cd src && ls -la && wc -l main.go util.go",
	"find src -name '*.go' -type f | sort",
	"git log --oneline -n 20 -- docs/readme.md",
	"ls -la docs build && cat build/out.txt 2>/dev/null",
}

func benchGuard(b *testing.B, withRego bool) (*cmdguard.Guard, string) {
	root := project(b, "version: 1\n") // replaced below
	var p *policy.Policy
	var err error
	if withRego {
		os.WriteFile(filepath.Join(root, "small.rego"), []byte(`package cmdguard

deny contains msg if {
	some c in input.commands
	c.argv[0] == "curl"
	msg := "no network"
}
`), 0o644)
		p, err = policy.Parse(filepath.Join(root, ".cmdguard.yaml"), []byte("version: 1\nallow: [git, go test, cat, grep, ls, find, sort, head, tail, wc, cd]\nrego: [small.rego]\n"), root)
	} else {
		p, err = policy.Default()
	}
	if err != nil {
		b.Fatal(err)
	}
	g, err := cmdguard.New(p, root)
	if err != nil {
		b.Fatal(err)
	}
	return g, root
}

func benchCheck(b *testing.B, withRego bool) {
	g, root := benchGuard(b, withRego)
	ctx := context.Background()
	env := []string{"HOME=/home/dev", "PWD=" + root}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		cmd := agentCommands[i%len(agentCommands)]
		if _, err := g.Check(ctx, cmdguard.Request{Command: cmd, Cwd: root, BaseEnv: env}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheck is Guard.Check end to end with the default policy.
// Target: ≤ 10 µs/op.
func BenchmarkCheck(b *testing.B) { benchCheck(b, false) }

// BenchmarkCheckRego is Guard.Check with one small Rego module.
// Target: ≤ 35 µs/op.
func BenchmarkCheckRego(b *testing.B) { benchCheck(b, true) }

// BenchmarkGuardStartTrue measures check + start → exit of `true` through
// Guard.Start and Process.Wait: what an adapter pays per command. Compare
// with exec's BenchmarkStartTrue.
func BenchmarkGuardStartTrue(b *testing.B) {
	root := project(b, testPolicy)
	g, err := cmdguard.Open(root)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	req := cmdguard.RunRequest{Request: cmdguard.Request{Command: "true", Cwd: root, BaseEnv: []string{}}}
	b.ReportAllocs()
	for b.Loop() {
		_, p, err := g.Start(ctx, req)
		if err != nil {
			b.Fatal(err)
		}
		r, _ := p.Wait(ctx)
		p.Release()
		if r.ExitCode == nil || *r.ExitCode != 0 {
			b.Fatalf("true: %s", r.Explain())
		}
	}
}
