package policy_test

import (
	"context"
	"testing"

	"github.com/cmdguard/cmdguard/policy"
)

// TestGuardHits: the parser finds the options that make a command write,
// delete or run a program (parser's guard tests hold those cases); the
// policy makes each hit a policy.dangerous_option reason unless the
// prefix rule that matched names that word.
func TestGuardHits(t *testing.T) {
	t.Parallel()
	permissive := mustParse(t, "version: 1\ndefault: allow\n")
	named := mustParse(t, "version: 1\ndefault: ask\nallow: [sed, sed -n -e wout]\n")
	tests := []struct {
		p    *policy.Policy
		argv []string
		hit  int // index of the hit, 0 for none
		ask  bool
	}{
		{permissive, []string{"sed", "-n", "-e", "wout", "a"}, 3, true},
		{permissive, []string{"sed", "-n", "-e", "p", "a"}, 0, false},
		{permissive, []string{"sort", "--out=x", "a"}, 1, true},
		{named, []string{"sed", "-n", "-e", "wout", "a"}, 3, false}, // the allow rule names the script
		{named, []string{"sed", "-e", "wout", "a"}, 2, true},
	}
	for _, tt := range tests {
		c := cmd(tt.argv...)
		if tt.hit > 0 {
			c.OptionHits = []policy.OptionHit{{Index: tt.hit, What: tt.argv[0] + " " + tt.argv[tt.hit], Why: "writes a file"}}
		}
		d := tt.p.Evaluate(context.Background(), input(c))
		got := false
		for _, r := range d.Reasons {
			got = got || r.Rule == "policy.dangerous_option"
		}
		if got != tt.ask {
			t.Errorf("Evaluate(%q, hit at %d): dangerous_option = %v, want %v\n%v", tt.argv, tt.hit, got, tt.ask, d.Reasons)
		}
	}
}
