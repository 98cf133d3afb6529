package acp_test

import (
	"bufio"
	stdcmp "cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/coder/acp-go-sdk"
	"github.com/google/go-cmp/cmp"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/adapter/acp"
)

// editor is an in-process ACP client (the editor side of the proxy) that
// records what reaches it.
type editor struct {
	mu        sync.Mutex
	updates   []sdk.SessionNotification
	perms     []sdk.RequestPermissionRequest
	reads     []string
	writes    []string
	termCalls atomic.Int32
	// answer picks the option of a permission request ("" cancels).
	answer func(sdk.RequestPermissionRequest) string
}

func (e *editor) ReadTextFile(_ context.Context, p sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.reads = append(e.reads, p.Path)
	return sdk.ReadTextFileResponse{Content: "content of " + p.Path}, nil
}

func (e *editor) WriteTextFile(_ context.Context, p sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.writes = append(e.writes, p.Path+"="+p.Content)
	return sdk.WriteTextFileResponse{}, nil
}

func (e *editor) RequestPermission(_ context.Context, p sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	e.mu.Lock()
	e.perms = append(e.perms, p)
	answer := e.answer
	e.mu.Unlock()
	opt := ""
	if answer != nil {
		opt = answer(p)
	}
	if opt == "error" {
		return sdk.RequestPermissionResponse{}, errors.New("the editor failed")
	}
	if opt == "" {
		return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{Cancelled: &sdk.RequestPermissionOutcomeCancelled{}}}, nil
	}
	return sdk.RequestPermissionResponse{Outcome: sdk.RequestPermissionOutcome{Selected: &sdk.RequestPermissionOutcomeSelected{OptionId: sdk.PermissionOptionId(opt)}}}, nil
}

func (e *editor) SessionUpdate(_ context.Context, n sdk.SessionNotification) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.updates = append(e.updates, n)
	return nil
}

func (e *editor) CreateTerminal(context.Context, sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
	e.termCalls.Add(1)
	return sdk.CreateTerminalResponse{}, errors.New("the editor's own terminal was used")
}
func (e *editor) KillTerminal(context.Context, sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	e.termCalls.Add(1)
	return sdk.KillTerminalResponse{}, errors.New("the editor's own terminal was used")
}
func (e *editor) TerminalOutput(context.Context, sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	e.termCalls.Add(1)
	return sdk.TerminalOutputResponse{}, errors.New("the editor's own terminal was used")
}
func (e *editor) ReleaseTerminal(context.Context, sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	e.termCalls.Add(1)
	return sdk.ReleaseTerminalResponse{}, errors.New("the editor's own terminal was used")
}
func (e *editor) WaitForTerminalExit(context.Context, sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	e.termCalls.Add(1)
	return sdk.WaitForTerminalExitResponse{}, errors.New("the editor's own terminal was used")
}

// recAgent is the stub agent that records its initialize request.
type recAgent struct {
	stubAgent
	init chan sdk.InitializeRequest
}

func (a recAgent) Initialize(_ context.Context, p sdk.InitializeRequest) (sdk.InitializeResponse, error) {
	a.init <- p
	return sdk.InitializeResponse{ProtocolVersion: sdk.ProtocolVersionNumber, AgentInfo: &sdk.Implementation{Name: "rec", Version: "1"}}, nil
}

// proxied is an editor and an agent, both on acp-go-sdk, joined by a
// Proxy over pipes.
type proxied struct {
	root   string
	guard  *cmdguard.Guard
	editor *editor
	ed     *sdk.ClientSideConnection
	agent  *sdk.AgentSideConnection
	init   chan sdk.InitializeRequest
	done   chan error
	// closeEditor and closeAgent end one side's output, as a crash does.
	closeEditor, closeAgent func()
}

func startProxy(t *testing.T) *proxied {
	t.Helper()
	root := project(t)
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close(context.Background()) })
	eToPR, eToPW := io.Pipe()
	pToER, pToEW := io.Pipe()
	pToAR, pToAW := io.Pipe()
	aToPR, aToPW := io.Pipe()
	x := &proxied{root: root, guard: g, editor: &editor{}, init: make(chan sdk.InitializeRequest, 1), done: make(chan error, 1)}
	x.ed = sdk.NewClientSideConnection(x.editor, eToPW, pToER)
	x.ed.SetLogger(quiet)
	x.agent = sdk.NewAgentSideConnection(recAgent{init: x.init}, aToPW, pToAR)
	x.agent.SetLogger(quiet)
	x.closeEditor = func() { eToPW.Close() }
	x.closeAgent = func() { aToPW.Close() }
	p := &acp.Proxy{Guard: g, Refresh: 50 * time.Millisecond}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		x.done <- p.Run(ctx, eToPR, pToEW, pToAW, aToPR)
		pToEW.Close()
	}()
	t.Cleanup(func() {
		cancel()
		eToPW.Close()
		aToPW.Close()
		select {
		case <-x.done:
		case <-time.After(10 * time.Second):
			t.Error("Proxy.Run did not return")
		}
	})
	return x
}

func TestProxyInitializeAdvertisesTerminal(t *testing.T) {
	t.Parallel()
	x := startProxy(t)
	c := ctx(t)
	resp, err := x.ed.Initialize(c, sdk.InitializeRequest{
		Meta:               map[string]any{"zed": "x"},
		ProtocolVersion:    sdk.ProtocolVersionNumber,
		ClientCapabilities: sdk.ClientCapabilities{Fs: sdk.FileSystemCapabilities{ReadTextFile: true}},
		ClientInfo:         &sdk.Implementation{Name: "zed", Version: "0.999"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.AgentInfo == nil || resp.AgentInfo.Name != "rec" {
		t.Errorf("the agent's answer did not reach the editor: %+v", resp)
	}
	got := <-x.init
	if !got.ClientCapabilities.Terminal {
		t.Error("the agent was not told the client supports terminals")
	}
	if !got.ClientCapabilities.Fs.ReadTextFile || got.ClientCapabilities.Fs.WriteTextFile {
		t.Errorf("fs capabilities changed: %+v", got.ClientCapabilities.Fs)
	}
	if got.ClientInfo == nil || got.ClientInfo.Name != "zed" || got.Meta["zed"] != "x" {
		t.Errorf("other initialize fields lost: %+v", got)
	}
}

func TestProxyServesTerminals(t *testing.T) {
	t.Parallel()
	x := startProxy(t)
	c := ctx(t)
	ct, err := x.agent.CreateTerminal(c, sdk.CreateTerminalRequest{SessionId: "s1", Command: "echo", Args: []string{"hi there"}, OutputByteLimit: sdk.Ptr(5)})
	if err != nil {
		t.Fatal(err)
	}
	w, err := x.agent.WaitForTerminalExit(c, sdk.WaitForTerminalExitRequest{SessionId: "s1", TerminalId: ct.TerminalId})
	if err != nil || code(w) != "0" {
		t.Fatalf("wait: %s %v", code(w), err)
	}
	out, err := x.agent.TerminalOutput(c, sdk.TerminalOutputRequest{SessionId: "s1", TerminalId: ct.TerminalId})
	if err != nil || out.Output != "here\n" || !out.Truncated || out.ExitStatus == nil {
		t.Errorf("output: %+v %v", out, err)
	}
	if _, err := x.agent.KillTerminal(c, sdk.KillTerminalRequest{SessionId: "s1", TerminalId: ct.TerminalId}); err != nil {
		t.Errorf("kill: %v", err)
	}
	if _, err := x.agent.ReleaseTerminal(c, sdk.ReleaseTerminalRequest{SessionId: "s1", TerminalId: ct.TerminalId}); err != nil {
		t.Errorf("release: %v", err)
	}
	if _, err := x.agent.TerminalOutput(c, sdk.TerminalOutputRequest{SessionId: "s1", TerminalId: ct.TerminalId}); err == nil {
		t.Error("output after release succeeded")
	} else if code, _ := requestError(t, err); code != -32603 {
		t.Errorf("output after release: code %d", code)
	}
	_, err = x.agent.CreateTerminal(c, sdk.CreateTerminalRequest{SessionId: "s1", Command: "echo started > started; cat .env"})
	if code, data := requestError(t, err); code != acp.CodeRefused || data["decision"] != "deny" {
		t.Errorf("denied command: code %d data %v", code, data)
	}
	if _, err := os.Stat(filepath.Join(x.root, "started")); err == nil {
		t.Error("a refused command started")
	}
	if n := x.editor.termCalls.Load(); n != 0 {
		t.Errorf("the editor's terminal methods were called %d times", n)
	}
}

func TestProxyAsk(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		answer  string
		runs    bool
		allowed bool // the policy file gains the allow rule
	}{
		{"allow_once", true, false},
		{"allow_always", true, true},
		{"reject", false, false},
		{"", false, false},      // the prompt was cancelled
		{"error", false, false}, // the editor failed to answer
		{"no_such_option", false, false},
	} {
		t.Run(stdcmp.Or(tc.answer, "cancelled"), func(t *testing.T) {
			t.Parallel()
			x := startProxy(t)
			x.editor.answer = func(sdk.RequestPermissionRequest) string { return tc.answer }
			c := ctx(t)
			ct, err := x.agent.CreateTerminal(c, sdk.CreateTerminalRequest{SessionId: "s1", Command: "touch", Args: []string{"made"}})
			_, statErr := os.Stat(filepath.Join(x.root, "made"))
			if tc.runs {
				if err != nil {
					t.Fatalf("approved ask refused: %v", err)
				}
				x.agent.WaitForTerminalExit(c, sdk.WaitForTerminalExitRequest{SessionId: "s1", TerminalId: ct.TerminalId})
				if _, statErr = os.Stat(filepath.Join(x.root, "made")); statErr != nil {
					t.Error("approved command did not run")
				}
			} else {
				if code, data := requestError(t, err); code != acp.CodeRefused || data["decision"] != "ask" {
					t.Errorf("refused ask: code %d data %v", code, data)
				}
				if statErr == nil {
					t.Error("a refused ask ran")
				}
			}
			x.editor.mu.Lock()
			perms := x.editor.perms
			x.editor.mu.Unlock()
			if len(perms) != 1 {
				t.Fatalf("%d permission requests, want 1", len(perms))
			}
			p := perms[0]
			var kinds []string
			for _, o := range p.Options {
				kinds = append(kinds, string(o.Kind)+":"+string(o.OptionId))
			}
			if diff := cmp.Diff([]string{"allow_once:allow_once", "allow_always:allow_always", "reject_once:reject"}, kinds); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
			if p.SessionId != "s1" || p.ToolCall.Title == nil || !strings.Contains(*p.ToolCall.Title, "touch made") {
				t.Errorf("permission request: session %q title %v", p.SessionId, p.ToolCall.Title)
			}
			b, _ := json.Marshal(p.ToolCall.Content)
			if !strings.Contains(string(b), "policy.ask") {
				t.Errorf("the person is not shown why: %s", b)
			}
			policy, _ := os.ReadFile(filepath.Join(x.root, ".cmdguard.yaml"))
			if got := strings.Contains(string(policy), "touch made"); got != tc.allowed {
				t.Errorf("policy has the allow rule: %v, want %v:\n%s", got, tc.allowed, policy)
			}
			if tc.allowed {
				// the same command again: allowed by the new rule, nobody asked
				if _, err := x.agent.CreateTerminal(c, sdk.CreateTerminalRequest{SessionId: "s1", Command: "touch", Args: []string{"made"}}); err != nil {
					t.Errorf("after allow always: %v", err)
				}
				x.editor.mu.Lock()
				if n := len(x.editor.perms); n != 1 {
					t.Errorf("after allow always: %d permission requests, want still 1", n)
				}
				x.editor.mu.Unlock()
			}
		})
	}
}

func TestProxyFiles(t *testing.T) {
	t.Parallel()
	x := startProxy(t)
	c := ctx(t)
	root := x.root
	os.MkdirAll(filepath.Join(root, ".git", "hooks"), 0o755)
	os.Symlink(filepath.Join(root, ".env"), filepath.Join(root, "innocent.txt"))
	outside := filepath.Join(t.TempDir(), "outside.txt")
	os.WriteFile(outside, []byte("x"), 0o644)
	x.editor.answer = func(p sdk.RequestPermissionRequest) string {
		// the only options for a file are allow once and reject
		if len(p.Options) != 2 {
			return "reject"
		}
		return "allow_once"
	}
	for _, tc := range []struct {
		path    string
		write   bool
		forward bool
		code    int
		rule    string
	}{
		{filepath.Join(root, "a.txt"), false, true, 0, ""},
		{filepath.Join(root, "sub", "new.txt"), true, true, 0, ""}, // tee has no allow rule: the policy's prefixes do not count
		{filepath.Join(root, ".env"), false, false, acp.CodeRefused, "ignore.denied"},
		{filepath.Join(root, ".env"), true, false, acp.CodeRefused, "ignore.denied"},
		{filepath.Join(root, "innocent.txt"), false, false, acp.CodeRefused, "ignore.denied"},
		{filepath.Join(root, "sub", "..", ".env"), false, false, acp.CodeRefused, "ignore.denied"},
		{filepath.Join(root, ".cmdguardignore"), true, false, acp.CodeRefused, "path.protected"},
		{filepath.Join(root, ".cmdguard.yaml"), true, false, acp.CodeRefused, "path.protected"},
		{filepath.Join(root, ".git", "hooks", "pre-commit"), true, false, acp.CodeRefused, "path.protected"},
		{outside, false, true, 0, ""}, // path.outside_root asks; the editor allowed it once
		{".env", false, false, -32602, ""},
	} {
		name := fmt.Sprintf("write=%v %s", tc.write, tc.path)
		var err error
		if tc.write {
			_, err = x.agent.WriteTextFile(c, sdk.WriteTextFileRequest{SessionId: "s1", Path: tc.path, Content: "data"})
		} else {
			var r sdk.ReadTextFileResponse
			r, err = x.agent.ReadTextFile(c, sdk.ReadTextFileRequest{SessionId: "s1", Path: tc.path})
			if err == nil && r.Content != "content of "+tc.path {
				t.Errorf("%s: content %q", name, r.Content)
			}
		}
		x.editor.mu.Lock()
		seen := strings.Contains(strings.Join(x.editor.reads, "\n")+"\n"+strings.Join(x.editor.writes, "\n"), tc.path)
		x.editor.mu.Unlock()
		if seen != tc.forward {
			t.Errorf("%s: the editor saw it: %v, want %v", name, seen, tc.forward)
		}
		if tc.forward {
			if err != nil {
				t.Errorf("%s: %v", name, err)
			}
			continue
		}
		code, data := requestError(t, err)
		if code != tc.code {
			t.Errorf("%s: code %d, want %d (%v)", name, code, tc.code, err)
		}
		if tc.rule != "" && !strings.Contains(fmt.Sprint(data["reasons"]), tc.rule) {
			t.Errorf("%s: reasons %v lack %s", name, data["reasons"], tc.rule)
		}
	}
	x.editor.mu.Lock()
	defer x.editor.mu.Unlock()
	if len(x.editor.perms) != 1 || !strings.Contains(*x.editor.perms[0].ToolCall.Title, "outside.txt") {
		t.Errorf("permission requests: %d, want 1 for the file outside the root", len(x.editor.perms))
	}
}

// textOf returns the text of the tool-call content items of a
// session/update.
func textOf(n sdk.SessionNotification) string {
	var items []sdk.ToolCallContent
	switch {
	case n.Update.ToolCall != nil:
		items = n.Update.ToolCall.Content
	case n.Update.ToolCallUpdate != nil:
		items = n.Update.ToolCallUpdate.Content
	}
	var b strings.Builder
	for _, it := range items {
		if it.Content != nil && it.Content.Content.Text != nil {
			b.WriteString(it.Content.Content.Text.Text)
		}
		if it.Terminal != nil {
			b.WriteString("<terminal " + it.Terminal.TerminalId + ">")
		}
	}
	return b.String()
}

func TestProxyShowsTerminalOutput(t *testing.T) {
	t.Parallel()
	x := startProxy(t)
	c := ctx(t)
	ct, err := x.agent.CreateTerminal(c, sdk.CreateTerminalRequest{SessionId: "s1", Command: "echo first; sleep 0.4; echo second; exit 3"})
	if err != nil {
		t.Fatal(err)
	}
	err = x.agent.SessionUpdate(c, sdk.SessionNotification{SessionId: "s1", Update: sdk.StartToolCall("call_1", "Run it",
		sdk.WithStartKind(sdk.ToolKindExecute), sdk.WithStartContent([]sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock("before")), sdk.ToolTerminalRef(ct.TerminalId)}))})
	if err != nil {
		t.Fatal(err)
	}
	x.agent.SessionUpdate(c, sdk.SessionNotification{SessionId: "s1", Update: sdk.UpdateAgentMessageText("plain <text> & more")})
	x.agent.WaitForTerminalExit(c, sdk.WaitForTerminalExitRequest{SessionId: "s1", TerminalId: ct.TerminalId})
	var texts []string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		x.editor.mu.Lock()
		texts = texts[:0]
		for _, u := range x.editor.updates {
			texts = append(texts, textOf(u))
		}
		n := len(x.editor.updates)
		last := x.editor.updates[n-1]
		x.editor.mu.Unlock()
		if strings.Contains(textOf(last), "exit code 3") {
			break
		}
	}
	if len(texts) < 3 {
		t.Fatalf("updates %q: want the tool call, the message and a final update", texts)
	}
	first := texts[0]
	if !strings.Contains(first, "before") || !strings.Contains(first, "$ echo first; sleep 0.4; echo second; exit 3") || strings.Contains(first, "<terminal") {
		t.Errorf("the tool call shows %q", first)
	}
	final := texts[len(texts)-1]
	if !strings.Contains(final, "first\nsecond\n") || !strings.Contains(final, "exit code 3") || !strings.Contains(final, "before") {
		t.Errorf("the last update shows %q", final)
	}
	x.editor.mu.Lock()
	defer x.editor.mu.Unlock()
	msg := x.editor.updates[1].Update.AgentMessageChunk
	if msg == nil || msg.Content.Text == nil || msg.Content.Text.Text != "plain <text> & more" {
		t.Errorf("a plain update changed: %+v", x.editor.updates[1].Update)
	}
}

func TestProxyAgentCrashEndsCommands(t *testing.T) {
	t.Parallel()
	x := startProxy(t)
	c := ctx(t)
	if _, err := x.agent.CreateTerminal(c, sdk.CreateTerminalRequest{SessionId: "s1", Command: "sleep 31.4001"}); err != nil {
		t.Fatal(err)
	}
	waitProc(t, "sleep 31.4001")
	x.closeAgent()
	select {
	case err := <-x.done:
		x.done <- err
		if !errors.Is(err, acp.ErrAgentClosed) {
			t.Errorf("Run: %v, want ErrAgentClosed", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return when the agent ended")
	}
	if findProc("sleep 31.4001") {
		t.Error("a command outlived its agent")
	}
}

func TestProxyEditorCloseEndsAgentAndCommands(t *testing.T) {
	t.Parallel()
	x := startProxy(t)
	c := ctx(t)
	if _, err := x.agent.CreateTerminal(c, sdk.CreateTerminalRequest{SessionId: "s1", Command: "sleep 31.4002"}); err != nil {
		t.Fatal(err)
	}
	waitProc(t, "sleep 31.4002")
	x.closeEditor()
	select {
	case err := <-x.done:
		x.done <- err
		if !errors.Is(err, acp.ErrEditorClosed) {
			t.Errorf("Run: %v, want ErrEditorClosed", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return when the editor ended")
	}
	select {
	case <-x.agent.Done(): // the agent's input ended
	case <-time.After(5 * time.Second):
		t.Error("the agent's input was not closed")
	}
	if findProc("sleep 31.4002") {
		t.Error("a command outlived the editor")
	}
}

// raw is a Proxy driven with raw JSON lines on both sides.
type raw struct {
	root       string
	toProxyE   io.Writer      // as the editor
	toProxyA   io.Writer      // as the agent
	fromProxyE *bufio.Scanner // what the editor gets
	fromProxyA *bufio.Scanner // what the agent gets
}

func startRaw(t *testing.T) *raw {
	t.Helper()
	root := project(t)
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	eToPR, eToPW := io.Pipe()
	pToER, pToEW := io.Pipe()
	pToAR, pToAW := io.Pipe()
	aToPR, aToPW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		(&acp.Proxy{Guard: g}).Run(ctx, eToPR, pToEW, pToAW, aToPR)
		pToEW.Close()
		close(done)
	}()
	t.Cleanup(func() {
		cancel()
		eToPW.Close()
		aToPW.Close()
		pToER.Close() // a write the test did not read fails
		pToAR.Close()
		<-done
		g.Close(context.Background())
	})
	return &raw{root: root, toProxyE: eToPW, toProxyA: aToPW, fromProxyE: bufio.NewScanner(pToER), fromProxyA: bufio.NewScanner(pToAR)}
}

// next reads one line from s within a bound.
func next(t *testing.T, s *bufio.Scanner) string {
	t.Helper()
	ch := make(chan string, 1)
	go func() {
		if s.Scan() {
			ch <- s.Text()
		} else {
			ch <- "<EOF>"
		}
	}()
	select {
	case l := <-ch:
		return l
	case <-time.After(10 * time.Second):
		t.Fatal("no message within 10s")
		return ""
	}
}

// send writes one line to w within a bound (the pipes have no buffer: a
// proxy stuck on a write the test does not read blocks it).
func send(t *testing.T, w io.Writer, line string) {
	t.Helper()
	errc := make(chan error, 1)
	go func() {
		_, err := io.WriteString(w, line+"\n")
		errc <- err
	}()
	select {
	case err := <-errc:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("could not send %s within 10s", line)
	}
}

func TestProxyForwardsUntouched(t *testing.T) {
	t.Parallel()
	r := startRaw(t)
	// editor to agent: byte for byte
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/x","mcpServers":[]}}`,
		`{"jsonrpc": "2.0", "method": "session/cancel", "params": {"sessionId": "s<1>"}}`,
		`{"jsonrpc":"2.0","id":"cmdguard-1","result":{"x":1}}`, // an agent's own id shaped like ours
		`not json at all`,
	} {
		send(t, r.toProxyE, line)
		if got := next(t, r.fromProxyA); got != line {
			t.Errorf("editor→agent changed:\n got %s\nwant %s", got, line)
		}
	}
	// agent to editor: the same JSON, top level in a fixed order
	for _, line := range []string{
		`{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"<b> & é \u2028"}}}}`,
		`{"id":3,"jsonrpc":"2.0","result":{"stopReason":"end_turn"}}`,
		`{"jsonrpc":"2.0","id":4,"error":{"code":-32603,"message":"x"}}`,
	} {
		send(t, r.toProxyA, line)
		got := next(t, r.fromProxyE)
		var a, b any
		json.Unmarshal([]byte(line), &a)
		if err := json.Unmarshal([]byte(got), &b); err != nil {
			t.Fatalf("agent→editor: %q is not JSON", got)
		}
		if diff := cmp.Diff(a, b); diff != "" {
			t.Errorf("agent→editor changed (-want +got):\n%s", diff)
		}
	}
}

func TestProxySmuggling(t *testing.T) {
	t.Parallel()
	r := startRaw(t)
	env := filepath.Join(r.root, ".env")
	// Two "method" keys: the editor must see the one the proxy judged.
	send(t, r.toProxyA, `{"jsonrpc":"2.0","id":5,"method":"fs/read_text_file","method":"session/update","params":{"sessionId":"s1","path":"`+env+`"}}`)
	got := next(t, r.fromProxyE)
	if strings.Count(got, `"method"`) != 1 || strings.Contains(got, "fs/read_text_file") {
		t.Errorf("the editor got %s", got)
	}
	// Go reads keys without regard to case; the editor gets the method
	// in its own spelling, after the check.
	send(t, r.toProxyA, `{"jsonrpc":"2.0","id":6,"METHOD":"fs/read_text_file","params":{"sessionId":"s1","path":"`+env+`"}}`)
	got = next(t, r.fromProxyA)
	if !strings.Contains(got, `"id":6`) || !strings.Contains(got, fmt.Sprint(acp.CodeRefused)) {
		t.Errorf("the agent got %s, want a refusal of id 6", got)
	}
	// Duplicate path keys: the editor gets the path that was checked.
	send(t, r.toProxyA, `{"jsonrpc":"2.0","id":7,"method":"fs/read_text_file","params":{"sessionId":"s1","path":"`+env+`","path":"`+filepath.Join(r.root, "a.txt")+`"}}`)
	got = next(t, r.fromProxyE)
	if strings.Contains(got, ".env") || strings.Count(got, `"path"`) != 1 {
		t.Errorf("the editor got %s", got)
	}
	// A terminal or fs method without an id is not served, nor passed on.
	send(t, r.toProxyA, `{"jsonrpc":"2.0","method":"terminal/create","params":{"sessionId":"s1","command":"echo started > started"}}`)
	send(t, r.toProxyA, `{"jsonrpc":"2.0","method":"fs/read_text_file","params":{"sessionId":"s1","path":"`+env+`"}}`)
	// What is not one JSON object is not passed on.
	send(t, r.toProxyA, `{"jsonrpc":"2.0","id":8,"method":"fs/read_text_file"}{"x":1}`)
	send(t, r.toProxyA, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"after"}}}}`)
	if got = next(t, r.fromProxyE); !strings.Contains(got, "after") {
		t.Errorf("the editor got %s, want the bad line dropped", got)
	}
}

func TestProxyCancelRequest(t *testing.T) {
	t.Parallel()
	r := startRaw(t)
	send(t, r.toProxyA, `{"jsonrpc":"2.0","id":1,"method":"terminal/create","params":{"sessionId":"s1","command":"sleep 30"}}`)
	var created struct {
		Result struct {
			TerminalID string `json:"terminalId"`
		} `json:"result"`
	}
	line := next(t, r.fromProxyA)
	if json.Unmarshal([]byte(line), &created); created.Result.TerminalID == "" {
		t.Fatalf("create: %s", line)
	}
	send(t, r.toProxyA, `{"jsonrpc":"2.0","id":"w","method":"terminal/wait_for_exit","params":{"sessionId":"s1","terminalId":"`+created.Result.TerminalID+`"}}`)
	time.Sleep(50 * time.Millisecond)
	send(t, r.toProxyA, `{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":"w"}}`)
	if got := next(t, r.fromProxyA); !strings.Contains(got, `"id":"w"`) || !strings.Contains(got, "-32800") {
		t.Errorf("cancelled wait: %s", got)
	}
	// the cancel was the proxy's: the editor sees the next message only
	send(t, r.toProxyA, `{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"next"}}}}`)
	if got := next(t, r.fromProxyE); strings.Contains(got, "cancel") {
		t.Errorf("the editor got %s", got)
	}
}

func TestProxyAskCancelledByAgent(t *testing.T) {
	t.Parallel()
	r := startRaw(t)
	send(t, r.toProxyA, `{"jsonrpc":"2.0","id":"c1","method":"terminal/create","params":{"sessionId":"s1","command":"touch asked"}}`)
	var perm struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	line := next(t, r.fromProxyE)
	if json.Unmarshal([]byte(line), &perm); perm.Method != "session/request_permission" {
		t.Fatalf("the editor got %s, want a permission request", line)
	}
	send(t, r.toProxyA, `{"jsonrpc":"2.0","method":"$/cancel_request","params":{"requestId":"c1"}}`)
	if got := next(t, r.fromProxyE); !strings.Contains(got, `"method":"$/cancel_request"`) || !strings.Contains(got, string(perm.ID)) {
		t.Errorf("the editor got %s, want its prompt cancelled", got)
	}
	if got := next(t, r.fromProxyE); !strings.Contains(got, `"status":"failed"`) {
		t.Errorf("the editor got %s, want the ask's tool call failed", got)
	}
	if got := next(t, r.fromProxyA); !strings.Contains(got, `"id":"c1"`) || !strings.Contains(got, fmt.Sprint(acp.CodeRefused)) {
		t.Errorf("the agent got %s, want a refusal", got)
	}
	// a late answer (its id spelled with an escape) is the proxy's, not the agent's
	late := strings.Replace(string(perm.ID), "c", `\u0063`, 1)
	send(t, r.toProxyE, `{"jsonrpc":"2.0","id":`+late+`,"result":{"outcome":{"outcome":"selected","optionId":"allow_once"}}}`)
	send(t, r.toProxyE, `{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s1"}}`)
	if got := next(t, r.fromProxyA); !strings.Contains(got, "session/cancel") {
		t.Errorf("the agent got %s, want the late answer kept from it", got)
	}
	if _, err := os.Stat(filepath.Join(r.root, "asked")); err == nil {
		t.Error("a cancelled ask ran")
	}
}
