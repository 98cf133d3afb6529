package parser

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

// TestGlobDifferential expands patterns with Glob and with bash (default
// options, C locale for bytewise order) in the same directory.
func TestGlobDifferential(t *testing.T) {
	t.Parallel()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("bash is required for the differential test: %v", err)
	}
	dir := globFixture(t)
	patterns := []string{`*`, `*.go`, `.*`, `?.txt`, `[ab]*`, `[!a]*`, `[^a]*`, `**`, `*/*`, `sub/*`,
		`sub/.*`, `*/x.go`, `nomatch*`, `star\*`, `*/`, `.[!.]*`, `s*b/*.go`, `**/*.go`, `*/*/*`,
		`sub/?.go`, `[a-b].go`, `br\[a]`, `br[[]a]`, `a.g[o]`, `deep/*/f.go`, `/nonexistent-dir-x/*`}
	for _, pat := range patterns {
		t.Run(pat, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(bash, "-c", "printf '%s\\0' "+pat)
			cmd.Dir = dir
			cmd.Env = []string{"LC_ALL=C", "PATH=/usr/bin:/bin"}
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("bash: %v", err)
			}
			want := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
			got, err := Glob(pat, dir, os.ReadDir)
			if err != nil {
				t.Fatalf("Glob(%q): %v", pat, err)
			}
			if got == nil {
				got = []string{unescapeGlob(pat)} // no match: bash keeps the word
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Glob(%q) mismatch (-bash +Glob):\n%s", pat, diff)
			}
		})
	}
}

// globFixture makes the directory the glob differentials expand in.
func globFixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"a.go", "b.go", "ab.txt", "c.txt", ".env", ".hidden.go", "star*",
		"sub/x.go", "sub/.y.go", "sub/z.txt", "sab/x.go", "deep/er/f.go", "br[a]", "secret/db.txt"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestWordGlobDifferential analyses a word as written in a command and
// expands it with Glob (its Pattern when Glob is set, else its Value),
// and compares with what bash passes: quoting may split a bracket
// expression across the parts of a word.
func TestWordGlobDifferential(t *testing.T) {
	t.Parallel()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("bash is required for the differential test: %v", err)
	}
	dir := globFixture(t)
	words := []string{`.e["n"]v`, `.e[n'']v`, `secre["t"]/db.txt`, `.e"["n]v`, `.e[n"]"v`, `[a]"."go`,
		`"["a].go`, `a.g[o""]`, `'*'.go`, `"a"*`, `br\[a]`, `br"[a]"`, `[ab]'.go'`, `.e\[n]v`, `.e[n\]v`,
		`s"ub"/[x].go`, `ab.t[x]"t"`}
	for _, word := range words {
		t.Run(word, func(t *testing.T) {
			t.Parallel()
			cmd := exec.Command(bash, "-c", "printf '%s\\0' "+word)
			cmd.Dir = dir
			cmd.Env = []string{"LC_ALL=C", "PATH=/usr/bin:/bin"}
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("bash: %v", err)
			}
			want := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
			a := Analyze("printf %s "+word, Options{Env: testEnv})
			w := a.Commands[0].Argv[2]
			got := []string{w.Value}
			if w.Glob {
				if got, err = Glob(w.Pattern, dir, os.ReadDir); err != nil {
					t.Fatalf("Glob(%q): %v", w.Pattern, err)
				}
				if got == nil {
					got = []string{w.Value}
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("word %s (%+v) mismatch (-bash +Glob):\n%s", word, w, diff)
			}
		})
	}
}

func TestGlobLimits(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{}
	for i := range MaxGlobResults + 1 {
		fsys[fmt.Sprintf("f%d", i)] = &fstest.MapFile{}
	}
	readDir := func(d string) ([]fs.DirEntry, error) { return fs.ReadDir(fsys, d) }
	if _, err := Glob("*", ".", readDir); !errors.Is(err, ErrTooManyMatches) {
		t.Errorf("Glob(*) over %d files: err = %v, want ErrTooManyMatches", MaxGlobResults+1, err)
	}
	boom := errors.New("boom")
	if _, err := Glob("*", ".", func(string) ([]fs.DirEntry, error) { return nil, boom }); !errors.Is(err, boom) {
		t.Errorf("Glob with failing readDir: err = %v, want %v", err, boom)
	}
}

// The pattern of a word keeps quoted metacharacters literal.
func TestWordPattern(t *testing.T) {
	t.Parallel()
	tests := []struct{ src, value, pattern string }{
		{`ls *.go`, "*.go", "*.go"},
		{`ls "a*"*`, "a**", `a\**`},
		{`ls \[x]*`, "[x]*", `\[x]*`},
		{`ls ~/*.txt`, "/home/u/*.txt", "/home/u/*.txt"},
		{`ls 'a b'?`, "a b?", "a b?"},
		{`ls .e["n"]v`, ".e[n]v", ".e[n]v"},
		{`ls secret["*"]/db.txt`, "secret[*]/db.txt", `secret[\*]/db.txt`},
	}
	for _, tc := range tests {
		a := Analyze(tc.src, Options{Env: testEnv})
		w := a.Commands[0].Argv[1]
		if w.Value != tc.value || w.Pattern != tc.pattern || !w.Glob {
			t.Errorf("Analyze(%q) word = %+v, want value %q pattern %q glob", tc.src, w, tc.value, tc.pattern)
		}
	}
}

// TestGlobLocale: what a bracket expression matches of a non-ASCII name
// depends on bash's locale (f[[:alpha:]] matches fé under C.UTF-8, not
// under C), so Glob refuses it; * and ? are not affected.
func TestGlobLocale(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{"fé": {}, "fa": {}}
	readDir := func(name string) ([]fs.DirEntry, error) { return fs.ReadDir(fsys, strings.TrimPrefix(name, "/x/")) }
	for _, pat := range []string{"f[[:alpha:]]", "f[!a]", "f[a-z]"} {
		if got, err := Glob(pat, "/x/.", readDir); err == nil {
			t.Errorf("Glob(%q) = %q, want an error", pat, got)
		}
	}
	if got, err := Glob("f?", "/x/.", readDir); err != nil || len(got) != 2 {
		t.Errorf("Glob(f?) = %q, %v; want fa and fé", got, err)
	}
}
