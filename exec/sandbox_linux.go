package exec

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/cmdguard/cmdguard/exec/internal/sandboxinit"
	"golang.org/x/sys/unix"
)

// The sandbox is set up by a copy of the running program: Go cannot run
// code between fork and exec, so Start starts /proc/self/exe in new
// namespaces with the sandboxinit.Marker environment, and the init of
// package sandboxinit (which Go initialises before almost every other
// package) sets the sandbox up and execs bash in place of the program,
// never returning to main. The setup is read from a pipe on fd 3; what
// happened is written to fd 4, which closes when bash is executed.
const sandboxSetupMax = 30 * time.Second // for the setup to report

// startSandboxed starts the sandbox setup in new namespaces, hands it the
// command, and waits until it has either executed bash or failed.
func startSandboxed(shell string, argv []string, attr *syscall.ProcAttr, sb *Sandbox) (pid int, run *sandboxRun, err error) {
	if sb.Err != nil {
		return 0, nil, fmt.Errorf("sandbox: %w", sb.Err)
	}
	for _, list := range [][]string{sb.Hide, sb.Protect, sb.Absent} {
		for _, p := range list {
			if !filepath.IsAbs(p) || filepath.Clean(p) != p || p == "/" {
				return 0, nil, fmt.Errorf("sandbox: path %q is not a clean absolute path below /", p)
			}
		}
	}
	if len(attr.Files) != 3 {
		return 0, nil, errors.New("sandbox: want exactly three standard files")
	}
	// The setup enters the directory again after its mounts: it must
	// be absolute.
	dir, err := filepath.Abs(attr.Dir)
	if err != nil {
		return 0, nil, fmt.Errorf("sandbox: %w", err)
	}
	cfg := sandboxinit.Config{
		Shell:   shell,
		Argv:    argv,
		Env:     attr.Env,
		Dir:     dir,
		Lock:    lockDirs(append(slices.Clip(sb.Protect), sb.Absent...)),
		Protect: sb.Protect,
		Hide:    outermost(sb.Hide),
		Network: sb.Network,
	}
	egress := sb.Proxy != nil && !sb.Network
	if egress {
		cfg.EgressPort, cfg.Env = ProxyPort, proxyEnv(attr.Env, ProxyPort)
	}
	for _, list := range [][]string{{shell, dir}, argv, attr.Env, sb.Hide, sb.Protect} {
		for _, s := range list {
			if !sandboxinit.Valid(s) {
				return 0, nil, fmt.Errorf("sandbox: %q holds a NUL byte", s)
			}
		}
	}
	data := cfg.Encode()
	cfgR, cfgW, err := os.Pipe()
	if err != nil {
		return 0, nil, fmt.Errorf("sandbox: pipe: %w", err)
	}
	defer cfgW.Close()
	stR, stW, err := os.Pipe()
	if err != nil {
		cfgR.Close()
		return 0, nil, fmt.Errorf("sandbox: pipe: %w", err)
	}
	defer stR.Close()
	var egressR, egressW *os.File
	if egress {
		if egressR, egressW, err = egressPair(); err != nil {
			cfgR.Close()
			stW.Close()
			return 0, nil, fmt.Errorf("sandbox: %w", err)
		}
		defer egressR.Close()
	}

	sys := *attr.Sys
	sys.Cloneflags |= syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS
	if !sb.Network {
		sys.Cloneflags |= syscall.CLONE_NEWNET
	}
	uid, gid := os.Geteuid(), os.Getegid()
	sys.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
	sys.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
	sys.GidMappingsEnableSetgroups = false
	// The setup keeps, across its exec as the caller's own uid, the
	// capabilities it needs in the new namespaces (and then drops them).
	sys.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_SETPCAP, unix.CAP_NET_ADMIN}
	child := &syscall.ProcAttr{
		Dir: attr.Dir,
		// The setup runs with an environment of its own: nothing the
		// request put there (LD_PRELOAD, GODEBUG) may act before the
		// sandbox is up.
		Env:   sandboxinit.Env,
		Files: append(slices.Clip(attr.Files), cfgR.Fd(), stW.Fd()),
		Sys:   &sys,
	}
	if egress {
		child.Files = append(child.Files, egressW.Fd())
	}
	pid, _, err = syscall.StartProcess("/proc/self/exe", []string{"cmdguard-sandbox-setup"}, child)
	runtime.KeepAlive(cfgR)
	runtime.KeepAlive(stW)
	runtime.KeepAlive(egressW)
	cfgR.Close()
	stW.Close()
	egressW.Close()
	if err != nil {
		return 0, nil, fmt.Errorf("sandbox: new user and mount namespaces: %w", err)
	}
	failed := func(err error) (int, *sandboxRun, error) {
		syscall.Kill(pid, syscall.SIGKILL)
		var ws syscall.WaitStatus
		for {
			if _, werr := syscall.Wait4(pid, &ws, 0, nil); werr != syscall.EINTR {
				break
			}
		}
		return 0, nil, fmt.Errorf("sandbox: %w", err)
	}
	stR.SetReadDeadline(time.Now().Add(sandboxSetupMax))
	if _, err := cfgW.Write(data); err != nil {
		// The setup died before reading: its status says why.
		if _, serr := readStatus(stR, sb.Network); serr != nil {
			return failed(serr)
		}
		return failed(fmt.Errorf("send setup: %w", err))
	}
	cfgW.Close()
	if egress {
		if err := egressStart(egressR, sb.Proxy); err != nil {
			// The setup waits for the proxy's word: closing the socket
			// ends it. If it failed first, its status says why.
			egressR.Close()
			if _, serr := readStatus(stR, sb.Network); serr != nil && !strings.HasPrefix(serr.Error(), "egress: the proxy did not start") {
				return failed(serr)
			}
			return failed(err)
		}
	}
	run, err = readStatus(stR, sb.Network)
	if err != nil {
		if egress {
			sb.Proxy.Stop()
		}
		return failed(err)
	}
	if egress {
		run.proxy = sb.Proxy
		run.report.Layers = append(run.report.Layers, "proxy")
	}
	return pid, run, nil
}

// readStatus reads the setup's status lines until it executes bash or
// ends; the last line decides: "ok HIDDEN PROTECTED ABI NSDEV NSINO" or
// "error MSG".
func readStatus(r io.Reader, network bool) (*sandboxRun, error) {
	var last string
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), 1<<20)
	for sc.Scan() {
		last = sc.Text()
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read setup status: %w", err)
	}
	if msg, ok := strings.CutPrefix(last, "error "); ok {
		return nil, errors.New(msg)
	}
	rest, ok := strings.CutPrefix(last, "ok ")
	if !ok {
		return nil, errors.New("the setup ended without a word")
	}
	var n [5]uint64
	f := strings.Fields(rest)
	if len(f) != len(n) {
		return nil, fmt.Errorf("read setup status: %q", last)
	}
	for i := range n {
		v, err := strconv.ParseUint(f[i], 10, 64)
		if err != nil || (i < 3 && v > 1<<31) {
			return nil, fmt.Errorf("read setup status: %q", last)
		}
		n[i] = v
	}
	rep := &SandboxReport{Applied: true, Layers: []string{"user", "mount"}, Network: network,
		Hidden: int(n[0]), Protected: int(n[1]), LandlockABI: int(n[2])}
	if !network {
		rep.Layers = append(rep.Layers, "net")
	}
	rep.Layers = append(rep.Layers, "landlock")
	return &sandboxRun{report: rep, userns: devIno{n[3], n[4]}}, nil
}

// killSandbox kills every process left in the user namespace ns or one
// nested in it, and waits until none is left (at most sandboxEndMax; a
// process stuck in the kernel may outlast it). It returns how many it
// killed. A process that left the command's session escapes the
// executor's other kills, not this one.
func killSandbox(ns devIno) int {
	own, err := nsOf("/proc/self/ns/user")
	if err != nil {
		return 0
	}
	killed := map[int]bool{}
	deadline := time.Now().Add(sandboxEndMax)
	for pause := 100 * time.Microsecond; ; pause = min(2*pause, 20*time.Millisecond) {
		left := 0
		for _, pid := range procPids() {
			// Most processes are in the caller's own namespace: a
			// readlink says so at half the cost of inSandbox's stat.
			if inOwnNS(pid, own) || !inSandbox(pid, ns, own) {
				continue
			}
			// A pidfd names this process even if its pid is reused
			// meanwhile; it is checked again through the pidfd's pid.
			pfd, err := unix.PidfdOpen(pid, 0)
			if err != nil {
				continue // ended
			}
			// A zombie has ended (its parent may never reap it).
			if inSandbox(pid, ns, own) && !zombie(pid) && unix.PidfdSendSignal(pfd, unix.SIGKILL, nil, 0) == nil {
				left++
				killed[pid] = true
			}
			unix.Close(pfd)
		}
		if left == 0 || time.Now().After(deadline) {
			return len(killed)
		}
		time.Sleep(pause)
	}
}

// sandboxEndMax bounds the wait for the sandbox's last processes.
const sandboxEndMax = 2 * time.Second

// inSandbox reports whether process pid is in user namespace ns or in one
// nested in it. own is the caller's user namespace, where the walk up
// stops. A process whose namespace cannot be read (another user's, or
// ended) is not.
func inSandbox(pid int, ns, own devIno) bool {
	p := "/proc/" + strconv.Itoa(pid) + "/ns/user"
	id, err := nsOf(p)
	switch {
	case err != nil || id == own:
		return false
	case id == ns:
		return true
	}
	fd, err := unix.Open(p, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	for range 32 {
		parent, err := unix.IoctlRetInt(fd, unix.NS_GET_PARENT)
		unix.Close(fd)
		if err != nil {
			return false
		}
		fd = parent
		var st unix.Stat_t
		if unix.Fstat(fd, &st) != nil {
			break
		}
		switch (devIno{uint64(st.Dev), st.Ino}) {
		case ns:
			unix.Close(fd)
			return true
		case own:
			unix.Close(fd)
			return false
		}
	}
	unix.Close(fd)
	return false
}

// zombie reports whether process pid has ended but is not reaped (or
// is gone).
func zombie(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(b, ')')
	return i < 0 || i+2 >= len(b) || b[i+2] == 'Z' || b[i+2] == 'X'
}

// inOwnNS reports whether process pid is in user namespace own, read
// from the name of its /proc/PID/ns/user link ("user:[INODE]"), which the
// kernel writes without resolving the link (stat does, at twice the
// cost). Every namespace is an inode of the one nsfs file system, so the
// inode alone names it. false when unsure.
func inOwnNS(pid int, own devIno) bool {
	var buf [48]byte
	n, err := unix.Readlink("/proc/"+strconv.Itoa(pid)+"/ns/user", buf[:])
	if err != nil || n >= len(buf) {
		return false
	}
	s, ok := strings.CutPrefix(string(buf[:n]), "user:[")
	s, ok2 := strings.CutSuffix(s, "]")
	if !ok || !ok2 {
		return false
	}
	ino, err := strconv.ParseUint(s, 10, 64)
	return err == nil && ino == own.ino
}

func nsOf(p string) (devIno, error) {
	var st unix.Stat_t
	if err := unix.Stat(p, &st); err != nil {
		return devIno{}, err
	}
	return devIno{uint64(st.Dev), st.Ino}, nil
}

// procPids lists the processes in /proc.
func procPids() []int {
	f, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	defer f.Close()
	names, _ := f.Readdirnames(-1)
	pids := make([]int, 0, len(names))
	for _, n := range names {
		if pid, err := strconv.Atoi(n); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// lockDirs returns every directory above a protected path (but /), top
// down: each becomes a mount point of its own, which cannot be renamed or
// removed, so that a protected file cannot be moved away with its
// directory and replaced by a writable one.
func lockDirs(protect []string) []string {
	seen := map[string]bool{}
	var dirs []string
	for _, p := range protect {
		for d := filepath.Dir(p); d != "/" && !seen[d]; d = filepath.Dir(d) {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	slices.SortFunc(dirs, func(a, b string) int {
		if c := strings.Count(a, "/") - strings.Count(b, "/"); c != 0 {
			return c
		}
		return strings.Compare(a, b)
	})
	return dirs
}

// outermost drops the paths below another path of the list, and repeats.
func outermost(paths []string) []string {
	ps := slices.Clone(paths)
	slices.Sort(ps)
	ps = slices.Compact(ps)
	out := ps[:0]
	for _, p := range ps {
		if n := len(out); n > 0 && strings.HasPrefix(p, out[n-1]) && p[len(out[n-1])] == '/' {
			continue
		}
		out = append(out, p)
	}
	return out
}
