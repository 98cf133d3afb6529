package exec_test

import (
	"bytes"
	"os"
	"syscall"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// dead reports whether process pid is gone or a zombie.
func dead(pid int) bool {
	if err := syscall.Kill(pid, 0); err == syscall.ESRCH {
		return true
	}
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || kp.Proc.P_pid != int32(pid) {
		return true
	}
	const sZomb = 5 // SZOMB
	return kp.Proc.P_stat == sZomb
}

// ignoredSignals returns the mask of signals this process ignores: bit n-1
// for signal n.
func ignoredSignals(t *testing.T) uint64 {
	t.Helper()
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	return uint64(kp.Proc.P_sigignore)
}

// openPty opens a pseudo-terminal pair: /dev/ptmx, granted, unlocked and
// named by ioctl.
func openPty(t *testing.T) (master, tty *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open /dev/ptmx: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	fd := master.Fd()
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, unix.TIOCPTYGRANT, 0); e != 0 {
		t.Fatalf("grant pty: %v", e)
	}
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, unix.TIOCPTYUNLK, 0); e != 0 {
		t.Fatalf("unlock pty: %v", e)
	}
	var name [128]byte
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, unix.TIOCPTYGNAME, uintptr(unsafe.Pointer(&name[0]))); e != 0 {
		t.Fatalf("pty name: %v", e)
	}
	n := bytes.IndexByte(name[:], 0)
	if n < 0 {
		n = len(name)
	}
	tty, err = os.OpenFile(string(name[:n]), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open tty: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	return master, tty
}

// peakRSS returns this process's peak resident set size in bytes (macOS
// counts ru_maxrss in bytes).
func peakRSS() (int, error) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, err
	}
	return int(ru.Maxrss), nil
}
