package exec

import (
	"os"
	"sync"
	"syscall"
	"unsafe"
)

// errPlatform is nil: commands run on Linux.
var errPlatform error

// sysProcAttr is how a command's bash is started: in a session of its own,
// with Pdeathsig, which ends bash if this program dies; the watchdog ends
// the rest of the session (see watchdog.go).
func sysProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setsid: true, Pdeathsig: syscall.SIGKILL}
}

// growPipe asks the kernel for a pipe of pipeSize bytes, so that a chatty
// command is woken less often. It is only an optimisation; a refusal
// (pipe-max-size, the user's pipe budget) is ignored.
func growPipe(f *os.File) {
	const fSetPipeSz = 1031 // F_SETPIPE_SZ
	if sc, err := f.SyscallConn(); err == nil {
		sc.Control(func(fd uintptr) { syscall.Syscall(syscall.SYS_FCNTL, fd, fSetPipeSz, pipeSize) })
	}
}

// isTerminal reports whether f is a terminal.
func isTerminal(f *os.File) bool {
	sc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	var errno syscall.Errno
	var termios syscall.Termios
	err = sc.Control(func(fd uintptr) {
		_, _, errno = syscall.Syscall(syscall.SYS_IOCTL, fd, syscall.TCGETS, uintptr(unsafe.Pointer(&termios)))
	})
	return err == nil && errno == 0
}

// usePidfd asks the fork of an unsandboxed command for a pidfd, so that
// its exit is seen by the network poller, with the end of its output,
// rather than by a thread blocked in waitid. It returns where the pidfd
// will be (-1 if the kernel gives none), or nil.
func usePidfd(sys *syscall.SysProcAttr, sandboxed bool) *int {
	if sandboxed {
		return nil
	}
	fd := -1
	sys.PidFD = &fd
	return &fd
}

// waitExitedFD blocks until process pid has exited, without reaping it,
// by its pidfd when there is one, which it closes.
func waitExitedFD(pid int, pidfd *int) error {
	if pidfd == nil || *pidfd < 0 {
		return waitExited(pid)
	}
	fd := *pidfd
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return waitExited(pid)
	}
	f := os.NewFile(uintptr(fd), "pidfd")
	defer f.Close()
	rc, err := f.SyscallConn()
	if err != nil {
		return waitExited(pid)
	}
	var werr error
	err = rc.Read(func(fd uintptr) bool {
		const (
			pPIDFD  = 3          // P_PIDFD
			wNoWait = 0x01000000 // WNOWAIT
		)
		var siginfo [16]uint64
		for {
			_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pPIDFD, fd,
				uintptr(unsafe.Pointer(&siginfo[0])), syscall.WEXITED|syscall.WNOHANG|wNoWait, 0, 0)
			switch {
			case errno == syscall.EINTR:
				continue
			case errno != 0:
				werr = errno
				return true
			}
			// si_pid, after si_signo, si_errno, si_code and the
			// alignment of the union that holds it (to a pointer), is 0
			// while the process runs.
			const pidOff = (3*4 + unsafe.Sizeof(uintptr(0)) - 1) &^ (unsafe.Sizeof(uintptr(0)) - 1)
			return *(*int32)(unsafe.Pointer(uintptr(unsafe.Pointer(&siginfo[0])) + pidOff)) != 0
		}
	})
	if err != nil {
		return waitExited(pid)
	}
	return werr
}

// waitExited blocks until process pid has exited, without reaping it.
func waitExited(pid int) error {
	const (
		pPID    = 1          // P_PID
		wNoWait = 0x01000000 // WNOWAIT
	)
	var siginfo [16]uint64
	for {
		_, _, errno := syscall.Syscall6(syscall.SYS_WAITID, pPID, uintptr(pid),
			uintptr(unsafe.Pointer(&siginfo[0])), syscall.WEXITED|wNoWait, 0, 0)
		switch errno {
		case 0:
			return nil
		case syscall.EINTR:
			continue
		}
		return errno
	}
}

// signalSession sends sig to every process of session sid that is not in
// process group sid (kill(-sid) reaches those). It reads /proc; the
// requests of commands ending at once share one pass.
func signalSession(sid int, sig syscall.Signal) {
	req := sweepReq{sid, sig, make(chan struct{})}
	sweeps.mu.Lock()
	sweeps.pending = append(sweeps.pending, req)
	if sweeps.running {
		sweeps.mu.Unlock()
		<-req.done
		return
	}
	sweeps.running = true
	for len(sweeps.pending) > 0 {
		batch := sweeps.pending
		sweeps.pending = nil
		sweeps.mu.Unlock()
		sweepSessions(batch)
		for _, r := range batch {
			close(r.done)
		}
		sweeps.mu.Lock()
	}
	sweeps.running = false
	sweeps.mu.Unlock()
}

type sweepReq struct {
	sid  int
	sig  syscall.Signal
	done chan struct{}
}

var sweeps struct {
	mu      sync.Mutex
	pending []sweepReq
	running bool
}

// sweepSessions makes one pass over /proc for the requests. It reads
// each process's stat with raw system calls into reused buffers: it runs
// at the end of every command, so it allocates nothing per process.
func sweepSessions(reqs []sweepReq) {
	proc, err := syscall.Open("/proc", syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	defer syscall.Close(proc)
	var dents [8 << 10]byte
	var path [32]byte // "PID/stat\x00"
	var stat [512]byte
	for {
		n, err := syscall.Getdents(proc, dents[:])
		if err != nil || n <= 0 {
			return
		}
		for off := 0; off < n; {
			// struct linux_dirent64: ino u64, off s64, reclen u16, type u8, name
			reclen := int(dents[off+16]) | int(dents[off+17])<<8
			name := dents[off+19 : off+reclen]
			off += reclen
			pid, ok := atoi(name)
			if !ok {
				continue
			}
			k := copy(path[:], name[:clen(name)])
			k += copy(path[k:], "/stat\x00")
			fd, _, errno := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(proc), uintptr(unsafe.Pointer(&path[0])),
				uintptr(syscall.O_RDONLY|syscall.O_CLOEXEC), 0, 0, 0)
			if errno != 0 {
				continue
			}
			m, _ := syscall.Read(int(fd), stat[:])
			syscall.Close(int(fd))
			if m <= 0 {
				continue
			}
			pgrp, sess, ok := statGroups(stat[:m])
			if !ok || pgrp == sess {
				continue // a session leader's group gets kill(-pgid)
			}
			for _, r := range reqs {
				if r.sid == sess && pid != sess {
					syscall.Kill(pid, r.sig)
				}
			}
		}
	}
}

// clen is the length of the NUL-terminated name in b.
func clen(b []byte) int {
	for i, c := range b {
		if c == 0 {
			return i
		}
	}
	return len(b)
}

// atoi parses the NUL-terminated decimal name of a /proc entry.
func atoi(b []byte) (int, bool) {
	n, digits := 0, 0
	for _, c := range b {
		if c == 0 {
			break
		}
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
		digits++
	}
	return n, digits > 0
}

// statGroups returns the process group and session of a /proc/PID/stat
// line: "pid (comm) state ppid pgrp session …", where comm may hold
// anything, so fields are counted from the last ')'.
func statGroups(b []byte) (pgrp, sess int, ok bool) {
	i := len(b) - 1
	for i >= 0 && b[i] != ')' {
		i--
	}
	if i < 0 {
		return 0, 0, false
	}
	var f [4]int // state, ppid, pgrp, session: numbers from the 2nd on
	field := -1
	for j := i + 1; j < len(b) && field < 4; j++ {
		switch c := b[j]; {
		case c == ' ':
			field++
		case field >= 1 && c >= '0' && c <= '9':
			f[field] = f[field]*10 + int(c-'0')
		}
	}
	return f[2], f[3], field >= 3
}

// watchdogSessions is the watchdog's last pass: every process of a
// registered session, read from /proc, three times over for those forked
// meanwhile.
const watchdogSessions = `for pass in 1 2 3; do
	for f in /proc/[0-9]*/stat; do
		read -r s < "$f" || continue
		s=${s##*) }
		set -- $s
		[[ $4 && ${g[$4]} ]] && kill -KILL "${f:6:-5}"
	done 2>/dev/null
done`
