package cmdguard_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/parser"
	"github.com/cmdguard/cmdguard/policy"
)

// FuzzCheck feeds random commands and random policies to the whole gate:
// it must never panic, and never allow a command whose analysis has a
// finding the policy rates deny (a parse error above all).
func FuzzCheck(f *testing.F) {
	f.Add("ls -la", testPolicy)
	f.Add("cat .env", "version: 1\ndefault: allow\n")
	f.Add("echo $(id)", "version: 1\ndefault: allow\nrules: {parser.command_substitution: ask}\n")
	f.Add("ls &&", "version: 1\ndefault: allow\n")
	f.Add("bash -c 'cd secrets && cat db.txt'", "version: 1\nallow: ['*']\n")
	f.Add("find . -exec cat {} +", "version: 1\nallow: [find]\nignore: [src/]\n")
	root := project(f, testPolicy)
	f.Fuzz(func(t *testing.T, cmd, yml string) {
		p, err := policy.Parse(filepath.Join(root, ".cmdguard.yaml"), []byte(yml), root)
		if err != nil {
			return // an invalid policy never builds a Guard: Open fails
		}
		g, err := cmdguard.New(p, root)
		if err != nil {
			return
		}
		d, err := g.Check(context.Background(), cmdguard.Request{Command: cmd, Cwd: root, BaseEnv: []string{"HOME=" + os.TempDir()}})
		if err != nil && d.Verdict != cmdguard.Deny {
			t.Fatalf("Check(%q) = %s with error %v", cmd, d.Verdict, err)
		}
		if d.Verdict != cmdguard.Allow {
			return
		}
		a := parser.Analyze(cmd, parser.Options{Cwd: root})
		for _, fd := range a.Findings {
			if fd.Rule == "parser.syntax" {
				t.Fatalf("Check(%q) = allow despite a syntax error at %v", cmd, fd.Pos)
			}
			if v, _ := p.RuleVerdict(fd.Rule); v != cmdguard.Allow {
				t.Fatalf("Check(%q) = allow despite finding %s (%s) rated %s", cmd, fd.Rule, fd.Message, v)
			}
		}
		if len(d.Commands) == 0 {
			t.Fatalf("Check(%q) = allow with no command", cmd)
		}
	})
}
