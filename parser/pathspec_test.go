package parser

import (
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// pathspecTree is the tree of the differential tests: names that
// wildcards, case and directories tell apart.
var pathspecTree = []string{
	".env", "a/.env", "src/.env.local", "src/a.go", "src/sub/b.go", "src/sub/deep/c.go", "x.md", "X.MD", "docs/y.md",
	"docs/Y.Md", "a[b]", "a*b", "ab", "a/b", "ax/yb", "sr", "src2/c", "dir/x", "dir2/x", "vendor/v.go", "sub/s1",
	"sub/.env", "sub/in/s2.go", "b.txt", "-lead", ".hidden/h", "q?",
}

var pathspecSpecs = []string{
	".e*", "*env*", "*.go", "src/*.go", "**/*.go", "**/.env", "*/.env", "s?c", "sr?", "src/", "src", "sr*",
	"[a]*", "a?b", "a[/]b", "a[!x]b", `a\*b`, "a[b]", "*.[mM][dD]", "[[:upper:]]*", "*[[:punct:]]*",
	"x.md", ".", "*", "a/**", "**", "src/**/c.go", "src/sub/**", "q?", `back\\slash`,
	":(glob)*.go", ":(glob)**/*.go", ":(glob)**/.env", ":(glob)src/*", ":(glob)src/**", ":(glob)*",
	":(icase)X.md", ":(icase)x.MD", ":(icase)SRC", ":(icase)*.ENV*", ":(icase,glob)**/*.MD",
	":(literal)a*b", ":(literal)*", ":(top)src/*.go", ":/x.md", ":/", ":(top)", ":/*.go",
	":!src", ":(exclude)*.go", ":^docs",
	"../*.go", "in/../*.go", "./*.go", "../.e*", "[:.]env", ":*.env", ":.env", ":*", "*:*", "sub:*",
}

// selected lists the files of pathspecTree that the file references
// of the analysis of src (run in cwd, a directory of the tree) can
// reach: a filtered reference's files under its directory that its
// filter passes, an unfiltered recursive one's whole subtree, a plain
// one's file. Paths are relative to the top; top-relative refs resolve
// from it.
func selected(t *testing.T, src, cwd string) []string {
	t.Helper()
	a := Analyze(src, Options{Cwd: "/top/" + cwd, Env: testEnv})
	var out []string
	for _, c := range a.Commands {
		if c.Args[0] != "git" {
			continue
		}
		for i := range c.Files {
			fr := &c.Files[i]
			base := cwd
			if fr.Top {
				base = ""
			}
			dir := path.Join(base, fr.Path)
			if strings.HasPrefix(dir, "..") {
				continue // above the top: git refuses
			}
			for _, f := range pathspecTree {
				rel := f
				if dir != "." && dir != "" {
					var ok bool
					if rel, ok = strings.CutPrefix(f, dir+"/"); !ok {
						if f == dir {
							out = append(out, f)
						}
						continue
					}
				}
				if fr.Recursive && fr.Selects(rel, false) {
					out = append(out, f)
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// gitLines runs git in dir and returns its output lines, as paths
// relative to the top (git prints them relative to dir).
func gitLines(t *testing.T, dir, cwd string, args ...string) ([]string, bool) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = filepath.Join(dir, cwd)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "GIT_CONFIG_GLOBAL=/dev/null")
	out, err := cmd.Output()
	if err != nil {
		return nil, false // git refused the pathspec: it selects nothing
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if l == "" {
			continue
		}
		if s, ok := strings.CutPrefix(l, "add '"); ok {
			l = strings.TrimSuffix(s, "'")
			lines = append(lines, l) // git add prints top-relative paths
			continue
		}
		lines = append(lines, path.Join(cwd, l))
	}
	slices.Sort(lines)
	return lines, true
}

func makeTree(t *testing.T, dir string) {
	t.Helper()
	for _, f := range pathspecTree {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func gitRun(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "GIT_CONFIG_GLOBAL=/dev/null")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// TestPathspecDifferential: real git is the oracle. For every pathspec,
// from the top and from a subdirectory, the files git ls-files lists
// (all tracked) and git add --dry-run adds (all untracked) are all among
// the files the gate's references reach (a miss is a way past the
// ignore rules); and the gate reaches no file neither of them selects.
func TestPathspecDifferential(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is the oracle of this test:", err)
	}
	tracked, untracked := t.TempDir(), t.TempDir()
	makeTree(t, tracked)
	makeTree(t, untracked)
	gitRun(t, tracked, "init", "-q")
	gitRun(t, tracked, "add", "-A")
	gitRun(t, untracked, "init", "-q")
	for _, cwd := range []string{"", "sub"} {
		for _, spec := range pathspecSpecs {
			ls, ok1 := gitLines(t, tracked, cwd, "ls-files", "--", spec)
			add, ok2 := gitLines(t, untracked, cwd, "add", "--dry-run", "--", spec)
			if strings.HasPrefix(spec, ":!") || strings.HasPrefix(spec, ":(exclude)") || strings.HasPrefix(spec, ":^") {
				// Alone, an exclude narrows what git reads without a
				// pathspec (the cwd's files or the whole tree): the
				// reference reaches at least what git selects.
				got := selected(t, "git add --dry-run -- '"+spec+"'", cwd)
				for _, f := range append(ls, add...) {
					if !slices.Contains(got, f) {
						t.Errorf("cwd %q: pathspec %q: git selects %q, the gate's refs do not reach it (got %q)", cwd, spec, f, got)
					}
				}
				continue
			}
			got := selected(t, "git add --dry-run -- "+shellQuote(spec), cwd)
			union := append(slices.Clone(ls), add...)
			slices.Sort(union)
			union = slices.Compact(union)
			// Read as :(glob) too: GIT_GLOB_PATHSPECS may be set where
			// the gate does not see it.
			glob, _ := gitLines(t, tracked, cwd, "--glob-pathspecs", "ls-files", "--", spec)
			for _, f := range union {
				if !slices.Contains(got, f) {
					t.Errorf("cwd %q: pathspec %q: git selects %q (ls-files %v, add %v), the gate's refs do not reach it (got %q)", cwd, spec, f, ok1, ok2, got)
				}
			}
			for _, f := range got {
				if !slices.Contains(union, f) && !slices.Contains(glob, f) && (ok1 || ok2) {
					t.Errorf("cwd %q: pathspec %q: the gate reaches %q, git selects only %q", cwd, spec, f, union)
				}
			}
		}
	}
}

// TestPathspecExcludeDifferential: an exclude narrows the other
// pathspecs as git does, never more.
func TestPathspecExcludeDifferential(t *testing.T) {
	t.Parallel()
	tracked := t.TempDir()
	makeTree(t, tracked)
	gitRun(t, tracked, "init", "-q")
	gitRun(t, tracked, "add", "-A")
	for _, specs := range [][]string{
		{"*", ":!src"}, {"*.go", ":(exclude)src/sub"}, {"*", ":^*.md"}, {"*env*", ":!sub/*"}, {"src/*", ":!*.go"},
		{"*", ":!s?"}, {"*", ":(exclude,icase)SRC"}, {"**", ":!.env"}, {":(glob)**", ":(exclude,glob)*"},
	} {
		ls, _ := gitLines(t, tracked, "", append([]string{"ls-files", "--"}, specs...)...)
		var q []string
		for _, s := range specs {
			q = append(q, shellQuote(s))
		}
		got := selected(t, "git add --dry-run -- "+strings.Join(q, " "), "")
		for _, f := range ls {
			if !slices.Contains(got, f) {
				t.Errorf("pathspecs %q: git selects %q, the gate's refs do not reach it (got %q)", specs, f, got)
			}
		}
		// The excludes narrow: the gate reaches nothing the include
		// alone does not select, and not the files an exclude surely
		// removes (git removes more at times: src/* :!*.go lists no
		// src/.env.local in git 2.39; reaching it errs on the safe side).
		inc, _ := gitLines(t, tracked, "", "ls-files", "--", specs[0])
		for _, f := range got {
			if !slices.Contains(inc, f) {
				t.Errorf("pathspecs %q: the gate reaches %q, which %q alone does not select", specs, f, specs[0])
			}
		}
		if len(got) >= len(inc) {
			t.Errorf("pathspecs %q: the excludes removed nothing: %q", specs, got)
		}
	}
}
