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

// FuzzScriptGuards checks that the git config and time scans never panic
// and return -1 or the index of a word after the program name (the sed
// and awk scans are the parser's: FuzzScriptRisk).
func FuzzScriptGuards(f *testing.F) {
	f.Add("git config -f\x00x a")
	f.Add("time -o out ls")
	f.Fuzz(func(t *testing.T, line string) {
		argv := strings.Split(line, " ")
		for i := range argv {
			argv[i] = strings.ReplaceAll(argv[i], "\x00", " ")
		}
		for _, check := range []func([]string, int) int{gitConfigWrite, timeOutput} {
			if got := check(argv, 1); got != -1 && (got < 0 || got >= len(argv)) {
				t.Fatalf("check(%q) = %d, out of range", argv, got)
			}
		}
	})
}

// BenchmarkGuardOptions measures the guard alone on commands it scans: it
// must not allocate.
func BenchmarkGuardOptions(b *testing.B) {
	for _, line := range []string{"git log --oneline -n 5", "sort -u -k2 in", "sed -n s/foo/bar/p;/x/{p;q} in", "awk -F: {print} in"} {
		argv := strings.Fields(line)
		c := &Command{Argv: argv, MatchArgv: argv, Dynamic: make([]bool, len(argv))}
		w := matchWords(c)
		b.Run(argv[0], func(b *testing.B) {
			hits := make([]guardHit, 0, 4)
			b.ReportAllocs()
			for b.Loop() {
				hits = guardOptions(w, 1, hits[:0])
			}
		})
	}
}
