package exec

import "syscall"

// macOS has no real-time signals; SIGUSR2, 31, is the highest.
const (
	sigRTMin = 0
	sigRTMax = 0
	sigMax   = 31
)

// signalNames holds the POSIX names of the macOS signals, as its bash's
// `kill -l` prints them.
var signalNames = [...]string{
	syscall.SIGHUP:    "SIGHUP",
	syscall.SIGINT:    "SIGINT",
	syscall.SIGQUIT:   "SIGQUIT",
	syscall.SIGILL:    "SIGILL",
	syscall.SIGTRAP:   "SIGTRAP",
	syscall.SIGABRT:   "SIGABRT",
	syscall.SIGEMT:    "SIGEMT",
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
	syscall.SIGINFO:   "SIGINFO",
	syscall.SIGUSR1:   "SIGUSR1",
	syscall.SIGUSR2:   "SIGUSR2",
}
