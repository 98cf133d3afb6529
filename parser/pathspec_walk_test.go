package parser

import (
	"errors"
	"path"
	"slices"
	"strings"
	"testing"
)

// fakeTree lists a tree of files (directories implied) for
// ReachesIgnored; ignored holds paths ignored (a directory's files are
// ignored with it, as the ignore rules have it).
type fakeTree struct {
	files   []string
	ignored []string
}

func (ft fakeTree) list(base string) func(string) ([]DirEntry, error) {
	return func(dir string) ([]DirEntry, error) {
		full := path.Join(base, dir)
		seen := map[string]bool{}
		var out []DirEntry
		for _, f := range ft.files {
			rel, ok := strings.CutPrefix(f, full+"/")
			if full == "." {
				rel, ok = f, true
			}
			if !ok {
				continue
			}
			name, rest, sub := strings.Cut(rel, "/")
			if !seen[name] {
				seen[name] = true
				out = append(out, DirEntry{Name: name, IsDir: sub && rest != ""})
			}
		}
		return out, nil
	}
}

func (ft fakeTree) isIgnored(base string) func(string, bool) (bool, error) {
	return func(rel string, isDir bool) (bool, error) {
		return slices.Contains(ft.ignored, path.Join(base, rel)), nil
	}
}

func TestReachesIgnored(t *testing.T) {
	t.Parallel()
	tree := fakeTree{
		files:   []string{".env", "a.go", "README.md", "src/b.go", "src/.env.local", "vendor/v.go", "vendor/v.md", "docs/x.md"},
		ignored: []string{".env", "src/.env.local", "vendor"},
	}
	envOnly := fakeTree{files: tree.files, ignored: []string{".env", "src/.env.local"}}
	tests := []struct {
		src  string
		tree fakeTree
		want bool
	}{
		{`grep -r --include='*.go' x .`, tree, true},     // vendor/v.go is ignored with vendor
		{`grep -r --include='*.go' x .`, envOnly, false}, // no ignored file ends in .go
		{`grep -r --include='*.go' --exclude-dir=vendor x .`, tree, false},
		{`grep -r --exclude='.env*' x .`, envOnly, false},
		{`grep -r --exclude='*.md' x .`, envOnly, true},
		{`grep -r x .`, envOnly, true},
		{`grep -r --include='*.md' x docs`, tree, false},
		{`rg -t rust x`, tree, false},
		{`rg -t go x`, tree, true},
		{`rg -g '*.md' x`, tree, true}, // vendor/v.md
		{`rg -g '*.md' -g '!vendor' x`, tree, false},
		{`rg -g '!.env*' -g '!vendor/' x`, tree, false},
		{`git add '.e*'`, tree, true},
		{`git add '*.go'`, envOnly, false},
		{`git add ':(glob)**/*.go'`, tree, true},
		{`git add ':(glob)src/*.go'`, tree, false},
		{`git add ':(icase)SRC/*.ENV*'`, tree, true},
		{`git add ':(exclude).env*' '*env*'`, envOnly, true}, // src/.env.local: the exclude is anchored
		{`git add ':!*env*' '*'`, envOnly, false},
	}
	for _, tt := range tests {
		a := Analyze(tt.src, Options{Cwd: "/top", Env: testEnv})
		got, n := false, 0
		for _, c := range a.Commands {
			for i := range c.Files {
				fr := &c.Files[i]
				if !fr.Recursive || fr.Maybe {
					continue
				}
				n++
				found, err := fr.ReachesIgnored(tt.tree.list(fr.Path), tt.tree.isIgnored(fr.Path), 1000)
				if err != nil {
					t.Fatalf("%s: %v", tt.src, err)
				}
				got = got || found
			}
		}
		if n == 0 {
			t.Errorf("%s: no recursive reference", tt.src)
		}
		if got != tt.want {
			t.Errorf("%s: ReachesIgnored = %v, want %v", tt.src, got, tt.want)
		}
	}
}

// The walk fails closed: past its limit, or when listing fails.
func TestReachesIgnoredFailsClosed(t *testing.T) {
	t.Parallel()
	tree := fakeTree{files: []string{"a.go", "b.go", "c.go", "d.md"}}
	fr := FileRef{Path: ".", Recursive: true}
	if found, err := fr.ReachesIgnored(tree.list("."), tree.isIgnored("."), 2); !found || !errors.Is(err, ErrWalkLimit) {
		t.Errorf("limit 2: ReachesIgnored = %v, %v; want true, ErrWalkLimit", found, err)
	}
	boom := errors.New("boom")
	list := func(string) ([]DirEntry, error) { return nil, boom }
	if found, err := fr.ReachesIgnored(list, tree.isIgnored("."), 10); !found || err != boom {
		t.Errorf("list error: ReachesIgnored = %v, %v; want true, boom", found, err)
	}
	if found, err := fr.ReachesIgnored(tree.list("."), tree.isIgnored("."), 10); found || err != nil {
		t.Errorf("nothing ignored: ReachesIgnored = %v, %v; want false, nil", found, err)
	}
}
