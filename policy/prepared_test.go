package policy

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

func withRego(t *testing.T) *Policy {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "p.rego"), []byte("package cmdguard\n\ndeny contains \"x\" if input.commands[0].argv[0] == \"rm\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Parse(filepath.Join(dir, ".cmdguard.yaml"), []byte("version: 1\nrego: [p.rego]\n"), dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPrepared: an input evaluated with a Prepared is the same Rego
// document as without it, whether its commands match the prepared ones or
// differ in any field the Prepared holds; a matching command without files
// reuses the prepared term.
func TestPrepared(t *testing.T) {
	t.Parallel()
	p, other := withRego(t), withRego(t)
	base := []Command{
		{Argv: []string{"git", "-C", ".", "log"}, MatchArgv: []string{"git", "log"}, Dynamic: []bool{false, false, false, false},
			Pos: Pos{Line: 1, Col: 1}, Wrappers: []string{}, Redirects: []Redirect{{Op: ">", Target: "out", Write: true, Pos: Pos{Line: 1, Col: 20}}}, Cwd: "/r"},
		{Argv: []string{"cat", "$F"}, MatchArgv: []string{"cat", "$F"}, Dynamic: []bool{false, true}, Pos: Pos{Line: 1, Col: 30},
			Wrappers: []string{"sudo"}, Redirects: []Redirect{}, Cwd: "/r/src"},
	}
	base[1].MatchArgv = base[1].Argv
	prep := p.Prepare(base)
	clone := func() []Command {
		cs := make([]Command, len(base))
		for i, c := range base {
			c.Argv = append([]string{}, c.Argv...)
			c.MatchArgv = append([]string{}, c.MatchArgv...)
			c.Dynamic = append([]bool{}, c.Dynamic...)
			c.Wrappers = append([]string{}, c.Wrappers...)
			c.Redirects = append([]Redirect{}, c.Redirects...)
			cs[i] = c
		}
		return cs
	}
	changes := map[string]func(cs []Command) []Command{
		"same": func(cs []Command) []Command { return cs },
		"files": func(cs []Command) []Command {
			cs[1].Files = []File{{Path: "src/.env", Written: "$F", Kind: "arg", Ignored: true, IgnoredBy: ".cmdguardignore:1"}}
			return cs
		},
		"argv":       func(cs []Command) []Command { cs[1].Argv[0] = "rm"; return cs },
		"match_argv": func(cs []Command) []Command { cs[0].MatchArgv[1] = "push"; return cs },
		"dynamic":    func(cs []Command) []Command { cs[1].Dynamic[1] = false; return cs },
		"pos":        func(cs []Command) []Command { cs[0].Pos.Col = 2; return cs },
		"wrappers":   func(cs []Command) []Command { cs[1].Wrappers = nil; return cs },
		"redirects":  func(cs []Command) []Command { cs[0].Redirects[0].Write = false; return cs },
		"cwd":        func(cs []Command) []Command { cs[1].Cwd = "/r"; return cs },
		"more":       func(cs []Command) []Command { return append(cs, cs[0]) },
		"fewer":      func(cs []Command) []Command { return cs[1:] },
		"order":      func(cs []Command) []Command { return []Command{cs[1], cs[0]} },
	}
	for name, change := range changes {
		for _, pr := range []*Prepared{prep, other.Prepare(base)} {
			in := &Input{Source: "s", Commands: change(clone()), Findings: []Finding{}, Cwd: "/r", Root: "/r"}
			want := p.rego.keys.inputValue(in)
			in.Prepared = pr
			got := p.rego.keys.inputValue(in)
			if want.Compare(got) != 0 {
				t.Errorf("%s (own prepared %v): with Prepared\n%v\nwant\n%v", name, pr == prep, got, want)
			}
		}
	}
	in := &Input{Commands: clone(), Prepared: prep}
	cmds := p.rego.keys.inputValue(in).(ast.Object).Get(ast.StringTerm("commands")).Value.(*ast.Array)
	if cmds.Elem(0) != prep.cmds[0].whole || cmds.Elem(1) != prep.cmds[1].whole {
		t.Error("matching commands without files do not reuse their prepared terms")
	}
	if (&Policy{}).Prepare(base) != nil {
		t.Error("a policy without Rego prepares terms")
	}
}
