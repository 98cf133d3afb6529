package policy_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard/policy"
)

const examplesDir = "../examples/policies"

// TestExamplePolicies loads every example policy, runs its Rego unit
// tests with RunTests (as "cmdguard policy test" does), and checks a few
// decisions end to end.
func TestExamplePolicies(t *testing.T) {
	t.Parallel()
	type check struct {
		argv    string
		dynamic []int // indexes of dynamic words
		files   []policy.File
		redirs  []policy.Redirect
		want    policy.Verdict
	}
	hook := policy.Redirect{Op: ">", Target: ".git/hooks/pre-commit", Write: true}
	tests := []struct {
		dir    string
		checks []check
	}{
		{"read-only", []check{
			{argv: "ls -la", want: policy.Allow},
			{argv: "find . -name *.go", want: policy.Allow},
			{argv: "find . -name x -delete", want: policy.Deny},
			{argv: "find . -exec cat {} ;", want: policy.Deny},
			{argv: "touch x", want: policy.Deny},
		}},
		{"go", []check{
			{argv: "go test ./...", want: policy.Allow},
			{argv: "rm x.out", want: policy.Ask},
			{argv: "rm -fr build", want: policy.Deny},
			{argv: "rm --recursive -v --force build", want: policy.Deny},
			{argv: "rm $X build", dynamic: []int{1}, want: policy.Ask},
			{argv: "git push --force", want: policy.Deny},
		}},
		{"node", []check{
			{argv: "npm test", want: policy.Allow},
			{argv: "curl -I https://registry.npmjs.org", want: policy.Allow},
			{argv: "curl -I -H Authorization:$NPM_TOKEN https://registry.npmjs.org", dynamic: []int{3}, want: policy.Ask},
			{argv: "npm install left-pad", want: policy.Ask},
			{argv: "npm publish", want: policy.Deny},
		}},
		{"strict-ci", []check{
			{argv: "go test ./...", want: policy.Allow},
			{argv: "make deploy", want: policy.Deny},
			{argv: "echo x", redirs: []policy.Redirect{hook}, want: policy.Deny},
			{argv: "cat .git/hooks/pre-commit", files: []policy.File{{Path: ".git/hooks/pre-commit", Kind: "arg"}}, want: policy.Allow},
			{argv: "cat README.md", want: policy.Allow},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.dir, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(examplesDir, tt.dir)
			p := mustLoad(t, filepath.Join(dir, policy.FileName))
			if !p.HasRego() {
				t.Errorf("%s: no Rego module", dir)
			}
			diags, err := policy.Lint(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range diags {
				if d.Severity == "error" || strings.HasSuffix(d.File, ".rego") {
					t.Errorf("Lint(%q): %v", dir, d)
				}
			}
			results, err := policy.RunTests(context.Background(), dir)
			if err != nil {
				t.Fatalf("RunTests(%q): %v", dir, err)
			}
			if len(results) < 5 {
				t.Errorf("RunTests(%q) ran %d tests, want at least 5", dir, len(results))
			}
			for _, r := range results {
				if !r.Pass() {
					t.Errorf("%s:%d: %s %s: %s %s", r.File, r.Line, r.Name, r.Status, r.Error, r.Output)
				}
			}
			for _, c := range tt.checks {
				cm := cmd(strings.Fields(c.argv)...)
				clear(cm.Dynamic)
				for _, i := range c.dynamic {
					cm.Dynamic[i] = true
				}
				cm.Files, cm.Redirects = c.files, c.redirs
				d := p.Evaluate(context.Background(), input(cm))
				if d.Verdict != c.want {
					t.Errorf("%s: Evaluate(%q) = %v, want %v\n%v", tt.dir, c.argv, d.Verdict, c.want, d.Reasons)
				}
			}
		})
	}
}

// TestExamplePoliciesTogether runs every example's tests in one run, as
// "opa test examples/policies" does: the modules share package cmdguard,
// so each test must hold with the others' rules present.
func TestExamplePoliciesTogether(t *testing.T) {
	t.Parallel()
	results, err := policy.RunTests(context.Background(), examplesDir)
	if err != nil {
		t.Fatalf("RunTests(%q): %v", examplesDir, err)
	}
	if len(results) < 20 {
		t.Errorf("RunTests(%q) ran %d tests, want at least 20", examplesDir, len(results))
	}
	for _, r := range results {
		if !r.Pass() {
			t.Errorf("%s:%d: %s %s: %s", r.File, r.Line, r.Name, r.Status, r.Error)
		}
	}
}
