package acp

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/cmdguard/cmdguard"
)

// MaxMessage is the longest JSON-RPC message (one line) the proxy reads;
// a longer one ends the session.
const MaxMessage = 64 << 20

// Proxy sits between an editor and an ACP agent on their stdio streams.
// It forwards every message both ways, except that it:
//
//   - sets clientCapabilities.terminal in the editor's initialize request,
//     and answers the agent's terminal/* requests itself with [Terminals]
//     (the editor never sees them);
//   - asks the person through the editor (session/request_permission:
//     allow once, allow always, reject) when the gate's verdict is ask;
//     "allow always" adds the narrowest allow prefix to the policy file;
//   - checks the agent's fs/read_text_file and fs/write_text_file against
//     the ignore files and protected paths before the editor sees them;
//   - shows each of its terminals to the person: a terminal the agent
//     embeds in a tool call ({"type":"terminal"}) reaches the editor as
//     text content with the command, its output and how it ended, updated
//     while it runs.
//
// Messages from the agent are re-encoded at the top level (jsonrpc, id,
// method, params, result, error; their values byte for byte), so that
// the editor reads exactly the fields the proxy read. Messages from the
// editor pass as they are, but for initialize.
//
// The zero Proxy refuses every command (no Guard). A Proxy serves one
// editor–agent pair per Run call.
type Proxy struct {
	// Guard checks the agent's commands and file requests.
	Guard *cmdguard.Guard
	// BaseEnv is the trusted environment of commands (nil: the host's).
	BaseEnv []string
	// Log receives diagnostics (refusals, dropped messages); nil
	// discards them.
	Log *slog.Logger
	// Refresh is how often a running terminal's output shown in a tool
	// call is updated; zero means 300ms.
	Refresh time.Duration
	// Sandbox runs every command under the policy's kernel sandbox (as
	// cmdguard run --sandbox; see [cmdguard.RunRequest].Sandbox), and
	// checks it as such: what the sandbox enforces is not asked about.
	// A policy whose sandbox: section enables the sandbox runs commands
	// there without it.
	Sandbox bool
	// Agent names the agent (the program the proxy talks to), for the
	// decision log.
	Agent string
}

// Run proxies between the editor (editorIn, editorOut) and the agent
// (agentIn, agentOut) until either side's output ends or ctx is done.
// Then it releases every terminal it started (their commands end) and
// closes agentIn, so that the agent sees the end of its input. It returns
// [ErrEditorClosed] or [ErrAgentClosed] for the side that ended first, or
// the read error. The goroutine reading the other side ends when its
// reader does: close it (a program that exits need not).
func (p *Proxy) Run(ctx context.Context, editorIn io.Reader, editorOut io.Writer, agentIn io.WriteCloser, agentOut io.Reader) error {
	ctx, cancel := context.WithCancel(ctx)
	s := &session{
		p:        p,
		ctx:      ctx,
		toEditor: &lineWriter{w: editorOut},
		toAgent:  &lineWriter{w: agentIn},
		pending:  map[string]chan message{},
		inflight: map[string]context.CancelFunc{},
		watches:  map[string]*watch{},
		nonce:    nonce(),
		log:      p.Log,
	}
	if s.log == nil {
		s.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s.terms = &Terminals{Guard: p.Guard, BaseEnv: p.BaseEnv, Approve: s.approveCommand, Sandbox: p.Sandbox, Agent: p.Agent}
	ended := make(chan error, 2)
	go func() { ended <- s.fromEditor(editorIn) }()
	go func() { ended <- s.fromAgent(agentOut) }()
	var err error
	select {
	case err = <-ended:
	case <-ctx.Done():
		err = ctx.Err()
	}
	cancel()
	agentIn.Close()
	s.mu.Lock()
	s.closing = true // no handler starts after this
	s.mu.Unlock()
	s.wg.Wait() // handlers of the agent's requests see ctx end
	s.terms.Close()
	return err
}

// The side that ended a session.
var (
	ErrEditorClosed = errors.New("acp proxy: the editor closed its output")
	ErrAgentClosed  = errors.New("acp proxy: the agent closed its output")
)

// session is one Run.
type session struct {
	p        *Proxy
	ctx      context.Context
	terms    *Terminals
	toEditor *lineWriter
	toAgent  *lineWriter
	log      *slog.Logger
	wg       sync.WaitGroup

	nonce  string
	nextID atomic.Uint64

	mu       sync.Mutex
	closing  bool                          // Run is ending: no new goroutines
	pending  map[string]chan message       // our requests to the editor
	inflight map[string]context.CancelFunc // the agent's requests we serve
	watches  map[string]*watch             // tool calls showing terminals, by session+id
}

// message is a JSON-RPC 2.0 message: a request (ID and Method), a
// notification (Method) or a response (ID with Result or Error).
type message struct {
	JSONRPC string          `json:"jsonrpc,omitempty"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   json.RawMessage `json:"error,omitempty"`
}

func (m *message) isRequest() bool      { return m.Method != "" && len(m.ID) > 0 }
func (m *message) isNotification() bool { return m.Method != "" && len(m.ID) == 0 }

// encode writes m as one line: the top-level fields in a fixed order, the
// values as they came.
func (m *message) encode() []byte {
	b := make([]byte, 0, 64+len(m.ID)+len(m.Method)+len(m.Params)+len(m.Result)+len(m.Error))
	b = append(b, `{"jsonrpc":"2.0"`...)
	if len(m.ID) > 0 {
		b = append(b, `,"id":`...)
		b = append(b, m.ID...)
	}
	if m.Method != "" {
		b = append(b, `,"method":`...)
		b = strconv.AppendQuote(b, m.Method) // methods are ASCII names; Go and JSON quoting agree there
	}
	for _, f := range []struct {
		name string
		v    json.RawMessage
	}{{"params", m.Params}, {"result", m.Result}, {"error", m.Error}} {
		if len(f.v) > 0 {
			b = append(b, `,"`...)
			b = append(b, f.name...)
			b = append(b, `":`...)
			b = append(b, f.v...)
		}
	}
	return append(b, '}', '\n')
}

// lineWriter writes whole lines, one writer at a time.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (w *lineWriter) write(line []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	_, err := w.w.Write(line)
	return err
}

func (w *lineWriter) send(m message) error { return w.write(m.encode()) }

// lineReader reads newline-delimited messages of at most MaxMessage bytes.
type lineReader struct {
	r   *bufio.Reader
	buf []byte
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next non-empty line with its newline; it is valid
// until the following call.
func (l *lineReader) next() ([]byte, error) {
	for {
		line, err := l.r.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			l.buf = append(l.buf[:0], line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				if len(l.buf) > MaxMessage {
					return nil, fmt.Errorf("message longer than %d bytes", MaxMessage)
				}
				line, err = l.r.ReadSlice('\n')
				l.buf = append(l.buf, line...)
			}
			line = l.buf
		}
		if len(bytes.TrimSpace(line)) > 0 {
			if err == io.EOF {
				line = append(line, '\n') // a last line without its newline
				err = nil
			}
			return line, err
		}
		if err != nil {
			return nil, err
		}
	}
}

// fromEditor forwards the editor's messages to the agent.
func (s *session) fromEditor(r io.Reader) error {
	lr := newLineReader(r)
	for {
		line, err := lr.next()
		if err != nil {
			if err == io.EOF {
				return ErrEditorClosed
			}
			return fmt.Errorf("acp proxy: read from the editor: %w", err)
		}
		// Fast path: a line that names neither initialize nor one of our
		// request ids goes through untouched, unparsed.
		if !bytes.Contains(line, []byte(`"initialize"`)) && !bytes.Contains(line, []byte(s.nonce)) {
			if err := s.toAgent.write(line); err != nil {
				return fmt.Errorf("acp proxy: write to the agent: %w", err)
			}
			continue
		}
		var m message
		if err := json.Unmarshal(line, &m); err != nil {
			s.toAgent.write(line) // the agent answers the parse error
			continue
		}
		switch {
		case m.Method == "" && len(m.ID) > 0 && s.ours(m.ID):
			s.answer(m) // a late answer, to a request given up, is dropped
			continue
		case m.isRequest() && m.Method == sdk.AgentMethodInitialize:
			if params, err := withTerminal(m.Params); err == nil {
				m.Params = params
				line = m.encode()
			} else {
				s.log.Warn("initialize params not understood; forwarded as they are", "err", err)
			}
		}
		if err := s.toAgent.write(line); err != nil {
			return fmt.Errorf("acp proxy: write to the agent: %w", err)
		}
	}
}

// withTerminal sets clientCapabilities.terminal in initialize params,
// keeping every other field.
func withTerminal(params json.RawMessage) (json.RawMessage, error) {
	var p map[string]json.RawMessage
	if err := json.Unmarshal(params, &p); err != nil || p == nil {
		return nil, fmt.Errorf("params are not an object: %v", err)
	}
	caps := map[string]json.RawMessage{}
	if raw, ok := p["clientCapabilities"]; ok && string(raw) != "null" {
		if err := json.Unmarshal(raw, &caps); err != nil || caps == nil {
			return nil, fmt.Errorf("clientCapabilities is not an object: %v", err)
		}
	}
	caps["terminal"] = json.RawMessage("true")
	raw, err := json.Marshal(caps)
	if err != nil {
		return nil, err
	}
	p["clientCapabilities"] = raw
	return json.Marshal(p)
}

// ours reports whether id is one of the proxy's own request ids.
func (s *session) ours(id json.RawMessage) bool {
	var v string
	return json.Unmarshal(id, &v) == nil && strings.HasPrefix(v, "cmdguard-"+s.nonce+"-")
}

// answer routes the editor's response to one of our requests.
func (s *session) answer(m message) bool {
	key := idKey(m.ID)
	s.mu.Lock()
	ch, ok := s.pending[key]
	delete(s.pending, key)
	s.mu.Unlock()
	if ok {
		ch <- m
	}
	return ok
}

// fromAgent forwards the agent's messages to the editor, serving
// terminal/* itself and checking fs/*.
func (s *session) fromAgent(r io.Reader) error {
	lr := newLineReader(r)
	for {
		line, err := lr.next()
		if err != nil {
			if err == io.EOF {
				return ErrAgentClosed
			}
			return fmt.Errorf("acp proxy: read from the agent: %w", err)
		}
		var m message
		if err := json.Unmarshal(line, &m); err != nil {
			// What the proxy cannot read, it does not pass: the editor
			// might read it otherwise.
			s.log.Warn("dropped a message from the agent that is not one JSON object", "err", err, "bytes", len(line))
			continue
		}
		switch {
		case m.isRequest() && strings.HasPrefix(m.Method, "terminal/"):
			s.serve(m, s.terminal)
			continue
		case m.isRequest() && (m.Method == sdk.ClientMethodFsReadTextFile || m.Method == sdk.ClientMethodFsWriteTextFile):
			s.serve(m, s.file)
			continue
		case m.isNotification() && (strings.HasPrefix(m.Method, "terminal/") || strings.HasPrefix(m.Method, "fs/")):
			// Not a request the proxy serves or checks: it does not reach
			// the editor either.
			s.log.Warn("dropped a "+m.Method+" notification from the agent", "bytes", len(line))
			continue
		case m.isNotification() && m.Method == "$/cancel_request":
			if s.cancel(m.Params) {
				continue
			}
		case m.isNotification() && m.Method == sdk.ClientMethodSessionUpdate && bytes.Contains(m.Params, []byte(`"terminal"`)):
			var after func()
			m.Params, after = s.showTerminals(m.Params)
			if err := s.toEditor.send(m); err != nil {
				return fmt.Errorf("acp proxy: write to the editor: %w", err)
			}
			if after != nil {
				after() // its updates follow the one they update
			}
			continue
		}
		if err := s.toEditor.send(m); err != nil {
			return fmt.Errorf("acp proxy: write to the editor: %w", err)
		}
	}
}

// serve answers one of the agent's requests on its own goroutine; a
// $/cancel_request for it cancels its context. handle returns the
// message to send: a response to the agent, or a request to forward to
// the editor.
func (s *session) serve(m message, handle func(ctx context.Context, m message) (message, *lineWriter)) {
	key := idKey(m.ID)
	ctx, cancel := context.WithCancel(s.ctx)
	s.mu.Lock()
	s.inflight[key] = cancel
	s.mu.Unlock()
	if !s.spawn(func() {
		defer func() {
			s.mu.Lock()
			delete(s.inflight, key)
			s.mu.Unlock()
			cancel()
		}()
		out, to := func() (out message, to *lineWriter) {
			defer func() {
				if r := recover(); r != nil {
					s.log.Error("panic while serving the agent", "method", m.Method, "panic", r)
					out, to = errorReply(m.ID, sdk.NewInternalError(map[string]any{"error": fmt.Sprintf("cmdguard: panic: %v", r)})), s.toAgent
				}
			}()
			return handle(ctx, m)
		}()
		to.send(out)
	}) {
		cancel()
	}
}

// spawn runs f on a goroutine that Run waits for, unless Run is ending.
func (s *session) spawn(f func()) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closing {
		return false
	}
	s.wg.Go(f)
	return true
}

// idKey is the canonical form of a JSON-RPC id.
func idKey(id json.RawMessage) string {
	var v any
	if json.Unmarshal(id, &v) == nil {
		if b, err := json.Marshal(v); err == nil {
			return string(b)
		}
	}
	return string(id)
}

// cancel cancels the agent's request that a $/cancel_request names, if
// the proxy serves it.
func (s *session) cancel(params json.RawMessage) bool {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil || len(p.RequestID) == 0 {
		return false
	}
	s.mu.Lock()
	cancel, ok := s.inflight[idKey(p.RequestID)]
	s.mu.Unlock()
	if ok {
		cancel()
	}
	return ok
}

func errorReply(id json.RawMessage, e *sdk.RequestError) message {
	b, err := json.Marshal(e)
	if err != nil {
		b = []byte(`{"code":-32603,"message":"Internal error"}`)
	}
	return message{ID: id, Error: b}
}

// reply is the response to request id: result, or err as a JSON-RPC
// error the way acp-go-sdk converts it.
func reply(id json.RawMessage, result any, err error) message {
	if err != nil {
		var re *sdk.RequestError
		switch {
		case errors.As(err, &re):
		case errors.Is(err, context.Canceled):
			re = sdk.NewRequestCancelled(map[string]any{"error": err.Error()})
		default:
			re = sdk.NewInternalError(map[string]any{"error": err.Error()})
		}
		return errorReply(id, re)
	}
	b, merr := json.Marshal(result)
	if merr != nil {
		return errorReply(id, sdk.NewInternalError(map[string]any{"error": merr.Error()}))
	}
	return message{ID: id, Result: b}
}

// decode unmarshals and validates params as acp-go-sdk does.
func decode(params json.RawMessage, v interface{ Validate() error }) *sdk.RequestError {
	if err := json.Unmarshal(params, v); err != nil {
		return sdk.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	if err := v.Validate(); err != nil {
		return sdk.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	return nil
}

// terminal serves one terminal/* request.
func (s *session) terminal(ctx context.Context, m message) (message, *lineWriter) {
	var out message
	switch m.Method {
	case sdk.ClientMethodTerminalCreate:
		out = serveCall(ctx, m, func(ctx context.Context, p sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error) {
			r, err := s.terms.CreateTerminal(ctx, p)
			if err != nil {
				s.log.Info("refused terminal/create", "command", p.Command, "args", p.Args, "err", err)
			}
			return r, err
		})
	case sdk.ClientMethodTerminalOutput:
		out = serveCall(ctx, m, s.terms.TerminalOutput)
	case sdk.ClientMethodTerminalWaitForExit:
		out = serveCall(ctx, m, s.terms.WaitForTerminalExit)
	case sdk.ClientMethodTerminalKill:
		out = serveCall(ctx, m, s.terms.KillTerminal)
	case sdk.ClientMethodTerminalRelease:
		out = serveCall(ctx, m, s.terms.ReleaseTerminal)
	default:
		out = errorReply(m.ID, sdk.NewMethodNotFound(m.Method))
	}
	return out, s.toAgent
}

// serveCall decodes m's params as P, calls f and makes the reply: an
// invalid-params error when they do not decode or validate.
func serveCall[P any, R any, PP interface {
	*P
	Validate() error
}](ctx context.Context, m message, f func(context.Context, P) (R, error)) message {
	var p P
	if e := decode(m.Params, PP(&p)); e != nil {
		return errorReply(m.ID, e)
	}
	result, err := f(ctx, p)
	return reply(m.ID, result, err)
}

// file checks an fs/read_text_file or fs/write_text_file request and
// forwards it to the editor when the gate lets it.
func (s *session) file(ctx context.Context, m message) (message, *lineWriter) {
	var (
		path    string
		session sdk.SessionId
		params  any
		write   = m.Method == sdk.ClientMethodFsWriteTextFile
	)
	if write {
		var p sdk.WriteTextFileRequest
		if e := decode(m.Params, &p); e != nil {
			return errorReply(m.ID, e), s.toAgent
		}
		path, session, params = p.Path, p.SessionId, p
	} else {
		var p sdk.ReadTextFileRequest
		if e := decode(m.Params, &p); e != nil {
			return errorReply(m.ID, e), s.toAgent
		}
		path, session, params = p.Path, p.SessionId, p
	}
	if !filepath.IsAbs(path) {
		return errorReply(m.ID, sdk.NewInvalidParams(map[string]any{"error": fmt.Sprintf("path %q is not absolute", path)})), s.toAgent
	}
	line, d := s.checkFile(ctx, path, write)
	switch {
	case d.Verdict == cmdguard.Allow:
	case d.Verdict == cmdguard.Ask && s.ask(ctx, session, line, d, false):
	default:
		s.log.Info("refused "+m.Method, "path", path, "decision", d.Summary())
		return errorReply(m.ID, refusal(line, d)), s.toAgent
	}
	// The editor gets the params the proxy checked, re-encoded.
	b, err := json.Marshal(params)
	if err != nil {
		return errorReply(m.ID, sdk.NewInternalError(map[string]any{"error": err.Error()})), s.toAgent
	}
	m.Params = b
	return m, s.toEditor
}

// checkFile judges a read or a write of path with the gate's file
// checks (Guard.CheckFile): ignore files, protected paths, paths outside
// the root. The policy's command prefixes are about commands, not about
// the editor's file access, so they are not consulted. It returns the
// equivalent command line (cat -- PATH, tee -- PATH) for the refusal.
func (s *session) checkFile(ctx context.Context, path string, write bool) (string, cmdguard.Decision) {
	prog := "cat"
	if write {
		prog = "tee"
	}
	line, err := cmdguard.CommandLine(prog, []string{"--", path})
	if err != nil {
		return path, denyDecision("gate.error", err.Error())
	}
	d, _ := s.p.Guard.CheckFile(ctx, cmdguard.FileRequest{Path: path, Write: write})
	return line, d
}

func denyDecision(rule, msg string) cmdguard.Decision {
	return cmdguard.Decision{Verdict: cmdguard.Deny, Reasons: []cmdguard.Reason{{Verdict: cmdguard.Deny, Rule: rule, Message: msg, Source: "builtin"}}}
}

// approveCommand is the Terminals' Approve: it asks the person.
func (s *session) approveCommand(ctx context.Context, session sdk.SessionId, command string, d cmdguard.Decision) bool {
	return s.ask(ctx, session, command, d, true)
}

// Permission option ids of an ask.
const (
	optAllowOnce   = "allow_once"
	optAllowAlways = "allow_always"
	optReject      = "reject"
)

// ask asks the person through the editor whether command may run (or the
// file be read or written): session/request_permission with allow once,
// allow always (when always is set and an allow prefix can express it)
// and reject. Anything but an allow — an error, a cancelled prompt, the
// end of the session — is a no.
func (s *session) ask(ctx context.Context, session sdk.SessionId, command string, d cmdguard.Decision, always bool) bool {
	g := s.p.Guard
	var prefixes [][]string
	if always && g.Policy().Path() != "" {
		if p, err := g.AllowPrefixes(d); err == nil {
			prefixes = p
		}
	}
	var why strings.Builder
	g.Render(&why, command, d)
	id := sdk.ToolCallId(fmt.Sprintf("cmdguard-ask-%s-%d", s.nonce, s.nextID.Add(1)))
	title := "cmdguard: allow `" + oneLine(command, 120) + "`?"
	options := []sdk.PermissionOption{{OptionId: optAllowOnce, Name: "Allow once", Kind: sdk.PermissionOptionKindAllowOnce}}
	if prefixes != nil {
		var names []string
		for _, p := range prefixes {
			names = append(names, strings.Join(p, " "))
		}
		options = append(options, sdk.PermissionOption{OptionId: optAllowAlways, Name: "Always allow `" + oneLine(strings.Join(names, "`, `"), 120) + "` (adds it to " + filepath.Base(g.Policy().Path()) + ")", Kind: sdk.PermissionOptionKindAllowAlways})
	}
	options = append(options, sdk.PermissionOption{OptionId: optReject, Name: "Reject", Kind: sdk.PermissionOptionKindRejectOnce})
	req := sdk.RequestPermissionRequest{
		SessionId: session,
		Options:   options,
		ToolCall: sdk.ToolCallUpdate{
			ToolCallId: id,
			Title:      &title,
			Kind:       sdk.Ptr(sdk.ToolKindExecute),
			Status:     sdk.Ptr(sdk.ToolCallStatusPending),
			Content:    []sdk.ToolCallContent{sdk.ToolContent(sdk.TextBlock(codeBlock(why.String())))},
			RawInput:   map[string]any{"command": command, "decision": d.Verdict, "reasons": d.Reasons},
		},
	}
	var resp sdk.RequestPermissionResponse
	if err := s.request(ctx, sdk.ClientMethodSessionRequestPermission, req, &resp); err != nil {
		s.log.Info("ask not answered: refused", "command", command, "err", err)
		s.finishAsk(session, id, false, "not answered: "+err.Error())
		return false
	}
	var choice sdk.PermissionOptionId
	if resp.Outcome.Selected != nil {
		choice = resp.Outcome.Selected.OptionId
	}
	switch choice {
	case optAllowOnce:
		s.finishAsk(session, id, true, "allowed once")
		return true
	case optAllowAlways:
		if prefixes == nil {
			break
		}
		if err := g.AddAllow(prefixes); err != nil {
			s.log.Error("allow always: could not write the policy", "err", err)
			s.finishAsk(session, id, false, "could not add the allow rule: "+err.Error())
			return false
		}
		s.finishAsk(session, id, true, "allowed; added to "+g.Policy().Path())
		return true
	}
	s.finishAsk(session, id, false, "rejected")
	return false
}

// finishAsk ends the ask's tool call in the editor.
func (s *session) finishAsk(session sdk.SessionId, id sdk.ToolCallId, allowed bool, note string) {
	status := sdk.ToolCallStatusFailed
	if allowed {
		status = sdk.ToolCallStatusCompleted
	}
	s.notify(sdk.ClientMethodSessionUpdate, sdk.SessionNotification{SessionId: session, Update: sdk.UpdateToolCall(id,
		sdk.WithUpdateStatus(status), sdk.WithUpdateRawOutput(map[string]any{"cmdguard": note}))})
}

// request sends a request of the proxy's own to the editor and waits for
// its answer.
func (s *session) request(ctx context.Context, method string, params, result any) error {
	b, err := json.Marshal(params)
	if err != nil {
		return err
	}
	id := json.RawMessage(strconv.Quote(fmt.Sprintf("cmdguard-%s-%d", s.nonce, s.nextID.Add(1))))
	ch := make(chan message, 1)
	key := idKey(id)
	s.mu.Lock()
	s.pending[key] = ch
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.pending, key)
		s.mu.Unlock()
	}()
	if err := s.toEditor.send(message{ID: id, Method: method, Params: b}); err != nil {
		return err
	}
	select {
	case m := <-ch:
		if len(m.Error) > 0 {
			return fmt.Errorf("the editor answered %s", m.Error)
		}
		return json.Unmarshal(m.Result, result)
	case <-ctx.Done():
		// The agent gave up (or the session ended): the editor may
		// close its prompt.
		s.notify("$/cancel_request", map[string]json.RawMessage{"requestId": id})
		return ctx.Err()
	}
}

func (s *session) notify(method string, params any) {
	b, err := json.Marshal(params)
	if err == nil {
		s.toEditor.send(message{Method: method, Params: b})
	}
}

func nonce() string {
	var b [6]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// oneLine escapes s for one line and cuts it to n bytes.
func oneLine(s string, n int) string {
	s = cmdguard.TerminalSafe(s)
	if len(s) > n {
		cut := n
		for cut > 0 && !isRuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return strings.ReplaceAll(s, "`", "'")
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// codeBlock fences text as Markdown code, with a fence longer than any
// run of backticks in it.
func codeBlock(text string) string {
	fence, run := 3, 0
	for i := 0; i < len(text); i++ {
		if text[i] == '`' {
			run++
			fence = max(fence, run+1)
		} else {
			run = 0
		}
	}
	f := strings.Repeat("`", fence)
	return f + "\n" + strings.TrimSuffix(text, "\n") + "\n" + f
}
