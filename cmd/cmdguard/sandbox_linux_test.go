package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard/exec"
)

// TestSandboxSelftestCLI runs cmdguard sandbox selftest on this machine:
// every Linux row held, the pass kept in the state directory; with the
// test hook leaving the hide layer out, the hidden-read row fails, the
// command exits 1 and the pass is taken back.
func TestSandboxSelftestCLI(t *testing.T) {
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	record := filepath.Join(state, "cmdguard", "sandbox-selftest.json")

	selftest := func(args ...string) (selftestJSON, string, int) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"sandbox"}, args...), strings.NewReader(""), &stdout, &stderr)
		var out selftestJSON
		if strings.Contains(strings.Join(args, " "), "json") {
			if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
				t.Fatalf("sandbox %q: %v\n%s", args, err, stdout.String())
			}
		}
		return out, stdout.String() + stderr.String(), code
	}

	out, text, code := selftest("selftest", "--format", "json")
	if code != 0 || !out.Passed || out.Record != record {
		t.Fatalf("selftest: exit %d, passed %v, record %q, want 0, a pass kept in %s:\n%s", code, out.Passed, out.Record, record, text)
	}
	held := 0
	for _, r := range out.Rows {
		if r.Status == exec.RowHeld {
			held++
		}
	}
	if held != len(out.Rows) || held < 6 {
		t.Errorf("%d of %d rows held, want every one (at least 6):\n%s", held, len(out.Rows), text)
	}
	if b, err := os.ReadFile(record); err != nil || !strings.Contains(string(b), `"os": "linux/`) {
		t.Errorf("record %s: %v %s", record, err, b)
	}

	// The text table, flags after the word selftest or before it.
	_, text, code = selftest("--format", "text", "selftest")
	if code != 0 || !strings.Contains(text, "hidden-read      hide     held") || !strings.Contains(text, "passed: every promise held") {
		t.Errorf("selftest (text): exit %d:\n%s", code, text)
	}

	t.Setenv("CMDGUARD_SELFTEST_OMIT", "hide")
	out, text, code = selftest("selftest", "--format=json")
	if code != 1 || out.Passed {
		t.Errorf("selftest without the hide layer: exit %d, passed %v, want 1 and no pass:\n%s", code, out.Passed, text)
	}
	for _, r := range out.Rows {
		if (r.Layer == "hide") != (r.Status == exec.RowFailed) {
			t.Errorf("without the hide layer: row %s (%s) %s", r.Name, r.Layer, r.Status)
		}
	}
	if _, err := os.Stat(record); err == nil {
		t.Errorf("the pass is still kept after a failed selftest")
	}

	for _, args := range [][]string{{}, {"selftst"}, {"selftest", "extra"}, {"selftest", "--format", "yaml"}} {
		if _, text, code := selftest(args...); code != exitError {
			t.Errorf("sandbox %q: exit %d, want %d:\n%s", args, code, exitError, text)
		}
	}
}
