package bashapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/adapter/bashapi"
)

const testPolicy = `version: 1
default: deny
allow: [pwd, ls, echo, cat, sleep, printf, "true", "false", cd, export, touch, head, exit, tr, env]
ask: [npm install]
ignore: [.env]
env_safe: [MY_VAR]
`

type testServer struct {
	t   *testing.T
	dir string
	api *bashapi.Server
	h   http.Handler
	log *syncBuffer
}

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

// do sends a request and returns the status and the decoded JSON body.
func (s *testServer) do(method, path string, body any) (int, map[string]any) {
	s.t.Helper()
	code, raw, _ := s.doRaw(method, path, body, nil)
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		s.t.Fatalf("%s %s: answer is not a JSON object: %v\n%s", method, path, err, raw)
	}
	return code, m
}

func (s *testServer) doRaw(method, path string, body any, hdr http.Header) (int, []byte, http.Header) {
	s.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			s.t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	req := httptest.NewRequest(method, path, rd)
	req.Host = "127.0.0.1:8080"
	req.Header.Set("Content-Type", "application/json")
	for k, v := range hdr {
		req.Header[k] = v
	}
	w := httptest.NewRecorder()
	s.h.ServeHTTP(w, req)
	return w.Code, w.Body.Bytes(), w.Header()
}

// post posts body and wants 200.
func (s *testServer) post(path string, body any) map[string]any {
	s.t.Helper()
	code, m := s.do("POST", path, body)
	if code != http.StatusOK {
		s.t.Fatalf("POST %s %v: status %d, want 200\n%v", path, body, code, m)
	}
	return m
}

// exec runs a command and wants it to start (success true).
func (s *testServer) exec(body map[string]any) map[string]any {
	s.t.Helper()
	m := s.post("/v1/bash/exec", body)
	if m["success"] != true {
		s.t.Fatalf("exec %v: not started:\n%v", body, m)
	}
	return data(s.t, m)
}

func data(t *testing.T, m map[string]any) map[string]any {
	t.Helper()
	d, ok := m["data"].(map[string]any)
	if !ok {
		t.Fatalf("no data object in %v", m)
	}
	return d
}

// groupGone waits until process group pgid has no process left.
func groupGone(t *testing.T, pgid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for syscall.Kill(-pgid, 0) == nil {
		if time.Now().After(deadline) {
			t.Fatalf("process group %d is still alive", pgid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestExecCompleted(t *testing.T) {
	t.Parallel()
	s := newServer(t, bashapi.Config{})
	m := s.post("/v1/bash/exec", map[string]any{"command": `printf "out\n" && printf "err\n" >&2`})
	if m["success"] != true || str(m["message"]) == "" || m["hint"] != nil {
		t.Errorf("envelope: %v", m)
	}
	d := data(t, m)
	want := map[string]any{"command": `printf "out\n" && printf "err\n" >&2`, "status": "completed", "stdout": "out\n",
		"stderr": "err\n", "exit_code": 0.0, "offset": 4.0, "stderr_offset": 4.0, "signal": nil, "stdout_lost": 0.0, "stderr_lost": 0.0}
	got := map[string]any{}
	for k := range want {
		got[k] = d[k]
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("exec mismatch (-want +got):\n%s", diff)
	}
	if str(d["session_id"]) == "" || str(d["command_id"]) == "" {
		t.Errorf("no ids: %v", d)
	}
	d = s.exec(map[string]any{"command": "exit 3", "session_id": d["session_id"]})
	if d["status"] != "completed" || d["exit_code"] != 3.0 || d["stdout"] != nil || d["stderr"] != nil {
		t.Errorf("exit 3: %v", d)
	}
}

// TestSoftTimeoutThenWaitingOutput: timeout answers running, the command
// goes on, and a waiting /output returns completed with the final output
// in the same answer.
func TestSoftTimeoutThenWaitingOutput(t *testing.T) {
	t.Parallel()
	s := newServer(t, bashapi.Config{})
	d := s.exec(map[string]any{"command": "echo first; sleep 1; echo done", "timeout": 0.3, "hard_timeout": 30})
	if d["status"] != "running" || d["exit_code"] != nil {
		t.Fatalf("exec with timeout 0.3: %v, want running", d)
	}
	if d["stdout"] != "first\n" || num(d["offset"]) != 6 {
		t.Errorf("running answer: stdout %q offset %v, want the output so far", d["stdout"], d["offset"])
	}
	o := data(t, s.post("/v1/bash/output", map[string]any{"session_id": d["session_id"], "offset": d["offset"], "stderr_offset": 0, "wait": true, "wait_timeout": 20}))
	cmdInfo, _ := o["command"].(map[string]any)
	if cmdInfo["status"] != "completed" || cmdInfo["exit_code"] != 0.0 || o["stdout"] != "done\n" || num(o["offset"]) != 11 {
		t.Errorf("waiting output: %v, want completed with \"done\\n\" in the same answer", o)
	}
	if cmdInfo["command_id"] != d["command_id"] {
		t.Errorf("output without command_id answered for %v, want the session's command %v", cmdInfo["command_id"], d["command_id"])
	}
}

func TestHardTimeout(t *testing.T) {
	t.Parallel()
	s := newServer(t, bashapi.Config{})
	d := s.exec(map[string]any{"command": "echo $$; sleep 30", "hard_timeout": 0.3})
	if d["status"] != "timed_out" || d["exit_code"] == nil {
		t.Errorf("hard_timeout 0.3: %v, want timed_out with an exit code", d)
	}
	pgid, _ := strconv.Atoi(strings.TrimSpace(str(d["stdout"])))
	groupGone(t, pgid)
}

func TestAsyncAndKill(t *testing.T) {
	t.Parallel()
	s := newServer(t, bashapi.Config{})
	d := s.exec(map[string]any{"command": "echo $$; sleep 30", "async_mode": true, "hard_timeout": 60})
	if d["status"] != "running" {
		t.Fatalf("async_mode: %v, want running at once", d)
	}
	sid := d["session_id"]
	o := data(t, s.post("/v1/bash/output", map[string]any{"session_id": sid, "wait": true, "wait_timeout": 10}))
	pgid, _ := strconv.Atoi(strings.TrimSpace(str(o["stdout"])))
	if pgid == 0 {
		t.Fatalf("output: %v", o)
	}
	k := s.post("/v1/bash/kill", map[string]any{"session_id": sid, "signal": "SIGTERM"})
	kd := data(t, k)
	if k["success"] != true || kd["status"] != "killed" || kd["signal"] != "SIGTERM" || kd["command_id"] != d["command_id"] {
		t.Errorf("kill: %v", k)
	}
	groupGone(t, pgid)
	o = data(t, s.post("/v1/bash/output", map[string]any{"session_id": sid, "command_id": d["command_id"], "offset": o["offset"]}))
	if c := o["command"].(map[string]any); c["status"] != "killed" {
		t.Errorf("output after kill: %v", o)
	}
	// Killing again answers the final state.
	k = s.post("/v1/bash/kill", map[string]any{"session_id": sid})
	if k["success"] != true || data(t, k)["status"] != "killed" {
		t.Errorf("second kill: %v", k)
	}
}

// TestKillCommandID: command_id (our extension) picks the command; the
// signal is the one asked for.
func TestKillCommandID(t *testing.T) {
	t.Parallel()
	s := newServer(t, bashapi.Config{})
	a := s.exec(map[string]any{"command": "sleep 30", "async_mode": true})
	b := s.exec(map[string]any{"command": "sleep 30", "async_mode": true, "session_id": a["session_id"]})
	kd := data(t, s.post("/v1/bash/kill", map[string]any{"session_id": a["session_id"], "command_id": a["command_id"], "signal": "SIGINT"}))
	if kd["command_id"] != a["command_id"] || kd["status"] != "killed" || kd["signal"] != "SIGINT" {
		t.Errorf("kill with command_id: %v", kd)
	}
	o := data(t, s.post("/v1/bash/output", map[string]any{"session_id": a["session_id"], "command_id": b["command_id"]}))
	if o["command"].(map[string]any)["status"] != "running" {
		t.Errorf("the other command: %v, want running", o)
	}
	kd = data(t, s.post("/v1/bash/kill", map[string]any{"session_id": a["session_id"], "signal": "SIGKILL"}))
	if kd["command_id"] != b["command_id"] || kd["signal"] != "SIGKILL" {
		t.Errorf("kill without command_id: %v, want the running command %v", kd, b["command_id"])
	}
}

func TestWriteStdinToCat(t *testing.T) {
	t.Parallel()
	s := newServer(t, bashapi.Config{})
	d := s.exec(map[string]any{"command": "cat", "async_mode": true, "hard_timeout": 120})
	sid := d["session_id"]
	w := s.post("/v1/bash/write", map[string]any{"session_id": sid, "input": "hello from stdin\n"})
	if w["success"] != true || data(t, w)["written"] != 17.0 {
		t.Errorf("write: %v", w)
	}
	o := data(t, s.post("/v1/bash/output", map[string]any{"session_id": sid, "offset": 0, "wait": true, "wait_timeout": 10}))
	if o["stdout"] != "hello from stdin\n" {
		t.Errorf("output after write: %v", o)
	}
	s.post("/v1/bash/kill", map[string]any{"session_id": sid})
	code, m := s.do("POST", "/v1/bash/write", map[string]any{"session_id": sid, "input": "more\n"})
	if code != http.StatusConflict || m["success"] != false || !strings.Contains(str(m["message"]), "not running") {
		t.Errorf("write after the end: %d %v, want 409 not running", code, m)
	}
}

// TestGrandchildHoldsPipes: a background process keeping stdout open does
// not hold the answer; it is ended with the command's group.
func TestGrandchildHoldsPipes(t *testing.T) {
	t.Parallel()
	s := newServer(t, bashapi.Config{})
	done := make(chan map[string]any, 1)
	go func() {
		done <- data(t, s.post("/v1/bash/exec", map[string]any{"command": "sleep 60 & echo $$", "hard_timeout": 120}))
	}()
	var d map[string]any
	select {
	case d = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("exec did not answer while a grandchild held its pipes")
	}
	if d["status"] != "completed" || d["exit_code"] != 0.0 {
		t.Errorf("exec: %v", d)
	}
	pgid, _ := strconv.Atoi(strings.TrimSpace(str(d["stdout"])))
	groupGone(t, pgid)
}

func TestMaxOutputLength(t *testing.T) {
	t.Parallel()
	s := newServer(t, bashapi.Config{})
	// 10 characters, 2 bytes each; a cut at 5 characters falls inside
	// a byte pair if it counts bytes.
	d := s.exec(map[string]any{"command": "printf 'éééééààààà'", "max_output_length": 5})
	out := str(d["stdout"])
	if !utf8.ValidString(out) {
		t.Fatalf("stdout is not valid UTF-8: %q", out)
	}
	if want := "éé\n...[5 characters truncated]...\nààà"; out != want {
		t.Errorf("stdout = %q, want %q", out, want)
	}
	if num(d["offset"]) != 20 {
		t.Errorf("offset = %v, want 20 (bytes, not cut)", d["offset"])
	}
	// Default 50000 characters; 0 turns it off.
	d = s.exec(map[string]any{"command": "printf '%60000s' '' | tr ' ' x"})
	if out := str(d["stdout"]); utf8.RuneCountInString(out) >= 60000 || !strings.Contains(out, "[10000 characters truncated]") {
		t.Errorf("default max_output_length: %d characters, marker %v", utf8.RuneCountInString(out), strings.Contains(out, "truncated"))
	}
	d = s.exec(map[string]any{"command": "printf '%60000s' '' | tr ' ' x", "max_output_length": 0})
	if out := str(d["stdout"]); len(out) != 60000 || strings.Contains(out, "truncated") {
		t.Errorf("max_output_length 0: %d bytes, want all 60000", len(out))
	}
}

// TestOffsetsAfterTruncation: the offsets of a truncated answer are byte
// positions in the whole stream, and /output reads from them exactly.
func TestOffsetsAfterTruncation(t *testing.T) {
	t.Parallel()
	s := newServer(t, bashapi.Config{})
	d := s.exec(map[string]any{"command": "for i in {1..1000}; do printf '%04d:ééé\\n' $i; done", "max_output_length": 100})
	if num(d["offset"]) != 12000 || !strings.Contains(str(d["stdout"]), "truncated") {
		t.Fatalf("exec: offset %v (want 12000), stdout %q", d["offset"], d["stdout"])
	}
	o := data(t, s.post("/v1/bash/output", map[string]any{"session_id": d["session_id"], "command_id": d["command_id"], "offset": 12 * 500}))
	if out := str(o["stdout"]); len(out) != 6000 || !strings.HasPrefix(out, "0501:ééé\n") || num(o["offset"]) != 12000 {
		t.Errorf("output from 6000: %d bytes from %q, offset %v", len(out), out[:min(len(out), 20)], o["offset"])
	}
	o = data(t, s.post("/v1/bash/output", map[string]any{"session_id": d["session_id"], "offset": d["offset"]}))
	if o["stdout"] != "" || num(o["offset"]) != 12000 {
		t.Errorf("output from the end: %v", o)
	}
}

// TestLostBytes: an offset older than the kept window says how many bytes
// were lost instead of silently starting elsewhere.
func TestLostBytes(t *testing.T) {
	t.Parallel()
	s := newServer(t, bashapi.Config{OutputLimit: 1000})
	d := s.exec(map[string]any{"command": "printf '%5000s' '' | tr ' ' y", "max_output_length": 0})
	if num(d["stdout_lost"]) != 4000 || len(str(d["stdout"])) != 1000 || num(d["offset"]) != 5000 {
		t.Errorf("exec: lost %v, %d bytes, offset %v; want 4000 lost, 1000 kept, offset 5000", d["stdout_lost"], len(str(d["stdout"])), d["offset"])
	}
	m := s.post("/v1/bash/output", map[string]any{"session_id": d["session_id"], "offset": 10})
	o := data(t, m)
	if num(o["stdout_lost"]) != 3990 || len(str(o["stdout"])) != 1000 || !strings.Contains(str(m["message"]), "lost") {
		t.Errorf("output from 10: lost %v, %d bytes, message %q", o["stdout_lost"], len(str(o["stdout"])), m["message"])
	}
}

func TestSessionKeepsExecDir(t *testing.T) {
	t.Parallel()
	s := newServer(t, bashapi.Config{})
	sub := filepath.Join(s.dir, "sub")
	d := s.exec(map[string]any{"command": "pwd", "exec_dir": sub})
	if d["stdout"] != sub+"\n" {
		t.Errorf("pwd with exec_dir: %q", d["stdout"])
	}
	d = s.exec(map[string]any{"command": "pwd", "session_id": d["session_id"]})
	if d["stdout"] != sub+"\n" {
		t.Errorf("pwd in the same session: %q, want the session's exec_dir %s", d["stdout"], sub)
	}
	_, l := s.do("GET", "/v1/bash/sessions", nil)
	sessions := l["data"].([]any)
	if len(sessions) != 1 || sessions[0].(map[string]any)["working_dir"] != sub || sessions[0].(map[string]any)["command_count"] != 2.0 {
		t.Errorf("sessions: %v", sessions)
	}
	// Another session starts in the server's directory.
	d = s.exec(map[string]any{"command": "pwd"})
	if d["stdout"] != s.dir+"\n" {
		t.Errorf("pwd in a new session: %q, want %s", d["stdout"], s.dir)
	}
}

func TestCdAndExportDoNotChangeSession(t *testing.T) {
	t.Parallel()
	s := newServer(t, bashapi.Config{})
	d := s.exec(map[string]any{"command": "cd sub && export MY_VAR=set && pwd"})
	if d["stdout"] != filepath.Join(s.dir, "sub")+"\n" {
		t.Errorf("cd inside the command: %q", d["stdout"])
	}
	d = s.exec(map[string]any{"command": "pwd && echo ${MY_VAR:-unset}", "session_id": d["session_id"]})
	if d["stdout"] != s.dir+"\nunset\n" {
		t.Errorf("next command: %q, want the session's directory and MY_VAR unset", d["stdout"])
	}
}

func TestEnvPerCommandAndGated(t *testing.T) {
	t.Parallel()
	s := newServer(t, bashapi.Config{})
	d := s.exec(map[string]any{"command": "echo ${MY_VAR:-unset}", "env": map[string]string{"MY_VAR": "hello"}})
	if d["stdout"] != "hello\n" {
		t.Errorf("env: %q", d["stdout"])
	}
	d = s.exec(map[string]any{"command": "echo ${MY_VAR:-unset}", "session_id": d["session_id"]})
	if d["stdout"] != "unset\n" {
		t.Errorf("env of the previous command leaked: %q", d["stdout"])
	}
	evil := filepath.Join(s.dir, "evil.sh")
	os.WriteFile(evil, []byte("touch "+filepath.Join(s.dir, "pwned")+"\n"), 0o644)
	m := s.post("/v1/bash/exec", map[string]any{"command": "touch ran", "env": map[string]string{"BASH_ENV": evil}, "session_id": d["session_id"]})
	rd := data(t, m)
	if m["success"] != false || rd["status"] != "refused" || rd["decision"] != "deny" {
		t.Fatalf("BASH_ENV: %v, want refused", m)
	}
	if !hasReason(rd, "env.code_injection", "env:BASH_ENV") {
		t.Errorf("BASH_ENV reasons: %v", rd["reasons"])
	}
	for _, f := range []string{"ran", "pwned"} {
		if _, err := os.Stat(filepath.Join(s.dir, f)); err == nil {
			t.Errorf("%s exists: the refused command ran", f)
		}
	}
}

func hasReason(d map[string]any, rule, source string) bool {
	rs, _ := d["reasons"].([]any)
	for _, r := range rs {
		r := r.(map[string]any)
		if r["rule"] == rule && (source == "" || strings.HasSuffix(str(r["source"]), source)) {
			return true
		}
	}
	return false
}

// TestDeniedCatEnv: a refusal is 200 (the SDKs throw on anything else),
// success false, status refused, with the decision, every reason with its
// position and source, a readable message and the rendered caret in hint.
func TestDeniedCatEnv(t *testing.T) {
	t.Parallel()
	s := newServer(t, bashapi.Config{})
	code, m := s.do("POST", "/v1/bash/exec", map[string]any{"command": "cat .env"})
	if code != http.StatusOK || m["success"] != false {
		t.Fatalf("cat .env: %d %v", code, m)
	}
	d := data(t, m)
	if d["status"] != "refused" || d["decision"] != "deny" || d["stdout"] != nil || d["exit_code"] != nil || d["session_id"] != "" {
		t.Errorf("data: %v", d)
	}
	var reason map[string]any
	for _, r := range d["reasons"].([]any) {
		if r.(map[string]any)["rule"] == "ignore.denied" {
			reason = r.(map[string]any)
		}
	}
	want := map[string]any{"verdict": "deny", "rule": "ignore.denied", "pos": map[string]any{"line": 1.0, "col": 5.0},
		"source": filepath.Join(s.dir, ".cmdguard.yaml") + ":5", "message": "'.env' is ignored by " + filepath.Join(s.dir, ".cmdguard.yaml") + ":5 (.env)"}
	if diff := cmp.Diff(want, reason); diff != "" {
		t.Errorf("reason mismatch (-want +got):\n%s", diff)
	}
	if !hasReason(d, "policy.allow", "") {
		t.Errorf("every reason: the policy.allow reason is missing: %v", d["reasons"])
	}
	if msg := str(m["message"]); !strings.Contains(msg, "refused") || !strings.Contains(msg, "ignore.denied") || !strings.Contains(msg, "1:5") {
		t.Errorf("message: %q", msg)
	}
	if hint := str(m["hint"]); !strings.Contains(hint, "    cat .env\n        ^") {
		t.Errorf("hint has no caret under .env:\n%s", hint)
	}
	if _, l := s.do("GET", "/v1/bash/sessions", nil); len(l["data"].([]any)) != 0 {
		t.Errorf("a refused request opened a session: %v", l)
	}
}

func TestAsk(t *testing.T) {
	t.Parallel()
	s := newServer(t, bashapi.Config{})
	m := s.post("/v1/bash/exec", map[string]any{"command": "npm install"})
	if d := data(t, m); m["success"] != false || d["status"] != "refused" || d["decision"] != "ask" || !strings.Contains(str(m["hint"]), "no person to ask") {
		t.Errorf("ask without --ask allow: %v", m)
	}
	s = newServer(t, bashapi.Config{AllowAsk: true})
	os.WriteFile(filepath.Join(s.dir, ".cmdguard.yaml"), []byte(testPolicy), 0o644)
	m = s.post("/v1/bash/exec", map[string]any{"command": "npm install --version >/dev/null 2>&1; echo ran"})
	d := data(t, m)
	if m["success"] != true || d["stdout"] != "ran\n" {
		t.Errorf("ask with AllowAsk: %v", m)
	}
	if !strings.Contains(s.log.String(), `"level":"WARN","msg":"decision"`) {
		t.Errorf("a command run by AllowAsk is not logged as a warning:\n%s", s.log.String())
	}
}

func TestValidation(t *testing.T) {
	t.Parallel()
	s := newServer(t, bashapi.Config{})
	for _, tc := range []struct {
		path string
		body string
		loc  []any
		typ  string
	}{
		{"/v1/bash/exec", `{}`, []any{"body", "command"}, "missing"},
		{"/v1/bash/exec", `{"command": null}`, []any{"body", "command"}, "missing"},
		{"/v1/bash/exec", `{"command": 5}`, []any{"body", "command"}, "string_type"},
		{"/v1/bash/exec", `{"command": ""}`, []any{"body", "command"}, "string_too_short"},
		{"/v1/bash/exec", `{"command": "pwd", "exec_dir": "sub"}`, []any{"body", "exec_dir"}, "value_error"},
		{"/v1/bash/exec", `{"command": "pwd", "exec_dir": "/nonexistent/dir"}`, []any{"body", "exec_dir"}, "value_error"},
		{"/v1/bash/exec", `{"command": "pwd", "async_mode": "yes"}`, []any{"body", "async_mode"}, "bool_type"},
		{"/v1/bash/exec", `{"command": "pwd", "timeout": "1"}`, []any{"body", "timeout"}, "float_type"},
		{"/v1/bash/exec", `{"command": "pwd", "timeout": -1}`, []any{"body", "timeout"}, "greater_than"},
		{"/v1/bash/exec", `{"command": "pwd", "hard_timeout": 1e300}`, []any{"body", "hard_timeout"}, "less_than_equal"},
		{"/v1/bash/exec", `{"command": "pwd", "max_output_length": 1.5}`, []any{"body", "max_output_length"}, "int_from_float"},
		{"/v1/bash/exec", `{"command": "pwd", "max_output_length": -1}`, []any{"body", "max_output_length"}, "greater_than_equal"},
		{"/v1/bash/exec", `{"command": "pwd", "env": ["A=1"]}`, []any{"body", "env"}, "dict_type"},
		{"/v1/bash/exec", `{"command": "pwd", "env": {"A": null}}`, []any{"body", "env", "A"}, "string_type"},
		{"/v1/bash/exec", `{"command": "pwd", "env": {"A=B": "1"}}`, []any{"body", "env", "A=B"}, "value_error"},
		{"/v1/bash/exec", `{"command": "pwd", "session_id": "../x"}`, []any{"body", "session_id"}, "value_error"},
		{"/v1/bash/exec", `{"command": "a\u0000b"}`, []any{"body", "command"}, "value_error"},
		{"/v1/bash/exec", `{"command": "pwd"`, []any{"body"}, "json_invalid"},
		{"/v1/bash/exec", `["pwd"]`, []any{"body"}, "model_attributes_type"},
		{"/v1/bash/exec", ``, []any{"body"}, "json_invalid"},
		{"/v1/bash/output", `{}`, []any{"body", "session_id"}, "missing"},
		{"/v1/bash/output", `{"session_id": "s", "offset": -1}`, []any{"body", "offset"}, "greater_than_equal"},
		{"/v1/bash/output", `{"session_id": "s", "stderr_offset": "0"}`, []any{"body", "stderr_offset"}, "int_type"},
		{"/v1/bash/output", `{"session_id": "s", "wait": 1}`, []any{"body", "wait"}, "bool_type"},
		{"/v1/bash/output", `{"session_id": "s", "wait_timeout": 0}`, []any{"body", "wait_timeout"}, "greater_than"},
		{"/v1/bash/write", `{"session_id": "s"}`, []any{"body", "input"}, "missing"},
		{"/v1/bash/kill", `{"session_id": "s", "signal": "SIGUSR1"}`, []any{"body", "signal"}, "value_error"},
		{"/v1/bash/kill", `{"signal": "SIGTERM"}`, []any{"body", "session_id"}, "missing"},
		{"/v1/bash/sessions/create", `{"exec_dir": "relative"}`, []any{"body", "exec_dir"}, "value_error"},
		{"/v1/bash/sessions/create", `{"snapshot_path": "%s/nonexistent.sh"}`, []any{"body", "snapshot_path"}, "value_error"},
	} {
		code, raw, _ := s.doRaw("POST", tc.path, strings.ReplaceAll(tc.body, "%s", s.dir), nil)
		var m struct {
			Detail []struct {
				Loc  []any  `json:"loc"`
				Msg  string `json:"msg"`
				Type string `json:"type"`
			} `json:"detail"`
		}
		if err := json.Unmarshal(raw, &m); err != nil || code != http.StatusUnprocessableEntity || len(m.Detail) == 0 {
			t.Errorf("%s %s: %d %s, want 422 with detail", tc.path, tc.body, code, raw)
			continue
		}
		if diff := cmp.Diff(tc.loc, m.Detail[0].Loc); diff != "" || m.Detail[0].Type != tc.typ || m.Detail[0].Msg == "" {
			t.Errorf("%s %s: detail %s, want loc %v type %s", tc.path, tc.body, raw, tc.loc, tc.typ)
		}
	}
}

func TestNotFound(t *testing.T) {
	t.Parallel()
	s := newServer(t, bashapi.Config{})
	d := s.exec(map[string]any{"command": "true"})
	sid := str(d["session_id"])
	for _, tc := range []struct {
		path string
		body any
		msg  string
	}{
		{"/v1/bash/exec", map[string]any{"command": "true", "session_id": "nope"}, "session not found: nope"},
		{"/v1/bash/output", map[string]any{"session_id": "nope"}, "session not found: nope"},
		{"/v1/bash/output", map[string]any{"session_id": sid, "command_id": "nope"}, "command not found: nope"},
		{"/v1/bash/write", map[string]any{"session_id": "nope", "input": "x"}, "session not found: nope"},
		{"/v1/bash/write", map[string]any{"session_id": sid, "command_id": "nope", "input": "x"}, "command not found: nope"},
		{"/v1/bash/kill", map[string]any{"session_id": "nope"}, "session not found: nope"},
		{"/v1/bash/kill", map[string]any{"session_id": sid, "command_id": "nope"}, "command not found: nope"},
		{"/v1/bash/sessions/nope/close", nil, "session not found: nope"},
		{"/v1/other", nil, "not found: /v1/other"},
	} {
		code, m := s.do("POST", tc.path, tc.body)
		if code != http.StatusNotFound || m["success"] != false || !strings.HasPrefix(str(m["message"]), tc.msg) || m["data"] != nil {
			t.Errorf("%s %v: %d %v, want 404 %q", tc.path, tc.body, code, m, tc.msg)
		}
	}
	// A session with no command: /output has no command, /kill has nothing.
	info := data(t, s.post("/v1/bash/sessions/create", map[string]any{}))
	o := data(t, s.post("/v1/bash/output", map[string]any{"session_id": info["session_id"]}))
	if o["command"] != nil || o["stdout"] != "" {
		t.Errorf("output of an empty session: %v", o)
	}
	if code, m := s.do("POST", "/v1/bash/kill", map[string]any{"session_id": info["session_id"]}); code != http.StatusNotFound {
		t.Errorf("kill in an empty session: %d %v", code, m)
	}
	if code, _ := s.do("GET", "/v1/bash/exec", nil); code != http.StatusMethodNotAllowed {
		t.Errorf("GET /v1/bash/exec: %d, want 405", code)
	}
}

func TestLimits(t *testing.T) {
	t.Parallel()
	s := newServer(t, bashapi.Config{MaxCommands: 1, MaxSessions: 2, MaxBody: 200})
	d := s.exec(map[string]any{"command": "sleep 30", "async_mode": true})
	code, raw, hdr := s.doRaw("POST", "/v1/bash/exec", map[string]any{"command": "true", "session_id": d["session_id"]}, nil)
	if code != http.StatusTooManyRequests || hdr.Get("Retry-After") == "" || !bytes.Contains(raw, []byte("too many running commands")) {
		t.Errorf("second command with max 1: %d %s", code, raw)
	}
	s.post("/v1/bash/kill", map[string]any{"session_id": d["session_id"]})
	s.post("/v1/bash/sessions/create", map[string]any{})
	code, raw, _ = s.doRaw("POST", "/v1/bash/sessions/create", map[string]any{}, nil)
	if code != http.StatusTooManyRequests || !bytes.Contains(raw, []byte("too many sessions")) {
		t.Errorf("third session with max 2: %d %s", code, raw)
	}
	code, raw, _ = s.doRaw("POST", "/v1/bash/exec", map[string]any{"command": "echo " + strings.Repeat("x", 300)}, nil)
	if code != http.StatusRequestEntityTooLarge || !bytes.Contains(raw, []byte(`"detail":[{"loc":["body"]`)) {
		t.Errorf("body over 200 bytes: %d %s", code, raw)
	}
}

func TestSessions(t *testing.T) {
	t.Parallel()
	s := newServer(t, bashapi.Config{})
	sub := filepath.Join(s.dir, "sub")
	m := s.post("/v1/bash/sessions/create", map[string]any{"session_id": "my-session", "exec_dir": sub})
	info := data(t, m)
	if info["session_id"] != "my-session" || info["status"] != "ready" || info["working_dir"] != sub || info["command_count"] != 0.0 || info["current_command"] != nil {
		t.Errorf("create: %v", info)
	}
	if _, err := time.Parse(time.RFC3339Nano, str(info["created_at"])); err != nil {
		t.Errorf("created_at: %v", err)
	}
	if code, m := s.do("POST", "/v1/bash/sessions/create", map[string]any{"session_id": "my-session"}); code != http.StatusConflict || m["success"] != false {
		t.Errorf("create twice: %d %v", code, m)
	}
	d := s.exec(map[string]any{"command": "echo $$; sleep 30", "session_id": "my-session", "async_mode": true})
	o := data(t, s.post("/v1/bash/output", map[string]any{"session_id": "my-session", "wait": true, "wait_timeout": 10}))
	pgid, _ := strconv.Atoi(strings.TrimSpace(str(o["stdout"])))
	_, l := s.do("GET", "/v1/bash/sessions", nil)
	ls := l["data"].([]any)
	if len(ls) != 1 || ls[0].(map[string]any)["current_command"] != d["command"] || ls[0].(map[string]any)["command_count"] != 1.0 {
		t.Errorf("list: %v", ls)
	}
	c := s.post("/v1/bash/sessions/my-session/close", nil)
	if c["success"] != true || data(t, c)["status"] != "closed" {
		t.Errorf("close: %v", c)
	}
	groupGone(t, pgid)
	if code, _ := s.do("POST", "/v1/bash/output", map[string]any{"session_id": "my-session"}); code != http.StatusNotFound {
		t.Errorf("output after close: %d, want 404", code)
	}
	if _, l := s.do("GET", "/v1/bash/sessions", nil); len(l["data"].([]any)) != 0 {
		t.Errorf("list after close: %v", l)
	}
}

// TestSnapshotGated: snapshot_path is read only if the gate lets `cat` read
// it, and its text runs only if the gate allows it.
func TestSnapshotGated(t *testing.T) {
	t.Parallel()
	s := newServer(t, bashapi.Config{})
	good := filepath.Join(s.dir, "snap.sh")
	os.WriteFile(good, []byte("touch snapshot-ran\n"), 0o644)
	info := data(t, s.post("/v1/bash/sessions/create", map[string]any{"snapshot_path": good}))
	if _, err := os.Stat(filepath.Join(s.dir, "snapshot-ran")); err != nil || info["command_count"] != 1.0 {
		t.Errorf("allowed snapshot did not run: %v %v", err, info)
	}
	bad := filepath.Join(s.dir, "bad.sh")
	os.WriteFile(bad, []byte("touch bad-ran\ncat .env\n"), 0o644)
	m := s.post("/v1/bash/sessions/create", map[string]any{"snapshot_path": bad, "session_id": "bad"})
	if d := data(t, m); m["success"] != false || d["status"] != "refused" || !hasReason(d, "ignore.denied", "") {
		t.Errorf("denied snapshot: %v", m)
	}
	if _, err := os.Stat(filepath.Join(s.dir, "bad-ran")); err == nil {
		t.Error("the refused snapshot ran")
	}
	m = s.post("/v1/bash/sessions/create", map[string]any{"snapshot_path": filepath.Join(s.dir, ".env")})
	if d := data(t, m); m["success"] != false || !hasReason(d, "ignore.denied", "") || strings.Contains(fmt.Sprint(m), "hunter2") {
		t.Errorf("snapshot_path .env: %v", m)
	}
	// A FIFO would block a reader: it is not a regular file (422), at once.
	fifo := filepath.Join(s.dir, "fifo.sh")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, m := s.do("POST", "/v1/bash/sessions/create", map[string]any{"snapshot_path": fifo}); code != http.StatusUnprocessableEntity {
		t.Errorf("snapshot_path FIFO: %d %v, want 422", code, m)
	}
	if _, l := s.do("GET", "/v1/bash/sessions", nil); len(l["data"].([]any)) != 1 {
		t.Errorf("refused snapshots opened sessions: %v", l)
	}
}

func TestToken(t *testing.T) {
	t.Parallel()
	s := newServer(t, bashapi.Config{Token: "s3cret"})
	for _, auth := range []string{"", "Bearer wrong", "s3cret", "Bearer s3cret0"} {
		code, raw, hdr := s.doRaw("GET", "/v1/bash/sessions", nil, http.Header{"Authorization": {auth}})
		if code != http.StatusUnauthorized || hdr.Get("WWW-Authenticate") != "Bearer" || !bytes.Contains(raw, []byte(`"detail"`)) {
			t.Errorf("Authorization %q: %d %s, want 401", auth, code, raw)
		}
	}
	if code, raw, _ := s.doRaw("GET", "/v1/bash/sessions", nil, http.Header{"Authorization": {"Bearer s3cret"}}); code != http.StatusOK {
		t.Errorf("right token: %d %s", code, raw)
	}
}

// TestBrowsersRefused: without a token, a request from a web page (it has
// an Origin header) or to a host name that is not loopback (DNS
// rebinding) is 403, and nothing runs.
func TestBrowsersRefused(t *testing.T) {
	t.Parallel()
	s := newServer(t, bashapi.Config{})
	for _, tc := range []struct {
		host, origin string
		want         int
	}{
		{"127.0.0.1:8080", "", http.StatusOK},
		{"localhost:8080", "", http.StatusOK},
		{"[::1]:8080", "", http.StatusOK},
		{"LOCALHOST", "", http.StatusOK},
		{"127.0.0.1:8080", "https://evil.example", http.StatusForbidden},
		{"127.0.0.1:8080", "null", http.StatusForbidden},
		{"evil.example:8080", "", http.StatusForbidden},
		{"localhost.evil.example", "", http.StatusForbidden},
		{"", "", http.StatusForbidden},
	} {
		req := httptest.NewRequest("POST", "/v1/bash/exec", strings.NewReader(`{"command": "touch ran"}`))
		req.Host = tc.host
		if tc.origin != "" {
			req.Header.Set("Origin", tc.origin)
		}
		w := httptest.NewRecorder()
		s.h.ServeHTTP(w, req)
		_, err := os.Stat(filepath.Join(s.dir, "ran"))
		if w.Code != tc.want || (tc.want != http.StatusOK) != os.IsNotExist(err) {
			t.Errorf("Host %q Origin %q: %d (ran: %v), want %d", tc.host, tc.origin, w.Code, err == nil, tc.want)
		}
		os.Remove(filepath.Join(s.dir, "ran"))
	}
	// With a token, the Host is the operator's business.
	s = newServer(t, bashapi.Config{Token: "tok"})
	code, raw, _ := s.doRaw("GET", "/v1/bash/sessions", nil, http.Header{"Authorization": {"Bearer tok"}, "Origin": {"https://app.example"}})
	if code != http.StatusOK {
		t.Errorf("with a token: %d %s", code, raw)
	}
}

func TestIdleExpiry(t *testing.T) {
	t.Parallel()
	s := newServer(t, bashapi.Config{IdleExpiry: 100 * time.Millisecond})
	newServer(t, bashapi.Config{IdleExpiry: 1}) // the janitor must not panic on a tiny expiry
	busy := s.exec(map[string]any{"command": "sleep 30", "async_mode": true})
	idle := data(t, s.post("/v1/bash/sessions/create", map[string]any{}))
	deadline := time.Now().Add(10 * time.Second)
	for {
		code, _ := s.do("POST", "/v1/bash/output", map[string]any{"session_id": idle["session_id"]})
		if code == http.StatusNotFound {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the idle session never expired")
		}
		time.Sleep(200 * time.Millisecond) // longer than the expiry: the read above does not keep it alive
	}
	if code, _ := s.do("POST", "/v1/bash/output", map[string]any{"session_id": busy["session_id"]}); code != http.StatusOK {
		t.Errorf("a session with a running command expired: %d", code)
	}
}

func TestAccessLog(t *testing.T) {
	t.Parallel()
	s := newServer(t, bashapi.Config{})
	d := s.exec(map[string]any{"command": "true"})
	s.post("/v1/bash/exec", map[string]any{"command": "cat .env"})
	var reqs, decisions []map[string]any
	for line := range strings.Lines(s.log.String()) {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line is not JSON: %q", line)
		}
		switch m["msg"] {
		case "request":
			reqs = append(reqs, m)
		case "decision":
			decisions = append(decisions, m)
		}
	}
	if len(reqs) != 2 || len(decisions) != 2 {
		t.Fatalf("%d request and %d decision records, want 2 and 2:\n%s", len(reqs), len(decisions), s.log.String())
	}
	if r := reqs[0]; r["path"] != "/v1/bash/exec" || r["status"] != 200.0 || r["command_id"] != d["command_id"] || r["session_id"] != d["session_id"] || r["duration_ms"] == nil {
		t.Errorf("request record: %v", r)
	}
	dec := decisions[1]
	if dec["verdict"] != "deny" || dec["started"] != false || str(dec["command_id"]) == "" || dec["duration_ms"] == nil ||
		fmt.Sprint(dec["rules"]) != "[ignore.denied policy.allow]" {
		t.Errorf("decision record: %v", dec)
	}
}

func TestCloseEndsCommands(t *testing.T) {
	t.Parallel()
	s := newServer(t, bashapi.Config{})
	d := s.exec(map[string]any{"command": "echo $$; sleep 30", "async_mode": true})
	o := data(t, s.post("/v1/bash/output", map[string]any{"session_id": d["session_id"], "wait": true, "wait_timeout": 10}))
	pgid, _ := strconv.Atoi(strings.TrimSpace(str(o["stdout"])))
	if err := s.api.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	groupGone(t, pgid)
	if code, m := s.do("POST", "/v1/bash/exec", map[string]any{"command": "true"}); code != http.StatusServiceUnavailable {
		t.Errorf("exec after Close: %d %v, want 503", code, m)
	}
}

// TestOutputFields: stderr_offset reads stderr from a byte offset,
// wait_timeout ends a wait with no new output (running, nothing read),
// wait false answers at once, and command_id picks the command.
func TestOutputFields(t *testing.T) {
	t.Parallel()
	s := newServer(t, bashapi.Config{})
	d := s.exec(map[string]any{"command": "printf 'abcdef' >&2; printf 'xyz'"})
	o := data(t, s.post("/v1/bash/output", map[string]any{"session_id": d["session_id"], "offset": 1, "stderr_offset": 2}))
	if o["stdout"] != "yz" || o["stderr"] != "cdef" || num(o["offset"]) != 3 || num(o["stderr_offset"]) != 6 {
		t.Errorf("output from offsets 1 and 2: %v", o)
	}
	a := s.exec(map[string]any{"command": "sleep 30", "async_mode": true, "session_id": d["session_id"]})
	t0 := time.Now()
	o = data(t, s.post("/v1/bash/output", map[string]any{"session_id": d["session_id"], "wait": true, "wait_timeout": 0.3}))
	if c := o["command"].(map[string]any); c["status"] != "running" || c["command_id"] != a["command_id"] || o["stdout"] != "" || time.Since(t0) < 300*time.Millisecond {
		t.Errorf("wait_timeout 0.3 on a silent command: %v after %v", o, time.Since(t0))
	}
	o = data(t, s.post("/v1/bash/output", map[string]any{"session_id": d["session_id"], "command_id": d["command_id"]}))
	if c := o["command"].(map[string]any); c["status"] != "completed" || o["stdout"] != "xyz" || o["stderr"] != "abcdef" {
		t.Errorf("output by command_id of the first command: %v", o)
	}
	w := data(t, s.post("/v1/bash/kill", map[string]any{"session_id": d["session_id"], "command_id": a["command_id"]}))
	if w["status"] != "killed" {
		t.Errorf("kill: %v", w)
	}
}

// TestPolicyChangesWhileServing: a policy edited while the server runs
// applies to the next command; one that no longer loads refuses every
// command with the load error (never the old policy), until it is fixed;
// a new ignore file applies at once.
func TestPolicyChangesWhileServing(t *testing.T) {
	t.Parallel()
	s := newServer(t, bashapi.Config{})
	exec := func(cmd string) map[string]any {
		t.Helper()
		_, m := s.do("POST", "/v1/bash/exec", map[string]any{"command": cmd})
		return data(t, m)
	}
	if d := exec("echo one"); d["status"] != "completed" {
		t.Fatalf("echo one before any change: %v", d)
	}
	policy := filepath.Join(s.dir, ".cmdguard.yaml")
	write := func(body string) {
		t.Helper()
		// A new mtime and size even within the same clock tick.
		if err := os.WriteFile(policy, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(strings.Replace(testPolicy, "allow: [pwd, ls, echo,", "allow: [pwd, ls,", 1) + "deny: [echo]\n")
	if d := exec("echo two"); d["status"] != "refused" || !hasReason(d, "policy.deny", "") {
		t.Errorf("echo after the policy denied it: %v", d)
	}
	write("version: 1\ndefault: allow\nallow: [echo\n") // no longer loads
	if d := exec("echo three"); d["status"] != "refused" || d["decision"] != "deny" || !hasReason(d, "policy.invalid", "") {
		t.Errorf("echo under a policy that does not load: %v", d)
	}
	write(testPolicy)
	if d := exec("echo four"); d["status"] != "completed" {
		t.Errorf("echo after the policy was fixed: %v", d)
	}
	if err := os.WriteFile(filepath.Join(s.dir, "sub", ".cmdguardignore"), []byte("file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if d := exec("cat sub/file"); d["status"] != "refused" || !hasReason(d, "ignore.denied", "") {
		t.Errorf("cat sub/file after sub/.cmdguardignore named it: %v", d)
	}
}

// TestExecDirConfined: exec_dir, symlinks resolved, must lie inside the
// project root, as cmdguard mcp's and acp's cwd (issue 26). A directory
// outside, or a link inside the project to one outside, is a 422; the
// command never starts.
func TestExecDirConfined(t *testing.T) {
	t.Parallel()
	s := newServer(t, bashapi.Config{})
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, ".cmdguard.yaml"), []byte("version: 1\ndefault: allow\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(s.dir, "link")); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{outside, filepath.Join(s.dir, "link"), filepath.Join(s.dir, "sub/../link"), "/"} {
		for _, path := range []string{"/v1/bash/exec", "/v1/bash/sessions/create"} {
			code, raw, _ := s.doRaw("POST", path, map[string]any{"command": "touch ran", "exec_dir": dir}, nil)
			if code != http.StatusUnprocessableEntity || !strings.Contains(string(raw), "outside the project root") {
				t.Errorf("%s exec_dir %s: %d %s, want 422 outside the project root", path, dir, code, raw)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(outside, "ran")); err == nil {
		t.Error("the command ran outside the project")
	}
	// Inside, through a link that stays inside: runs, in the real directory.
	if err := os.Symlink("sub", filepath.Join(s.dir, "insub")); err != nil {
		t.Fatal(err)
	}
	d := s.exec(map[string]any{"command": "pwd -P", "exec_dir": filepath.Join(s.dir, "insub")})
	if got := strings.TrimSpace(str(d["stdout"])); got != filepath.Join(s.dir, "sub") {
		t.Errorf("pwd -P in insub: %q, want %s", got, filepath.Join(s.dir, "sub"))
	}
}

// TestServeSandbox: with Config.Sandbox (cmdguard serve --sandbox) every
// command runs under the policy's kernel sandbox: a project script the
// gate cannot see into reads an empty .env; without it, the secret.
func TestServeSandbox(t *testing.T) {
	t.Parallel()
	for _, sandbox := range []bool{false, true} {
		dir := t.TempDir()
		dir, _ = filepath.EvalSymlinks(dir)
		for name, body := range map[string]string{
			".cmdguard.yaml": "version: 1\ndefault: allow\nignore: [.env]\n",
			".env":           "SECRET=hunter2\n",
			"show.sh":        "cat .env\n",
		} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		g, err := cmdguard.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		api, err := bashapi.New(bashapi.Config{Guard: g, Dir: dir, Sandbox: sandbox,
			BaseEnv: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}})
		if err != nil {
			t.Fatal(err)
		}
		s := &testServer{t: t, dir: dir, api: api, h: api}
		d := s.exec(map[string]any{"command": "bash show.sh"})
		leaked := strings.Contains(str(d["stdout"]), "hunter2")
		if leaked == sandbox {
			t.Errorf("Sandbox %v: the script's output %q (stderr %q): secret leaked = %v", sandbox, d["stdout"], d["stderr"], leaked)
		}
		api.Close(context.Background())
		g.Close(context.Background())
	}
}
