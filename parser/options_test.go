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

// TestProgramOptions checks the options of every entry of programs
// (subcommands included): each option it lists is known (with a value
// when it takes one, also attached and clustered, or as a Go flag), and
// an option it does not list is reported.
func TestProgramOptions(t *testing.T) {
	t.Parallel()
	for name, p := range entries() {
		if !p.complete {
			continue
		}
		spec := optionTokens(p.options)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			var args []string
			for _, tok := range spec {
				switch {
				case tok == "-NUM":
					args = append(args, "-12")
				case p.goFlags && tok == "-args":
				case p.goFlags && strings.HasSuffix(tok, "="):
					args = append(args, strings.TrimSuffix(tok, "="), "v", tok+"v", "-"+tok+"v")
				case p.goFlags && strings.HasSuffix(tok, "?"):
					args = append(args, strings.TrimSuffix(tok, "?"), strings.TrimSuffix(tok, "?")+"=v")
				case p.goFlags:
					args = append(args, tok, tok+"=true", "-"+tok)
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
					if p.negatable && strings.HasPrefix(tok, "--") && !strings.HasPrefix(tok, "--no-") {
						args = append(args, "--no-"+tok[2:])
					}
				}
			}
			src := name + " " + strings.Join(args, " ") + " operand"
			if got := unknownOpts(Analyze(src, Options{Cwd: "/repo"})); len(got) > 0 {
				t.Errorf("Analyze(%q): unknown options %v, want none", src, got)
			}
			src, want := name+" --cmdguard-bogus -\x7f x", 2
			if p.goFlags {
				src, want = name+" -cmdguard-bogus x", 1
			}
			if got := unknownOpts(Analyze(src, Options{Cwd: "/repo"})); len(got) != want {
				t.Errorf("Analyze(%q): unknown options %v, want %d", src, got, want)
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
		{`ninja --frob`, nil}, // no entry: not checked here
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

// optionTokens writes the listed options of decls as tokens: -n a flag,
// -n= a value, -n? an optional attached value, --arg=2 two values, -NUM.
func optionTokens(decls []opt) []string {
	var toks []string
	for _, o := range decls {
		if !o.listed {
			continue
		}
		for _, n := range strings.Fields(o.names) {
			toks = append(toks, n+[...]string{argNone: "", argValue: "=", argOptional: "?", argPair: "=2", argNumber: ""}[o.arg])
		}
	}
	return toks
}

// TestWithRole: withRole adds the role to the names it gives, splitting
// their declaration, and refuses a name not declared.
func TestWithRole(t *testing.T) {
	got := withRole([]opt{val(0, "-w -x --workspace"), flags("-q")}, projectPath, "-w --workspace")
	_, r, _ := compileOptions("t", got, true, false, false, nil)
	for _, c := range []struct {
		name string
		want role
	}{{"-w", projectPath}, {"--workspace", projectPath}, {"-x", 0}, {"-q", 0}} {
		var have role
		if strings.HasPrefix(c.name, "--") {
			have = r.longRole(c.name[2:])
		} else {
			have = r.shortRole(c.name[1])
		}
		if have != c.want {
			t.Errorf("%s: role %v, want %v", c.name, have, c.want)
		}
	}
	if !r.shortValue('x') || !r.longValue("work") {
		t.Errorf("-x and --workspace no longer take a value: %+v", got)
	}
	defer func() {
		if recover() == nil {
			t.Errorf("withRole with an undeclared name did not panic")
		}
	}()
	withRole(got, projectPath, "--prefix")
}
