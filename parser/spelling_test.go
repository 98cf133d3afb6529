package parser

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSpelling(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		lead, args string
		command    bool
		opts, ops  string
		unseen     bool
	}{
		{"rm", "-rf x", true, "recursive force", "x", false},
		{"/bin/rm", "x -R --force", true, "recursive --force force", "x", false},
		{"rm", "--rec --forc x", true, "--rec recursive --forc force", "x", false},
		{"rm", "--rec", false, "--rec", "", false}, // a rule's tokens are read as written
		{"rm", "-- -rf", true, "", "-rf", false},
		{"cp", "-a src dst", true, "archive recursive", "src dst", false},
		{"git branch", "-D x", false, "delete force", "x", false},
		{"git branch", "-df x", true, "delete force", "x", false},
		{"git push", "origin +main", true, "force", "origin +main main", false},
		{"git push origin", "--force", false, "force", "", false}, // operands in a rule's leading words
		{"git switch", "--discard-changes", false, "force", "", false},
		{"curl", "-sSLo f http://x", true, "-s -S location output", "f http://x", false}, // values are operands,
		{"curl", "--output=f http://x", false, "output", "f http://x", false},
		{"find", ". -delete", true, "-delete", ".", false},
		{"gcc", "-o x", false, "-o", "x", false},
		{"go test", "--race -o=x", true, "-race -o", "x", false},
		{"git stash", "-f", false, "-f", "", false},
		{"unknown", "-ab --c=d e", true, "-a -b --c", "d e", false},
		{"git push", "--force-with-lease=main:abc", false, "force-with-lease force", "main:abc", false},
		{"git push", "--mirror", true, "--mirror mirror force", "", false},
		{"curl", "-K cfg http://x", true, "...", "cfg http://x", true},
		{"curl", "--conf cfg", true, "--conf ...", "cfg", true},
		{"wget", "-e output_document=f http://x", true, "...", "output_document=f http://x", true},
	} {
		opts, ops, unseen := spelling(strings.Fields(tc.lead), strings.Fields(tc.args), tc.command)
		if unseen != tc.unseen {
			t.Errorf("Spelling(%s | %s) unseen = %v, want %v", tc.lead, tc.args, unseen, tc.unseen)
		}
		if d := cmp.Diff(strings.Fields(tc.opts), opts, cmpEmpty); d != "" {
			t.Errorf("Spelling(%s | %s) options (-want +got):\n%s", tc.lead, tc.args, d)
		}
		if d := cmp.Diff(strings.Fields(tc.ops), ops, cmpEmpty); d != "" {
			t.Errorf("Spelling(%s | %s) operands (-want +got):\n%s", tc.lead, tc.args, d)
		}
	}
}

var cmpEmpty = cmp.Comparer(func(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
})

// TestSpellEntries: every spelling an entry's spell names is an option
// its options list (for entries that list them), and spell groups name
// each spelling once.
func TestSpellEntries(t *testing.T) {
	t.Parallel()
	n := 0
	for name, p := range entries() {
		if p.spelled == nil {
			continue
		}
		n++
		for s := range p.spelled.names {
			if p.opts == nil {
				continue
			}
			known := false
			if strings.HasPrefix(s, "--") {
				known = p.opts.long[s[2:]] != 0
			} else {
				known = p.opts.short[s[1]] != 0
			}
			if !known && !(name == "sed" && (s == "-i" || s == "--in-place")) { // sed's options leave -i out on purpose
				t.Errorf("%s: spell names %s, which its options do not list", name, s)
			}
		}
	}
	if n < 15 {
		t.Errorf("only %d entries have a spell", n)
	}
	for _, bad := range [][]opt{
		{flags("x").as("y")},
		{flags("-a -a").as("b")},
		{flags("-a").as("b"), flags("-a").as("c")},
		{val(notFile, "-a"), flags("-a")},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("compileOptions(%v) did not panic", bad)
				}
			}()
			compileOptions("t", bad, true, false, false, nil)
		}()
	}
}
