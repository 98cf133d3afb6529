package exec

import (
	"strconv"
	"strings"
	"syscall"
)

// SignalName returns the POSIX name of sig as bash's `kill -l` prints it:
// "SIGKILL", "SIGSEGV", real-time signals as "SIGRTMIN+n" in the lower half
// and "SIGRTMAX-n" in the upper half. A number without a name is "SIGn".
func SignalName(sig syscall.Signal) string {
	switch {
	case sig > 0 && int(sig) < len(signalNames) && signalNames[sig] != "":
		return signalNames[sig]
	case sigRTMin == 0:
		// The platform has no real-time signals.
	case sig == sigRTMin:
		return "SIGRTMIN"
	case sig == sigRTMax:
		return "SIGRTMAX"
	case sig > sigRTMin && sig <= (sigRTMin+sigRTMax)/2:
		return "SIGRTMIN+" + strconv.Itoa(int(sig-sigRTMin))
	case sig > sigRTMin && sig < sigRTMax:
		return "SIGRTMAX-" + strconv.Itoa(int(sigRTMax-sig))
	}
	return "SIG" + strconv.Itoa(int(sig))
}

// ParseSignal returns the signal named by s: a number ("9"), a name with or
// without its SIG prefix, in any case ("SIGTERM", "term"), or a real-time
// signal ("RTMIN+3", "SIGRTMAX-2"). It reports false for anything else.
func ParseSignal(s string) (syscall.Signal, bool) {
	name := strings.ToUpper(s)
	if !strings.HasPrefix(name, "SIG") {
		name = "SIG" + name
	}
	if n, err := strconv.Atoi(name[len("SIG"):]); err == nil {
		return syscall.Signal(n), n > 0 && n <= sigMax
	}
	for base, sign := range map[string]int{"SIGRTMIN+": 1, "SIGRTMAX-": -1} {
		if rest, ok := strings.CutPrefix(name, base); ok && sigRTMin != 0 {
			n, err := strconv.Atoi(rest)
			sig := syscall.Signal(sigRTMin)
			if sign < 0 {
				sig = sigRTMax
			}
			sig += syscall.Signal(sign * n)
			return sig, err == nil && n >= 0 && sig >= sigRTMin && sig <= sigRTMax
		}
	}
	switch name {
	case "SIGRTMIN":
		return sigRTMin, sigRTMin != 0
	case "SIGRTMAX":
		return sigRTMax, sigRTMin != 0
	case "SIGIOT":
		return syscall.SIGABRT, true
	case "SIGPOLL":
		return syscall.SIGIO, true
	case "SIGCLD":
		return syscall.SIGCHLD, true
	}
	for sig, n := range signalNames {
		if n != "" && n == name {
			return syscall.Signal(sig), true
		}
	}
	return 0, false
}
