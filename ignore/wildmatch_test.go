package ignore

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestWildmatchBudget: backtracking that would take minutes stops at the
// step budget, and the Matcher then errs on the safe side.
func TestWildmatchBudget(t *testing.T) {
	t.Parallel()
	slow := []struct{ p, text string }{
		{"a/**/b/**/c/**/d/**/e", "a/" + strings.Repeat("b/c/d/", 700) + "x"},
		{"**/a*/**/a*/**/a*/**/a*/b", strings.Repeat("a/", 1500) + "c"},
	}
	for _, tc := range slow {
		budget := wmBudget
		if _, exhausted := wildmatch(tc.p, tc.text, wmPathname, &budget); !exhausted {
			t.Errorf("wildmatch(%q, %d bytes) finished within the budget; want a case that exhausts it", tc.p, len(tc.text))
		}
		var pats []pattern
		for i, text := range []string{"*.keep", tc.p, "!" + tc.p} {
			pt, err := compile(text, source("f", i+1), false)
			if err != nil {
				t.Fatal(err)
			}
			pats = append(pats, pt)
		}
		// Positive pattern last: counts as matching.
		m := testMatcher(false, newList("", pats[:2]))
		want := Result{Ignored: true, Source: "f:2", Pattern: tc.p}
		if got, _ := m.match(tc.text, false); !cmp.Equal(want, got) {
			diff := cmp.Diff(want, got)
			t.Errorf("Match(long path) with %q mismatch (-want +got):\n%s", tc.p, diff)
		}
		// A negation that cannot be decided does not re-include.
		pats[0], _ = compile("*", "f:1", false)
		m = testMatcher(false, newList("", []pattern{pats[0], pats[2]}))
		if r, _ := m.match(tc.text, false); !r.Ignored || r.Pattern != "*" {
			t.Errorf("Match(long path) with \"*\" then \"!%s\" = %+v, want ignored by \"*\"", tc.p, r)
		}
	}
	// The budget is per Match call, not per pattern or ancestor: a
	// negation that exhausts it at every one of 2,100 ancestors would
	// otherwise cost 2,100 budgets.
	neg, err := compile("!"+slow[0].p, "f:1", false)
	if err != nil {
		t.Fatal(err)
	}
	m := testMatcher(false, newList("", []pattern{neg}))
	if r, _ := m.match(slow[0].text+"/y", false); r.Ignored {
		t.Errorf("Match(long path) with only a negation = %+v, want not ignored", r)
	}
	// Ordinary long paths stay well inside the budget.
	long := strings.Repeat("dir/", 1000) + "x.pem"
	for _, p := range []string{"**/*.pem", "dir/**/x.*", "**/dir/**/dir/**/x.pem", "*/**/*/**/*.pem"} {
		budget := wmBudget
		if matched, exhausted := wildmatch(p, long, wmPathname, &budget); !matched || exhausted {
			t.Errorf("wildmatch(%q, long path) = %v, exhausted %v; want a match", p, matched, exhausted)
		}
	}
}
