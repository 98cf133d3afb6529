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
	if len(want) < 60 {
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
		{"SIGTERM", syscall.SIGTERM, true},
		{"term", syscall.SIGTERM, true},
		{"9", syscall.SIGKILL, true},
		{"SIGIOT", syscall.SIGABRT, true},
		{"RTMIN", 34, true},
		{"SIGRTMIN+3", 37, true},
		{"rtmax-2", 62, true},
		{"SIGRTMAX", 64, true},
		{"SIG33", 33, true},
		{"0", 0, false},
		{"65", 65, false},
		{"SIGRTMIN+31", 65, false},
		{"SIGRTMAX-31", 33, false},
		{"SIGNOPE", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		sig, ok := cmdexec.ParseSignal(tt.in)
		if sig != tt.want || ok != tt.ok {
			t.Errorf("ParseSignal(%q) = %d, %v; want %d, %v", tt.in, sig, ok, tt.want, tt.ok)
		}
	}
	for n := syscall.Signal(1); n <= 64; n++ {
		if sig, ok := cmdexec.ParseSignal(cmdexec.SignalName(n)); sig != n || !ok {
			t.Errorf("ParseSignal(SignalName(%d) = %q) = %d, %v", n, cmdexec.SignalName(n), sig, ok)
		}
	}
}

func TestExplain(t *testing.T) {
	t.Parallel()
	code := func(n int) *int { return &n }
	tests := []struct {
		r    cmdexec.Result
		want string
		sh   int
	}{
		{cmdexec.Result{Status: cmdexec.StatusRunning}, "still running", -1},
		{cmdexec.Result{Status: cmdexec.StatusCompleted, ExitCode: code(0)}, "exit code 0", 0},
		{cmdexec.Result{Status: cmdexec.StatusCompleted, ExitCode: code(127)}, "exit code 127 (a command was not found)", 127},
		{cmdexec.Result{Status: cmdexec.StatusCompleted, ExitCode: code(126)}, "exit code 126 (a command was found but could not be executed)", 126},
		{cmdexec.Result{Status: cmdexec.StatusCompleted, ExitCode: code(139)}, "exit code 139 (128+11: a process it ran was ended by SIGSEGV)", 139},
		{cmdexec.Result{Status: cmdexec.StatusCompleted, Signal: "SIGSEGV", CoreDumped: true}, "ended by SIGSEGV (signal 11, shell code 139), core dumped", 139},
		{cmdexec.Result{Status: cmdexec.StatusCompleted, Signal: "SIGRTMIN+2"}, "ended by SIGRTMIN+2 (signal 36, shell code 164)", 164},
		{cmdexec.Result{Status: cmdexec.StatusKilled, Signal: "SIGKILL"}, "killed: ended by SIGKILL (signal 9, shell code 137)", 137},
		{cmdexec.Result{Status: cmdexec.StatusTimedOut, Signal: "SIGTERM"}, "timed out: ended by SIGTERM (signal 15, shell code 143)", 143},
		{cmdexec.Result{Status: cmdexec.StatusCompleted, ExitCode: code(0), BackgroundKilled: true}, "exit code 0; background processes holding its output were killed", 0},
	}
	for _, tt := range tests {
		if got := tt.r.Explain(); got != tt.want {
			t.Errorf("Explain(%+v) = %q, want %q", tt.r, got, tt.want)
		}
		if got := tt.r.ShellCode(); got != tt.sh {
			t.Errorf("ShellCode(%+v) = %d, want %d", tt.r, got, tt.sh)
		}
	}
}
