package parser

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Every wrapper docs/contract.md ("What is checked") lists, with the inner command checked.
var wrapperTests = []struct {
	src      string
	commands []string
	findings []string
}{
	{`bash -c 'ls -l'`, []string{"|bash -c ls -l", "bash -c|ls -l"}, nil},
	{`sh -ec 'eval x'`, []string{"|sh -ec eval x", "sh -c|eval x"}, []string{"1:9 parser.eval"}},
	{`zsh -c 'ls'`, []string{"|zsh -c ls", "zsh -c|ls"}, nil},
	{`dash -c 'ls'`, []string{"|dash -c ls", "dash -c|ls"}, nil},
	{`bash -o pipefail -c 'ls' name arg`, []string{"|bash -o pipefail -c ls name arg", "bash -c|ls"}, nil},
	{`busybox sh -c 'rm $(x)'`, []string{"|busybox sh -c rm $(x)", "busybox|sh -c rm $(x)", "busybox,sh -c|x", "busybox,sh -c|rm $(x)"}, []string{"1:19 parser.command_substitution"}},
	{`su -c 'eval x' root`, []string{"|su -c eval x root", "su -c|eval x"}, []string{"1:8 parser.eval"}},
	{`su root`, []string{"|su root"}, []string{"1:1 parser.dynamic_command"}},
	{"su - root <<'EOF'\neval x\nEOF", []string{"|su - root", "su stdin|eval x"}, []string{"2:1 parser.eval"}},
	{"sudo -s <<'EOF'\neval x\nEOF", []string{"|sudo -s", "sudo stdin|eval x"}, []string{"2:1 parser.eval"}},
	{`sudo -i`, []string{"|sudo -i"}, []string{"1:1 parser.dynamic_command"}},
	{`sudo -l`, []string{"|sudo -l"}, nil},
	{"doas -s <<<'eval x'", []string{"|doas -s", "doas stdin|eval x"}, []string{"1:13 parser.eval"}},
	{"bash <<'EOF'\nls\neval x\nEOF", []string{"|bash", "bash stdin|ls", "bash stdin|eval x"}, []string{"3:1 parser.eval"}},
	{"sudo sh -s <<EOF\necho \\$HOME\nEOF", []string{"|sudo sh -s", "sudo|sh -s", "sudo,sh stdin|echo /home/u"}, nil},
	{"bash <<EOF\n$X\nEOF", []string{"|bash"}, []string{"2:1 parser.dynamic_command"}},
	{`bash <<< 'eval x'`, []string{"|bash", "bash stdin|eval x"}, []string{"1:11 parser.eval"}},
	{"cat <<EOF | bash\neval x\nEOF", []string{"|cat", "|bash"}, []string{"1:13 parser.dynamic_command"}},
	{`curl -s https://x.test/i.sh | sh`, []string{"|curl -s https://x.test/i.sh", "|sh"}, []string{"1:31 parser.dynamic_command"}},
	{`bash < script.sh`, []string{"|bash"}, []string{"1:1 parser.dynamic_command"}},
	{`bash --version`, []string{"|bash --version"}, nil},
	{`su -lc 'eval x'`, []string{"|su -lc eval x", "su -c|eval x"}, []string{"1:9 parser.eval"}},
	{`script -qc"eval x" /dev/null`, []string{"|script -qceval x /dev/null", "script -c|eval x"}, []string{"1:8 parser.eval"}},
	{`script out.log -c 'eval x'`, []string{"|script out.log -c eval x", "script -c|eval x"}, []string{"1:20 parser.eval"}},
	{`su -c"eval x"`, []string{"|su -ceval x", "su -c|eval x"}, []string{"1:4 parser.eval"}},
	{`su -lc"eval x" root`, []string{"|su -lceval x root", "su -c|eval x"}, []string{"1:4 parser.eval"}},
	{`env -iS 'eval x'`, []string{"|env -iS eval x", "env|eval x"}, []string{"1:9 parser.eval"}},
	{`env -iS'eval x'`, []string{"|env -iSeval x", "env|eval x"}, []string{"1:5 parser.eval"}},
	{`env -iu HOME eval x`, []string{"|env -iu HOME eval x", "env|eval x"}, []string{"1:14 parser.eval"}},
	{`flock -c'eval x' /tmp/lock`, []string{"|flock -ceval x /tmp/lock", "flock -c|eval x"}, []string{"1:7 parser.eval"}},
	{`script -q -c 'eval x' /dev/null`, []string{"|script -q -c eval x /dev/null", "script -c|eval x"}, []string{"1:15 parser.eval"}},
	{`watch -n 5 'ls $(x)'`, []string{"|watch -n 5 ls $(x)", "watch|x", "watch|ls $(x)"}, []string{"1:16 parser.command_substitution"}},
	{`watch -n 5 ls -l`, []string{"|watch -n 5 ls -l", "watch|ls -l"}, nil},
	{`watch -x eval ls`, []string{"|watch -x eval ls", "watch|eval ls"}, []string{"1:10 parser.eval"}},
	{`env -i -u HOME FOO=1 eval x`, []string{"|env -i -u HOME FOO=1 eval x", "env|eval x"}, []string{"1:16 env.unknown", "1:22 parser.eval"}},
	{`env -S 'rm\_-rf\_a'`, []string{"|env -S rm\\_-rf\\_a", "env|rm -rf a"}, nil},
	{`env -S 'rm -rf a\c b'`, []string{"|env -S rm -rf a\\c b", "env|rm -rf a"}, nil},
	{`env -S "ls '\_' \"a\_b\""`, []string{"|env -S ls '\\_' \"a\\_b\"", "env|ls \\_ a  b"}, nil},
	{`env -S 'FOO=1 eval x'`, []string{"|env -S FOO=1 eval x", "env|eval x"}, []string{"1:8 env.unknown", "1:8 parser.eval"}},
	{`env -- ls`, []string{"|env -- ls", "env|ls"}, nil},
	{`sudo eval x`, []string{"|sudo eval x", "sudo|eval x"}, []string{"1:6 parser.eval"}},
	{`sudo -u root -E ls`, []string{"|sudo -u root -E ls", "sudo|ls"}, nil},
	{`sudo -- rm -rf /`, []string{"|sudo -- rm -rf /", "sudo|rm -rf /"}, nil},
	{`doas -u root eval x`, []string{"|doas -u root eval x", "doas|eval x"}, []string{"1:14 parser.eval"}},
	{`command eval x`, []string{"|command eval x", "command|eval x"}, []string{"1:9 parser.eval"}},
	{`command -v eval`, []string{"|command -v eval"}, nil},
	{`builtin eval x`, []string{"|builtin eval x", "builtin|eval x"}, []string{"1:9 parser.eval"}},
	{`exec -a name eval x`, []string{"|exec -a name eval x", "exec|eval x"}, []string{"1:14 parser.eval"}},
	{`nohup eval x`, []string{"|nohup eval x", "nohup|eval x"}, []string{"1:7 parser.eval"}},
	{`time eval x`, []string{"|eval x"}, []string{"1:6 parser.eval"}},
	{`/usr/bin/time -o t.txt eval x`, []string{"|/usr/bin/time -o t.txt eval x", "time|eval x"}, []string{"1:24 parser.eval"}},
	{`timeout -s KILL 5s eval x`, []string{"|timeout -s KILL 5s eval x", "timeout|eval x"}, []string{"1:20 parser.eval"}},
	{`timeout 5 ls`, []string{"|timeout 5 ls", "timeout|ls"}, nil},
	{`nice -n 10 eval x`, []string{"|nice -n 10 eval x", "nice|eval x"}, []string{"1:12 parser.eval"}},
	{`nice eval x`, []string{"|nice eval x", "nice|eval x"}, []string{"1:6 parser.eval"}},
	{`ionice -c 3 eval x`, []string{"|ionice -c 3 eval x", "ionice|eval x"}, []string{"1:13 parser.eval"}},
	{`chrt -f 10 eval x`, []string{"|chrt -f 10 eval x", "chrt|eval x"}, []string{"1:12 parser.eval"}},
	{`taskset -c 0 eval x`, []string{"|taskset -c 0 eval x", "taskset|eval x"}, []string{"1:14 parser.eval"}},
	{`setsid -f eval x`, []string{"|setsid -f eval x", "setsid|eval x"}, []string{"1:11 parser.eval"}},
	{`flock /tmp/l eval x`, []string{"|flock /tmp/l eval x", "flock|eval x"}, []string{"1:14 parser.eval"}},
	{`flock -w 5 /tmp/l -c 'eval x'`, []string{"|flock -w 5 /tmp/l -c eval x", "flock -c|eval x"}, []string{"1:23 parser.eval"}},
	{`stdbuf -oL eval x`, []string{"|stdbuf -oL eval x", "stdbuf|eval x"}, []string{"1:12 parser.eval"}},
	{`stdbuf -o L eval x`, []string{"|stdbuf -o L eval x", "stdbuf|eval x"}, []string{"1:13 parser.eval"}},
	{`unbuffer eval x`, []string{"|unbuffer eval x", "unbuffer|eval x"}, []string{"1:10 parser.eval"}},
	{`xargs -0 -n 1 eval`, []string{"|xargs -0 -n 1 eval", "xargs|eval"}, []string{"1:15 parser.eval"}},
	{`xargs -I{} sh -c 'rm $(x)'`, []string{"|xargs -I{} sh -c rm $(x)", "xargs|sh -c rm $(x)", "xargs,sh -c|x", "xargs,sh -c|rm $(x)"}, []string{"1:22 parser.command_substitution"}},
	{`parallel 'eval {}' ::: a b`, []string{"|parallel eval {} ::: a b", "parallel|eval {}"}, []string{"1:11 parser.eval"}},
	{`parallel gzip`, []string{"|parallel gzip", "parallel|gzip"}, nil},
	{`find . -exec eval {} \;`, []string{"|find . -exec eval {} ;", "find -exec|eval {}"}, []string{"1:14 parser.eval"}},
	{`find . -exec sh -c 'rm $(x)' \;`, []string{"|find . -exec sh -c rm $(x) ;", "find -exec|sh -c rm $(x)", "find -exec,sh -c|x", "find -exec,sh -c|rm $(x)"}, []string{"1:24 parser.command_substitution"}},
	{`find . -name x -execdir ls {} + -ok rm {} \; -okdir eval {} \;`, []string{"|find . -name x -execdir ls {} + -ok rm {} ; -okdir eval {} ;", "find -execdir|ls {}", "find -ok|rm {}", "find -okdir|eval {}"}, []string{"1:53 parser.eval"}},
	{`sudo env PATH=/x nice -n 1 timeout 5 bash -c 'eval y'`, []string{
		"|sudo env PATH=/x nice -n 1 timeout 5 bash -c eval y",
		"sudo|env PATH=/x nice -n 1 timeout 5 bash -c eval y",
		"sudo,env|nice -n 1 timeout 5 bash -c eval y",
		"sudo,env,nice|timeout 5 bash -c eval y",
		"sudo,env,nice,timeout|bash -c eval y",
		"sudo,env,nice,timeout,bash -c|eval y"}, []string{"1:10 env.code_injection", "1:47 parser.eval"}},
	{`sudo -nD/etc cat passwd`, []string{"|sudo -nD/etc cat passwd", "sudo|cat passwd"}, nil},
	{`sudo --chd=/etc cat passwd`, []string{"|sudo --chd=/etc cat passwd", "sudo|cat passwd"}, nil},
	{`sudo -u -e ls`, []string{"|sudo -u -e ls", "sudo|ls"}, nil},
	{`sudo -ne /etc/hosts`, []string{"|sudo -ne /etc/hosts"}, nil},
	{`git -C sub --no-pager -c user.name=x log`, []string{"|git -C sub --no-pager -c user.name=x log"}, nil},
}

func TestWrappers(t *testing.T) {
	t.Parallel()
	for _, tc := range wrapperTests {
		t.Run(tc.src, func(t *testing.T) {
			t.Parallel()
			a := Analyze(tc.src, Options{Cwd: "/repo", Env: testEnv})
			if diff := cmp.Diff(tc.commands, commandLines(a)); diff != "" {
				t.Errorf("Analyze(%q) commands mismatch (-want +got):\n%s", tc.src, diff)
			}
			if diff := cmp.Diff(tc.findings, findings(a)); diff != "" {
				t.Errorf("Analyze(%q) findings mismatch (-want +got):\n%s", tc.src, diff)
			}
		})
	}
}

func TestDepthAndCount(t *testing.T) {
	t.Parallel()
	deep := "ls"
	for range 12 {
		deep = "sudo " + deep
	}
	var many strings.Builder
	for range 300 {
		many.WriteString("ls;")
	}
	tests := []struct {
		src  string
		opts Options
		rule string
	}{
		{deep, Options{}, "parser.too_deep"},
		{"sudo sudo sudo ls", Options{MaxDepth: 2}, "parser.too_deep"},
		{many.String(), Options{}, "parser.too_many_commands"},
		{"ls; ls; ls", Options{MaxCommands: 2}, "parser.too_many_commands"},
		{`bash -c "bash -c 'bash -c ls'"`, Options{MaxDepth: 2}, "parser.too_deep"},
		{"echo " + strings.Repeat("{", 200), Options{}, "parser.unsupported"},
		{"echo {1..1000}", Options{}, "parser.unsupported"},
		{"echo {a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}{o,p}{q,r}", Options{}, "parser.unsupported"},
	}
	for _, tc := range tests {
		t.Run(tc.rule+" "+tc.src[:min(len(tc.src), 20)], func(t *testing.T) {
			t.Parallel()
			a := Analyze(tc.src, tc.opts)
			found := false
			for _, f := range a.Findings {
				found = found || f.Rule == tc.rule
			}
			if !found {
				t.Errorf("Analyze(%.40q) findings = %v, want %s", tc.src, a.Findings, tc.rule)
			}
			max := tc.opts.MaxCommands
			if max == 0 {
				max = DefaultMaxCommands
			}
			if len(a.Commands) > max {
				t.Errorf("Analyze(%.40q) reported %d commands, more than %d", tc.src, len(a.Commands), max)
			}
		})
	}
}

// Programs that run their operands as a command, beyond the contract's
// list (issue 11): the inner command is found, however the wrapper's
// options and operands are spelled.
func TestMoreWrappers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ src, inner string }{
		{"strace -f -o /tmp/x -e trace=all rm -rf a", "rm -rf a"},
		{"strace --output /tmp/x rm -rf a", "rm -rf a"},
		{"ltrace -e malloc -o t rm -rf a", "rm -rf a"},
		{"valgrind --tool=memcheck -q rm -rf a", "rm -rf a"},
		{"setarch x86_64 -R rm -rf a", "rm -rf a"},
		{"setarch x86_64 --addr-no-randomize rm -rf a", "rm -rf a"},
		{"linux32 rm -rf a", "rm -rf a"},
		{"linux64 -R rm -rf a", "rm -rf a"},
		{"prlimit --nofile=10 --cpu=5 rm -rf a", "rm -rf a"},
		{"unshare -r -w /tmp rm -rf a", "rm -rf a"},
		{"nsenter -t 1 -m -u rm -rf a", "rm -rf a"},
		{"setpriv --reuid 1000 --init-groups rm -rf a", "rm -rf a"},
		{"fakeroot -s state rm -rf a", "rm -rf a"},
		{"ssh-agent -t 60 rm -rf a", "rm -rf a"},
		{"dbus-run-session --config-file=x -- rm -rf a", "rm -rf a"},
		{"firejail --noprofile --net=none rm -rf a", "rm -rf a"},
		{"bwrap --bind / / --dev /dev --setenv A B --chdir /tmp rm -rf a", "rm -rf a"},
		{"chroot --userspec=1:1 / rm -rf a", "rm -rf a"},
		{"sg users 'rm -rf a'", "rm -rf a"},
		{"sg - users -c 'rm -rf a'", "rm -rf a"},
	} {
		a := Analyze(tc.src, Options{Cwd: "/repo", Env: testEnv})
		found := false
		for _, c := range a.Commands {
			if len(c.Wrappers) > 0 && strings.Join(c.Args, " ") == tc.inner {
				found = true
			}
		}
		if !found {
			t.Errorf("Analyze(%q): no inner command %q in %q", tc.src, tc.inner, commandLines(a))
		}
	}
	for _, src := range []string{"ssh-agent -k", "prlimit -p 1"} {
		if got := commandLines(Analyze(src, Options{Cwd: "/repo", Env: testEnv})); len(got) != 1 {
			t.Errorf("Analyze(%q) = %q, want no inner command", src, got)
		}
	}
}

// TestWrapperEntryFields: what a wrapper's entry says of it (wrapSpec's
// inCaller, ownOptions, plain, hashWord, edits; doas -s's startsShell),
// each against a wrapper whose entry does not say it.
func TestWrapperEntryFields(t *testing.T) {
	t.Parallel()
	last := func(a *Analysis) Command { return a.Commands[len(a.Commands)-1] }
	has := func(a *Analysis, rule string) bool {
		return slices.ContainsFunc(a.Findings, func(f Finding) bool { return f.Rule == rule })
	}
	for _, tc := range []struct {
		src  string
		test func(a *Analysis) bool
	}{
		// inCaller: command cd changes the shell's directory, nice cd not.
		{"command cd a && ls", func(a *Analysis) bool { return last(a).Cwd == "/repo/a" }},
		{"builtin cd a && ls", func(a *Analysis) bool { return last(a).Cwd == "/repo/a" }},
		{"nice cd a && ls", func(a *Analysis) bool { return last(a).Cwd == "/repo" }},
		// ownOptions: busybox -- --list runs no command named --list.
		{"busybox -- --list", func(a *Analysis) bool { return len(a.Commands) == 1 }},
		{"nice -- --list", func(a *Analysis) bool { return len(a.Commands) == 2 }},
		// plain: bash -c is transparent, ksh -c is not.
		{"bash -x -c ls", func(a *Analysis) bool { return a.Commands[0].Transparent }},
		{"zsh -c ls", func(a *Analysis) bool { return a.Commands[0].Transparent }},
		{"ksh -x -c ls", func(a *Analysis) bool { return !a.Commands[0].Transparent }},
		// hashWord: zsh -i reads # inside a word as no comment; bash -i not.
		{"zsh -i <<'EOF'\nls # ; cat .env\nEOF", func(a *Analysis) bool { return has(a, "parser.not_portable") }},
		{"bash -i <<'EOF'\nls # ; cat .env\nEOF", func(a *Analysis) bool { return !has(a, "parser.not_portable") }},
		// edits: sudoedit f writes f; sudo f runs f.
		{"sudoedit f", func(a *Analysis) bool {
			return len(a.Commands) == 1 && len(a.Commands[0].Files) == 1 && a.Commands[0].Files[0].Write
		}},
		{"sudo f", func(a *Analysis) bool { return len(a.Commands) == 2 }},
		// startsShell: doas -s reads a shell script from its input.
		{"doas -s", func(a *Analysis) bool { return has(a, "parser.dynamic_command") }},
		{"doas -u root", func(a *Analysis) bool { return !has(a, "parser.dynamic_command") }},
		// options: su's, script's and env's options that take a value
		// (and which value is the command run, or a file written) are
		// their entries' (-gwheel is -g wheel, not -g -w -h -e -e -l).
		{"su -gwheel -c 'cat .env' u", func(a *Analysis) bool { return slices.Equal(last(a).MatchArgv, []string{"cat", ".env"}) }},
		{"runuser --sess='cat .env' u", func(a *Analysis) bool { return slices.Equal(last(a).MatchArgv, []string{"cat", ".env"}) }},
		{"script -qOlog -c ls", func(a *Analysis) bool {
			f := a.Commands[0].Files
			return len(a.Commands) == 2 && len(f) == 1 && f[0].Path == "log" && f[0].Write
		}},
		{"env -vS'cat .env'", func(a *Analysis) bool { return slices.Equal(last(a).MatchArgv, []string{"cat", ".env"}) }},
	} {
		if a := Analyze(tc.src, Options{Cwd: "/repo"}); !tc.test(a) {
			t.Errorf("%q: commands %+v findings %+v", tc.src, a.Commands, a.Findings)
		}
	}
}
