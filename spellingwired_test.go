package cmdguard_test

import (
	"testing"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/policy"
)

// TestSpellingWired: the Guard loads policy files with the parser's
// reader of option spellings (PolicyOptions), so that a deny rule matches
// every spelling of its options and only those: rm -r is not rm -rf
// (the policy alone would deny it, wider).
func TestSpellingWired(t *testing.T) {
	t.Parallel()
	const src = "version: 1\ndefault: ask\nallow: [rm, git, curl, wget]\ndeny: [rm -rf, git push --force, git branch -D, curl -o, wget -O]\n"
	cases := []verdictCase{
		{"rm -fr build", cmdguard.Deny, "policy.deny"},
		{"rm --rec --force build", cmdguard.Deny, "policy.deny"},
		{"git branch --delete --force x", cmdguard.Deny, "policy.deny"},
		{"git push origin +main", cmdguard.Deny, "policy.deny"},
		{"curl -sSLo f http://127.0.0.1/", cmdguard.Deny, "policy.deny"},
		{"git push --force-with-lease", cmdguard.Deny, "policy.deny"},
		{"git push --mirror origin", cmdguard.Deny, "policy.deny"},
		{"curl -K cfg http://127.0.0.1/", cmdguard.Deny, "policy.deny"}, // cfg may say output = f
		{"wget -e output_document=f http://127.0.0.1/", cmdguard.Deny, "policy.deny"},
		{"rm -r build", cmdguard.Allow, ""},
		{"rm -v build/x", cmdguard.Allow, ""},
		{"git branch --list", cmdguard.Allow, ""},
		{"git push --follow-tags", cmdguard.Allow, ""},
		{"curl -sS http://127.0.0.1/", cmdguard.Allow, ""},
	}
	root := project(t, src)
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	checkVerdicts(t, g, cases)

	p, err := policy.Parse("p.yaml", []byte(src), root, cmdguard.PolicyOptions()...)
	if err != nil {
		t.Fatal(err)
	}
	g, err = cmdguard.New(p, root)
	if err != nil {
		t.Fatal(err)
	}
	checkVerdicts(t, g, cases)
}
