package parser

import (
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

func FuzzAnalyze(f *testing.F) {
	for _, src := range staticCommands {
		f.Add(src)
	}
	for _, tc := range findingTests {
		f.Add(tc.src)
	}
	for _, src := range []string{ // values known statically
		`for f in src/*.go; do cat "$f"; done`,
		`a=(x src/*.go); a+=(y); for f in "${a[@]}"; do cat $f; done; echo ${#a[@]}`,
		`F=a; F=b; bash -c "cat $F"; cat $((10 * (5 + 3)))`,
		// the program table: multiplexers, strace -o, git's options
		"tmux -L s new -d -c d -e A=1 'ls x' \\; splitw -h ls y\\; send x", "tmux -Cf c run -C 'x'; tmux new-",
		"screen -dmS x -Logfile l -s sh -c rc ls", "strace -fo'|ls' -o x --output=y ls", "git -C d log --no-x -5 -n",
	} {
		f.Add(src)
	}
	f.Fuzz(func(t *testing.T, src string) {
		a := Analyze(src, Options{Cwd: "/repo", Env: testEnv, MaxCommands: 64})
		if len(src) > maxSource || nestedAt(src) >= 0 {
			// Parsing it here would overflow the stack: Analyze must
			// have refused it without parsing.
			if !slices.ContainsFunc(a.Findings, func(f Finding) bool { return f.Rule == "parser.too_deep" }) {
				t.Errorf("Analyze(%q): nested too deep but findings %v", src, a.Findings)
			}
			return
		}
		file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
		hasSyntax := false
		for _, fd := range a.Findings {
			if fd.Rule == "" || fd.Message == "" {
				t.Errorf("Analyze(%q): finding without rule or message: %+v", src, fd)
			}
			if fd.Pos.Line < 0 || fd.Pos.Col < 0 {
				t.Errorf("Analyze(%q): finding with invalid position: %+v", src, fd)
			}
			hasSyntax = hasSyntax || fd.Rule == "parser.syntax"
			if strings.HasPrefix(fd.Message, internalError) {
				t.Errorf("Analyze(%q) panicked: %s", src, fd.Message)
			}
		}
		if err != nil && !hasSyntax {
			t.Errorf("Analyze(%q): parse error %v but no parser.syntax finding", src, err)
		}
		hasEmpty := false
		for _, fd := range a.Findings {
			hasEmpty = hasEmpty || fd.Rule == "parser.empty"
		}
		if err == nil && len(file.Stmts) == 0 && !hasEmpty {
			t.Errorf("Analyze(%q): no statements but findings %v, want parser.empty", src, a.Findings)
		}
		if len(a.Commands) > 64 {
			t.Errorf("Analyze(%q): %d commands, more than MaxCommands", src, len(a.Commands))
		}
		for _, c := range a.Commands {
			if len(c.Args) != len(c.Argv) {
				t.Errorf("Analyze(%q): Args and Argv differ in length", src)
			}
		}
	})
}
