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
// A path that does not exist when the command starts is skipped.
//
// The zero Sandbox hides nothing, protects nothing, and runs the command
// without a network; setting it up is required (see Optional). A Sandbox
// is only read by [Start].
type Sandbox struct {
	// Hide lists the files and directories no process of the command may
	// read: each is covered by an empty read-only file or directory.
	// Everything below a hidden directory is hidden with it.
	Hide []string
	// Protect lists the files and directories no process of the command
	// may write, rename or remove: each is made a read-only mount, and
	// every directory above it is made a mount of its own, so that it
	// cannot be renamed away and replaced.
	Protect []string
	// Network lets the command reach the network. When false, the command
	// runs in a network namespace of its own that has only a loopback
	// interface: it cannot connect to anything outside, not even to a
	// port listening on the host's 127.0.0.1.
	Network bool
	// Optional runs the command without the sandbox, and says so in
	// [SandboxReport.Error], when it cannot be set up. When false, [Start]
	// fails with the reason and the command does not run.
	Optional bool
	// Err, if not nil, is why whoever built the Sandbox could not finish
	// it (for example, a hidden file with a hard link it could not find):
	// it is handled as a failure to set the sandbox up.
	Err error
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
}

// startProcess starts path with argv and attr as syscall.StartProcess
// does, inside sb when sb is not nil. With an Optional sandbox that cannot
// be set up, the command starts without it and the report says why.
func startProcess(path string, argv []string, attr *syscall.ProcAttr, sb *Sandbox) (int, *SandboxReport, error) {
	if sb == nil {
		pid, _, err := syscall.StartProcess(path, argv, attr)
		return pid, nil, err
	}
	pid, rep, err := startSandboxed(path, argv, attr, sb)
	if err == nil {
		return pid, rep, nil
	}
	if !sb.Optional {
		return 0, nil, err
	}
	pid, _, serr := syscall.StartProcess(path, argv, attr)
	return pid, &SandboxReport{Network: true, Layers: []string{}, Error: err.Error()}, serr
}
