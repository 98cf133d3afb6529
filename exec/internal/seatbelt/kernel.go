package seatbelt

import (
	"path"
	"strings"
)

// Seatbelt compares a rule with the path the kernel resolved, not with
// what the program typed. On macOS /tmp, /var and /etc are symbolic links
// into /private, and since Catalina the system volume is read-only and
// joined to the data volume by firmlinks: /Users, /Applications,
// /Library, /private and others are also reachable as
// /System/Volumes/Data/… . Which of the two spellings the kernel reports
// is for a Mac to confirm; the deny rules here take both, the allow rules
// the short one.

// dataVolume is where firmlinked directories also appear.
const dataVolume = "/System/Volumes/Data"

// firmlinks are the top directories of /usr/share/firmlinks that a
// project, a temporary directory or a cache can be in.
var firmlinks = []string{"/Applications", "/Library", "/Users", "/Volumes", "/cores", "/opt", "/private", "/usr/local"}

// KernelPath returns the spelling of an absolute path that Seatbelt sees:
// cleaned, with /tmp, /var and /etc under /private, and without a
// /System/Volumes/Data prefix before a firmlinked directory. It does not
// resolve other symbolic links (the caller does, with
// [path/filepath.EvalSymlinks] on the Mac itself). A relative path is
// returned cleaned.
func KernelPath(p string) string {
	p = path.Clean(p)
	if !path.IsAbs(p) {
		return p
	}
	if len(p) > len(dataVolume) && strings.EqualFold(p[:len(dataVolume)], dataVolume) && p[len(dataVolume)] == '/' && firmlinked(p[len(dataVolume):]) {
		p = p[len(dataVolume):]
	}
	lp := strings.ToLower(p)
	for _, l := range []string{"/tmp", "/var", "/etc"} {
		if lp == l || strings.HasPrefix(lp, l+"/") {
			return "/private" + l + p[len(l):]
		}
	}
	return p
}

// firmlinked reports whether p (kernel spelling) is in a firmlinked top
// directory. Letter case is ignored, as on the default volume.
func firmlinked(p string) bool {
	lp := strings.ToLower(p)
	for _, f := range firmlinks {
		f = strings.ToLower(f)
		if lp == f || strings.HasPrefix(lp, f+"/") {
			return true
		}
	}
	return false
}
