package main

import (
	"os"
	"path/filepath"
	"testing"
)

// TestExamplesLintClean runs cmdguard policy lint on every shipped example
// policy: each must lint clean (exit 0, nothing printed), as a user who
// copies one would expect. A warning the example accepts knowingly is
// marked "# lint:ok" on its line, with the reason.
func TestExamplesLintClean(t *testing.T) {
	t.Parallel()
	dirs, err := filepath.Glob("../../examples/policies/*")
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 4 {
		t.Fatalf("found %d example policies, want at least 4", len(dirs))
	}
	for _, dir := range dirs {
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			continue
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Parallel()
			out, code := cmdguardIn(t, dir, "", "policy", "lint")
			if code != 0 || out != "" {
				t.Errorf("cmdguard policy lint in %s: exit %d, want 0 and no output:\n%s", dir, code, out)
			}
		})
	}
}
