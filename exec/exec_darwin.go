package exec

import (
	"errors"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// errPlatform is nil: commands run on macOS.
var errPlatform error

// sysProcAttr is how a command's bash is started: in a session of its own.
// macOS has no Pdeathsig: the watchdog alone ends the command's session
// when this program dies (see watchdog.go).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true}
}

// growPipe does nothing: macOS pipes grow by themselves.
func growPipe(*os.File) {}

// isTerminal reports whether f is a terminal.
func isTerminal(f *os.File) bool {
	sc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	var terr error
	err = sc.Control(func(fd uintptr) {
		_, terr = unix.IoctlGetTermios(int(fd), unix.TIOCGETA)
	})
	return err == nil && terr == nil
}

// waitExited blocks until process pid has exited, without reaping it: a
// kqueue reports its exit. A child that has already exited (a zombie)
// cannot be watched, and is reported as exited.
func waitExited(pid int) error {
	kq, err := unix.Kqueue()
	if err != nil {
		return err
	}
	defer unix.Close(kq)
	var ev unix.Kevent_t
	unix.SetKevent(&ev, pid, unix.EVFILT_PROC, unix.EV_ADD|unix.EV_ONESHOT)
	ev.Fflags = unix.NOTE_EXIT
	changes := []unix.Kevent_t{ev}
	out := make([]unix.Kevent_t, 1)
	for {
		n, err := unix.Kevent(kq, changes, out, nil)
		switch {
		case errors.Is(err, unix.EINTR):
			changes = nil // registered; wait again
			continue
		case errors.Is(err, unix.ESRCH):
			return nil // already exited: pid is our unreaped child
		case err != nil:
			return err
		case n == 1 && out[0].Flags&unix.EV_ERROR != 0:
			if unix.Errno(out[0].Data) == unix.ESRCH {
				return nil
			}
			return unix.Errno(out[0].Data)
		case n == 1:
			return nil
		}
		changes = nil
	}
}

// signalSession sends sig to every process of session sid that is not in
// process group sid (kill(-sid) reaches those), listed by the kernel's
// kern.proc.session table.
func signalSession(sid int, sig syscall.Signal) {
	procs, err := unix.SysctlKinfoProcSlice("kern.proc.session", sid)
	if err != nil {
		return
	}
	for i := range procs {
		pid, pgid := int(procs[i].Proc.P_pid), int(procs[i].Eproc.Pgid)
		if pid != sid && pgid != sid {
			syscall.Kill(pid, sig)
		}
	}
}

// watchdogSessions is the watchdog's last pass: every process of a
// registered session, by pkill's session filter, three times over for
// those forked meanwhile.
const watchdogSessions = `for pass in 1 2 3; do
	for id in "${!g[@]}"; do pkill -KILL -s "$id"; done 2>/dev/null
done`

// usePidfd returns nil: there are no pidfds here.
func usePidfd(*syscall.SysProcAttr, bool) *int { return nil }

func waitExitedFD(pid int, _ *int) error { return waitExited(pid) }
