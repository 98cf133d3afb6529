package cmdguard

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSandboxEnforcedDifferential: every finding the gate marks
// enforced_by: sandbox is lifted to an allow only because the sandbox
// really enforces it (issue 24). Each row is first run for real without
// the gate and without the sandbox, and does the damage (the secret is in
// the output, or the protected file changes); then the gate is asked as
// for a sandboxed run, must allow it only through reasons marked
// enforced_by: sandbox, and Guard.Run runs it under the sandbox: the
// secret is not in the output and the protected file is unchanged. CI
// runs it as root and as an unprivileged user (its name holds Sandbox).
func TestSandboxEnforcedDifferential(t *testing.T) {
	t.Parallel()
	rows := []struct {
		name, cmd string
		rule      string
		protected string // a file that must not change; "" for a read
	}{
		{"read of a hidden file", "cat .env", "ignore.denied", ""},
		{"read through a glob", "cat .e?v", "ignore.denied", ""},
		{"recursive read of a tree with hidden entries", "grep -r API_KEY .", "ignore.contains_ignored", ""},
		{"unknown argument of a reader", "find . -name '.env' | xargs cat", "ignore.unknown_ref", ""},
		{"unknown argument of a reader, another", "find . -name '.e*' | xargs head", "ignore.unknown_ref", ""},
		{"write to the ignore file", "echo '!.env' >> .cmdguardignore", "path.protected", ".cmdguardignore"},
		{"write to git's config", "printf '[core]\\n\\tpager = touch PWNED\\n' >> .git/config", "path.protected", ".git/config"},
		{"write of a hook", "printf '#!/bin/sh\\ntouch PWNED\\n' > .git/hooks/pre-commit", "path.protected", ".git/hooks/pre-commit"},
		{"write to the policy", "echo 'default: allow' >> .cmdguard.yaml", "path.protected", ".cmdguard.yaml"},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			t.Parallel()
			p := newSBProject(t, "version: 1\ndefault: allow\nignore: [.env]\n", false)
			read := func(name string) []byte {
				b, _ := os.ReadFile(filepath.Join(p.root, name))
				return b
			}
			// Without the gate and the sandbox, the row does its damage.
			p0 := newSBProject(t, "version: 1\ndefault: allow\nignore: [.env]\n", false)
			before0 := read(row.protected)
			res, err := p0.run(row.cmd, false)
			if err != nil {
				t.Fatal(err)
			}
			if row.protected == "" {
				if !strings.Contains(sbOutput(res), sbSecret) {
					t.Fatalf("unsandboxed, %q did not print the secret: the row proves nothing\n%s", row.cmd, sbOutput(res))
				}
			} else if after, _ := os.ReadFile(filepath.Join(p0.root, row.protected)); bytes.Equal(before0, after) {
				t.Fatalf("unsandboxed, %q did not change %s: the row proves nothing", row.cmd, row.protected)
			}
			// The gate lifts the finding for a sandboxed run, and says why.
			g := p.guard()
			defer g.Close(context.Background())
			d, err := g.Check(context.Background(), Request{Command: row.cmd, BaseEnv: p.env(), Sandboxed: true})
			if err != nil || d.Verdict != Allow {
				t.Fatalf("sandboxed check of %q: %s, %v: %s", row.cmd, d.Verdict, err, d.Summary())
			}
			lifted := false
			for _, r := range d.Reasons {
				if r.Rule == row.rule && r.EnforcedBy == "sandbox" && strings.HasPrefix(r.Message, "allowed: the sandbox ") {
					lifted = true
				}
			}
			if !lifted {
				t.Fatalf("sandboxed check of %q: no %s reason enforced by the sandbox: %+v", row.cmd, row.rule, d.Reasons)
			}
			// Unsandboxed, the same finding is the gate's.
			if d, _ := g.Check(context.Background(), Request{Command: row.cmd, BaseEnv: p.env()}); d.Verdict == Allow {
				t.Fatalf("unsandboxed check of %q is an allow: %s", row.cmd, d.Summary())
			}
			// Run for real under the sandbox: nothing leaks, nothing changes.
			before := read(row.protected)
			_, res, err = g.Run(context.Background(), RunRequest{Request: Request{Command: row.cmd, BaseEnv: p.env()}, Sandbox: true})
			if err != nil {
				t.Fatalf("Run %q: %v", row.cmd, err)
			}
			if res.Sandbox == nil || !res.Sandbox.Applied {
				t.Fatalf("Run %q: not sandboxed: %+v", row.cmd, res.Sandbox)
			}
			if strings.Contains(sbOutput(res), sbSecret) {
				t.Errorf("sandboxed %q printed the secret:\n%s", row.cmd, sbOutput(res))
			}
			if row.protected != "" && !bytes.Equal(before, read(row.protected)) {
				t.Errorf("sandboxed %q changed %s", row.cmd, row.protected)
			}
			if _, err := os.Stat(filepath.Join(p.root, "PWNED")); err == nil {
				t.Errorf("sandboxed %q: PWNED exists", row.cmd)
			}
		})
	}
}
