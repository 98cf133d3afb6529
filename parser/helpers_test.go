package parser

import (
	"os"
	"os/exec"
	"testing"
)

// needProgram skips t when the program name is not on PATH, with a
// one-line reason, so that the README's test command passes on a machine
// with only Go and git; under CI (CI set: .ci/run exports CI=true and
// installs every such program), a missing one fails t instead.
func needProgram(t testing.TB, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("needs %s, and CI is set: CI must install it (%v)", name, err)
		}
		t.Skipf("needs %s: not on PATH (CI installs it)", name)
	}
}
