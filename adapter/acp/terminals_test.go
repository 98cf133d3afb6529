package acp_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/adapter/acp"
)

// testPolicy allows what the tests run, asks for touch and denies the rest.
const testPolicy = `version: 1
default: deny
allow: [echo, printf, sleep, pwd, cat, sh -c, exit, exec, kill]
ask: [touch]
env_safe: [NAME, OTHER]
`

// testClient is a Go ACP client that embeds the gated terminals.
type testClient struct {
	*acp.Terminals
}

func (testClient) ReadTextFile(context.Context, sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	return sdk.ReadTextFileResponse{}, errors.New("not supported")
}
func (testClient) WriteTextFile(context.Context, sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	return sdk.WriteTextFileResponse{}, errors.New("not supported")
}
func (testClient) RequestPermission(context.Context, sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	return sdk.RequestPermissionResponse{}, errors.New("not supported")
}
func (testClient) SessionUpdate(context.Context, sdk.SessionNotification) error { return nil }

var _ sdk.Client = testClient{}

// stubAgent is an agent that only makes outbound calls (the tests drive
// it); its inbound methods are never called.
type stubAgent struct{}

func (stubAgent) Authenticate(context.Context, sdk.AuthenticateRequest) (sdk.AuthenticateResponse, error) {
	return sdk.AuthenticateResponse{}, nil
}
func (stubAgent) Initialize(context.Context, sdk.InitializeRequest) (sdk.InitializeResponse, error) {
	return sdk.InitializeResponse{ProtocolVersion: sdk.ProtocolVersionNumber}, nil
}
func (stubAgent) Cancel(context.Context, sdk.CancelNotification) error { return nil }
func (stubAgent) CloseSession(context.Context, sdk.CloseSessionRequest) (sdk.CloseSessionResponse, error) {
	return sdk.CloseSessionResponse{}, nil
}
func (stubAgent) ListSessions(context.Context, sdk.ListSessionsRequest) (sdk.ListSessionsResponse, error) {
	return sdk.ListSessionsResponse{}, nil
}
func (stubAgent) NewSession(context.Context, sdk.NewSessionRequest) (sdk.NewSessionResponse, error) {
	return sdk.NewSessionResponse{SessionId: "s1"}, nil
}
func (stubAgent) Prompt(context.Context, sdk.PromptRequest) (sdk.PromptResponse, error) {
	return sdk.PromptResponse{StopReason: sdk.StopReasonEndTurn}, nil
}
func (stubAgent) ResumeSession(context.Context, sdk.ResumeSessionRequest) (sdk.ResumeSessionResponse, error) {
	return sdk.ResumeSessionResponse{}, nil
}
func (stubAgent) SetSessionConfigOption(context.Context, sdk.SetSessionConfigOptionRequest) (sdk.SetSessionConfigOptionResponse, error) {
	return sdk.SetSessionConfigOptionResponse{}, nil
}
func (stubAgent) SetSessionMode(context.Context, sdk.SetSessionModeRequest) (sdk.SetSessionModeResponse, error) {
	return sdk.SetSessionModeResponse{}, nil
}

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// setup returns a project, its Guard's terminals and the agent's side.
func setup(t *testing.T) (string, *acp.Terminals, *sdk.AgentSideConnection) {
	t.Helper()
	root := project(t)
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close(context.Background()) })
	terms := &acp.Terminals{Guard: g}
	return root, terms, connect(t, terms)
}

func TestCreateCommandAndArgs(t *testing.T) {
	t.Parallel()
	root, _, a := setup(t)
	for _, tc := range []struct {
		name, command string
		args          []string
		want, exit    string
	}{
		// args are quoted: $(id) is a word, not a substitution (which
		// the gate would deny)
		{"args quoted", "printf", []string{"%s|", "a b", "$(id)", "'"}, "a b|$(id)|'|", "0"},
		{"no args is a shell line", "echo one; echo two", nil, "one\ntwo\n", "0"},
		{"both streams in true order", "sh -c 'printf a; sleep 0.1; printf b >&2; sleep 0.1; printf c'", nil, "abc", "0"},
		{"exit code", "sh -c 'exit 3'", nil, "", "3"},
		{"cwd default is the root", "pwd", nil, root + "\n", "0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, w := run(t, a, sdk.CreateTerminalRequest{Command: tc.command, Args: tc.args})
			if out.Output != tc.want || out.Truncated {
				t.Errorf("output %q truncated %v, want %q", out.Output, out.Truncated, tc.want)
			}
			if got := code(w); got != tc.exit {
				t.Errorf("exit %s, want %s", got, tc.exit)
			}
			if out.ExitStatus == nil || fmt.Sprint(out.ExitStatus.ExitCode != nil) != "true" {
				t.Errorf("output after exit has no exit code: %+v", out.ExitStatus)
			}
		})
	}
}

func TestCreateRefusedNeverStarts(t *testing.T) {
	t.Parallel()
	root, _, a := setup(t)
	c := ctx(t)
	for _, tc := range []struct {
		name, command string
		args          []string
		env           []sdk.EnvVariable
		verdict, rule string
		source        string
	}{
		{"ignored file", "echo started > started; cat .env", nil, nil, "deny", "ignore.denied", ".cmdguardignore:1"},
		{"ignored file in args", "cat", []string{".env"}, nil, "deny", "ignore.denied", ".cmdguardignore:1"},
		{"a shell in command and args", "sh", []string{"-c", "echo started > started; cat .env"}, nil, "deny", "ignore.denied", ".cmdguardignore:1"},
		{"a program name with spaces is one word", "echo started > started; cat", []string{"a.txt"}, nil, "deny", "policy.no_match", ""},
		{"no rule", "echo started > started; rm -rf sub", nil, nil, "deny", "policy.no_match", ""},
		{"ask without approver", "echo started > started; touch x", nil, nil, "ask", "policy.ask", ""},
		{"dangerous env", "echo started > started", nil, []sdk.EnvVariable{{Name: "BASH_ENV", Value: "a.txt"}}, "deny", "env.code_injection", "env:BASH_ENV"},
		{"env names an ignored file", "echo started > started; cat $F", nil, []sdk.EnvVariable{{Name: "F", Value: ".env"}}, "deny", "ignore.denied", ".cmdguardignore:1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := a.CreateTerminal(c, sdk.CreateTerminalRequest{SessionId: "s1", Command: tc.command, Args: tc.args, Env: tc.env})
			if err == nil {
				t.Fatal("CreateTerminal succeeded; want a refusal")
			}
			code, data := requestError(t, err)
			if code != acp.CodeRefused {
				t.Errorf("code %d, want %d", code, acp.CodeRefused)
			}
			if data["decision"] != tc.verdict {
				t.Errorf("data.decision %v, want %s (data %v)", data["decision"], tc.verdict, data)
			}
			found := false
			reasons, _ := data["reasons"].([]any)
			for _, r := range reasons {
				r := r.(map[string]any)
				if r["rule"] == tc.rule && (tc.source == "" || r["source"] == tc.source) {
					found = true
				}
			}
			if !found {
				t.Errorf("no reason %s (source %q) in %v", tc.rule, tc.source, reasons)
			}
			if !strings.Contains(err.Error(), tc.rule) {
				t.Errorf("message %q does not say %s", err.Error(), tc.rule)
			}
			if _, err := os.Stat(filepath.Join(root, "started")); err == nil {
				t.Fatal("a refused command started")
			}
		})
	}
}

func TestCreateAskApprove(t *testing.T) {
	t.Parallel()
	root := project(t)
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	var asked atomic.Int32
	var answer atomic.Bool
	var lastCmd atomic.Value
	terms := &acp.Terminals{Guard: g, Approve: func(_ context.Context, s sdk.SessionId, cmd string, d cmdguard.Decision) bool {
		asked.Add(1)
		lastCmd.Store(string(s) + ": " + cmd + ": " + d.Verdict.String())
		return answer.Load()
	}}
	a := connect(t, terms)
	c := ctx(t)

	_, err = a.CreateTerminal(c, sdk.CreateTerminalRequest{SessionId: "s1", Command: "touch", Args: []string{"no"}})
	if code, data := requestError(t, err); code != acp.CodeRefused || data["decision"] != "ask" {
		t.Errorf("rejected ask: code %d data %v", code, data)
	}
	if _, err := os.Stat(filepath.Join(root, "no")); err == nil {
		t.Error("a rejected ask ran")
	}
	answer.Store(true)
	out, w := run(t, a, sdk.CreateTerminalRequest{Command: "touch", Args: []string{"yes"}})
	if code(w) != "0" || out.Output != "" {
		t.Errorf("approved ask: exit %s output %q", code(w), out.Output)
	}
	if _, err := os.Stat(filepath.Join(root, "yes")); err != nil {
		t.Error("an approved ask did not run")
	}
	if n := asked.Load(); n != 2 {
		t.Errorf("Approve called %d times, want 2", n)
	}
	if got := lastCmd.Load(); got != "s1: touch yes: ask" {
		t.Errorf("Approve got %q", got)
	}
	// an allowed or denied command is not asked about
	run(t, a, sdk.CreateTerminalRequest{Command: "echo hi"})
	a.CreateTerminal(c, sdk.CreateTerminalRequest{SessionId: "s1", Command: "cat .env"})
	if n := asked.Load(); n != 2 {
		t.Errorf("Approve called %d times, want 2", n)
	}
}

func TestCreateEnv(t *testing.T) {
	t.Parallel()
	_, _, a := setup(t)
	out, _ := run(t, a, sdk.CreateTerminalRequest{Command: "echo $NAME-$OTHER", Env: []sdk.EnvVariable{{Name: "NAME", Value: "world"}, {Name: "OTHER", Value: "x y"}}})
	if out.Output != "world-x y\n" {
		t.Errorf("output %q, want the request's env", out.Output)
	}
	_, err := a.CreateTerminal(ctx(t), sdk.CreateTerminalRequest{SessionId: "s1", Command: "echo", Env: []sdk.EnvVariable{{Name: "A=B", Value: "x"}}})
	if code, _ := requestError(t, err); code != -32602 {
		t.Errorf("env name with '=': code %d, want -32602", code)
	}
}

func TestCreateCwd(t *testing.T) {
	t.Parallel()
	root, _, a := setup(t)
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	out, _ := run(t, a, sdk.CreateTerminalRequest{Command: "pwd", Cwd: sdk.Ptr(filepath.Join(root, "sub"))})
	if out.Output != filepath.Join(root, "sub")+"\n" {
		t.Errorf("pwd in sub: %q", out.Output)
	}
	for _, cwd := range []string{"sub", outside, filepath.Join(root, "link"), filepath.Join(root, "sub", "..", ".."), filepath.Join(root, "nonexistent"), filepath.Join(root, "a.txt")} {
		_, err := a.CreateTerminal(ctx(t), sdk.CreateTerminalRequest{SessionId: "s1", Command: "echo started > " + filepath.Join(root, "started"), Cwd: &cwd})
		if err == nil {
			t.Errorf("cwd %q accepted", cwd)
			continue
		}
		if code, _ := requestError(t, err); code != -32602 {
			t.Errorf("cwd %q: code %d, want -32602", cwd, code)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "started")); err == nil {
		t.Error("a command with a bad cwd started")
	}
}

func TestOutputByteLimit(t *testing.T) {
	t.Parallel()
	_, _, a := setup(t)
	for _, tc := range []struct {
		limit     *int
		want      string
		truncated bool
	}{
		{nil, "héllo", false},
		{sdk.Ptr(100), "héllo", false},
		{sdk.Ptr(6), "héllo", false},
		{sdk.Ptr(5), "éllo", true},
		{sdk.Ptr(4), "llo", true}, // the cut lands inside é: the tail starts after it
		{sdk.Ptr(0), "", true},
	} {
		out, _ := run(t, a, sdk.CreateTerminalRequest{Command: "printf", Args: []string{"héllo"}, OutputByteLimit: tc.limit})
		if out.Output != tc.want || out.Truncated != tc.truncated {
			t.Errorf("limit %v: output %q truncated %v, want %q %v", deref(tc.limit), out.Output, out.Truncated, tc.want, tc.truncated)
		}
	}
	out, _ := run(t, a, sdk.CreateTerminalRequest{Command: "sh -c 'printf a; printf b >&2; printf c'", OutputByteLimit: sdk.Ptr(2)})
	if out.Output != "bc" || !out.Truncated {
		t.Errorf("combined tail: %q %v, want \"bc\" true", out.Output, out.Truncated)
	}
	_, err := a.CreateTerminal(ctx(t), sdk.CreateTerminalRequest{SessionId: "s1", Command: "echo", OutputByteLimit: sdk.Ptr(-1)})
	if code, _ := requestError(t, err); code != -32602 {
		t.Errorf("negative limit: code %d, want -32602", code)
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestOutputWhileRunningThenExit(t *testing.T) {
	t.Parallel()
	_, _, a := setup(t)
	c := ctx(t)
	ct, err := a.CreateTerminal(c, sdk.CreateTerminalRequest{SessionId: "s1", Command: "echo ready; sleep 0.5; exit 7"})
	if err != nil {
		t.Fatal(err)
	}
	id := sdk.TerminalOutputRequest{SessionId: "s1", TerminalId: ct.TerminalId}
	var out sdk.TerminalOutputResponse
	for deadline := time.Now().Add(5 * time.Second); out.Output == "" && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		out, _ = a.TerminalOutput(c, id)
	}
	if out.Output != "ready\n" || out.ExitStatus != nil {
		t.Fatalf("while running: %q exitStatus %+v, want ready and none", out.Output, out.ExitStatus)
	}
	a.WaitForTerminalExit(c, sdk.WaitForTerminalExitRequest{SessionId: "s1", TerminalId: ct.TerminalId})
	out, _ = a.TerminalOutput(c, id)
	if out.ExitStatus == nil || out.ExitStatus.ExitCode == nil || *out.ExitStatus.ExitCode != 7 || out.ExitStatus.Signal != nil {
		t.Fatalf("after exit: exitStatus %+v, want exitCode 7", out.ExitStatus)
	}
	// on the wire: exitCode set, signal absent (null)
	b, _ := json.Marshal(out)
	if !strings.Contains(string(b), `"exitStatus":{"exitCode":7}`) {
		t.Errorf("wire form %s", b)
	}
}

func TestKillReturnsAfterReaping(t *testing.T) {
	t.Parallel()
	_, _, a := setup(t)
	c := ctx(t)
	ct, err := a.CreateTerminal(c, sdk.CreateTerminalRequest{SessionId: "s1", Command: "sleep 31.1001 & sleep 31.1002"})
	if err != nil {
		t.Fatal(err)
	}
	waitProc(t, "sleep 31.1002")
	waitProc(t, "sleep 31.1001")
	if _, err := a.KillTerminal(c, sdk.KillTerminalRequest{SessionId: "s1", TerminalId: ct.TerminalId}); err != nil {
		t.Fatal(err)
	}
	// right after kill, output has the status (kimi-cli reads it so)
	out, err := a.TerminalOutput(c, sdk.TerminalOutputRequest{SessionId: "s1", TerminalId: ct.TerminalId})
	if err != nil {
		t.Fatal(err)
	}
	if out.ExitStatus == nil || out.ExitStatus.Signal == nil || *out.ExitStatus.Signal != "SIGTERM" || out.ExitStatus.ExitCode != nil {
		t.Fatalf("exitStatus after kill %+v, want signal SIGTERM", out.ExitStatus)
	}
	if findProc("sleep 31.1001") || findProc("sleep 31.1002") {
		t.Error("the command's group outlived kill")
	}
	w, err := a.WaitForTerminalExit(c, sdk.WaitForTerminalExitRequest{SessionId: "s1", TerminalId: ct.TerminalId})
	if err != nil || code(w) != "SIGTERM" {
		t.Errorf("wait after kill: %v %v", code(w), err)
	}
	if _, err := a.ReleaseTerminal(c, sdk.ReleaseTerminalRequest{SessionId: "s1", TerminalId: ct.TerminalId}); err != nil {
		t.Errorf("release after kill: %v", err)
	}
}

func TestReleaseEndsAndFrees(t *testing.T) {
	t.Parallel()
	_, _, a := setup(t)
	c := ctx(t)
	ct, err := a.CreateTerminal(c, sdk.CreateTerminalRequest{SessionId: "s1", Command: "sleep 31.2001"})
	if err != nil {
		t.Fatal(err)
	}
	waitProc(t, "sleep 31.2001")
	// a wait in flight survives release
	waited := make(chan sdk.WaitForTerminalExitResponse, 1)
	werr := make(chan error, 1)
	go func() {
		w, err := a.WaitForTerminalExit(c, sdk.WaitForTerminalExitRequest{SessionId: "s1", TerminalId: ct.TerminalId})
		waited <- w
		werr <- err
	}()
	time.Sleep(500 * time.Millisecond) // the wait is in flight (a loaded machine may take a while)
	if _, err := a.ReleaseTerminal(c, sdk.ReleaseTerminalRequest{SessionId: "s1", TerminalId: ct.TerminalId}); err != nil {
		t.Fatal(err)
	}
	if findProc("sleep 31.2001") {
		t.Error("the command outlived release")
	}
	select {
	case w := <-waited:
		if err := <-werr; err != nil || code(w) != "SIGKILL" {
			t.Errorf("wait in flight across release: %s %v, want SIGKILL", code(w), err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the wait in flight never returned")
	}
	// the id is unknown afterwards, for every method
	id := ct.TerminalId
	for name, call := range map[string]func() error{
		"output": func() error {
			_, err := a.TerminalOutput(c, sdk.TerminalOutputRequest{SessionId: "s1", TerminalId: id})
			return err
		},
		"wait": func() error {
			_, err := a.WaitForTerminalExit(c, sdk.WaitForTerminalExitRequest{SessionId: "s1", TerminalId: id})
			return err
		},
		"kill": func() error {
			_, err := a.KillTerminal(c, sdk.KillTerminalRequest{SessionId: "s1", TerminalId: id})
			return err
		},
		"release": func() error {
			_, err := a.ReleaseTerminal(c, sdk.ReleaseTerminalRequest{SessionId: "s1", TerminalId: id})
			return err
		},
	} {
		err := call()
		if err == nil {
			t.Errorf("%s after release succeeded", name)
			continue
		}
		if code, data := requestError(t, err); code != -32603 || data["terminalId"] != id {
			t.Errorf("%s after release: code %d data %v, want -32603 with the id", name, code, data)
		}
	}
}

func TestUnknownIDs(t *testing.T) {
	t.Parallel()
	_, _, a := setup(t)
	c := ctx(t)
	ct, err := a.CreateTerminal(c, sdk.CreateTerminalRequest{SessionId: "s1", Command: "echo hi"})
	if err != nil {
		t.Fatal(err)
	}
	for _, req := range []sdk.TerminalOutputRequest{
		{SessionId: "s1", TerminalId: "term_nope"},
		{SessionId: "s2", TerminalId: ct.TerminalId}, // another session's terminal
	} {
		_, err := a.TerminalOutput(c, req)
		if err == nil {
			t.Errorf("output %+v succeeded", req)
			continue
		}
		if code, _ := requestError(t, err); code != -32603 {
			t.Errorf("output %+v: code %d, want -32603", req, code)
		}
		if _, err := a.ReleaseTerminal(c, sdk.ReleaseTerminalRequest(req)); err == nil {
			t.Errorf("release %+v succeeded", req)
		}
	}
	if _, err := a.TerminalOutput(c, sdk.TerminalOutputRequest{SessionId: "s1", TerminalId: ct.TerminalId}); err != nil {
		t.Errorf("the session's own terminal: %v", err)
	}
}

func TestWaitCancelled(t *testing.T) {
	t.Parallel()
	_, _, a := setup(t)
	c := ctx(t)
	ct, err := a.CreateTerminal(c, sdk.CreateTerminalRequest{SessionId: "s1", Command: "sleep 30"})
	if err != nil {
		t.Fatal(err)
	}
	wc, cancel := context.WithCancel(c)
	time.AfterFunc(200*time.Millisecond, cancel)
	_, err = a.WaitForTerminalExit(wc, sdk.WaitForTerminalExitRequest{SessionId: "s1", TerminalId: ct.TerminalId})
	if code, _ := requestError(t, err); code != -32800 {
		t.Errorf("cancelled wait: code %d, want -32800", code)
	}
	// the command goes on
	out, err := a.TerminalOutput(c, sdk.TerminalOutputRequest{SessionId: "s1", TerminalId: ct.TerminalId})
	if err != nil || out.ExitStatus != nil {
		t.Errorf("after a cancelled wait: %+v %v, want still running", out.ExitStatus, err)
	}
}

func TestConcurrentAndMax(t *testing.T) {
	t.Parallel()
	root := project(t)
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	terms := &acp.Terminals{Guard: g, Max: 2}
	a := connect(t, terms)
	c := ctx(t)
	t1, err1 := a.CreateTerminal(c, sdk.CreateTerminalRequest{SessionId: "s1", Command: "sleep 31.3001"})
	t2, err2 := a.CreateTerminal(c, sdk.CreateTerminalRequest{SessionId: "s1", Command: "echo two"})
	if err1 != nil || err2 != nil || t1.TerminalId == t2.TerminalId {
		t.Fatalf("two terminals: %v %v %q %q", err1, err2, t1.TerminalId, t2.TerminalId)
	}
	if _, err := a.CreateTerminal(c, sdk.CreateTerminalRequest{SessionId: "s1", Command: "echo three"}); err == nil {
		t.Error("a third terminal beyond Max was created")
	}
	a.ReleaseTerminal(c, sdk.ReleaseTerminalRequest{SessionId: "s1", TerminalId: t2.TerminalId})
	t3, err := a.CreateTerminal(c, sdk.CreateTerminalRequest{SessionId: "s1", Command: "echo three"})
	if err != nil {
		t.Fatalf("after a release: %v", err)
	}
	waitProc(t, "sleep 31.3001")
	terms.Close() // what a client does when its agent goes away
	if findProc("sleep 31.3001") {
		t.Error("a command outlived Close")
	}
	if _, err := a.TerminalOutput(c, sdk.TerminalOutputRequest{SessionId: "s1", TerminalId: t3.TerminalId}); err == nil {
		t.Error("a terminal is known after Close")
	}
}

func TestZeroTerminalsRefuses(t *testing.T) {
	t.Parallel()
	terms := &acp.Terminals{}
	a := connect(t, terms)
	_, err := a.CreateTerminal(ctx(t), sdk.CreateTerminalRequest{SessionId: "s1", Command: "echo hi"})
	if code, data := requestError(t, err); code != acp.CodeRefused || data["decision"] != "deny" {
		t.Errorf("zero Terminals: code %d data %v, want a deny", code, data)
	}
}

// TestTerminalsSandbox: with Terminals.Sandbox (cmdguard acp --sandbox) a
// terminal's command runs under the policy's kernel sandbox: a project
// script the gate cannot see into reads an empty .env; without it, the
// secret.
func TestTerminalsSandbox(t *testing.T) {
	t.Parallel()
	for _, sandbox := range []bool{false, true} {
		root := t.TempDir()
		root, _ = filepath.EvalSymlinks(root)
		write(t, root, ".cmdguard.yaml", "version: 1\ndefault: allow\nignore: [.env]\n")
		write(t, root, ".env", "SECRET=hunter2\n")
		write(t, root, "show.sh", "cat .env\n")
		g, err := cmdguard.Open(root)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { g.Close(context.Background()) })
		terms := &acp.Terminals{Guard: g, Sandbox: sandbox, BaseEnv: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + root}}
		out, w := run(t, connect(t, terms), sdk.CreateTerminalRequest{Command: "bash show.sh"})
		if code(w) != "0" {
			t.Fatalf("Sandbox %v: exit %s, output %q", sandbox, code(w), out.Output)
		}
		if leaked := strings.Contains(out.Output, "hunter2"); leaked == sandbox {
			t.Errorf("Sandbox %v: the script printed %q: secret leaked = %v", sandbox, out.Output, leaked)
		}
	}
}
