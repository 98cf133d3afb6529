package ignore

import "testing"

// FuzzMatch feeds arbitrary ignore-file content and paths through the
// parser, the compiler, the indexed list and the Matcher. Nothing may
// panic, and the indexed answer must equal a plain scan of all patterns
// from the last to the first, as git does it.
func FuzzMatch(f *testing.F) {
	f.Add("*.pem\n!keep.pem\nsecrets/\n", "a/b/x.pem", false)
	f.Add("**/a/**/b\n/c*d/**\n", "a/x/y/b", true)
	f.Add("[[:alpha:]][!a-c]?\\*\n", "xd?*", false)
	f.Fuzz(func(t *testing.T, content, p string, isDir bool) {
		fold := len(content) > 0 && content[0]&1 == 1 // both modes, from the input
		var pats []pattern
		_ = lines([]byte(content), func(n int, text string) error {
			if pt, err := compile(text, source("f", n), fold); err == nil {
				pats = append(pats, pt)
			}
			return nil
		})
		for f := range wmFlags(4) {
			budget := wmBudget
			wildmatch(content, p, f, &budget)
		}
		l := newList("", pats)
		m := testMatcher(fold, l)
		m.Match(p, isDir)
		m.MatchPath(p)
		m.ContainsIgnored(p)
		rel, ok := m.rel(p)
		if !ok {
			return
		}
		rel = m.key(rel)
		b1, b2 := wmBudget, wmBudget
		got, want := l.match(rel, isDir, &b1), scan(pats, rel, isDir, &b2)
		if b1 > 0 && b2 > 0 && got != want { // an exhausted budget may answer differently
			t.Errorf("indexed match of %q = %d, plain scan = %d (patterns %q)", rel, got, want, content)
		}
	})
}

// scan is list.match without indexes.
func scan(pats []pattern, p string, isDir bool, budget *int) int {
	last := lastComponent(p)
	for i := len(pats) - 1; i >= 0; i-- {
		if pats[i].dirOnly && !isDir {
			continue
		}
		if pats[i].matches(p, last, budget) {
			return i
		}
	}
	return -1
}
