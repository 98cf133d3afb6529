package policy_test

import (
	"context"
	"testing"

	"github.com/cmdguard/cmdguard/parser"
	"github.com/cmdguard/cmdguard/policy"
)

// analyzedInput is the policy input of src as the parser reads it: the
// commands' words, unknown options and guarded options, and the
// findings (file references are the gate's, not checked here).
func analyzedInput(src string) *policy.Input {
	a := parser.Analyze(src, parser.Options{Cwd: "/repo", Env: map[string]string{"HOME": "/home/u"}})
	in := &policy.Input{}
	for _, c := range a.Commands {
		pc := policy.Command{Argv: c.Args, MatchArgv: c.MatchArgv, Dynamic: make([]bool, len(c.Argv)),
			Wrappers: c.Wrappers, Transparent: c.Transparent}
		for i, w := range c.Argv {
			pc.Dynamic[i] = w.Dynamic
		}
		for _, o := range c.UnknownOptions {
			pc.UnknownOptions = append(pc.UnknownOptions, policy.Option{Value: o.Value})
		}
		for _, h := range c.OptionHits {
			pc.OptionHits = append(pc.OptionHits, policy.OptionHit{Index: h.Index, What: h.What, Why: h.Why})
		}
		in.Commands = append(in.Commands, pc)
	}
	for _, f := range a.Findings {
		in.Findings = append(in.Findings, policy.Finding{Rule: f.Rule, Message: f.Message})
	}
	return in
}

// TestDefaultPolicyMisreadings: issue 24 §2 under the embedded default.
// The read-only git subcommands, the inspection programs and the
// printing builtins are allowed (each asked, policy.no_match, on
// today's main); what they write, run or print beyond the files they
// are given still asks or denies.
func TestDefaultPolicyMisreadings(t *testing.T) {
	t.Parallel()
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		src  string
		want policy.Verdict
	}{
		// git, reading
		{"git remote -v", policy.Allow},
		{"git remote", policy.Allow},
		{"git remote get-url origin", policy.Allow},
		{"git remote get-url --push origin", policy.Allow},
		{"git worktree list", policy.Allow},
		{"git worktree list --porcelain", policy.Allow},
		{"git rev-list --count HEAD", policy.Allow},
		{"git for-each-ref --format='%(refname)' refs/heads", policy.Allow},
		{"git config --get user.name", policy.Allow},
		{"git config --get-all remote.origin.fetch", policy.Allow},
		{"git config --list", policy.Allow},
		{"git config -l", policy.Allow},
		{"git config user.name", policy.Allow},
		{"git config --get core.pager less", policy.Allow},
		{"git stash show", policy.Allow},
		{"git stash show -p stash@{1}", policy.Allow},
		{"git notes list", policy.Allow},
		{"git reflog", policy.Allow},
		{"git reflog show main", policy.Allow},
		{"git count-objects -vH", policy.Allow},
		{"git ls-tree -r --name-only HEAD", policy.Allow},
		// git, writing or reaching the network
		{"git remote add evil https://e/x", policy.Ask},
		{"git remote -v add evil https://e/x", policy.Ask},
		{"git remote set-url origin https://e/x", policy.Ask},
		{"git remote show origin", policy.Ask},
		{"git remote update", policy.Ask},
		{"git worktree add ../x", policy.Ask},
		{"git worktree remove x", policy.Ask},
		{"git config user.name x", policy.Ask},
		{"git config --unset user.name", policy.Ask},
		{"git config core.pager less", policy.Deny},
		{"git config --add alias.x !sh", policy.Deny},
		{"git stash show --output=x", policy.Ask},
		{"git stash show --ext-diff", policy.Ask},
		{"git notes add -m x", policy.Ask},
		{"git reflog expire --all", policy.Ask},
		{"git reflog delete HEAD@{1}", policy.Ask},
		{"git reflog -p --output=out", policy.Ask},
		{"git rev-list --output=out HEAD", policy.Ask},
		// inspection
		{"ps aux", policy.Allow},
		{"ps -ef", policy.Allow},
		{"ps -o pid,ppid,cmd -p 1", policy.Allow},
		{"pgrep -fl node", policy.Allow},
		{"lsof -i :3000", policy.Allow},
		{"lsof -p 1234", policy.Allow},
		{"ss -tlnp", policy.Allow},
		{"netstat -tlnp", policy.Allow},
		{"od -An -tx1 -N16 bin", policy.Allow},
		{"hexdump -C bin", policy.Allow},
		{"nm -D lib.so", policy.Allow},
		{"objdump -d bin", policy.Allow},
		{"strings -n 8 bin", policy.Allow},
		{"readelf -hS bin", policy.Allow},
		{"ps auxe", policy.Ask},
		{"ss -K dst 1.2.3.4", policy.Ask},
		{"ss -D out", policy.Ask},
		{"nm --plugin ./p.so lib.a", policy.Ask},
		{"objdump -S bin", policy.Ask},
		{"objdump -d --include=/x bin", policy.Ask},
		{"od --frobnicate bin", policy.Ask},
		// printing builtins
		{"alias ll", policy.Allow},
		{"alias", policy.Allow},
		{"hash", policy.Allow},
		{"type ls", policy.Allow},
		{"alias ls=rm", policy.Deny},
		{"hash -p /tmp/x ls", policy.Deny},
		// environment
		{"FOO=bar ls", policy.Allow},
		{"FOO=bar git status", policy.Ask},
	} {
		d := p.Evaluate(context.Background(), analyzedInput(tt.src))
		if d.Verdict != tt.want {
			t.Errorf("Default().Evaluate(%q) = %v, want %v\n%v", tt.src, d.Verdict, tt.want, d.Reasons)
		}
	}
}
