package bashapi

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/exec"
)

// checkTimeout bounds one gate check; running out of it is a deny.
const checkTimeout = 10 * time.Second

// outputSettle is how long a waiting /output, once new output has come,
// waits for the command to end, so that a command's last output and its
// exit come in one answer.
const outputSettle = 200 * time.Millisecond

// done is a context that is already done: Poll answers at once with it.
var done = func() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}()

// maxSnapshot is the largest snapshot_path script read.
const maxSnapshot = 1 << 20

// execData is the AIO sandbox's BashExecResult, plus our fields: signal,
// and the bytes of each stream lost before the kept window.
type execData struct {
	SessionID    string  `json:"session_id"`
	CommandID    string  `json:"command_id"`
	Command      string  `json:"command"`
	Status       string  `json:"status"`
	Stdout       *string `json:"stdout"`
	Stderr       *string `json:"stderr"`
	ExitCode     *int    `json:"exit_code"`
	Offset       int64   `json:"offset"`
	StderrOffset int64   `json:"stderr_offset"`
	Signal       *string `json:"signal"`
	StdoutLost   int64   `json:"stdout_lost"`
	StderrLost   int64   `json:"stderr_lost"`
}

// refusedData is data of a refused command: it never started.
type refusedData struct {
	SessionID string            `json:"session_id"`
	CommandID string            `json:"command_id"`
	Command   string            `json:"command"`
	Status    string            `json:"status"` // "refused"
	Stdout    *string           `json:"stdout"`
	Stderr    *string           `json:"stderr"`
	ExitCode  *int              `json:"exit_code"`
	Offset    int64             `json:"offset"`
	StderrOff int64             `json:"stderr_offset"`
	Decision  cmdguard.Verdict  `json:"decision"`
	Reasons   []cmdguard.Reason `json:"reasons"`
}

// commandInfo is the AIO sandbox's BashCommandInfo, plus signal.
type commandInfo struct {
	CommandID string  `json:"command_id"`
	Command   string  `json:"command"`
	Status    string  `json:"status"`
	ExitCode  *int    `json:"exit_code"`
	Signal    *string `json:"signal"`
}

// outputData is the AIO sandbox's BashOutputResult, plus the bytes lost
// between each requested offset and the data returned.
type outputData struct {
	SessionID    string       `json:"session_id"`
	Stdout       string       `json:"stdout"`
	Stderr       string       `json:"stderr"`
	Offset       int64        `json:"offset"`
	StderrOffset int64        `json:"stderr_offset"`
	StdoutLost   int64        `json:"stdout_lost"`
	StderrLost   int64        `json:"stderr_lost"`
	Command      *commandInfo `json:"command"`
}

// exitCode is the exit code of an ended command as a shell reports it
// (128+n for signal n), nil while it runs.
func exitCode(res exec.Result) *int {
	if res.Status == exec.StatusRunning {
		return nil
	}
	if res.ExitCode != nil {
		return res.ExitCode
	}
	if c := res.ShellCode(); c >= 0 {
		return &c
	}
	return nil
}

func signalOf(res exec.Result) *string {
	if res.Signal == "" {
		return nil
	}
	return &res.Signal
}

func (c *command) info(res exec.Result) *commandInfo {
	return &commandInfo{CommandID: c.id, Command: c.text, Status: string(res.Status), ExitCode: exitCode(res), Signal: signalOf(res)}
}

// nullIfEmpty is a response's stdout/stderr: null when empty, as the AIO
// docs show.
func nullIfEmpty(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// session returns the open session id, or nil.
func (s *Server) session(id string) *session {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessions[id]
}

// addSession opens a session; it fails when the server is closed, the
// id is taken or the session limit is reached.
func (s *Server) addSession(ss *session) (code int, err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.closed:
		return http.StatusServiceUnavailable, errors.New("the server is shutting down")
	case s.sessions[ss.id] != nil:
		return http.StatusConflict, fmt.Errorf("session already exists: %s", ss.id)
	case len(s.sessions) >= s.cfg.MaxSessions:
		return http.StatusTooManyRequests, fmt.Errorf("too many sessions: the limit is %d (close one, or start cmdguard serve with a higher --max-sessions)", s.cfg.MaxSessions)
	}
	s.sessions[ss.id] = ss
	return 0, nil
}

// removeSession drops an open session unless it was replaced.
func (s *Server) removeSession(ss *session) {
	s.mu.Lock()
	if s.sessions[ss.id] == ss {
		delete(s.sessions, ss.id)
	}
	s.mu.Unlock()
}

// checkDir answers 422 unless dir (absolute) is an existing directory.
// checkDir answers 422 and returns false unless dir is empty or an
// existing directory inside the project root, both with symlinks resolved
// as the kernel resolves them: commands run only inside the project, as
// in cmdguard mcp and acp (a directory elsewhere would resolve the
// command's relative paths, and a later `cd`, outside the root the gate
// protects). It returns the directory with symlinks resolved.
func (s *Server) checkDir(w http.ResponseWriter, name, dir string) (string, bool) {
	if dir == "" {
		return "", true
	}
	bad := func(why string) (string, bool) {
		invalid(w, http.StatusUnprocessableEntity, []detailItem{{Loc: []any{"body", name},
			Msg: "Value error, " + name + " " + why + ": " + dir, Type: "value_error"}})
		return "", false
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return bad("is not an existing directory")
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return bad("is not an existing directory")
	}
	root, err := filepath.EvalSymlinks(s.g.Root())
	if err != nil {
		return bad("cannot be checked: the project root does not resolve")
	}
	if rel, err := filepath.Rel(root, real); err != nil || rel == ".." || strings.HasPrefix(rel, "../") || filepath.IsAbs(rel) {
		return bad("is outside the project root " + root + " (symlinks resolved): commands run only inside the project")
	}
	return real, true
}

// approve is the RunRequest.Approve of every command.
func (s *Server) approve(cmdguard.Decision) bool { return s.cfg.AllowAsk }

// start checks and starts one command of ss. It answers the request
// itself and returns nil when the command did not start.
//
// A session that fresh is true for was opened for this command alone and
// is closed again when the command does not start: a refused request
// changes nothing (its answer has an empty session_id).
func (s *Server) start(w http.ResponseWriter, r *http.Request, ss *session, fresh bool, text, dir string, env []string, hard float64) (*command, bool) {
	info := requestInfo(r)
	id := newID()
	info.command = id
	defer ss.hold()()
	cwd := dir
	if cwd == "" {
		cwd = ss.workDir()
	}
	select {
	case s.running <- struct{}{}:
	default:
		if fresh {
			s.removeSession(ss)
			info.session = ""
		}
		fail(w, http.StatusTooManyRequests, fmt.Sprintf("too many running commands: the limit is %d (wait for one to end, kill one, or start cmdguard serve with a higher --max-commands)", s.cfg.MaxCommands))
		return nil, false
	}
	timeout := time.Duration(hard * float64(time.Second))
	if hard > 0 {
		timeout = max(timeout, 1) // a tiny hard_timeout is not "none"
	}
	req := cmdguard.RunRequest{
		Request:     cmdguard.Request{Command: text, Cwd: cwd, Env: env, BaseEnv: s.cfg.BaseEnv},
		StdinPipe:   true,
		OutputLimit: s.cfg.OutputLimit,
		Timeout:     timeout,
		SoftTimeout: -1,
		Approve:     s.approve,
		Sandbox:     s.cfg.Sandbox,
	}
	t0 := time.Now()
	ctx, cancel := context.WithTimeout(r.Context(), checkTimeout)
	d, p, err := s.g.Start(ctx, req)
	cancel()
	sid := ss.id
	if err != nil && fresh {
		s.removeSession(ss)
		sid = ""
		info.session = ""
	}
	s.logDecision(sid, id, text, d, err == nil, t0)
	if err != nil {
		<-s.running
		s.refuse(w, sid, id, text, d, err)
		return nil, false
	}
	go func() {
		<-p.Done()
		<-s.running
	}()
	c := &command{id: id, text: text, p: p}
	if err := ss.add(c, dir, s.cfg.KeepCommands); err != nil {
		p.Kill(syscall.SIGKILL)
		p.Release()
		fail(w, http.StatusNotFound, "session not found: "+ss.id+" (closed)")
		return nil, false
	}
	return c, true
}

// logDecision writes the "decision" record of one gate decision.
func (s *Server) logDecision(sid, cid, text string, d cmdguard.Decision, started bool, t0 time.Time) {
	rules := make([]string, 0, len(d.Reasons))
	for _, rs := range d.Reasons {
		if !slices.Contains(rules, rs.Rule) {
			rules = append(rules, rs.Rule)
		}
	}
	level := slog.LevelInfo
	if started && d.Verdict == cmdguard.Ask {
		level = slog.LevelWarn // run without approval: --ask allow
	}
	s.log.Log(context.Background(), level, "decision", "session_id", sid, "command_id", cid, "verdict", d.Verdict.String(),
		"rules", rules, "started", started, "approved_by_ask_allow", started && d.Verdict == cmdguard.Ask,
		"duration_ms", float64(time.Since(t0).Microseconds())/1000, "command", cmdguard.TerminalSafe(text))
}

// refuse answers a command that did not start: refused by the gate (200,
// success false, status "refused", the decision and every reason), the
// server shutting down (503), or a start failure (a refusal naming it).
func (s *Server) refuse(w http.ResponseWriter, sid, id, text string, d cmdguard.Decision, err error) {
	data := refusedData{SessionID: sid, CommandID: id, Command: text, Status: "refused", Decision: d.Verdict, Reasons: d.Reasons}
	if data.Reasons == nil {
		data.Reasons = []cmdguard.Reason{}
	}
	switch {
	case errors.Is(err, cmdguard.ErrRefused):
		var hint bytes.Buffer
		s.g.Render(&hint, text, d)
		if d.Verdict == cmdguard.Ask {
			hint.WriteString("(cmdguard serve has no person to ask: a command that needs approval is refused)\n")
		}
		writeJSON(w, http.StatusOK, envelope{Success: false, Message: ptr("refused by cmdguard: " + d.Summary()), Data: data, Hint: ptr(hint.String())})
	case errors.Is(err, cmdguard.ErrClosed):
		fail(w, http.StatusServiceUnavailable, "the server is shutting down")
	default:
		data.Decision = cmdguard.Deny
		data.Reasons = append([]cmdguard.Reason{{Verdict: cmdguard.Deny, Rule: "exec.start", Message: err.Error(), Source: "cmdguard serve"}}, data.Reasons...)
		writeJSON(w, http.StatusOK, envelope{Success: false, Message: ptr("could not start the command: " + err.Error()), Data: data})
	}
}

func (s *Server) exec(w http.ResponseWriter, r *http.Request) {
	f := s.readBody(w, r)
	if f == nil {
		return
	}
	text := f.str("command", true)
	sid := f.id("session_id", false)
	dir := f.dir("exec_dir")
	env := f.env("env")
	async := f.boolean("async_mode", false)
	soft, hasSoft := f.seconds("timeout")
	hard, _ := f.seconds("hard_timeout")
	maxLen := f.integer("max_output_length", DefaultMaxOutputLength)
	if _, ok := f.raw("command"); ok && text == "" && len(f.errs) == 0 {
		f.fail("command", "String should have at least 1 character", "string_too_short")
	}
	if f.answered(w) {
		return
	}
	dir, okDir := s.checkDir(w, "exec_dir", dir)
	if !okDir {
		return
	}
	info := requestInfo(r)
	var ss *session
	if sid == "" {
		ss = newSession(newID(), s.cfg.Dir)
		if code, err := s.addSession(ss); err != nil {
			fail(w, code, err.Error())
			return
		}
	} else if ss = s.session(sid); ss == nil {
		info.session = sid
		fail(w, http.StatusNotFound, "session not found: "+sid)
		return
	}
	info.session = ss.id
	c, started := s.start(w, r, ss, sid == "", text, dir, env, hard)
	if !started {
		return
	}
	var res exec.Result
	if async {
		res, _ = c.p.Status()
	} else {
		ctx := r.Context()
		if hasSoft {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, time.Duration(soft*float64(time.Second)))
			defer cancel()
		}
		res, _ = c.p.Wait(ctx)
	}
	ss.touch()
	out, _ := truncateMiddle(res.Stdout.String(), int(min(maxLen, 1<<40)))
	errOut, _ := truncateMiddle(res.Stderr.String(), int(min(maxLen, 1<<40)))
	data := execData{
		SessionID: ss.id, CommandID: c.id, Command: c.text, Status: string(res.Status),
		Stdout: nullIfEmpty(out), Stderr: nullIfEmpty(errOut), ExitCode: exitCode(res),
		Offset: res.Stdout.Next, StderrOffset: res.Stderr.Next, Signal: signalOf(res),
		StdoutLost: res.Stdout.Offset, StderrLost: res.Stderr.Offset,
	}
	msg := "Operation successful"
	if res.Status == exec.StatusRunning {
		msg = "command is running: read its output with /v1/bash/output"
	}
	ok(w, msg, data)
}

// target finds the session and the command a request names (the current
// command without command_id); it answers 404 itself.
func (s *Server) target(w http.ResponseWriter, r *http.Request, sid, cid string, needCommand bool) (*session, *command, bool) {
	info := requestInfo(r)
	info.session, info.command = sid, cid
	ss := s.session(sid)
	if ss == nil {
		fail(w, http.StatusNotFound, "session not found: "+sid)
		return nil, nil, false
	}
	ss.touch()
	var c *command
	if cid != "" {
		if c = ss.find(cid); c == nil {
			fail(w, http.StatusNotFound, "command not found: "+cid+" in session "+sid)
			return nil, nil, false
		}
	} else if c = ss.current(); c == nil && needCommand {
		fail(w, http.StatusNotFound, "no command in session "+sid)
		return nil, nil, false
	}
	if c != nil {
		info.command = c.id
	}
	return ss, c, true
}

func (s *Server) output(w http.ResponseWriter, r *http.Request) {
	f := s.readBody(w, r)
	if f == nil {
		return
	}
	sid := f.id("session_id", true)
	cid := f.id("command_id", false)
	off := f.integer("offset", 0)
	eoff := f.integer("stderr_offset", 0)
	wait := f.boolean("wait", false)
	wt := DefaultWaitTimeout
	if v, ok := f.seconds("wait_timeout"); ok {
		wt = time.Duration(v * float64(time.Second))
	}
	if f.answered(w) {
		return
	}
	ss, c, found := s.target(w, r, sid, cid, false)
	if !found {
		return
	}
	data := outputData{SessionID: ss.id, Offset: off, StderrOffset: eoff}
	if c == nil {
		ok(w, "no command in this session yet", data)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), wt)
	if !wait {
		cancel() // Poll answers at once with what there is
	}
	defer cancel()
	res, _ := c.p.Poll(ctx, off, eoff, 0)
	if wait && res.Status == exec.StatusRunning && (res.Stdout.Next > off || res.Stderr.Next > eoff) {
		// New output has come: give the command a moment to end, so that
		// its last output and its exit come in one answer.
		t := time.NewTimer(outputSettle)
		select {
		case <-c.p.Done():
			res, _ = c.p.Poll(done, off, eoff, 0)
		case <-t.C:
		case <-ctx.Done():
		}
		t.Stop()
	}
	data.Stdout, data.Stderr = res.Stdout.String(), res.Stderr.String()
	data.Offset, data.StderrOffset = res.Stdout.Next, res.Stderr.Next
	data.StdoutLost, data.StderrLost = res.Stdout.Lost, res.Stderr.Lost
	data.Command = c.info(res)
	msg := "Operation successful"
	if res.Stdout.Lost > 0 || res.Stderr.Lost > 0 {
		msg = fmt.Sprintf("output before the kept window was dropped: %d stdout and %d stderr bytes lost (see stdout_lost, stderr_lost)", res.Stdout.Lost, res.Stderr.Lost)
	}
	ok(w, msg, data)
}

func (s *Server) write(w http.ResponseWriter, r *http.Request) {
	f := s.readBody(w, r)
	if f == nil {
		return
	}
	sid := f.id("session_id", true)
	cid := f.id("command_id", false)
	input := f.str("input", true)
	if f.answered(w) {
		return
	}
	_, c, found := s.target(w, r, sid, cid, true)
	if !found {
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
	defer cancel()
	n, err := c.p.Write(ctx, []byte(input))
	if err != nil {
		msg := fmt.Sprintf("wrote %d of %d bytes to %s: %v", n, len(input), c.id, err)
		if errors.Is(err, exec.ErrProcessDone) || !c.running() {
			msg = fmt.Sprintf("command %s is not running (wrote %d of %d bytes)", c.id, n, len(input))
		}
		writeJSON(w, http.StatusConflict, envelope{Success: false, Message: ptr(msg), Data: map[string]any{"command_id": c.id, "written": n}})
		return
	}
	ok(w, "Operation successful", map[string]any{"command_id": c.id, "written": n})
}

// killSignals are the signals /kill sends.
var killSignals = []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL, syscall.SIGINT}

func (s *Server) kill(w http.ResponseWriter, r *http.Request) {
	f := s.readBody(w, r)
	if f == nil {
		return
	}
	sid := f.id("session_id", true)
	cid := f.id("command_id", false)
	name := f.str("signal", false)
	sig := syscall.SIGTERM
	if name != "" {
		var good bool
		sig, good = exec.ParseSignal(name)
		if !good || !slices.Contains(killSignals, sig) {
			f.fail("signal", "Value error, signal must be SIGTERM, SIGKILL or SIGINT", "value_error")
		}
	}
	if f.answered(w) {
		return
	}
	_, c, found := s.target(w, r, sid, cid, true)
	if !found {
		return
	}
	if !c.running() {
		res, _ := c.p.Status()
		ok(w, "command had already ended", c.info(res))
		return
	}
	res, _ := c.p.Kill(sig)
	ok(w, fmt.Sprintf("sent %s to the process group of %s", exec.SignalName(sig), c.id), c.info(res))
}

func (s *Server) listSessions(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	all := make([]*session, 0, len(s.sessions))
	for _, ss := range s.sessions {
		all = append(all, ss)
	}
	s.mu.Unlock()
	slices.SortFunc(all, func(a, b *session) int { return a.created.Compare(b.created) })
	infos := make([]sessionInfo, 0, len(all))
	for _, ss := range all {
		infos = append(infos, ss.info())
	}
	ok(w, "Operation successful", infos)
}

func (s *Server) createSession(w http.ResponseWriter, r *http.Request) {
	f := s.readBody(w, r)
	if f == nil {
		return
	}
	sid := f.id("session_id", false)
	dir := f.dir("exec_dir")
	snap := f.dir("snapshot_path")
	if f.answered(w) {
		return
	}
	dir, okDir := s.checkDir(w, "exec_dir", dir)
	if !okDir {
		return
	}
	if sid == "" {
		sid = newID()
	}
	if dir == "" {
		dir = s.cfg.Dir
	}
	ss := newSession(sid, dir)
	requestInfo(r).session = sid
	var script []byte
	if snap != "" {
		// Reading the snapshot is judged as `cat -- PATH` would be, so
		// that an ignored file is never read: first the path given, then,
		// once it is open, the file it resolved to (what is read is the
		// file judged, whatever is renamed meanwhile). Its text is then a
		// command like any other, run once as the session's first command.
		if !s.mayRead(w, r, sid, dir, snap) {
			return
		}
		f, err := os.OpenFile(snap, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			invalid(w, http.StatusUnprocessableEntity, []detailItem{{Loc: []any{"body", "snapshot_path"}, Msg: "Value error, cannot read snapshot_path: " + err.Error(), Type: "value_error"}})
			return
		}
		defer f.Close()
		real, err := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", f.Fd()))
		if err != nil || (real != snap && !s.mayRead(w, r, sid, dir, real)) {
			if err != nil {
				s.refuse(w, "", "", snap, cmdguard.Decision{}, fmt.Errorf("%w: cannot resolve snapshot_path: %v", cmdguard.ErrRefused, err))
			}
			return
		}
		if script, err = readSnapshot(f, snap); err != nil {
			invalid(w, http.StatusUnprocessableEntity, []detailItem{{Loc: []any{"body", "snapshot_path"}, Msg: "Value error, " + err.Error(), Type: "value_error"}})
			return
		}
	}
	if code, err := s.addSession(ss); err != nil {
		fail(w, code, err.Error())
		return
	}
	if snap != "" {
		c, started := s.start(w, r, ss, true, string(script), "", nil, 0)
		if !started {
			return
		}
		c.p.Wait(r.Context())
	}
	ok(w, "Operation successful", ss.info())
}

// mayRead judges reading path as `cat -- PATH`; it answers the refusal
// itself and reports whether the read may go on.
func (s *Server) mayRead(w http.ResponseWriter, r *http.Request, sid, dir, path string) bool {
	read, _ := cmdguard.CommandLine("cat", []string{"--", path})
	t0 := time.Now()
	ctx, cancel := context.WithTimeout(r.Context(), checkTimeout)
	d, err := s.g.Check(ctx, cmdguard.Request{Command: read, Cwd: dir, BaseEnv: s.cfg.BaseEnv})
	cancel()
	pass := err == nil && (d.Verdict == cmdguard.Allow || d.Verdict == cmdguard.Ask && s.cfg.AllowAsk)
	s.logDecision(sid, "", read, d, pass, t0)
	if !pass {
		s.refuse(w, "", "", read, d, fmt.Errorf("%w: %v", cmdguard.ErrRefused, err))
	}
	return pass
}

// readSnapshot reads a snapshot script from f: a regular file up to
// maxSnapshot bytes.
func readSnapshot(f *os.File, path string) ([]byte, error) {
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("snapshot_path is not a regular file: %s", path)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxSnapshot+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read snapshot_path: %w", err)
	}
	if len(b) > maxSnapshot {
		return nil, fmt.Errorf("snapshot_path is larger than %d bytes", maxSnapshot)
	}
	if bytes.IndexByte(b, 0) >= 0 || len(bytes.TrimSpace(b)) == 0 {
		return nil, fmt.Errorf("snapshot_path is empty or not a shell script: %s", path)
	}
	return b, nil
}

func (s *Server) closeSession(w http.ResponseWriter, r *http.Request) {
	sid := r.PathValue("session_id")
	requestInfo(r).session = sid
	ss := s.session(sid)
	if ss == nil {
		fail(w, http.StatusNotFound, "session not found: "+sid)
		return
	}
	s.removeSession(ss)
	ss.close()
	ok(w, "session closed", ss.info())
}
