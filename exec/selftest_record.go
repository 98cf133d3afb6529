package exec

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"time"
)

// On macOS the sandbox earns trust on each machine: until `cmdguard
// sandbox selftest` has passed there, for this version of macOS and of
// cmdguard, a Sandbox that is not Optional does not start (the command
// does not run, and the error says why); an Optional one is applied all
// the same. The pass is kept in the user's state directory
// (SelfTestRecordPath). On Linux no record is needed: whether the kernel
// sets the sandbox up is probed at each start, and every layer reports
// itself applied.
//
// The record is a marker, not a secret: the user (and a command run
// unsandboxed as the user) can write it. It keeps a machine where the
// sandbox was never seen to work from being trusted by accident, e.g.
// after a macOS update that changed Seatbelt.

// A host is what a selftest record is valid for.
type host struct {
	os        string // GOOS/GOARCH
	osVersion string
	version   string // cmdguard's
}

func currentHost() host {
	return host{os: runtime.GOOS + "/" + runtime.GOARCH, osVersion: osVersion(), version: buildVersion()}
}

// buildVersion is this program's module version and commit ("-dirty"
// with uncommitted changes), as the build recorded them.
func buildVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "-dirty"
			}
		}
	}
	if rev != "" {
		v += " " + rev + dirty
	}
	return v
}

// selfTestRecord is the file that keeps a pass.
type selfTestRecord struct {
	OS        string    `json:"os"`
	OSVersion string    `json:"os_version"`
	Version   string    `json:"cmdguard_version"`
	PassedAt  time.Time `json:"passed_at"`
}

// SelfTestRecordPath is where a passed selftest is kept:
// $XDG_STATE_HOME/cmdguard/sandbox-selftest.json, else
// ~/.local/state/cmdguard/sandbox-selftest.json (the directory of the
// decision log). It is "" when there is no home directory.
func SelfTestRecordPath() string {
	dir := os.Getenv("XDG_STATE_HOME")
	if !filepath.IsAbs(dir) {
		home, err := os.UserHomeDir()
		if err != nil || !filepath.IsAbs(home) {
			return ""
		}
		dir = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(dir, "cmdguard", "sandbox-selftest.json")
}

// RecordSelfTest keeps rep as this machine's proof when it passed, and
// removes an earlier proof when it did not (the sandbox stopped working
// here). It returns the file's path.
func RecordSelfTest(rep *SelfTestReport) (string, error) {
	path := SelfTestRecordPath()
	if path == "" {
		return "", errors.New("exec: no home directory for the selftest record")
	}
	return path, recordSelfTest(path, rep, currentHost(), time.Now())
}

func recordSelfTest(path string, rep *SelfTestReport, h host, now time.Time) error {
	if rep == nil || !rep.Passed || rep.Omitted != "" || rep.OS != h.os || rep.OSVersion != h.osVersion || rep.Version != h.version {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("exec: remove the selftest record: %w", err)
		}
		return nil
	}
	b, err := json.MarshalIndent(selfTestRecord{OS: h.os, OSVersion: h.osVersion, Version: h.version, PassedAt: now.UTC()}, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("exec: selftest record: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".sandbox-selftest-*")
	if err != nil {
		return fmt.Errorf("exec: selftest record: %w", err)
	}
	_, werr := tmp.Write(append(b, '\n'))
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("exec: selftest record: %w", werr)
	}
	return nil
}

// errNotVerified wraps every reason a required sandbox waits for the
// selftest.
var errNotVerified = errors.New("the sandbox has not passed `cmdguard sandbox selftest` on this machine")

// checkVerified returns nil when a required sandbox may start on goos:
// always on Linux (see above), on macOS only with a record at path of a
// selftest passed on h. Every failure to read the record is a refusal.
func checkVerified(goos string, h host, path string) error {
	if goos != "darwin" {
		return nil
	}
	if path == "" {
		return fmt.Errorf("%w (no home directory for its record)", errNotVerified)
	}
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: run it once (a required sandbox waits for it; %s keeps the pass)", errNotVerified, path)
	}
	if err != nil {
		return fmt.Errorf("%w: %v", errNotVerified, err)
	}
	var rec selfTestRecord
	if err := json.Unmarshal(b, &rec); err != nil {
		return fmt.Errorf("%w: %s: %v", errNotVerified, path, err)
	}
	if rec.OS != h.os || rec.OSVersion != h.osVersion || rec.Version != h.version {
		return fmt.Errorf("%w: it passed on %s %s with cmdguard %s, this is %s %s with cmdguard %s: run it again",
			errNotVerified, rec.OS, rec.OSVersion, rec.Version, h.os, h.osVersion, h.version)
	}
	return nil
}
