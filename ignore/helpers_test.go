package ignore

// Test helpers shared by the package's test files.

// testMatcher is a Matcher for a root that does not exist, with l as its
// only (inline) list.
func testMatcher(fold bool, l *list) *Matcher {
	m := newMatcher("/r", "/r", fold)
	m.inline = l
	return m
}
