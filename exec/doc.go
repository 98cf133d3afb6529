// Package exec runs checked shell commands and reports precisely how they
// ended. Unlike os/exec, it runs a shell line (always `bash -c COMMAND`),
// never inherits the caller's environment, kills whole process groups, and
// keeps bounded output readable by offset while the command runs. It is
// the executor of cmdguard: the gate decides whether a command may run,
// and this package runs it.
//
// A [Cmd] is started with [Start] as `bash -c COMMAND` in a session (and
// so a process group) of its own — only a process group where a cgroup
// ends it and the caller has no controlling terminal, see
// [Result.Reaper] — with a given working directory, environment and standard
// input. Its output is read without pause into a [Buffer] per stream — or
// one buffer for both, in true order, with [Cmd.Combined] — which keeps
// the newest bytes up to a limit, counts every byte ever written, and
// never hands out half a UTF-8 character. The [Process] can be read from
// an offset ([Process.Read]), long-polled for both streams and its state
// at once ([Process.Poll]), looked at without waiting ([Process.Status]),
// written to with a deadline ([Process.Write]), waited for with a soft
// timeout ([Process.Wait]), signalled or killed ([Process.Kill]) and
// released ([Process.Release]). [Run] does all of it at once.
//
// # Lifetime
//
// No command outlives the program that started it: the command's bash is
// started with Pdeathsig (on Linux), and a watchdog process shared by the program
// kills the sessions and cgroups of its commands when the program dies,
// even by SIGKILL. Without a cgroup, what leaves its session (setsid, a
// daemon) escapes both; in the sandbox, such processes are killed when
// the command ends (see [SandboxReport.Survivors]). On Linux a sandboxed
// command needs no watchdog: its PID namespace ends with its first
// process, which dies with the program, and the kernel kills the rest.
//
// A command's life is [StatusRunning], then [StatusCompleted],
// [StatusTimedOut] or [StatusKilled]. Its [Result] carries either an exit
// code or the POSIX name of the signal that ended it ([SignalName]), the
// core-dump flag read from the wait status, and the output kept.
// [Result.Explain] says it in words; [StripANSI] and [CollapseCR] prepare
// output for display, and a [Throttle] paces live output to a terminal.
//
// The command inherits the signal dispositions of the calling process as
// exec(2) leaves them: signals the caller ignores (a background job of a
// script ignores SIGINT; signal.Ignore does the same) are ignored by the
// command too, and bash cannot undo that. A caller that wants to pass
// Ctrl-C on should catch it with signal.Notify and call [Process.Signal].
//
// The package runs on Linux and macOS. On Linux it relies on process
// groups and sessions, waitid(2), Pdeathsig, /proc and the real-time
// signal numbering of glibc; on macOS on process groups and sessions, a
// kqueue for the exit, the kernel's session table (kern.proc.session),
// the platform's signal list (SIGEMT, SIGINFO, no real-time signals) and
// the watchdog alone for the parent's death (there is no Pdeathsig).
// The sandbox is Linux-only for now: on macOS a Sandbox that is not
// Optional makes Start fail, saying so. On other systems the package
// builds, and Start refuses with an error.
//
// # Security
//
// The command string is handed to bash as it is. This package does not
// check, quote or rewrite it: whatever bash accepts runs. Deciding whether
// a command may run is the job of the cmdguard gate, and Start must only be
// called with a command the gate has allowed.
//
// The environment is not inherited: a nil [Cmd.Env] gives the command an
// empty environment, so that secrets in the caller's environment reach it
// only when the caller passes them on. Note that bash then searches its
// built-in default PATH. Bash itself is found in the caller's PATH unless
// [Cmd.Shell] names it.
//
// Ending a command ends its whole process group, and every other group of
// its session (timeout, job control and setpgid make one): the signal,
// SIGCONT, a grace period, then SIGKILL. When the main process exits, the
// rest is killed too, after a short drain window if its output is still
// held open, so no process outlives the run. How the rest is found is
// [Result.Reaper]: where this process may make cgroups (cgroup v2, as
// root, or in a systemd user session), each command runs in a cgroup of
// its own, entered at the fork, whose end costs one read when nothing is
// left and one write to cgroup.kill when something is; that also ends
// what left the session (setsid, a daemon that double-forks into a new
// session). The groups are made next to this process's own cgroup, named
// cmdguard-PID-N, kept for reuse, and those of a process that is gone are
// removed by the next one. Elsewhere, and with CMDGUARD_EXEC_REAPER=sweep,
// the rest is found by a pass over /proc for the command's session, and
// a process that leaves the session escapes. Reading from the pipes of an
// escaped process stops after a second drain window, so that
// [Process.Wait] still returns.
//
// # Sandbox
//
// With [Cmd.Sandbox] set, the command starts in new user and mount
// namespaces (and a network namespace without Network), as the caller's
// own uid, with no privilege needed. Because Go cannot run code between
// fork and exec, Start runs a copy of the calling program
// (/proc/self/exe) whose init function, in the internal package
// sandboxinit, recognises its role by a variable in its environment,
// reads the setup from a pipe, covers each hidden
// path with an empty read-only file or directory, makes each protected
// path a read-only mount (and each directory above it a mount point, so
// that it cannot be renamed away), brings up the loopback interface,
// enters a Landlock domain (no inspection of outside processes through
// ptrace or /proc, no mount or umount, and from ABI 6 no signals or
// abstract Unix sockets outside), drops every capability, sets
// no_new_privs, and executes bash in its own place: the process id is
// still the command's. Any program that imports this package therefore
// serves as its own sandbox helper; its main function never runs in that
// role. sandboxinit imports only syscall, unsafe and runtime, so Go
// initialises it right after them, before the program's other packages:
// their initialisers (OPA's are heavy) do not run in the setup, and the
// few that Go initialises earlier (packages with no imports outside the
// runtime) should have no side effects. The setup runs with an
// environment of its own (the marker, GOMAXPROCS=1, GOGC=off); the
// command gets [Cmd.Env].
//
// A setup that fails makes Start fail, and the command does not run,
// unless [Sandbox.Optional] is set: then it runs without, and
// [Result.Sandbox] says why. What the sandbox does not stop is described
// in the project README.
//
// Output memory is bounded by [Cmd.OutputLimit] per stream, whatever the
// command prints. Output is not sanitised: it may contain escape sequences
// that drive a terminal; use [StripANSI] before showing untrusted output.
package exec
