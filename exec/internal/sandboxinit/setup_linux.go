package sandboxinit

import (
	"runtime"
	"syscall"
	"unsafe"
)

func init() {
	if v, ok := syscall.Getenv("CMDGUARD_SANDBOX_SETUP"); !ok || "CMDGUARD_SANDBOX_SETUP="+v != Marker {
		return
	}
	runtime.LockOSThread() // credentials, Landlock and exec are per thread
	// An exec that keeps capabilities makes a process not dumpable, and
	// its /proc/self owned by a uid the namespace does not map: overlayfs
	// then cannot resolve the /proc/self/fd paths its layers are named by
	// (a process of the caller's own uid, like bash after its exec).
	syscall.RawSyscall6(syscall.SYS_PRCTL, prSetDumpable, 1, 0, 0, 0, 0)
	setupMain()
}

// System calls and constants of the new mount API and Landlock (the same
// numbers on every Linux architecture since 5.1), and a few that package
// syscall lacks.
const (
	sysOpenTree         = 428
	sysMoveMount        = 429
	sysFsopen           = 430
	sysFsconfig         = 431
	sysFsmount          = 432
	sysOpenat2          = 437
	sysMountSetattr     = 442
	sysLandlockCreate   = 444
	sysLandlockRestrict = 446

	openTreeClone      = 0x1
	atRecursive        = 0x8000
	atEmptyPath        = 0x1000
	moveMountFEmpty    = 0x4
	moveMountTEmpty    = 0x40
	mountAttrRdonly    = 0x1
	mountAttrNosuid    = 0x2
	mountAttrNodev     = 0x4
	mountAttrNoexec    = 0x8
	fsopenCloexec      = 0x1
	fsconfigSetString  = 1
	fsconfigCmdCreate  = 6
	fsmountCloexec     = 0x1
	resolveNoMagic     = 0x2
	resolveNoSymlinks  = 0x4
	oPath              = 0x200000
	prSetNoNewPrivs    = 38
	prSetDumpable      = 4
	prCapAmbient       = 47
	prCapAmbientClear  = 4
	prCapbsetDrop      = 24
	capVersion3        = 0x20080522
	landlockVersion    = 1 << 0
	landlockMakeChar   = 1 << 6
	landlockMakeBlock  = 1 << 11
	landlockScopeUnix  = 1 << 0
	landlockScopeSig   = 1 << 1
	siocgifflags       = 0x8913
	siocsifflags       = 0x8914
	iffUp              = 0x1
	maxConfig          = 64 << 20
	statusErrorPrefix  = "error "
	statusReportPrefix = "ok "
	statusEndPrefix    = "end "
)

type openHow struct{ flags, mode, resolve uint64 }

type mountAttr struct{ set, clr, propagation, userns uint64 }

type landlockRuleset struct{ handledFS, handledNet, scoped uint64 }

// setupMain is the setup process: it never returns.
func setupMain() {
	syscall.CloseOnExec(StatusFd)
	fail := func(msg string) {
		say(statusErrorPrefix + msg)
		syscall.Exit(FailExit)
	}
	data, err := readAll(ConfigFd)
	syscall.Close(ConfigFd)
	if err != "" {
		fail("read setup: " + err)
	}
	cfg, ok := decode(data)
	if !ok {
		fail("read setup: malformed")
	}
	hidden, protected, abi, msg := setup(&cfg)
	if msg != "" {
		fail(msg)
	}
	// The setup is the first process of the sandbox's PID namespace: when
	// it ends, the kernel kills every other process in it, however it
	// left the command's session, and its parent (the caller) learns of
	// its end only once they are all gone. It dies with the caller
	// (Pdeathsig, set by the caller's fork, survives its exec here), so
	// nothing of the run outlives the caller either, even a SIGKILLed
	// one. It ignores the signals the caller sends the command's group
	// (only SIGKILL ends it from outside) and stays until bash ends.
	ignoreSignals()
	pid, err2 := syscall.ForkExec(cfg.Shell, cfg.Argv, &syscall.ProcAttr{
		Env:   cfg.Env,
		Files: []uintptr{0, 1, 2},
		Sys:   &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL},
	})
	if err2 != nil {
		fail("start " + cfg.Shell + ": " + err2.Error())
	}
	say(statusReportPrefix + itoa(hidden) + " " + itoa(protected) + " " + itoa(abi))
	// The command's output must end when it does: the setup holds none.
	for fd := 0; fd < 3; fd++ {
		syscall.Close(fd)
	}
	ws := reap(pid)
	left := survivors()
	say(statusEndPrefix + utoa(uint64(ws)) + " " + itoa(left))
	switch {
	case ws.Exited():
		syscall.Exit(ws.ExitStatus())
	case ws.Signaled():
		syscall.Exit(128 + int(ws.Signal()))
	}
	syscall.Exit(FailExit)
}

// reap waits for the processes that end in the namespace (orphans are
// this process's children) until bash, pid, ends, and returns its status.
func reap(pid int) syscall.WaitStatus {
	for {
		var ws syscall.WaitStatus
		wpid, err := syscall.Wait4(-1, &ws, 0, nil)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			// No child left: bash is gone without a word (cannot
			// happen); report a failure.
			return syscall.WaitStatus(FailExit << 8)
		case wpid == pid:
			return ws
		}
	}
}

// survivors counts the processes of the namespace, other than this one,
// still running when bash has ended (the kernel kills them when this one
// exits). The /proc of the namespace lists only them.
func survivors() int {
	for { // reap the ended ones first
		var ws syscall.WaitStatus
		if wpid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil); err != nil || wpid <= 0 {
			break
		}
	}
	fd, err := syscall.Open("/proc", syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return 0
	}
	defer syscall.Close(fd)
	n := 0
	var buf [8 << 10]byte
	for {
		m, err := syscall.Getdents(fd, buf[:])
		if err != nil || m <= 0 {
			return n
		}
		_, _, names := syscall.ParseDirent(buf[:m], -1, nil)
		for _, name := range names {
			if v, ok := atoi(name); ok && v != 1 {
				n++
			}
		}
	}
}

// ignoreSignals sets the signals the caller may send the command's
// process group to be ignored by this process (the first of a PID
// namespace dies of no signal it does not handle, but the Go runtime
// handles them, and would end it). The runtime resets them for bash
// (it resets every signal it handles in a forked child).
func ignoreSignals() {
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGABRT,
		syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGPIPE, syscall.SIGALRM, syscall.SIGTERM,
		syscall.SIGSTKFLT, syscall.SIGTSTP, syscall.SIGTTIN, syscall.SIGTTOU, syscall.SIGXCPU,
		syscall.SIGXFSZ, syscall.SIGVTALRM, syscall.SIGWINCH, syscall.SIGIO, syscall.SIGPWR} {
		act := sigaction{handler: sigIgn}
		syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&act)), 0, 8, 0, 0)
	}
}

// sigaction is the kernel's struct sigaction (with sa_restorer, as on
// amd64 and arm64).
type sigaction struct {
	handler, flags, restorer, mask uintptr
}

const sigIgn = 1

func say(line string) {
	b := []byte(line + "\n")
	for len(b) > 0 {
		n, err := syscall.Write(StatusFd, b)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			return
		}
		b = b[n:]
	}
}

func readAll(fd int) ([]byte, string) {
	buf := make([]byte, 0, 4096)
	for {
		if len(buf) == cap(buf) {
			if len(buf) >= maxConfig {
				return nil, "too large"
			}
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, err.Error()
		case n == 0:
			return buf, ""
		}
		buf = buf[:len(buf)+n]
	}
}

// decode reads what Config.Encode wrote.
func decode(b []byte) (c Config, ok bool) {
	next := func() (string, bool) {
		for i, x := range b {
			if x == 0 {
				s := string(b[:i])
				b = b[i+1:]
				return s, true
			}
		}
		return "", false
	}
	list := func() ([]string, bool) {
		s, ok := next()
		n, ok2 := atoi(s)
		if !ok || !ok2 {
			return nil, false
		}
		l := make([]string, 0, n)
		for range n {
			s, ok := next()
			if !ok {
				return nil, false
			}
			l = append(l, s)
		}
		return l, true
	}
	var oks [16]bool
	var v, net, egress, ro string
	v, oks[0] = next()
	c.Shell, oks[1] = next()
	c.Argv, oks[2] = list()
	c.Env, oks[3] = list()
	c.Dir, oks[4] = next()
	c.Lock, oks[5] = list()
	c.Protect, oks[6] = list()
	c.Hide, oks[7] = list()
	net, oks[8] = next()
	egress, oks[9] = next()
	ro, oks[10] = next()
	c.Writable, oks[11] = list()
	c.Cow, oks[12] = list()
	c.Seal, oks[13] = list()
	c.Sockets, oks[14] = list()
	c.Bound, oks[15] = list()
	for _, o := range oks {
		if !o {
			return c, false
		}
	}
	c.Network, c.ReadOnly = net == "1", ro == "1"
	c.EgressPort, ok = atoi(egress)
	return c, ok && c.EgressPort < 1<<16 && v == "v4" && len(b) == 0
}

func errnoMsg(what, p string, err error) string {
	if p != "" {
		what += " " + p
	}
	return what + ": " + err.Error()
}

// setup builds the sandbox in the new namespaces: mounts, network,
// Landlock, and then gives up every capability. msg is why it failed.
func setup(cfg *Config) (hidden, protected, abi int, msg string) {
	// Nothing done here may reach the namespace the command came from.
	if err := syscall.Mount("", "/", "", syscall.MS_REC|syscall.MS_PRIVATE, ""); err != nil {
		return 0, 0, 0, errnoMsg("make mounts private", "", err)
	}
	// The namespace's own /proc: the command sees its own processes
	// only (no other process's command line or environment).
	if err := syscall.Mount("proc", "/proc", "proc", syscall.MS_NOSUID|syscall.MS_NODEV|syscall.MS_NOEXEC, ""); err != nil {
		return 0, 0, 0, errnoMsg("mount the PID namespace's /proc", "", err)
	}
	if cfg.ReadOnly {
		if msg := readOnly(cfg); msg != "" {
			return 0, 0, 0, msg
		}
	}
	for _, d := range cfg.Lock {
		if _, msg := remount(d, false, "lock directory"); msg != "" {
			return 0, 0, 0, msg
		}
	}
	for _, p := range cfg.Protect {
		ok, msg := remount(p, true, "protect")
		if msg != "" {
			return 0, 0, 0, msg
		}
		if ok {
			protected++
		}
	}
	if len(cfg.Hide) > 0 {
		n, msg := hide(cfg.Hide)
		if msg != "" {
			return 0, 0, 0, msg
		}
		hidden = n
	}
	if !cfg.Network {
		if err := loopbackUp(); err != nil {
			return 0, 0, 0, errnoMsg("network namespace: bring up lo", "", err)
		}
		if cfg.EgressPort != 0 {
			if msg := egressListen(cfg.EgressPort); msg != "" {
				return 0, 0, 0, msg
			}
		}
	}
	// The working directory was entered before the mounts: enter it
	// again, so that it is seen through them (and one inside a hidden
	// directory is not reachable at all).
	if err := syscall.Chdir(cfg.Dir); err != nil {
		return 0, 0, 0, errnoMsg("working directory", "", err)
	}
	if _, _, e := syscall.RawSyscall6(syscall.SYS_PRCTL, prSetNoNewPrivs, 1, 0, 0, 0, 0); e != 0 {
		return 0, 0, 0, errnoMsg("no_new_privs", "", e)
	}
	abi, msg = landlock()
	if msg != "" {
		return 0, 0, abi, msg
	}
	if msg := dropCapabilities(); msg != "" {
		return 0, 0, abi, msg
	}
	return hidden, protected, abi, ""
}

// openExact opens p as an O_PATH descriptor without following any
// symbolic link on the way (a link at the end is opened as itself). ok
// is false when p does not exist.
func openExact(p string) (fd int, ok bool, err error) {
	b, err := syscall.BytePtrFromString(p)
	if err != nil {
		return -1, false, err
	}
	how := openHow{flags: oPath | syscall.O_NOFOLLOW | syscall.O_CLOEXEC, resolve: resolveNoSymlinks | resolveNoMagic}
	r, _, e := syscall.Syscall6(sysOpenat2, atFdcwd, uintptr(unsafe.Pointer(b)), uintptr(unsafe.Pointer(&how)), unsafe.Sizeof(how), 0, 0)
	switch e {
	case 0:
		return int(r), true, nil
	case syscall.ENOENT:
		return -1, false, nil
	}
	return -1, false, e
}

// atFdcwd is AT_FDCWD (-100) as a uintptr.
const atFdcwd = ^uintptr(99)

func openTree(dfd int, p string, flags uintptr) (int, error) {
	b, err := syscall.BytePtrFromString(p)
	if err != nil {
		return -1, err
	}
	r, _, e := syscall.Syscall(sysOpenTree, uintptr(dfd), uintptr(unsafe.Pointer(b)), flags)
	if e != 0 {
		return -1, e
	}
	return int(r), nil
}

var empty = [1]byte{}

func moveMount(from, to int) error {
	p := uintptr(unsafe.Pointer(&empty[0]))
	if _, _, e := syscall.Syscall6(sysMoveMount, uintptr(from), p, uintptr(to), p, moveMountFEmpty|moveMountTEmpty, 0); e != 0 {
		return e
	}
	return nil
}

func mountSetattr(fd int, flags uintptr, attr *mountAttr) error {
	p := uintptr(unsafe.Pointer(&empty[0]))
	if _, _, e := syscall.Syscall6(sysMountSetattr, uintptr(fd), p, atEmptyPath|flags, uintptr(unsafe.Pointer(attr)), unsafe.Sizeof(*attr), 0); e != 0 {
		return e
	}
	return nil
}

// remount mounts p on itself, with everything mounted below it, read-only
// when ro is set. ok is false when p does not exist.
func remount(p string, ro bool, what string) (ok bool, msg string) {
	fd, ok, err := openExact(p)
	if !ok || err != nil {
		if err != nil {
			return false, errnoMsg(what, p, err)
		}
		return false, ""
	}
	defer syscall.Close(fd)
	if !ro {
		var st syscall.Stat_t
		if err := syscall.Fstat(fd, &st); err != nil {
			return false, errnoMsg(what, p, err)
		}
		if st.Mode&syscall.S_IFMT == syscall.S_IFLNK {
			return false, what + " " + p + ": a symbolic link"
		}
	}
	// A protected symbolic link is mounted on itself: it can then be
	// neither removed nor replaced (what it points to is protected on
	// its own).
	tree, err := openTree(fd, "", openTreeClone|syscall.O_CLOEXEC|atRecursive|atEmptyPath)
	if err != nil {
		return false, errnoMsg(what+" (clone)", p, err)
	}
	defer syscall.Close(tree)
	if ro {
		attr := mountAttr{set: mountAttrRdonly | mountAttrNosuid | mountAttrNodev}
		if err := mountSetattr(tree, atRecursive, &attr); err != nil {
			return false, errnoMsg(what+" (read-only)", p, err)
		}
	}
	if err := moveMount(tree, fd); err != nil {
		return false, errnoMsg(what+" (mount)", p, err)
	}
	return true, ""
}

// hide covers each path with an empty read-only file or directory from a
// private tmpfs, and returns how many it covered. (A bind mount through
// /proc/self/fd of the first cover, instead of a clone of the tmpfs for
// each path, measured slower: 12 against 10 ms for 1,000 paths.)
func hide(paths []string) (int, string) {
	mnt, msg := emptyTmpfs()
	if msg != "" {
		return 0, msg
	}
	defer syscall.Close(mnt)
	n := 0
	for _, p := range paths {
		fd, ok, err := openExact(p)
		if err != nil {
			return n, errnoMsg("hide", p, err)
		}
		if !ok {
			continue
		}
		var st syscall.Stat_t
		if err := syscall.Fstat(fd, &st); err != nil {
			syscall.Close(fd)
			return n, errnoMsg("hide", p, err)
		}
		src := "f"
		switch st.Mode & syscall.S_IFMT {
		case syscall.S_IFDIR:
			src = "d"
		case syscall.S_IFLNK:
			syscall.Close(fd)
			return n, "hide " + p + ": a symbolic link"
		}
		tree, err := openTree(mnt, src, openTreeClone|syscall.O_CLOEXEC)
		if err == nil {
			err = moveMount(tree, fd)
			syscall.Close(tree)
		}
		syscall.Close(fd)
		if err != nil {
			return n, errnoMsg("hide", p, err)
		}
		n++
	}
	return n, ""
}

// emptyTmpfs makes a read-only tmpfs, not attached anywhere, holding an
// empty directory d and an empty file f.
func emptyTmpfs() (int, string) {
	fs, err := syscall.BytePtrFromString("tmpfs")
	if err != nil {
		return -1, err.Error()
	}
	r, _, e := syscall.Syscall(sysFsopen, uintptr(unsafe.Pointer(fs)), fsopenCloexec, 0)
	if e != 0 {
		return -1, errnoMsg("hide: tmpfs", "", e)
	}
	fsfd := int(r)
	defer syscall.Close(fsfd)
	key, _ := syscall.BytePtrFromString("size")
	val, _ := syscall.BytePtrFromString("4k")
	if _, _, e := syscall.Syscall6(sysFsconfig, uintptr(fsfd), fsconfigSetString, uintptr(unsafe.Pointer(key)), uintptr(unsafe.Pointer(val)), 0, 0); e != 0 {
		return -1, errnoMsg("hide: tmpfs", "", e)
	}
	if _, _, e := syscall.Syscall6(sysFsconfig, uintptr(fsfd), fsconfigCmdCreate, 0, 0, 0, 0); e != 0 {
		return -1, errnoMsg("hide: tmpfs", "", e)
	}
	r, _, e = syscall.Syscall(sysFsmount, uintptr(fsfd), fsmountCloexec, mountAttrNosuid|mountAttrNodev|mountAttrNoexec)
	if e != 0 {
		return -1, errnoMsg("hide: tmpfs", "", e)
	}
	mnt := int(r)
	if err := syscall.Mkdirat(mnt, "d", 0o555); err != nil {
		syscall.Close(mnt)
		return -1, errnoMsg("hide: empty directory", "", err)
	}
	f, err := syscall.Openat(mnt, "f", syscall.O_CREAT|syscall.O_EXCL|syscall.O_WRONLY|syscall.O_CLOEXEC, 0o444)
	if err != nil {
		syscall.Close(mnt)
		return -1, errnoMsg("hide: empty file", "", err)
	}
	syscall.Close(f)
	if err := mountSetattr(mnt, 0, &mountAttr{set: mountAttrRdonly}); err != nil {
		syscall.Close(mnt)
		return -1, errnoMsg("hide: read-only tmpfs", "", err)
	}
	return mnt, ""
}

// loopbackUp brings up the loopback interface of the new network
// namespace, so that the command can still talk to itself on 127.0.0.1.
func loopbackUp() error {
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_DGRAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	var ifr struct {
		name  [16]byte
		flags uint16
		_     [22]byte
	}
	copy(ifr.name[:], "lo")
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), siocgifflags, uintptr(unsafe.Pointer(&ifr))); e != 0 {
		return e
	}
	ifr.flags |= iffUp
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), siocsifflags, uintptr(unsafe.Pointer(&ifr))); e != 0 {
		return e
	}
	return nil
}

// landlock puts the setup (and so the command) in a Landlock domain and
// returns the kernel's ABI version. The domain restricts no file access
// that the mounts grant; it is there for what namespaces cannot express:
// a process in it cannot inspect processes outside it (ptrace, and
// /proc/PID/root, cwd, fd, mem, environ of the caller and of every other
// process of the person), cannot mount or unmount anything (so the hiding
// mounts stay), and from ABI 6 cannot signal processes outside it or
// connect to their abstract Unix sockets.
func landlock() (int, string) {
	v, _, e := syscall.RawSyscall(sysLandlockCreate, 0, 0, landlockVersion)
	if e != 0 {
		return 0, "landlock unavailable (" + e.Error() + "): without it, processes outside the sandbox could be inspected through /proc"
	}
	abi := int(v)
	// Handling device-node creation (which a user namespace refuses
	// anyway) makes the domain restrict file systems, which is what
	// denies mount and umount.
	attr := landlockRuleset{handledFS: landlockMakeChar | landlockMakeBlock}
	if abi >= 6 {
		attr.scoped = landlockScopeSig | landlockScopeUnix
	}
	fd, _, e := syscall.RawSyscall(sysLandlockCreate, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if e != 0 {
		return abi, errnoMsg("landlock ruleset", "", e)
	}
	defer syscall.Close(int(fd))
	if _, _, e := syscall.RawSyscall(sysLandlockRestrict, fd, 0, 0); e != 0 {
		return abi, errnoMsg("landlock restrict", "", e)
	}
	return abi, ""
}

// dropCapabilities gives up every capability in the user namespace, for
// good: the command (even as uid 0 there) cannot unmount what hides a file.
func dropCapabilities() string {
	if _, _, e := syscall.RawSyscall6(syscall.SYS_PRCTL, prCapAmbient, prCapAmbientClear, 0, 0, 0, 0); e != 0 {
		return errnoMsg("drop ambient capabilities", "", e)
	}
	// Every capability the kernel knows, up to the first it does not
	// (EINVAL); at least the 38 of Linux 5.9.
	for c := 0; c < 64; c++ {
		if _, _, e := syscall.RawSyscall6(syscall.SYS_PRCTL, prCapbsetDrop, uintptr(c), 0, 0, 0, 0); e != 0 {
			if e == syscall.EINVAL && c >= 38 {
				break
			}
			return errnoMsg("drop capability "+itoa(c), "", e)
		}
	}
	hdr := struct {
		version uint32
		pid     int32
	}{version: capVersion3}
	var data [2]struct{ effective, permitted, inheritable uint32 }
	if _, _, e := syscall.RawSyscall(syscall.SYS_CAPSET, uintptr(unsafe.Pointer(&hdr)), uintptr(unsafe.Pointer(&data[0])), 0); e != 0 {
		return errnoMsg("drop capabilities", "", e)
	}
	return ""
}

// readOnly makes every mount read-only, then puts back writable (as they
// were: clones taken before), a copy-on-write layer on each of cow (an
// overlay whose lower layer is the real directory and whose upper layer
// is in a private tmpfs: what the command writes there is gone with the
// run) and a read-only overlay on each of seal. Paths that do not exist
// are skipped; a cow path that cannot be overlaid (a file system
// overlayfs refuses) gets an empty private tmpfs instead. All are
// applied shallowest first, so that a writable project under /tmp is
// mounted on the /tmp layer. Then the Unix sockets are dealt with (see
// sockets).
//
// An overlay is what keeps Unix sockets out of reach: connect(2) finds
// the listening socket by the inode its path resolves to, and an
// overlay's inodes are its own, never the real socket's (a read-only
// bind mount does not: the kernel's write-permission check that connect
// makes does not refuse sockets on a read-only mount). This holds for
// sockets bound in the real directory during the run too.
func readOnly(cfg *Config) string {
	const (
		kindWritable = iota
		kindCow
		kindSeal
	)
	type place struct {
		path string
		fd   int // the clone (writable) or the real directory (cow, seal)
		kind int
	}
	var places []place
	defer func() {
		for _, pl := range places {
			if pl.fd >= 0 {
				syscall.Close(pl.fd)
			}
		}
	}()
	for _, p := range cfg.Writable {
		fd, ok, err := openExact(p)
		if err != nil {
			return errnoMsg("writable", p, err)
		}
		if !ok {
			continue
		}
		tree, err := openTree(fd, "", openTreeClone|syscall.O_CLOEXEC|atRecursive|atEmptyPath)
		syscall.Close(fd)
		if err != nil {
			return errnoMsg("writable (clone)", p, err)
		}
		places = append(places, place{p, tree, kindWritable})
	}
	for _, p := range cfg.Cow {
		fd, ok, err := openExact(p)
		if err != nil {
			return errnoMsg("copy-on-write", p, err)
		}
		if !ok {
			continue
		}
		var st syscall.Stat_t
		if err := syscall.Fstat(fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
			syscall.Close(fd)
			continue
		}
		places = append(places, place{p, fd, kindCow})
	}
	// A sealed directory at or below a writable or copy-on-write place
	// is left as that place is (sockets there are the command's own, or
	// already behind an overlay).
	nSeal := 0
	for _, p := range cfg.Seal {
		below := false
		for _, o := range places[:len(places)-nSeal] {
			if p == o.path || under(p, o.path) {
				below = true
			}
		}
		if below {
			continue
		}
		fd, ok, err := openExact(p)
		if err != nil {
			return errnoMsg("seal", p, err)
		}
		if !ok {
			continue
		}
		var st syscall.Stat_t
		if err := syscall.Fstat(fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFDIR {
			syscall.Close(fd)
			continue
		}
		places = append(places, place{p, fd, kindSeal})
		nSeal++
	}
	// The sockets the command may reach, opened before any mount hides
	// them.
	var allowed []int
	defer func() {
		for _, fd := range allowed {
			syscall.Close(fd)
		}
	}()
	var allowedPaths []string
	for _, p := range cfg.Sockets {
		fd, ok, err := openExact(p)
		if err != nil || !ok {
			continue // not there: nothing to reach
		}
		var st syscall.Stat_t
		if err := syscall.Fstat(fd, &st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFSOCK {
			syscall.Close(fd)
			continue
		}
		allowed = append(allowed, fd)
		allowedPaths = append(allowedPaths, p)
	}
	// Shallowest first (a stable insertion sort: few places).
	for i := 1; i < len(places); i++ {
		for j := i; j > 0 && depth(places[j].path) < depth(places[j-1].path); j-- {
			places[j], places[j-1] = places[j-1], places[j]
		}
	}
	root, _, err := openExact("/")
	if err != nil {
		return errnoMsg("read-only", "/", err)
	}
	err = mountSetattr(root, atRecursive, &mountAttr{set: mountAttrRdonly})
	syscall.Close(root)
	if err != nil {
		return errnoMsg("read-only", "/", err)
	}
	var scratch int = -1
	defer func() {
		if scratch >= 0 {
			syscall.Close(scratch)
		}
	}()
	procFd := "/proc/self/fd/"
	var sealed []string
	// A subdirectory of a sealed one that is (or is below) a writable
	// or copy-on-write place is left to that place.
	skip := func(p string) bool {
		for _, pl := range places {
			if pl.kind != kindSeal && (p == pl.path || under(p, pl.path)) {
				return true
			}
		}
		return false
	}
	for i, pl := range places {
		target, ok, err := openExact(pl.path)
		if err != nil || !ok {
			if err == nil {
				err = syscall.ENOENT
			}
			return errnoMsg("writable", pl.path, err)
		}
		if pl.kind == kindWritable {
			err = moveMount(pl.fd, target)
			syscall.Close(target)
			if err != nil {
				return errnoMsg("writable (mount)", pl.path, err)
			}
			continue
		}
		if scratch < 0 {
			var msg string
			if scratch, msg = newTmpfs("0700"); msg != "" {
				syscall.Close(target)
				return msg
			}
			if err := syscall.Mkdirat(scratch, "e", 0o555); err != nil {
				syscall.Close(target)
				return errnoMsg("overlay: empty layer", "", err)
			}
		}
		// The lower layer is named by the descriptor of the real
		// directory: not through an overlay mounted above it (overlays
		// stack two deep at most), and whatever its name holds.
		lower := procFd + itoa(pl.fd)
		if pl.kind == kindSeal {
			syscall.Close(target)
			sealed = seal(pl.path, pl.fd, scratch, sealDepth, sealed, skip)
			continue
		}
		u, w := "u"+itoa(i), "w"+itoa(i)
		if err := syscall.Mkdirat(scratch, u, 0o755); err != nil {
			syscall.Close(target)
			return errnoMsg("copy-on-write", pl.path, err)
		}
		syscall.Mkdirat(scratch, w, 0o755)
		var st syscall.Stat_t
		syscall.Fstat(pl.fd, &st)
		syscall.Fchmodat(scratch, u, st.Mode&0o7777, 0)
		opts := "lowerdir=" + lower + ",upperdir=" + procFd + itoa(scratch) + "/" + u +
			",workdir=" + procFd + itoa(scratch) + "/" + w + ",userxattr"
		err = syscall.Mount("overlay", pl.path, "overlay", syscall.MS_NOSUID|syscall.MS_NODEV, opts)
		if err != nil {
			// An empty layer of its own instead: nothing written
			// there outlives the run either.
			tmp, msg := newTmpfs("1777")
			if msg != "" {
				syscall.Close(target)
				return msg
			}
			// The places below it still need their mount points.
			for _, below := range places[i+1:] {
				rest := below.path[len(pl.path):]
				if len(rest) < 2 || rest[0] != '/' || below.path[:len(pl.path)] != pl.path {
					continue
				}
				for j := 1; j <= len(rest); j++ {
					if j == len(rest) || rest[j] == '/' {
						syscall.Mkdirat(tmp, rest[1:j], 0o755)
					}
				}
			}
			err = moveMount(tmp, target)
			syscall.Close(tmp)
		}
		syscall.Close(target)
		if err != nil {
			return errnoMsg("copy-on-write", pl.path, err)
		}
	}
	// Where a socket's path ends decides: the deepest place holding
	// it, writable (the command's own) or an overlay (out of reach), or
	// none (reachable: covered).
	// Only the directories an overlay was put on are out of reach.
	kept := places[:0]
	for _, pl := range places {
		if pl.kind != kindSeal {
			kept = append(kept, pl)
		} else {
			syscall.Close(pl.fd)
		}
	}
	places = kept
	for _, p := range sealed {
		places = append(places, place{p, -1, kindSeal})
	}
	reach := func(real string) bool {
		best, kind := "", -1
		for _, pl := range places {
			if (real == pl.path || under(real, pl.path)) && len(pl.path) > len(best) {
				best, kind = pl.path, pl.kind
			}
		}
		return kind == -1
	}
	return sockets(cfg.Bound, reach, allowed, allowedPaths)
}

// sealDepth is how far below a sealed directory seal goes to find
// directories it can overlay.
const sealDepth = 3

// seal puts a read-only overlay on the directory p (fd: the real one,
// before any mount of the sandbox) whose lower layers are it and the
// empty directory "e" of scratch, and returns sealed with the
// directories it put one on. The kernel refuses an overlay of a
// directory with mounts below it that were made outside the namespace
// (it would show what they cover: EINVAL; /run holding /run/user/UID):
// then each of its subdirectories is sealed instead, down to depth
// levels, except those skip names. A socket directly in a directory
// left without an overlay, bound during the run, stays reachable (those
// bound at the start are covered, see sockets). Other failures leave p
// as it is, with the same effect.
func seal(p string, fd, scratch, depth int, sealed []string, skip func(string) bool) []string {
	err := syscall.Mount("overlay", p, "overlay", syscall.MS_RDONLY|syscall.MS_NOSUID|syscall.MS_NODEV,
		"lowerdir="+fdp(fd)+":"+fdp(scratch)+"/e")
	if err == nil {
		return append(sealed, p)
	}
	if err != syscall.EINVAL || depth == 0 {
		return sealed
	}
	dir, err := syscall.Openat(fd, ".", syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return sealed
	}
	var names []string
	var buf [8 << 10]byte
	for len(names) < 4096 {
		n, err := syscall.Getdents(dir, buf[:])
		if err != nil || n <= 0 {
			break
		}
		_, _, names = syscall.ParseDirent(buf[:n], -1, names)
	}
	syscall.Close(dir)
	for _, name := range names {
		child := p + "/" + name
		if p == "/" {
			child = "/" + name
		}
		if skip(child) {
			continue
		}
		b, err := syscall.BytePtrFromString(name)
		if err != nil {
			continue
		}
		how := openHow{flags: oPath | syscall.O_NOFOLLOW | syscall.O_CLOEXEC, resolve: resolveNoSymlinks | resolveNoMagic}
		r, _, e := syscall.Syscall6(sysOpenat2, uintptr(fd), uintptr(unsafe.Pointer(b)), uintptr(unsafe.Pointer(&how)), unsafe.Sizeof(how), 0, 0)
		if e != 0 {
			continue
		}
		cfd := int(r)
		var st syscall.Stat_t
		if syscall.Fstat(cfd, &st) == nil && st.Mode&syscall.S_IFMT == syscall.S_IFDIR {
			sealed = seal(child, cfd, scratch, depth-1, sealed, skip)
		}
		syscall.Close(cfd)
	}
	return sealed
}

// sockets mounts each allowed socket (a descriptor of the real one) back
// on its path, in case an overlay hid it, then covers with an empty file
// every socket of bound (paths from the caller's /proc/net/unix) that
// is not allowed and that the command could reach where it is: outside
// the writable places and not behind an overlay (reach says, from the
// path the socket's is resolved to). The paths are followed as
// connect(2) follows them.
func sockets(bound []string, reach func(string) bool, allowed []int, allowedPaths []string) string {
	type id struct{ dev, ino uint64 }
	ok := map[id]bool{}
	for i, fd := range allowed {
		var st syscall.Stat_t
		if err := syscall.Fstat(fd, &st); err != nil {
			return errnoMsg("socket", allowedPaths[i], err)
		}
		ok[id{st.Dev, st.Ino}] = true
		target, found, err := openExact(allowedPaths[i])
		if err != nil || !found {
			continue // hidden, or below a hidden directory
		}
		var tst syscall.Stat_t
		syscall.Fstat(target, &tst)
		if tst.Dev == st.Dev && tst.Ino == st.Ino {
			syscall.Close(target)
			continue // in view as it is
		}
		tree, err := openTree(fd, "", openTreeClone|syscall.O_CLOEXEC|atEmptyPath)
		if err == nil {
			err = moveMount(tree, target)
			syscall.Close(tree)
		}
		syscall.Close(target)
		if err != nil {
			return errnoMsg("socket (mount)", allowedPaths[i], err)
		}
	}
	cover := -1
	defer func() {
		if cover >= 0 {
			syscall.Close(cover)
		}
	}()
	var buf [4096]byte
	for _, p := range bound {
		fd, err := syscall.Open(p, oPath|syscall.O_CLOEXEC, 0)
		if err != nil {
			continue // gone, or out of reach already
		}
		var st syscall.Stat_t
		if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFSOCK || ok[id{st.Dev, st.Ino}] {
			syscall.Close(fd)
			continue
		}
		n, err := syscall.Readlink(fdp(fd), buf[:])
		if err != nil || n >= len(buf) {
			syscall.Close(fd)
			return errnoMsg("socket", p, err)
		}
		real := string(buf[:n])
		if !reach(real) {
			syscall.Close(fd)
			continue
		}
		if cover < 0 {
			var msg string
			if cover, msg = emptyTmpfs(); msg != "" {
				syscall.Close(fd)
				return msg
			}
		}
		tree, err := openTree(cover, "f", openTreeClone|syscall.O_CLOEXEC)
		if err == nil {
			err = moveMount(tree, fd)
			syscall.Close(tree)
		}
		syscall.Close(fd)
		if err != nil {
			return errnoMsg("cover socket", real, err)
		}
	}
	return ""
}

func fdp(fd int) string { return "/proc/self/fd/" + itoa(fd) }

// under reports whether p is below dir.
func under(p, dir string) bool {
	return len(p) > len(dir) && p[:len(dir)] == dir && (p[len(dir)] == '/' || dir == "/")
}

func depth(p string) int {
	n := 0
	for i := 0; i < len(p); i++ {
		if p[i] == '/' {
			n++
		}
	}
	return n
}

// newTmpfs makes a writable tmpfs with the given root mode, not attached
// anywhere.
func newTmpfs(mode string) (int, string) {
	fs, _ := syscall.BytePtrFromString("tmpfs")
	r, _, e := syscall.Syscall(sysFsopen, uintptr(unsafe.Pointer(fs)), fsopenCloexec, 0)
	if e != 0 {
		return -1, errnoMsg("tmpfs", "", e)
	}
	fsfd := int(r)
	defer syscall.Close(fsfd)
	key, _ := syscall.BytePtrFromString("mode")
	val, _ := syscall.BytePtrFromString(mode)
	if _, _, e := syscall.Syscall6(sysFsconfig, uintptr(fsfd), fsconfigSetString, uintptr(unsafe.Pointer(key)), uintptr(unsafe.Pointer(val)), 0, 0); e != 0 {
		return -1, errnoMsg("tmpfs", "", e)
	}
	if _, _, e := syscall.Syscall6(sysFsconfig, uintptr(fsfd), fsconfigCmdCreate, 0, 0, 0, 0); e != 0 {
		return -1, errnoMsg("tmpfs", "", e)
	}
	r, _, e = syscall.Syscall(sysFsmount, uintptr(fsfd), fsmountCloexec, mountAttrNosuid|mountAttrNodev)
	if e != 0 {
		return -1, errnoMsg("tmpfs", "", e)
	}
	return int(r), ""
}
