package parser

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// GNU getopt_long, git and env accept any unambiguous prefix of a long
// option: the parser matches prefixes wherever it matches a long option.
func TestLongOptionPrefixes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src      string
		commands []string // the innermost command's args
		refs     []string
	}{
		{`env --uns ls touch PWNED`, []string{"touch PWNED"}, []string{"touch: arg PWNED w"}},
		{`env --u ls touch PWNED`, []string{"touch PWNED"}, []string{"touch: arg PWNED w"}},
		{`env --ch /tmp touch x`, []string{"touch x"}, []string{"touch: arg x w"}},
		{`timeout --sig KILL 5 ls`, []string{"ls"}, nil},
		{`nice --adj 5 ls`, []string{"ls"}, nil},
		{`sudo --us root ls`, []string{"ls"}, nil},
		{`stdbuf --out L touch x`, []string{"touch x"}, []string{"touch: arg x w"}},
		{`su --com 'touch x'`, []string{"touch x"}, []string{"touch: arg x w"}},
		{`flock --comm 'touch x' l`, []string{"touch x"}, []string{"flock: arg l w", "touch: arg x w"}},
		{`/usr/bin/time --out .env ls`, []string{"ls"}, []string{"/usr/bin/time: option .env w"}},
		{`grep --reg=SECRET .env`, []string{"grep --reg=SECRET .env"}, []string{"grep: option SECRET m", "grep: arg .env "}},
		{`grep --reg SECRET .env`, []string{"grep --reg SECRET .env"}, []string{"grep: option SECRET m", "grep: arg .env "}},
		{`grep --recur x`, []string{"grep --recur x"}, []string{"grep: arg x m", "grep: arg . r"}},
		{`grep --fi .env a`, []string{"grep --fi .env a"}, []string{"grep: option .env ", "grep: arg a "}},
		{`jq --from .env`, []string{"jq --from .env"}, []string{"jq: option .env "}},
		{`sed --in s/a/b/ f`, []string{"sed --in s/a/b/ f"}, []string{"sed: arg s/a/b/ m", "sed: arg f w"}},
		{`tar --cr --fil=out.tar d`, []string{"tar --cr --fil=out.tar d"}, []string{"tar: arg out.tar w", "tar: arg d r"}},
		{`xargs --arg .env cat`, []string{"cat"}, []string{"xargs: option .env ", "cat: unknown []"}},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			t.Parallel()
			a := Analyze(tc.src, Options{Cwd: "/repo", Env: testEnv})
			var got []string
			if n := len(a.Commands); n > 0 {
				got = []string{strings.Join(a.Commands[n-1].Args, " ")}
			}
			if diff := cmp.Diff(tc.commands, got); diff != "" {
				t.Errorf("Analyze(%q) innermost command mismatch (-want +got):\n%s", tc.src, diff)
			}
			if diff := cmp.Diff(tc.refs, refLines(a)); diff != "" {
				t.Errorf("Analyze(%q) file refs mismatch (-want +got):\n%s", tc.src, diff)
			}
		})
	}
}
