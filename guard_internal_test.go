package cmdguard

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/cmdguard/cmdguard/policy"
)

// TestPanicDenies makes each stage of a check panic: the result is a deny
// with reason gate.panic and an error, never an allow.
func TestPanicDenies(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := policy.Parse("p.yaml", []byte("version: 1\ndefault: allow\n"), root)
	if err != nil {
		t.Fatal(err)
	}
	for _, stage := range []string{"analyze", "policy"} {
		g, err := New(p, root)
		if err != nil {
			t.Fatal(err)
		}
		if d, err := g.Check(context.Background(), Request{Command: "cat a.txt"}); err != nil || d.Verdict != Allow {
			t.Fatalf("without a panic: Check = %s, %v; want allow", d.Verdict, err)
		}
		g.stageHook = func(s string) {
			if s == stage {
				panic("boom in " + s)
			}
		}
		for _, explain := range []bool{false, true} {
			d, err := g.check(context.Background(), Request{Command: "cat a.txt"}, explain)
			if err == nil || d.Verdict != Deny || len(d.Reasons) != 1 || d.Reasons[0].Rule != "gate.panic" {
				t.Errorf("panic in %s (explain %v): Check = %s %+v, %v; want deny gate.panic and an error", stage, explain, d.Verdict, d.Reasons, err)
			}
		}
	}
}
