package cmdguard_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/policy"
)

// TestLint checks that Lint reports what Open would fail on: a malformed
// pattern in an ignore file (at its file:line:1) or inline in the policy,
// and that a project Open accepts lints without an error.
func TestLint(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		files map[string]string
		want  []policy.Diagnostic // File relative to the project
	}{
		{"clean", map[string]string{".cmdguard.yaml": "version: 1\nallow: [ls]\n", ".cmdguardignore": ".env\n"}, nil},
		{"ignore file", map[string]string{".cmdguard.yaml": "version: 1\nallow: [ls]\n", "sub/.rooignore": "ok\nx[\n"},
			[]policy.Diagnostic{{File: "sub/.rooignore", Line: 2, Col: 1, Severity: "error", Message: `unclosed '[' or unknown [:class:]: the pattern can never match: "x["`}}},
		{"inline pattern", map[string]string{".cmdguard.yaml": "version: 1\nignore: [ok, \"a[\"]\n"},
			[]policy.Diagnostic{{File: ".cmdguard.yaml", Line: 2, Col: 1, Severity: "error", Message: `unclosed '[' or unknown [:class:]: the pattern can never match: "a["`}}},
		// A pattern ending in an unescaped backslash matches nothing, as
		// in git: a warning, and checks go on.
		{"inline trailing backslash", map[string]string{".cmdguard.yaml": "version: 1\nignore: [ok, \"a\\\\\"]\n"},
			[]policy.Diagnostic{{File: ".cmdguard.yaml", Line: 2, Col: 1, Severity: "warning", Message: `pattern ends in an unescaped backslash: it matches nothing, as in git: "a\\"`}}},
		{"file trailing backslash", map[string]string{".cmdguard.yaml": "version: 1\nallow: [ls]\n", "sub/.rooignore": "ok\nx\\\n"},
			[]policy.Diagnostic{{File: "sub/.rooignore", Line: 2, Col: 1, Severity: "warning", Message: `pattern ends in an unescaped backslash: it matches nothing, as in git: "x\\"`}}},
		{"policy error first", map[string]string{".cmdguard.yaml": "version: 1\ndefault: x\n", ".cmdguardignore": "x[\n"},
			[]policy.Diagnostic{{File: ".cmdguard.yaml", Line: 2, Col: 10, Severity: "error", Message: `invalid verdict "x": want allow, ask or deny`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			for name, data := range tt.files {
				os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
				if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := cmdguard.Lint(dir)
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				if rel, err := filepath.Rel(dir, got[i].File); err == nil {
					got[i].File = rel
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Lint mismatch (-want +got):\n%s", diff)
			}
			// What lint calls an error, check refuses: Open fails, or (a
			// nested ignore file is read lazily) a check of a file in its
			// directory denies with ignore.error.
			g, openErr := cmdguard.Open(dir)
			refused := openErr != nil
			errs := slices.ContainsFunc(tt.want, func(d policy.Diagnostic) bool { return d.Severity == "error" })
			if !refused && errs {
				probe := filepath.Join(filepath.Dir(tt.want[0].File), "probe")
				d, _ := g.Check(context.Background(), cmdguard.Request{Command: "cat " + probe, Cwd: dir})
				refused = d.Verdict == cmdguard.Deny && slices.ContainsFunc(d.Reasons, func(r cmdguard.Reason) bool { return r.Rule == "ignore.error" })
			}
			if refused != errs {
				t.Errorf("Open error = %v, check refused = %v, but Lint found %d errors", openErr, refused, len(tt.want))
			}
		})
	}
}
