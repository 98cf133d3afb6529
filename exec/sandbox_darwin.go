package exec

import (
	"errors"
	"syscall"
)

// errNoSandbox is why a sandbox cannot be set up on macOS yet: the
// Seatbelt backend is not built. A command whose Sandbox is not Optional
// does not run; an Optional one runs without, and its report says why.
var errNoSandbox = errors.New("sandbox: not available on macOS yet (the Seatbelt backend is not built); the command runs only if the sandbox is optional")

func startSandboxed(string, []string, *syscall.ProcAttr, *Sandbox) (int, *sandboxRun, error) {
	return 0, nil, errNoSandbox
}
