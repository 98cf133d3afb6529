package policy

import (
	"slices"
	"strings"
	"testing"
)

func TestOptionGuardsSorted(t *testing.T) {
	t.Parallel()
	if !slices.IsSortedFunc(optionGuards[:], func(a, b optionGuard) int { return strings.Compare(a.prefix[0], b.prefix[0]) }) {
		t.Error("optionGuards is not sorted by program: guardOptions would miss guards")
	}
}
