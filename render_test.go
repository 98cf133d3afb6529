package cmdguard_test

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard"
)

func TestRenderEscapes(t *testing.T) {
	t.Parallel()
	root := project(t, testPolicy)
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	cmd := "rm -rf x\x1b[2J"
	d, _ := g.Check(context.Background(), cmdguard.Request{Command: cmd, Cwd: root})
	var b strings.Builder
	if err := g.Render(&b, cmd, d); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.ContainsRune(out, 0x1b) {
		t.Errorf("Render printed a raw ESC:\n%q", out)
	}
	if !strings.Contains(out, `\x1b[2J`) || !strings.Contains(out, "deny: policy.deny") || !strings.Contains(out, "    rm -rf x?[2J\n    ^\n") {
		t.Errorf("Render = %q; want the escaped message, the rule and a caret under the command", out)
	}
	if s := d.Summary(); strings.ContainsRune(s, 0x1b) || !strings.HasPrefix(s, "deny: 1:1 policy.deny: ") {
		t.Errorf("Summary = %q", s)
	}
}

func TestRenderLongWord(t *testing.T) {
	t.Parallel()
	root := project(t, testPolicy)
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	cmd := "cat .env " + strings.Repeat("x", 10000) + " && rm -rf y"
	d, _ := g.Check(context.Background(), cmdguard.Request{Command: cmd, Cwd: root})
	var b strings.Builder
	g.Render(&b, cmd, d)
	if b.Len() > 8<<10 || !strings.Contains(b.String(), "bytes in all)") {
		t.Errorf("Render of a 1 MiB word printed %d bytes; want it cut with the count", b.Len())
	}
	// The caret still points at the denied word past the cut.
	if !strings.Contains(b.String(), "x && rm -rf y\n") || !strings.Contains(b.String(), "    …x") {
		t.Errorf("Render lost the place of rm -rf:\n%s", b.String()[:min(b.Len(), 2000)])
	}
}

func TestCommandLine(t *testing.T) {
	t.Parallel()
	args := []string{"-la", "my dir", "$(id)", "it's", "a\nb", "*", ""}
	line, err := cmdguard.CommandLine("printf", append([]string{"[%s]"}, args...))
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("bash", "-c", line).Output()
	if err != nil {
		t.Fatalf("bash -c %q: %v", line, err)
	}
	want := "[-la][my dir][$(id)][it's][a\nb][*][]"
	if string(out) != want {
		t.Errorf("bash ran %q and printed %q, want %q", line, out, want)
	}
	if got, _ := cmdguard.CommandLine("ls -la | wc -l", nil); got != "ls -la | wc -l" {
		t.Errorf("CommandLine without args = %q, want the line as it is", got)
	}
	if _, err := cmdguard.CommandLine("echo", []string{"a\x00b"}); err == nil {
		t.Errorf("CommandLine with a NUL byte: no error")
	}
}

func TestAlwaysAllow(t *testing.T) {
	t.Parallel()
	root := project(t, testPolicy)
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := g.Check(context.Background(), cmdguard.Request{Command: "make build && ls", Cwd: root})
	prefixes, err := g.AlwaysAllow(d)
	if err != nil || len(prefixes) != 1 || strings.Join(prefixes[0], " ") != "make build" {
		t.Fatalf("AlwaysAllow = %q, %v; want [make build]", prefixes, err)
	}
	if err := g.AddAllow(prefixes); err != nil {
		t.Fatal(err)
	}
	g2, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := g2.Check(context.Background(), cmdguard.Request{Command: "make build && ls", Cwd: root}); d.Verdict != cmdguard.Allow {
		t.Errorf("after AddAllow: %s %+v", d.Verdict, d.Reasons)
	}
	d, _ = g.Check(context.Background(), cmdguard.Request{Command: "cat .env", Cwd: root})
	if _, err := g.AlwaysAllow(d); err == nil {
		t.Errorf("AlwaysAllow of an ignore.denied: no error")
	}
}
