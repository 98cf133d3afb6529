package policy_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard/policy"
)

// TestSpellingAlone: without a Spelling (the policy used alone), a deny
// or ask rule with options matches any command its leading words match
// that has a word that could set an option: wider than the rule, never
// narrower. Allow rules stay exact.
func TestSpellingAlone(t *testing.T) {
	t.Parallel()
	p, err := policy.Parse("p.yaml", []byte("version: 1\ndefault: ask\n"+
		"deny: [rm -rf, git push --force, git branch -D, curl -o]\n"+
		"allow: [rm, git, curl, rm -rf build]\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		argv string
		want policy.Verdict
	}{
		{"rm -rf x", policy.Deny},
		{"rm --recursive --force x", policy.Deny},
		{"rm --rec --forc x", policy.Deny},
		{"/bin/rm x -fr", policy.Deny},
		{"rm -r x", policy.Deny}, // wider than the rule: the policy cannot tell -r from -rf
		{"rm -rf $X", policy.Deny},
		{"rm $X", policy.Deny},
		{"rm -rf build", policy.Allow}, // the longer allow rule, as written
		{"rm -fr build", policy.Deny},
		{"rm x", policy.Allow}, // no word sets an option
		{"git push origin +main", policy.Deny},
		{"git push --force-with-lease", policy.Deny},
		{"git push origin main", policy.Allow},
		{"git branch --delete --force x", policy.Deny},
		{"git branch x", policy.Allow},
		{"curl --output=f http://x", policy.Deny},
		{"curl http://x", policy.Allow},
	} {
		d := p.Evaluate(context.Background(), input(cmd(strings.Fields(tc.argv)...)))
		if d.Verdict != tc.want {
			t.Errorf("%s: %v, want %v (%v)", tc.argv, d.Verdict, tc.want, d.Reasons)
		}
	}
}
