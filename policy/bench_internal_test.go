package policy

import (
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
)

// BenchmarkInputValue compares building the Rego input as an ast.Value
// directly with OPA's generic conversion (a JSON round trip for structs).
func BenchmarkInputValue(b *testing.B) {
	c := Command{Argv: []string{"cat", "a.txt"}, MatchArgv: []string{"cat", "a.txt"}, Dynamic: []bool{false, false},
		Files: []File{{Path: "a.txt", Written: "a.txt", Kind: "arg", Exists: true}}}
	in := &Input{Source: "cat a.txt | grep x", Commands: []Command{c, c, c}, Cwd: "/r", Root: "/r"}
	b.Run("direct", func(b *testing.B) {
		k := newKeyTerms()
		b.ReportAllocs()
		for b.Loop() {
			k.inputValue(in)
		}
	})
	b.Run("json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := ast.InterfaceToValue(in); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func TestInputValueMatchesJSON(t *testing.T) {
	t.Parallel()
	c := Command{Argv: []string{"cat", "a.txt"}, MatchArgv: []string{"cat", "a.txt"}, Dynamic: []bool{false, false},
		Wrappers: []string{"sudo"}, Redirects: []Redirect{{Op: ">", Target: "o", Write: true}},
		Files: []File{{Path: "a.txt", Written: "a.txt", Kind: "arg", Exists: true, IgnoredBy: "x:1"}, {Path: "b"}}}
	in := &Input{Source: "s", Commands: []Command{c}, Findings: []Finding{{Rule: "r", Message: "m"}}, Cwd: "/r", Root: "/r"}
	want, err := ast.InterfaceToValue(in)
	if err != nil {
		t.Fatal(err)
	}
	if got := newKeyTerms().inputValue(in); got.Compare(want) != 0 {
		t.Errorf("inputValue mismatch:\n got %v\nwant %v", got, want)
	}
}
