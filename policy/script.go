package policy

import "strings"

// longPrefix reports whether name (--xyz) is an abbreviation of, or is,
// the long option opt.
func longPrefix(name, opt string) bool {
	return len(name) > 2 && strings.HasPrefix(opt, name)
}
