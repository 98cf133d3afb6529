//go:build !darwin

package exec

import "golang.org/x/sys/unix"

// osVersion is the kernel's name and release ("Linux 6.1.0-18-amd64").
func osVersion() string {
	var u unix.Utsname
	if err := unix.Uname(&u); err != nil {
		return "unknown"
	}
	return unix.ByteSliceToString(u.Sysname[:]) + " " + unix.ByteSliceToString(u.Release[:])
}
