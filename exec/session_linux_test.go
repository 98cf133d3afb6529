package exec_test

import (
	"context"
	"fmt"
	"os"
	osexec "os/exec"
	"strings"
	"syscall"
	"testing"

	"github.com/cmdguard/cmdguard/exec"
)

// sessionHelperEnv makes a copy of the test binary run one command and
// print where it ran, for TestCommandSession.
const sessionHelperEnv = "CMDGUARD_TEST_SESSION_HELPER"

// TestCommandSession: a command in a cgroup shares this process's session
// (in a process group of its own) only when there is no controlling
// terminal in it, so that it never gets one; everywhere else — a terminal,
// the sweep, which finds leftovers by session — it gets a session of its
// own, without a terminal. Each case runs in a copy of the test binary
// started in a new session, with a terminal or without, or in this
// process's session (whose terminal, if any, it then has).
func TestCommandSession(t *testing.T) {
	if os.Getenv(sessionHelperEnv) != "" {
		sessionHelper(t)
		return
	}
	for _, tt := range []struct {
		name     string
		terminal bool
		reaper   string // forced, or "" for the default
		leader   bool   // the helper leads a new session
	}{
		{"no terminal", false, "", true},
		{"terminal", true, "", true},
		{"no terminal, sweep", false, exec.ReaperSweep, true},
		{"not a session leader", false, "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cmd := osexec.Command(os.Args[0], "-test.run", "^TestCommandSession$", "-test.count", "1")
			cmd.Env = append(os.Environ(), sessionHelperEnv+"=1", "CMDGUARD_EXEC_REAPER="+tt.reaper)
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: tt.leader, Setpgid: !tt.leader}
			if tt.terminal {
				_, tty := openPty(t)
				cmd.Stdin = tty
				cmd.SysProcAttr.Setctty, cmd.SysProcAttr.Ctty = true, 0
			}
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("helper: %v\n%s", err, out)
			}
			var reaper string
			var helperSid, helperTty, pid, pgrp, sid, tty int
			line := string(out)
			if i := strings.Index(line, "reaper="); i >= 0 {
				line = line[i:]
			}
			if _, err := fmt.Sscanf(line, "reaper=%s helper=%d,%d command=%d,%d,%d,%d", &reaper, &helperSid, &helperTty, &pid, &pgrp, &sid, &tty); err != nil {
				t.Fatalf("helper printed %q: %v", out, err)
			}
			if tt.leader && tt.terminal != (helperTty != 0) {
				t.Fatalf("the helper's terminal is %d, want one: %v", helperTty, tt.terminal)
			}
			want := exec.ExpectedReaper()
			if tt.reaper != "" {
				want = tt.reaper
			}
			if reaper != want {
				t.Errorf("Reaper = %q, want %q", reaper, want)
			}
			wantSid := pid
			if reaper == exec.ReaperCgroup && helperTty == 0 {
				wantSid = helperSid
			}
			if pgrp != pid || sid != wantSid || tty != 0 {
				t.Errorf("command %d ran in group %d, session %d, terminal %d; want group %d, session %d (the helper's is %d), no terminal", pid, pgrp, sid, tty, pid, wantSid, helperSid)
			}
		})
	}
}

// sessionHelper runs a command that prints its process group, session and
// terminal, and prints them with this process's session and terminal.
func sessionHelper(t *testing.T) {
	self, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		t.Fatal(err)
	}
	_, helper, _ := strings.Cut(string(self), ") ")
	f := strings.Fields(helper)
	r, err := exec.Run(context.Background(), exec.Cmd{Command: `read -r s < /proc/$$/stat; set -- ${s##*) }; echo $$,$3,$4,$5`})
	if err != nil || r.ExitCode == nil || *r.ExitCode != 0 {
		t.Fatalf("Run = %s, %v", r.Explain(), err)
	}
	fmt.Printf("reaper=%s helper=%s,%s command=%s\n", r.Reaper, f[3], f[4], strings.TrimSpace(string(r.Stdout.Data)))
}
