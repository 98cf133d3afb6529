package ignore_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cmdguard/cmdguard/ignore"
)

// patterns10 is a typical small ignore file.
var patterns10 = []string{".env", "*.pem", "secrets/", "id_rsa", "*.key", "!public.key",
	"config/prod/*.yaml", "**/credentials.json", "/private", "*.sqlite"}

// patternsN mixes what large ignore files hold: mostly literal names and
// paths, some "*.ext", and a tenth of general globs.
func patternsN(n int) []string {
	pats := append([]string(nil), patterns10...)
	for i := len(pats); i < n; i++ {
		switch i % 10 {
		case 0, 1, 2, 3, 4:
			pats = append(pats, fmt.Sprintf("file%d.txt", i))
		case 5, 6:
			pats = append(pats, fmt.Sprintf("/dir%d/sub/file.txt", i))
		case 7:
			pats = append(pats, fmt.Sprintf("dir%d/", i))
		case 8:
			pats = append(pats, fmt.Sprintf("*.ext%d", i))
		case 9:
			pats = append(pats, fmt.Sprintf("tmp%d*/cache/**", i))
		}
	}
	return pats
}

func benchMatcher(b *testing.B, pats []string) *ignore.Matcher {
	b.Helper()
	root := b.TempDir()
	content := strings.Join(pats, "\n") + "\n"
	if err := os.WriteFile(filepath.Join(root, ".cmdguardignore"), []byte(content), 0o644); err != nil {
		b.Fatal(err)
	}
	m, err := ignore.Load(root, ignore.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// BenchmarkMatch matches one four-level path that no pattern ignores (the
// worst case: every ancestor is tried against every stack) and one that
// is ignored.
func BenchmarkMatch(b *testing.B) {
	for _, n := range []int{10, 1000} {
		m := benchMatcher(b, patternsN(n))
		for _, p := range []string{"src/app/config/settings.yaml", "src/app/config/server.pem"} {
			want := strings.HasSuffix(p, ".pem")
			b.Run(fmt.Sprintf("patterns=%d/%s", n, filepath.Ext(p)[1:]), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if m.Match(p, false).Ignored != want {
						b.Fatalf("Match(%q) != %v", p, want)
					}
				}
			})
		}
	}
}

// tree10k builds 100 directories of 100 files, every tenth directory
// holding an ignored file, and waits out the racy window so that the
// Matcher trusts unchanged stats (a project at rest).
func tree10k(b *testing.B) (root string, dirs []string) {
	b.Helper()
	root = b.TempDir()
	if err := os.WriteFile(filepath.Join(root, ".cmdguardignore"), []byte(strings.Join(patterns10, "\n")), 0o644); err != nil {
		b.Fatal(err)
	}
	for d := range 100 {
		dir := fmt.Sprintf("pkg%02d/sub%02d", d/10, d)
		dirs = append(dirs, dir)
		if err := os.MkdirAll(filepath.Join(root, dir), 0o755); err != nil {
			b.Fatal(err)
		}
		for f := range 100 {
			name := fmt.Sprintf("file%03d.go", f)
			if d%10 == 0 && f == 99 {
				name = "server.pem"
			}
			if err := os.WriteFile(filepath.Join(root, dir, name), nil, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	time.Sleep(2100 * time.Millisecond)
	return root, dirs
}

// BenchmarkContainsIgnored asks about directories of a 10,000-file tree:
// "cold" walks each time (a new Matcher), "warm" answers from the cache
// after a Refresh (one stat per directory the answer rests on, and the
// root's ignore file), as a long-lived gate does at every check.
func BenchmarkContainsIgnored(b *testing.B) {
	root, dirs := tree10k(b)
	for _, warm := range []bool{false, true} {
		name := "cold"
		if warm {
			name = "warm"
		}
		b.Run(name, func(b *testing.B) {
			m, err := ignore.Load(root, ignore.Options{})
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				if !warm {
					m, _ = ignore.Load(root, ignore.Options{})
				}
				m.Refresh()
				dir := dirs[i%len(dirs)]
				if m.ContainsIgnored(dir) != (i%10 == 0) {
					b.Fatalf("ContainsIgnored(%q) wrong", dir)
				}
				i++
			}
		})
	}
}

// BenchmarkLoad is Load on a 10,000-file tree: it reads the root's
// ignore files only, whatever the size of the tree.
func BenchmarkLoad(b *testing.B) {
	root, _ := tree10k(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ignore.Load(root, ignore.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkMatchRef resolves and matches one existing and one missing
// file reference, as the gate does per reference.
func BenchmarkMatchRef(b *testing.B) {
	m := benchMatcher(b, patterns10)
	root := m.Root()
	if err := os.MkdirAll(filepath.Join(root, "src/app/config"), 0o755); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "src/app/config/settings.yaml"), nil, 0o644); err != nil {
		b.Fatal(err)
	}
	time.Sleep(2100 * time.Millisecond) // past the racy window
	for _, name := range []string{"config/settings.yaml", "config/new/x.pem"} {
		b.Run(filepath.Base(name), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				m.Refresh() // as at every check: each directory is examined again
				if _, _, err := m.MatchRef("src/app", name); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
