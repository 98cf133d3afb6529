package exec_test

import (
	"bytes"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/cmdguard/cmdguard/exec"
	"github.com/google/go-cmp/cmp"
)

// ignoredSignals returns the mask of signals this process ignores: bit n-1
// for signal n.
func ignoredSignals(t *testing.T) uint64 {
	t.Helper()
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(string(status)) {
		if hex, ok := strings.CutPrefix(line, "SigIgn:"); ok {
			mask, err := strconv.ParseUint(strings.TrimSpace(hex), 16, 64)
			if err != nil {
				t.Fatalf("SigIgn %q: %v", hex, err)
			}
			return mask
		}
	}
	t.Fatal("no SigIgn in /proc/self/status")
	return 0
}

// TestCoreDump checks the core-dump flag against the kernel's own report,
// read by os/exec for the same command, and, where core_pattern writes a
// plain file, against the core file itself.
func TestCoreDump(t *testing.T) {
	t.Parallel()
	pattern, err := os.ReadFile("/proc/sys/kernel/core_pattern")
	if err != nil {
		t.Fatalf("read core_pattern: %v", err)
	}
	// A pattern without '|' or '/' is a file in the process's directory.
	plainFile := !bytes.ContainsAny(bytes.TrimSpace(pattern), "|/")
	t.Logf("core_pattern %q; cores land in the working directory: %v", bytes.TrimSpace(pattern), plainFile)
	tests := []struct {
		cmd      string
		signal   string
		wantCore bool // where the core lands in the working directory
	}{
		{"ulimit -c unlimited; kill -SEGV $$", "SIGSEGV", true},
		{"ulimit -c unlimited; kill -ABRT $$", "SIGABRT", true},
		{"ulimit -c 0; kill -SEGV $$", "SIGSEGV", false},
		{"ulimit -c unlimited; kill -TERM $$", "SIGTERM", false},
	}
	for _, tt := range tests {
		t.Run(tt.cmd, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			r := run(t, exec.Cmd{Command: tt.cmd, Dir: dir})
			if r.Signal != tt.signal {
				t.Errorf("Run(%q).Signal = %q, want %q", tt.cmd, r.Signal, tt.signal)
			}

			oracleDir := t.TempDir()
			oracle := osexec.Command("bash", "-c", tt.cmd)
			oracle.Dir = oracleDir
			oracle.Run()
			ws := oracle.ProcessState.Sys().(syscall.WaitStatus)
			if r.CoreDumped != ws.CoreDump() {
				t.Errorf("Run(%q).CoreDumped = %v, but the wait status of the same command says %v", tt.cmd, r.CoreDumped, ws.CoreDump())
			}
			if plainFile {
				cores, _ := filepath.Glob(filepath.Join(dir, "core*"))
				if r.CoreDumped != (len(cores) > 0) {
					t.Errorf("Run(%q).CoreDumped = %v, core files in its directory: %q", tt.cmd, r.CoreDumped, cores)
				}
				if r.CoreDumped != tt.wantCore {
					t.Errorf("Run(%q).CoreDumped = %v, want %v", tt.cmd, r.CoreDumped, tt.wantCore)
				}
			}
			if r.CoreDumped && !strings.Contains(r.Explain(), "core dumped") {
				t.Errorf("Run(%q).Explain() = %q, want it to say core dumped", tt.cmd, r.Explain())
			}
		})
	}
}

func TestSignals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		kill string // the argument of bash's kill -s
		want string
		num  int
	}{
		{"TERM", "SIGTERM", 15},
		{"KILL", "SIGKILL", 9},
		{"INT", "SIGINT", 2},
		{"HUP", "SIGHUP", 1},
		{"SEGV", "SIGSEGV", 11},
		{"ABRT", "SIGABRT", 6},
		{"PIPE", "SIGPIPE", 13},
		{"USR1", "SIGUSR1", 10},
		{"RTMIN+3", "SIGRTMIN+3", 37},
		{"RTMAX-2", "SIGRTMAX-2", 62},
	}
	ignored := ignoredSignals(t)
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			t.Parallel()
			// No core limit is raised: a core file is not wanted here.
			cmd := "ulimit -c 0; kill -s " + tt.kill + " $$"
			got := exitOf(run(t, exec.Cmd{Command: cmd}))
			want := exit{exec.StatusCompleted, nil, tt.want, false, 128 + tt.num}
			if ignored&(1<<(tt.num-1)) != 0 {
				// As with os/exec, a signal this process ignores (a
				// background job of a script ignores SIGINT) is ignored by
				// the command too, and bash cannot undo that.
				t.Logf("%s is ignored by this process, so by the command", tt.want)
				want = exit{exec.StatusCompleted, code(0), "", false, 0}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Run(%q) mismatch (-want +got):\n%s", cmd, diff)
			}
		})
	}
}
