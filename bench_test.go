package cmdguard_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

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

// goExample is the policy of examples/policies/go with its Rego module.
const goExample = "go-example"

func benchGuard(b *testing.B, withRego any) (*cmdguard.Guard, string) {
	root := project(b, "version: 1\n") // replaced below
	var p *policy.Policy
	var err error
	switch withRego {
	case goExample:
		for _, name := range []string{".cmdguard.yaml", "rm.rego"} {
			data, err := os.ReadFile(filepath.Join("examples/policies/go", name))
			if err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, name), data, 0o644); err != nil {
				b.Fatal(err)
			}
		}
		p, err = policy.Load(filepath.Join(root, ".cmdguard.yaml"))
	case true:
		os.WriteFile(filepath.Join(root, "small.rego"), []byte(`package cmdguard

deny contains msg if {
	some c in input.commands
	c.argv[0] == "curl"
	msg := "no network"
}
`), 0o644)
		p, err = policy.Parse(filepath.Join(root, ".cmdguard.yaml"), []byte("version: 1\nallow: [git, go test, cat, grep, ls, find, sort, head, tail, wc, cd]\nrego: [small.rego]\n"), root)
	default:
		p, err = policy.Default()
	}
	if err != nil {
		b.Fatal(err)
	}
	g, err := cmdguard.New(p, root)
	if err != nil {
		b.Fatal(err)
	}
	// A warm Guard: files younger than the racy window are read again at
	// every check (see README), which a project at rest is not.
	time.Sleep(2100 * time.Millisecond)
	return g, root
}

// benchCheck checks cmds in turn (agentCommands when none) with the
// default policy, or withRego true: a small Rego module, or goExample.
func benchCheck(b *testing.B, withRego any, cmds ...string) {
	if len(cmds) == 0 {
		cmds = agentCommands
	}
	benchCheckFunc(b, withRego, func(i int) string { return cmds[i%len(cmds)] })
}

// benchCheckFunc checks next(0), next(1), … .
func benchCheckFunc(b *testing.B, withRego any, next func(i int) string) {
	g, root := benchGuard(b, withRego)
	ctx := context.Background()
	env := []string{"HOME=/home/dev", "PWD=" + root}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := g.Check(ctx, cmdguard.Request{Command: next(i), Cwd: root, BaseEnv: env}); err != nil {
			b.Fatal(err)
		}
	}
}

// fresh returns a next function for benchCheckFunc: cmds in turn, each
// with a number that no earlier check had, so that no string repeats
// (building it costs one allocation).
func fresh(cmds ...string) func(i int) string {
	return func(i int) string { return cmds[i%len(cmds)] + strconv.Itoa(i) }
}

// BenchmarkCheck is Guard.Check end to end with the default policy on a
// warm Guard, over agentCommands.
func BenchmarkCheck(b *testing.B) { benchCheck(b, false) }

// BenchmarkCheckRego is Guard.Check with one small Rego module.
func BenchmarkCheckRego(b *testing.B) { benchCheck(b, true) }

// typical is the command of issue 12's table.
const typical = "git status && go test ./... | tail -5"

// BenchmarkCheckTypical is the "typical command" row, default
// policy.
func BenchmarkCheckTypical(b *testing.B) { benchCheck(b, false, typical) }

// BenchmarkCheckTypicalCold is BenchmarkCheckTypical on command strings
// the Guard has never seen (the typical command with a new tail count
// each time, which the check's one extra allocation builds), so that
// every check runs the parser.
func BenchmarkCheckTypicalCold(b *testing.B) { benchCheckFunc(b, false, fresh(typicalTail)) }

// BenchmarkCheckTypicalRegoCold is BenchmarkCheckTypicalCold with one
// small Rego module.
func BenchmarkCheckTypicalRegoCold(b *testing.B) { benchCheckFunc(b, true, fresh(typicalTail)) }

// BenchmarkCheckTypicalGoExample is the typical command with the policy
// of examples/policies/go (its Rego module reads every command's argv).
func BenchmarkCheckTypicalGoExample(b *testing.B) { benchCheck(b, goExample, typical) }

// BenchmarkCheckTypicalGoExampleCold is the same on strings the Guard has
// never seen.
func BenchmarkCheckTypicalGoExampleCold(b *testing.B) {
	benchCheckFunc(b, goExample, fresh(typicalTail))
}

// BenchmarkCheckCold is BenchmarkCheck on strings the Guard has never
// seen: agentCommands, each ending in a numbered comment.
func BenchmarkCheckCold(b *testing.B) {
	cmds := make([]string, len(agentCommands))
	for i, c := range agentCommands {
		cmds[i] = c + " #"
	}
	benchCheckFunc(b, false, fresh(cmds...))
}

// BenchmarkCheckTypicalChurn is the analysis memo's worst case: 8,192
// typical strings in turn, more than it keeps, each back after 8,191
// others. Some are remembered at their second check (the memo cannot
// know they will not come back soon) and never used again: the memo is
// full of entries that only cost the garbage collector.
func BenchmarkCheckTypicalChurn(b *testing.B) {
	cmds := make([]string, 8192)
	for i := range cmds {
		cmds[i] = typicalTail + strconv.Itoa(i+1)
	}
	benchCheck(b, false, cmds...)
}

// typicalTail is typical without its tail count.
const typicalTail = "git status && go test ./... | tail -"

// BenchmarkCheckTypicalRego is the same with one small Rego module.
func BenchmarkCheckTypicalRego(b *testing.B) { benchCheck(b, true, typical) }

// BenchmarkCheckFiles is a command of file references only, for the
// stat count per reference (run under strace -c -f).
func BenchmarkCheckFiles(b *testing.B) {
	benchCheck(b, false, "cat src/main.go src/util.go docs/readme.md build/out.txt nested/public.txt")
}

// BenchmarkOpenCheck is what one `cmdguard check` process does besides
// starting: Open (policy, root ignore files) and one check of git status,
// in a project of 0 and of 5,000 files in 50 directories. The cost must
// not grow with the tree (scripts/scale.sh times the process itself up
// to 1M files).
func BenchmarkOpenCheck(b *testing.B) {
	for _, n := range []int{0, 5000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			root := b.TempDir()
			os.WriteFile(filepath.Join(root, ".cmdguard.yaml"), []byte("version: 1\nallow: [git status]\n"), 0o644)
			os.WriteFile(filepath.Join(root, ".cmdguardignore"), []byte(".env\n*.pem\n"), 0o644)
			for i := range n {
				dir := filepath.Join(root, fmt.Sprintf("d%02d", i/100))
				if i%100 == 0 {
					os.Mkdir(dir, 0o755)
					os.WriteFile(filepath.Join(dir, ".cmdguardignore"), []byte("*.secret\n"), 0o644)
				}
				if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.go", i%100)), nil, 0o644); err != nil {
					b.Fatal(err)
				}
			}
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				g, err := cmdguard.Open(root)
				if err != nil {
					b.Fatal(err)
				}
				if d, err := g.Check(ctx, cmdguard.Request{Command: "git status", Cwd: root}); err != nil || d.Verdict != cmdguard.Allow {
					b.Fatalf("git status = %s, %v", d.Verdict, err)
				}
			}
		})
	}
}

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
