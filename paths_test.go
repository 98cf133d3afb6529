package cmdguard_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/cmdguard/cmdguard"
)

func TestCheckFile(t *testing.T) {
	t.Parallel()
	root := project(t, "version: 1\ndefault: ask\nallow: [ls]\n")
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path  string
		write bool
		rec   bool
		want  cmdguard.Verdict
		rule  string
	}{
		{path: "src/main.go", want: cmdguard.Allow},
		{path: filepath.Join(root, "src/main.go"), write: true, want: cmdguard.Allow},
		{path: "src/new.go", write: true, want: cmdguard.Allow},
		{path: ".env", want: cmdguard.Deny, rule: "ignore.denied"},
		{path: filepath.Join(root, ".env"), want: cmdguard.Deny, rule: "ignore.denied"},
		{path: "src/../.env", want: cmdguard.Deny, rule: "ignore.denied"},
		{path: "innocent.txt", want: cmdguard.Deny, rule: "ignore.denied"}, // symlink to .env
		{path: "data/db.txt", want: cmdguard.Deny, rule: "ignore.denied"},  // through a symlinked directory
		{path: "secrets/new.txt", write: true, want: cmdguard.Deny, rule: "ignore.denied"},
		{path: "keys/server.pem", want: cmdguard.Deny, rule: "ignore.denied"},
		{path: "nested/private.txt", want: cmdguard.Deny, rule: "ignore.denied"},
		{path: "nested/public.txt", want: cmdguard.Allow},
		{path: ".git/hooks/pre-commit", write: true, want: cmdguard.Deny, rule: "path.protected"},
		{path: ".cmdguardignore", write: true, want: cmdguard.Deny, rule: "path.protected"},
		{path: ".cmdguard.yaml", write: true, want: cmdguard.Deny, rule: "path.protected"},
		{path: ".cmdguard.yaml", want: cmdguard.Allow}, // reading the policy is fine
		{path: "/etc/hostname", want: cmdguard.Ask, rule: "path.outside_root"},
		{path: "../x", write: true, want: cmdguard.Ask, rule: "path.outside_root"},
		{path: "", want: cmdguard.Deny, rule: "gate.error"},
		{path: ".", rec: true, want: cmdguard.Ask, rule: "ignore.contains_ignored"},
		{path: "src", rec: true, want: cmdguard.Allow},
		{path: "secrets", rec: true, want: cmdguard.Deny, rule: "ignore.denied"},
		{path: "src/main.go", rec: true, want: cmdguard.Allow},
	}
	for _, tt := range tests {
		d, err := g.CheckFile(context.Background(), cmdguard.FileRequest{Path: tt.path, Cwd: root, Write: tt.write, Recursive: tt.rec})
		if d.Verdict != tt.want {
			t.Errorf("CheckFile(%q, write=%v) = %s, want %s (%s, err %v)", tt.path, tt.write, d.Verdict, tt.want, d.Summary(), err)
			continue
		}
		if tt.rule == "" {
			if len(d.Reasons) != 0 {
				t.Errorf("CheckFile(%q): reasons %v, want none", tt.path, d.Reasons)
			}
			continue
		}
		if len(d.Reasons) == 0 || d.Reasons[0].Rule != tt.rule {
			t.Errorf("CheckFile(%q): reasons %v, want first %s", tt.path, d.Reasons, tt.rule)
		}
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
