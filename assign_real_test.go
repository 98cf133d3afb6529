package cmdguard_test

import (
	"context"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard"
)

// TestAssignOnlyRunsNothing: the statements that only assign shell
// variables, which the embedded default allows (policy.assign_only, rows
// in testdata/gate/assign-only.txtar), run in real bash under strace: no
// program starts but bash, no file of the project is opened but its
// directory (a glob lists it), nothing is created, removed or renamed,
// no socket connects. The control row, which does run a program, shows
// that the trace sees one.
func TestAssignOnlyRunsNothing(t *testing.T) {
	needProgram(t, "strace") // else nothing shows what bash does
	root := t.TempDir()
	for name, body := range map[string]string{".env": "SECRET=1\n", "a.go": "package a\n"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close(context.Background())
	trace := func(command string) (execs int, touched []string) {
		out := filepath.Join(t.TempDir(), "trace")
		c := osexec.Command("strace", "-f", "-qq", "-o", out,
			"-e", "trace=execve,openat,open,creat,unlink,unlinkat,rename,renameat,renameat2,mkdir,mkdirat,connect", "bash", "-c", command)
		c.Dir = root
		if b, err := c.CombinedOutput(); err != nil && !strings.Contains(command, "false") {
			t.Fatalf("strace bash -c %q: %v\n%s", command, err, b)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(string(b), "\n") {
			switch {
			case strings.Contains(l, "execve("):
				execs++
			case strings.Contains(l, "openat(AT_FDCWD, \"/") && !strings.Contains(l, root):
				// the loader, locales, /dev/tty: bash's own start
			case strings.Contains(l, "openat(AT_FDCWD, \".\", O_RDONLY|O_NONBLOCK|O_CLOEXEC|O_DIRECTORY)"):
				// a glob lists the directory
			case strings.Contains(l, "connect(") && strings.Contains(l, "/nscd/socket"):
				// libc's user lookup as bash starts (not as root)
			case strings.Contains(l, "("):
				touched = append(touched, l)
			}
		}
		return execs, touched
	}
	if n, _ := trace("a=1; true; /bin/true"); n < 2 {
		t.Fatalf("the control row started %d programs under strace, want 2: the trace proves nothing", n)
	}
	if _, touched := trace("a=$(<.env)"); len(touched) == 0 {
		t.Fatalf("the control row a=$(<.env) opened nothing under strace: the trace proves nothing")
	}
	for _, command := range []string{
		"files=(a b c)", "a=1; b=2", "x=1; y=$x", "a=(x y) b=(1); a+=(z)", "n=$((1+2))", "a=(*.go) d=~/x", "a=(.env*)",
	} {
		d, err := g.Check(context.Background(), cmdguard.Request{Command: command})
		if err != nil {
			t.Fatal(err)
		}
		if d.Verdict != cmdguard.Allow {
			t.Errorf("%q under the embedded default: %v, want allow (%v)", command, d.Verdict, d.Reasons)
		}
		if execs, touched := trace(command); execs != 1 || len(touched) != 0 {
			t.Errorf("bash -c %q started %d programs (want 1: bash) and touched %q", command, execs, touched)
		}
	}
}
