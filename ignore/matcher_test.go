package ignore_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard/ignore"
	"github.com/google/go-cmp/cmp"
)

func TestMatchSets(t *testing.T) {
	t.Parallel()
	root := tree(t, map[string]string{
		".rooignore":          "*.env\n!a.env\n",
		".cursorignore":       "!b.env\nlocal/\n",
		".cmdguardignore":     "/top.txt\n",
		".gitignore":          "git-only.txt\n",
		"sub/.cursorignore":   "secret\n",
		"sub/.rooignore":      "!c.env\n",
		"other/.aiexclude":    "*.txt\n",
		"local/.rooignore":    "!*\n",
		"sub/deep/.rooignore": "c.env\n",
	})
	m, err := ignore.Load(root, ignore.Options{
		Files:    []string{".rooignore", ".cursorignore", ".aiexclude"},
		Patterns: []ignore.Pattern{{Text: "*.pem", Source: ".cmdguard.yaml:4"}, {Text: "!ok.pem", Source: ".cmdguard.yaml:5"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path  string
		isDir bool
		want  ignore.Result
	}{
		{"x.env", false, ignore.Result{true, ".rooignore:1", "*.env"}},
		{"a.env", false, ignore.Result{false, ".rooignore:2", "!a.env"}},
		// A '!' in one stack does not re-include what another ignores.
		{"b.env", false, ignore.Result{true, ".rooignore:1", "*.env"}},
		{"top.txt", false, ignore.Result{true, ".cmdguardignore:1", "/top.txt"}},
		{"sub/top.txt", false, ignore.Result{}},
		{"git-only.txt", false, ignore.Result{}},
		{"sub/secret", false, ignore.Result{true, "sub/.cursorignore:1", "secret"}},
		{"secret", false, ignore.Result{}},
		{"sub/c.env", false, ignore.Result{false, "sub/.rooignore:1", "!c.env"}},
		{"sub/deep/c.env", false, ignore.Result{true, "sub/deep/.rooignore:1", "c.env"}},
		{"other/x.txt", false, ignore.Result{true, "other/.aiexclude:1", "*.txt"}},
		{"x.txt", false, ignore.Result{}},
		{"local/anything", false, ignore.Result{true, ".cursorignore:2", "local/"}},
		{"local", true, ignore.Result{true, ".cursorignore:2", "local/"}},
		{"local", false, ignore.Result{}},
		{"k.pem", false, ignore.Result{true, ".cmdguard.yaml:4", "*.pem"}},
		{"sub/ok.pem", false, ignore.Result{false, ".cmdguard.yaml:5", "!ok.pem"}},
		{root + "/x.env", false, ignore.Result{true, ".rooignore:1", "*.env"}},
		{"./sub//../x.env", false, ignore.Result{true, ".rooignore:1", "*.env"}},
		{"local/", false, ignore.Result{true, ".cursorignore:2", "local/"}},
		{"../x.env", false, ignore.Result{}},
		{"/elsewhere/x.env", false, ignore.Result{}},
		{".", true, ignore.Result{}},
		{root, true, ignore.Result{}},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, m.Match(tt.path, tt.isDir)); diff != "" {
				t.Errorf("Match(%q, %v) mismatch (-want +got):\n%s", tt.path, tt.isDir, diff)
			}
		})
	}
	// After the subtests: the files on the way to the paths matched.
	t.Cleanup(func() {
		wantFiles := []string{".cmdguardignore", ".cursorignore", ".rooignore", "local/.rooignore",
			"other/.aiexclude", "sub/.cursorignore", "sub/.rooignore", "sub/deep/.rooignore"}
		// local/.rooignore sits in an ignored directory and is never read.
		wantFiles = append(wantFiles[:3], wantFiles[4:]...)
		if diff := cmp.Diff(wantFiles, m.Files()); diff != "" {
			t.Errorf("Files() mismatch (-want +got):\n%s", diff)
		}
	})
	for p, want := range map[string]bool{".rooignore": true, "a/b/.aiexclude": true, ".cmdguardignore": true,
		"new/.cursorignore/": true, ".gitignore": false, "rooignore": false} {
		if got := m.IsIgnoreFile(p); got != want {
			t.Errorf("IsIgnoreFile(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestMatchPath(t *testing.T) {
	t.Parallel()
	root := tree(t, map[string]string{".cmdguardignore": "build/\n*.log\n!keep.log/\n"})
	m, err := ignore.Load(root, ignore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		want ignore.Result
	}{
		{"build", ignore.Result{true, ".cmdguardignore:1", "build/"}},
		{"new/build", ignore.Result{true, ".cmdguardignore:1", "build/"}},
		{"x.log", ignore.Result{true, ".cmdguardignore:2", "*.log"}},
		{"keep.log", ignore.Result{true, ".cmdguardignore:2", "*.log"}},
		{"src/main.go", ignore.Result{}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, m.MatchPath(tt.path)); diff != "" {
			t.Errorf("MatchPath(%q) mismatch (-want +got):\n%s", tt.path, diff)
		}
	}
}

func TestContainsIgnored(t *testing.T) {
	t.Parallel()
	outside := tree(t, map[string]string{"file": "x"})
	root := tree(t, map[string]string{
		".cmdguardignore":     "*.pem\nsecrets/\n",
		"clean/a.txt":         "",
		"clean/sub/b.txt":     "",
		"mixed/a.txt":         "",
		"mixed/sub/key.pem":   "",
		"secrets/db.txt":      "",
		"links/tosecret":      "->../secrets/db.txt",
		"links2/todir":        "->../mixed",
		"links3/toclean":      "->../clean",
		"links4/out":          "->" + outside + "/file",
		"links5/dangling":     "->../new/x.pem",
		"links6/chain":        "->../links2",
		"loop/self":           "->.",
		"empty/":              "",
		".git/objects/a.pem":  "",
		"named.pem/inner.txt": "",
	})
	m, err := ignore.Load(root, ignore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		dir  string
		want bool
	}{
		{".", true},
		{"", true},
		{"clean", false},
		{"clean/sub", false},
		{"clean/sub/", false},
		{root + "/clean", false},
		{"mixed", true},
		{"mixed/sub", true},
		{"secrets", true},
		{"secrets/deeper", true},
		{"links", true},
		{"links2", true},
		{"links3", false},
		{"links4", true},
		{"links5", true},
		{"links6", true},
		{"loop", false},
		{"empty", false},
		{".git", true},
		{"named.pem", true},
		{"does-not-exist", true},
		{"../elsewhere", true},
		{"clean/a.txt", true},
	}
	for _, tt := range tests {
		if got := m.ContainsIgnored(tt.dir); got != tt.want {
			t.Errorf("ContainsIgnored(%q) = %v, want %v", tt.dir, got, tt.want)
		}
	}
	var zero *ignore.Matcher
	if !zero.ContainsIgnored("clean") || zero.Match(".env", false).Ignored {
		t.Errorf("nil Matcher: want ContainsIgnored true and nothing ignored")
	}
}

func TestLoadErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		files map[string]string
		opts  ignore.Options
		want  string // error text
		is    error
	}{
		{"malformed-nested", map[string]string{"a/b/.rooignore": "ok\n\n# c\nbad[\n"}, ignore.Options{},
			`ignore: a/b/.rooignore:4: unclosed '[' or unknown [:class:]: the pattern can never match: "bad["`, nil},
		{"nul", map[string]string{".aiexclude": "a\x00b\n"}, ignore.Options{},
			`ignore: .aiexclude:1: NUL byte in pattern: "a\x00b"`, nil},
		{"unreadable", map[string]string{".rooignore": "->missing"}, ignore.Options{},
			"ignore: .rooignore: open ", nil},
		{"inline-comment", nil, ignore.Options{Patterns: []ignore.Pattern{{Text: "#x", Source: "p.yaml:3"}}},
			`ignore: p.yaml:3: inline pattern is empty or a comment (write \# for a leading #): "#x"`, nil},
		{"inline-newline", nil, ignore.Options{Patterns: []ignore.Pattern{{Text: "a\nb", Source: "p.yaml:4"}}},
			`ignore: p.yaml:4: line break in inline pattern: "a\nb"`, nil},
		{"bad-name", nil, ignore.Options{Files: []string{"a/.rooignore"}},
			`ignore: ignore-file name "a/.rooignore" is not a base name`, nil},
		{"too-many", map[string]string{"a/b/c": "", "a/d": ""}, ignore.Options{MaxEntries: 2},
			"more than 2 entries", ignore.ErrTooManyEntries},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root := tree(t, tt.files)
			m, err := ignore.Load(root, tt.opts)
			if err == nil {
				// Nested files are read, and subtrees walked, on use.
				if _, err = m.MatchErr("a/b/x", false); err == nil {
					_, err = m.CheckDir(".")
				}
			}
			if err == nil {
				t.Fatalf("Load and use succeeded; want error %q", tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Load error = %q, want it to contain %q", err, tt.want)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("Load error = %v, want errors.Is %v", err, tt.is)
			}
		})
	}
	for _, root := range []string{"relative/dir", "/does/not/exist"} {
		if _, err := ignore.Load(root, ignore.Options{}); err == nil {
			t.Errorf("Load(%q) succeeded, want error", root)
		}
	}
}

func TestLoadDirectoryNamedLikeIgnoreFile(t *testing.T) {
	t.Parallel()
	root := tree(t, map[string]string{".rooignore/x": "", ".cmdguardignore": "x\n"})
	m, err := ignore.Load(root, ignore.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{".cmdguardignore"}, m.Files()); diff != "" {
		t.Errorf("Files() mismatch (-want +got):\n%s", diff)
	}
}

func TestFoldCase(t *testing.T) {
	t.Parallel()
	root := tree(t, map[string]string{
		"Sub/.rooignore": "key.pem\n",
		"Sub/KEY.pem":    "",
		"Clean/a.txt":    "",
	})
	m, err := ignore.Load(root, ignore.Options{Files: []string{".rooignore"}, FoldCase: true})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(ignore.Result{true, "Sub/.rooignore:1", "key.pem"}, m.Match("Sub/Key.PEM", false)); diff != "" {
		t.Errorf("Match(Sub/Key.PEM) mismatch (-want +got):\n%s", diff)
	}
	// This file system is case-sensitive: "clean" does not exist, and an
	// unknown directory may hold anything.
	for dir, want := range map[string]bool{"SUB": true, "Sub": true, "Clean": false, "clean": true} {
		if got := m.ContainsIgnored(dir); got != want {
			t.Errorf("ContainsIgnored(%q) = %v, want %v", dir, got, want)
		}
	}
	if !m.IsIgnoreFile("x/.RooIgnore") {
		t.Errorf("IsIgnoreFile(x/.RooIgnore) = false with FoldCase")
	}
	// Without folding (this test's file system is case-sensitive).
	m, err = ignore.Load(root, ignore.Options{Files: []string{".rooignore"}})
	if err != nil {
		t.Fatal(err)
	}
	if r := m.Match("Sub/KEY.PEM", false); r.Ignored {
		t.Errorf("Match(Sub/KEY.PEM) without FoldCase = %+v, want not ignored", r)
	}
}

// TestMatchAllocs: Match of a clean path allocates nothing (the gate runs
// it for every file reference). Not parallel: testing.AllocsPerRun
// forbids it.
func TestMatchAllocs(t *testing.T) {
	root := tree(t, map[string]string{
		".cmdguardignore":     strings.Join(patterns10, "\n"),
		"src/.cmdguardignore": "*.tmp\n!keep.tmp\n",
	})
	m, err := ignore.Load(root, ignore.Options{Patterns: []ignore.Pattern{{Text: "inline/**/x", Source: "p:1"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"src/app/config/settings.yaml", "src/app/x.pem", "src/keep.tmp", root + "/inline/a/x"} {
		if n := testing.AllocsPerRun(100, func() { m.Match(p, false); m.MatchPath(p) }); n != 0 {
			t.Errorf("Match(%q) allocates %v times, want 0", p, n)
		}
	}
}
