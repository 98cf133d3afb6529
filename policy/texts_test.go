package policy

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// quoteArgvRef is how messages quoted argv before texts: the joined
// words, cut to 57 bytes and "..." when longer than 60.
func quoteArgvRef(argv []string) string {
	s := strings.Join(argv, " ")
	if len(s) > 60 {
		s = s[:57] + "..."
	}
	return "`" + s + "`"
}

// TestTextsArgv: texts.argv renders argv exactly as the joined-and-cut
// form, at every length around the cut, and a message stays what it was
// when the buffer grows after it (messages share the buffer).
func TestTextsArgv(t *testing.T) {
	t.Parallel()
	cases := [][]string{nil, {}, {""}, {"", ""}, {"git", "status"}, {strings.Repeat("a", 60)}, {strings.Repeat("a", 61)},
		{strings.Repeat("a", 57), "b"}, {strings.Repeat("a", 56), "b"}, {strings.Repeat("a", 56), "bcde"}, {strings.Repeat("a", 57), "", ""},
		{"héllo", strings.Repeat("é", 40)}}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		argv := make([]string, r.IntN(8))
		for i := range argv {
			argv[i] = strings.Repeat(string(rune('a'+r.IntN(3))), r.IntN(30))
		}
		cases = append(cases, argv)
	}
	var tx texts // no Grow: it reallocates many times
	var got, want []string
	for i, argv := range cases {
		got = append(got, tx.add(fmt.Sprint(i), " ").argv(argv).add(" end").done())
		want = append(want, fmt.Sprint(i)+" "+quoteArgvRef(argv)+" end")
	}
	for i := range cases {
		if got[i] != want[i] {
			t.Errorf("argv %q: got %q, want %q", cases[i], got[i], want[i])
		}
	}
}
