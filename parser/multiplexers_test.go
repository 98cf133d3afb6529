package parser

import (
	"path"
	"slices"
	"strings"
	"testing"
)

// tmux and screen run the commands of new sessions, windows and panes
// (issue 11): the inner command is found and checked like any other, in
// the directory and with the environment the multiplexer gives it.
// Each row was judged with real tmux 3.3 and screen 4.9 (see the
// README's table section).
func TestMultiplexers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		src   string
		inner []string // wrappers|args of the commands it runs
		files []string // file references of every command (path:w for a write)
		rules []string // findings
	}{
		{src: "tmux new -d 'cat .env > out'", inner: []string{"tmux new|cat .env"}, files: []string{".env", "out:w"}},
		{src: "tmux new-session -d -s x cat .env", inner: []string{"tmux new-session|cat .env"}, files: []string{".env"}},
		{src: "tmux new-s -d 'rm -rf a'", inner: []string{"tmux new-s|rm -rf a"}},
		{src: "tmux -L sock neww -n w 'rm -rf a'", inner: []string{"tmux neww|rm -rf a"}},
		{src: "tmux splitw -h -l 10 rm -rf a", inner: []string{"tmux splitw|rm -rf a"}},
		{src: "tmux respawn-pane -k -t x 'rm -rf a'", inner: []string{"tmux respawn-pane|rm -rf a"}},
		{src: "tmux run-shell -b 'rm -rf a'", inner: []string{"tmux run-shell|rm -rf a"}},
		{src: "tmux run 'rm -rf a'", inner: []string{"tmux run|rm -rf a"}},
		{src: "tmux if-shell 'rm -rf a' 'display x'", inner: []string{"tmux if-shell|rm -rf a"}},
		{src: "tmux pipe-pane -o 'cat >> log'", inner: []string{"tmux pipe-pane|cat"}, files: []string{"log:w"}},
		{src: "tmux display-popup -E 'rm -rf a'", inner: []string{"tmux display-popup|rm -rf a"}},
		{src: "tmux -c 'rm -rf a'", inner: []string{"tmux -c|rm -rf a"}},
		{src: `tmux new -d \; neww 'rm -rf a'`, inner: []string{"tmux neww|rm -rf a"}},
		{src: "tmux new -d -c secrets 'cat db.txt'", inner: []string{"tmux new|cat db.txt"}, files: []string{"secrets/db.txt"}},
		{src: "tmux new -d -e LD_PRELOAD=/x.so ls", inner: []string{"tmux new|ls"}, rules: []string{"env.code_injection"}},
		{src: "tmux new -d 'echo #(id)'", rules: []string{"parser.dynamic_command"}},
		{src: "tmux new -d \"$X\"", rules: []string{"parser.dynamic_command"}},
		{src: "tmux run-shell -C 'new-window x'"},
		{src: "tmux ls"},
		{src: "screen -dmS x cat .env", inner: []string{"screen|cat .env"}, files: []string{".env"}},
		{src: "screen -dm bash -c 'rm -rf a'", inner: []string{"screen|bash -c rm -rf a", "screen,bash -c|rm -rf a"}},
		{src: "screen -dm -s ./evil", inner: []string{"screen|./evil"}},
		{src: "screen -Logfile out -L -dm ls", inner: []string{"screen|ls"}, files: []string{"out:w"}},
		{src: "screen -ls"},
		{src: "screen -S x -X stuff 'rm -rf a'"},
		{src: "strace -o trace.txt ls", inner: []string{"strace|ls"}, files: []string{"trace.txt:w"}},
		{src: "strace -fo.env ls", inner: []string{"strace|ls"}, files: []string{".env:w"}},
		{src: "strace --output=.git/config ls", inner: []string{"strace|ls"}, files: []string{".git/config:w"}},
		{src: "strace --out .git/config ls", inner: []string{"strace|ls"}, files: []string{".git/config:w"}},
		{src: "strace -o '|rm -rf a' ls", inner: []string{"strace -o ||rm -rf a", "strace|ls"}},
		{src: "strace -o '!rm -rf a' ls", inner: []string{"strace -o ||rm -rf a", "strace|ls"}},
		{src: "strace -o \"$F\" ls", inner: []string{"strace|ls"}, rules: []string{"parser.dynamic_command"}},
		{src: "ltrace -o .git/hooks/x ls", inner: []string{"ltrace|ls"}, files: []string{".git/hooks/x:w"}},
		{src: "command time -o out ls", inner: []string{"command|time -o out ls", "command,time|ls"}, files: []string{"out:w"}},
	} {
		a := Analyze(tc.src, Options{Cwd: "/repo", Env: testEnv})
		var inner, files, rules []string
		for _, c := range a.Commands {
			if len(c.Wrappers) > 0 {
				inner = append(inner, strings.Join(c.Wrappers, ",")+"|"+strings.Join(c.Args, " "))
			}
			for _, f := range c.Files {
				p := strings.TrimPrefix(path.Join(c.Cwd, f.Path), "/repo/")
				if f.Write {
					p += ":w"
				}
				files = append(files, p)
			}
		}
		for _, f := range a.Findings {
			rules = append(rules, f.Rule)
		}
		if !slices.Equal(inner, tc.inner) {
			t.Errorf("Analyze(%q): inner commands %q, want %q", tc.src, inner, tc.inner)
		}
		for _, f := range tc.files {
			if !slices.Contains(files, f) {
				t.Errorf("Analyze(%q): files %q, want %q among them", tc.src, files, f)
			}
		}
		for _, r := range tc.rules {
			if !slices.Contains(rules, r) {
				t.Errorf("Analyze(%q): findings %q, want %q among them", tc.src, rules, r)
			}
		}
	}
}

// TestMultiplexerGuards: tmux and screen commands that run commands the
// gate does not read are guarded (policy.dangerous_option).
func TestMultiplexerGuards(t *testing.T) {
	t.Parallel()
	checkGuards(t, []guardCase{
		{"tmux send-keys -t x rm\x00-rf\x00a Enter", true},
		{"tmux send -t x ls Enter", true},
		{"tmux new -d ; send -t x ls Enter", true},
		{"tmux -L s send-k ls Enter", true}, // an abbreviation
		{"tmux -f evil.conf new -d", true},
		{"tmux -C attach -t s", true}, // control mode: commands from stdin
		{"tmux -uC attach", true},
		{"tmux source-file x.conf", true},
		{"tmux bind-key x run-shell\x00ls", true},
		{"tmux set-option -g default-command evil", true},
		{"tmux setenv -g LD_PRELOAD x", true},
		{"tmux if-shell true new-window", true},
		{"tmux run-shell -C new-window", true},
		{"tmux display -p #(id)", true},
		{"tmux frobnicate", true}, // a command the table does not know
		{"tmux new -d ls", false},
		{"tmux ls", false},
		{"tmux kill-server", false},
		{"tmux -L s attach -t x", false},
		{"screen -S x -X stuff ls", true},
		{"screen -c evil.rc -dm ls", true},
		{"screen -dmS x ls", false},
		{"screen -ls", false},
		{"screen -r x", false},
	})
}
