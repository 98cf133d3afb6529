package exec_test

import (
	"os"
	osexec "os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard/exec"
)

// TestSelfTest runs the selftest on this machine: every promise of the
// Linux sandbox held, each after its control did the damage without the
// sandbox. It passes as root and as a normal user.
func TestSelfTest(t *testing.T) {
	needSelftestClient(t)
	t.Logf("as uid %d", os.Geteuid())
	rep, err := exec.SelfTest(testContext(t), exec.SelfTestOptions{})
	if err != nil {
		t.Fatal(err)
	}
	held := 0
	for _, r := range rep.Rows {
		t.Logf("%-16s %-8s %-12s %s", r.Name, r.Layer, r.Status, r.Detail)
		switch r.Status {
		case exec.RowHeld:
			held++
		default:
			t.Errorf("row %s: %s (%s)", r.Name, r.Status, r.Detail)
		}
	}
	if held != len(rep.Rows) || held < 6 || !rep.Passed {
		t.Errorf("held %d of %d rows, Passed=%v; want all (at least 6) held and a pass", held, len(rep.Rows), rep.Passed)
	}
}

// TestSelfTestOmittedLayerFails leaves each layer the test hook can take
// out of the probes' sandbox, and the selftest fails on the row of that
// layer (and only there), naming it; the report never passes.
func TestSelfTestOmittedLayerFails(t *testing.T) {
	needSelftestClient(t)
	for _, layer := range []string{"hide", "protect", "write", "net"} {
		t.Run(layer, func(t *testing.T) {
			t.Setenv("CMDGUARD_SELFTEST_OMIT", layer)
			rep, err := exec.SelfTest(testContext(t), exec.SelfTestOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Passed || rep.Omitted != layer {
				t.Errorf("Passed=%v Omitted=%q with %s left out", rep.Passed, rep.Omitted, layer)
			}
			for _, r := range rep.Rows {
				want := exec.RowHeld
				switch {
				case r.Layer == layer:
					want = exec.RowFailed
				}
				if r.Status != want {
					t.Errorf("row %s (%s) = %s %q, want %s", r.Name, r.Layer, r.Status, r.Detail, want)
				}
			}
		})
	}
	t.Run("unknown", func(t *testing.T) {
		t.Setenv("CMDGUARD_SELFTEST_OMIT", "pid")
		if _, err := exec.SelfTest(testContext(t), exec.SelfTestOptions{}); err == nil {
			t.Error("SelfTest with pid left out: no error, want the hook refused (pid is not a part of the plan)")
		}
	})
}

// TestSelfTestUnprivileged runs TestSelfTest again as the unprivileged
// user cgtest (the machine's test user), from a copy of this test binary
// that user can execute: the selftest holds without root too.
func TestSelfTestUnprivileged(t *testing.T) {
	if os.Geteuid() != 0 || os.Getenv("CMDGUARD_SELFTEST_CHILD") != "" {
		t.Skip("runs as root, to start TestSelfTest as cgtest (run as cgtest, TestSelfTest itself is the test)")
	}
	u, err := user.Lookup("cgtest")
	if err != nil {
		t.Skip("no user cgtest on this machine")
	}
	needProgram(t, "setpriv")
	setpriv, err := osexec.LookPath("setpriv")
	if err != nil {
		t.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "cmdguard-selftest-bin-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755)
	bin := filepath.Join(dir, "exec.test")
	data, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := osexec.CommandContext(testContext(t), setpriv, "--reuid", "cgtest", "--regid", "cgtest", "--init-groups",
		"env", "-i", "HOME=/nonexistent", "PATH="+os.Getenv("PATH"), "CMDGUARD_SELFTEST_CHILD=1",
		bin, "-test.run", "^TestSelfTest$", "-test.count", "1", "-test.v")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestSelfTest ") {
		t.Fatalf("TestSelfTest as cgtest: %v\n%s", err, out)
	}
	// It ran as cgtest, and every row held there.
	if !strings.Contains(string(out), "as uid "+u.Uid+"\n") || !strings.Contains(string(out), "survivor         pid      held") {
		t.Errorf("TestSelfTest as cgtest did not show the rows:\n%s", out)
	}
}

// TestSelfTestShellThatDoesNothing: a shell that runs nothing (as bash
// refused by a sandbox would), everywhere or only inside the sandbox
// (there its pid is small: the sandbox's PID namespace), makes every row
// an error, never held.
func TestSelfTestShellThatDoesNothing(t *testing.T) {
	for name, script := range map[string]string{
		"everywhere":     "#!/bin/sh\nexit 0\n",
		"in the sandbox": "#!/bin/sh\n[ $$ -lt 50 ] && exit 0\nexec bash \"$@\"\n",
	} {
		sh := filepath.Join(t.TempDir(), "sh")
		if err := os.WriteFile(sh, []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
		rep, err := exec.SelfTest(testContext(t), exec.SelfTestOptions{Shell: sh})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Passed {
			t.Errorf("%s: the selftest passed with a shell that runs nothing", name)
		}
		for _, r := range rep.Rows {
			if r.Status != exec.RowError && r.Status != exec.RowNotPromised {
				t.Errorf("%s: row %s = %s %q, want %s", name, r.Name, r.Status, r.Detail, exec.RowError)
			}
		}
	}
}
