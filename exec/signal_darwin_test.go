package exec_test

import (
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	cmdexec "github.com/cmdguard/cmdguard/exec"
	"github.com/google/go-cmp/cmp"
)

// TestSignalNamesMatchBash compares every name with bash's `kill -l`.
func TestSignalNamesMatchBash(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("bash", "-c", "kill -l").Output()
	if err != nil {
		t.Fatalf("bash kill -l: %v", err)
	}
	want := map[int]string{}
	fields := strings.Fields(strings.ReplaceAll(string(out), ")", " "))
	for i := 0; i+1 < len(fields); i += 2 {
		n, err := strconv.Atoi(fields[i])
		if err != nil {
			t.Fatalf("kill -l output %q: %v", out, err)
		}
		want[n] = fields[i+1]
	}
	if len(want) < 31 {
		t.Fatalf("kill -l listed %d signals: %q", len(want), out)
	}
	got := map[int]string{}
	for n := range want {
		got[n] = cmdexec.SignalName(syscall.Signal(n))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("SignalName mismatch with bash (-want +got):\n%s", diff)
	}
}

func TestParseSignal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in   string
		want syscall.Signal
		ok   bool
	}{
		{"SIGINFO", syscall.SIGINFO, true},
		{"usr1", 30, true},
		{"31", 31, true},
		{"32", 32, false},
		{"RTMIN", 0, false},
		{"SIGRTMIN+3", 0, false},
	}
	for _, tt := range tests {
		sig, ok := cmdexec.ParseSignal(tt.in)
		if ok != tt.ok || (ok && sig != tt.want) {
			t.Errorf("ParseSignal(%q) = %d, %v; want %d, %v", tt.in, sig, ok, tt.want, tt.ok)
		}
	}
	for n := syscall.Signal(1); n <= 31; n++ {
		if sig, ok := cmdexec.ParseSignal(cmdexec.SignalName(n)); sig != n || !ok {
			t.Errorf("ParseSignal(SignalName(%d) = %q) = %d, %v", n, cmdexec.SignalName(n), sig, ok)
		}
	}
}
