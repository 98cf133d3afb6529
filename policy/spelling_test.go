package policy_test

import (
	"context"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard/policy"
)

// TestDenyEverySpelling: deny and ask rules match every spelling bash
// and getopt accept for the same command; allow rules stay exact.
func TestDenyEverySpelling(t *testing.T) {
	t.Parallel()
	const src = "version: 1\ndefault: ask\n" +
		"deny: [rm -rf, git push --force, git add -A, git branch -D, curl -o]\n" +
		"ask: [git clean -f]\n" +
		"allow: [rm, git push, git add, ls, rm -rf build, git branch]\n"
	p := mustParse(t, src)
	for _, tc := range []struct {
		argv string
		want policy.Verdict
	}{
		{"rm -rf x", policy.Deny},
		{"rm -fr x", policy.Deny},
		{"rm -Rf x", policy.Deny},
		{"rm -r -f x", policy.Deny},
		{"rm -f -R x", policy.Deny},
		{"rm -v -rf x", policy.Deny},
		{"rm -rvf x", policy.Deny},
		{"rm --recursive --force x", policy.Deny},
		{"rm --rec --forc x", policy.Deny},
		{"rm --force -r x", policy.Deny},
		{"rm x -rf", policy.Deny},
		{"rm x -r y -f", policy.Deny},
		{"/bin/rm -rf x", policy.Deny},
		{"./rm x -fr", policy.Deny},
		{"rm -r x", policy.Allow},
		{"rm -f x", policy.Allow},
		{"rm x", policy.Allow},
		{"rm -- -rf", policy.Allow},    // after --, -rf is a file
		{"rm -rf build", policy.Allow}, // the longer allow names the same options
		{"rm -fr build", policy.Deny},  // allow is exact: another spelling is not allowed
		{"rm -rf build x", policy.Allow},
		{"rm -rf $X", policy.Deny},
		{"rm -f $X", policy.Deny}, // $X could be -r
		{"git push -f", policy.Deny},
		{"git push --force", policy.Deny},
		{"git push --forc", policy.Deny},
		{"git push origin main --force", policy.Deny},
		{"git push origin main -f", policy.Deny},
		{"git push origin +main", policy.Deny},
		{"git push origin main", policy.Allow},
		{"git push --follow-tags", policy.Allow},
		{"git add --all", policy.Deny},
		{"git add . -A", policy.Deny},
		{"git add -u", policy.Allow},
		{"git branch --delete --force x", policy.Deny},
		{"git branch -D x", policy.Deny},
		{"git branch -df x", policy.Deny},
		{"git branch -d x", policy.Allow},
		{"git clean -fdx", policy.Ask},
		{"git clean --force", policy.Ask},
		{"git clean -n", policy.Ask}, // no rule: the default
		{"curl --output f http://x", policy.Deny},
		{"curl http://x --output=f", policy.Deny},
		{"curl -sSLo f http://x", policy.Deny},
		{"/usr/bin/curl -o f http://x", policy.Deny},
		{"/usr/bin/ls", policy.Ask}, // path-qualified never matches allow
		{"ls -la", policy.Allow},
	} {
		argv := strings.Fields(tc.argv)
		d := p.Evaluate(context.Background(), input(cmd(argv...)))
		if d.Verdict != tc.want {
			t.Errorf("%s: %v, want %v (%v)", tc.argv, d.Verdict, tc.want, d.Reasons)
		}
	}
}

// TestDenyUnseenArguments: arguments the gate cannot see (xargs stdin,
// find -exec {}) may complete a deny or ask rule.
func TestDenyUnseenArguments(t *testing.T) {
	t.Parallel()
	p := mustParse(t, "version: 1\ndeny: [git add -A, git push --force]\nask: [curl]\nallow: [git add, git]\n")
	for _, tc := range []struct {
		argv string
		open bool
		want policy.Verdict
	}{
		{"git add", true, policy.Deny},
		{"git add", false, policy.Allow},
		{"git", true, policy.Deny}, // stdin could say push --force
		{"git status", true, policy.Allow},
		{"git add -u", true, policy.Deny},
	} {
		c := cmd(strings.Fields(tc.argv)...)
		c.Open = tc.open
		if d := p.Evaluate(context.Background(), input(c)); d.Verdict != tc.want {
			t.Errorf("%s (open %v): %v, want %v (%v)", tc.argv, tc.open, d.Verdict, tc.want, d.Reasons)
		}
	}
}

// TestUnknownRunnerAsks: under default: allow, a program no rule names
// whose first operand is a program a deny or ask rule names asks.
func TestUnknownRunnerAsks(t *testing.T) {
	t.Parallel()
	p := mustParse(t, "version: 1\ndefault: allow\ndeny: [rm -rf]\nask: [curl]\nallow: [echo]\n")
	for _, tc := range []struct {
		argv string
		want policy.Verdict
	}{
		{"mywrap rm -rf x", policy.Ask},
		{"mywrap -q /bin/rm x", policy.Ask},
		{"tool curl http://x", policy.Ask},
		{"tool build x", policy.Allow},
		{"echo rm -rf x", policy.Allow}, // an allow rule names echo
	} {
		d := p.Evaluate(context.Background(), input(cmd(strings.Fields(tc.argv)...)))
		if d.Verdict != tc.want {
			t.Errorf("%s: %v, want %v (%v)", tc.argv, d.Verdict, tc.want, d.Reasons)
		}
	}
}

// TestSpellingNeverLoosens: another spelling of an ask rule must not lift
// a stricter default (found by FuzzMatch: git rm rm -rf "could be" git -f,
// and the ask replaced default: deny).
func TestSpellingNeverLoosens(t *testing.T) {
	t.Parallel()
	p := mustParse(t, "version: 1\ndefault: deny\nask: [git -f]\n")
	d := p.Evaluate(context.Background(), input(cmd("git", "rm", "rm", "-rf")))
	if d.Verdict != policy.Deny {
		t.Errorf("git rm rm -rf with ask: [git -f], default: deny = %s %+v; want deny", d.Verdict, d.Reasons)
	}
	p = mustParse(t, "version: 1\ndefault: allow\nask: [git -f]\n")
	if d := p.Evaluate(context.Background(), input(cmd("git", "rm", "rm", "-rf"))); d.Verdict != policy.Ask {
		t.Errorf("with default: allow = %s; want ask (the spelling may still tighten)", d.Verdict)
	}
}
