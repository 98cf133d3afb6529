//go:build !linux

package exec

import "syscall"

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

func acquireCgroup() *cgroup               { return nil }
func (*cgroup) apply(*syscall.SysProcAttr) {}
func (*cgroup) signal(int, syscall.Signal) {}
func (*cgroup) kill()                      {}
func (*cgroup) release()                   {}
func cgroupPrefix() string                 { return "" }
func reaperAvailable(name string) bool     { return name == ReaperSweep }
