//go:build !linux

package exec

import (
	"syscall"
	"time"
)

// The mechanisms that find a command's leftovers (see Result.Reaper).
// Outside Linux there are no cgroups: commands end by their session.
const (
	ReaperCgroup = "cgroup"
	ReaperSweep  = "sweep"
)

const reaperEnv = "CMDGUARD_EXEC_REAPER"

type cgroup struct{}

func pooledFDs() int { return 0 }

func disableCgroups() {}

func acquireCgroup() *cgroup                     { return nil }
func (*cgroup) apply(*syscall.SysProcAttr, bool) {}
func (*cgroup) signal(int, syscall.Signal)       {}
func (*cgroup) kill()                            {}
func (*cgroup) release()                         {}
func cgroupPrefix() string                       { return "" }
func reaperAvailable(name string) bool           { return name == ReaperSweep }

// sweepSession sends sig to the processes of session sid outside its
// process group.
func sweepSession(sid int, _ time.Time, sig syscall.Signal) { signalSession(sid, sig) }

// pipeFDs makes a pipe whose descriptors are closed on exec.
func pipeFDs(fds *[2]int) error {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	if err := syscall.Pipe(fds[:]); err != nil {
		return err
	}
	syscall.CloseOnExec(fds[0])
	syscall.CloseOnExec(fds[1])
	return nil
}
