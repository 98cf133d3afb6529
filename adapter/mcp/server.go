package mcp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/exec"
)

// Defaults used when the policy's exec: section does not set them.
const (
	// DefaultOutputLimit is the number of bytes of each stream a tool
	// result shows: about what Claude Code's own Bash tool shows.
	DefaultOutputLimit = 30000
	// DefaultTimeout is how long run_command lets a command run when
	// neither the call nor the policy (exec.timeout) says.
	DefaultTimeout = 2 * time.Minute
	// DefaultMaxTimeout is the longest timeout a call may ask for, and
	// start_command's default, when the policy sets no exec.hard_timeout.
	DefaultMaxTimeout = 10 * time.Minute
	// MaxCommands is how many start_command commands a Server holds at
	// once unless Options.MaxCommands says otherwise. Ended commands are
	// dropped, oldest first, to make room; running ones are not.
	MaxCommands = 16
	// MaxWait is the longest read_output waits for output.
	MaxWait = 60 * time.Second
	// checkTimeout bounds one check; running out of it is a deny.
	checkTimeout = 10 * time.Second
	// writeTimeout bounds one write_stdin to a command that does not read.
	writeTimeout = 10 * time.Second
)

// Options configure a Server. The zero Options are the defaults.
type Options struct {
	// Version is the server version reported to clients.
	Version string
	// OutputLimit is the number of bytes of each stream a tool result
	// shows. Zero means the policy's exec.model_output_limit, else
	// DefaultOutputLimit.
	OutputLimit int
	// MaxCommands is the most start_command commands held at once; zero
	// means MaxCommands.
	MaxCommands int
	// BaseEnv is the trusted environment of the commands ("KEY=value"),
	// reduced by the policy's exec.env_allow; nil means the host's.
	BaseEnv []string
	// Sandbox runs every command under the policy's kernel sandbox (as
	// cmdguard run --sandbox; see [cmdguard.RunRequest].Sandbox), and
	// checks it as such: what the sandbox enforces is not asked about.
	// A policy whose sandbox: section enables the sandbox runs commands
	// there without it.
	Sandbox bool
}

// Server is cmdguard's MCP server for one project. Build it with New and
// serve it with Server.MCP (any SDK transport). It is safe for concurrent
// use; one Server may serve many sessions, which share its commands.
type Server struct {
	g     *cmdguard.Guard
	root  string // the project root, symlinks resolved
	opts  Options
	limit int
	mcp   *sdk.Server
	asks  asks

	mu     sync.Mutex
	procs  map[string]*proc
	order  []string // ids of procs, oldest first
	nextID int
	closed bool
}

// proc is a command started by start_command.
type proc struct {
	id, command, cwd string
	p                *exec.Process
}

// New returns the MCP server for the project of g.
func New(g *cmdguard.Guard, opts Options) (*Server, error) {
	if g == nil {
		return nil, errors.New("cmdguard mcp: no guard")
	}
	root, err := filepath.EvalSymlinks(g.Root())
	if err != nil {
		return nil, fmt.Errorf("cmdguard mcp: project root: %w", err)
	}
	cfg := g.Policy().Exec()
	s := &Server{
		g:     g,
		root:  root,
		opts:  opts,
		limit: cmp.Or(opts.OutputLimit, int(min(cfg.ModelOutputLimit, 1<<30)), DefaultOutputLimit),
		procs: map[string]*proc{},
	}
	s.limit = max(s.limit, 64)
	s.mcp = sdk.NewServer(&sdk.Implementation{Name: "cmdguard", Version: cmp.Or(opts.Version, "dev")},
		&sdk.ServerOptions{Instructions: instructions(root), Capabilities: &sdk.ServerCapabilities{}})
	s.addTools()
	return s, nil
}

// MCP returns the SDK server: run it with Run on a transport, or hand it
// to sdk.NewStreamableHTTPHandler.
func (s *Server) MCP() *sdk.Server { return s.mcp }

// Root returns the project root (symlinks resolved) that every cwd must be
// inside.
func (s *Server) Root() string { return s.root }

// Close ends every command start_command started (SIGKILL to its group)
// and frees their output; later tools that start commands are refused.
// Call it, then the Guard's Close, when the server stops.
func (s *Server) Close() {
	s.mu.Lock()
	s.closed = true
	procs := s.procs
	s.procs, s.order = map[string]*proc{}, nil
	s.mu.Unlock()
	for _, p := range procs {
		p.p.Release()
	}
}

func instructions(root string) string {
	return "cmdguard runs shell commands for you after checking each one against the project's policy and ignore files (project root: " + root + "). " +
		"Use run_command for commands that finish, start_command with read_output/write_stdin/kill_command for long-running or interactive ones, and check_command to ask whether a command would be allowed. " +
		"A refused command was not run: the result says which rule refused it. The policy belongs to the user: do not try to change it or to reach the refused files another way."
}

// Reason is one cause of a decision, as a tool result shows it.
type Reason struct {
	Verdict string `json:"verdict" jsonschema:"allow, ask or deny"`
	Rule    string `json:"rule" jsonschema:"stable rule id, e.g. ignore.denied or policy.deny"`
	Message string `json:"message"`
	Pos     Pos    `json:"pos" jsonschema:"position in the command (1-based; 0 when none)"`
	Source  string `json:"source" jsonschema:"the policy file:line that fired, or builtin"`
	Hint    string `json:"hint,omitempty" jsonschema:"what in the policy would change this verdict (for the user)"`
}

// Pos is a 1-based line and byte column in the command.
type Pos struct {
	Line int `json:"line"`
	Col  int `json:"col"`
}

func (s *Server) reasons(d cmdguard.Decision) []Reason {
	out := make([]Reason, 0, len(d.Reasons))
	for _, r := range d.Reasons {
		re := Reason{Verdict: r.Verdict.String(), Rule: r.Rule, Message: r.Message, Pos: Pos{r.Pos.Line, r.Pos.Col}, Source: r.Source}
		if r.Verdict != cmdguard.Allow {
			re.Hint = s.g.HowToAllow(r, d)
		}
		out = append(out, re)
	}
	return out
}

// ---- inputs and results --------------------------------------------------

// RunInput is the input of run_command and start_command.
type RunInput struct {
	Command string  `json:"command" jsonschema:"the bash command line to run, as you would type it in a terminal (run with bash -c)"`
	Cwd     string  `json:"cwd,omitempty" jsonschema:"directory to run in: absolute or relative to the project root, and inside it (default: the project root)"`
	Timeout float64 `json:"timeout,omitempty" jsonschema:"seconds after which the command is ended (status timed_out); default and maximum are set by the policy"`
}

// CheckInput is the input of check_command.
type CheckInput struct {
	Command string `json:"command" jsonschema:"the bash command line to check"`
	Cwd     string `json:"cwd,omitempty" jsonschema:"directory it would run in: absolute or relative to the project root, and inside it (default: the project root)"`
}

// RunResult is the result of run_command, and of start_command,
// read_output and kill_command for the command they name.
type RunResult struct {
	ID       string   `json:"id,omitempty" jsonschema:"the command's id for read_output, write_stdin and kill_command (start_command only)"`
	Decision string   `json:"decision" jsonschema:"the gate's verdict: allow, ask or deny"`
	Reasons  []Reason `json:"reasons" jsonschema:"every reason for the decision, strictest first"`
	Status   string   `json:"status" jsonschema:"running, completed, timed_out, killed, or refused (never started)"`
	ExitCode *int     `json:"exit_code" jsonschema:"the exit code; null while running or when a signal ended the command"`
	Signal   *string  `json:"signal" jsonschema:"POSIX name of the signal that ended the command, e.g. SIGKILL; else null"`
	Stdout   string   `json:"stdout"`
	Stderr   string   `json:"stderr"`
	// Truncated reports that output was left out (marked in the text).
	Truncated    bool   `json:"truncated" jsonschema:"true when output was left out; the cut is marked in the text"`
	StdoutOffset int64  `json:"stdout_offset" jsonschema:"bytes of stdout so far: pass it to read_output to get only what follows"`
	StderrOffset int64  `json:"stderr_offset" jsonschema:"bytes of stderr so far: pass it to read_output to get only what follows"`
	DurationMS   int64  `json:"duration_ms"`
	Cwd          string `json:"cwd,omitempty"`
	Explain      string `json:"explain,omitempty" jsonschema:"how the command ended, in words"`
	Note         string `json:"note,omitempty"`
}

// CheckResult is the result of check_command.
type CheckResult struct {
	Decision string   `json:"decision" jsonschema:"allow: run_command would run it; ask: a person must approve it; deny: it would be refused"`
	Reasons  []Reason `json:"reasons"`
	Summary  string   `json:"summary"`
	Cwd      string   `json:"cwd,omitempty"`
}

// ReadInput is the input of read_output.
type ReadInput struct {
	ID           string  `json:"id" jsonschema:"the id start_command returned"`
	StdoutOffset int64   `json:"stdout_offset,omitempty" jsonschema:"return stdout from this byte offset (the stdout_offset of the previous result; default 0)"`
	StderrOffset int64   `json:"stderr_offset,omitempty" jsonschema:"return stderr from this byte offset (the stderr_offset of the previous result; default 0)"`
	Wait         float64 `json:"wait,omitempty" jsonschema:"seconds to wait for new output or the end of the command (at most 60; default 0: answer at once)"`
}

// WriteInput is the input of write_stdin.
type WriteInput struct {
	ID         string `json:"id" jsonschema:"the id start_command returned"`
	Input      string `json:"input" jsonschema:"text to write to the command's standard input; end lines with \\n"`
	CloseStdin bool   `json:"close_stdin,omitempty" jsonschema:"close standard input after writing, so the command reads end of file"`
}

// WriteResult is the result of write_stdin.
type WriteResult struct {
	ID      string `json:"id"`
	Written int    `json:"written" jsonschema:"bytes written"`
	Status  string `json:"status"`
}

// KillInput is the input of kill_command.
type KillInput struct {
	ID     string `json:"id" jsonschema:"the id start_command returned"`
	Signal string `json:"signal,omitempty" jsonschema:"SIGTERM (default), SIGINT, SIGHUP, SIGQUIT or SIGKILL; the group gets SIGKILL if it has not ended after a grace period"`
}

// ---- tools ------------------------------------------------------------------

func (s *Server) addTools() {
	sdk.AddTool(s.mcp, &sdk.Tool{Name: "run_command", Description: "Run a bash command in the project after cmdguard checks it against the project's policy and ignore files, and wait for it to end. " +
		"Returns stdout, stderr, exit_code, signal and status. A refused command is not run: the result is an error that says which rule refused it and why. " +
		"For commands that run long or read input, use start_command."}, guarded(s.runCommand))
	sdk.AddTool(s.mcp, &sdk.Tool{Name: "start_command", Description: "Check and start a long-running or interactive bash command without waiting for it. " +
		"Returns an id for read_output, write_stdin and kill_command. A refused command is not started."}, guarded(s.startCommand))
	sdk.AddTool(s.mcp, &sdk.Tool{Name: "read_output", Description: "Read the output and state of a command start_command started: stdout and stderr from the given byte offsets, waiting up to wait seconds for new output or the end. " +
		"Pass the stdout_offset and stderr_offset of each result to the next call to get only new output. status running means it goes on."}, guarded(s.readOutput))
	sdk.AddTool(s.mcp, &sdk.Tool{Name: "write_stdin", Description: "Write text to the standard input of a command start_command started (end lines with \\n); close_stdin sends end of file."}, guarded(s.writeStdin))
	sdk.AddTool(s.mcp, &sdk.Tool{Name: "kill_command", Description: "End a command start_command started, and everything it started: the signal (default SIGTERM), then SIGKILL after a grace period. Returns its final state."}, guarded(s.killCommand))
	sdk.AddTool(s.mcp, &sdk.Tool{Name: "check_command", Description: "Ask cmdguard whether a bash command would be allowed, without running anything. " +
		"Returns the decision (allow, ask or deny) and every reason with its rule id."}, guarded(s.checkCommand))
}

// errResult marks a tool result as an error whose text is msg.
type errResult struct{ msg string }

func (e errResult) Error() string { return e.msg }

// guarded wraps a tool handler so that a panic or an error refuses (a
// result with isError and the reason), never a crash or a silent success.
func guarded[In, Out any](h func(context.Context, *sdk.CallToolRequest, In) (*sdk.CallToolResult, Out, error)) sdk.ToolHandlerFor[In, Out] {
	return func(ctx context.Context, req *sdk.CallToolRequest, in In) (res *sdk.CallToolResult, out Out, err error) {
		defer func() {
			if r := recover(); r != nil {
				var zero Out
				res, out, err = nil, zero, fmt.Errorf("cmdguard: internal error (panic: %v); nothing more was done", r)
			}
		}()
		return h(ctx, req, in)
	}
}

func textResult(isErr bool, text string) *sdk.CallToolResult {
	return &sdk.CallToolResult{IsError: isErr, Content: []sdk.Content{&sdk.TextContent{Text: text}}}
}

// cwd resolves a tool's cwd: empty is the root, relative is taken from the
// root; the directory, symlinks resolved, must be inside the root.
func (s *Server) cwd(in string) (string, error) {
	if strings.ContainsRune(in, 0) {
		return "", errors.New("cwd contains a NUL byte")
	}
	dir := in
	if dir == "" {
		dir = s.root
	} else if !filepath.IsAbs(dir) {
		dir = filepath.Join(s.root, dir)
	}
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", fmt.Errorf("cwd %q: %v", in, unwrapPath(err))
	}
	if !inside(s.root, real) {
		return "", fmt.Errorf("cwd %q is outside the project root %s: commands run only inside the project", in, s.root)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", fmt.Errorf("cwd %q: %v", in, unwrapPath(err))
	}
	if !fi.IsDir() {
		return "", fmt.Errorf("cwd %q is not a directory", in)
	}
	return real, nil
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func inside(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../") && !filepath.IsAbs(rel)
}

// timeouts returns the timeout a call asked for in seconds (0: def), at
// most the policy's cap.
func (s *Server) timeout(secs float64, def time.Duration) (time.Duration, error) {
	cfg := s.g.Policy().Exec()
	limit := cmp.Or(cfg.HardTimeout, DefaultMaxTimeout)
	if secs < 0 || secs != secs {
		return 0, fmt.Errorf("timeout must be a positive number of seconds, not %v", secs)
	}
	if secs == 0 {
		return min(def, limit), nil
	}
	if secs > limit.Seconds() {
		return 0, fmt.Errorf("timeout %gs is longer than this project allows (%v, the policy's exec.hard_timeout); use start_command for commands that run longer", secs, limit)
	}
	return max(time.Duration(secs*float64(time.Second)), time.Millisecond), nil
}

// refusal is the tool result of a command that was not run, with its
// reasons written for a model.
func (s *Server) refusal(command string, d cmdguard.Decision, why string) *sdk.CallToolResult {
	var b strings.Builder
	b.WriteString(why)
	b.WriteString("\n\n")
	s.g.Render(&b, command, d)
	b.WriteString("\nThe hints are for the user, who owns the policy: do not edit the policy or ignore files, and do not reach what was refused another way. " +
		"Use a command that avoids it, or ask the user.")
	return textResult(true, b.String())
}

func refusedText(d cmdguard.Decision) string {
	switch d.Verdict {
	case cmdguard.Ask:
		return "cmdguard did not run this command: it needs a person's approval (verdict ask), and none was given."
	case cmdguard.Allow:
		return "cmdguard did not run this command."
	}
	return "cmdguard refused this command (verdict deny); it was not run."
}

func (s *Server) runCommand(ctx context.Context, req *sdk.CallToolRequest, in RunInput) (*sdk.CallToolResult, RunResult, error) {
	cfg := s.g.Policy().Exec()
	out := RunResult{Decision: "deny", Reasons: []Reason{}, Status: "refused"}
	cwd, err := s.cwd(in.Cwd)
	if err != nil {
		return textResult(true, "cmdguard refused this command; it was not run: "+err.Error()), out, nil
	}
	out.Cwd = cwd
	timeout, err := s.timeout(in.Timeout, cmp.Or(cfg.Timeout, DefaultTimeout))
	if err != nil {
		return textResult(true, "cmdguard refused this command; it was not run: "+err.Error()), out, nil
	}
	heads := [2]*headWriter{{n: s.limit / 5}, {n: s.limit / 5}}
	rr := cmdguard.RunRequest{
		Request:     cmdguard.Request{Command: in.Command, Cwd: cwd, BaseEnv: s.opts.BaseEnv, Agent: clientName(req)},
		Stdout:      heads[0],
		Stderr:      heads[1],
		Timeout:     timeout,
		SoftTimeout: -1,
		OutputLimit: s.limit,
		Sandbox:     s.opts.Sandbox,
	}
	g := s.gate(ctx, req, "run_command", rr)
	out.Decision, out.Reasons, out.Note = g.d.Verdict.String(), s.reasons(g.d), g.note
	if g.input != nil {
		return g.input, out, nil
	}
	if g.p == nil {
		return g.refused, out, nil
	}
	defer g.p.Release()
	res, err := g.p.Wait(ctx)
	if err != nil {
		return nil, out, fmt.Errorf("cmdguard: waiting for the command: %v", err)
	}
	if res.Status == exec.StatusRunning { // ctx ended: the client gave up
		res, _ = g.p.Kill(syscall.SIGTERM)
	}
	s.fill(&out, res)
	so, se := shape(heads[0].bytes(), res.Stdout, s.limit), shape(heads[1].bytes(), res.Stderr, s.limit)
	out.Stdout, out.Stderr, out.Truncated = so.text, se.text, so.truncated || se.truncated
	return nil, out, nil
}

// fill sets the state fields of out from res.
func (s *Server) fill(out *RunResult, res exec.Result) {
	out.Status = string(res.Status)
	out.ExitCode = res.ExitCode
	if res.Signal != "" {
		sig := res.Signal
		out.Signal = &sig
	}
	out.StdoutOffset, out.StderrOffset = res.Stdout.Next, res.Stderr.Next
	out.DurationMS = res.Duration.Milliseconds()
	if res.Status != exec.StatusRunning {
		out.Explain = res.Explain()
		if res.Status == exec.StatusTimedOut {
			out.Explain = "ended by cmdguard's timeout: " + out.Explain
		}
	}
}

func (s *Server) startCommand(ctx context.Context, req *sdk.CallToolRequest, in RunInput) (*sdk.CallToolResult, RunResult, error) {
	cfg := s.g.Policy().Exec()
	out := RunResult{Decision: "deny", Reasons: []Reason{}, Status: "refused"}
	cwd, err := s.cwd(in.Cwd)
	if err != nil {
		return textResult(true, "cmdguard refused this command; it was not started: "+err.Error()), out, nil
	}
	out.Cwd = cwd
	timeout, err := s.timeout(in.Timeout, cmp.Or(cfg.HardTimeout, DefaultMaxTimeout))
	if err != nil {
		return textResult(true, "cmdguard refused this command; it was not started: "+err.Error()), out, nil
	}
	if err := s.reserve(); err != nil {
		return textResult(true, "cmdguard did not start this command: "+err.Error()), out, nil
	}
	rr := cmdguard.RunRequest{
		Request:     cmdguard.Request{Command: in.Command, Cwd: cwd, BaseEnv: s.opts.BaseEnv, Agent: clientName(req)},
		StdinPipe:   true,
		Timeout:     timeout,
		SoftTimeout: -1,
		Sandbox:     s.opts.Sandbox,
	}
	g := s.gate(ctx, req, "start_command", rr)
	out.Decision, out.Reasons, out.Note = g.d.Verdict.String(), s.reasons(g.d), g.note
	if g.input != nil {
		return g.input, out, nil
	}
	if g.p == nil {
		return g.refused, out, nil
	}
	id, err := s.add(in.Command, cwd, g.p)
	if err != nil {
		g.p.Release()
		return textResult(true, "cmdguard stopped this command at once: "+err.Error()), out, nil
	}
	out.ID = id
	res, _ := g.p.Status()
	s.fill(&out, res)
	return nil, out, nil
}

// reserve fails when the table of commands is full of running ones.
func (s *Server) reserve() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return errors.New("the server is shutting down")
	}
	if len(s.procs) < s.max() {
		return nil
	}
	for _, id := range s.order {
		if r, _ := s.procs[id].p.Status(); r.Status != exec.StatusRunning {
			return nil
		}
	}
	return fmt.Errorf("%d commands are running, the most this server holds: end one with kill_command first", len(s.procs))
}

func (s *Server) max() int { return cmp.Or(s.opts.MaxCommands, MaxCommands) }

// add puts a started command in the table, dropping the oldest ended
// commands beyond the maximum.
func (s *Server) add(command, cwd string, p *exec.Process) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return "", errors.New("the server is shutting down")
	}
	for i := 0; len(s.procs) >= s.max() && i < len(s.order); {
		old := s.procs[s.order[i]]
		if r, _ := old.p.Status(); r.Status == exec.StatusRunning {
			i++
			continue
		}
		old.p.Release()
		delete(s.procs, old.id)
		s.order = append(s.order[:i], s.order[i+1:]...)
	}
	if len(s.procs) >= s.max() {
		return "", fmt.Errorf("%d commands are running, the most this server holds: end one with kill_command first", len(s.procs))
	}
	s.nextID++
	id := "c" + strconv.Itoa(s.nextID)
	s.procs[id] = &proc{id: id, command: command, cwd: cwd, p: p}
	s.order = append(s.order, id)
	return id, nil
}

func (s *Server) get(id string) (*proc, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if p, ok := s.procs[id]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("no command with id %q (ids come from start_command; ended commands are dropped once %d newer ones were started)", id, s.max())
}

func (s *Server) readOutput(ctx context.Context, req *sdk.CallToolRequest, in ReadInput) (*sdk.CallToolResult, RunResult, error) {
	out := RunResult{ID: in.ID, Decision: "allow", Reasons: []Reason{}}
	p, err := s.get(in.ID)
	if err != nil {
		return nil, out, err
	}
	out.Cwd = p.cwd
	if in.StdoutOffset < 0 || in.StderrOffset < 0 {
		return nil, out, errors.New("offsets must not be negative")
	}
	if in.Wait < 0 || in.Wait != in.Wait {
		return nil, out, errors.New("wait must be a number of seconds, at least 0")
	}
	wait := min(time.Duration(in.Wait*float64(time.Second)), MaxWait)
	pctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	res, err := p.p.Poll(pctx, in.StdoutOffset, in.StderrOffset, s.limit)
	if err != nil && ctx.Err() == nil && !errors.Is(err, context.DeadlineExceeded) {
		return nil, out, fmt.Errorf("reading the output of %s: %v", in.ID, err)
	}
	s.fill(&out, res)
	out.Stdout, out.Stderr = clean(res.Stdout.Data), clean(res.Stderr.Data)
	out.StdoutOffset, out.StderrOffset = res.Stdout.Next, res.Stderr.Next
	var notes []string
	if lost := res.Stdout.Lost + res.Stderr.Lost; lost > 0 {
		out.Truncated = true
		notes = append(notes, fmt.Sprintf("%d bytes of output were dropped before they were read (only the newest bytes are kept)", lost))
	}
	if (!res.Stdout.EOF && res.Stdout.Next < p.p.Read(exec.Stdout, res.Stdout.Next).Next) ||
		(!res.Stderr.EOF && res.Stderr.Next < p.p.Read(exec.Stderr, res.Stderr.Next).Next) {
		out.Truncated = true
		notes = append(notes, "more output follows: call read_output again with these offsets")
	}
	out.Note = strings.Join(notes, "; ")
	return nil, out, nil
}

func (s *Server) writeStdin(ctx context.Context, req *sdk.CallToolRequest, in WriteInput) (*sdk.CallToolResult, WriteResult, error) {
	out := WriteResult{ID: in.ID}
	p, err := s.get(in.ID)
	if err != nil {
		return nil, out, err
	}
	wctx, cancel := context.WithTimeout(ctx, writeTimeout)
	defer cancel()
	n, err := p.p.Write(wctx, []byte(in.Input))
	out.Written = n
	if err != nil {
		return nil, out, fmt.Errorf("writing to %s: %d of %d bytes written: %v", in.ID, n, len(in.Input), err)
	}
	if in.CloseStdin {
		if err := p.p.CloseStdin(); err != nil {
			return nil, out, fmt.Errorf("closing the standard input of %s: %v", in.ID, err)
		}
	}
	res, _ := p.p.Status()
	out.Status = string(res.Status)
	return nil, out, nil
}

func (s *Server) killCommand(ctx context.Context, req *sdk.CallToolRequest, in KillInput) (*sdk.CallToolResult, RunResult, error) {
	out := RunResult{ID: in.ID, Decision: "allow", Reasons: []Reason{}}
	p, err := s.get(in.ID)
	if err != nil {
		return nil, out, err
	}
	out.Cwd = p.cwd
	sig := syscall.SIGTERM
	if in.Signal != "" {
		var ok bool
		sig, ok = exec.ParseSignal(in.Signal)
		switch {
		case !ok:
			return nil, out, fmt.Errorf("unknown signal %q", in.Signal)
		case sig != syscall.SIGTERM && sig != syscall.SIGINT && sig != syscall.SIGHUP && sig != syscall.SIGQUIT && sig != syscall.SIGKILL:
			return nil, out, fmt.Errorf("kill_command sends SIGTERM, SIGINT, SIGHUP, SIGQUIT or SIGKILL, not %s", exec.SignalName(sig))
		}
	}
	res, err := p.p.Kill(sig)
	if err != nil {
		return nil, out, fmt.Errorf("killing %s: %v", in.ID, err)
	}
	s.fill(&out, res)
	return nil, out, nil
}

func (s *Server) checkCommand(ctx context.Context, req *sdk.CallToolRequest, in CheckInput) (*sdk.CallToolResult, CheckResult, error) {
	out := CheckResult{Decision: "deny", Reasons: []Reason{}}
	cwd, err := s.cwd(in.Cwd)
	if err != nil {
		out.Summary = "deny: " + err.Error()
		return nil, out, nil
	}
	out.Cwd = cwd
	cctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	d, _ := s.g.Check(cctx, cmdguard.Request{Command: in.Command, Cwd: cwd, BaseEnv: s.opts.BaseEnv, Sandboxed: s.opts.Sandbox, Agent: clientName(req)})
	out.Decision, out.Reasons, out.Summary = d.Verdict.String(), s.reasons(d), d.Summary()
	return nil, out, nil
}
