//go:build !linux && !darwin

package exec

import (
	"errors"
	"os"
	"runtime"
	"syscall"
)

// errPlatform is why commands do not run here: this package ends a
// command's processes with the platform's own means (Pdeathsig and /proc
// on Linux, kqueue and the kernel's session table on macOS), and has none
// for this system. The package builds, so that a program that imports it
// still builds; Start refuses.
var errPlatform = errors.New("exec: running commands is not supported on " + runtime.GOOS + " (only on linux and darwin)")

func sysProcAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

func growPipe(*os.File) {}

func isTerminal(*os.File) bool { return false }

func waitExited(int) error { return errPlatform }

func signalSession(int, syscall.Signal) {}

const watchdogSessions = ``

// usePidfd returns nil: there are no pidfds here.
func usePidfd(*syscall.SysProcAttr, bool) *int { return nil }

func waitExitedFD(pid int, _ *int) error { return waitExited(pid) }
