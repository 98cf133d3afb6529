package cmdguard_test

import (
	"context"
	"testing"

	"github.com/cmdguard/cmdguard"
)

// TestDangerousOptionsThroughGate: the parser finds the options that make
// an allowed reader write or run a program, and the policy rates them,
// end to end under the embedded default policy (these rows were policy
// tests while the policy read argv itself).
func TestDangerousOptionsThroughGate(t *testing.T) {
	t.Parallel()
	root, _, _ := fixture(t, polDefault, false)
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd  string
		want bool // a policy.dangerous_option reason
	}{
		{`find . -name x -delete`, true},
		{`find . -exec rm {} \;`, true},
		{`find . -fprint out`, true},
		{`rg --pre=./x foo`, true},
		{`rg --pre ./x foo`, true},
		{`sort -uo out src/main.go`, true},
		{`git branch -D main`, true},
		{`git diff --output=/tmp/x`, true},
		{`go env -w GOFLAGS=x`, true},
		{`go test -exec ./evil`, true},
		{`sed -n '1w out' src/main.go`, true},
		{`awk 'BEGIN{system("id")}'`, true},
		{`find . -name '*.go'`, false},
		{`sort -u src/main.go`, false},
		{`git diff --stat`, false},
		{`git -C . diff --output=x`, true}, // git's global options do not hide it
	} {
		d, err := g.Check(context.Background(), cmdguard.Request{Command: tc.cmd, Cwd: root})
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, r := range d.Reasons {
			got = got || r.Rule == "policy.dangerous_option"
		}
		if got != tc.want || tc.want && d.Verdict == cmdguard.Allow {
			t.Errorf("Check(%q) = %v, dangerous_option %v; want %v\n%v", tc.cmd, d.Verdict, got, tc.want, d.Reasons)
		}
	}
}

// TestNestedGitProtected: a nested repository's config and hooks are
// protected like the project's own.
func TestNestedGitProtected(t *testing.T) {
	t.Parallel()
	root, _, _ := fixture(t, polUser, false)
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd  string
		want bool
	}{
		{`echo x > vendor/lib/.git/hooks/pre-commit`, true},
		{`echo x >> vendor/lib/.git/config`, true},
		{`echo x > vendor/lib/.gitignore`, false},
		{`echo x > vendor/lib/x.git/config`, false},
	} {
		d, err := g.Check(context.Background(), cmdguard.Request{Command: tc.cmd, Cwd: root})
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, r := range d.Reasons {
			got = got || r.Rule == "path.protected"
		}
		if got != tc.want {
			t.Errorf("Check(%q): path.protected %v, want %v\n%v", tc.cmd, got, tc.want, d.Reasons)
		}
	}
}

// TestEnvSafeThroughGate: env_safe in the policy reaches the parser.
func TestEnvSafeThroughGate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		policy string
		want   cmdguard.Verdict
	}{
		{"version: 1\nallow: [ls]\n", cmdguard.Ask},
		{"version: 1\nallow: [ls]\nenv_safe: [MYAPP_*]\n", cmdguard.Allow},
		{"version: 1\nallow: [ls]\nenv_safe: [LD_PRELOAD, MYAPP_*]\n", cmdguard.Deny}, // code stays code
	} {
		root, _, _ := fixture(t, tc.policy, false)
		g, err := cmdguard.Open(root)
		if err != nil {
			t.Fatal(err)
		}
		cmd := "MYAPP_MODE=1 ls"
		if tc.want == cmdguard.Deny {
			cmd = "LD_PRELOAD=x.so MYAPP_MODE=1 ls"
		}
		d, err := g.Check(context.Background(), cmdguard.Request{Command: cmd, Cwd: root})
		if err != nil {
			t.Fatal(err)
		}
		if d.Verdict != tc.want {
			t.Errorf("policy %q: Check(%q) = %v, want %v\n%v", tc.policy, cmd, d.Verdict, tc.want, d.Reasons)
		}
	}
}
