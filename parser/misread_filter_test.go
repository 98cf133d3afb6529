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

// filterTree is the tree of the grep and rg differential tests.
var filterTree = []string{
	".env", "a.go", "a_test.go", "README.md", "x.MD", "Makefile", "main.rs", "Cargo.toml", "lib.c", "x.h",
	"src/b.go", "src/.env.local", "src/c.rs", "src/d.md", "src/sub/e.go", "src/sub/.env",
	"vendor/v.go", "vendor/.env", "node_modules/m.js", "docs/y.md", "docs/api/z.md", "secrets/key.pem", "cfg/app.conf",
}

// filterFiles lists the files of filterTree under dir (relative to the
// tree's top) that the Filter of the command's first recursive
// reference passes: every file under it when it has none.
func filterFiles(t *testing.T, src string) []string {
	t.Helper()
	a := Analyze(src, Options{Cwd: "/top", Env: testEnv})
	var out []string
	for _, c := range a.Commands {
		for i := range c.Files {
			fr := &c.Files[i]
			if !fr.Recursive || fr.Maybe {
				continue
			}
			dir := path.Clean(fr.Path)
			for _, f := range filterTree {
				rel := f
				if dir != "." {
					var ok bool
					if rel, ok = strings.CutPrefix(f, dir+"/"); !ok {
						continue
					}
				}
				if fr.Selects(rel, false) {
					out = append(out, f)
				}
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// realFiles runs the real program in a tree and returns the files it
// reports, relative to the tree's top.
func realFiles(t *testing.T, top string, argv ...string) []string {
	t.Helper()
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = top
	out, err := cmd.Output()
	if err != nil && len(out) == 0 {
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			t.Fatalf("%q: %v", argv, err)
		}
	}
	var files []string
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if l != "" {
			files = append(files, path.Clean(strings.TrimPrefix(l, "./")))
		}
	}
	slices.Sort(files)
	return files
}

func makeFilterTree(t *testing.T) string {
	t.Helper()
	top := t.TempDir()
	for _, f := range filterTree {
		p := filepath.Join(top, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return top
}

// compareFiles reports a file the real program reads that the filter
// rejects (a way past the ignore rules) and, exact, a file the filter
// passes that the program does not read.
func compareFiles(t *testing.T, what string, real, got []string, exact bool) {
	t.Helper()
	for _, f := range real {
		if !slices.Contains(got, f) {
			t.Errorf("%s: the program reads %q, the filter rejects it (filter passes %q)", what, f, got)
		}
	}
	if !exact {
		return
	}
	for _, f := range got {
		if !slices.Contains(real, f) {
			t.Errorf("%s: the filter passes %q, the program reads only %q", what, f, real)
		}
	}
}

// TestGrepFilterDifferential: GNU grep is the oracle. grep -rl with an empty pattern lists
// every file grep -r reads; the filter passes exactly those.
func TestGrepFilterDifferential(t *testing.T) {
	t.Parallel()
	needProgram(t, "grep")
	top := makeFilterTree(t)
	for _, opts := range [][]string{
		{"--include=*.go"}, {"--include", "*.md"}, {"--include=*.go", "--include=*.md"}, {"--exclude=*.go"},
		{"--exclude-dir=vendor"}, {"--exclude-dir=src", "--include=*.go"}, {"--include=*.go", "--exclude=a*"},
		{"--exclude=a*", "--include=*.go"}, {"--include=.e*"}, {"--include=*"}, {"--exclude=.*"}, {"--include=[a-c]*"},
		{"--exclude-dir=s*"}, {"--exclude-dir=*", "--include=*.go"}, {"--include=*.[mM][dD]"}, {"--incl=*.rs"},
		{"--exclude-dir=sub", "--exclude=*.md"}, {"--include=src/*.go"}, {"--include=\\*.go"},
	} {
		for _, dir := range []string{".", "src"} {
			argv := append(append([]string{"grep", "-rl"}, opts...), "", dir)
			real := realFiles(t, top, argv...)
			q := []string{"grep", "-rl"}
			for _, o := range opts {
				q = append(q, shellQuote(o))
			}
			src := strings.Join(append(q, "''", dir), " ")
			// grep applies --exclude-dir to the directory operand
			// too; the filter does not (it reads more, never less).
			exact := true
			for _, o := range opts {
				if g, ok := strings.CutPrefix(o, "--exclude-dir="); ok {
					if m, _ := fnmatch(g, path.Base(dir)); m {
						exact = false
					}
				}
			}
			compareFiles(t, src, real, filterFiles(t, src), exact)
		}
	}
}

// TestRgFilterDifferential: ripgrep is the oracle. rg --files -uu lists
// every file rg reads (hidden and ignored ones included: the gate's
// filter does not model those skips, which only read less); the filter
// passes exactly those.
func TestRgFilterDifferential(t *testing.T) {
	t.Parallel()
	needProgram(t, "rg")
	top := makeFilterTree(t)
	for _, opts := range [][]string{
		{"-g", "*.md"}, {"--glob=*.go"}, {"-g", "!*.go"}, {"-g", "*.go", "-g", "!vendor"}, {"-g", "!vendor/"},
		{"-g", "!src"}, {"-g", "src/*.go"}, {"-g", "/*.go"}, {"-g", "**/*.md"}, {"-g", "*.go", "-g", "!a*"},
		{"-g", "!a*", "-g", "*.go"}, {"--iglob", "*.md"}, {"-g", "*.MD"}, {"--glob-case-insensitive", "-g", "*.md"},
		{"-t", "go"}, {"--type=rust"}, {"-tmd"}, {"-T", "go"}, {"-t", "c"}, {"-t", "make"}, {"-t", "config"},
		{"-t", "go", "-g", "*.md"}, {"-T", "md", "-g", "!vendor"}, {"--type-add", "secret:*.pem", "-t", "secret"},
		{"--type-add", "mine:include:go,rust", "-t", "mine"}, {"-g", ".env"}, {"-g", "*env*"}, {"-g", "!.*"},
		{"-g", "docs/**"}, {"-g", "!docs/**", "-g", "docs/api/*"}, {"-g", "*.{md,env}"}, {"-g", "!*.{go,md}"},
		{"-g", "{src,docs}/**"}, {"-g", "*.{md,MD,rs}"}, {"-g", "*.[{]md"},
	} {
		for _, dir := range []string{"", "src", "docs"} {
			argv := append([]string{"rg", "--files", "-uu"}, opts...)
			q := []string{"rg", "--files", "-uu"}
			for _, o := range opts {
				q = append(q, shellQuote(o))
			}
			if dir != "" {
				argv = append(argv, dir)
				q = append(q, dir)
			}
			real := realFiles(t, top, argv...)
			src := strings.Join(q, " ")
			compareFiles(t, src, real, filterFiles(t, src), true)
		}
	}
}
