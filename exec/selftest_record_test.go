package exec

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSelfTestRecord: on macOS (the GOOS given), a required sandbox waits
// for a selftest passed on this OS version with this cmdguard version;
// another version of either asks for it again, a failed run takes the
// pass back, and a run with a layer left out is never kept. Linux needs
// no record.
func TestSelfTestRecord(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state", "cmdguard", "sandbox-selftest.json")
	h := host{os: "darwin/arm64", osVersion: "15.3.1 24D70", version: "v1.2.0 abc"}
	passed := &SelfTestReport{OS: h.os, OSVersion: h.osVersion, Version: h.version, Passed: true}
	now := time.Date(2026, 11, 26, 9, 0, 0, 0, time.UTC)

	mustRefuseAt := func(t *testing.T, what string, h host, path, want string) {
		t.Helper()
		err := checkVerified("darwin", h, path)
		if !errors.Is(err, errNotVerified) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: checkVerified = %v, want a refusal saying %q", what, err, want)
		}
	}
	mustRefuse := func(t *testing.T, what string, h host, want string) {
		t.Helper()
		mustRefuseAt(t, what, h, path, want)
	}
	if err := checkVerified("linux", h, path); err != nil {
		t.Errorf("linux without a record: %v, want nil (the kernel is probed at each start)", err)
	}
	if err := checkVerified("linux", h, ""); err != nil {
		t.Errorf("linux without a home: %v, want nil", err)
	}
	mustRefuse(t, "no record", h, "run it once")
	mustRefuseAt(t, "no home", h, "", "no home directory")

	if err := recordSelfTest(path, passed, h, now); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("record %v %v, want a file of mode 0600", fi, err)
	}
	if err := checkVerified("darwin", h, path); err != nil {
		t.Errorf("after a pass: %v, want nil", err)
	}
	newer := h
	newer.version = "v1.3.0 def"
	mustRefuse(t, "another cmdguard", newer, "with cmdguard v1.2.0 abc, this is darwin/arm64 15.3.1 24D70 with cmdguard v1.3.0 def")
	update := h
	update.osVersion = "15.4 24E248"
	mustRefuse(t, "another macOS", update, "run it again")
	other := h
	other.os = "darwin/amd64"
	mustRefuse(t, "another architecture", other, "run it again")

	// A report of another host is not kept for this one.
	stale := *passed
	stale.Version = "v1.1.0"
	if err := recordSelfTest(path, &stale, h, now); err != nil {
		t.Fatal(err)
	}
	mustRefuse(t, "a report of another version", h, "run it once")

	for name, rep := range map[string]*SelfTestReport{
		"failed":        {OS: h.os, OSVersion: h.osVersion, Version: h.version},
		"layer omitted": {OS: h.os, OSVersion: h.osVersion, Version: h.version, Passed: true, Omitted: "hide"},
		"nil":           nil,
	} {
		if err := recordSelfTest(path, passed, h, now); err != nil {
			t.Fatal(err)
		}
		if err := recordSelfTest(path, rep, h, now); err != nil {
			t.Fatal(err)
		}
		mustRefuse(t, name+" after a pass", h, "run it once")
	}

	if err := os.WriteFile(path, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	mustRefuse(t, "a corrupt record", h, path)
}

func TestSelfTestRecordPath(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/x/state")
	if got, want := SelfTestRecordPath(), "/x/state/cmdguard/sandbox-selftest.json"; got != want {
		t.Errorf("SelfTestRecordPath() = %q, want %q", got, want)
	}
	t.Setenv("XDG_STATE_HOME", "relative")
	t.Setenv("HOME", "/home/u")
	if got, want := SelfTestRecordPath(), "/home/u/.local/state/cmdguard/sandbox-selftest.json"; got != want {
		t.Errorf("SelfTestRecordPath() = %q, want %q", got, want)
	}
}
