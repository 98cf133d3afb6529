package acp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cmdguard/cmdguard/adapter/acp"
	sdk "github.com/coder/acp-go-sdk"
)

// Test helpers shared by the package's test files.

func waitProc(t *testing.T, marker string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !findProc(marker); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("process %q did not start", marker)
		}
	}
}

// findProc reports whether a process whose command line contains marker
// is alive.
func findProc(marker string) bool {
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

// requestError returns err's JSON-RPC error with its data decoded.
func requestError(t *testing.T, err error) (int, map[string]any) {
	t.Helper()
	var re *sdk.RequestError
	if !errors.As(err, &re) {
		t.Fatalf("error %v (%T) is not a JSON-RPC error", err, err)
	}
	b, _ := json.Marshal(re.Data)
	var data map[string]any
	json.Unmarshal(b, &data)
	return re.Code, data
}

func code(s sdk.WaitForTerminalExitResponse) string {
	switch {
	case s.ExitCode != nil && s.Signal == nil:
		return fmt.Sprint(*s.ExitCode)
	case s.Signal != nil && s.ExitCode == nil:
		return *s.Signal
	}
	return fmt.Sprintf("bad status %+v", s)
}

// run creates a terminal for req, waits for its exit and returns its output.
func run(t *testing.T, a *sdk.AgentSideConnection, req sdk.CreateTerminalRequest) (sdk.TerminalOutputResponse, sdk.WaitForTerminalExitResponse) {
	t.Helper()
	c := ctx(t)
	req.SessionId = "s1"
	ct, err := a.CreateTerminal(c, req)
	if err != nil {
		t.Fatalf("CreateTerminal(%q %q): %v", req.Command, req.Args, err)
	}
	w, err := a.WaitForTerminalExit(c, sdk.WaitForTerminalExitRequest{SessionId: "s1", TerminalId: ct.TerminalId})
	if err != nil {
		t.Fatalf("WaitForTerminalExit: %v", err)
	}
	out, err := a.TerminalOutput(c, sdk.TerminalOutputRequest{SessionId: "s1", TerminalId: ct.TerminalId})
	if err != nil {
		t.Fatalf("TerminalOutput: %v", err)
	}
	if _, err := a.ReleaseTerminal(c, sdk.ReleaseTerminalRequest{SessionId: "s1", TerminalId: ct.TerminalId}); err != nil {
		t.Fatalf("ReleaseTerminal: %v", err)
	}
	return out, w
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

// connect joins an in-process agent to a Go client that embeds terms,
// over pipes, and returns the agent's side: its outbound terminal calls
// reach terms through acp-go-sdk on both ends.
func connect(t *testing.T, terms *acp.Terminals) *sdk.AgentSideConnection {
	t.Helper()
	agentR, clientW := io.Pipe()
	clientR, agentW := io.Pipe()
	client := sdk.NewClientSideConnection(testClient{terms}, clientW, clientR)
	client.SetLogger(quiet)
	agent := sdk.NewAgentSideConnection(stubAgent{}, agentW, agentR)
	agent.SetLogger(quiet)
	t.Cleanup(func() {
		agentW.Close()
		clientW.Close()
		terms.Close()
	})
	return agent
}

// project writes a project with the test policy, an ignore file and a
// secret, and returns its root (symlinks resolved).
func project(t *testing.T) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	write(t, root, ".cmdguard.yaml", testPolicy)
	write(t, root, ".cmdguardignore", ".env\n")
	write(t, root, ".env", "SECRET=hunter2\n")
	write(t, root, "a.txt", "hello\n")
	if err := os.Mkdir(filepath.Join(root, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	return root
}

func write(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
