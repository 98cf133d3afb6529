package exec

import "golang.org/x/sys/unix"

// osVersion is macOS's product version and build ("15.3.1 24D70").
func osVersion() string {
	v, err := unix.Sysctl("kern.osproductversion")
	if err != nil {
		v = "unknown"
	}
	if b, err := unix.Sysctl("kern.osversion"); err == nil {
		v += " " + b
	}
	return v
}
