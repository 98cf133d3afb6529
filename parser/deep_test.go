package parser

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Input nested deeply enough to overflow the parser's stack (a fatal
// error, not a panic) is refused before parsing.
func TestTooDeep(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src string
		want      []string
	}{
		{"arithmetic", "echo $((" + strings.Repeat("(", 200_000), []string{"1:507 parser.too_deep"}},
		{"subscript", "a" + strings.Repeat("[", 200_000) + strings.Repeat("]", 200_000) + "=1", []string{"1:502 parser.too_deep"}},
		{"braces", "echo ok\n" + strings.Repeat("{ ", 600) + "ls" + strings.Repeat("; }", 600), []string{"2:1001 parser.too_deep"}},
		{"nested string", `bash -c $'` + strings.Repeat(`\x28`, 600) + `'`, []string{"1:9 parser.too_deep"}},
		{"pipeline", strings.Repeat("a|", 300_000) + "a", []string{"1:1 parser.too_deep"}},
		{"and list", strings.Repeat("a&&", 300_000) + "a", []string{"1:1 parser.too_deep"}},
		{"long", "echo " + strings.Repeat("a", 1<<20), []string{"1:1 parser.too_deep"}},
		{"deep but balanced", strings.Repeat("echo $((1)) ", 1000), nil},
		{"400 levels", "echo $((" + strings.Repeat("(", 400) + "1" + strings.Repeat(")", 402), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := findings(Analyze(tc.src, Options{MaxCommands: 2000}))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Analyze(%s) findings mismatch (-want +got):\n%s", tc.name, diff)
			}
		})
	}
}
