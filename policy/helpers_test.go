package policy_test

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard/parser"
	"github.com/cmdguard/cmdguard/policy"
)

// Test helpers shared by the package's test files.

// withHit gives c the parser's finding of a guarded option at index i of
// its argv (none for 0), as the gate would.
func withHit(c policy.Command, i int) policy.Command {
	if i > 0 {
		c.OptionHits = []policy.OptionHit{{Index: i, What: c.Argv[0] + " " + c.Argv[i], Why: "writes a file or runs a program"}}
	}
	return c
}

// withCommand fills the expected Reason.Command of prefix-rule and Rego
// reasons: the index plus one of the input command at the reason's
// position (every test input here has its commands at distinct
// positions; a Rego reason that names no command has no position).
func withCommand(in *policy.Input, want []policy.Reason) []policy.Reason {
	if in == nil {
		return want
	}
	out := slices.Clone(want)
	for i, r := range out {
		if !strings.HasPrefix(r.Rule, "policy.") && !strings.HasPrefix(r.Rule, "rego.") {
			continue
		}
		for ci, c := range in.Commands {
			if c.Pos == r.Pos {
				out[i].Command = ci + 1
			}
		}
	}
	return out
}

func writeFile(t testing.TB, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// mustParse parses src with the parser's reader of option spellings, as
// the cmdguard package wires it (policy alone reads none; see
// TestSpellingAlone).
func mustParse(t testing.TB, src string) *policy.Policy {
	t.Helper()
	p, err := policy.Parse("p.yaml", []byte(src), t.TempDir(), policy.WithSpelling(policy.Spelling{Command: parser.CommandSpelling, Rule: parser.RuleSpelling}))
	if err != nil {
		t.Fatalf("Parse: %v\n%s", err, src)
	}
	return p
}

func input(cmds ...policy.Command) *policy.Input {
	return &policy.Input{Commands: cmds}
}

// cmd builds a Command; words starting with '$' are dynamic.
func cmd(words ...string) policy.Command {
	c := policy.Command{Argv: words, MatchArgv: words, Dynamic: make([]bool, len(words))}
	for i, w := range words {
		c.Dynamic[i] = strings.HasPrefix(w, "$")
	}
	return c
}

func mustLoad(t testing.TB, path string) *policy.Policy {
	t.Helper()
	p, err := policy.Load(path)
	if err != nil {
		t.Fatalf("Load(%q): %v", path, err)
	}
	return p
}
