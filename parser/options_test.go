package parser

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// unknownOpts renders the unknown options of every command.
func unknownOpts(a *Analysis) []string {
	var out []string
	for _, c := range a.Commands {
		for _, o := range c.UnknownOptions {
			out = append(out, c.Args[0]+" "+o.Value+" "+o.Pos.String())
		}
	}
	return out
}

// TestProgramOptions checks the options of every entry of programs: each option
// it lists is known (with a value when it takes one, also attached and
// clustered), and an option it does not list is reported.
func TestProgramOptions(t *testing.T) {
	t.Parallel()
	for prog, p := range programs {
		spec := p.options
		if spec == "" {
			continue
		}
		t.Run(prog, func(t *testing.T) {
			t.Parallel()
			var args []string
			for _, tok := range strings.Fields(spec) {
				switch {
				case tok == "-NUM":
					args = append(args, "-12")
				case strings.HasSuffix(tok, "=2"):
					args = append(args, strings.TrimSuffix(tok, "=2"), "a", "b")
				case strings.HasSuffix(tok, "="):
					args = append(args, strings.TrimSuffix(tok, "="), "v")
					if strings.HasPrefix(tok, "--") {
						args = append(args, tok+"v") // --opt=v
					} else {
						args = append(args, strings.TrimSuffix(tok, "=")+"v") // -ov
					}
				case strings.HasSuffix(tok, "?"):
					args = append(args, strings.TrimSuffix(tok, "?"), strings.TrimSuffix(tok, "?")+"=v")
				default:
					args = append(args, tok)
				}
			}
			src := prog + " " + strings.Join(args, " ") + " operand"
			if got := unknownOpts(Analyze(src, Options{Cwd: "/repo"})); len(got) > 0 {
				t.Errorf("Analyze(%q): unknown options %v, want none", src, got)
			}
			src = prog + " --cmdguard-bogus -\x7f x"
			if got := unknownOpts(Analyze(src, Options{Cwd: "/repo"})); len(got) != 2 {
				t.Errorf("Analyze(%q): unknown options %v, want 2", src, got)
			}
		})
	}
}

func TestUnknownOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src  string
		want []string
	}{
		{`ls -la src`, nil},
		{`head -5 f; tail -n +5 f; grep -3 x f`, nil},
		{`grep -rn 'TODO' src --include=*.go | head -20`, nil},
		{`git status && cat -z f`, []string{"cat -z 1:19"}},
		{`sort -k2,2n -t: f --files0-fro=x`, nil},
		{`diff --frobnicate a b`, []string{"diff --frobnicate 1:6"}},
		{`cat --number=3 f`, []string{"cat --number=3 1:5"}}, // a flag given a value
		{`jq --arg a b -r '.x' f.json`, nil},
		{`jq -r -L lib '.'`, nil},
		{`grep -e -Z f`, nil}, // -Z is -e's value
		{`cut -d -Q f`, nil},  // and here -d's
		{`ls -- -Q`, nil},     // an operand after --
		{`wc $X f`, nil},      // dynamic: reported elsewhere
		{`make --frob`, nil},  // no entry: not checked here
		{`tree -L 2 -a --gitignore`, nil},
		{`date +%s; date -d yesterday`, nil},
		{`egrep -P x f; fgrep -Y x f`, []string{"fgrep -Y 1:21"}},
		{`go test -race -count=1 -run TestX -v ./... -myflag=1`, nil}, // after the packages: the test binary's
		{`go test -test.v -args -x`, nil},
		{`go test -frob ./...`, []string{"go -frob 1:9"}},
		{`go build -o bin/x -ldflags '-s -w' ./cmd/x`, nil},
		{`go vet -printf.funcs=Logf -copylocks ./...`, nil},
		{`go list -m -json all; go env -json GOPATH; go version -m x; go doc -all fmt`, nil},
		{`go list --frob`, []string{"go --frob 1:9"}},
		{`go mod tidy -frob`, nil}, // no entry for go mod
	}
	for _, tc := range tests {
		got := unknownOpts(Analyze(tc.src, Options{Cwd: "/repo"}))
		if diff := cmp.Diff(tc.want, got); diff != "" {
			t.Errorf("Analyze(%q) unknown options mismatch (-want +got):\n%s", tc.src, diff)
		}
	}
}

// TestGoOptions checks every entry of goOptions: each flag it lists is
// known (with its value), and one it does not list is reported.
func TestGoOptions(t *testing.T) {
	t.Parallel()
	for sub, spec := range goOptions {
		var args []string
		for _, tok := range strings.Fields(spec) {
			switch {
			case tok == "-args":
			case strings.HasSuffix(tok, "="):
				args = append(args, strings.TrimSuffix(tok, "="), "v", tok+"v")
			case strings.HasSuffix(tok, "?"):
				args = append(args, strings.TrimSuffix(tok, "?"), strings.TrimSuffix(tok, "?")+"=v")
			default:
				args = append(args, tok, tok+"=true")
			}
		}
		src := "go " + sub + " " + strings.Join(args, " ") + " ./x"
		if got := unknownOpts(Analyze(src, Options{Cwd: "/repo"})); len(got) > 0 {
			t.Errorf("Analyze(%q): unknown options %v, want none", src, got)
		}
		src = "go " + sub + " -cmdguard-bogus ./x"
		if got := unknownOpts(Analyze(src, Options{Cwd: "/repo"})); len(got) != 1 {
			t.Errorf("Analyze(%q): unknown options %v, want 1", src, got)
		}
	}
}
