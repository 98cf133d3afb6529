package exec

import (
	"bufio"
	"errors"
	"fmt"
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
	for _, list := range [][]string{sb.Hide, sb.Protect, sb.Absent, sb.Writable, sb.Cow, sb.Sockets, sb.Seal} {
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
	if sb.ReadOnly {
		cfg.ReadOnly, cfg.Writable = true, sb.Writable
		cfg.Cow = append([]string{"/tmp", "/var/tmp", "/dev/shm"}, sb.Cow...)
		cfg.Seal = sealDirs(attr.Env, sb.Seal)
		cfg.Sockets = sb.Sockets
		cfg.Bound = boundSockets()
	}
	for _, list := range [][]string{{shell, dir}, argv, attr.Env, sb.Hide, sb.Protect, sb.Writable, sb.Cow, sb.Sockets, cfg.Seal, cfg.Bound} {
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
	keep := false
	defer func() {
		if !keep {
			stR.Close()
		}
	}()
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
	// A PID namespace of its own: the setup is its first process, and
	// everything of the run ends with it (see sandboxinit). The caller's
	// Pdeathsig (SIGKILL) applies to the setup: it dies with the caller,
	// and the namespace with it.
	sys.Cloneflags |= syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID
	if !sb.Network {
		sys.Cloneflags |= syscall.CLONE_NEWNET
	}
	uid, gid := os.Geteuid(), os.Getegid()
	sys.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
	sys.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
	sys.GidMappingsEnableSetgroups = false
	// The setup keeps, across its exec as the caller's own uid, the
	// capabilities it needs in the new namespaces (and then drops them):
	// overlayfs's copy-on-write layers need CAP_MKNOD (whiteouts) and the
	// file-access ones, as an unprivileged caller (EACCES without).
	sys.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_SETPCAP, unix.CAP_NET_ADMIN, unix.CAP_MKNOD, unix.CAP_DAC_OVERRIDE, unix.CAP_FOWNER}
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
	sc := bufio.NewScanner(stR)
	sc.Buffer(make([]byte, 4096), 1<<20)
	if _, err := cfgW.Write(data); err != nil {
		// The setup died before reading: its status says why.
		if _, serr := readStatus(sc, sb.Network); serr != nil {
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
			if _, serr := readStatus(sc, sb.Network); serr != nil && !strings.HasPrefix(serr.Error(), "egress: the proxy did not start") {
				return failed(serr)
			}
			return failed(err)
		}
	}
	run, err = readStatus(sc, sb.Network)
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
	keep = true
	run.pidNS = true
	run.end = func() (syscall.WaitStatus, int, bool) { return readEnd(stR, sc) }
	return pid, run, nil
}

// readStatus reads the setup's status lines until it has started bash
// or ended; the line "ok HIDDEN PROTECTED ABI" or "error MSG" decides.
// The run it returns reads the setup's last line ("end WS SURVIVORS")
// from sc when bash has ended.
func readStatus(sc *bufio.Scanner, network bool) (*sandboxRun, error) {
	var last string
	for sc.Scan() {
		last = sc.Text()
		if strings.HasPrefix(last, "ok ") || strings.HasPrefix(last, "error ") {
			break
		}
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
	n, ok := counts(rest, 3)
	if !ok {
		return nil, fmt.Errorf("read setup status: %q", last)
	}
	rep := &SandboxReport{Applied: true, Layers: []string{"user", "mount", "pid"}, Network: network,
		Hidden: n[0], Protected: n[1], LandlockABI: n[2]}
	if !network {
		rep.Layers = append(rep.Layers, "net")
	}
	rep.Layers = append(rep.Layers, "landlock")
	return &sandboxRun{report: rep}, nil
}

// readEnd reads the setup's "end WS SURVIVORS" line, once it has exited
// (its end of the pipe is then closed: the wait is bounded all the same).
func readEnd(f *os.File, sc *bufio.Scanner) (syscall.WaitStatus, int, bool) {
	defer f.Close()
	f.SetReadDeadline(time.Now().Add(sandboxSetupMax))
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "end "); ok {
			n, ok := counts(rest, 2)
			if !ok || n[0] > 0xffff {
				return 0, 0, false
			}
			return syscall.WaitStatus(n[0]), n[1], true
		}
	}
	return 0, 0, false
}

// counts parses want space-separated decimal counts.
func counts(s string, want int) ([]int, bool) {
	f := strings.Fields(s)
	if len(f) != want {
		return nil, false
	}
	n := make([]int, want)
	for i, x := range f {
		v, err := strconv.ParseUint(x, 10, 31)
		if err != nil {
			return nil, false
		}
		n[i] = int(v)
	}
	return n, true
}

// sealDirs returns the directories whose sockets are out of reach: /run,
// the runtime directory (env's XDG_RUNTIME_DIR and /run/user/UID) and
// seal (home directories), as real paths; those that do not exist are
// left out.
func sealDirs(env, seal []string) []string {
	dirs := append([]string{"/run", "/run/user/" + strconv.Itoa(os.Geteuid())}, seal...)
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "XDG_RUNTIME_DIR="); ok && filepath.IsAbs(v) {
			dirs = append(dirs, v)
		}
	}
	var out []string
	for _, d := range dirs {
		if r, err := filepath.EvalSymlinks(d); err == nil && r != "/" && sandboxinit.Valid(r) && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

// boundSockets returns the paths of the Unix sockets bound in the
// caller's network namespace (its /proc/net/unix), absolute ones only:
// a relative one names a path from a directory unknown here (those in
// the places the sandbox overlays are out of reach all the same), and
// an abstract one (@name) has no path. It reads the file before the
// sandbox's network namespace exists; a file it cannot read yields
// none (the overlays still keep the usual places out of reach).
func boundSockets() []string {
	b, err := os.ReadFile("/proc/net/unix")
	if err != nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for line := range strings.SplitSeq(string(b), "\n") {
		// "Num: RefCount Protocol Flags Type St Inode Path": seven
		// fields (the inode padded on the left), a space, the path
		// (which may hold spaces).
		rest := line
		for range 7 {
			rest = strings.TrimLeft(rest, " ")
			i := strings.IndexByte(rest, ' ')
			if i < 0 {
				rest = ""
				break
			}
			rest = rest[i:]
		}
		p, ok := strings.CutPrefix(rest, " ")
		if ok && strings.HasPrefix(p, "/") && !seen[p] && sandboxinit.Valid(p) {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
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
