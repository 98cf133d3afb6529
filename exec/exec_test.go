package exec_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/cmdguard/cmdguard/exec"
	"github.com/google/go-cmp/cmp"
)

// patience bounds every wait in these tests. It is far above what any step
// needs, so that a loaded machine does not fail them; it is never an
// assertion about speed.
const patience = 60 * time.Second

// exit is the part of a Result that says how a command ended.
type exit struct {
	Status     exec.Status
	ExitCode   *int
	Signal     string
	CoreDumped bool
	ShellCode  int
}

// groupGone reports whether no process is left in process group pgid.
func groupGone(pgid int) bool {
	return syscall.Kill(-pgid, 0) == syscall.ESRCH
}

// readPids waits for n lines of process ids on p's stdout.
func readPids(t *testing.T, p *exec.Process, n int) []int {
	t.Helper()
	ctx := testContext(t)
	var out []byte
	var next int64
	for bytes.Count(out, []byte("\n")) < n {
		c := p.WaitOutput(ctx, exec.Stdout, next)
		if ctx.Err() != nil || (c.EOF && len(c.Data) == 0) {
			t.Fatalf("waiting for %d pids, got %q", n, out)
		}
		out = append(out, c.Data...)
		next = c.Next
	}
	var pids []int
	for _, f := range strings.Fields(string(out)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("pid line %q: %v", f, err)
		}
		pids = append(pids, pid)
	}
	return pids
}

func TestExitCodes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		cmd  string
		want exit
	}{
		{"true", exit{exec.StatusCompleted, code(0), "", false, 0}},
		{"exit 1", exit{exec.StatusCompleted, code(1), "", false, 1}},
		{"exit 42", exit{exec.StatusCompleted, code(42), "", false, 42}},
		{"exit 255", exit{exec.StatusCompleted, code(255), "", false, 255}},
		{"exit 256", exit{exec.StatusCompleted, code(0), "", false, 0}},
		{"cmdguard-no-such-command", exit{exec.StatusCompleted, code(127), "", false, 127}},
		{"sh -c 'kill -KILL $$'; exit $?", exit{exec.StatusCompleted, code(137), "", false, 137}},
	}
	for _, tt := range tests {
		t.Run(tt.cmd, func(t *testing.T) {
			t.Parallel()
			got := exitOf(run(t, exec.Cmd{Command: tt.cmd}))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Run(%q) mismatch (-want +got):\n%s", tt.cmd, diff)
			}
		})
	}
}

func TestOutputStreams(t *testing.T) {
	t.Parallel()
	const interleaved = "for i in 1 2 3 4 5; do echo out$i; echo err$i >&2; done"
	tests := []struct {
		name       string
		cmd        exec.Cmd
		stdout     string
		stderr     string
		withWriter bool
		oneTee     bool
	}{{
		name:   "apart",
		cmd:    exec.Cmd{Command: interleaved},
		stdout: "out1\nout2\nout3\nout4\nout5\n",
		stderr: "err1\nerr2\nerr3\nerr4\nerr5\n",
	}, {
		name:   "combined in order",
		cmd:    exec.Cmd{Command: interleaved, Combined: true},
		stdout: "out1\nerr1\nout2\nerr2\nout3\nerr3\nout4\nerr4\nout5\nerr5\n",
	}, {
		name:       "live tees",
		cmd:        exec.Cmd{Command: interleaved},
		stdout:     "out1\nout2\nout3\nout4\nout5\n",
		stderr:     "err1\nerr2\nerr3\nerr4\nerr5\n",
		withWriter: true,
	}, {
		name:   "one tee for both",
		cmd:    exec.Cmd{Command: interleaved},
		stdout: "out1\nout2\nout3\nout4\nout5\n",
		stderr: "err1\nerr2\nerr3\nerr4\nerr5\n",
		oneTee: true,
	}, {
		name:   "binary passes through",
		cmd:    exec.Cmd{Command: `printf 'a\0b\377'`},
		stdout: "a\x00b\xff",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var teeOut, teeErr bytes.Buffer
			if tt.withWriter {
				tt.cmd.Stdout, tt.cmd.Stderr = &teeOut, &teeErr
			}
			if tt.oneTee {
				// Written from two goroutines: -race checks the locking.
				tt.cmd.Stdout, tt.cmd.Stderr = &teeOut, &teeOut
			}
			r := run(t, tt.cmd)
			got := [2]string{string(r.Stdout.Data), string(r.Stderr.Data)}
			if diff := cmp.Diff([2]string{tt.stdout, tt.stderr}, got); diff != "" {
				t.Errorf("Run(%q) output mismatch (-want +got):\n%s", tt.cmd.Command, diff)
			}
			if tt.oneTee && teeOut.Len() != len(tt.stdout)+len(tt.stderr) {
				t.Errorf("Run(%q): one tee for both got %q", tt.cmd.Command, teeOut.String())
			}
			if tt.withWriter {
				tees := [2]string{teeOut.String(), teeErr.String()}
				if diff := cmp.Diff(got, tees); diff != "" {
					t.Errorf("Run(%q) tees differ from the output (-output +tees):\n%s", tt.cmd.Command, diff)
				}
			}
		})
	}
}

func TestEnvAndDir(t *testing.T) {
	t.Parallel()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		cmd  exec.Cmd
		want string
	}{
		// Only what bash itself exports; nothing of this process's environment.
		{"nil env is empty", exec.Cmd{Command: `env | cut -d= -f1 | sort | tr '\n' ' '`}, "PWD SHLVL _ "},
		{"env given", exec.Cmd{Command: `echo "$A $B"`, Env: []string{"A=1", "B=two words"}}, "1 two words\n"},
		{"dir", exec.Cmd{Command: "pwd -P", Dir: dir}, dir + "\n"},
		{"command is not re-quoted", exec.Cmd{Command: `printf '%s|' "a  b" $'c\td' 'e'"f"`}, "a  b|c\td|ef|"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := string(run(t, tt.cmd).Stdout.Data)
			if got != tt.want {
				t.Errorf("Run(%q) stdout = %q, want %q", tt.cmd.Command, got, tt.want)
			}
		})
	}
}

func TestStartErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cmd  exec.Cmd
		want string
	}{
		{"empty", exec.Cmd{}, "empty command"},
		{"missing dir", exec.Cmd{Command: "true", Dir: "/nonexistent/cmdguard"}, "working directory: stat /nonexistent/cmdguard"},
		{"dir is a file", exec.Cmd{Command: "true", Dir: "/dev/null"}, "working directory /dev/null: not a directory"},
		{"both stdins", exec.Cmd{Command: "cat", Stdin: strings.NewReader(""), StdinPipe: true}, "both Stdin and StdinPipe"},
		{"missing shell", exec.Cmd{Command: "true", Shell: "/nonexistent/bash"}, "start /nonexistent/bash"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := exec.Start(context.Background(), tt.cmd)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Start(%+v) = %v, %v; want an error containing %q", tt.cmd, p, err, tt.want)
			}
		})
	}
}

func TestTruncation(t *testing.T) {
	t.Parallel()
	// 3000 "€" of 3 bytes; a limit of 1000 starts the window one byte into
	// a character (9000-1000 = 8000 = 3*2666+2).
	r := run(t, exec.Cmd{Command: `for i in $(seq 3000); do printf '€'; done`, OutputLimit: 1000})
	want := exec.Chunk{
		Data:      bytes.Repeat([]byte("€"), 333),
		Offset:    8001,
		Next:      9000,
		Lost:      8001,
		Truncated: true,
		EOF:       true,
	}
	if diff := cmp.Diff(want, r.Stdout); diff != "" {
		t.Errorf("Stdout mismatch (-want +got):\n%s", diff)
	}
	if !r.Truncated() {
		t.Errorf("Truncated() = false, want true")
	}
}

// TestIncrementalOffsets reads a long stream as it is written, through a
// window far smaller than the stream, and checks that every byte is either
// read once, in order, or counted as lost.
func TestIncrementalOffsets(t *testing.T) {
	t.Parallel()
	var want strings.Builder
	for i := 1; i <= 20000; i++ {
		fmt.Fprintln(&want, i)
	}
	p, err := exec.Start(testContext(t), exec.Cmd{Command: "seq 20000", OutputLimit: 64})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	ctx := testContext(t)
	var next, lost int64
	var got []byte
	for {
		c := p.WaitOutput(ctx, exec.Stdout, next)
		if ctx.Err() != nil {
			t.Fatalf("stream did not end")
		}
		if c.Offset != next+c.Lost {
			t.Fatalf("Read(%d): Offset %d, Lost %d", next, c.Offset, c.Lost)
		}
		if !strings.HasPrefix(want.String()[c.Offset:], string(c.Data)) {
			t.Fatalf("Read(%d) = %q at %d, not the stream's bytes there", next, c.Data, c.Offset)
		}
		got = append(got, c.Data...)
		lost += c.Lost
		next = c.Next
		if c.EOF {
			break
		}
	}
	if next != int64(want.Len()) || int64(len(got))+lost != next {
		t.Errorf("read %d + lost %d, ended at %d; want the total %d", len(got), lost, next, want.Len())
	}
	r, _ := p.Wait(ctx)
	if r.Stdout.Next != int64(want.Len()) || !strings.HasSuffix(want.String(), string(r.Stdout.Data)) {
		t.Errorf("Result.Stdout = %q ending at %d, want the end of the stream at %d", r.Stdout.Data, r.Stdout.Next, want.Len())
	}
}

func TestStdin(t *testing.T) {
	t.Parallel()
	t.Run("pipe", func(t *testing.T) {
		t.Parallel()
		p, err := exec.Start(testContext(t), exec.Cmd{Command: "cat", StdinPipe: true})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Release()
		ctx := testContext(t)
		var next int64
		for _, line := range []string{"hello\n", "wörld\n"} {
			if _, err := p.Write(ctx, []byte(line)); err != nil {
				t.Fatalf("Write(%q): %v", line, err)
			}
			c := p.WaitOutput(ctx, exec.Stdout, next)
			for int(c.Next-next) < len(line) && ctx.Err() == nil {
				c = p.WaitOutput(ctx, exec.Stdout, next)
			}
			if string(c.Data) != line {
				t.Errorf("after Write(%q), cat wrote %q", line, c.Data)
			}
			next = c.Next
		}
		if err := p.CloseStdin(); err != nil {
			t.Fatalf("CloseStdin: %v", err)
		}
		r, _ := p.Wait(ctx)
		if diff := cmp.Diff(exit{exec.StatusCompleted, code(0), "", false, 0}, exitOf(r)); diff != "" {
			t.Errorf("cat after CloseStdin mismatch (-want +got):\n%s", diff)
		}
		if _, err := p.Write(ctx, []byte("late")); err == nil {
			t.Errorf("Write after the end succeeded")
		}
	})
	t.Run("reader", func(t *testing.T) {
		t.Parallel()
		r := run(t, exec.Cmd{Command: "cat; echo end", Stdin: strings.NewReader("from a reader\n")})
		if got := string(r.Stdout.Data); got != "from a reader\nend\n" {
			t.Errorf("cat of a reader = %q", got)
		}
	})
	t.Run("file", func(t *testing.T) {
		t.Parallel()
		path := filepath.Join(t.TempDir(), "in")
		os.WriteFile(path, []byte("from a file\n"), 0o600)
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		r := run(t, exec.Cmd{Command: "cat", Stdin: f})
		if got := string(r.Stdout.Data); got != "from a file\n" {
			t.Errorf("cat of a file = %q", got)
		}
	})
	t.Run("none", func(t *testing.T) {
		t.Parallel()
		r := run(t, exec.Cmd{Command: "cat; echo end"})
		if got := string(r.Stdout.Data); got != "end\n" {
			t.Errorf("cat of no stdin = %q", got)
		}
		p, err := exec.Start(context.Background(), exec.Cmd{Command: "true"})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Release()
		if _, err := p.Write(testContext(t), []byte("x")); !errors.Is(err, exec.ErrNoStdin) {
			t.Errorf("Write without StdinPipe: err = %v, want ErrNoStdin", err)
		}
	})
}

// TestStdinTerminal passes a terminal as Stdin: it is copied through a
// pipe rather than handed to a command in a background process group.
func TestStdinTerminal(t *testing.T) {
	t.Parallel()
	master, tty := openPty(t)
	p, err := exec.Start(testContext(t), exec.Cmd{Command: `[ -t 0 ] && echo tty || echo pipe; read -r line; echo "got $line"`, Stdin: tty})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	if _, err := master.Write([]byte("typed\n")); err != nil {
		t.Fatalf("write to the terminal: %v", err)
	}
	r, _ := p.Wait(testContext(t))
	if got := string(r.Stdout.Data); got != "pipe\ngot typed\n" {
		t.Errorf("command reading a terminal: %s, wrote %q", r.Explain(), got)
	}
}

func TestKill(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cmd  string
		sig  syscall.Signal
		want string // the signal that ended it
		pids int    // how many pids the command prints
	}{
		{"default is SIGTERM", "echo $$; exec sleep 300", 0, "SIGTERM", 1},
		{"SIGINT", "echo $$; exec sleep 300", syscall.SIGINT, "SIGINT", 1},
		{"SIGHUP", "echo $$; exec sleep 300", syscall.SIGHUP, "SIGHUP", 1},
		{"SIGTERM ignored: escalation", "trap '' TERM; echo $$; sleep 300 & echo $!; wait", syscall.SIGTERM, "SIGKILL", 2},
		{"stopped group", "echo $$; kill -STOP $$", syscall.SIGTERM, "SIGTERM", 1},
		// timeout puts itself in a process group of its own: the kill
		// reaches it through the command's session.
		{"a group of its own", "echo $$; timeout 300 sleep 300 & echo $!; wait", syscall.SIGTERM, "SIGTERM", 2},
		{"a group of its own, SIGKILL", "echo $$; timeout 300 sleep 300 & echo $!; wait", syscall.SIGKILL, "SIGKILL", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := exec.Start(testContext(t), exec.Cmd{Command: tt.cmd, Grace: 200 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			defer p.Release()
			pids := readPids(t, p, tt.pids)
			r, err := p.Kill(tt.sig)
			if err != nil {
				t.Fatalf("Kill: %v", err)
			}
			want := exit{exec.StatusKilled, nil, tt.want, false, r.ShellCode()}
			if diff := cmp.Diff(want, exitOf(r)); diff != "" {
				t.Errorf("Kill(%v) of %q mismatch (-want +got):\n%s", tt.sig, tt.cmd, diff)
			}
			for _, pid := range pids {
				eventually(t, fmt.Sprintf("process %d survived Kill", pid), func() bool { return dead(pid) })
			}
			eventually(t, "the process group survived Kill", func() bool { return groupGone(p.Pid()) })
			if r2, _ := p.Kill(syscall.SIGKILL); r2.Signal != r.Signal || r2.Status != r.Status {
				t.Errorf("second Kill = %v %q, want the first result %v %q", r2.Status, r2.Signal, r.Status, r.Signal)
			}
		})
	}
}

// TestKillNoEscalation: a signal that does not ask a process to end is
// only delivered, never followed by SIGKILL.
func TestKillNoEscalation(t *testing.T) {
	t.Parallel()
	t.Run("SIGWINCH leaves the command running", func(t *testing.T) {
		t.Parallel()
		p, err := exec.Start(testContext(t), exec.Cmd{Command: "trap 'echo winch' WINCH; echo $$; while :; do sleep 0.01; done",
			Grace: 50 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Release()
		readPids(t, p, 1)
		r, err := p.Kill(syscall.SIGWINCH)
		if err != nil || r.Status != exec.StatusRunning {
			t.Fatalf("Kill(SIGWINCH) = %v, %v; want running at once", r.Status, err)
		}
		ctx, cancel := context.WithTimeout(testContext(t), 500*time.Millisecond) // 10 grace periods
		defer cancel()
		r, _ = p.Wait(ctx)
		if r.Status != exec.StatusRunning {
			t.Errorf("after Kill(SIGWINCH) and 10 grace periods: %s, want running", r.Explain())
		}
		if !strings.Contains(string(r.Stdout.Data), "winch") {
			t.Errorf("the command's trap did not see SIGWINCH: %q", r.Stdout.Data)
		}
	})
	t.Run("SIGUSR1 that ends the command is a kill", func(t *testing.T) {
		t.Parallel()
		p, err := exec.Start(testContext(t), exec.Cmd{Command: "echo $$; exec sleep 300"})
		if err != nil {
			t.Fatal(err)
		}
		defer p.Release()
		readPids(t, p, 1)
		if _, err := p.Kill(syscall.SIGUSR1); err != nil {
			t.Fatalf("Kill(SIGUSR1): %v", err)
		}
		r, _ := p.Wait(testContext(t))
		if diff := cmp.Diff(exit{exec.StatusKilled, nil, "SIGUSR1", false, 138}, exitOf(r)); diff != "" {
			t.Errorf("Kill(SIGUSR1) mismatch (-want +got):\n%s", diff)
		}
	})
}

func TestBackgroundHoldingPipes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		cmd        string
		background bool
	}{
		{"holds stdout", "sleep 300 & echo $!", true},
		{"holds stderr", "sleep 300 >/dev/null & echo $!", true},
		{"holds nothing", "sleep 300 >/dev/null 2>&1 & echo $!", false},
		{"nohup'd", "nohup sleep 300 >/dev/null 2>&1 & echo $!", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// The drain window is long enough for a loaded machine to let a
			// background process apply its redirections.
			r := run(t, exec.Cmd{Command: tt.cmd, DrainWindow: time.Second})
			if r.Status != exec.StatusCompleted || r.ExitCode == nil || *r.ExitCode != 0 {
				t.Errorf("Run(%q) = %s, want completed with code 0", tt.cmd, r.Explain())
			}
			if r.BackgroundKilled != tt.background {
				t.Errorf("Run(%q).BackgroundKilled = %v, want %v", tt.cmd, r.BackgroundKilled, tt.background)
			}
			pid, err := strconv.Atoi(strings.TrimSpace(string(r.Stdout.Data)))
			if err != nil {
				t.Fatalf("Run(%q) stdout %q: %v", tt.cmd, r.Stdout.Data, err)
			}
			eventually(t, fmt.Sprintf("background process %d outlived the run", pid), func() bool { return dead(pid) })
			eventually(t, fmt.Sprintf("process group %d outlived the run", r.Pid), func() bool { return groupGone(r.Pid) })
		})
	}
}

// blockingWriter blocks every Write until release is closed.
type blockingWriter struct{ release chan struct{} }

func (w blockingWriter) Write(p []byte) (int, error) {
	<-w.release
	return len(p), nil
}

// TestBlockedTee checks that a live tee that never returns does not hang
// Wait once the command has exited.
func TestBlockedTee(t *testing.T) {
	t.Parallel()
	w := blockingWriter{make(chan struct{})}
	defer close(w.release)
	r := run(t, exec.Cmd{Command: "echo hi", Stdout: w, DrainWindow: 100 * time.Millisecond})
	if r.Status != exec.StatusCompleted || !r.BackgroundKilled || string(r.Stdout.Data) != "hi\n" {
		t.Errorf("Run with a blocked tee = %s, stdout %q, BackgroundKilled %v", r.Explain(), r.Stdout.Data, r.BackgroundKilled)
	}
}

// TestEscapedProcess: a process in a new session that holds the pipes
// does not hold up Wait. The sweep (process groups and the session) does
// not end it; a cgroup does.
func TestEscapedProcess(t *testing.T) {
	t.Parallel()
	needProgram(t, "setsid")
	// setsid, not a group leader here, calls setsid(2) and execs sleep, so
	// $! is the sleep.
	r := run(t, exec.Cmd{Command: "setsid sleep 300 & echo $!", DrainWindow: 100 * time.Millisecond})
	pid, err := strconv.Atoi(strings.TrimSpace(string(r.Stdout.Data)))
	if err != nil {
		t.Fatalf("stdout %q: %v", r.Stdout.Data, err)
	}
	defer syscall.Kill(pid, syscall.SIGKILL)
	if !r.BackgroundKilled || r.Status != exec.StatusCompleted {
		t.Errorf("Run = %s, BackgroundKilled %v; want completed, and the escaped process's pipes given up", r.Explain(), r.BackgroundKilled)
	}
	checkEscapee(t, r, pid)
}

// checkEscapee checks the fate of pid, a process of the command r that
// left its session: a cgroup ends it, the sweep cannot.
func checkEscapee(t *testing.T, r exec.Result, pid int) {
	t.Helper()
	if r.Reaper != exec.ExpectedReaper() {
		t.Errorf("Reaper = %q, want %q", r.Reaper, exec.ExpectedReaper())
	}
	switch r.Reaper {
	case exec.ReaperCgroup:
		eventually(t, fmt.Sprintf("process %d, in a session of its own, outlived the run in a cgroup", pid), func() bool { return dead(pid) })
	case exec.ReaperSweep:
		time.Sleep(100 * time.Millisecond)
		if dead(pid) {
			t.Errorf("process %d, in a session of its own, was ended by the sweep: the case does not escape the session", pid)
		}
	default:
		t.Errorf("unknown Reaper %q", r.Reaper)
	}
}

// TestLeftoversEnded: what a command leaves running without holding its
// output — a background child in its group, a child in a group of its own
// (timeout makes one), and a daemon in a session of its own — is ended
// when it exits, as far as its Reaper reaches. Run by TestReapers with
// each mechanism.
func TestLeftoversEnded(t *testing.T) {
	t.Parallel()
	needProgram(t, "setsid")
	const cmd = `sleep 300 </dev/null >/dev/null 2>&1 & echo $!
		timeout 300 sleep 301 </dev/null >/dev/null 2>&1 & echo $!
		setsid sh -c 'sleep 302 >/dev/null 2>&1 & echo $!' </dev/null 2>/dev/null`
	r := run(t, exec.Cmd{Command: cmd})
	if r.Status != exec.StatusCompleted || r.BackgroundKilled {
		t.Fatalf("Run = %s, BackgroundKilled %v; want completed without holders", r.Explain(), r.BackgroundKilled)
	}
	var pids []int
	for _, f := range strings.Fields(string(r.Stdout.Data)) {
		pid, err := strconv.Atoi(f)
		if err != nil {
			t.Fatalf("stdout %q: %v", r.Stdout.Data, err)
		}
		pids = append(pids, pid)
	}
	if len(pids) != 3 {
		t.Fatalf("stdout %q, want 3 pids", r.Stdout.Data)
	}
	defer syscall.Kill(pids[2], syscall.SIGKILL)
	for _, pid := range pids[:2] {
		eventually(t, fmt.Sprintf("process %d outlived the run", pid), func() bool { return dead(pid) })
	}
	checkEscapee(t, r, pids[2])
}

// TestReapers runs the tests of what outlives a command in a fresh copy
// of the test binary with each mechanism: the default (a cgroup where this
// user may make one, else the sweep) and the sweep forced. Where a cgroup
// is not available, the default run is the sweep's, and the log says so.
func TestReapers(t *testing.T) {
	if os.Getenv("CMDGUARD_EXEC_REAPER") != "" {
		return // a copy run by this test
	}
	// Its runs check that TestLeftoversEnded passed, and run
	// TestSandboxEndsEscapees.
	needProgram(t, "setsid")
	needProgram(t, "unshare")
	// Not parallel, nor its runs: each runs 200 commands at once
	// (TestManyCommands).
	const escapes = "^(TestLeftoversEnded|TestEscapedProcess|TestParentKilled|TestBackgroundHoldingPipes|TestSandboxEndsEscapees|TestKill|TestManyCommands)$"
	for _, mode := range []string{"default", exec.ReaperSweep} {
		t.Run(mode, func(t *testing.T) {
			cmd := osexec.Command(os.Args[0], "-test.run", escapes, "-test.count", "1", "-test.v")
			cmd.Env = append(os.Environ(), "CMDGUARD_EXEC_REAPER="+mode)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("escape tests with CMDGUARD_EXEC_REAPER=%s: %v\n%s", mode, err, out)
			}
			if !bytes.Contains(out, []byte("--- PASS: TestLeftoversEnded")) {
				t.Fatalf("escape tests with CMDGUARD_EXEC_REAPER=%s ran no TestLeftoversEnded:\n%s", mode, out)
			}
			if mode == "default" && !exec.ReaperAvailable(exec.ReaperCgroup) {
				t.Logf("no cgroup is available to this user: the default run was the sweep's")
			}
		})
	}
}

func TestHardTimeout(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cmd  string
		want string
	}{
		{"obeys SIGTERM", "sleep 300 >/dev/null & echo $!; sleep 300", "SIGTERM"},
		{"ignores SIGTERM", "trap '' TERM; sleep 300 >/dev/null & echo $!; while :; do sleep 1; done", "SIGKILL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// The timeout leaves bash ample time to print the pid first.
			r := run(t, exec.Cmd{Command: tt.cmd, HardTimeout: time.Second, Grace: 200 * time.Millisecond})
			want := exit{exec.StatusTimedOut, nil, tt.want, false, r.ShellCode()}
			if diff := cmp.Diff(want, exitOf(r)); diff != "" {
				t.Errorf("Run(%q) mismatch (-want +got):\n%s", tt.cmd, diff)
			}
			if !strings.HasPrefix(r.Explain(), "timed out: ") {
				t.Errorf("Explain() = %q, want it to say timed out", r.Explain())
			}
			pid, err := strconv.Atoi(strings.TrimSpace(string(r.Stdout.Data)))
			if err != nil {
				t.Fatalf("stdout %q: %v", r.Stdout.Data, err)
			}
			eventually(t, fmt.Sprintf("grandchild %d outlived the timeout", pid), func() bool { return dead(pid) })
			eventually(t, fmt.Sprintf("process group %d outlived the timeout", r.Pid), func() bool { return groupGone(r.Pid) })
		})
	}
}

func TestSoftTimeoutAndRelease(t *testing.T) {
	t.Parallel()
	p, err := exec.Start(testContext(t), exec.Cmd{Command: "sleep 300 >/dev/null & echo $!; echo $$; sleep 300"})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	pids := readPids(t, p, 2)

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r, err := p.Wait(ctx)
	if err != nil || r.Status != exec.StatusRunning || r.ExitCode != nil || r.Signal != "" {
		t.Errorf("Wait with a done context = %v %v %q, %v; want running, no exit", r.Status, r.ExitCode, r.Signal, err)
	}
	if got := len(strings.Fields(string(r.Stdout.Data))); got != 2 {
		t.Errorf("running Result.Stdout = %q, want the output so far", r.Stdout.Data)
	}
	if err := p.Signal(0); err != nil {
		t.Errorf("Signal(0) after a soft timeout: %v; the command should go on", err)
	}

	p.Release()
	for _, pid := range pids {
		eventually(t, fmt.Sprintf("process %d outlived Release", pid), func() bool { return dead(pid) })
	}
	eventually(t, fmt.Sprintf("process group %d outlived Release", p.Pid()), func() bool { return groupGone(p.Pid()) })
	r, _ = p.Wait(context.Background())
	if r.Status != exec.StatusKilled || r.Signal != "SIGKILL" {
		t.Errorf("after Release: %s, want killed by SIGKILL", r.Explain())
	}
	if c := p.Read(exec.Stdout, 0); len(c.Data) != 0 || !c.EOF {
		t.Errorf("Read after Release = %+v, want no data and EOF", c)
	}
	if err := p.Signal(syscall.SIGTERM); !errors.Is(err, exec.ErrProcessDone) {
		t.Errorf("Signal after Release: %v, want ErrProcessDone", err)
	}
	p.Release() // idempotent
}

func TestStartContext(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	p, err := exec.Start(ctx, exec.Cmd{Command: "echo $$; exec sleep 300"})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	readPids(t, p, 1)
	cancel()
	r, _ := p.Wait(testContext(t))
	if diff := cmp.Diff(exit{exec.StatusKilled, nil, "SIGTERM", false, 143}, exitOf(r)); diff != "" {
		t.Errorf("cancelled Start context mismatch (-want +got):\n%s", diff)
	}
	if _, err := exec.Start(ctx, exec.Cmd{Command: "true"}); !errors.Is(err, context.Canceled) {
		t.Errorf("Start with a done context: %v, want context.Canceled", err)
	}

	deadline, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	p, err = exec.Start(deadline, exec.Cmd{Command: "exec sleep 300"})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	r, _ = p.Wait(testContext(t))
	if diff := cmp.Diff(exit{exec.StatusTimedOut, nil, "SIGTERM", false, 143}, exitOf(r)); diff != "" {
		t.Errorf("Start context past its deadline mismatch (-want +got):\n%s", diff)
	}
}

func TestZeroProcess(t *testing.T) {
	t.Parallel()
	var p exec.Process
	if _, err := p.Wait(context.Background()); err != exec.ErrNotStarted {
		t.Errorf("Wait: %v, want ErrNotStarted", err)
	}
	if _, err := p.Kill(0); err != exec.ErrNotStarted {
		t.Errorf("Kill: %v, want ErrNotStarted", err)
	}
	if _, err := p.Write(context.Background(), nil); err != exec.ErrNotStarted {
		t.Errorf("Write: %v, want ErrNotStarted", err)
	}
	if _, err := p.Poll(context.Background(), 0, 0, 0); err != exec.ErrNotStarted {
		t.Errorf("Poll: %v, want ErrNotStarted", err)
	}
	if _, err := p.Status(); err != exec.ErrNotStarted {
		t.Errorf("Status: %v, want ErrNotStarted", err)
	}
	if c := p.WaitOutput(context.Background(), exec.Stdout, 0); !c.EOF {
		t.Errorf("WaitOutput = %+v, want EOF", c)
	}
	select {
	case <-p.Done():
	default:
		t.Errorf("Done() of a zero Process is not closed")
	}
	p.Release()
}

// TestConcurrentUse drives one Process from many goroutines; run with -race.
func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	p, err := exec.Start(testContext(t), exec.Cmd{Command: "cat; exit 3", StdinPipe: true, OutputLimit: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	ctx := testContext(t)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for range 50 {
				p.Write(ctx, []byte(fmt.Sprintln(i)))
			}
		})
		wg.Go(func() {
			var next int64
			for {
				c := p.WaitOutput(ctx, exec.Stdout, next)
				next = c.Next
				if c.EOF || ctx.Err() != nil {
					return
				}
			}
		})
		wg.Go(func() { p.Wait(ctx) })
	}
	eventually(t, "output of 400 writes", func() bool { return p.Read(exec.Stdout, 0).Next == 400*2 })
	p.CloseStdin()
	wg.Wait()
	r, _ := p.Kill(syscall.SIGTERM)
	if diff := cmp.Diff(exit{exec.StatusCompleted, code(3), "", false, 3}, exitOf(r)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

// TestManyCommands runs 200 commands at once, some leaving background
// processes behind, and checks that no process, process group or file
// descriptor is left. It is not parallel: it counts this process's
// descriptors.
func TestManyCommands(t *testing.T) {
	run(t, exec.Cmd{Command: "true"}) // let the runtime set up its poller
	// The cgroups kept for reuse hold descriptors of their own.
	before := fdCount(t) - exec.PooledFDs()
	const n = 200
	results := make([]exec.Result, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			cmd := exec.Cmd{Command: fmt.Sprintf("echo %d; echo e >&2", i), DrainWindow: 100 * time.Millisecond}
			switch i % 4 {
			case 1:
				cmd.Command += "; sleep 300 &"
			case 2:
				cmd.Command += "; sleep 300 >/dev/null 2>&1 &"
			case 3:
				cmd.Command, cmd.StdinPipe, cmd.Combined = fmt.Sprintf("echo %d; cat", i), true, true
			}
			p, err := exec.Start(testContext(t), cmd)
			if err != nil {
				errs[i] = err
				return
			}
			defer p.Release()
			if cmd.StdinPipe {
				p.CloseStdin()
			}
			results[i], errs[i] = p.Wait(testContext(t))
		})
	}
	wg.Wait()
	for i, r := range results {
		if errs[i] != nil {
			t.Fatalf("command %d: %v", i, errs[i])
		}
		if r.Status != exec.StatusCompleted || string(r.Stdout.Data) != fmt.Sprintf("%d\n", i) {
			t.Errorf("command %d: %s, stdout %q", i, r.Explain(), r.Stdout.Data)
		}
		// SIGKILL has been sent; the dead still have to be reaped by init.
		eventually(t, fmt.Sprintf("command %d: process group %d is still there", i, r.Pid), func() bool { return groupGone(r.Pid) })
	}
	eventually(t, fmt.Sprintf("%d file descriptors before, %d after", before, fdCount(t)-exec.PooledFDs()), func() bool {
		return fdCount(t)-exec.PooledFDs() == before
	})
}

func fdCount(t *testing.T) int {
	t.Helper()
	fds, err := os.ReadDir("/dev/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(fds)
}
