package exec_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/cmdguard/cmdguard/exec"
)

// Test helpers shared by the package's test files.

// peakRSS returns this process's peak resident set size in bytes.
func peakRSS() (int, error) {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, err
	}
	for line := range strings.Lines(string(status)) {
		if kb, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(kb), " kB"))
			return n << 10, err
		}
	}
	return 0, errors.New("no VmHWM in /proc/self/status")
}

// openPty opens a pseudo-terminal pair with the standard library alone.
func openPty(t *testing.T) (master, tty *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open /dev/ptmx: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	var n, unlock uint32
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, master.Fd(), syscall.TIOCSPTLCK, uintptr(unsafe.Pointer(&unlock))); e != 0 {
		t.Fatalf("unlock pty: %v", e)
	}
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, master.Fd(), syscall.TIOCGPTN, uintptr(unsafe.Pointer(&n))); e != 0 {
		t.Fatalf("pty number: %v", e)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open tty: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	return master, tty
}

// dead reports whether process pid is gone or a zombie.
func dead(pid int) bool {
	if err := syscall.Kill(pid, 0); err == syscall.ESRCH {
		return true
	}
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return true
	}
	// The state follows the command name in parentheses.
	s := string(stat)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] == 'Z' || s[i+2] == 'X'
}

// sandboxOrphanHelper starts a sandboxed command that leaves processes
// behind in every way a command can (a new session, a subshell, a
// background job), each a sleep of marker seconds; prints "ready" and
// whether this program started its watchdog; and waits to be killed.
func sandboxOrphanHelper(marker string) int {
	p, err := exec.Start(context.Background(), exec.Cmd{
		Command: "setsid sleep " + marker + " & (sleep " + marker + "; :) & sleep " + marker + " & echo ready; wait",
		Env:     []string{"PATH=" + os.Getenv("PATH")},
		Sandbox: &exec.Sandbox{},
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	var next int64
	for {
		c := p.WaitOutput(context.Background(), exec.Stdout, next)
		next = c.Next
		if strings.Contains(string(c.Data), "ready") {
			break
		}
		if c.EOF {
			fmt.Fprintln(os.Stderr, "the command ended before it was ready")
			return 2
		}
	}
	fmt.Println("ready", exec.WatchdogStarted())
	select {}
}

func sandboxRun(t *testing.T, dir, command string, sb *exec.Sandbox) exec.Result {
	t.Helper()
	return run(t, exec.Cmd{
		Command: command,
		Dir:     dir,
		Env:     []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "DIR=" + dir},
		Sandbox: sb,
	})
}

// sandboxProject makes a project directory (symbolic links resolved, as
// the sandbox wants) with a secret file, a secret directory, and a git
// directory with a config and hooks.
func sandboxProject(t *testing.T) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		".env":              "API_KEY=" + secret + "\n",
		"secrets/db.txt":    "password=" + secret + "\n",
		"main.txt":          "hello\n",
		".git/config":       "[core]\n\tbare = false\n",
		".git/hooks/README": "hooks\n",
	}
	for name, data := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
