package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// acpProject is a project whose policy lets the test agents' commands run.
func acpProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ".cmdguard.yaml"), []byte("version: 1\ndefault: deny\nallow: [sleep, echo]\n"), 0o644)
	return dir
}

// alive reports whether a process whose command line contains marker runs.
func alive(marker string) bool {
	dirs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, d := range dirs {
		b, err := os.ReadFile(d)
		if err == nil && strings.Contains(strings.ReplaceAll(string(b), "\x00", " "), marker) {
			if st, err := os.ReadFile(filepath.Join(filepath.Dir(d), "stat")); err == nil && !strings.Contains(string(st), ") Z ") {
				return true
			}
		}
	}
	return false
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// createLine is an agent's terminal/create request for command.
func createLine(command string) string {
	return `{"jsonrpc":"2.0","id":1,"method":"terminal/create","params":{"sessionId":"s","command":"` + command + `"}}`
}

func runACP(t *testing.T, stdin io.Reader, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr syncBuffer
	done := make(chan int, 1)
	go func() { done <- run(append([]string{"acp"}, args...), stdin, &stdout, &stderr) }()
	select {
	case code := <-done:
		return code, stdout.String(), stderr.String()
	case <-time.After(30 * time.Second):
		t.Fatalf("cmdguard acp did not end; stderr:\n%s", stderr.String())
		return 0, "", ""
	}
}

func TestACPAgentCrashEndsCommands(t *testing.T) {
	t.Parallel()
	dir := acpProject(t)
	// The agent starts a command, reads the answer, and dies.
	agent := `printf '%s\n' '` + createLine("sleep 31.5001") + `'; read -r line; echo "agent got: $line" >&2; exit 9`
	editorIn, editorW := io.Pipe() // the editor stays
	defer editorW.Close()
	code, _, stderr := runACP(t, editorIn, "--cwd", dir, "--", "sh", "-c", agent)
	if code != 9 {
		t.Errorf("exit %d, want the agent's 9; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stderr, `agent got: {"jsonrpc":"2.0","id":1,"result":{"terminalId":"term_`) {
		t.Errorf("the agent's terminal/create was not answered by cmdguard:\n%s", stderr)
	}
	if alive("sleep 31.5001") {
		t.Error("a command outlived its agent")
	}
}

func TestACPEditorCloseEndsAgent(t *testing.T) {
	t.Parallel()
	dir := acpProject(t)
	// The agent starts a command, then ignores the end of its input.
	agent := `printf '%s\n' '` + createLine("sleep 31.5002") + `'; read -r line; echo started >&2; exec sleep 32.5002`
	editorIn, editorW := io.Pipe()
	go func() {
		for !alive("sleep 32.5002") {
			time.Sleep(10 * time.Millisecond)
		}
		editorW.Close() // the editor quits
	}()
	code, _, stderr := runACP(t, editorIn, "--cwd", dir, "--", "sh", "-c", agent)
	if code != 0 {
		t.Errorf("exit %d, want 0; stderr:\n%s", code, stderr)
	}
	if alive("sleep 31.5002") || alive("sleep 32.5002") {
		t.Error("the agent or its command outlived the editor")
	}
}

func TestACPUsage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{}, {"--", "/nonexistent/agent"}, {"--policy", "/nonexistent/.cmdguard.yaml", "--", "true"}} {
		code, _, stderr := runACP(t, strings.NewReader(""), args...)
		if code != exitRefused || stderr == "" {
			t.Errorf("acp %q: exit %d, want %d with a message; stderr %q", args, code, exitRefused, stderr)
		}
	}
}
