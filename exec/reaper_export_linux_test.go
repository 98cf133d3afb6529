package exec

// ForceSweep makes the commands started from now on end by the sweep, as
// CMDGUARD_EXEC_REAPER=sweep does for a whole process, and returns what
// puts the cgroups back (for the benchmarks that compare both in one
// process).
func ForceSweep() (restore func()) {
	cgroups.once.Do(cgroupInit)
	cgroups.mu.Lock()
	defer cgroups.mu.Unlock()
	base, idle := cgroups.base, cgroups.idle
	cgroups.base, cgroups.idle = "", nil
	return func() {
		cgroups.mu.Lock()
		defer cgroups.mu.Unlock()
		cgroups.base, cgroups.idle = base, append(cgroups.idle, idle...)
	}
}
