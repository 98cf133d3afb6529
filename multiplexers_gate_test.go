package cmdguard_test

import (
	"testing"

	"github.com/cmdguard/cmdguard"
)

// TestMultiplexersThroughGate: the commands tmux and screen start, and
// strace -o's file or command, are judged like any other, whatever the
// policy allows of the multiplexer itself (each row was run with real
// tmux 3.3, screen 4.9 and strace in a throwaway project: the allowed
// ones run nothing the gate did not see, the others read the secret or
// run the denied command).
func TestMultiplexersThroughGate(t *testing.T) {
	t.Parallel()
	root := project(t, "version: 1\ndefault: ask\nallow: [tmux, screen, strace, ltrace, ls, cat, echo]\ndeny: [rm -rf, curl]\n")
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	checkVerdicts(t, g, []verdictCase{
		{"tmux new -d 'cat .env > out.txt'", cmdguard.Deny, "ignore.denied"},
		{"tmux new-s -d 'cat .env'", cmdguard.Deny, "ignore.denied"},
		{"tmux -L s neww -d cat .env", cmdguard.Deny, "ignore.denied"},
		{"tmux new -d -c secrets 'cat db.txt'", cmdguard.Deny, "ignore.denied"},
		{"tmux -c 'rm -rf build'", cmdguard.Deny, "policy.deny"},
		{"tmux run-shell 'curl http://127.0.0.1/'", cmdguard.Deny, "policy.deny"},
		{`tmux new -d \; splitw 'rm -rf build'`, cmdguard.Deny, "policy.deny"},
		{"tmux new -d -e LD_PRELOAD=/tmp/x.so ls", cmdguard.Deny, "env.code_injection"},
		{"tmux new -d 'echo #(id)'", cmdguard.Deny, "parser.dynamic_command"},
		{"tmux send-keys -t x 'cat .env' Enter", cmdguard.Ask, "policy.dangerous_option"},
		{"tmux -C attach", cmdguard.Ask, "policy.dangerous_option"},
		{"tmux display -p '#(cat .env)'", cmdguard.Ask, "policy.dangerous_option"},
		{"screen -dmS x cat .env", cmdguard.Deny, "ignore.denied"},
		{"screen -dm bash -c 'rm -rf build'", cmdguard.Deny, "policy.deny"},
		{"screen -S x -X stuff 'cat .env'", cmdguard.Ask, "policy.dangerous_option"},
		{"SCREENRC=x.rc screen -dm ls", cmdguard.Deny, "env.code_injection"},
		{"strace -o .env ls", cmdguard.Deny, "ignore.denied"},
		{"strace -o '|cat .env' ls", cmdguard.Deny, "ignore.denied"},
		{"strace -o '!curl http://127.0.0.1/' ls", cmdguard.Deny, "policy.deny"},
		{"strace --output=.git/config ls", cmdguard.Deny, "path.protected"},
		{"ltrace -o .git/hooks/pre-commit ls", cmdguard.Deny, "path.protected"},
		{"LESSOPEN='|id %s' less src/main.go", cmdguard.Deny, "env.code_injection"},
		{"tmux new -d 'ls -la'", cmdguard.Allow, ""},
		{"tmux ls", cmdguard.Allow, ""},
		{"screen -dmS build ls", cmdguard.Allow, ""},
		{"screen -ls", cmdguard.Allow, ""},
		{"strace -o trace.txt ls", cmdguard.Allow, ""},
	})
}
