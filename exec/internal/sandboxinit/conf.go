// Package sandboxinit is the part of the exec package's sandbox that runs
// inside the new namespaces: a copy of the calling program, started with
// the Marker variable in its environment, recognises its role in this
// package's init, sets the sandbox up, and executes bash in its own
// place, never returning to the program's main.
//
// It imports nothing but syscall, unsafe and runtime (no strconv, no
// os), so that Go
// initialises it right after the runtime and syscall: the initialisers
// of the program's other packages (OPA's are heavy) never run in the
// setup, and what happens before it is only the runtime's own start.
package sandboxinit

// Marker is the environment entry that starts the setup (the setup's
// whole environment is Env): the command itself gets the environment
// sent in the Config.
const Marker = "CMDGUARD_SANDBOX_SETUP=v2"

// Env is the setup's environment: the marker, and a runtime that skips
// what the setup does not need (reading the cgroup limits to size
// GOMAXPROCS, the garbage collector). Nothing from the request is in it.
var Env = []string{Marker, "GOMAXPROCS=1", "GOGC=off"}

// FailExit is the setup's exit status when it fails.
const FailExit = 125

// Fds of the setup: the configuration is read from ConfigFd (to its end),
// and StatusFd reports, one line each, "ok HIDDEN PROTECTED ABI" once
// bash is started, or "error MESSAGE"; then, when bash has ended,
// "end WAITSTATUS SURVIVORS" (bash's raw wait status, and how many other
// processes were left in the namespace, killed with it as the setup
// exits). The setup stays as the namespace's first process while bash
// runs, and exits with bash's exit status (128+N for signal N).
const (
	ConfigFd = 3
	StatusFd = 4
	// EgressFd, with Config.EgressPort, is a Unix socket to the caller:
	// see egressListen.
	EgressFd = 5
)

// Config is what the setup is told to do.
type Config struct {
	Shell   string
	Argv    []string
	Env     []string
	Dir     string
	Lock    []string // directories made mounts of their own, top down
	Protect []string // made read-only
	Hide    []string // covered
	Network bool
	// EgressPort, when not 0, is the port of 127.0.0.1 in the network
	// namespace where the caller's proxy listens (sent through EgressFd).
	EgressPort int
	// ReadOnly makes every file system read-only but Writable (kept as
	// they are) and Cow (a copy-on-write layer each, in memory, gone
	// with the run); both are applied shallowest first, before Lock,
	// Protect and Hide.
	ReadOnly bool
	Writable []string
	Cow      []string
	// With ReadOnly: Seal lists directories given a read-only overlay
	// (what is there can be read, but no Unix socket there, bound now or
	// later, can be connected to); Sockets lists the sockets the command
	// may connect to all the same (mounted back on themselves); Bound
	// lists the paths of the sockets bound when the run starts (the
	// caller's /proc/net/unix): each that is outside Writable and not in
	// Sockets is covered with an empty file.
	Seal    []string
	Sockets []string
	Bound   []string
}

// Encode writes c as NUL-terminated strings (none of them can hold a
// NUL: they are paths, arguments and environment entries).
func (c *Config) Encode() []byte {
	var b []byte
	str := func(s string) { b = append(append(b, s...), 0) }
	list := func(l []string) {
		str(itoa(len(l)))
		for _, s := range l {
			str(s)
		}
	}
	str("v4")
	str(c.Shell)
	list(c.Argv)
	list(c.Env)
	str(c.Dir)
	list(c.Lock)
	list(c.Protect)
	list(c.Hide)
	flag := func(v bool) {
		if v {
			str("1")
		} else {
			str("0")
		}
	}
	flag(c.Network)
	str(itoa(c.EgressPort))
	flag(c.ReadOnly)
	list(c.Writable)
	list(c.Cow)
	list(c.Seal)
	list(c.Sockets)
	list(c.Bound)
	return b
}

// Valid reports whether s can be sent in a Config.
func Valid(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			return false
		}
	}
	return true
}

// itoa and atoi convert counts (this package imports no strconv: see the
// package documentation).
func itoa(n int) string { return utoa(uint64(n)) }

func utoa(n uint64) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	for ; n > 0; n /= 10 {
		i--
		b[i] = byte('0' + n%10)
	}
	return string(b[i:])
}

func atoi(s string) (int, bool) {
	if s == "" || len(s) > 9 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, true
}
