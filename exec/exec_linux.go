package exec

import (
	"bytes"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"
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

// sweepSession sends sig to every process of session sid outside process
// group sid, as signalSession does, but reads /proc only as far as needed.
// Every process the session's leader (forked at or after start) or its
// descendants forked holds a pid allocated after the leader's. The pid
// namespace allocates pids in a cycle and /proc/loadavg tells the last
// one: when it is still the leader's, which cannot be reused while the
// leader is unreaped, nothing was forked since and there is nothing to
// signal; when few pids were allocated since, and too little time has
// passed for the cycle to have come round, only those are read. Otherwise
// the whole of /proc is.
//
// (A root command could hide a process from the pre-check by writing
// ns_last_pid or forking with clone3's set_tid; it could as well leave
// the session with setsid, which the sweep never sees either.)
func sweepSession(sid int, start time.Time, sig syscall.Signal) {
	last, ok := lastPid()
	switch {
	case ok && last == sid:
		return
	case ok && last > sid && last-sid <= probeMax && time.Since(start) < cycleTime():
		probeSessions(sid+1, last, sweepReq{sid: sid, sig: sig})
	default:
		signalSession(sid, sig)
	}
}

// probeMax is the most pids sweepSession reads one by one rather than
// passing over /proc.
const probeMax = 64

// lastPid returns the last pid allocated in this process's pid namespace,
// the last field of /proc/loadavg ("0.52 0.58 0.59 1/467 12345").
func lastPid() (int, bool) {
	fd, err := syscall.Open("/proc/loadavg", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return 0, false
	}
	var b [128]byte
	n, err := syscall.Read(fd, b[:])
	syscall.Close(fd)
	if err != nil || n <= 0 || n == len(b) {
		return 0, false
	}
	end := n
	for end > 0 && (b[end-1] == '\n' || b[end-1] == ' ') {
		end--
	}
	i := end
	for i > 0 && b[i-1] >= '0' && b[i-1] <= '9' {
		i--
	}
	if i == end || i == 0 || b[i-1] != ' ' || end-i > 9 {
		return 0, false
	}
	pid, _ := atoi(b[i:end])
	return pid, true
}

// cycleTime is a time in which the pid namespace cannot allocate every
// pid once: pid_max pids at two million a second, more than Linux forks
// or makes threads. A failed read gives 0: every sweep reads /proc.
var cycleTime = sync.OnceValue(func() time.Duration {
	b, err := os.ReadFile("/proc/sys/kernel/pid_max")
	if err != nil {
		return 0
	}
	n, ok := atoi(bytes.TrimSpace(b))
	if !ok {
		return 0
	}
	return time.Duration(n) * time.Second / 2_000_000
})

// probeSessions signals, for the requests, the processes among pids from
// to to (both included), reading only their stat files.
func probeSessions(from, to int, reqs ...sweepReq) {
	proc, err := syscall.Open("/proc", syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		signalSession(reqs[0].sid, reqs[0].sig)
		return
	}
	defer syscall.Close(proc)
	var name [12]byte
	for pid := from; pid <= to; pid++ {
		b := strconv.AppendInt(name[:0], int64(pid), 10)
		signalProc(proc, pid, b, reqs)
	}
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
			signalProc(proc, pid, name[:clen(name)], reqs)
		}
	}
}

// signalProc signals process pid, named name in /proc (open as proc), if
// it is in the session of a request and outside its process group.
func signalProc(proc, pid int, name []byte, reqs []sweepReq) {
	var path [32]byte // "PID/stat\x00"
	var stat [512]byte
	if len(name) > len(path)-len("/stat\x00") {
		return
	}
	k := copy(path[:], name)
	k += copy(path[k:], "/stat\x00")
	fd, _, errno := syscall.Syscall6(syscall.SYS_OPENAT, uintptr(proc), uintptr(unsafe.Pointer(&path[0])),
		uintptr(syscall.O_RDONLY|syscall.O_CLOEXEC), 0, 0, 0)
	if errno != 0 {
		return
	}
	m, _ := syscall.Read(int(fd), stat[:])
	syscall.Close(int(fd))
	if m <= 0 {
		return
	}
	pgrp, sess, ok := statGroups(stat[:m])
	if !ok || pgrp == sess {
		return // a session leader's group gets kill(-pgid)
	}
	for _, r := range reqs {
		if r.sid == sess && pid != sess {
			syscall.Kill(pid, r.sig)
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

// pipeFDs makes a pipe whose descriptors are closed on exec.
func pipeFDs(fds *[2]int) error { return syscall.Pipe2(fds[:], syscall.O_CLOEXEC) }
