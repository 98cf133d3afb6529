package cmdguard

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// CommandLine returns the bash line that runs program with args, each
// word quoted so that bash reads it back as exactly that word (ACP's
// terminal/create sends {command, args}). With no args, program is
// returned as it is: a whole shell line, which is what real agents send
// in command. A word bash cannot carry (one holding a NUL byte) is an
// error.
func CommandLine(program string, args []string) (string, error) {
	if len(args) == 0 {
		return program, nil
	}
	words := make([]string, 0, 1+len(args))
	for _, w := range append([]string{program}, args...) {
		q, err := syntax.Quote(w, syntax.LangBash)
		if err != nil {
			return "", fmt.Errorf("cmdguard: quote %q: %w", w, err)
		}
		words = append(words, q)
	}
	return strings.Join(words, " "), nil
}
