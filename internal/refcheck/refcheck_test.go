package refcheck

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard/ignore"
	"github.com/cmdguard/cmdguard/parser"
	"github.com/cmdguard/cmdguard/policy"
)

// TestChecker runs the file checks of analysed commands against a small
// project, the Checker's inputs given explicitly: each case must produce
// its rule (or none), so that a check that finds nothing fails.
func TestChecker(t *testing.T) {
	t.Parallel()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		".gitignore": ".env\nsecrets/\n", ".env": "x", "secrets/k": "x", "src/a.go": "x",
		".git/config": "", "vendor/lib/.git/config": "", "-o.txt": "", "hooks/pre-commit": "",
	} {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ign, err := ignore.Load(root, ignore.Options{Files: []string{".gitignore"}})
	if err != nil {
		t.Fatal(err)
	}
	x := &Checker{Root: root, Ign: ign, Protected: []string{"hooks/"}}
	for _, c := range []struct{ cmd, want string }{
		{"cat src/a.go", ""},
		{"cat .env", "ignore.denied"},
		{"cat src/../secrets/k", "ignore.denied"},
		{"grep -r x .", "ignore.contains_ignored"},
		{"cat /etc/hostname", "path.outside_root"},
		{"echo x > .git/config", "path.protected"},
		{"echo x > vendor/lib/.git/config", "path.protected"},
		{"echo x > hooks/pre-commit", "path.protected"}, // Protected
		{"cat .git/config", ""},                         // a reader
		{"sort .git/config", "path.protected"},          // not a reader: may write it
		{"git log -- .git/config", ""},                  // a git reader
		{"git apply .git/config", "path.protected"},     // a git writer
		{"sort *.txt", "path.glob_option"},
		{"echo x > -f", "path.glob_option"},
		{"cat $X", "ignore.unknown_ref"},
	} {
		a := parser.Analyze(c.cmd, parser.Options{Cwd: root})
		var rules []string
		for i := range a.Commands {
			var out policy.Command
			var findings []policy.Finding
			x.Command(&a.Commands[i], &out, &findings)
			if len(out.Files) != len(a.Commands[i].Files) && !slices.ContainsFunc(a.Commands[i].Files, func(f parser.FileRef) bool { return f.Glob }) {
				t.Errorf("%s: %d files for %d references", c.cmd, len(out.Files), len(a.Commands[i].Files))
			}
			for _, f := range findings {
				rules = append(rules, f.Rule)
			}
		}
		switch got := strings.Join(rules, ","); {
		case c.want == "" && got != "":
			t.Errorf("%s: findings %s; want none", c.cmd, got)
		case c.want != "" && !slices.Contains(rules, c.want):
			t.Errorf("%s: findings %q; want %s", c.cmd, got, c.want)
		}
	}
}
