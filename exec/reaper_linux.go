package exec

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// How a command's leftovers are found once its main process has exited
// (see Result.Reaper).
//
// With a cgroup v2 tree this process may write to (root, or a systemd
// user session, which delegates the user's own cgroups), every command
// starts in a cgroup of its own, made a child of this process's cgroup
// and entered at the fork (clone3 with CLONE_INTO_CGROUP), so that no
// process of the command ever runs outside it. Its end reads one line,
// "populated", from a file kept open: when the command left nothing, that
// is the whole cost. When it did, one write to cgroup.kill ends
// everything in the group, including what left the session (setsid,
// daemons), which the sweep cannot find. The groups are kept and reused,
// so that a command costs no mkdir or rmdir.
//
// Without one, the end is a pass over /proc for the processes of the
// command's session outside its process group (sweepSessions).
const (
	ReaperCgroup = "cgroup"
	ReaperSweep  = "sweep"
)

// reaperEnv forces a mechanism for this process: "sweep" (the fallback)
// or "cgroup" (used when available, as by default). It is read once.
const reaperEnv = "CMDGUARD_EXEC_REAPER"

// cgroupIdleMax is how many empty groups are kept for reuse.
const cgroupIdleMax = 8

var cgroups struct {
	once   sync.Once
	mu     sync.Mutex
	base   string // this process's cgroup directory; "" when unavailable
	err    error  // why there is none
	idle   []*cgroup
	drains int // groups being emptied (release)
	n      int
	prefix string
}

// A cgroup is a command's cgroup: its directory, open, and its
// cgroup.events, open for reading with pread.
type cgroup struct {
	dir    string
	fd     int
	events int
	killed bool // cgroup.kill was written: the group is not reused
	// empty: populated read 0, so every process of the command has
	// exited and none can enter the group again (until it is reused)
	empty bool
}

// cgroupInit finds this process's cgroup v2 directory and checks that a
// child group can be made and killed there.
func cgroupInit() {
	switch os.Getenv(reaperEnv) {
	case ReaperSweep:
		cgroups.err = errors.New(reaperEnv + "=" + ReaperSweep)
		return
	}
	base, err := ownCgroup()
	if err != nil {
		cgroups.err = err
		return
	}
	cgroups.base = base
	cgroups.prefix = "cmdguard-" + strconv.Itoa(os.Getpid()) + "-"
	removeStaleCgroups(base)
	cg, err := newCgroup()
	if err != nil {
		cgroups.base, cgroups.err = "", err
		return
	}
	cgroups.idle = append(cgroups.idle, cg)
}

// ownCgroup returns the directory of this process's cgroup in the
// cgroup v2 hierarchy.
func ownCgroup() (string, error) {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", err
	}
	var path string
	for line := range strings.Lines(string(b)) {
		if p, ok := strings.CutPrefix(strings.TrimSuffix(line, "\n"), "0::"); ok {
			path = p
		}
	}
	if !strings.HasPrefix(path, "/") {
		return "", errors.New("no cgroup v2 membership")
	}
	mi, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return "", err
	}
	for line := range strings.Lines(string(mi)) {
		pre, post, ok := strings.Cut(strings.TrimSuffix(line, "\n"), " - ")
		if !ok || !strings.HasPrefix(post, "cgroup2 ") {
			continue
		}
		f := strings.Fields(pre)
		if len(f) < 5 {
			continue
		}
		root, mnt := unescapeMount(f[3]), unescapeMount(f[4])
		rel, ok := strings.CutPrefix(path, root)
		if !ok || (root != "/" && rel != "" && !strings.HasPrefix(rel, "/")) {
			continue
		}
		dir := filepath.Join(mnt, rel)
		if strings.ContainsAny(dir, "\n") {
			return "", errors.New("cgroup path holds a newline")
		}
		return dir, nil
	}
	return "", errors.New("no cgroup v2 mount")
}

// unescapeMount undoes mountinfo's octal escapes (\040 for a space).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// removeStaleCgroups removes the empty groups left by processes of this
// package that are gone (an rmdir of a populated group fails).
func removeStaleCgroups(base string) {
	ents, err := os.ReadDir(base)
	if err != nil {
		return
	}
	for _, e := range ents {
		rest, ok := strings.CutPrefix(e.Name(), "cmdguard-")
		if !ok || !e.IsDir() {
			continue
		}
		pidText, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid == os.Getpid() || syscall.Kill(pid, 0) != syscall.ESRCH {
			continue
		}
		unix.Rmdir(filepath.Join(base, e.Name()))
	}
}

// newCgroup makes a new child group; cgroups.mu is held or not needed.
func newCgroup() (*cgroup, error) {
	cgroups.n++
	dir := filepath.Join(cgroups.base, cgroups.prefix+strconv.Itoa(cgroups.n))
	if err := unix.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cgroup %s: %w", dir, err)
	}
	cg := &cgroup{dir: dir, fd: -1, events: -1}
	var err error
	if cg.fd, err = unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0); err == nil {
		if cg.events, err = unix.Openat(cg.fd, "cgroup.events", unix.O_RDONLY|unix.O_CLOEXEC, 0); err == nil {
			// cgroup.kill came with Linux 5.14.
			err = unix.Faccessat(cg.fd, "cgroup.kill", unix.W_OK, 0)
		}
	}
	if err != nil {
		cg.remove()
		return nil, fmt.Errorf("cgroup %s: %w", dir, err)
	}
	return cg, nil
}

// remove closes the group and removes its directory.
func (cg *cgroup) remove() {
	if cg.events >= 0 {
		unix.Close(cg.events)
	}
	if cg.fd >= 0 {
		unix.Close(cg.fd)
	}
	unix.Rmdir(cg.dir)
}

// acquireCgroup returns an empty group for a new command, or nil when
// commands end by the sweep.
func acquireCgroup() *cgroup {
	cgroups.once.Do(cgroupInit)
	cgroups.mu.Lock()
	defer cgroups.mu.Unlock()
	if cgroups.base == "" {
		return nil
	}
	if n := len(cgroups.idle); n > 0 {
		cg := cgroups.idle[n-1]
		cgroups.idle = cgroups.idle[:n-1]
		cg.empty = false
		return cg
	}
	cg, err := newCgroup()
	if err != nil {
		return nil
	}
	return cg
}

// apply makes the command's fork enter the group. An unsandboxed
// command in a cgroup gets only a process group of its own, not a
// session, when this process has no controlling terminal (then neither
// does the command): the cgroup, not the session, finds what it leaves,
// and setsid(2) costs more than it seems where the scheduler's autogroups
// are on (sched_autogroup_enabled): each session gets a scheduling group
// of its own, made and freed with every command, which under load made a
// quarter of the runs of `true` take twice as long as os/exec's. A
// sandboxed command keeps its session, which its report sweeps.
func (cg *cgroup) apply(sys *syscall.SysProcAttr, sandboxed bool) {
	if cg == nil {
		return
	}
	sys.UseCgroupFD, sys.CgroupFD = true, cg.fd
	if !sandboxed && !hasTerminal() {
		sys.Setsid, sys.Setpgid = false, true
	}
}

// hasTerminal reports whether this process has a controlling terminal.
// Only a session leader gets one (by opening a terminal); another process
// keeps the answer it had when first asked, and a leader is asked every
// time, with one read of its /proc stat file. Unknown counts as a
// terminal.
func hasTerminal() bool {
	if sid, err := unix.Getsid(0); err != nil || sid == syscall.Getpid() {
		return readTerminal()
	}
	return firstTerminal()
}

var firstTerminal = sync.OnceValue(readTerminal)

// readTerminal reports whether /proc/self/stat names a controlling
// terminal ("pid (comm) state ppid pgrp session tty_nr …"); unknown
// counts as one.
func readTerminal() bool {
	fd, err := syscall.Open("/proc/self/stat", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return true
	}
	var b [512]byte
	n, err := syscall.Read(fd, b[:])
	syscall.Close(fd)
	if err != nil || n <= 0 {
		return true
	}
	i := bytes.LastIndexByte(b[:n], ')')
	if i < 0 {
		return true
	}
	f := bytes.Fields(b[i+1 : n])
	if len(f) < 5 {
		return true
	}
	return string(f[4]) != "0"
}

// populated reports whether any process is left in the group (a zombie
// is not: the command's bash, unreaped, does not count). It is one pread.
func (cg *cgroup) populated() bool {
	if cg.empty {
		return false
	}
	var buf [64]byte
	n, err := unix.Pread(cg.events, buf[:], 0)
	if err != nil {
		return true // unknown: as if something were left
	}
	cg.empty = bytes.Contains(buf[:n], []byte("populated 0"))
	return !cg.empty
}

// kill ends every process in the group with SIGKILL, if any is left.
func (cg *cgroup) kill() {
	if !cg.populated() {
		return
	}
	fd, err := unix.Openat(cg.fd, "cgroup.kill", unix.O_WRONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return
	}
	unix.Write(fd, []byte("1"))
	unix.Close(fd)
	cg.killed = true
}

// signal sends sig to every process of the group outside process group
// pgid (kill(-pgid) reaches those).
func (cg *cgroup) signal(pgid int, sig syscall.Signal) {
	if sig == syscall.SIGKILL {
		cg.kill()
		return
	}
	if !cg.populated() {
		return
	}
	b, err := os.ReadFile(filepath.Join(cg.dir, "cgroup.procs"))
	if err != nil {
		return
	}
	for line := range strings.Lines(string(b)) {
		pid, err := strconv.Atoi(strings.TrimSpace(line))
		if err != nil || pid == pgid {
			continue
		}
		if g, err := syscall.Getpgid(pid); err == nil && g != pgid {
			syscall.Kill(pid, sig)
		}
	}
}

// release ends what is left in the group and gives the group back for
// reuse once it is empty.
func (cg *cgroup) release() {
	if cg == nil {
		return
	}
	if !cg.populated() {
		cg.recycle()
		return
	}
	cg.kill()
	cgroups.mu.Lock()
	cgroups.drains++
	cgroups.mu.Unlock()
	go func() {
		defer func() {
			cgroups.mu.Lock()
			cgroups.drains--
			cgroups.mu.Unlock()
		}()
		// SIGKILL ends everything but a process stuck in the kernel;
		// give such a group up after a minute.
		for d, waited := time.Millisecond, time.Duration(0); waited < time.Minute; d = min(2*d, 100*time.Millisecond) {
			time.Sleep(d)
			waited += d
			if !cg.populated() {
				cg.recycle()
				return
			}
			cg.kill()
		}
		unix.Close(cg.events)
		unix.Close(cg.fd)
	}()
}

// recycle puts an empty group back into the pool, or removes it. A group
// that has been killed is removed: Linux 6.14 and later (the kill_seq of
// "cgroup: fix race between fork and cgroup.kill") kill every process
// forked into it with CLONE_INTO_CGROUP from a group never killed,
// seen here on 6.18.
func (cg *cgroup) recycle() {
	cgroups.mu.Lock()
	if len(cgroups.idle) < cgroupIdleMax && !cg.killed && cgroups.base != "" {
		cgroups.idle = append(cgroups.idle, cg)
		cgroups.mu.Unlock()
		return
	}
	cgroups.mu.Unlock()
	cg.remove()
}

// cgroupPrefix is how the directories of this process's cgroups begin,
// for the watchdog; "" when there are none.
func cgroupPrefix() string {
	cgroups.once.Do(cgroupInit)
	cgroups.mu.Lock()
	defer cgroups.mu.Unlock()
	if cgroups.base == "" {
		return ""
	}
	return filepath.Join(cgroups.base, cgroups.prefix)
}

// disableCgroups gives the cgroups up for this process: a fork could not
// enter one. Commands end by the sweep from now on.
func disableCgroups() {
	cgroups.once.Do(cgroupInit)
	cgroups.mu.Lock()
	idle := cgroups.idle
	cgroups.base, cgroups.idle = "", nil
	cgroups.err = errors.New("a fork could not enter its cgroup")
	cgroups.mu.Unlock()
	for _, cg := range idle {
		cg.remove()
	}
}

// pooledFDs counts the descriptors of the groups kept or being emptied.
func pooledFDs() int {
	cgroups.mu.Lock()
	defer cgroups.mu.Unlock()
	return 2 * (len(cgroups.idle) + cgroups.drains)
}

// reaperAvailable reports whether mechanism name can be used by this
// process (for the tests).
func reaperAvailable(name string) bool {
	switch name {
	case ReaperSweep:
		return true
	case ReaperCgroup:
		cgroups.once.Do(cgroupInit)
		cgroups.mu.Lock()
		defer cgroups.mu.Unlock()
		return cgroups.base != ""
	}
	return false
}
