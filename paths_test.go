package cmdguard_test

import (
	"context"
	"testing"

	"github.com/cmdguard/cmdguard"
)

// TestCheckFileFailsClosed: CheckFile with a cancelled context, and on a
// nil Guard, denies. (CheckFile's verdicts on a project are the scenario
// testdata/gate/checkfile.txtar.)
func TestCheckFileFailsClosed(t *testing.T) {
	t.Parallel()
	root := project(t, "version: 1\ndefault: ask\nallow: [ls]\n")
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if d, err := g.CheckFile(ctx, cmdguard.FileRequest{Path: "src/main.go", Cwd: root}); d.Verdict != cmdguard.Deny || err == nil {
		t.Errorf("CheckFile with a cancelled context = %s, %v; want deny and an error", d.Verdict, err)
	}
	var zero *cmdguard.Guard
	if d, _ := zero.CheckFile(context.Background(), cmdguard.FileRequest{Path: "x"}); d.Verdict != cmdguard.Deny {
		t.Errorf("nil Guard CheckFile = %s, want deny", d.Verdict)
	}
}
