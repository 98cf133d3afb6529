// Package testneed is for tests only: it skips a test that needs a
// program the machine lacks, with a one-line reason, so that `go test
// ./...` passes with only Go and git; under CI (CI set, as .ci/run sets
// it, installing every such program) a missing one fails the test
// instead: CI runs them all.
package testneed

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Program skips t when the program name is not on PATH (fails it under
// CI). A command run with a nil Env gets bash's default PATH, which may
// find what PATH does not: the check is on PATH all the same, the
// stricter.
func Program(t testing.TB, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("needs %s, and CI is set: CI must install it (%v)", name, err)
		}
		t.Skipf("needs %s: not on PATH (CI installs it)", name)
	}
}

// SelftestClient skips t (fails it under CI) when none of the programs
// the selftest's unix-socket probe connects with (curl, nc, python3;
// exec/selftest.go) is on the probes' own PATH, the system's
// directories: without one its control cannot connect, and the selftest
// cannot pass.
func SelftestClient(t testing.TB) {
	t.Helper()
	const probesPath = "/usr/bin:/bin:/usr/sbin:/sbin" // exec.SelfTest's, for a nil Env
	for _, dir := range filepath.SplitList(probesPath) {
		for _, name := range []string{"curl", "nc", "python3"} {
			if fi, err := os.Stat(filepath.Join(dir, name)); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
				return
			}
		}
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("needs curl, nc or python3 in %s, and CI is set: CI must install one", probesPath)
	}
	t.Skipf("needs curl, nc or python3 in %s (the selftest's unix-socket client; CI installs them)", probesPath)
}
