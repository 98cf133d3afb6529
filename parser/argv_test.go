package parser

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// staticCommands are commands whose argv is fully known statically; each
// runs the argv printer built from testdata/argv.go.
var staticCommands = []string{
	`argv c''at`,
	`argv \ls`,
	`argv $'\x2e'env`,
	"argv li\\\nne",
	"argv a \\\n b",
	`argv "a"'b'c`,
	`argv 'it'\''s'`,
	`argv "\$x" "\a" "\"" "\\" '\\'`,
	"argv \"a\\\nb\"",
	`argv a\ b`,
	`argv \\`,
	`argv $'\''`,
	`argv $'a\tb\nc'`,
	`argv $'\101\x42\u00e9\cA\e'`,
	`argv $'\x4'x $'\18'`,
	`argv $'a\0b' c`,
	`argv '' ""`,
	`argv x\*y`,
	`argv '*.nomatch' "[ab]"`,
	`argv a=b --opt=c`,
	`argv {a,b}`,
	`argv x{a,b}y`,
	`argv {a,b{c,d}}`,
	`argv \{a,b}`,
	`argv "{a,b}"`,
	`argv {a}`,
	`argv {a,}`,
	`argv a{,}b`,
	`argv {1..5}`,
	`argv {a..e}`,
	`argv {01..03}`,
	`argv {1..10..3}`,
	`argv {5..1}`,
	`argv {e..a..2}`,
	`argv {-2..2}`,
	`argv {1..2}{a,b}`,
	`argv a{b,c}d{e,f}`,
	`argv {,}`,
	`argv '{'a,b'}'`,
	`argv {x..y..z}`,
	`argv ~ ~/x ~/`,
	`argv a~ x/~`,
	`argv opt=~/x`,
	`argv PATH=~/a:~/b`,
	`argv --opt=~/x`,
	`argv "~" '~'`,
	`argv $HOME "$HOME/x" ${HOME}`,
	`ar''gv x`,
	`\argv x`,
	`"argv" x`,
	`argv	tab	sep`,
	`argv $"loc"`,
	`argv -- -x --`,
	`argv a'b'"c"$'d'`,
	`argv 'multi
line'`,
	`argv "a b" 'c d'`,
	`argv \$HOME`,
	`argv '$HOME'`,
	`argv "it's"`,
	`argv \'`,
	`argv \"`,
	`argv #comment`,
	`argv a#b`,
	`argv x; argv y`,
	`argv x && argv y`,
	`argv ü "ü" $'\u00fc'`,
	`argv $'\U0001F600'`,
	`argv =`,
	`argv a=~`,
	`argv @ % ^ +`,
	`argv x!`,
	`argv {x}a,b}`,
	`argv {$,}'\x41' {a,b}$'\x41'`,
	`argv a==~ a=~:~/b =~`,
	`argv {~,b} {a,~/x}`,
	`argv ${HOME}{a,b}`,
	`argv {a,{b,c}`,
	`argv { a,b }`,
	`argv {a..c..-1} {1..-2} {01..-2} {-01..2} {a..e..2} {1..3..0}`,
	`argv {#,a}`,
	`argv \
x`,
}

// argvSandbox builds the argv printer and returns bash, a runner for bash
// -c SRC with the printer on PATH, and an empty working directory.
func argvSandbox(t *testing.T) (run func(src string) ([]byte, error), work string) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatalf("bash is required for the differential test: %v", err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	work = filepath.Join(dir, "work")
	for _, d := range []string{bin, work} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("go is required to build the argv printer: %v", err)
	}
	if out, err := exec.Command(goTool, "build", "-o", filepath.Join(bin, "argv"), filepath.Join("testdata", "argv.go")).CombinedOutput(); err != nil {
		t.Fatalf("compile argv printer: %v\n%s", err, out)
	}
	return func(src string) ([]byte, error) {
		cmd := exec.Command(bash, "-c", src)
		cmd.Dir = work
		cmd.Env = []string{"HOME=/home/u", "PATH=" + bin + ":/usr/bin:/bin", "LC_ALL=C.UTF-8"}
		return cmd.Output()
	}, work
}

func TestArgvDifferential(t *testing.T) {
	t.Parallel()
	run, work := argvSandbox(t)
	env := map[string]string{"HOME": "/home/u"}
	if len(staticCommands) < 50 {
		t.Fatalf("only %d static commands, want at least 50", len(staticCommands))
	}
	for _, src := range staticCommands {
		t.Run(src, func(t *testing.T) {
			t.Parallel()
			out, err := run(src)
			if err != nil {
				t.Fatalf("bash -c %q: %v", src, err)
			}
			// One NUL-terminated argv per command, each starting with argv[0].
			var want [][]string
			for _, f := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
				if f == "argv" || len(want) == 0 {
					want = append(want, nil)
				}
				want[len(want)-1] = append(want[len(want)-1], f)
			}
			a := Analyze(src, Options{Cwd: work, Env: env})
			for _, f := range a.Findings {
				if f.Rule != "parser.not_portable" { // bash's argv is what is compared here
					t.Errorf("Analyze(%q) findings = %v, want none", src, a.Findings)
					break
				}
			}
			var got [][]string
			for _, c := range a.Commands {
				if len(c.Wrappers) > 0 && c.Wrappers[0] == interactiveZshWrapper {
					continue // zsh's reading of a comment as words, not bash's
				}
				for _, w := range c.Argv {
					if w.Dynamic {
						t.Errorf("Analyze(%q): word %q marked dynamic", src, w.Value)
					}
				}
				got = append(got, c.Args)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Analyze(%q) argv mismatch with bash (-bash +analysis):\n%s", src, diff)
			}
		})
	}
}

// TestArgvRandomDifferential builds words from tricky pieces (quotes,
// escapes, $'…', braces, tildes, assignments) with a fixed seed, and checks
// every word the analysis calls static against what bash passes.
func TestArgvRandomDifferential(t *testing.T) {
	t.Parallel()
	run, work := argvSandbox(t)
	pieces := []string{"a", "\\", "'", "\"", "$'", "{", "}", ",", "..", "1", "~", "/", "=", ":", " ",
		"\\\n", "\\t", "\\x41", "$", "-", "#", "\\'", "0", "\\0", "\\c", "\\u00e9", "{a,b}", "{a..c}",
		"{01..3}", "{,}", "{x}", "$HOME", "${HOME}", "~/", "a=", "{~,b}", "{$,}", "HOME", "[", "]"}
	r := rand.New(rand.NewPCG(1, 2))
	checked := 0
	for range 600 {
		var b strings.Builder
		b.WriteString("argv ")
		for k := r.IntN(7) + 1; k > 0; k-- {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		src := b.String()
		a := Analyze(src, Options{Cwd: work, Env: map[string]string{"HOME": "/home/u"}})
		if len(a.Findings) > 0 || len(a.Commands) != 1 || slices.ContainsFunc(a.Commands[0].Argv,
			func(w Word) bool { return w.Dynamic || w.Glob }) {
			continue
		}
		out, err := run(src)
		if err != nil {
			continue // bash refused it too (syntax error)
		}
		checked++
		want := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
		if diff := cmp.Diff(want, a.Commands[0].Args); diff != "" {
			t.Errorf("Analyze(%q) argv mismatch with bash (-bash +analysis):\n%s", src, diff)
		}
	}
	if checked < 100 {
		t.Errorf("only %d random commands were static enough to compare, want at least 100", checked)
	}
}

// Decoded argv of quote-splitting tricks, independent of bash.
func TestArgvTricks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src  string
		want []string
	}{
		{`c''at x`, []string{"cat", "x"}},
		{`\ls`, []string{"ls"}},
		{`$'\x2e'env`, []string{".env"}},
		{"ca\\\nt f", []string{"cat", "f"}},
		{`"e"'v'al x`, []string{"eval", "x"}},
		{`{cat,/etc/passwd}`, []string{"cat", "/etc/passwd"}},
		{`ls $HOME{_X,/a}`, []string{"ls", "$HOME_X", "/home/u/a"}},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			t.Parallel()
			a := Analyze(tc.src, Options{Env: testEnv})
			if len(a.Commands) != 1 {
				t.Fatalf("Analyze(%q) = %d commands, want 1", tc.src, len(a.Commands))
			}
			if diff := cmp.Diff(tc.want, a.Commands[0].Args); diff != "" {
				t.Errorf("Analyze(%q) argv mismatch (-want +got):\n%s", tc.src, diff)
			}
		})
	}
	if a := Analyze(`"e"'v'al x`, Options{}); len(a.Findings) != 1 || a.Findings[0].Rule != "parser.eval" {
		t.Errorf(`Analyze("e"'v'al x) findings = %v, want parser.eval`, a.Findings)
	}
}
