package acp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/exec"
)

// CodeRefused is the JSON-RPC error code of a terminal/create (or fs/*)
// request that the gate refused. ACP defines no code for it; -32001 is in
// the implementation-defined server range and unused by ACP v1. The
// error's data holds the decision (see [RefusalData]).
const CodeRefused = -32001

// MaxTerminals is how many terminals one [Terminals] holds at once unless
// Terminals.Max says otherwise; a terminal/create beyond it is an error.
const MaxTerminals = 64

// RefusalData is the data of a refusal error: what was checked and why it
// was refused.
type RefusalData struct {
	Command  string            `json:"command"`
	Decision cmdguard.Verdict  `json:"decision"`
	Reasons  []cmdguard.Reason `json:"reasons"`
	Summary  string            `json:"summary"`
}

// Terminals serves the five terminal methods of an ACP client
// (terminal/create, output, wait_for_exit, kill, release) through a
// cmdguard Guard: every command is checked before it starts, runs with
// bash in its own process group, and is ended by kill, release or Close.
// Embed it in a type that implements the rest of [sdk.Client].
//
// The zero Terminals refuses every command (a nil Guard denies all). A
// Terminals is safe for concurrent use; the acp-go-sdk runs each inbound
// request on its own goroutine.
type Terminals struct {
	// Guard checks and starts the commands.
	Guard *cmdguard.Guard
	// Approve is asked when the verdict is Ask, with the checked command
	// line; the command runs only if it returns true. ctx is the
	// terminal/create request's. A nil Approve refuses every Ask.
	Approve func(ctx context.Context, session sdk.SessionId, command string, d cmdguard.Decision) bool
	// BaseEnv is the trusted environment ("KEY=value"); nil means the
	// host's. The request's env is judged against it (see
	// [cmdguard.Request]).
	BaseEnv []string
	// Max is the most terminals held at once; zero means MaxTerminals.
	Max int
	// Sandbox runs every command under the policy's kernel sandbox (as
	// cmdguard run --sandbox; see [cmdguard.RunRequest].Sandbox), and
	// checks it as such: what the sandbox enforces is not asked about.
	// A policy whose sandbox: section enables the sandbox runs commands
	// there without it.
	Sandbox bool
	// Agent names the agent, for the decision log (Request.Agent).
	Agent string

	mu    sync.Mutex
	terms map[string]*terminal
	// held counts the terminals in terms and those being created.
	held int
	// gone keeps what released terminals showed, for display after
	// release (newest last, bounded).
	gone []*terminal
}

// A terminal is one started command.
type terminal struct {
	id      string
	session sdk.SessionId
	command string
	p       *exec.Process
	// limit is the agent's outputByteLimit; -1 for none.
	limit int
	// final holds the output and status at release.
	final *Snapshot
}

// Snapshot is what a terminal shows: its command, output (the tail kept)
// and, once it has ended, its exit status.
type Snapshot struct {
	Command    string
	Output     string
	Truncated  bool
	ExitStatus *sdk.TerminalExitStatus
	Released   bool
}

var _ interface {
	CreateTerminal(context.Context, sdk.CreateTerminalRequest) (sdk.CreateTerminalResponse, error)
	TerminalOutput(context.Context, sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error)
	WaitForTerminalExit(context.Context, sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error)
	KillTerminal(context.Context, sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error)
	ReleaseTerminal(context.Context, sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error)
} = (*Terminals)(nil)

// CreateTerminal checks the command and starts it. command with args is
// quoted into one bash line; command alone is a whole shell line. env is
// judged as the request's environment; cwd must be absolute and inside
// the Guard's project root (default: the root); outputByteLimit keeps the
// newest bytes. A refused command never starts: the answer is an error
// with code [CodeRefused] whose data is a [RefusalData].
func (t *Terminals) CreateTerminal(ctx context.Context, req sdk.CreateTerminalRequest) (resp sdk.CreateTerminalResponse, err error) {
	defer func() {
		if r := recover(); r != nil {
			resp, err = sdk.CreateTerminalResponse{}, sdk.NewInternalError(map[string]any{"error": fmt.Sprintf("cmdguard: panic: %v", r)})
		}
	}()
	if t.Guard == nil {
		return resp, refusal(req.Command, cmdguard.Decision{Verdict: cmdguard.Deny, Reasons: []cmdguard.Reason{{Verdict: cmdguard.Deny, Rule: "gate.error", Message: "no guard", Source: "builtin"}}})
	}
	line, err := cmdguard.CommandLine(req.Command, req.Args)
	if err != nil {
		return resp, sdk.NewInvalidParams(map[string]any{"error": err.Error()})
	}
	cwd, err := t.cwd(req.Cwd)
	if err != nil {
		return resp, sdk.NewInvalidParams(map[string]any{"error": err.Error(), "cwd": req.Cwd})
	}
	env := make([]string, 0, len(req.Env))
	for _, v := range req.Env {
		if v.Name == "" || strings.ContainsAny(v.Name, "=\x00") || strings.ContainsRune(v.Value, 0) {
			return resp, sdk.NewInvalidParams(map[string]any{"error": fmt.Sprintf("invalid environment variable %q", v.Name)})
		}
		env = append(env, v.Name+"="+v.Value)
	}
	limit := -1
	if req.OutputByteLimit != nil {
		if *req.OutputByteLimit < 0 {
			return resp, sdk.NewInvalidParams(map[string]any{"error": "outputByteLimit must not be negative"})
		}
		limit = *req.OutputByteLimit
	}
	if !t.reserve() {
		return resp, sdk.NewInternalError(map[string]any{"error": fmt.Sprintf("too many terminals (at most %d): release some", t.max())})
	}
	rr := cmdguard.RunRequest{
		Request:     cmdguard.Request{Command: line, Cwd: cwd, Env: env, BaseEnv: t.BaseEnv, Agent: t.Agent},
		Combined:    true, // one stream in true order, as a terminal shows it
		SoftTimeout: -1,
		Sandbox:     t.Sandbox,
	}
	if limit >= 0 {
		rr.OutputLimit = max(limit, 1) // zero means the default to Start; 0 is handled when read
	}
	if t.Approve != nil {
		rr.Approve = func(d cmdguard.Decision) bool { return t.Approve(ctx, req.SessionId, line, d) }
	}
	d, p, err := t.Guard.Start(ctx, rr)
	if err != nil {
		t.unreserve()
		if errors.Is(err, cmdguard.ErrRefused) {
			return resp, refusal(line, d)
		}
		return resp, sdk.NewInternalError(map[string]any{"error": err.Error()})
	}
	term := &terminal{id: newID(), session: req.SessionId, command: line, p: p, limit: limit}
	t.mu.Lock()
	if t.terms == nil {
		t.terms = map[string]*terminal{}
	}
	t.terms[term.id] = term
	t.mu.Unlock()
	return sdk.CreateTerminalResponse{TerminalId: term.id}, nil
}

// reserve makes room for one terminal.
func (t *Terminals) reserve() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.held >= t.max() {
		return false
	}
	t.held++
	return true
}

func (t *Terminals) unreserve() {
	t.mu.Lock()
	t.held--
	t.mu.Unlock()
}

func (t *Terminals) max() int {
	if t.Max > 0 {
		return t.Max
	}
	return MaxTerminals
}

// cwd checks the requested working directory: absolute, existing, and
// inside the project root once symlinks are resolved.
func (t *Terminals) cwd(p *string) (string, error) {
	root := t.Guard.Root()
	if p == nil || *p == "" {
		return root, nil
	}
	dir := *p
	if !filepath.IsAbs(dir) {
		return "", fmt.Errorf("cwd %q is not an absolute path", dir)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", fmt.Errorf("cwd: %w", err)
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("cwd %q is not a directory", dir)
	}
	if rel, err := filepath.Rel(root, real); err != nil || rel == ".." || strings.HasPrefix(rel, "../") || filepath.IsAbs(rel) {
		return "", fmt.Errorf("cwd %q is outside the project root %s", dir, root)
	}
	return real, nil
}

// refusal is the error answer for a command the gate refused.
func refusal(command string, d cmdguard.Decision) *sdk.RequestError {
	reasons := d.Reasons
	if reasons == nil {
		reasons = []cmdguard.Reason{}
	}
	return &sdk.RequestError{
		Code:    CodeRefused,
		Message: "cmdguard refused the command: " + d.Summary(),
		Data:    RefusalData{Command: command, Decision: d.Verdict, Reasons: reasons, Summary: d.Summary()},
	}
}

// newID returns a fresh terminal id.
func newID() string {
	var b [12]byte
	rand.Read(b[:])
	return "term_" + hex.EncodeToString(b[:])
}

// errNotFound is Zed's answer for an unknown terminal id: -32603 with the
// message in data.
func errNotFound(id string) *sdk.RequestError {
	return sdk.NewInternalError(map[string]any{"error": "Terminal not found", "terminalId": id})
}

// lookup finds a live terminal of the session.
func (t *Terminals) lookup(session sdk.SessionId, id string) (*terminal, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	term := t.terms[id]
	if term == nil || term.session != session {
		return nil, errNotFound(id)
	}
	return term, nil
}

// TerminalOutput returns the output so far (the newest outputByteLimit
// bytes, cut at a character boundary, with truncated) and, once the
// command has ended, its exit status.
func (t *Terminals) TerminalOutput(ctx context.Context, req sdk.TerminalOutputRequest) (sdk.TerminalOutputResponse, error) {
	term, err := t.lookup(req.SessionId, req.TerminalId)
	if err != nil {
		return sdk.TerminalOutputResponse{}, err
	}
	s := term.snapshot()
	return sdk.TerminalOutputResponse{Output: s.Output, Truncated: s.Truncated, ExitStatus: s.ExitStatus}, nil
}

// snapshot reads the terminal's state then its output: a final state
// comes with all the output.
func (term *terminal) snapshot() Snapshot {
	r, err := term.p.Status()
	c := term.p.Read(exec.Stdout, 0)
	s := Snapshot{Command: term.command, Output: string(c.Data), Truncated: c.Truncated || c.Lost > 0}
	if term.limit == 0 {
		s.Output, s.Truncated = "", c.Next > 0
	}
	if err == nil {
		s.ExitStatus = exitStatus(r)
	}
	return s
}

func exitStatus(r exec.Result) *sdk.TerminalExitStatus {
	es := r.ExitStatus()
	if es == nil {
		return nil
	}
	return &sdk.TerminalExitStatus{ExitCode: es.ExitCode, Signal: es.Signal}
}

// WaitForTerminalExit waits for the command to end (or for the request to
// be cancelled) and returns its exit status. A wait in progress survives
// release: it returns the status the release ended the command with.
func (t *Terminals) WaitForTerminalExit(ctx context.Context, req sdk.WaitForTerminalExitRequest) (sdk.WaitForTerminalExitResponse, error) {
	term, err := t.lookup(req.SessionId, req.TerminalId)
	if err != nil {
		return sdk.WaitForTerminalExitResponse{}, err
	}
	select {
	case <-term.p.Done():
	case <-ctx.Done():
		return sdk.WaitForTerminalExitResponse{}, ctx.Err()
	}
	r, err := term.p.Status()
	if err != nil {
		return sdk.WaitForTerminalExitResponse{}, sdk.NewInternalError(map[string]any{"error": err.Error()})
	}
	es := exitStatus(r)
	if es == nil {
		return sdk.WaitForTerminalExitResponse{}, sdk.NewInternalError(map[string]any{"error": "the command's exit status is unknown"})
	}
	return sdk.WaitForTerminalExitResponse{ExitCode: es.ExitCode, Signal: es.Signal}, nil
}

// KillTerminal ends the command and its process group (SIGTERM, a grace
// period, SIGKILL) and returns once it has been reaped, so that the next
// terminal/output carries the exit status. The terminal stays valid until
// released.
func (t *Terminals) KillTerminal(ctx context.Context, req sdk.KillTerminalRequest) (sdk.KillTerminalResponse, error) {
	term, err := t.lookup(req.SessionId, req.TerminalId)
	if err != nil {
		return sdk.KillTerminalResponse{}, err
	}
	term.p.Kill(syscall.SIGTERM)
	return sdk.KillTerminalResponse{}, nil
}

// ReleaseTerminal ends the command if it still runs (SIGKILL to its
// group), frees its output and makes the id unknown.
func (t *Terminals) ReleaseTerminal(ctx context.Context, req sdk.ReleaseTerminalRequest) (sdk.ReleaseTerminalResponse, error) {
	t.mu.Lock()
	term := t.terms[req.TerminalId]
	if term == nil || term.session != req.SessionId {
		t.mu.Unlock()
		return sdk.ReleaseTerminalResponse{}, errNotFound(req.TerminalId)
	}
	delete(t.terms, req.TerminalId)
	t.held--
	t.mu.Unlock()
	t.release(term)
	return sdk.ReleaseTerminalResponse{}, nil
}

// maxGone is how many released terminals' last output is kept for display.
const maxGone = 32

func (t *Terminals) release(term *terminal) {
	term.p.Kill(syscall.SIGKILL)
	s := term.snapshot()
	s.Released = true
	term.p.Release()
	t.mu.Lock()
	term.final = &s
	t.gone = append(t.gone, term)
	if len(t.gone) > maxGone {
		t.gone = t.gone[len(t.gone)-maxGone:]
	}
	t.mu.Unlock()
}

// Snapshot returns what terminal id shows now: for a live terminal its
// output so far, for one released recently what it showed at release.
// It is for display (the proxy shows it to the person as tool-call
// content) and ignores outputByteLimit's zero case no differently from
// terminal/output.
func (t *Terminals) Snapshot(id string) (Snapshot, bool) {
	t.mu.Lock()
	term := t.terms[id]
	if term == nil {
		for _, g := range t.gone {
			if g.id == id {
				s := *g.final
				t.mu.Unlock()
				return s, true
			}
		}
		t.mu.Unlock()
		return Snapshot{}, false
	}
	t.mu.Unlock()
	return term.snapshot(), true
}

// Done returns a channel closed when terminal id's command has ended, or
// nil if there is no such live terminal.
func (t *Terminals) Done(id string) <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	if term := t.terms[id]; term != nil {
		return term.p.Done()
	}
	return nil
}

// Close releases every terminal: their commands end and their ids become
// unknown. A client calls it when its connection to the agent ends.
func (t *Terminals) Close() {
	t.mu.Lock()
	var all []*terminal
	for k, term := range t.terms {
		all = append(all, term)
		delete(t.terms, k)
		t.held--
	}
	t.mu.Unlock()
	var wg sync.WaitGroup
	for _, term := range all {
		wg.Go(func() { t.release(term) })
	}
	wg.Wait()
}
