package parser

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestStaticValueRefs: loops over globs and arrays report their
// references as the glob (g: the file checks expand it) or as the
// literal elements; whatever the analysis cannot know exactly is
// dynamic (d), never a wrong literal.
func TestStaticValueRefs(t *testing.T) {
	t.Parallel()
	runRefTests(t, []refTest{
		// A loop over a glob: "$f" is one name the glob matches.
		{`for f in src/*.go; do cat "$f"; done`, []string{"cat: arg src/*.go g"}},
		{`for f in "src"/*.go; do cat "${f}"; done`, []string{"cat: arg src/*.go g"}},
		{`for f in src/*.go; do cat <"$f" >"$f"; done`, []string{"cat: redirect src/*.go g", "cat: redirect src/*.go wg"}},
		{`for f in src/*.go a.txt; do cat "$f"; done`, []string{"cat: arg src/*.go g", "cat: arg a.txt "}},
		// Unquoted, bash splits and globs the matched name again; in a
		// longer word the result need not exist.
		{`for f in src/*.go; do cat $f; done`, []string{"cat: arg src/*.go g"}}, // Resplit: see TestResplit
		{`for f in src/*.go; do cat "$f.bak"; done`, []string{"cat: arg $f.bak d"}},
		{`for f in src/*.go; do cat "x/$f"; done`, []string{"cat: arg x/$f d"}},
		// The glob was expanded where the loop started.
		{`for f in src/*.go; do cd docs; cat "$f"; done`, []string{"cat: arg $f d", "cat: arg $f d"}},
		{`for f in src/*; do cat "$f"; cd docs; done`, []string{"cat: arg src/* g", "cat: arg $f d"}},
		{`cd x; for f in *; do cat "$f"; done`, []string{"cat: arg $f d"}}, // cd may fail
		{`cd x && for f in *; do cat "$f"; done`, []string{"cat: arg * g"}},
		{`shopt -s nullglob; for f in *; do cat "$f"; done`, []string{"cat: arg $f d"}},
		{`set -f; for f in *; do cat "$f"; done`, []string{"cat: arg $f d"}},
		{`select f in a.txt; do cat "$f"; done`, []string{"cat: arg $f d"}},
		// Arrays.
		{`files=(a.txt b.txt); cat "${files[@]}"`, []string{"cat: arg a.txt ", "cat: arg b.txt "}},
		{`files=(a.txt b.txt); cat ${files[@]}`, []string{"cat: arg a.txt ", "cat: arg b.txt "}},
		{`files=(a.txt); files+=(src/*.go); cat "${files[@]}"`, []string{"cat: arg a.txt ", "cat: arg src/*.go g"}},
		{`files=(src/*.go); cat ${files[@]}`, []string{"cat: arg src/*.go g"}},
		{`ls; for f in src/*.go; do cat $f; done`, []string{"cat: arg $f d"}},
		{`for f in src/*.go; do cat $f; done | cat`, []string{"cat: arg $f d"}},
		{`for f in src/*.go; do cat $f; done & ls`, []string{"cat: arg $f d"}},
		{`for d in a b; do for f in src/*.go; do cat $f; done; done`, []string{"cat: arg $f d", "cat: arg $f d"}},
		{`ls; files=(src/*.go); cat ${files[@]} "${files[@]}"`, []string{"cat: arg ${files[@]} d", "cat: arg src/*.go g"}},
		{`files=(a.txt {b,c}.txt); for f in "${files[@]}"; do cat "$f"; done`,
			[]string{"cat: arg a.txt ", "cat: arg b.txt ", "cat: arg c.txt "}},
		{`files=(); cat "${files[@]}" x`, []string{"cat: arg x "}},
		{`files=(a b c); cat ${#files[@]} x${#files[*]}`, []string{"cat: arg 3 ", "cat: arg x3 "}},
		{`files=(a.txt); cat "${files[0]}" "$files" "${files[*]}"`,
			[]string{"cat: arg ${files[0]} d", "cat: arg $files d", "cat: arg ${files[*]} d"}},
		{`files=(a.txt); files[1]=b; cat "${files[@]}"`, []string{"cat: arg ${files[@]} d"}},
		{`files=(a.txt); read -a files; cat "${files[@]}"`, []string{"cat: arg ${files[@]} d"}},
		{`files=(a.txt); unset files; cat "${files[@]}"`, []string{"cat: arg ${files[@]} d"}},
		{`files=(a.txt); declare -a files; cat "${files[@]}"`, []string{"cat: arg ${files[@]} d"}},
		{`files+=(a.txt); cat "${files[@]}"`, []string{"cat: arg ${files[@]} d"}},
		{`files=([1]=a.txt); cat "${files[@]}"`, []string{"cat: arg ${files[@]} d"}},
		{`files=("a b"); cat "${files[@]}"`, []string{"cat: arg ${files[@]} d"}},
		{`files=($X); cat "${files[@]}"`, []string{"cat: arg ${files[@]} d"}},
		{`files=(a.txt) | true; cat "${files[@]}"`, []string{"cat: arg ${files[@]} d"}},
		{`{ files=(a.txt); }; cat "${files[@]}"`, []string{"cat: arg ${files[@]} d"}},
		{`for i in 1; do files=(a.txt); done; cat "${files[@]}"`, []string{"cat: arg ${files[@]} d"}},
		{`files=(src/*.go); cd x && cat "${files[@]}"`, []string{"cat: arg ${files[@]} d"}},
		{`files=(a.txt); cat "${files[@]}"; files=(b.txt); cat "${files[@]}"`, []string{"cat: arg a.txt ", "cat: arg b.txt "}},
		// An option cluster that ends in the name assigns it; -NAME
		// alone never does.
		{`F=a.txt; printf -vF %s b; cat $F`, []string{"cat: arg $F d"}},
		{`files=(a.txt); read -afiles; cat "${files[@]}"`, []string{"cat: arg ${files[@]} d"}},
		{`for f in src/*.go; do test -f "$f" && cat "$f"; done`, []string{"test: arg src/*.go g", "cat: arg src/*.go g"}},
		// A new shell sees only exported variables.
		{`F=a.txt; bash -c 'cat .env$F'`, []string{"cat: arg .env$F d"}},
		{`F=a.txt; bash -c "cat .env$F"`, []string{"cat: arg .enva.txt "}},
		// Arithmetic over literals.
		{`cat $((10 * (5 + 3))) $((7 / 2)) $((0x10 % 5))`, []string{"cat: arg 80 ", "cat: arg 3 ", "cat: arg 1 "}},
		{`cat $((010)) $((1 << 2)) $((9223372036854775807 + 1)) $((1 / 0))`,
			[]string{"cat: arg $((010)) d", "cat: arg $((1 << 2)) d", "cat: arg $((9223372036854775807 + 1)) d", "cat: arg $((1 / 0)) d"}},
	})
}

// TestStaticValueArgv: "${a[@]}" makes one argv word per element.
func TestStaticValueArgv(t *testing.T) {
	t.Parallel()
	for src, want := range map[string][]string{
		`a=(x y); a+=(z); echo "${a[@]}" ${#a[@]}`: {"echo", "x", "y", "z", "3"},
		`a=(); echo "${a[@]}"`:                     {"echo"},
		`a=(-rf x); rm "${a[@]}"`:                  {"rm", "-rf", "x"},
	} {
		a := Analyze(src, Options{Cwd: "/repo"})
		last := a.Commands[len(a.Commands)-1]
		if diff := cmp.Diff(want, last.Args); diff != "" {
			t.Errorf("Analyze(%q) argv mismatch (-want +got):\n%s", src, diff)
		}
	}
}

// TestResplit: an unquoted reference to a glob value is marked Resplit
// (the file checks ask when a match is not a plain name); a quoted one is
// not.
func TestResplit(t *testing.T) {
	t.Parallel()
	for src, want := range map[string]bool{
		`for f in src/*.go; do cat $f; done`:   true,
		`for f in src/*.go; do cat "$f"; done`: false,
		`a=(src/*.go); cat ${a[@]}`:            true,
		`a=(src/*.go); cat "${a[@]}"`:          false,
		`cat src/*.go`:                         false,
	} {
		a := Analyze(src, Options{Cwd: "/repo"})
		var got []bool
		for _, c := range a.Commands {
			for _, f := range c.Files {
				got = append(got, f.Resplit)
			}
		}
		if len(got) != 1 || got[0] != want {
			t.Errorf("Analyze(%q): Resplit of the file refs = %v, want [%v]", src, got, want)
		}
	}
}
