package parser

import (
	"slices"
	"strings"
	"testing"
)

// What zsh reads differently from bash (issue 26), judged by the
// analysis: each row names a rule the analysis must report, or none for
// a line both shells read the same. The gate-level differential rows,
// run in real zsh and bash, are in the root package (zshgate_test.go).
var zshTests = []struct {
	src  string
	want string // a rule among the findings; "" for no finding at all
}{
	// zsh's special parameters, in every form of assignment.
	{`path=(./bin $path); ls`, "env.code_injection"},
	{`path=./bin ls`, "env.code_injection"},
	{`path+=(x)`, "env.code_injection"},
	{`functions=(ls 'cat .env')`, "env.code_injection"},
	{`commands=(ls /tmp/x)`, "env.code_injection"},
	{`aliases=(ls 'cat .env')`, "env.code_injection"},
	{`cdpath=(secrets)`, "env.code_injection"},
	{`fpath=(.)`, "env.code_injection"},
	{`module_path=(.)`, "env.code_injection"},
	{`manpath=(.)`, "env.code_injection"},
	{`options=(extendedglob on)`, "env.code_injection"},
	{`typeset -a path=(x)`, "env.code_injection"},
	{`local fpath=x`, "env.code_injection"},
	{`export FPATH=x`, "env.code_injection"},
	{`set -A path ./bin`, "env.code_injection"},
	{`read -A path <<< x`, "env.code_injection"},
	{`for path in ./bin; do ls; done`, "env.code_injection"},
	{`env ZDOTDIR=. zsh -c true`, "env.code_injection"},
	{`ZDOTDIR=. zsh -c true`, "env.code_injection"},
	{`bash -c 'chpwd_functions=(x)'`, "env.code_injection"},
	{`NULLCMD=./x`, "env.code_injection"},
	{`MAILPATH='x?$(id)'`, "env.code_injection"},
	{`hash ls=/tmp/x; ls`, "parser.eval"},
	{`print -v path ./bin`, "env.code_injection"},
	{`getln path`, "env.code_injection"},
	{`integer ZDOTDIR=1`, "env.code_injection"},
	{`integer n=x`, "parser.arithmetic_variable"},
	{`integer n=3; float f=2`, ""},
	{`hash -d s=/p/secrets`, "parser.eval"},
	{`hash; hash ls`, ""},
	{`files=(a b c); ls`, ""},
	{`pathname=x; paths=(a)`, ""},
	// Redirections bash reads as a file named !…, numeric globs.
	{`echo x >! f`, "parser.not_portable"},
	{`echo x >!f`, "parser.not_portable"},
	{`echo x >>! f`, "parser.not_portable"},
	{`echo x &>! f`, "parser.not_portable"},
	{`echo x 2>! f`, "parser.not_portable"},
	{`cat key<->.pem`, "parser.not_portable"},
	{`cat f<1-20>`, "parser.syntax"}, // bash cannot parse it either
	{`echo x > ! f`, ""},
	{`echo x >| f`, ""},
	{`cat <in >out`, ""},
	// Subscripts and modifiers without braces.
	{`F=x.env; cat $F[2,-1]`, "parser.not_portable"},
	{`F=.env.bak; cat $F:r`, "parser.not_portable"},
	{`F=.env.bak; cat "$F:r"`, "parser.not_portable"},
	{`F=.envX; cat $F:s/X//`, "parser.not_portable"},
	{`cat $HOME:h/x`, "parser.not_portable"},
	{`echo $F[i]`, "parser.arithmetic_variable"},
	{`echo $F[(r)x]`, "parser.syntax"},
	{`echo "$HOST:$PORT" $PATH:/bin ${F}[1] ${F}:h`, ""},
	{`echo $F:h`, ""}, // F unknown: the word is dynamic either way
	// The directory stack, auto_cd, frameworks' aliases.
	{`cd +1 && cat db.txt`, ""},
	{`cd ...`, "parser.not_portable"},
	{`noglob ls`, "parser.not_portable"},
	{`repeat 3 ls`, "parser.not_portable"},
	{`zmodload zsh/mapfile`, "parser.eval"},
	{`emulate sh -c 'cat .env'`, "parser.eval"},
	{`autoload -Uz ./x`, "parser.eval"},
	{`sched +1 ls`, "parser.eval"},
	{`print -P '$(cat .env)'`, "parser.eval"},
	{`print -rP x`, "parser.eval"},
	{`print -r -- x`, ""},
	// zsh -c scripts, read as zsh reads them too.
	{`zsh -c 'echo $F[2]'`, "parser.not_portable"},
	{`zsh -c 'echo ${(f)x}'`, "parser.syntax"},
	{`zsh -fc 'echo >! f'`, "parser.not_portable"},
	{`zsh -c 'git status && ls -la'`, ""},
	{`bash -c 'echo $F[2]'`, ""},
	// Options the line sets.
	{`setopt extendedglob; ls`, ""},
	{`setopt pipefail err_exit; ls`, ""},
	{`setopt autocd; ls`, "parser.not_portable"},
	{`set -o cdablevars; cd x`, "parser.not_portable"},
	{`zsh -o pushdminus -c 'cd -1'`, "parser.not_portable"},
	{`bash -O cdable_vars -c 'cd x'`, "parser.not_portable"},
	{`set -o pipefail -o errexit; bash -O lastpipe -o nounset -c ls`, ""},
	{`: ${cdpath:=/p/secrets}`, "env.code_injection"},
	{"zsh -i <<'EOF'\nls # ; cat .env\nEOF", "parser.not_portable"},
	{"zsh <<'EOF'\nls # x\nEOF", ""},
	{`zsh -i -c 'ls # x'`, ""},
	{`unsetopt cdablevars`, "parser.not_portable"},
	{`setopt $x`, "parser.not_portable"},
	// # ^ ~ are extendedglob's: literal under zsh's defaults.
	{`git checkout task#27`, ""},
	{`echo a#b ^x a~b x~`, ""},
	{`cat .en#v`, ""},
	{`setopt extendedglob; cat .en#v`, "parser.not_portable"},
	{`setopt EXTENDED_GLOB; cat ^src`, "parser.not_portable"},
	{`set -o extendedglob; cat a~b*`, "parser.not_portable"},
	{`zsh -o extendedglob -c 'cat .en#v'`, "parser.not_portable"},
	{`cat .en#v; setopt extendedglob`, "parser.not_portable"}, // a loop may repeat it
	// Comments an interactive zsh reads as words.
	{`echo a # ; cat .env`, ""}, // the commands carry the finding: see TestZshComments
	{`for f in a; do echo $f; done # ; cat .env`, ""},
	// Readers and writers named elsewhere.
	{`history -r`, ""}, // an unknown reference: see TestReaders
	{`git remote-ext origin 'sh -c id'`, "parser.eval"},
	{`git -C . remote-fd x`, "parser.eval"},
	{`/usr/lib/git-core/git-remote-ext a b`, "parser.eval"},
	{`git remote -v`, ""},
	{`read HISTFILE <<< .git/config`, "env.unknown"},
	{`for HISTFILE in x; do :; done`, "env.unknown"},
	{`printf -v HISTFILE %s x`, "env.unknown"},
}

func TestZshReadings(t *testing.T) {
	for _, tc := range zshTests {
		a := Analyze(tc.src, Options{Cwd: "/p", Env: testEnv})
		var rules []string
		for _, f := range a.Findings {
			rules = append(rules, f.Rule)
		}
		switch {
		case tc.want == "" && len(rules) > 0:
			t.Errorf("Analyze(%q) findings = %v, want none", tc.src, a.Findings)
		case tc.want != "" && !slices.Contains(rules, tc.want):
			t.Errorf("Analyze(%q) findings = %v, want %s", tc.src, a.Findings, tc.want)
		}
	}
}

// commandsOf renders each command as its wrappers and args.
func commandsOf(a *Analysis) []string {
	var out []string
	for _, c := range a.Commands {
		out = append(out, strings.Join(append(append([]string(nil), c.Wrappers...), c.Args...), " "))
	}
	return out
}

// TestZshComments: an interactive zsh without interactivecomments reads
// a # that starts a word as a character; the commands it then runs are
// reported too, under the wrapper "interactive zsh".
func TestZshComments(t *testing.T) {
	tests := []struct {
		src  string
		want []string // commands beyond bash's reading
	}{
		{`echo a # ; cat .env`, []string{"interactive zsh echo a #", "interactive zsh cat .env"}},
		{`ls # .env`, []string{"interactive zsh ls # .env"}},
		{`echo a # b # ; rm x`, []string{"interactive zsh echo a # b #", "interactive zsh rm x"}},
		{"# list\nls -la", nil},
		{"ls -la # list", []string{"interactive zsh ls -la # list"}},
		{`echo 'a # b' a#b`, nil},
		{"cat <<EOF\n# x; rm y\nEOF", nil},
	}
	for _, tc := range tests {
		a := Analyze(tc.src, Options{Cwd: "/p", Env: testEnv})
		var got []string
		for _, c := range commandsOf(a) {
			if strings.HasPrefix(c, interactiveZshWrapper+" ") {
				got = append(got, c)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("Analyze(%q) zsh-only commands = %q, want %q (all: %q)", tc.src, got, tc.want, commandsOf(a))
		}
	}
	// A redirect in the comment is a file reference of that reading.
	a := Analyze(`echo a # x > .git/config`, Options{Cwd: "/p", Env: testEnv})
	found := false
	for _, c := range a.Commands {
		for _, f := range c.Files {
			found = found || f.Path == ".git/config" && f.Write
		}
	}
	if !found {
		t.Errorf("Analyze(echo a # x > .git/config): no write of .git/config among %+v", a.Commands)
	}
}

// TestReaders: files read or written through an option, a variable or
// a second operand.
func TestReaders(t *testing.T) {
	tests := []struct {
		src   string
		path  string // a file reference with this path
		write bool
		dyn   bool // or an unknown one
	}{
		{`xxd -r dump .git/hooks/pre-commit`, ".git/hooks/pre-commit", true, false},
		{`xxd in out`, "out", true, false},
		{`xxd -s 10 in out`, "out", true, false},
		{`less -o log x`, "log", true, false},
		{`less --log-file=log x`, "log", true, false},
		{`echo x | less -Olog`, "log", true, false},
		{`HISTFILE=.env; history -r`, ".env", false, false},
		{`HISTFILE=.git/config; history -w`, ".git/config", true, false},
		{`HISTFILE=hist`, "hist", true, false},
		{`history -a`, "$HISTFILE", true, true},
		{`read HISTFILE; history -n`, "$HISTFILE", false, true},
		{`go test -test.cpuprofile=.git/hooks/pre-commit .`, ".git/hooks/pre-commit", true, false},
		{`go test . -args -test.coverprofile .git/config`, ".git/config", true, false},
		{`go test -test.outputdir=.git/hooks -test.memprofile=pre-push .`, ".git/hooks", true, false},
	}
	for _, tc := range tests {
		a := Analyze(tc.src, Options{Cwd: "/p", Env: testEnv})
		found := false
		for _, c := range a.Commands {
			for _, f := range c.Files {
				found = found || f.Path == tc.path && f.Write == tc.write && f.Dynamic == tc.dyn
			}
		}
		if !found {
			t.Errorf("Analyze(%q): no reference to %s (write %v) among %+v", tc.src, tc.path, tc.write, a.Commands)
		}
	}
	for _, src := range []string{`go build -overlay o.json .`, `go run --overlay=o.json .`, `go test ./x -overlay o.json`} {
		a := Analyze(src, Options{Cwd: "/p", Env: testEnv})
		if len(a.Commands) == 0 || len(a.Commands[0].Unknown) == 0 {
			t.Errorf("Analyze(%q): no unknown reference for the overlay's files", src)
		}
	}
	for _, src := range []string{`md5sum -c sums`, `sha256sum --check sums`, `sha1sum -bc sums`, `b2sum --ch sums`} {
		a := Analyze(src, Options{Cwd: "/p", Env: testEnv})
		if len(a.Commands) == 0 || len(a.Commands[0].OptionHits) == 0 {
			t.Errorf("Analyze(%q): no option hit for the files the list names", src)
		}
	}
	for _, src := range []string{`history`, `history -c`, `history 10`, `go build ./...`} {
		a := Analyze(src, Options{Cwd: "/p", Env: testEnv})
		for _, c := range a.Commands {
			for _, f := range c.Files {
				if f.Path == "$HISTFILE" {
					t.Errorf("Analyze(%q): a reference to $HISTFILE, want none", src)
				}
			}
			if len(c.Unknown) > 0 {
				t.Errorf("Analyze(%q): unknown references %+v, want none", src, c.Unknown)
			}
		}
	}
}
