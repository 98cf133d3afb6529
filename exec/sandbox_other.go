//go:build !linux && !darwin

package exec

import (
	"errors"
	"runtime"
	"syscall"
)

var errNoSandbox = errors.New("sandbox: not available on " + runtime.GOOS)

func startSandboxed(string, []string, *syscall.ProcAttr, *Sandbox) (int, *sandboxRun, error) {
	return 0, nil, errNoSandbox
}
