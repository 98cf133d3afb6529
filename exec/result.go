package exec

import (
	"fmt"
	"strings"
	"syscall"
	"time"
)

// A Result is what is known about a command: its status and, once it has
// ended, how it ended. Exactly one of ExitCode and Signal is set for an
// ended command (the ACP exit status {exitCode, signal}); neither is set
// while it runs.
type Result struct {
	// Status is where the command is in its life.
	Status Status
	// ExitCode is the exit code of the main process, or nil if a signal
	// ended it or it is still running.
	ExitCode *int
	// Signal is the POSIX name of the signal that ended the main process
	// (see [SignalName]), or "".
	Signal string
	// CoreDumped reports that the main process dumped core, as read from
	// its wait status.
	CoreDumped bool
	// Duration is the time from start to the main process's exit, or to
	// now while it runs.
	Duration time.Duration
	// Stdout and Stderr hold the newest output of each stream (everything
	// in Stdout with Cmd.Combined). Their Offset is where the window
	// begins, Next is the total count, Truncated tells whether bytes were
	// dropped.
	Stdout, Stderr Chunk
	// BackgroundKilled reports that the command's output was still open a
	// drain window after its main process exited — held by processes it
	// started in the background, or stalled by a blocked live tee — so the
	// rest of its group was killed (see Cmd.DrainWindow).
	BackgroundKilled bool
	// Pid is the process id, and process group id, of the command's bash.
	Pid int
	// Sandbox says what sandbox the command ran in, or is nil when
	// Cmd.Sandbox was nil.
	Sandbox *SandboxReport
	// Reaper names the mechanism that finds and ends what the command
	// leaves behind once its main process has exited (the rest of its
	// process group is always ended with kill(-pgid)):
	//
	//   - ReaperCgroup: the command ran in a cgroup v2 group of its own,
	//     entered at the fork; its end reads whether the group is still
	//     populated, and only then ends it with cgroup.kill. This also ends
	//     processes that left the command's session (setsid, daemons). It
	//     is used where this process may make child groups of its own
	//     cgroup (root; a systemd user session delegates the user's).
	//     When this process has no controlling terminal, such a command
	//     gets a process group of its own in this process's session, not
	//     a session (setsid makes a scheduler autogroup per command).
	//   - ReaperSweep: the fallback, a pass over /proc that signals the
	//     processes of the command's session outside its group; a process
	//     that left the session escapes it (outside the sandbox). The
	//     pass is skipped when no pid was allocated since the command's
	//     bash (the last pid of /proc/loadavg), and reads only the pids
	//     allocated since when they are few.
	//
	// A sandboxed command's session is also swept (see
	// SandboxReport.Survivors). The environment variable
	// CMDGUARD_EXEC_REAPER=sweep, read once per process, forces the
	// fallback.
	Reaper string
}

// Truncated reports whether either stream dropped bytes.
func (r Result) Truncated() bool { return r.Stdout.Truncated || r.Stderr.Truncated }

// ShellCode returns the exit code as a shell reports it in $?: the exit
// code, or 128+n when signal n ended the command. It returns -1 while the
// command runs. (Mapping StatusTimedOut to 124 is left to the caller.)
func (r Result) ShellCode() int {
	switch {
	case r.ExitCode != nil:
		return *r.ExitCode
	case r.Signal != "":
		if sig, ok := ParseSignal(r.Signal); ok {
			return 128 + int(sig)
		}
	}
	return -1
}

// Explain describes how the command ended for people, in the manner of
// "exit code 139 (128+11: a process it ran was ended by SIGSEGV)" or
// "ended by SIGSEGV (signal 11, shell code 139), core dumped".
func (r Result) Explain() string {
	var b strings.Builder
	switch r.Status {
	case StatusRunning:
		return "still running"
	case StatusTimedOut:
		b.WriteString("timed out: ")
	case StatusKilled:
		b.WriteString("killed: ")
	}
	switch {
	case r.ExitCode != nil:
		code := *r.ExitCode
		fmt.Fprintf(&b, "exit code %d", code)
		switch {
		case code == 126:
			b.WriteString(" (a command was found but could not be executed)")
		case code == 127:
			b.WriteString(" (a command was not found)")
		case code > 128 && code <= 128+sigMax:
			fmt.Fprintf(&b, " (128+%d: a process it ran was ended by %s)", code-128, SignalName(syscall.Signal(code-128)))
		}
	case r.Signal != "":
		fmt.Fprintf(&b, "ended by %s", r.Signal)
		if code := r.ShellCode(); code > 0 {
			fmt.Fprintf(&b, " (signal %d, shell code %d)", code-128, code)
		}
		if r.CoreDumped {
			b.WriteString(", core dumped")
		}
	default:
		b.WriteString("exit status unknown")
	}
	if r.BackgroundKilled {
		b.WriteString("; background processes holding its output were killed")
	}
	return b.String()
}

// ExitStatus is a command's exit status in the shape of ACP's
// terminal/output and terminal/wait_for_exit: exactly one of ExitCode and
// Signal is set, the other marshals to null.
type ExitStatus struct {
	ExitCode *int    `json:"exitCode"`
	Signal   *string `json:"signal"`
}

// ExitStatus returns how the command ended in ACP's shape, or nil while it
// runs (or when it could not be waited for).
func (r Result) ExitStatus() *ExitStatus {
	switch {
	case r.Status == StatusRunning:
		return nil
	case r.ExitCode != nil:
		code := *r.ExitCode
		return &ExitStatus{ExitCode: &code}
	case r.Signal != "":
		sig := r.Signal
		return &ExitStatus{Signal: &sig}
	}
	return nil
}
