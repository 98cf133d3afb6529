package settings_test

// Test helpers shared by the package's test files.

// subsequence reports whether a's bytes appear in b in order.
func subsequence(a, b string) bool {
	i := 0
	for j := 0; j < len(b) && i < len(a); j++ {
		if a[i] == b[j] {
			i++
		}
	}
	return i == len(a)
}
