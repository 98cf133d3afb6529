package exec

import "syscall"

// A Sandbox is the view of the system a command is started in: files it
// cannot read, files it cannot write, and whether it has a network. The
// kernel enforces it for every process the command starts, whatever the
// program and however it names a path; see the package documentation
// (# Sandbox) for what each layer guarantees and what escapes it.
//
// Paths are absolute and must name files as they are, without symbolic
// links on the way (see [path/filepath.EvalSymlinks]): the setup refuses
// to follow a link, so that nothing can redirect a mount while it is made.
// A protected path may itself be a symbolic link: the link is then made
// a mount, which cannot be removed or replaced (protect its target too).
// A path that does not exist when the command starts is skipped: the
// kernel offers no way to keep a name from being created in a directory
// that must stay writable. List such paths in Absent.
//
// The zero Sandbox hides nothing, protects nothing, and runs the command
// without a network; setting it up is required (see Optional). A Sandbox
// is only read by [Start].
type Sandbox struct {
	// Hide lists the files and directories no process of the command may
	// read: each is covered by an empty read-only file or directory.
	// Everything below a hidden directory is hidden with it.
	Hide []string
	// HideFiles are the ignore files whose patterns say what is hidden
	// (the project's, read when the command starts), and the policy's
	// own patterns as a file of the project's root. On macOS each
	// pattern becomes a Seatbelt rule, checked at every access: a file
	// created during the run that a pattern names is hidden too. A
	// negation ("!keep.pem") cannot be honoured there: what it would give
	// back stays hidden, and [SandboxReport.HideNegations] lists it. The
	// Linux sandbox does not read HideFiles: it hides the paths in Hide,
	// found when the command starts.
	HideFiles []HideFile
	// Protect lists the files and directories no process of the command
	// may write, rename or remove: each is made a read-only mount, and
	// every directory above it is made a mount of its own, so that it
	// cannot be renamed away and replaced.
	Protect []string
	// Absent lists paths that do not exist when the command starts and
	// must not be created by it (a new .git/commondir, ~/.bash_profile,
	// a policy file). The kernel cannot refuse their creation without
	// making their directories read-only; the directories that exist are
	// locked as a protected path's are (they cannot be renamed away), and
	// After is where those created are dealt with.
	Absent []string
	// After, if not nil, is called once the command has ended and no
	// process of the sandbox is left (those that left the command's
	// session are killed first), before the result is final. What it
	// returns is reported in [SandboxReport.Quarantined].
	After func() []Quarantined
	// ReadOnly makes the whole file system read-only for the command but
	// Writable (as they are: a project, a place a policy names) and Cow.
	// /tmp, /var/tmp and /dev/shm are always in Cow: a private /tmp for
	// the run. Protect, Hide and Absent apply inside them as elsewhere.
	ReadOnly bool
	// Writable lists the places the command may write for real, with
	// ReadOnly.
	Writable []string
	// Cow lists directories that get a copy-on-write layer for the run,
	// with ReadOnly: the command reads what is there and writes, but its
	// writes are kept in memory and gone when it ends (tool caches: a
	// planted build-cache entry never reaches a later build outside).
	Cow []string
	// Sockets lists the Unix sockets (as paths without symbolic links,
	// like the others) the command may connect to although they are
	// outside Writable, with ReadOnly: an ssh agent's, say. Every other
	// Unix socket with a path outside Writable is out of reach: those of
	// the home directories in Seal, of /run and of the runtime directory
	// ($XDG_RUNTIME_DIR, /run/user/UID), and of /tmp and the other Cow
	// places, including any bound there during the run, because each of
	// these gets an overlay (connect(2) reaches a socket by its inode,
	// and an overlay's inodes are its own); every other socket bound
	// when the command starts (the caller's /proc/net/unix) is covered
	// with an empty file. A socket bound during the run elsewhere
	// outside Writable is not covered, nor one bound during the run
	// directly in a sealed directory with mounts below it made outside
	// the sandbox (the kernel refuses an overlay there: each of its
	// subdirectories gets one instead). Abstract sockets are out of reach
	// either way: in the network namespace of its own (Network false),
	// or through Landlock (ABI 6 and later).
	Sockets []string
	// Seal lists directories (home directories) whose Unix sockets are
	// out of reach, with ReadOnly, as Sockets says: each gets a
	// read-only overlay, through which what is there reads as it is. A
	// directory at or below a Writable or Cow place is left as it is.
	Seal []string
	// Network lets the command reach the network. When false, the command
	// runs in a network namespace of its own that has only a loopback
	// interface: it cannot connect to anything outside, not even to a
	// port listening on the host's 127.0.0.1.
	Network bool
	// Proxy, when not nil and Network is false, is the command's way out:
	// it serves a listener on 127.0.0.1:[ProxyPort] inside the network
	// namespace, and the command's environment points HTTP_PROXY,
	// HTTPS_PROXY, ALL_PROXY (both cases), npm's, pip's, cargo's and git's
	// proxy settings at it. It is started before the command; one that
	// cannot start is a sandbox that cannot be set up.
	Proxy Proxy
	// Optional runs the command without the sandbox, and says so in
	// [SandboxReport.Error], when it cannot be set up. When false, [Start]
	// fails with the reason and the command does not run.
	Optional bool
	// Err, if not nil, is why whoever built the Sandbox could not finish
	// it (for example, a hidden file with a hard link it could not find):
	// it is handled as a failure to set the sandbox up.
	Err error
}

// A HideFile is one ignore file (gitignore syntax) of [Sandbox.HideFiles].
type HideFile struct {
	// Dir is the absolute directory its patterns are relative to.
	Dir string
	// Name is what the report cites ("sub/.cursorignore", with ":line").
	Name string
	// Set is the ignore system the file belongs to (its file name, as
	// ".cursorignore"): the files of one set form one git-style stack,
	// in which a deeper file or a later line overrides; a negation never
	// gives back what another set hides.
	Set string
	// Content is the file's content.
	Content []byte
	// Sources, when not nil, is what the report cites for each line of
	// Content instead of Name:line (patterns that come from a policy).
	Sources []string
}

// A SandboxReport says what sandbox a command ran in. It marshals to the
// "sandbox" object of `cmdguard run --format json`.
type SandboxReport struct {
	// Applied reports that the command ran inside the sandbox. It is false
	// only when the sandbox was Optional and could not be set up.
	Applied bool `json:"applied"`
	// Layers names the layers applied, in order: "user" and "mount"
	// (namespaces), "net" (a network namespace, when Network is false),
	// "landlock" (a Landlock domain, see LandlockABI).
	Layers []string `json:"layers"`
	// Hidden and Protected count the paths covered (existing paths only;
	// a hidden directory counts once, however much it holds).
	Hidden    int `json:"hidden"`
	Protected int `json:"protected"`
	// Network reports whether the command could reach the network.
	Network bool `json:"network"`
	// LandlockABI is the Landlock ABI version the kernel offered, 0 when
	// it has none.
	LandlockABI int `json:"landlock_abi"`
	// Error says why the sandbox was not applied.
	Error string `json:"error,omitempty"`
	// Quarantined lists what the command created that it must not have
	// (see [Sandbox.After]), found after it ended.
	Quarantined []Quarantined `json:"quarantined,omitempty"`
	// Survivors counts the processes of the sandbox that were still
	// running when bash ended (background jobs, daemons, whatever left
	// the session with setsid): the kernel killed them with the
	// sandbox's PID namespace.
	Survivors int `json:"survivors,omitempty"`
	// Connections lists what the sandbox's Proxy decided, in order.
	Connections []Connection `json:"connections,omitempty"`
	// HideNegations lists the negations of [Sandbox.HideFiles] the
	// sandbox could not honour (macOS): the paths they would give back
	// stay hidden. HideSkipped lists the patterns that match nothing
	// (as git reads them), with the reason.
	HideNegations []HidePattern `json:"hide_negations,omitempty"`
	HideSkipped   []HidePattern `json:"hide_skipped,omitempty"`
}

// A HidePattern is a pattern of [Sandbox.HideFiles] the report names.
type HidePattern struct {
	Source  string `json:"source"` // "sub/.cursorignore:3", or the policy's "file:line"
	Pattern string `json:"pattern"`
	Reason  string `json:"reason,omitempty"`
}

// A Quarantined path was created inside the sandbox where nothing may be
// created, and was moved aside after the run.
type Quarantined struct {
	Path    string `json:"path"`               // where it was created
	Reason  string `json:"reason"`             // what it would have changed
	MovedTo string `json:"moved_to,omitempty"` // where it is now
	// Error says why it could not be moved: it is still at Path.
	Error string `json:"error,omitempty"`
}

// A sandboxRun is a command's sandbox while it runs.
type sandboxRun struct {
	report *SandboxReport
	after  func() []Quarantined
	proxy  Proxy // started; stopped by finish
	// end reads the setup's last word (see sandboxinit.StatusFd), nil
	// when the sandbox was not applied.
	end       func() (syscall.WaitStatus, int, bool)
	ws        syscall.WaitStatus // bash's, when ended
	ended     bool               // the setup said how bash ended
	survivors int
	// pidNS: the run is a PID namespace whose first process dies with
	// this program (Pdeathsig), and the kernel then kills every other
	// process of it: the watchdog has nothing to add (Linux).
	pidNS bool
}

// rep returns the report, nil without a sandbox.
func (r *sandboxRun) rep() *SandboxReport {
	if r == nil {
		return nil
	}
	return r.report
}

// ownsRun reports whether the sandbox alone ends every process of the run
// when this program dies, however it dies (see pidNS).
func (r *sandboxRun) ownsRun() bool {
	return r != nil && r.pidNS
}

// startProcess starts path with argv and attr as syscall.StartProcess
// does, inside sb when sb is not nil. With an Optional sandbox that cannot
// be set up, the command starts without it and the report says why.
func startProcess(path string, argv []string, attr *syscall.ProcAttr, sb *Sandbox) (int, *sandboxRun, error) {
	if sb == nil {
		pid, _, err := syscall.StartProcess(path, argv, attr)
		return pid, nil, err
	}
	pid, run, err := startSandboxed(path, argv, attr, sb)
	if err == nil {
		run.after = sb.After
		return pid, run, nil
	}
	if !sb.Optional {
		return 0, nil, err
	}
	pid, _, serr := syscall.StartProcess(path, argv, attr)
	return pid, &sandboxRun{report: &SandboxReport{Network: true, Layers: []string{}, Error: err.Error()}, after: sb.After}, serr
}

// waitStatus returns bash's wait status once the process the executor
// started (the sandbox's first process, which waits for bash) has been
// reaped with ws: in the sandbox, that process is not bash. ws is kept
// when the setup was killed before bash ended (a SIGKILL from Kill or a
// timeout: then ws says SIGKILL, as bash's would).
func (r *sandboxRun) waitStatus(ws syscall.WaitStatus) syscall.WaitStatus {
	if r == nil || r.end == nil {
		return ws
	}
	if !r.ended {
		r.ws, r.survivors, r.ended = r.end()
		r.end = func() (syscall.WaitStatus, int, bool) { return 0, 0, false }
	}
	if r.ended {
		return r.ws
	}
	return ws
}

// finish runs After once the command has ended (in the sandbox, no
// process of it is left: the kernel ended the PID namespace with its
// first process), and returns the final report (a copy: results handed
// out earlier keep theirs).
func (r *sandboxRun) finish() *SandboxReport {
	if r == nil {
		return nil
	}
	r.waitStatus(0)
	rep := *r.report
	rep.Survivors = r.survivors
	if r.proxy != nil {
		rep.Connections = r.proxy.Stop()
	}
	if r.after != nil {
		rep.Quarantined = r.after()
	}
	return &rep
}
