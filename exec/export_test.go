package exec

import "os"

// ReaperAvailable reports whether mechanism name can be used here.
func ReaperAvailable(name string) bool { return reaperAvailable(name) }

// ExpectedReaper is the Result.Reaper commands of this process get.
func ExpectedReaper() string {
	if os.Getenv(reaperEnv) != ReaperSweep && reaperAvailable(ReaperCgroup) {
		return ReaperCgroup
	}
	return ReaperSweep
}

// PooledFDs counts the descriptors held by the cgroups kept for reuse and
// those being emptied.
func PooledFDs() int { return pooledFDs() }

// WatchdogStarted reports whether this program has started its watchdog.
func WatchdogStarted() bool {
	dog.mu.Lock()
	defer dog.mu.Unlock()
	return dog.pid != 0
}
