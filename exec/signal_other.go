//go:build !linux && !darwin

package exec

import "syscall"

// No real-time signals are named here; sigMax is the highest signal
// number named.
const (
	sigRTMin = 0
	sigRTMax = 0
	sigMax   = len(signalNames) - 1
)

// signalNames holds the POSIX signals every Unix-like system has.
var signalNames = [...]string{
	syscall.SIGHUP:    "SIGHUP",
	syscall.SIGINT:    "SIGINT",
	syscall.SIGQUIT:   "SIGQUIT",
	syscall.SIGILL:    "SIGILL",
	syscall.SIGTRAP:   "SIGTRAP",
	syscall.SIGABRT:   "SIGABRT",
	syscall.SIGFPE:    "SIGFPE",
	syscall.SIGKILL:   "SIGKILL",
	syscall.SIGBUS:    "SIGBUS",
	syscall.SIGSEGV:   "SIGSEGV",
	syscall.SIGSYS:    "SIGSYS",
	syscall.SIGPIPE:   "SIGPIPE",
	syscall.SIGALRM:   "SIGALRM",
	syscall.SIGTERM:   "SIGTERM",
	syscall.SIGURG:    "SIGURG",
	syscall.SIGSTOP:   "SIGSTOP",
	syscall.SIGTSTP:   "SIGTSTP",
	syscall.SIGCONT:   "SIGCONT",
	syscall.SIGCHLD:   "SIGCHLD",
	syscall.SIGTTIN:   "SIGTTIN",
	syscall.SIGTTOU:   "SIGTTOU",
	syscall.SIGIO:     "SIGIO",
	syscall.SIGXCPU:   "SIGXCPU",
	syscall.SIGXFSZ:   "SIGXFSZ",
	syscall.SIGVTALRM: "SIGVTALRM",
	syscall.SIGPROF:   "SIGPROF",
	syscall.SIGWINCH:  "SIGWINCH",
	syscall.SIGUSR1:   "SIGUSR1",
	syscall.SIGUSR2:   "SIGUSR2",
}
