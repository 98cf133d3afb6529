package exec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	osexec "os/exec"
	"runtime"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"
)

// Default durations used when the corresponding [Cmd] field is zero.
const (
	DefaultGrace       = 2 * time.Second
	DefaultDrainWindow = 250 * time.Millisecond
)

// Errors returned by [Process] methods.
var (
	ErrNotStarted  = errors.New("exec: process not started")
	ErrProcessDone = errors.New("exec: process already finished")
	ErrNoStdin     = errors.New("exec: stdin is not a pipe")
)

// A Status is where a command is in its life: [StatusRunning], then one of
// [StatusCompleted], [StatusTimedOut] or [StatusKilled]. Its text is the
// wire form used by the /v1/bash protocol and the CLI's JSON.
type Status string

// The statuses of a command.
const (
	StatusRunning   Status = "running"
	StatusCompleted Status = "completed" // the command ended by itself, whatever its exit code
	StatusTimedOut  Status = "timed_out" // Cmd.HardTimeout or the Start context's deadline ended it
	StatusKilled    Status = "killed"    // Kill, Release or the cancelled Start context ended it
)

// A Stream names one output stream of a [Process].
type Stream int

// The output streams. With [Cmd.Combined], both descriptors write to the
// Stdout stream and Stderr stays empty.
const (
	Stdout Stream = 1
	Stderr Stream = 2
)

// A Cmd describes a command to run. Its zero value is not runnable (the
// command is empty); every other zero field has a safe meaning, given
// with each field. A Cmd is only read by [Start] and [Run], and may be reused.
type Cmd struct {
	// Command is the shell text, run as `bash -c Command` exactly as given,
	// without re-quoting. It must not be empty.
	Command string
	// Shell is the path of the bash binary. If empty, "bash" is looked up
	// in the PATH of the calling process (not in Env).
	Shell string
	// Dir is the working directory. If empty, the command runs in the
	// calling process's current directory.
	Dir string
	// Env is the whole environment of the command, as "KEY=value" entries.
	// Unlike os/exec, a nil Env means an empty environment: nothing of the
	// calling process's environment is passed on unless the caller puts it
	// here.
	Env []string

	// Stdin is the command's standard input. An *os.File is handed to the
	// command as it is, except a terminal; any other reader, and a
	// terminal, is copied through a pipe by a goroutine that may stay
	// blocked in Stdin.Read after the command ends, as in os/exec. (The
	// command runs in a process group of its own, which its controlling
	// terminal would stop with SIGTTIN when it reads.) If Stdin is nil and
	// StdinPipe is false, the command reads from the null device.
	Stdin io.Reader
	// StdinPipe makes the command's standard input a pipe fed by
	// [Process.Write] and closed by [Process.CloseStdin]. It cannot be
	// combined with Stdin.
	StdinPipe bool

	// Combined puts standard output and standard error on one pipe, so
	// that the [Stdout] stream holds both in the order they were written.
	Combined bool
	// OutputLimit is the number of newest bytes kept per stream; older
	// bytes are dropped and counted. Zero or less means DefaultOutputLimit.
	OutputLimit int
	// Stdout and Stderr, if not nil, receive a copy of each stream as it is
	// read, for live display. With Combined, Stderr is not used. They are
	// never called at once, so they may be the same writer. A writer that
	// returns an error is not written to again. A writer that blocks
	// holds up the command's output; after the command exits, such a
	// writer is given up on like a background process holding the pipes.
	Stdout, Stderr io.Writer

	// HardTimeout, if positive, ends the command that long after it
	// started, as Kill(SIGTERM) does, with status StatusTimedOut.
	HardTimeout time.Duration
	// SoftTimeout, if positive, is how long [Process.Wait] waits: that
	// long after the start, Wait returns the result so far with status
	// StatusRunning, and the command goes on (the soft timeout of the
	// /v1/bash protocol). It never ends the command.
	SoftTimeout time.Duration
	// Grace is how long Kill and timeouts wait after their first signal
	// before sending SIGKILL to the group. Zero or less means DefaultGrace.
	Grace time.Duration
	// DrainWindow is how long to keep reading output after the main
	// process has exited, while background processes still hold the
	// pipes; then the group is killed. If the output is still open a
	// window later (a process that left the group holds it), what the
	// pipes hold is read and reading stops; a window after that, a blocked
	// tee is given up. Zero or less means DefaultDrainWindow.
	DrainWindow time.Duration

	// Sandbox, if not nil, is the sandbox the command runs in; see
	// [Sandbox]. Nil runs it with the caller's view of the system.
	Sandbox *Sandbox
}

// A Process is a running or finished command started by [Start].
//
// Its methods are safe for use by many goroutines at once. A Process ends
// by itself when its command does; call [Process.Release] when done with
// it, so that nothing the command started outlives it and its output is
// freed. The zero value is a Process that was never started: its methods
// return [ErrNotStarted] or empty values.
type Process struct {
	pid       int
	start     time.Time
	grace     time.Duration
	drain     time.Duration
	stdout    *Buffer
	stderr    *Buffer
	stdin     *os.File // write end of the stdin pipe, or nil
	stdinPipe bool     // stdin is fed by Write
	stdinMu   sync.Mutex
	soft      <-chan struct{} // closed when the soft timeout passes; nil without one

	kills    chan syscall.Signal
	exited   chan struct{} // the main process has exited (it may not be reaped yet)
	exitedAt time.Time     // set before exited is closed
	done     chan struct{} // everything has ended and the fields below are final

	mu         sync.Mutex
	reaped     bool // the group may no longer be signalled
	signalled  bool // Kill sent a signal that does not escalate
	status     Status
	ws         syscall.WaitStatus
	background bool
	waitErr    error

	cg         *cgroup        // the command's cgroup, or nil: see reaper_linux.go
	reaper     string         // Result.Reaper
	sandbox    *SandboxReport // what sandbox the command runs in, or nil
	sandboxRun *sandboxRun
	sandboxEnd *SandboxReport // the final report, set before done is closed
}

// Start starts c and returns without waiting for it. If ctx is done before
// the command ends, the command is ended as by Kill(SIGTERM), with status
// StatusTimedOut if ctx's deadline passed and StatusKilled otherwise.
func Start(ctx context.Context, c Cmd) (*Process, error) {
	if c.Command == "" {
		return nil, errors.New("exec: empty command")
	}
	if c.Stdin != nil && c.StdinPipe {
		return nil, errors.New("exec: both Stdin and StdinPipe are set")
	}
	if errPlatform != nil {
		return nil, errPlatform
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("exec: start: %w", err)
	}
	shell := c.Shell
	if shell == "" {
		var err error
		if shell, err = osexec.LookPath("bash"); err != nil {
			return nil, fmt.Errorf("exec: find bash: %w", err)
		}
	}
	if c.Dir != "" {
		if fi, err := os.Stat(c.Dir); err != nil {
			return nil, fmt.Errorf("exec: working directory: %w", err)
		} else if !fi.IsDir() {
			return nil, fmt.Errorf("exec: working directory %s: not a directory", c.Dir)
		}
	}

	// The command's ends of its pipes and of the null device are bare
	// descriptors in blocking mode, never in the network poller; this
	// process's ends are Files in it.
	var childEnds []int
	var parentEnds []*os.File
	pipe := func(parentReads bool) (parent *os.File, child int, err error) {
		var fds [2]int
		if err := pipeFDs(&fds); err != nil {
			return nil, -1, fmt.Errorf("exec: pipe: %w", err)
		}
		pi, ci, name := 1, 0, "|1"
		if parentReads {
			pi, ci, name = 0, 1, "|0"
		}
		if err := syscall.SetNonblock(fds[pi], true); err != nil {
			syscall.Close(fds[0])
			syscall.Close(fds[1])
			return nil, -1, fmt.Errorf("exec: pipe: %w", err)
		}
		childEnds = append(childEnds, fds[ci])
		parent = os.NewFile(uintptr(fds[pi]), name)
		parentEnds = append(parentEnds, parent)
		return parent, fds[ci], nil
	}
	closeChildEnds := func() {
		for _, fd := range childEnds {
			syscall.Close(fd)
		}
		childEnds = nil
	}
	fail := func(err error) (*Process, error) {
		closeChildEnds()
		for _, f := range parentEnds {
			f.Close()
		}
		return nil, err
	}

	p := &Process{
		grace:     c.Grace,
		drain:     c.DrainWindow,
		stdout:    NewBuffer(c.OutputLimit),
		stderr:    NewBuffer(c.OutputLimit),
		stdinPipe: c.StdinPipe,
		kills:     make(chan syscall.Signal),
		exited:    make(chan struct{}),
		done:      make(chan struct{}),
		status:    StatusRunning,
	}
	if p.grace <= 0 {
		p.grace = DefaultGrace
	}
	if p.drain <= 0 {
		p.drain = DefaultDrainWindow
	}

	var stdin *os.File // the caller's, or nil
	var stdinFD int
	var copyFrom io.Reader
	switch f, isFile := c.Stdin.(*os.File); {
	case isFile && f != nil && !isTerminal(f):
		stdin, stdinFD = f, int(f.Fd())
	case c.Stdin == nil && !c.StdinPipe:
		fd, err := syscall.Open(os.DevNull, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != nil {
			return fail(fmt.Errorf("exec: stdin: %w", err))
		}
		stdinFD = fd
		childEnds = append(childEnds, fd)
	default:
		w, r, err := pipe(false)
		if err != nil {
			return fail(err)
		}
		stdinFD, p.stdin, copyFrom = r, w, c.Stdin
	}
	outR, outW, err := pipe(true)
	if err != nil {
		return fail(err)
	}
	readers := []*os.File{outR}
	errW := outW
	if !c.Combined {
		var errR *os.File
		if errR, errW, err = pipe(true); err != nil {
			return fail(err)
		}
		readers = append(readers, errR)
	}

	attr := &syscall.ProcAttr{
		Dir:   c.Dir,
		Env:   c.Env,
		Files: []uintptr{uintptr(stdinFD), uintptr(outW), uintptr(errW)},
		// A session of its own, not just a process group: a program the
		// command starts may make a group of its own (timeout does, so do
		// job control and setpgid), but it cannot leave the session
		// without setsid. See sysProcAttr for the parent-death watch. In
		// a cgroup, and without a controlling terminal, a process group
		// is enough (see cgroup.apply).
		Sys: sysProcAttr(),
	}
	p.start = time.Now()
	argv := []string{"bash", "-c", c.Command}
	cg := acquireCgroup()
	cg.apply(attr.Sys, c.Sandbox != nil)
	pidfd := usePidfd(attr.Sys, c.Sandbox != nil)
	pid, sandbox, err := startProcess(shell, argv, attr, c.Sandbox)
	if err != nil && cg != nil {
		// The fork could not enter the group: start without it.
		cg.release()
		cg, attr.Sys = nil, sysProcAttr()
		pidfd = usePidfd(attr.Sys, c.Sandbox != nil)
		pid, sandbox, err = startProcess(shell, argv, attr, c.Sandbox)
		if err == nil {
			disableCgroups() // the group was at fault: not again
		}
	}
	runtime.KeepAlive(stdin)
	closeChildEnds()
	if err != nil {
		return fail(fmt.Errorf("exec: start %s: %w", shell, err))
	}
	p.pid, p.sandbox, p.sandboxRun = pid, sandbox.rep(), sandbox
	p.cg, p.reaper = cg, ReaperSweep

	if cg != nil {
		p.reaper = ReaperCgroup
	}
	if !sandbox.ownsRun() {
		watch(pid, cg)
	}
	if c.SoftTimeout > 0 {
		soft := make(chan struct{})
		t := time.AfterFunc(c.SoftTimeout, func() { close(soft) })
		p.soft = soft
		go func() { <-p.done; t.Stop() }()
	}

	go func() {
		err := waitExitedFD(pid, pidfd)
		p.exitedAt = time.Now()
		if err != nil {
			p.waitErr = fmt.Errorf("exec: wait for pid %d: %w", pid, err)
		}
		close(p.exited)
	}()
	readerDone := make(chan struct{}, len(readers))
	teeOut, teeErr := c.Stdout, c.Stderr
	if teeOut != nil && teeErr != nil && !c.Combined {
		// The tees may be one writer: never call them at once.
		mu := new(sync.Mutex)
		teeOut, teeErr = lockedWriter{mu, teeOut}, lockedWriter{mu, teeErr}
	}
	go readInto(outR, p.stdout, teeOut, readerDone)
	if !c.Combined {
		go readInto(readers[1], p.stderr, teeErr, readerDone)
	} else {
		p.stderr.Close()
	}
	if copyFrom != nil {
		go func() {
			io.Copy(p.stdin, copyFrom)
			p.stdin.Close()
		}()
	}
	go p.monitor(ctx, c.HardTimeout, readers, readerDone)
	return p, nil
}

// A lockedWriter serialises writes to w with other writers sharing mu.
type lockedWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// Run starts c, waits for it to end and releases it.
func Run(ctx context.Context, c Cmd) (Result, error) {
	p, err := Start(ctx, c)
	if err != nil {
		return Result{}, err
	}
	defer p.Release()
	return p.Wait(context.Background())
}

// Reads of a stream grow to maxRead bytes, the size of a default pipe;
// a stream that still fills them gets a pipe of pipeSize bytes.
const (
	maxRead  = 64 << 10
	pipeSize = 1 << 20
)

// readInto copies f into b and tee until f ends or is closed.
func readInto(f *os.File, b *Buffer, tee io.Writer, done chan<- struct{}) {
	// Start small, as most commands print little; grow the buffer, and
	// then the pipe, when reads fill it.
	buf := make([]byte, 4<<10)
	grown := false
	for {
		n, err := f.Read(buf)
		if n > 0 {
			b.Write(buf[:n])
			if tee != nil {
				if _, err := tee.Write(buf[:n]); err != nil {
					tee = nil
				}
			}
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			drainPipe(f, b, tee)
		}
		if err != nil {
			break
		}
		if n == len(buf) && !grown {
			if n >= maxRead {
				growPipe(f)
				grown = true
				continue
			}
			buf = make([]byte, 4*n)
		}
	}
	b.Close()
	done <- struct{}{}
}

// drainPipe copies into b and tee what f holds now, up to a pipe's worth,
// without waiting for more.
func drainPipe(f *os.File, b *Buffer, tee io.Writer) {
	sc, err := f.SyscallConn()
	if err != nil {
		return
	}
	buf := make([]byte, maxRead)
	sc.Control(func(fd uintptr) {
		for total := 0; total < pipeSize; {
			n, err := syscall.Read(int(fd), buf)
			if n <= 0 || err != nil {
				return
			}
			total += n
			b.Write(buf[:n])
			if tee != nil {
				tee.Write(buf[:n])
			}
		}
	})
}

// monitor owns the command's end: it applies timeouts, kills and the drain
// window, ends whatever is left of the group, and reaps the main process.
func (p *Process) monitor(ctx context.Context, hard time.Duration, readers []*os.File, readerDone <-chan struct{}) {
	var timers []*time.Timer
	after := func(d time.Duration) <-chan time.Time {
		t := time.NewTimer(d)
		timers = append(timers, t)
		return t.C
	}
	var hardC, escalateC, drainC <-chan time.Time
	if hard > 0 {
		hardC = after(hard)
	}
	exited, ctxDone := p.exited, ctx.Done()
	open := len(readers)
	status := StatusCompleted
	end := func(why Status, sig syscall.Signal) {
		if status == StatusCompleted {
			status = why
		}
		p.signal(sig)
		if sig != syscall.SIGKILL {
			p.signal(syscall.SIGCONT)
		}
		if escalateC == nil {
			escalateC = after(p.grace)
		}
	}
	drainStage := 0
	for exited != nil || open > 0 {
		select {
		case <-exited:
			exited, hardC, ctxDone = nil, nil, nil
			if open > 0 {
				drainC = after(p.drain)
			}
		case <-readerDone:
			open--
		case <-hardC:
			hardC = nil
			end(StatusTimedOut, syscall.SIGTERM)
		case <-ctxDone:
			ctxDone = nil
			why := StatusKilled
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				why = StatusTimedOut
			}
			end(why, syscall.SIGTERM)
		case sig := <-p.kills:
			if exited == nil {
				// The command has ended; only stragglers are left.
				p.signal(syscall.SIGKILL)
				continue
			}
			end(StatusKilled, sig)
		case <-escalateC:
			escalateC = nil
			p.signal(syscall.SIGKILL)
		case <-drainC:
			// The main process has exited but the output is still open.
			drainStage++
			switch drainStage {
			case 1:
				// Background processes hold the pipes: end them.
				p.background = true
				p.signal(syscall.SIGKILL)
			case 2:
				// Something outside the group holds the pipes: stop
				// waiting for the end, take what is in them and stop.
				for _, f := range readers {
					f.SetReadDeadline(time.Now())
				}
			default:
				// A tee blocks: give up the output.
				p.stdout.Close()
				p.stderr.Close()
				drainC, open = nil, 0
				continue
			}
			drainC = after(p.drain)
		}
	}
	for _, t := range timers {
		t.Stop()
	}

	// Nothing outlives the run. The main process is a zombie until it is
	// reaped, which keeps its process group id from being reused, so the
	// group is ended before the reaping.
	p.mu.Lock()
	p.signalLocked(syscall.SIGKILL)
	p.reaped = true
	signalled := p.signalled
	p.mu.Unlock()
	if !p.sandboxRun.ownsRun() {
		unwatch(p.pid, p.cg) // before the reaping frees the group id for reuse
	}
	var ws syscall.WaitStatus
	err := p.waitErr
	if err == nil {
		for {
			_, err = syscall.Wait4(p.pid, &ws, 0, nil)
			if err != syscall.EINTR {
				break
			}
		}
		if err != nil {
			err = fmt.Errorf("exec: reap pid %d: %w", p.pid, err)
		}
		ws = p.sandboxRun.waitStatus(ws) // bash's, not the sandbox's first process's
	}
	for _, f := range readers {
		f.Close()
	}
	if p.stdin != nil {
		p.stdin.Close()
	}

	if status == StatusCompleted && signalled && ws.Signaled() {
		status = StatusKilled // a signal Kill sent ended it
	}
	// The sandbox's last processes (those that left the session) and
	// what they left behind.
	p.sandboxEnd = p.sandboxRun.finish()
	p.cg.release()
	p.mu.Lock()
	p.status, p.ws, p.waitErr = status, ws, err
	p.mu.Unlock()
	close(p.done)
}

// signal sends sig to the command's process group.
func (p *Process) signal(sig syscall.Signal) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.signalLocked(sig)
}

func (p *Process) signalLocked(sig syscall.Signal) error {
	if p.reaped {
		return ErrProcessDone
	}
	if err := syscall.Kill(-p.pid, sig); err != nil && err != syscall.ESRCH {
		return fmt.Errorf("exec: signal group %d: %w", p.pid, err)
	}
	if terminating(sig) || sig == syscall.SIGCONT {
		// The other groups of the command's session (timeout 300 cmd &
		// puts timeout in a group of its own): the rest of its cgroup,
		// or a sweep of its session, whose id cannot be reused while
		// bash, its leader, is not reaped. A sandboxed command's session
		// is swept even with a cgroup, so that its report counts what
		// left the session (SandboxReport.Survivors) before the cgroup
		// ends the rest.
		if p.cg != nil && p.sandboxRun == nil {
			p.cg.signal(p.pid, sig)
		} else {
			sweepSession(p.pid, p.start, sig)
		}
	}
	return nil
}

func (p *Process) started() bool { return p != nil && p.done != nil }

// Pid returns the process id of the command's bash, which is also its
// process group id, or 0 if p was never started.
func (p *Process) Pid() int {
	if !p.started() {
		return 0
	}
	return p.pid
}

// Done returns a channel that is closed when the command and everything it
// started have ended and the result is final.
func (p *Process) Done() <-chan struct{} {
	if !p.started() {
		closed := make(chan struct{})
		close(closed)
		return closed
	}
	return p.done
}

// Wait waits for the command to end, for ctx to be done, or for the soft
// timeout ([Cmd.SoftTimeout]) to pass, and returns its result. When ctx or
// the soft timeout ends the wait first, the result has status
// StatusRunning and the output so far, and the command goes on. The error
// is non-nil only if the process could not be waited for.
func (p *Process) Wait(ctx context.Context) (Result, error) {
	if !p.started() {
		return Result{}, ErrNotStarted
	}
	select {
	case <-p.done:
	case <-ctx.Done():
	case <-p.soft:
	}
	return p.result()
}

// Signal sends sig to the command's whole process group and returns
// without waiting. It fails with ErrProcessDone once the command has ended.
func (p *Process) Signal(sig syscall.Signal) error {
	if !p.started() {
		return ErrNotStarted
	}
	if sig < 0 || int(sig) > sigMax {
		return fmt.Errorf("exec: invalid signal %d", int(sig))
	}
	return p.signal(sig)
}

// Kill sends sig to the command's whole process group.
//
// A signal that asks a process to end — SIGTERM (also for sig 0),
// SIGINT, SIGHUP, SIGQUIT or SIGKILL — ends the group for sure: Kill sends
// it and SIGCONT, waits up to the grace period ([Cmd.Grace]), then sends
// SIGKILL, and returns once the command has been reaped, with its final
// result; the status is StatusKilled unless the command had already ended.
//
// Any other signal (SIGWINCH, SIGUSR1, SIGSTOP, …) is only delivered: Kill
// returns at once with the result so far, and the command goes on unless
// the signal ends it, in which case its status is StatusKilled.
//
// Killing a finished command returns its result.
func (p *Process) Kill(sig syscall.Signal) (Result, error) {
	if !p.started() {
		return Result{}, ErrNotStarted
	}
	if sig < 0 || int(sig) > sigMax {
		return Result{}, fmt.Errorf("exec: invalid signal %d", int(sig))
	}
	if sig == 0 {
		sig = syscall.SIGTERM
	}
	if !terminating(sig) {
		p.mu.Lock()
		err := p.signalLocked(sig)
		if err == nil {
			p.signalled = true
		}
		p.mu.Unlock()
		if err != nil && !errors.Is(err, ErrProcessDone) {
			return Result{}, err
		}
		return p.result()
	}
	select {
	case p.kills <- sig:
	case <-p.done:
	}
	<-p.done
	return p.result()
}

// terminating reports whether sig asks a process to end, so that Kill
// escalates to SIGKILL when it does not.
func terminating(sig syscall.Signal) bool {
	switch sig {
	case syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGKILL:
		return true
	}
	return false
}

// Release ends the command and everything it started with SIGKILL, waits
// for them, and frees the output. Later reads return no data. Release is
// idempotent.
func (p *Process) Release() {
	if !p.started() {
		return
	}
	p.Kill(syscall.SIGKILL)
	p.stdout.free()
	p.stderr.free()
}

// Write writes b to the command's standard input, which must have been
// started with StdinPipe. A write to a command that is not reading blocks
// until it reads, ends, stdin is closed, or ctx is done; then Write
// returns how much was written and ctx's error. Writes are serialised.
func (p *Process) Write(ctx context.Context, b []byte) (int, error) {
	if !p.started() {
		return 0, ErrNotStarted
	}
	if !p.stdinPipe {
		return 0, ErrNoStdin
	}
	p.stdinMu.Lock()
	defer p.stdinMu.Unlock()
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	interrupted := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		p.stdin.SetWriteDeadline(time.Now())
		close(interrupted)
	})
	n, err := p.stdin.Write(b)
	if !stop() {
		<-interrupted
		p.stdin.SetWriteDeadline(time.Time{}) // for the next writer
	}
	switch {
	case err == nil:
	case errors.Is(err, os.ErrDeadlineExceeded) && ctx.Err() != nil:
		err = fmt.Errorf("exec: write stdin: %w", ctx.Err())
	default:
		err = fmt.Errorf("exec: write stdin: %w", err)
	}
	return n, err
}

// CloseStdin closes the command's standard input pipe, so that it reads
// end of file. It requires StdinPipe.
func (p *Process) CloseStdin() error {
	if !p.started() {
		return ErrNotStarted
	}
	if !p.stdinPipe {
		return ErrNoStdin
	}
	if err := p.stdin.Close(); err != nil && !errors.Is(err, os.ErrClosed) {
		return fmt.Errorf("exec: close stdin: %w", err)
	}
	return nil
}

// Read returns the output of stream s held from offset on; see
// [Buffer.Since]. It never blocks. The Chunk says EOF only once the
// command has ended and its output is drained: a command that closes its
// output and goes on running is not at EOF.
func (p *Process) Read(s Stream, offset int64) Chunk {
	b := p.buffer(s)
	if b == nil {
		return Chunk{Offset: offset, Next: offset, EOF: true}
	}
	return p.since(b, offset)
}

// since is b.Since with EOF only once the command has ended.
func (p *Process) since(b *Buffer, offset int64) Chunk {
	c := b.Since(offset)
	if c.EOF {
		select {
		case <-p.done:
		default:
			c.EOF = false
		}
	}
	return c
}

// WaitOutput waits until stream s has output past offset, the command has
// ended (and whatever held its output), or ctx is done, and then returns
// what [Process.Read] returns. Loop until the Chunk says EOF.
func (p *Process) WaitOutput(ctx context.Context, s Stream, offset int64) Chunk {
	b := p.buffer(s)
	if b == nil {
		return Chunk{Offset: offset, Next: offset, EOF: true}
	}
	if ch := b.newData(offset); ch != nil {
		select {
		case <-ch:
		case <-p.done:
		case <-ctx.Done():
		}
	}
	return p.since(b, offset)
}

// PollSettle is how long [Process.Poll] waits, once new output has come,
// for the command to exit, so that a command's last output and its exit
// are reported in one answer.
const PollSettle = 250 * time.Millisecond

// Poll is the long poll of the /v1/bash protocol. It waits until either
// stream has output past its offset, the command has ended, or ctx is
// done, and returns the command's state with each stream's output from
// its offset, cut to at most limit bytes per stream at a character
// boundary (limit <= 0: no cut; a limit below [utf8.UTFMax] is raised to
// it, so that a reader always makes progress).
//
// The answer is consistent: a final status (not StatusRunning) always
// comes with all the output, and the streams' EOF is set exactly when the
// status is final; an answer that says StatusRunning holds only output
// written before the command exited (when it exits while the answer is
// read, Poll answers with its end instead). Once new output has come, Poll
// waits up to [PollSettle] for the command to exit, so that the last
// output of a command comes with its final status.
func (p *Process) Poll(ctx context.Context, stdoutOffset, stderrOffset int64, limit int) (Result, error) {
	if !p.started() {
		return Result{}, ErrNotStarted
	}
	out, errc := p.stdout.newData(stdoutOffset), p.stderr.newData(stderrOffset)
	if out != nil && errc != nil {
		select {
		case <-out:
		case <-errc:
		case <-p.done:
		case <-ctx.Done():
		}
	}
	select {
	case <-p.done:
	case <-ctx.Done():
	default:
		t := time.NewTimer(PollSettle)
		select {
		case <-p.exited:
			// The command's last output is in; its group and pipes
			// end within the drain window.
			select {
			case <-p.done:
			case <-ctx.Done():
			}
		case <-t.C:
		case <-ctx.Done():
		}
		t.Stop()
	}
	r, err := p.state()
	r.Stdout, r.Stderr = p.since(p.stdout, stdoutOffset), p.since(p.stderr, stderrOffset)
	if r.Status == StatusRunning {
		select {
		case <-p.exited:
			// The command exited while the answer was read: what was
			// read may have been written after the exit (by what it
			// left in the background). Answer with its end instead.
			select {
			case <-p.done:
			case <-ctx.Done():
			}
			r, err = p.state()
			r.Stdout, r.Stderr = p.since(p.stdout, stdoutOffset), p.since(p.stderr, stderrOffset)
		default:
			// It had not exited when the output was read: all of it
			// was written while it ran.
		}
	}
	if r.Status == StatusRunning {
		r.Stdout.EOF, r.Stderr.EOF = false, false
	}
	if limit > 0 {
		limit = max(limit, utf8.UTFMax)
		r.Stdout, r.Stderr = r.Stdout.Clip(limit), r.Stderr.Clip(limit)
	}
	return r, err
}

// Status returns the command's state now, without waiting and without
// output: Stdout and Stderr hold no Data, and their Offset and Next are
// the number of bytes each stream has had so far.
func (p *Process) Status() (Result, error) {
	if !p.started() {
		return Result{}, ErrNotStarted
	}
	r, err := p.state()
	end := func(b *Buffer) Chunk {
		n := b.Total()
		return Chunk{Data: []byte{}, Offset: n, Next: n, EOF: r.Status != StatusRunning}
	}
	r.Stdout, r.Stderr = end(p.stdout), end(p.stderr)
	return r, err
}

func (p *Process) buffer(s Stream) *Buffer {
	if !p.started() {
		return nil
	}
	switch s {
	case Stdout:
		return p.stdout
	case Stderr:
		return p.stderr
	}
	return nil
}

// result returns the current result with all output held.
func (p *Process) result() (Result, error) {
	r, err := p.state()
	r.Stdout, r.Stderr = p.since(p.stdout, 0), p.since(p.stderr, 0)
	return r, err
}

// state returns the current result without output.
func (p *Process) state() (Result, error) {
	r := Result{Pid: p.pid, Status: StatusRunning, Duration: time.Since(p.start), Sandbox: p.sandbox, Reaper: p.reaper}
	select {
	case <-p.done:
		p.mu.Lock()
		r.Status, r.BackgroundKilled = p.status, p.background
		if p.sandboxEnd != nil {
			r.Sandbox = p.sandboxEnd
		}
		r.Duration = p.exitedAt.Sub(p.start)
		ws, err := p.ws, p.waitErr
		p.mu.Unlock()
		switch {
		case err != nil:
		case ws.Exited():
			code := ws.ExitStatus()
			r.ExitCode = &code
		case ws.Signaled():
			r.Signal = SignalName(ws.Signal())
			r.CoreDumped = ws.CoreDump()
		}
		return r, err
	default:
	}
	return r, nil
}
