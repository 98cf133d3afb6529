package exec_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	osexec "os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cmdguard/cmdguard/exec"
)

// TestPollFinalOutputWithStatus: a long poll that wakes on a command's
// last output answers with its final status in the same answer, never
// "running" with output written when it had already ended. Over 200 runs.
func TestPollFinalOutputWithStatus(t *testing.T) {
	t.Parallel()
	runs := 200
	if testing.Short() {
		runs = 50
	}
	sem := make(chan struct{}, 8)
	errs := make(chan error, runs)
	for i := 0; i < runs; i++ {
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			errs <- pollOnce(testContext(t))
		}()
	}
	bad := 0
	for i := 0; i < runs; i++ {
		if err := <-errs; err != nil {
			bad++
			if bad <= 3 {
				t.Error(err)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d long polls answered inconsistently", bad, runs)
	}
}

func pollOnce(ctx context.Context) error {
	p, err := exec.Start(ctx, exec.Cmd{Command: "sleep 0.1; echo done", SoftTimeout: 10 * time.Millisecond})
	if err != nil {
		return err
	}
	defer p.Release()
	// The soft timeout: usually running. On a loaded machine the command
	// may have ended already; the polls below must then be consistent too.
	p.Wait(ctx)
	var out []byte
	var next int64
	for {
		r, err := p.Poll(ctx, next, 0, 0)
		if err != nil {
			return err
		}
		out = append(out, r.Stdout.Data...)
		next = r.Stdout.Next
		if r.Status == exec.StatusRunning {
			if len(out) > 0 {
				return fmt.Errorf("Poll answered running with the final output %q", out)
			}
			if r.Stdout.EOF {
				return fmt.Errorf("Poll answered running with EOF")
			}
			continue
		}
		if string(out) != "done\n" || !r.Stdout.EOF || !r.Stderr.EOF {
			return fmt.Errorf("Poll answered %s with %q (EOF %v/%v), want done\\n at EOF", r.Status, out, r.Stdout.EOF, r.Stderr.EOF)
		}
		return nil
	}
}

func TestPollOffsetsAndLimit(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	p, err := exec.Start(ctx, exec.Cmd{Command: "printf 'aé😀z'; printf err >&2"})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	<-p.Done()
	var got []string
	var so, eo int64
	for i := 0; i < 10; i++ {
		r, err := p.Poll(ctx, so, eo, 1) // raised to 4 bytes
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Stdout.Data) > 4 || len(r.Stderr.Data) > 4 {
			t.Fatalf("Poll(limit 1) returned %q / %q: over 4 bytes", r.Stdout.Data, r.Stderr.Data)
		}
		got = append(got, string(r.Stdout.Data))
		so, eo = r.Stdout.Next, r.Stderr.Next
		if r.Stdout.EOF && r.Stderr.EOF {
			break
		}
	}
	if strings.Join(got, "|") != "aé|😀|z" || so != 8 || eo != 3 {
		t.Errorf("Poll reads = %q ending at %d/%d, want a\u00e9|😀|z ending at 8/3", got, so, eo)
	}
}

func TestStatus(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	p, err := exec.Start(ctx, exec.Cmd{Command: "printf abc; printf de >&2; exec sleep 300"})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	eventually(t, "output never came", func() bool {
		r, _ := p.Status()
		return r.Stdout.Next == 3 && r.Stderr.Next == 2
	})
	r, err := p.Status()
	if err != nil || r.Status != exec.StatusRunning || len(r.Stdout.Data) != 0 || r.Stdout.EOF || r.ExitCode != nil {
		t.Errorf("Status of a running command = %+v, %v", r, err)
	}
	p.Kill(syscall.SIGKILL)
	r, _ = p.Status()
	if r.Status != exec.StatusKilled || r.Signal != "SIGKILL" || !r.Stdout.EOF || r.Stdout.Next != 3 {
		t.Errorf("Status after Kill = %+v", r)
	}
}

// TestWriteGivesUp: a write to a command that does not read gives up when
// its context ends.
func TestWriteGivesUp(t *testing.T) {
	t.Parallel()
	p, err := exec.Start(testContext(t), exec.Cmd{Command: "sleep 30", StdinPipe: true})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	n, err := p.Write(ctx, make([]byte, 8<<20))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Write of 8 MiB to sleep: %d, %v; want context.DeadlineExceeded", n, err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("Write gave up after %v", d)
	}
	// The pipe is still usable by the next writer.
	if _, err := p.Write(testContext(t), nil); err != nil {
		t.Errorf("next Write: %v", err)
	}
}

// TestEOFMeansEnded: a command that closes its output and goes on is not
// at EOF.
func TestEOFMeansEnded(t *testing.T) {
	t.Parallel()
	ctx := testContext(t)
	p, err := exec.Start(ctx, exec.Cmd{Command: "echo hi; exec >&- 2>&-; sleep 0.3"})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	c := p.WaitOutput(ctx, exec.Stdout, 0)
	for !c.EOF {
		c = p.WaitOutput(ctx, exec.Stdout, c.Next)
		if ctx.Err() != nil {
			t.Fatal("no EOF")
		}
		if !c.EOF {
			select {
			case <-p.Done():
				t.Fatal("ended but not at EOF")
			default:
			}
		}
	}
	select {
	case <-p.Done():
	default:
		t.Errorf("WaitOutput said EOF while the command still runs")
	}
	if r, _ := p.Poll(ctx, 3, 0, 0); r.Status != exec.StatusCompleted || !r.Stdout.EOF {
		t.Errorf("Poll after the end = %s, EOF %v", r.Status, r.Stdout.EOF)
	}
}

func TestSoftTimeout(t *testing.T) {
	t.Parallel()
	p, err := exec.Start(testContext(t), exec.Cmd{Command: "echo a; sleep 0.4; echo b", SoftTimeout: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	r, _ := p.Wait(testContext(t))
	if r.Status != exec.StatusRunning || string(r.Stdout.Data) != "a\n" {
		t.Errorf("Wait past the soft timeout = %s %q, want running \"a\\n\"", r.Status, r.Stdout.Data)
	}
	<-p.Done()
	r, _ = p.Wait(testContext(t))
	if r.Status != exec.StatusCompleted || string(r.Stdout.Data) != "a\nb\n" {
		t.Errorf("after the end = %s %q", r.Status, r.Stdout.Data)
	}
}

// TestExitStatus: the ACP exit status shape.
func TestExitStatus(t *testing.T) {
	t.Parallel()
	if s := run(t, exec.Cmd{Command: "exit 3"}).ExitStatus(); s == nil || s.ExitCode == nil || *s.ExitCode != 3 || s.Signal != nil {
		t.Errorf("exit 3: %+v", s)
	}
	if s := run(t, exec.Cmd{Command: "kill -SEGV $$"}).ExitStatus(); s == nil || s.ExitCode != nil || s.Signal == nil || *s.Signal != "SIGSEGV" {
		t.Errorf("SIGSEGV: %+v", s)
	}
	if s := (exec.Result{Status: exec.StatusRunning}).ExitStatus(); s != nil {
		t.Errorf("running: %+v, want nil", s)
	}
}

const orphanHelperEnv = "CMDGUARD_EXEC_ORPHAN_HELPER"

// TestParentKilled: a program killed by SIGKILL leaves none of its
// commands' processes behind.
func TestParentKilled(t *testing.T) {
	t.Parallel()
	cmd := osexec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), orphanHelperEnv+"=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	var pids []int
	for len(pids) < 3 && sc.Scan() {
		pid, err := strconv.Atoi(sc.Text())
		if err != nil {
			t.Fatalf("helper printed %q", sc.Text())
		}
		pids = append(pids, pid)
	}
	if len(pids) < 3 {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("helper printed %d pids", len(pids))
	}
	for _, pid := range pids {
		if dead(pid) {
			t.Fatalf("process %d is not running before the kill", pid)
		}
	}
	cmd.Process.Kill() // SIGKILL
	cmd.Wait()
	for _, pid := range pids {
		eventually(t, fmt.Sprintf("process %d outlived the program that started it", pid), func() bool { return dead(pid) })
	}
}
