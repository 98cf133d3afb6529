package exec_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/cmdguard/cmdguard/exec"
	"github.com/cmdguard/cmdguard/internal/testneed"
)

// Test helpers shared by the package's test files.

// eventually polls cond until it holds or patience runs out.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(patience)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %s", patience, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func code(n int) *int { return &n }

func exitOf(r exec.Result) exit {
	return exit{r.Status, r.ExitCode, r.Signal, r.CoreDumped, r.ShellCode()}
}

// run runs c and fails the test if it does not end.
func run(t *testing.T, c exec.Cmd) exec.Result {
	t.Helper()
	p, err := exec.Start(testContext(t), c)
	if err != nil {
		t.Fatalf("Start(%q): %v", c.Command, err)
	}
	defer p.Release()
	r, err := p.Wait(testContext(t))
	if err != nil {
		t.Fatalf("Wait(%q): %v", c.Command, err)
	}
	if r.Status == exec.StatusRunning {
		t.Fatalf("Wait(%q): still running after %v", c.Command, patience)
	}
	return r
}

// needSelftestClient: see package testneed (skips without the program, fails under CI).
func needSelftestClient(t testing.TB) { t.Helper(); testneed.SelftestClient(t) }

// needProgram: see package testneed (skips without the program, fails under CI).
func needProgram(t testing.TB, name string) { t.Helper(); testneed.Program(t, name) }

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	t.Cleanup(cancel)
	return ctx
}

// orphanHelper starts a command whose bash has a background child and a
// foreground child, prints their pids, and waits to be killed.
func orphanHelper() int {
	p, err := exec.Start(context.Background(), exec.Cmd{Command: "sleep 300 & echo $!; sleep 301 & echo $!; echo $$; wait"})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	var next int64
	for n := 0; n < 3; {
		c := p.WaitOutput(context.Background(), exec.Stdout, next)
		os.Stdout.Write(c.Data)
		n += strings.Count(string(c.Data), "\n")
		next = c.Next
	}
	select {}
}
