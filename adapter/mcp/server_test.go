package mcp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cmdguard/cmdguard/adapter/mcp"
)

// testPolicy allows most things, asks for touch, denies rm, and ignores
// .env.
const testPolicy = `version: 1
default: ask
allow: [echo, printf, cat, seq, sleep, pwd, ls, "true", "false", kill, sh, head, bash, exit]
ask: [touch]
deny: [rm]
ignore: [.env]
`

// result is the union of the tools' structured results.
type result struct {
	ID           string              `json:"id"`
	Decision     string              `json:"decision"`
	Reasons      []mcp.Reason        `json:"reasons"`
	Summary      string              `json:"summary"`
	Status       string              `json:"status"`
	ExitCode     *int                `json:"exit_code"`
	Signal       *string             `json:"signal"`
	Stdout       string              `json:"stdout"`
	Stderr       string              `json:"stderr"`
	Truncated    bool                `json:"truncated"`
	StdoutOffset int64               `json:"stdout_offset"`
	StderrOffset int64               `json:"stderr_offset"`
	Written      int                 `json:"written"`
	Cwd          string              `json:"cwd"`
	Note         string              `json:"note"`
	Explain      string              `json:"explain"`
	IsError      bool                `json:"-"`
	Text         string              `json:"-"`
	Raw          *sdk.CallToolResult `json:"-"`
}

func exists(dir, name string) bool {
	_, err := os.Stat(filepath.Join(dir, name))
	return err == nil
}

func TestListTools(t *testing.T) {
	t.Parallel()
	cs := connect(t, project(t, testPolicy), nil, nil, mcp.Options{})
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{ // tool -> required inputs
		"run_command": {"command"}, "start_command": {"command"}, "read_output": {"id"},
		"write_stdin": {"id", "input"}, "kill_command": {"id"}, "check_command": {"command"},
	}
	for _, tool := range res.Tools {
		req, ok := want[tool.Name]
		if !ok {
			t.Errorf("unexpected tool %q", tool.Name)
			continue
		}
		delete(want, tool.Name)
		if len(tool.Description) < 40 {
			t.Errorf("%s: description %q is too short for a model to follow", tool.Name, tool.Description)
		}
		b, _ := json.Marshal(tool.InputSchema)
		var schema struct {
			Required   []string                  `json:"required"`
			Properties map[string]map[string]any `json:"properties"`
		}
		json.Unmarshal(b, &schema)
		if strings.Join(schema.Required, ",") != strings.Join(req, ",") {
			t.Errorf("%s: required %v, want %v", tool.Name, schema.Required, req)
		}
		for name, p := range schema.Properties {
			if d, _ := p["description"].(string); d == "" {
				t.Errorf("%s: input %q has no description", tool.Name, name)
			}
		}
		if tool.OutputSchema == nil {
			t.Errorf("%s: no output schema", tool.Name)
		}
	}
	if len(want) > 0 {
		t.Errorf("missing tools: %v", want)
	}
}

func TestRunCommand(t *testing.T) {
	t.Parallel()
	dir := project(t, testPolicy)
	cs := connect(t, dir, nil, nil, mcp.Options{})
	r := call(t, cs, "run_command", map[string]any{"command": "echo hi; echo err >&2; printf '\\033[31mred\\033[0m\\n'; exit 3"})
	if r.IsError || r.Decision != "allow" || r.Status != "completed" || r.ExitCode == nil || *r.ExitCode != 3 || r.Signal != nil {
		t.Fatalf("run_command: %+v\n%s", r, r.Text)
	}
	if r.Stdout != "hi\nred\n" || r.Stderr != "err\n" || r.Truncated || r.Cwd != dir {
		t.Errorf("stdout %q stderr %q truncated %v cwd %q; want hi\\nred\\n (ANSI stripped), err\\n, false, %q", r.Stdout, r.Stderr, r.Truncated, r.Cwd, dir)
	}
	if !strings.Contains(r.Text, `"exit_code":3`) {
		t.Errorf("text content lacks the JSON result: %s", r.Text)
	}

	r = call(t, cs, "run_command", map[string]any{"command": "kill -KILL $$"})
	if r.IsError || r.Status != "completed" || r.ExitCode != nil || r.Signal == nil || *r.Signal != "SIGKILL" {
		t.Errorf("killed by a signal: %+v", r)
	}

	r = call(t, cs, "run_command", map[string]any{"command": "pwd", "cwd": "sub"})
	if r.IsError || r.Stdout != filepath.Join(dir, "sub")+"\n" {
		t.Errorf("cwd sub: %+v\n%s", r, r.Text)
	}
}

func TestRunCommandRefused(t *testing.T) {
	t.Parallel()
	dir := project(t, testPolicy)
	cs := connect(t, dir, nil, nil, mcp.Options{})
	for _, tc := range []struct{ command, rule string }{
		{"echo x > ran; cat .env", "ignore.denied"},
		{"echo x > ran; rm -r sub", "policy.deny"},
		{"echo x > ran; echo $(cat .env)", "parser.command_substitution"},
	} {
		r := call(t, cs, "run_command", map[string]any{"command": tc.command})
		if !r.IsError || r.Decision != "deny" || r.Status != "refused" {
			t.Errorf("%q: isError %v decision %q status %q; want true, deny, refused\n%s", tc.command, r.IsError, r.Decision, r.Status, r.Text)
		}
		if !strings.Contains(r.Text, "refused") || !strings.Contains(r.Text, tc.rule) || !strings.Contains(r.Text, "hint:") {
			t.Errorf("%q: the text does not say what was refused, by which rule (%s) and what would change it:\n%s", tc.command, tc.rule, r.Text)
		}
		found := false
		for _, re := range r.Reasons {
			found = found || re.Rule == tc.rule
		}
		if !found {
			t.Errorf("%q: reasons %+v lack %s", tc.command, r.Reasons, tc.rule)
		}
		if exists(dir, "ran") {
			t.Fatalf("%q: a refused command ran", tc.command)
		}
	}
}

func TestCwdOutsideRoot(t *testing.T) {
	t.Parallel()
	dir := project(t, testPolicy)
	if err := os.Symlink(t.TempDir(), filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, dir, nil, nil, mcp.Options{})
	for _, cwd := range []string{"/", "..", "sub/../..", "link", filepath.Join(dir, "link"), "nonexistent", "sub/f.txt"} {
		for _, tool := range []string{"run_command", "start_command"} {
			r := call(t, cs, tool, map[string]any{"command": "echo x > ran", "cwd": cwd})
			if !r.IsError || r.Status != "refused" {
				t.Errorf("%s cwd %q: isError %v status %q, want a refusal\n%s", tool, cwd, r.IsError, r.Status, r.Text)
			}
		}
		r := call(t, cs, "check_command", map[string]any{"command": "echo x", "cwd": cwd})
		if r.Decision != "deny" {
			t.Errorf("check_command cwd %q: %q, want deny", cwd, r.Decision)
		}
	}
	if exists(dir, "ran") || exists(dir, "link/ran") || exists(dir, "../ran") {
		t.Fatal("a command ran outside the project")
	}
}

func TestRunCommandTimeout(t *testing.T) {
	t.Parallel()
	cs := connect(t, project(t, testPolicy), nil, nil, mcp.Options{})
	r := call(t, cs, "run_command", map[string]any{"command": "echo started; sleep 30", "timeout": 0.3})
	if r.IsError || r.Status != "timed_out" || r.Stdout != "started\n" || r.Signal == nil {
		t.Errorf("timeout: %+v", r)
	}
	r = call(t, cs, "run_command", map[string]any{"command": "true", "timeout": 1e6})
	if !r.IsError || !strings.Contains(r.Text, "hard_timeout") {
		t.Errorf("a timeout beyond the policy's cap: %+v\n%s", r, r.Text)
	}
}

func TestRunCommandOutputLimit(t *testing.T) {
	t.Parallel()
	dir := project(t, testPolicy+"exec: {model_output_limit: 1000}\n")
	if err := os.WriteFile(filepath.Join(dir, "big.txt"), []byte(strings.Repeat("é", 3001)), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, dir, nil, nil, mcp.Options{})
	r := call(t, cs, "run_command", map[string]any{"command": "seq 1 100000"})
	if r.IsError || !r.Truncated || r.StdoutOffset != 588895 {
		t.Fatalf("seq: truncated %v, stdout_offset %d; want true, 588895\n%.300s", r.Truncated, r.StdoutOffset, r.Text)
	}
	if !strings.HasPrefix(r.Stdout, "1\n2\n3\n") || !strings.HasSuffix(r.Stdout, "\n99999\n100000\n") || !strings.Contains(r.Stdout, "bytes of output omitted") {
		t.Errorf("want the head, a marked cut and the tail:\n%s", r.Stdout)
	}
	if n := len(r.Stdout); n > 1100 {
		t.Errorf("%d bytes shown, want about the limit of 1000", n)
	}
	// A multi-byte character is never cut in half.
	r = call(t, cs, "run_command", map[string]any{"command": "cat big.txt"})
	if r.IsError || !r.Truncated || r.StdoutOffset != 6002 || !strings.HasPrefix(r.Stdout, "éé") || !strings.HasSuffix(r.Stdout, "éé") {
		t.Errorf("3001 é: %+v\n%s", r, r.Text)
	}
	if strings.ContainsRune(r.Stdout, '\uFFFD') {
		t.Errorf("a character was cut: %q", r.Stdout)
	}
}

func TestStartReadWriteKill(t *testing.T) {
	t.Parallel()
	dir := project(t, testPolicy)
	cs := connect(t, dir, nil, nil, mcp.Options{})
	r := call(t, cs, "start_command", map[string]any{"command": "cat; echo done >&2"})
	if r.IsError || r.ID == "" || r.Status != "running" || r.Decision != "allow" {
		t.Fatalf("start_command: %+v\n%s", r, r.Text)
	}
	id := r.ID
	w := call(t, cs, "write_stdin", map[string]any{"id": id, "input": "hello\n"})
	if w.IsError || w.Written != 6 {
		t.Fatalf("write_stdin: %+v\n%s", w, w.Text)
	}
	r = call(t, cs, "read_output", map[string]any{"id": id, "wait": 10})
	if r.IsError || r.Stdout != "hello\n" || r.Status != "running" || r.StdoutOffset != 6 {
		t.Fatalf("read_output: %+v\n%s", r, r.Text)
	}
	// Without wait it answers at once, with nothing new.
	r = call(t, cs, "read_output", map[string]any{"id": id, "stdout_offset": 6})
	if r.IsError || r.Stdout != "" || r.Status != "running" {
		t.Fatalf("read_output without wait: %+v\n%s", r, r.Text)
	}
	w = call(t, cs, "write_stdin", map[string]any{"id": id, "input": "bye\n", "close_stdin": true})
	if w.IsError {
		t.Fatalf("write_stdin close: %+v\n%s", w, w.Text)
	}
	so, se := int64(6), int64(0)
	var out, errOut string
	for deadline := time.Now().Add(20 * time.Second); ; {
		r = call(t, cs, "read_output", map[string]any{"id": id, "stdout_offset": so, "stderr_offset": se, "wait": 5})
		out, errOut, so, se = out+r.Stdout, errOut+r.Stderr, r.StdoutOffset, r.StderrOffset
		if r.Status != "running" || time.Now().After(deadline) {
			break
		}
	}
	if r.Status != "completed" || r.ExitCode == nil || *r.ExitCode != 0 || out != "bye\n" || errOut != "done\n" {
		t.Errorf("after close_stdin: %+v, stdout %q stderr %q", r, out, errOut)
	}

	r = call(t, cs, "start_command", map[string]any{"command": "echo up; sleep 60"})
	if r.IsError {
		t.Fatal(r.Text)
	}
	k := call(t, cs, "kill_command", map[string]any{"id": r.ID})
	if k.IsError || k.Status != "killed" || k.Signal == nil || *k.Signal != "SIGTERM" {
		t.Errorf("kill_command: %+v\n%s", k, k.Text)
	}
	k = call(t, cs, "kill_command", map[string]any{"id": r.ID, "signal": "SIGSTOP"})
	if !k.IsError {
		t.Errorf("kill_command SIGSTOP: not refused: %+v", k)
	}

	for tool, args := range map[string]map[string]any{"read_output": {"id": "c999"}, "write_stdin": {"id": "c999", "input": "x"}, "kill_command": {"id": "c999"}} {
		r := call(t, cs, tool, args)
		if !r.IsError || !strings.Contains(r.Text, "no command with id") {
			t.Errorf("%s of an unknown id: %+v\n%s", tool, r, r.Text)
		}
	}
	r = call(t, cs, "start_command", map[string]any{"command": "touch x; cat .env"})
	if !r.IsError || r.ID != "" || r.Status != "refused" || exists(dir, "x") {
		t.Errorf("start_command of a denied command: %+v\n%s", r, r.Text)
	}
}

func TestStartCommandLimit(t *testing.T) {
	t.Parallel()
	cs := connect(t, project(t, testPolicy), nil, nil, mcp.Options{MaxCommands: 2})
	for i := 0; i < 2; i++ {
		if r := call(t, cs, "start_command", map[string]any{"command": "sleep 60"}); r.IsError {
			t.Fatal(r.Text)
		}
	}
	r := call(t, cs, "start_command", map[string]any{"command": "sleep 60"})
	if !r.IsError || !strings.Contains(r.Text, "kill_command") {
		t.Errorf("a third command with two running: %+v\n%s", r, r.Text)
	}
	call(t, cs, "kill_command", map[string]any{"id": "c1"})
	if r := call(t, cs, "start_command", map[string]any{"command": "sleep 60"}); r.IsError {
		t.Errorf("after a kill there is room: %s", r.Text)
	}
}

func TestCheckCommand(t *testing.T) {
	t.Parallel()
	dir := project(t, testPolicy)
	cs := connect(t, dir, nil, nil, mcp.Options{})
	for _, tc := range []struct{ command, decision, rule string }{
		{"cat .env", "deny", "ignore.denied"},
		{"touch x", "ask", "policy.ask"},
		{"echo hi", "allow", ""},
	} {
		r := call(t, cs, "check_command", map[string]any{"command": tc.command})
		if r.IsError || r.Decision != tc.decision || !strings.HasPrefix(r.Summary, tc.decision) {
			t.Errorf("check %q: %+v, want %s", tc.command, r, tc.decision)
		}
		if tc.rule != "" && (len(r.Reasons) == 0 || r.Reasons[0].Rule != tc.rule || r.Reasons[0].Pos.Line != 1 || r.Reasons[0].Hint == "") {
			t.Errorf("check %q: reasons %+v, want %s first with a position and a hint", tc.command, r.Reasons, tc.rule)
		}
	}
	if exists(dir, "x") {
		t.Error("check_command ran the command")
	}
}

func TestAskWithoutElicitation(t *testing.T) {
	t.Parallel()
	for _, version := range []string{"", "2025-11-25"} {
		dir := project(t, testPolicy)
		cs := connect(t, dir, nil, &sdk.ClientSessionOptions{ProtocolVersion: version}, mcp.Options{})
		r := call(t, cs, "run_command", map[string]any{"command": "touch x"})
		if !r.IsError || r.Decision != "ask" || !strings.Contains(r.Text, "elicitation") || !strings.Contains(r.Text, "policy.ask") {
			t.Errorf("protocol %q: ask without elicitation: %+v\n%s", version, r, r.Text)
		}
		if exists(dir, "x") {
			t.Errorf("protocol %q: an ask ran without approval", version)
		}
	}
}

// asker is a client elicitation handler giving a fixed answer.
type asker struct {
	mu       sync.Mutex
	action   string
	answer   string
	messages []string
	enums    [][]any
}

func (a *asker) handle(_ context.Context, req *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.messages = append(a.messages, req.Params.Message)
	b, _ := json.Marshal(req.Params.RequestedSchema)
	var schema struct {
		Properties map[string]struct {
			Enum []any `json:"enum"`
		} `json:"properties"`
	}
	json.Unmarshal(b, &schema)
	a.enums = append(a.enums, schema.Properties["answer"].Enum)
	if a.action != "accept" {
		return &sdk.ElicitResult{Action: a.action}, nil
	}
	return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"answer": a.answer}}, nil
}

func TestAskElicitation(t *testing.T) {
	t.Parallel()
	for _, version := range []string{"", "2025-11-25"} { // multi-round-trip, and elicitation/create
		for _, tc := range []struct {
			action, answer string
			ran            bool
		}{
			{"accept", "once", true},
			{"accept", "always", true},
			{"accept", "no", false},
			{"decline", "", false},
			{"cancel", "", false},
		} {
			t.Run(version+"/"+tc.action+"/"+tc.answer, func(t *testing.T) {
				t.Parallel()
				dir := project(t, testPolicy)
				a := &asker{action: tc.action, answer: tc.answer}
				cs := connect(t, dir, &sdk.ClientOptions{ElicitationHandler: a.handle}, &sdk.ClientSessionOptions{ProtocolVersion: version}, mcp.Options{})
				r := call(t, cs, "run_command", map[string]any{"command": "touch made"})
				if len(a.messages) != 1 || !strings.Contains(a.messages[0], "touch made") || !strings.Contains(a.messages[0], "policy.ask") {
					t.Fatalf("the person was asked %d times: %q", len(a.messages), a.messages)
				}
				if got := exists(dir, "made"); got != tc.ran {
					t.Fatalf("ran %v, want %v: %+v\n%s", got, tc.ran, r, r.Text)
				}
				if tc.ran && (r.IsError || r.Status != "completed" || r.Decision != "ask") {
					t.Errorf("approved: %+v\n%s", r, r.Text)
				}
				want := "declined"
				if tc.action == "cancel" {
					want = "cancelled"
				}
				if !tc.ran && (!r.IsError || !strings.Contains(r.Text, want)) {
					t.Errorf("declined: %+v\n%s", r, r.Text)
				}
				pol, _ := os.ReadFile(filepath.Join(dir, ".cmdguard.yaml"))
				if added := strings.Contains(string(pol), "touch made"); added != (tc.answer == "always") {
					t.Errorf("policy has touch made: %v, want %v:\n%s", added, tc.answer == "always", pol)
				}
				if tc.answer == "always" && !strings.Contains(r.Note, "touch made") {
					t.Errorf("the result does not say what was added: %q", r.Note)
				}
			})
		}
	}
}

// TestAskStartCommand: start_command asks too, and starts only when
// approved.
func TestAskStartCommand(t *testing.T) {
	t.Parallel()
	for _, answer := range []string{"once", "no"} {
		dir := project(t, testPolicy)
		a := &asker{action: "accept", answer: answer}
		cs := connect(t, dir, &sdk.ClientOptions{ElicitationHandler: a.handle}, nil, mcp.Options{})
		r := call(t, cs, "start_command", map[string]any{"command": "touch made"})
		if len(a.messages) != 1 {
			t.Fatalf("%s: asked %d times", answer, len(a.messages))
		}
		if answer == "no" {
			if !r.IsError || r.ID != "" || exists(dir, "made") {
				t.Errorf("declined start_command: %+v\n%s", r, r.Text)
			}
			continue
		}
		if r.IsError || r.ID == "" {
			t.Fatalf("approved start_command: %+v\n%s", r, r.Text)
		}
		r = call(t, cs, "read_output", map[string]any{"id": r.ID, "wait": 10})
		if r.Status != "completed" || !exists(dir, "made") {
			t.Errorf("approved start_command did not run: %+v", r)
		}
	}
}

// TestAskAlwaysNotOffered: without a policy file (the embedded default),
// "always" cannot be written anywhere, so it is not offered, and an
// "always" answer is not accepted.
func TestAskAlwaysNotOffered(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	a := &asker{action: "accept", answer: "once"}
	cs := connect(t, dir, &sdk.ClientOptions{ElicitationHandler: a.handle}, nil, mcp.Options{})
	r := call(t, cs, "run_command", map[string]any{"command": "touch made"})
	if len(a.enums) != 1 || len(a.enums[0]) != 2 || !exists(dir, "made") {
		t.Errorf("offered %v, want once and no; ran: %v", a.enums, exists(dir, "made"))
	}
	// A client that answers "always" anyway is refused.
	raw := connect(t, dir, &sdk.ClientOptions{MultiRoundTrip: &sdk.MultiRoundTripOptions{Disabled: true}, ElicitationHandler: a.handle}, nil, mcp.Options{})
	r = call(t, raw, "run_command", map[string]any{"command": "touch made2"})
	always := sdk.InputResponseMap{"cmdguard_approval": &sdk.ElicitResult{Action: "accept", Content: map[string]any{"answer": "always"}}}
	r = callParams(t, raw, &sdk.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": "touch made2"}, InputResponses: always, RequestState: r.Raw.RequestState})
	if exists(dir, "made2") || !r.IsError {
		t.Errorf("an answer that was not offered was taken: %+v\n%s", r, r.Text)
	}
}

// TestForgedApproval: an approval the server did not ask for, or asked
// for another command, is refused.
func TestForgedApproval(t *testing.T) {
	t.Parallel()
	dir := project(t, testPolicy)
	var mu sync.Mutex
	var state string
	cs := connect(t, dir, &sdk.ClientOptions{
		MultiRoundTrip: &sdk.MultiRoundTripOptions{Disabled: true},
		ElicitationHandler: func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
			return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"answer": "once"}}, nil
		},
	}, nil, mcp.Options{})
	yes := sdk.InputResponseMap{"cmdguard_approval": &sdk.ElicitResult{Action: "accept", Content: map[string]any{"answer": "once"}}}

	r := callParams(t, cs, &sdk.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": "touch a"}, InputResponses: yes, RequestState: "0123456789abcdef0123456789abcdef"})
	if !r.IsError || exists(dir, "a") {
		t.Fatalf("a forged answer ran the command: %+v\n%s", r, r.Text)
	}
	// A real question for touch b, answered for touch a.
	r = call(t, cs, "run_command", map[string]any{"command": "touch b"})
	if !r.Raw.NeedsInput() || r.Raw.RequestState == "" {
		t.Fatalf("want an input request: %+v", r.Raw)
	}
	mu.Lock()
	state = r.Raw.RequestState
	mu.Unlock()
	r = callParams(t, cs, &sdk.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": "touch a"}, InputResponses: yes, RequestState: state})
	if !r.IsError || exists(dir, "a") || !strings.Contains(r.Text, "different command") {
		t.Fatalf("an answer for another command ran it: %+v\n%s", r, r.Text)
	}
	// The question was used up by the wrong answer: the right one is late.
	r = callParams(t, cs, &sdk.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": "touch b"}, InputResponses: yes, RequestState: state})
	if !r.IsError || exists(dir, "b") {
		t.Fatalf("a used question was answered: %+v\n%s", r, r.Text)
	}
	// A fresh question, answered properly, runs it once; the same answer
	// again does not.
	r = call(t, cs, "run_command", map[string]any{"command": "touch b"})
	r = callParams(t, cs, &sdk.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": "touch b"}, InputResponses: yes, RequestState: r.Raw.RequestState})
	if r.IsError || !exists(dir, "b") {
		t.Fatalf("a proper answer: %+v\n%s", r, r.Text)
	}
	os.Remove(filepath.Join(dir, "b"))
	r = callParams(t, cs, &sdk.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": "touch b"}, InputResponses: yes, RequestState: r.Raw.RequestState})
	if !r.IsError || exists(dir, "b") {
		t.Fatalf("an answer was used twice: %+v\n%s", r, r.Text)
	}
	// An approval does not lift a deny.
	r = call(t, cs, "run_command", map[string]any{"command": "touch c; cat .env"})
	if r.Raw.NeedsInput() || !r.IsError || exists(dir, "c") {
		t.Fatalf("a deny asked or ran: %+v\n%s", r, r.Text)
	}
}

func TestNoGuard(t *testing.T) {
	t.Parallel()
	if _, err := mcp.New(nil, mcp.Options{}); err == nil {
		t.Error("New(nil) did not fail")
	}
}

// TestSandboxOption: with Options.Sandbox (cmdguard mcp --sandbox)
// run_command and start_command run under the policy's kernel sandbox: a
// project script the gate cannot see into reads an empty .env; without
// it, the secret.
func TestSandboxOption(t *testing.T) {
	t.Parallel()
	for _, sandbox := range []bool{false, true} {
		dir := project(t, "version: 1\ndefault: allow\nignore: [.env]\n")
		if err := os.WriteFile(filepath.Join(dir, "show.sh"), []byte("cat .env\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		cs := connect(t, dir, nil, nil, mcp.Options{Sandbox: sandbox, BaseEnv: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}})
		r := call(t, cs, "run_command", map[string]any{"command": "bash show.sh"})
		if r.IsError || r.Decision != "allow" {
			t.Fatalf("Sandbox %v: run_command: %+v\n%s", sandbox, r, r.Text)
		}
		if leaked := strings.Contains(r.Stdout, "hunter2"); leaked == sandbox {
			t.Errorf("Sandbox %v: the script printed %q (stderr %q): secret leaked = %v", sandbox, r.Stdout, r.Stderr, leaked)
		}
	}
}
