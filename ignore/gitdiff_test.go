package ignore_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/cmdguard/cmdguard/ignore"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// scenario is a tree checked against git check-ignore: ignore files
// (written as .gitignore) and paths. Every path is created on disk; a
// trailing '/' makes a directory. Every directory on the way is checked
// too, as a directory.
type scenario struct {
	name  string
	files map[string]string // ".gitignore", "sub/.gitignore" → content
	paths []string
}

// gitScenarios covers every construct of gitignore(5) by hand.
var gitScenarios = []scenario{
	{"basic", map[string]string{".gitignore": "*.pem\n.env\n"},
		[]string{"a.pem", "dir/b.pem", ".env", "src/.env", "env", "x.pem.bak", "pem/x", ".pem", "dir/.env/"}},
	{"negation", map[string]string{".gitignore": "*.log\n!keep.log\n"},
		[]string{"a.log", "keep.log", "sub/keep.log", "sub/b.log", "log"}},
	{"negation-order", map[string]string{".gitignore": "!keep.log\n*.log\n"},
		[]string{"keep.log", "a.log"}},
	{"dir-only", map[string]string{".gitignore": "build/\n"},
		[]string{"build/", "sub/build/x", "buildfile", "build2/", "y/build"}},
	{"anchored", map[string]string{".gitignore": "/root.txt\nsub/file.txt\n/top/\n"},
		[]string{"root.txt", "a/root.txt", "sub/file.txt", "x/sub/file.txt", "top/x", "a/top/y"}},
	{"starstar-leading", map[string]string{".gitignore": "**/foo\n**/bar/baz\n"},
		[]string{"foo", "a/foo", "a/b/foo", "afoo", "foo2/x", "bar/baz", "x/bar/baz", "x/bar/y/baz"}},
	{"starstar-trailing", map[string]string{".gitignore": "abc/**\n"},
		[]string{"abc/x", "abc/y/z", "xabc/y", "abcd/e"}},
	{"starstar-middle", map[string]string{".gitignore": "a/**/b\n"},
		[]string{"a/b", "a/x/b", "a/x/y/b", "ab", "a/bb", "c/a/b"}},
	{"starstar-not-component", map[string]string{".gitignore": "x**y\nq/a**b\nm/n**/o\n**z\nw**\nk/**l\n"},
		[]string{"xy", "xaby", "x/y", "q/ab", "q/acb", "q/a/b", "q/ac/db", "m/n/o", "m/nx/o", "m/nx/p/o", "az", "z", "d/z", "wx", "w/v", "k/l", "k/al", "k/a/l"}},
	{"starstar-escaped-slash", map[string]string{".gitignore": "e/**\\/f\ng/\\**/h\n"},
		[]string{"e/f", "e/x/f", "e/x/y/f", "g/h", "g/x/h", "g/*/h"}},
	{"starstar-many", map[string]string{".gitignore": "**/**/deep\na/**/**/b\n***/t\nu/***\n"},
		[]string{"deep", "x/deep", "x/y/deep", "a/b", "a/1/2/3/b", "t", "s/t", "r/s/t", "u/v", "u/v/w"}},
	{"star-slash", map[string]string{".gitignore": "a/*/b\n*/c\n"},
		[]string{"a/x/b", "a/x/y/b", "a/b", "d/c", "d/e/c", "c"}},
	{"question", map[string]string{".gitignore": "?.c\nd?r/\n"},
		[]string{"a.c", "ab.c", ".c", "d/a.c", "dir/", "dar/x", "dr/", "d/r"}},
	{"classes", map[string]string{".gitignore": "[abc].txt\n[!a]x\n[^b]y\n[a-c]z\n[]]r\n[!]]q\n[a-]m\n[-a]n\n"},
		[]string{"a.txt", "d.txt", "ax", "bx", "ay", "by", "bz", "dz", "]r", "ar", "]q", "aq", "-m", "am", "bm", "-n", "bn"}},
	{"posix-classes", map[string]string{".gitignore": "[[:digit:]]d\n[[:alpha:]]l\n[[:upper:]]u\n[[:lower:]]w\n[[:alnum:]]n\n[[:xdigit:]]h\n[[:punct:]]p\n[![:alpha:]]v\n"},
		[]string{"1d", "ad", "al", "1l", "Au", "au", "aw", "Aw", "1n", "_n", "fh", "Fh", "gh", "!p", "ap", "]p", "~p", "1v", "av", ".v"}},
	{"posix-space-cntrl", map[string]string{".gitignore": "s[[:space:]]s\nb[[:blank:]]b\nc[[:cntrl:]]c\ng[[:graph:]]g\np[[:print:]]p\n"},
		[]string{"s s", "s\ts", "s\vs", "s\fs", "s\rs", "sxs", "b b", "b\tb", "b\vb", "c\x01c", "c\x7fc", "c c", "g g", "gxg", "g\x7fg", "p p", "pxp", "p\x01p", "g\xc3\xa9g"}},
	{"brackets-odd", map[string]string{".gitignore": "[[:]x\n[a[:]y\no[\\]]o\nr[a\\-c]r\nt[z-a]t\nk[[]k\n"},
		[]string{"[x", ":x", "ax", "ay", "[y", ":y", "o]o", "o\\o", "r-r", "rbr", "rar", "tat", "tzt", "k[k"}},
	{"bytes", map[string]string{".gitignore": "a??b\nc?d\n"},
		[]string{"a\xc3\xa9b", "axyb", "c\xc3\xa9d", "cxd"}},
	{"escapes", map[string]string{".gitignore": "\\#hash\n\\!bang\nspace\\ \n\\*star\nq\\?\nback\\\\slash\n\\a\\b\n"},
		[]string{"#hash", "!bang", "space ", "space", "*star", "xstar", "q?", "qa", "back\\slash", "ab"}},
	{"trailing-spaces", map[string]string{".gitignore": "trail   \nesc\\  \ntab\t\nmid dle \n"},
		[]string{"trail", "trail ", "esc ", "esc", "esc  ", "tab\t", "tab", "mid dle", "mid dle "}},
	{"leading-spaces", map[string]string{".gitignore": " lead\n"},
		[]string{" lead", "lead"}},
	{"comments-and-blanks", map[string]string{".gitignore": "#comment\n\n# x\n   \n \\#not\n"},
		[]string{"#comment", "comment", "# x", " #not", "x"}},
	{"crlf", map[string]string{".gitignore": "crlf.txt\r\nother/\r\n\r\n"},
		[]string{"crlf.txt", "other/", "crlf.txt\r"}},
	{"bom", map[string]string{".gitignore": "\xef\xbb\xbfbom.txt\nnext\n"},
		[]string{"bom.txt", "next"}},
	{"no-final-newline", map[string]string{".gitignore": "one\ntwo"},
		[]string{"one", "two", "three"}},
	{"regex-chars", map[string]string{".gitignore": "a+b\n(x)\n$y\n|z\n{a,b}\n^c\n.d\n"},
		[]string{"a+b", "aab", "(x)", "x", "$y", "y", "|z", "{a,b}", "a", "^c", "c", ".d", "xd"}},
	{"case", map[string]string{".gitignore": "Foo\n"},
		[]string{"Foo", "foo", "FOO"}},
	{"odd-slashes", map[string]string{".gitignore": "a//b\n//c\nd//\n!\n/\n"},
		[]string{"a/b", "c", "d/", "e"}},
	{"star-dir", map[string]string{".gitignore": "*/\n"},
		[]string{"d/", "e/f", "file"}},
	{"anchored-star", map[string]string{".gitignore": "/*\n!/keep/\n!/keep2\n"},
		[]string{"x", "d/y", "keep/z", "keep2", "keep2dir/a"}},
	{"allowlist", map[string]string{".gitignore": "*\n!*/\n!*.go\n"},
		[]string{"a.go", "d/a.go", "d/x.txt", "x.txt", "d/e/b.go"}},
	{"excluded-dir-cannot-reinclude", map[string]string{".gitignore": "secrets/\n!secrets/keep.txt\n"},
		[]string{"secrets/keep.txt", "secrets/a.txt", "secrets/sub/keep.txt"}},
	{"excluded-contents-can-reinclude", map[string]string{".gitignore": "secrets/*\n!secrets/keep.txt\n"},
		[]string{"secrets/keep.txt", "secrets/a.txt", "secrets/sub/keep.txt"}},
	{"nested", map[string]string{
		".gitignore":          "*.log\nlocal.txt\n",
		"sub/.gitignore":      "!keep.log\n/local.txt\n",
		"sub/deep/.gitignore": "*.txt\n!important.txt\n"},
		[]string{"a.log", "sub/keep.log", "sub/x.log", "sub/local.txt", "sub/deep/local.txt", "sub/deep/a.txt",
			"sub/deep/important.txt", "local.txt", "sub/deep/more/keep.log", "other/keep.log"}},
	{"nested-only", map[string]string{"sub/.gitignore": "*.key\n", "sub/deep/.gitignore": "!a.key\n"},
		[]string{"x.key", "sub/x.key", "sub/deep/a.key", "sub/deep/b.key", "other/y.key"}},
	{"nested-only-deep", map[string]string{"a/b/c/.gitignore": "d/\n"},
		[]string{"d/x", "a/d/x", "a/b/c/d/x", "a/b/c/e/d/y"}},
	{"nested-inside-ignored-dir", map[string]string{
		".gitignore":        "vendor/\n",
		"vendor/.gitignore": "!*\n"},
		[]string{"vendor/a", "vendor/b/c", "vendor/.gitignore"}},
	{"nested-anchoring", map[string]string{
		".gitignore":       "/a/b\n",
		"x/.gitignore":     "/y\nz/w\n**/v\n",
		"x/sub/.gitignore": "!/y\n"},
		[]string{"a/b", "x/a/b", "x/y", "x/q/y", "x/z/w", "x/q/z/w", "x/v", "x/q/v", "x/sub/y", "v"}},
	{"nested-dir-reinclude", map[string]string{
		".gitignore":     "cache/\n",
		"src/.gitignore": "!cache/\n"},
		[]string{"cache/a", "src/cache/b", "src/lib/cache/c"}},
	{"literal-indexes", map[string]string{".gitignore": "id_rsa\n/config/prod.yaml\n*.key\n!pub.key\n*.tar.gz\nid_rsa/\n!id_rsa\n"},
		[]string{"id_rsa", "d/id_rsa", "config/prod.yaml", "x/config/prod.yaml", "a.key", "pub.key", "d/pub.key",
			"b.tar.gz", "tar.gz", ".tar.gz", "c.gz", "e/id_rsa/"}},
	{"dir-only-negation", map[string]string{".gitignore": "logs\n!logs/\n"},
		[]string{"logs/", "logs2", "d/logs"}},
	{"prefix-then-glob", map[string]string{".gitignore": "src/*.gen.go\ndoc/**/*.pdf\nlib/a*\n"},
		[]string{"src/x.gen.go", "src/d/x.gen.go", "doc/a.pdf", "doc/x/y/a.pdf", "lib/ab", "lib/b", "lib/ac/d"}},
}

// foldScenarios exercise case folding (git's core.ignorecase) and its
// quirks: escaped letters and single bracket members compare as written,
// ranges and [:upper:]/[:lower:] fold.
var foldScenarios = []scenario{
	{"letters", map[string]string{".gitignore": "Foo\n*.PEM\nbar/\n/Top.TXT\nSub/File.txt\n"},
		[]string{"foo", "FOO", "x.pem", "X.Pem", "BAR/", "Bar/x", "top.txt", "TOP.txt", "sub/file.TXT", "Sub/FILE.txt"}},
	{"quirks", map[string]string{".gitignore": "\\Ae\n\\bf\n[A]g\n[b]h\n[A-C]i\n[a-c]j\n[[:upper:]]k\n[[:lower:]]l\nm*N\n"},
		[]string{"Ae", "ae", "bf", "Bf", "Ag", "ag", "bh", "Bh", "ai", "Ai", "di", "aj", "Aj", "ak", "Ak", "1k", "al", "Al", "mxn", "MXN", "mN"}},
	{"nested", map[string]string{".gitignore": "*.LOG\n", "Sub/.gitignore": "!KEEP.log\nX*/\n"},
		[]string{"a.log", "Sub/keep.LOG", "Sub/b.Log", "Sub/xy/z", "Sub/XY/z", "sub2/KEEP.log"}},
	{"stars", map[string]string{".gitignore": "A/**/B\n**/C\nD*e/F\n"},
		[]string{"a/b", "a/x/b", "A/X/Y/b", "c", "x/C", "dXE/f", "de/F"}},
}

// gitEnv keeps the user's configuration and global excludes out.
func gitEnv(home string) []string {
	return []string{
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + home,
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null",
		"PATH=" + os.Getenv("PATH"),
		"LC_ALL=C",
	}
}

// gitPath returns git or fails the test: git is the oracle.
func gitPath(t testing.TB) string {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Fatalf("git is required for the differential test (CI installs it): %v", err)
	}
	return git
}

// gitAnswer is one line of git check-ignore -v -n.
type gitAnswer struct {
	Ignored bool
	Source  string
	Pattern string
}

// build writes the scenario into a fresh git repository and returns its
// root and the paths to check with their types.
func build(t *testing.T, git string, sc scenario) (root string, paths []string, isDir map[string]bool) {
	t.Helper()
	root = t.TempDir()
	home := t.TempDir()
	cmd := exec.Command(git, "init", "-q", root)
	cmd.Env = gitEnv(home)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	isDir = map[string]bool{}
	for _, p := range sc.paths {
		dir := strings.HasSuffix(p, "/")
		p = strings.TrimSuffix(p, "/")
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			isDir[d] = true
		}
		if dir {
			isDir[p] = true
		} else if _, ok := isDir[p]; !ok {
			isDir[p] = false
		}
	}
	for name, content := range sc.files {
		for d := path.Dir(name); d != "."; d = path.Dir(d) {
			isDir[d] = true
		}
		if err := os.MkdirAll(filepath.Join(root, path.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for p, dir := range isDir {
		full := filepath.Join(root, p)
		if dir {
			if err := os.MkdirAll(full, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if _, ok := sc.files[p]; ok {
			continue
		}
		if err := os.WriteFile(full, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for p := range isDir {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	return root, paths, isDir
}

// checkIgnore asks git about every path in one batch.
func checkIgnore(t *testing.T, git, root string, paths []string, fold bool) map[string]gitAnswer {
	t.Helper()
	cmd := exec.Command(git, "-c", "core.excludesFile=/dev/null", "-c", fmt.Sprint("core.ignorecase=", fold),
		"check-ignore", "--no-index", "-v", "-n", "-z", "--stdin")
	cmd.Dir = root
	cmd.Env = gitEnv(t.TempDir())
	var in strings.Builder
	for _, p := range paths {
		in.WriteString("./" + p + "\x00") // "./" keeps ":x" from being pathspec magic
	}
	cmd.Stdin = strings.NewReader(in.String())
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	var exit *exec.ExitError
	if err != nil && !(errors.As(err, &exit) && exit.ExitCode() == 1) {
		t.Fatalf("git check-ignore: %v\n%s", err, stderr.String())
	}
	fields := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if len(fields)%4 != 0 {
		t.Fatalf("git check-ignore: odd output %q", out)
	}
	answers := map[string]gitAnswer{}
	for i := 0; i < len(fields); i += 4 {
		src, line, pat, p := fields[i], fields[i+1], fields[i+2], fields[i+3]
		a := gitAnswer{Pattern: pat}
		if src != "" {
			a.Source = src + ":" + line
			a.Ignored = !strings.HasPrefix(pat, "!")
		}
		answers[strings.TrimPrefix(p, "./")] = a
	}
	if len(answers) != len(paths) {
		t.Fatalf("git check-ignore answered %d of %d paths:\n%s", len(answers), len(paths), out)
	}
	return answers
}

// Counters for the log: comparisons made, and how many git ignored.
var cases, ignoredCases atomic.Int64

// mode is how a scenario is checked.
type mode int

const (
	plain  mode = iota
	inline      // the root .gitignore given as inline patterns instead (with the file:line git reports)
	fold        // git with core.ignorecase=true, Options.FoldCase
)

// compare loads sc with the Matcher and checks every path against git.
func compare(t *testing.T, git string, sc scenario, mode mode) {
	t.Helper()
	root, paths, isDir := build(t, git, sc)
	want := checkIgnore(t, git, root, paths, mode == fold)
	opts := ignore.Options{Files: []string{".gitignore"}, FoldCase: mode == fold}
	if mode == inline {
		opts.Files = []string{".notused"}
		opts.Patterns = inlinePatterns(sc.files[".gitignore"])
	}
	m, err := ignore.Load(root, opts)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	for _, p := range paths {
		r := m.Match(p, isDir[p])
		got := gitAnswer{Ignored: r.Ignored, Source: r.Source, Pattern: r.Pattern}
		if diff := cmp.Diff(want[p], got); diff != "" {
			t.Errorf("Match(%q, dir=%v) with %q (mode %d) mismatch (-git +got):\n%s", p, isDir[p], sc.files, mode, diff)
		}
		cases.Add(1)
		if want[p].Ignored {
			ignoredCases.Add(1)
		}
	}
}

// inlinePatterns turns the lines of a simple ignore file into inline
// patterns, skipping what git skips (blank lines, comments).
func inlinePatterns(content string) []ignore.Pattern {
	var pats []ignore.Pattern
	for i, line := range strings.Split(content, "\n") {
		if strings.TrimRight(line, " ") == "" || line[0] == '#' {
			continue
		}
		pats = append(pats, ignore.Pattern{Text: line, Source: fmt.Sprintf(".gitignore:%d", i+1)})
	}
	return pats
}

// inlineable reports scenarios whose only file is a root .gitignore in
// plain form (no CR, no BOM), so that its lines can be given inline.
func inlineable(sc scenario) bool {
	c, ok := sc.files[".gitignore"]
	return ok && len(sc.files) == 1 && !strings.ContainsAny(c, "\r\ufeff")
}

func TestGitCheckIgnore(t *testing.T) {
	git := gitPath(t)
	t.Run("handwritten", func(t *testing.T) {
		for _, sc := range gitScenarios {
			t.Run(sc.name, func(t *testing.T) {
				t.Parallel()
				compare(t, git, sc, plain)
			})
			if inlineable(sc) {
				t.Run(sc.name+"-inline", func(t *testing.T) {
					t.Parallel()
					compare(t, git, sc, inline)
				})
			}
			t.Run(sc.name+"-fold", func(t *testing.T) {
				t.Parallel()
				compare(t, git, sc, fold)
			})
		}
		for _, sc := range foldScenarios {
			t.Run(sc.name+"-fold", func(t *testing.T) {
				t.Parallel()
				compare(t, git, sc, fold)
			})
		}
	})
	t.Run("generated", func(t *testing.T) {
		for seed := range 150 {
			sc := randomScenario(rand.New(rand.NewPCG(uint64(seed), 7)))
			sc.name = fmt.Sprint("seed", seed)
			t.Run(sc.name, func(t *testing.T) {
				t.Parallel()
				compare(t, git, sc, plain)
			})
		}
		// Case folding, with the root file only: on this case-sensitive
		// file system git would read a nested "A/.gitignore" only for
		// paths typed "A/…", where a folding matcher also applies it to
		// "a/…" (as on a case-insensitive file system).
		for seed := range 60 {
			sc := randomScenario(rand.New(rand.NewPCG(uint64(seed), 11)))
			sc.name = fmt.Sprint("fold-seed", seed)
			for f := range sc.files {
				if f != ".gitignore" {
					delete(sc.files, f)
				}
			}
			t.Run(sc.name, func(t *testing.T) {
				t.Parallel()
				compare(t, git, sc, fold)
			})
		}
	})
	t.Cleanup(func() {
		switch n := cases.Load(); {
		case n < 200:
			t.Errorf("only %d pattern × path cases compared, want ≥ 200", n)
		case !t.Failed():
			t.Logf("%d pattern × path cases compared with git check-ignore (%d ignored by git), 0 disagreements",
				n, ignoredCases.Load())
		}
	})
}

// Names and pattern pieces for generated scenarios: few enough that
// patterns and paths meet often.
var (
	genNames = []string{"a", "b", "ab", "a.c", "b.c", ".env", "x.pem", "dir", "a b", "[a]", "A", "B.C", "1", "a1 "}
	genParts = []string{"a", "b", "*", "?", "**", "a*", "*.c", "[ab]", "[!a]", "[a-b]*", "[[:alpha:]]",
		"\\a", ".env", "*.pem", "d*r", "[^b]*", "ab", "a?", "\\*", "[]a]", "[[:digit:]]", "[A-Z]*", "\\A",
		"a1\\ ", "*1", "[[:upper:]]*", "B.c", "a**", "**b", "[!B]*"}
)

func randomScenario(r *rand.Rand) scenario {
	pick := func(s []string) string { return s[r.IntN(len(s))] }
	genPattern := func() string {
		var parts []string
		for n := 1 + r.IntN(4); n > 0; n-- {
			parts = append(parts, pick(genParts))
		}
		p := strings.Join(parts, "/")
		if r.IntN(4) == 0 {
			p = "/" + p
		}
		if r.IntN(4) == 0 {
			p += "/"
		}
		if r.IntN(4) == 0 {
			p = "!" + p
		}
		return p
	}
	genFile := func() string {
		var b strings.Builder
		for n := 1 + r.IntN(6); n > 0; n-- {
			b.WriteString(genPattern() + "\n")
		}
		return b.String()
	}
	sc := scenario{files: map[string]string{}}
	if r.IntN(4) != 0 {
		sc.files[".gitignore"] = genFile()
	}
	var dirs []string
	for n := 8 + r.IntN(8); n > 0; n-- {
		var comps []string
		for d := 1 + r.IntN(4); d > 0; d-- {
			comps = append(comps, pick(genNames))
		}
		p := strings.Join(comps, "/")
		dirs = append(dirs, path.Dir(p))
		sc.paths = append(sc.paths, p)
	}
	for n := r.IntN(3); n > 0; n-- {
		if d := pick(dirs); d != "." {
			sc.files[d+"/.gitignore"] = genFile()
		}
	}
	// A file cannot also be a directory: keep the deepest use of a name.
	var paths []string
	for _, p := range sc.paths {
		conflict := false
		for _, q := range sc.paths {
			if strings.HasPrefix(q, p+"/") {
				conflict = true
			}
		}
		for f := range sc.files {
			if strings.HasPrefix(f, p+"/") || f == p {
				conflict = true
			}
		}
		if !conflict {
			paths = append(paths, p)
		}
	}
	sc.paths = paths
	return sc
}

// TestGitTrailingBackslashMatchesNothing: a pattern ending in an
// unescaped backslash matches nothing in git, and in Load (no error:
// Warnings reports it for lint).
func TestGitTrailingBackslashMatchesNothing(t *testing.T) {
	git := gitPath(t)
	paths := []string{"foo", "foo\\", "a", "\\", "b", "a/b", "keep.pem"}
	for _, pat := range []string{"foo\\", "\\", "!foo\\", "a/\\", "foo\\\\\\"} {
		t.Run(pat, func(t *testing.T) {
			t.Parallel()
			sc := scenario{files: map[string]string{".gitignore": "*.pem\n" + pat + "\n"}, paths: paths}
			root, all, isDir := build(t, git, sc)
			want := checkIgnore(t, git, root, all, false)
			m, err := ignore.Load(root, ignore.Options{Files: []string{".gitignore"}})
			if err != nil {
				t.Fatalf("Load with %q: %v, want it to load", pat, err)
			}
			for p, a := range want {
				if got := m.Match(p, isDir[p]); got.Ignored != a.Ignored {
					t.Errorf("%q with %q: ignored %v, git says %+v", p, pat, got.Ignored, a)
				}
			}
			w := ignore.Warnings([]byte("*.pem\n"+pat+"\n"), ".gitignore")
			if len(w) != 1 || w[0].Source != ".gitignore:2" || w[0].Text != pat {
				t.Errorf("Warnings(%q) = %v, want one at .gitignore:2", pat, w)
			}
		})
	}
}

// TestGitNeverMatchesRejected backs the one deliberate difference from
// git: patterns that Load rejects are exactly ones git never matches.
func TestGitNeverMatchesRejected(t *testing.T) {
	git := gitPath(t)
	rejected := []string{"[abc", "a[[:foo:]]", "[[:alpha:]", "x[", "[\\", "*[", "a/**/[b", "![z"}
	paths := []string{"foo", "foo\\", "[abc", "abc", "a", "af", "x[", "x", "[", "[\\", "\\", "b", "a/b", "a/x/[b", "z", "[z"}
	for _, pat := range rejected {
		t.Run(pat, func(t *testing.T) {
			t.Parallel()
			sc := scenario{files: map[string]string{".gitignore": "# first\n" + pat + "\n"}, paths: paths}
			root, all, _ := build(t, git, sc)
			for p, a := range checkIgnore(t, git, root, all, false) {
				if a.Source != "" {
					t.Errorf("git matched %q with %q: %+v", p, pat, a)
				}
			}
			_, err := ignore.Load(root, ignore.Options{Files: []string{".gitignore"}})
			var ie *ignore.Error
			if !errors.As(err, &ie) {
				t.Fatalf("Load with %q: got %v, want an *ignore.Error", pat, err)
			}
			if diff := cmp.Diff(ignore.Error{Source: ".gitignore:2", Text: pat}, *ie,
				cmpopts.IgnoreFields(ignore.Error{}, "Err")); diff != "" {
				t.Errorf("Load with %q: error mismatch (-want +got):\n%s", pat, diff)
			}
		})
	}
}
