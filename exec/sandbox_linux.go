package exec

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// The sandbox is set up by a copy of the running program: Go cannot run
// code between fork and exec, so Start starts /proc/self/exe with argv[0]
// sandboxArg0 in new namespaces, and this package's init sees that name,
// sets the sandbox up, and execs bash in place of the program, never
// returning to main. The setup is read from fd 3 (JSON); what happened is
// written to fd 4, which closes when bash is executed.
const (
	sandboxArg0     = "cmdguard-sandbox-init"
	sandboxFailExit = 125
	sandboxSetupMax = 30 * time.Second // for the setup to report
	sandboxConfMax  = 64 << 20
)

func init() {
	if len(os.Args) == 1 && os.Args[0] == sandboxArg0 {
		runtime.LockOSThread() // credentials, Landlock and exec are per thread
		sandboxMain()
	}
}

// sandboxConfig is what the parent sends the setup.
type sandboxConfig struct {
	Shell   string   `json:"shell"`
	Argv    []string `json:"argv"`
	Env     []string `json:"env"`
	Dir     string   `json:"dir"`
	Lock    []string `json:"lock"`
	Protect []string `json:"protect"`
	Hide    []string `json:"hide"`
	Network bool     `json:"network"`
}

// sandboxStatus is one line the setup writes back.
type sandboxStatus struct {
	Report *SandboxReport `json:"report,omitempty"`
	Error  string         `json:"error,omitempty"`
}

// startSandboxed starts the sandbox setup in new namespaces, hands it the
// command, and waits until it has either executed bash or failed.
func startSandboxed(shell string, argv []string, attr *syscall.ProcAttr, sb *Sandbox) (pid int, rep *SandboxReport, err error) {
	if sb.Err != nil {
		return 0, nil, fmt.Errorf("sandbox: %w", sb.Err)
	}
	for _, list := range [][]string{sb.Hide, sb.Protect} {
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
	cfg := sandboxConfig{
		Shell:   shell,
		Argv:    argv,
		Env:     attr.Env,
		Dir:     dir,
		Lock:    lockDirs(sb.Protect),
		Protect: sb.Protect,
		Hide:    outermost(sb.Hide),
		Network: sb.Network,
	}
	data, err := json.Marshal(cfg)
	if err != nil {
		return 0, nil, fmt.Errorf("sandbox: %w", err)
	}
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
		// The setup runs with no environment: nothing the request put
		// there (LD_PRELOAD, GODEBUG) may act before the sandbox is up.
		Env:   []string{},
		Files: append(slices.Clip(attr.Files), cfgR.Fd(), stW.Fd()),
		Sys:   &sys,
	}
	pid, _, err = syscall.StartProcess("/proc/self/exe", []string{sandboxArg0}, child)
	runtime.KeepAlive(cfgR)
	runtime.KeepAlive(stW)
	cfgR.Close()
	stW.Close()
	if err != nil {
		return 0, nil, fmt.Errorf("sandbox: new user and mount namespaces: %w", err)
	}
	failed := func(err error) (int, *SandboxReport, error) {
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
		if st, serr := readStatus(stR); serr == nil && st.Error != "" {
			return failed(errors.New(st.Error))
		}
		return failed(fmt.Errorf("send setup: %w", err))
	}
	cfgW.Close()
	st, err := readStatus(stR)
	switch {
	case err != nil:
		return failed(err)
	case st.Error != "":
		return failed(errors.New(st.Error))
	case st.Report == nil:
		return failed(errors.New("the setup ended without a word"))
	}
	return pid, st.Report, nil
}

// readStatus reads the setup's status lines until it executes bash or
// ends; the last line decides.
func readStatus(r io.Reader) (sandboxStatus, error) {
	var last sandboxStatus
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 4096), 1<<20)
	for sc.Scan() {
		var st sandboxStatus
		if err := json.Unmarshal(sc.Bytes(), &st); err != nil {
			return last, fmt.Errorf("read setup status: %w", err)
		}
		last = st
	}
	if err := sc.Err(); err != nil {
		return last, fmt.Errorf("read setup status: %w", err)
	}
	return last, nil
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

// sandboxMain is the setup process: it never returns.
func sandboxMain() {
	status := os.NewFile(4, "sandbox-status")
	syscall.CloseOnExec(4)
	say := func(st sandboxStatus) {
		b, _ := json.Marshal(st)
		status.Write(append(b, '\n'))
	}
	conf := os.NewFile(3, "sandbox-config")
	data, err := io.ReadAll(io.LimitReader(conf, sandboxConfMax))
	conf.Close()
	var cfg sandboxConfig
	if err == nil {
		err = json.Unmarshal(data, &cfg)
	}
	if err != nil {
		say(sandboxStatus{Error: "read setup: " + err.Error()})
		os.Exit(sandboxFailExit)
	}
	rep, err := sandboxSetup(&cfg)
	if err != nil {
		say(sandboxStatus{Error: err.Error()})
		os.Exit(sandboxFailExit)
	}
	say(sandboxStatus{Report: rep})
	err = syscall.Exec(cfg.Shell, cfg.Argv, cfg.Env)
	say(sandboxStatus{Error: fmt.Sprintf("start %s: %v", cfg.Shell, err)})
	os.Exit(sandboxFailExit)
}

// sandboxSetup builds the sandbox in the new namespaces: mounts, network,
// Landlock, and then gives up every capability.
func sandboxSetup(cfg *sandboxConfig) (*SandboxReport, error) {
	rep := &SandboxReport{Applied: true, Layers: []string{"user", "mount"}, Network: cfg.Network}
	if !cfg.Network {
		rep.Layers = append(rep.Layers, "net")
	}
	// Nothing done here may reach the namespace the command came from.
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return nil, fmt.Errorf("make mounts private: %w", err)
	}
	for _, d := range cfg.Lock {
		if _, err := remount(d, false, "lock directory"); err != nil {
			return nil, err
		}
	}
	for _, p := range cfg.Protect {
		ok, err := remount(p, true, "protect")
		if err != nil {
			return nil, err
		}
		if ok {
			rep.Protected++
		}
	}
	if len(cfg.Hide) > 0 {
		n, err := hide(cfg.Hide)
		if err != nil {
			return nil, err
		}
		rep.Hidden = n
	}
	if !cfg.Network {
		if err := loopbackUp(); err != nil {
			return nil, fmt.Errorf("network namespace: bring up lo: %w", err)
		}
	}
	// The working directory was entered before the mounts: enter it
	// again, so that it is seen through them (and one inside a hidden
	// directory is not reachable at all).
	if err := unix.Chdir(cfg.Dir); err != nil {
		return nil, fmt.Errorf("working directory: %w", err)
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return nil, fmt.Errorf("no_new_privs: %w", err)
	}
	abi, err := landlock()
	rep.LandlockABI = abi
	if err != nil {
		return nil, err
	}
	rep.Layers = append(rep.Layers, "landlock")
	if err := dropCapabilities(); err != nil {
		return nil, err
	}
	return rep, nil
}

// openExact opens p as an O_PATH descriptor without following any
// symbolic link on the way. ok is false when p does not exist.
func openExact(p string) (fd int, ok bool, err error) {
	fd, err = unix.Openat2(unix.AT_FDCWD, p, &unix.OpenHow{
		Flags:   unix.O_PATH | unix.O_NOFOLLOW | unix.O_CLOEXEC,
		Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS,
	})
	switch {
	case err == nil:
		return fd, true, nil
	case errors.Is(err, unix.ENOENT):
		return -1, false, nil
	}
	return -1, false, fmt.Errorf("open %s: %w", p, err)
}

// remount mounts p on itself, with everything mounted below it, read-only
// when ro is set. ok is false when p does not exist.
func remount(p string, ro bool, what string) (ok bool, err error) {
	fd, ok, err := openExact(p)
	if !ok || err != nil {
		if err != nil {
			err = fmt.Errorf("%s: %w", what, err)
		}
		return false, err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return false, fmt.Errorf("%s %s: %w", what, p, err)
	}
	if st.Mode&unix.S_IFMT == unix.S_IFLNK && !ro {
		return false, fmt.Errorf("%s %s: a symbolic link", what, p)
	}
	// A protected symbolic link is mounted on itself: it can then be
	// neither removed nor replaced (what it points to is protected on
	// its own).
	tree, err := unix.OpenTree(fd, "", unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC|unix.AT_RECURSIVE|unix.AT_EMPTY_PATH)
	if err != nil {
		return false, fmt.Errorf("%s %s: clone: %w", what, p, err)
	}
	defer unix.Close(tree)
	if ro {
		attr := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY | unix.MOUNT_ATTR_NOSUID | unix.MOUNT_ATTR_NODEV}
		if err := unix.MountSetattr(tree, "", unix.AT_EMPTY_PATH|unix.AT_RECURSIVE, &attr); err != nil {
			return false, fmt.Errorf("%s %s: read-only: %w", what, p, err)
		}
	}
	if err := unix.MoveMount(tree, "", fd, "", unix.MOVE_MOUNT_F_EMPTY_PATH|unix.MOVE_MOUNT_T_EMPTY_PATH); err != nil {
		return false, fmt.Errorf("%s %s: mount: %w", what, p, err)
	}
	return true, nil
}

// hide covers each path with an empty read-only file or directory from a
// private tmpfs, and returns how many it covered.
func hide(paths []string) (int, error) {
	fsfd, err := unix.Fsopen("tmpfs", unix.FSOPEN_CLOEXEC)
	if err != nil {
		return 0, fmt.Errorf("hide: tmpfs: %w", err)
	}
	defer unix.Close(fsfd)
	if err := unix.FsconfigSetString(fsfd, "size", "4k"); err != nil {
		return 0, fmt.Errorf("hide: tmpfs: %w", err)
	}
	if err := unix.FsconfigCreate(fsfd); err != nil {
		return 0, fmt.Errorf("hide: tmpfs: %w", err)
	}
	mnt, err := unix.Fsmount(fsfd, unix.FSMOUNT_CLOEXEC, unix.MOUNT_ATTR_NOSUID|unix.MOUNT_ATTR_NODEV|unix.MOUNT_ATTR_NOEXEC)
	if err != nil {
		return 0, fmt.Errorf("hide: tmpfs: %w", err)
	}
	defer unix.Close(mnt)
	if err := unix.Mkdirat(mnt, "d", 0o555); err != nil {
		return 0, fmt.Errorf("hide: empty directory: %w", err)
	}
	f, err := unix.Openat(mnt, "f", unix.O_CREAT|unix.O_EXCL|unix.O_WRONLY|unix.O_CLOEXEC, 0o444)
	if err != nil {
		return 0, fmt.Errorf("hide: empty file: %w", err)
	}
	unix.Close(f)
	ro := unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}
	if err := unix.MountSetattr(mnt, "", unix.AT_EMPTY_PATH, &ro); err != nil {
		return 0, fmt.Errorf("hide: read-only tmpfs: %w", err)
	}
	n := 0
	for _, p := range paths {
		fd, ok, err := openExact(p)
		if err != nil {
			return n, fmt.Errorf("hide: %w", err)
		}
		if !ok {
			continue
		}
		var st unix.Stat_t
		if err := unix.Fstat(fd, &st); err != nil {
			unix.Close(fd)
			return n, fmt.Errorf("hide %s: %w", p, err)
		}
		src := "f"
		switch st.Mode & unix.S_IFMT {
		case unix.S_IFDIR:
			src = "d"
		case unix.S_IFLNK:
			unix.Close(fd)
			return n, fmt.Errorf("hide %s: a symbolic link", p)
		}
		tree, err := unix.OpenTree(mnt, src, unix.OPEN_TREE_CLONE|unix.OPEN_TREE_CLOEXEC)
		if err == nil {
			err = unix.MoveMount(tree, "", fd, "", unix.MOVE_MOUNT_F_EMPTY_PATH|unix.MOVE_MOUNT_T_EMPTY_PATH)
			unix.Close(tree)
		}
		unix.Close(fd)
		if err != nil {
			return n, fmt.Errorf("hide %s: %w", p, err)
		}
		n++
	}
	return n, nil
}

// loopbackUp brings up the loopback interface of the new network
// namespace, so that the command can still talk to itself on 127.0.0.1.
func loopbackUp() error {
	fd, err := unix.Socket(unix.AF_INET, unix.SOCK_DGRAM|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	ifr, err := unix.NewIfreq("lo")
	if err != nil {
		return err
	}
	if err := unix.IoctlIfreq(fd, unix.SIOCGIFFLAGS, ifr); err != nil {
		return err
	}
	ifr.SetUint16(ifr.Uint16() | unix.IFF_UP)
	return unix.IoctlIfreq(fd, unix.SIOCSIFFLAGS, ifr)
}

// landlockRuleset is struct landlock_ruleset_attr up to ABI 7.
type landlockRuleset struct {
	handledFS  uint64
	handledNet uint64
	scoped     uint64
}

// landlock puts the setup (and so the command) in a Landlock domain and
// returns the kernel's ABI version. The domain restricts no file access
// that the mounts grant; it is there for what namespaces cannot express:
// a process in it cannot inspect processes outside it (ptrace, and
// /proc/PID/root, cwd, fd, mem, environ of the caller and of every other
// process of the person), cannot mount or unmount anything (so the hiding
// mounts stay), and from ABI 6 cannot signal processes outside it or
// connect to their abstract Unix sockets.
func landlock() (int, error) {
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if errno != 0 {
		return 0, fmt.Errorf("landlock unavailable (%v): without it, processes outside the sandbox could be inspected through /proc", errno)
	}
	abi := int(v)
	// Handling device-node creation (which a user namespace refuses
	// anyway) makes the domain restrict file systems, which is what
	// denies mount and umount.
	attr := landlockRuleset{handledFS: unix.LANDLOCK_ACCESS_FS_MAKE_CHAR | unix.LANDLOCK_ACCESS_FS_MAKE_BLOCK}
	if abi >= 6 {
		attr.scoped = unix.LANDLOCK_SCOPE_SIGNAL | unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
	}
	fd, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if errno != 0 {
		return abi, fmt.Errorf("landlock ruleset: %w", errno)
	}
	defer unix.Close(int(fd))
	if _, _, errno := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, fd, 0, 0); errno != 0 {
		return abi, fmt.Errorf("landlock restrict: %w", errno)
	}
	return abi, nil
}

// dropCapabilities gives up every capability in the user namespace, for
// good: the command (even as uid 0 there) cannot unmount what hides a file.
func dropCapabilities() error {
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil {
		return fmt.Errorf("drop ambient capabilities: %w", err)
	}
	for c := 0; c <= unix.CAP_LAST_CAP+8; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil {
			if errors.Is(err, unix.EINVAL) && c > unix.CAP_LAST_CAP {
				break
			}
			return fmt.Errorf("drop capability %d: %w", c, err)
		}
	}
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capset(&hdr, &data[0]); err != nil {
		return fmt.Errorf("drop capabilities: %w", err)
	}
	return nil
}
