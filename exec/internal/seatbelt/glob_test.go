package seatbelt

import (
	"bytes"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"math/rand/v2"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// The differential test reuses the cases of the ignore package's git
// check-ignore test: its scenario tables are read from
// ignore/gitdiff_test.go (so that a case added there is checked here
// too), and scenarios are generated from its pieces the same way.

// scenario is a tree: ignore files (written as .gitignore) and paths; a
// trailing '/' makes a directory.
type scenario struct {
	name  string
	files map[string]string
	paths []string
}

const ignoreTestFile = "../../../ignore/gitdiff_test.go"

// loadCases reads the scenario tables and generator pieces of the ignore
// package's test.
func loadCases(t *testing.T) (plain, fold []scenario, names, parts []string) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, ignoreTestFile, nil, 0)
	if err != nil {
		t.Fatalf("read the ignore package's cases: %v", err)
	}
	vars := map[string]ast.Expr{}
	ast.Inspect(f, func(n ast.Node) bool {
		if vs, ok := n.(*ast.ValueSpec); ok {
			for i, name := range vs.Names {
				if i < len(vs.Values) {
					vars[name.Name] = vs.Values[i]
				}
			}
		}
		return true
	})
	str := func(e ast.Expr) string {
		var eval func(ast.Expr) string
		eval = func(e ast.Expr) string {
			switch e := e.(type) {
			case *ast.BasicLit:
				s, err := strconv.Unquote(e.Value)
				if err != nil {
					t.Fatalf("%s: %v", fset.Position(e.Pos()), err)
				}
				return s
			case *ast.BinaryExpr:
				if e.Op == token.ADD {
					return eval(e.X) + eval(e.Y)
				}
			case *ast.ParenExpr:
				return eval(e.X)
			}
			t.Fatalf("%s: not a string constant", fset.Position(e.Pos()))
			return ""
		}
		return eval(e)
	}
	strs := func(e ast.Expr) []string {
		var out []string
		for _, el := range e.(*ast.CompositeLit).Elts {
			out = append(out, str(el))
		}
		return out
	}
	table := func(name string) []scenario {
		e, ok := vars[name]
		if !ok {
			t.Fatalf("%s has no %s", ignoreTestFile, name)
		}
		var out []scenario
		for _, el := range e.(*ast.CompositeLit).Elts {
			fields := el.(*ast.CompositeLit).Elts
			sc := scenario{name: str(fields[0]), files: map[string]string{}, paths: strs(fields[2])}
			for _, kv := range fields[1].(*ast.CompositeLit).Elts {
				kv := kv.(*ast.KeyValueExpr)
				sc.files[str(kv.Key)] = str(kv.Value)
			}
			out = append(out, sc)
		}
		return out
	}
	return table("gitScenarios"), table("foldScenarios"), strs(vars["genNames"]), strs(vars["genParts"])
}

// randomScenario makes a scenario from the ignore test's pieces, as its
// generator does.
func randomScenario(r *rand.Rand, names, parts []string) scenario {
	pick := func(s []string) string { return s[r.IntN(len(s))] }
	genPattern := func() string {
		var ps []string
		for n := 1 + r.IntN(4); n > 0; n-- {
			ps = append(ps, pick(parts))
		}
		p := strings.Join(ps, "/")
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
			comps = append(comps, pick(names))
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
	var keep []string
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
			keep = append(keep, p)
		}
	}
	sc.paths = keep
	return sc
}

func gitEnv(home string) []string {
	return []string{"HOME=" + home, "XDG_CONFIG_HOME=" + home, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=/dev/null", "PATH=" + os.Getenv("PATH"), "LC_ALL=C"}
}

func gitPath(t testing.TB) string {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Fatalf("git is required for the differential test (CI installs it): %v", err)
	}
	return git
}

// build writes the scenario into a fresh git repository.
func build(t *testing.T, git string, sc scenario) (root string, paths []string, isDir map[string]bool) {
	t.Helper()
	root = t.TempDir()
	cmd := exec.Command(git, "init", "-q", root)
	cmd.Env = gitEnv(t.TempDir())
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

// checkIgnore asks git which paths it ignores.
func checkIgnore(t *testing.T, git, root string, paths []string, fold bool) map[string]bool {
	t.Helper()
	cmd := exec.Command(git, "-c", "core.excludesFile=/dev/null", "-c", fmt.Sprint("core.ignorecase=", fold),
		"check-ignore", "--no-index", "-v", "-n", "-z", "--stdin")
	cmd.Dir = root
	cmd.Env = gitEnv(t.TempDir())
	var in strings.Builder
	for _, p := range paths {
		in.WriteString("./" + p + "\x00")
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
	ignored := map[string]bool{}
	for i := 0; i < len(fields); i += 4 {
		src, pat, p := fields[i], fields[i+2], fields[i+3]
		ignored[strings.TrimPrefix(p, "./")] = src != "" && !strings.HasPrefix(pat, "!")
	}
	if len(ignored) != len(paths) {
		t.Fatalf("git check-ignore answered %d of %d paths", len(ignored), len(paths))
	}
	return ignored
}

// compiled is a rule's expressions, compiled by the subset matcher (and
// checked to be accepted by Go's regexp too).
type compiled struct {
	rule                       Rule
	self, under, sbSelf, sbUnd *Regex
	goRE                       [4]*regexp.Regexp // the same four, by Go's regexp
}

func mustCompile(t *testing.T, expr string) *Regex {
	t.Helper()
	re, err := CompileRegex(expr)
	if err != nil {
		t.Fatalf("generated expression outside the subset: %v", err)
	}
	if _, err := regexp.Compile(latin1(expr)); err != nil {
		t.Fatalf("generated expression %q refused by Go's regexp: %v", expr, err)
	}
	return re
}

func compileRules(t *testing.T, tr *Translation) []compiled {
	var out []compiled
	for _, r := range tr.Rules {
		c := compiled{rule: r, self: mustCompile(t, r.Self), under: mustCompile(t, r.Under),
			sbSelf: mustCompile(t, r.SBPLSelf), sbUnd: mustCompile(t, r.SBPLUnder)}
		for i, s := range []string{r.Self, r.Under, r.SBPLSelf, r.SBPLUnder} {
			c.goRE[i] = regexp.MustCompile(latin1(s))
		}
		out = append(out, c)
	}
	return out
}

// hidden reports whether the rules hide p, exactly and as written into a
// profile. Each expression's answer is checked against Go's regexp.
func hidden(t *testing.T, rules []compiled, p string, dir bool) (exact, sbpl bool) {
	t.Helper()
	for _, c := range rules {
		for i, re := range []*Regex{c.self, c.under, c.sbSelf, c.sbUnd} {
			if got, want := re.Match(p), c.goRE[i].MatchString(latin1(p)); got != want {
				t.Errorf("Match(%q, %q) = %v, Go's regexp says %v", c.goRE[i], p, got, want)
			}
		}
		if c.under.Match(p) || (c.self.Match(p) && (dir || !c.rule.DirOnly)) {
			exact = true
		}
		if c.sbUnd.Match(p) || (c.sbSelf.Match(p) && (dir || !c.rule.DirOnly)) {
			sbpl = true
		}
	}
	return exact, sbpl
}

var cases, ignoredCases, strictCases atomic.Int64

// compare translates sc's ignore files and checks every path against git.
func compare(t *testing.T, git string, sc scenario, fold bool) {
	t.Helper()
	root, paths, isDir := build(t, git, sc)
	want := checkIgnore(t, git, root, paths, fold)
	// On Linux t.TempDir is under /tmp, which the translation spells
	// /private/tmp: the paths checked are spelled the same way.
	kroot := KernelPath(root)
	var files []IgnoreFile
	for name, content := range sc.files {
		files = append(files, IgnoreFile{Dir: path.Join(root, path.Dir(name)), Name: name, Content: []byte(content)})
	}
	slices.SortFunc(files, func(a, b IgnoreFile) int { return strings.Compare(a.Name, b.Name) })
	tr, err := Translate(files, TranslateOptions{FoldCase: fold})
	if err != nil {
		t.Fatalf("Translate: %v", err)
	}
	rules := compileRules(t, tr)
	var negs []*Regex
	var negDirOnly []bool
	for _, n := range tr.Negations {
		negs = append(negs, mustCompile(t, n.Self))
		negDirOnly = append(negDirOnly, n.DirOnly)
	}
	// reincluded: a listed negation names p or a directory above it.
	reincluded := func(p string) bool {
		for q := p; q != "."; q = path.Dir(q) {
			for i, n := range negs {
				if n.Match(kroot+"/"+q) && (isDir[q] || !negDirOnly[i]) {
					return true
				}
			}
		}
		return false
	}
	for _, p := range paths {
		exact, sb := hidden(t, rules, kroot+"/"+p, isDir[p])
		switch {
		case exact == want[p]:
		case exact && reincluded(p):
			strictCases.Add(1) // a negation decided the stricter way
		default:
			t.Errorf("%q (dir %v) with %q (fold %v): hidden %v, git ignored %v\nrules: %s\nnegations: %+v",
				p, isDir[p], sc.files, fold, exact, want[p], describe(tr.Rules, kroot), tr.Negations)
		}
		if exact && !sb {
			t.Errorf("%q with %q: the profile's rule hides less than the exact one", p, sc.files)
		}
		if sb != exact && !anyWidened(tr) {
			t.Errorf("%q with %q: profile rule %v, exact %v, and no rule is widened", p, sc.files, sb, exact)
		}
		cases.Add(1)
		if want[p] {
			ignoredCases.Add(1)
		}
	}
}

func anyWidened(tr *Translation) bool {
	for _, r := range tr.Rules {
		if r.Widened {
			return true
		}
	}
	return false
}

func TestTranslateAgreesWithGit(t *testing.T) {
	git := gitPath(t)
	plain, folds, names, parts := loadCases(t)
	if len(plain) < 40 || len(folds) < 4 || len(names) == 0 || len(parts) == 0 {
		t.Fatalf("read %d scenarios, %d fold scenarios, %d names, %d parts from %s: too few", len(plain), len(folds), len(names), len(parts), ignoreTestFile)
	}
	t.Run("handwritten", func(t *testing.T) {
		for _, sc := range plain {
			t.Run(sc.name, func(t *testing.T) {
				t.Parallel()
				compare(t, git, sc, false)
			})
			t.Run(sc.name+"-fold", func(t *testing.T) {
				t.Parallel()
				compare(t, git, sc, true)
			})
		}
		for _, sc := range folds {
			t.Run(sc.name+"-fold", func(t *testing.T) {
				t.Parallel()
				compare(t, git, sc, true)
			})
		}
	})
	t.Run("generated", func(t *testing.T) {
		for seed := range 150 {
			sc := randomScenario(rand.New(rand.NewPCG(uint64(seed), 7)), names, parts)
			t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
				t.Parallel()
				compare(t, git, sc, false)
			})
		}
		for seed := range 60 {
			sc := randomScenario(rand.New(rand.NewPCG(uint64(seed), 11)), names, parts)
			for f := range sc.files {
				if f != ".gitignore" {
					delete(sc.files, f)
				}
			}
			t.Run(fmt.Sprint("fold-seed", seed), func(t *testing.T) {
				t.Parallel()
				compare(t, git, sc, true)
			})
		}
	})
	t.Cleanup(func() {
		switch n := cases.Load(); {
		case n < 1000:
			t.Errorf("only %d path cases compared, want ≥ 1000", n)
		case !t.Failed():
			t.Logf("%d path cases compared with git check-ignore (%d ignored by git, %d hidden only because a negation was not honoured), 0 disagreements",
				n, ignoredCases.Load(), strictCases.Load())
		}
	})
}

// describe lists rules briefly, with the scenario's root left out.
func describe(rules []Rule, root string) string {
	var b strings.Builder
	for _, r := range rules {
		fmt.Fprintf(&b, "\n  %s %q dirOnly=%v self=%s", r.Source, r.Pattern, r.DirOnly, strings.ReplaceAll(r.Self, root, "ROOT"))
	}
	return b.String()
}
