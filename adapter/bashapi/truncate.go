package bashapi

import (
	"fmt"
	"unicode/utf8"
)

// DefaultMaxOutputLength is max_output_length when a request leaves it out:
// the characters of each stream an exec answer holds.
const DefaultMaxOutputLength = 50000

// truncateMiddle returns s cut to at most n characters by removing its
// middle: the first n/2 and the last n-n/2 characters are kept, with a
// marker saying how many characters were removed between them. The cut is
// at character boundaries (a byte that is not valid UTF-8 counts as one
// character). n <= 0 returns s as it is.
func truncateMiddle(s string, n int) (string, int) {
	if n <= 0 {
		return s, 0
	}
	total := utf8.RuneCountInString(s)
	if total <= n {
		return s, 0
	}
	head, tail := n/2, n-n/2
	cut := total - head - tail
	// Byte index of the end of the head and of the start of the tail.
	headEnd, tailStart := len(s), len(s)
	i := 0
	for pos := range s {
		if i == head {
			headEnd = pos
		}
		if i == total-tail {
			tailStart = pos
			break
		}
		i++
	}
	return s[:headEnd] + fmt.Sprintf("\n...[%d characters truncated]...\n", cut) + s[tailStart:], cut
}
