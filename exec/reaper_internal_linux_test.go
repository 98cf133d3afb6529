package exec

import (
	"bufio"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// sessionWithStraggler starts a bash in a session of its own that puts
// timeout (which makes a process group of its own) in the background,
// and returns bash's pid (the session id) and timeout's.
func sessionWithStraggler(t *testing.T) (sid, straggler int) {
	t.Helper()
	cmd := exec.Command("bash", "-c", "timeout 300 sleep 300 </dev/null >/dev/null 2>&1 & echo $!; exec sleep 300")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		syscall.Kill(straggler, syscall.SIGKILL)
		cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	if straggler, err = strconv.Atoi(strings.TrimSpace(line)); err != nil {
		t.Fatal(err)
	}
	// Wait for timeout's own process group.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		if g, _ := syscall.Getpgid(straggler); g == straggler {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("timeout %d never made a group of its own", straggler)
		}
	}
	return cmd.Process.Pid, straggler
}

// gone reports whether pid ends (or is a zombie) within 10 seconds.
func gone(pid int) bool {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err != nil || strings.Contains(string(b), ") Z ") {
			return true
		}
	}
	return false
}

// TestProbeSessions: reading the stat files of a range of pids signals the
// processes of the session outside its group in that range, and only
// those.
func TestProbeSessions(t *testing.T) {
	sid, straggler := sessionWithStraggler(t)
	probeSessions(straggler+1, straggler+probeMax, sweepReq{sid: sid, sig: syscall.SIGKILL})
	probeSessions(sid, sid, sweepReq{sid: sid, sig: syscall.SIGKILL}) // the leader's group is not the sweep's
	time.Sleep(50 * time.Millisecond)
	if syscall.Kill(straggler, 0) != nil || syscall.Kill(sid, 0) != nil {
		t.Fatalf("a probe of other pids ended the session's processes")
	}
	probeSessions(straggler, straggler, sweepReq{sid: sid + 1, sig: syscall.SIGKILL})
	time.Sleep(50 * time.Millisecond)
	if syscall.Kill(straggler, 0) != nil {
		t.Fatalf("a probe for another session ended timeout %d", straggler)
	}
	probeSessions(sid, straggler, sweepReq{sid: sid, sig: syscall.SIGKILL})
	if !gone(straggler) {
		t.Errorf("timeout %d, of session %d in a group of its own, outlived the probe", straggler, sid)
	}
	if syscall.Kill(sid, 0) != nil {
		t.Errorf("the probe ended the session's leader %d", sid)
	}
}

// TestSweepSession: the sweep with its pre-check ends a straggler in
// another group of the session, whether it reads a few pids or /proc.
func TestSweepSession(t *testing.T) {
	start := time.Now()
	sid, straggler := sessionWithStraggler(t)
	sweepSession(sid, start, syscall.SIGKILL)
	if !gone(straggler) {
		t.Errorf("timeout %d, of session %d in a group of its own, outlived sweepSession", straggler, sid)
	}
}

// TestLastPid: /proc/loadavg tells the last pid allocated, which is at
// least that of a process just forked (unless the cycle came round).
func TestLastPid(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	last, ok := lastPid()
	if !ok || last <= 0 {
		t.Fatalf("lastPid() = %d, %v", last, ok)
	}
	if last < cmd.Process.Pid && last > 1000 {
		t.Errorf("lastPid() = %d, below pid %d forked before", last, cmd.Process.Pid)
	}
	if cycleTime() <= 0 {
		t.Errorf("cycleTime() = %v", cycleTime())
	}
}
