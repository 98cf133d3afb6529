package bashapi

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cmdguard/cmdguard"
)

// Defaults of the Config limits.
const (
	DefaultMaxCommands = 64
	DefaultMaxSessions = 256
	DefaultOutputLimit = 1 << 20
	DefaultMaxBody     = 1 << 20
	DefaultIdleExpiry  = time.Hour
	// DefaultKeepCommands is how many ended commands a session keeps
	// readable by /output; older ones are released.
	DefaultKeepCommands = 32
	// DefaultWaitTimeout is /output's wait_timeout when left out.
	DefaultWaitTimeout = 30 * time.Second
)

// Config configures a Server. Its zero value (but for Guard) is usable:
// every zero limit means its default, and no limit can be turned off.
type Config struct {
	// Guard checks and starts every command. Required.
	Guard *cmdguard.Guard
	// Dir is the working directory of a session that names none: the
	// Guard's root when empty.
	Dir string
	// BaseEnv is the trusted environment of every command (reduced to the
	// policy's exec.env_allow); nil means the host's (os.Environ). A
	// request's env is judged by the gate on top of it.
	BaseEnv []string
	// Sandbox runs every command under the policy's kernel sandbox (as
	// cmdguard run --sandbox; see [cmdguard.RunRequest].Sandbox), and
	// checks it as such: what the sandbox enforces is not asked about.
	// A policy whose sandbox: section enables the sandbox runs commands
	// there without it.
	Sandbox bool
	// AllowAsk runs commands whose verdict is ask. There is no person to
	// ask behind an HTTP API: false (the default) refuses them.
	AllowAsk bool
	// Token, if set, is required as "Authorization: Bearer TOKEN" on every
	// request (compared in constant time). Without a Token, only requests
	// whose Host is a loopback name (localhost, 127.0.0.0/8, ::1) and that
	// carry no Origin header are served (403 otherwise), so that a web
	// page the user visits cannot reach the server (CSRF, DNS rebinding).
	Token string
	// MaxCommands is the number of commands running at once, MaxSessions
	// the number of open sessions; beyond them a request is answered 429.
	MaxCommands, MaxSessions int
	// OutputLimit is the number of newest bytes kept per stream of each
	// command; older bytes are dropped and counted (an /output from an
	// offset before the window says how many were lost).
	OutputLimit int
	// MaxBody is the largest request body in bytes; larger is 413.
	MaxBody int64
	// IdleExpiry closes a session with no running command that has not
	// been used for that long.
	IdleExpiry time.Duration
	// KeepCommands is the number of ended commands kept per session.
	KeepCommands int
	// Logger receives one record per request ("request") and one per gate
	// decision ("decision"); nil discards them.
	Logger *slog.Logger
}

// A Server is an http.Handler for the /v1/bash API. Build it with New;
// call Close to end every command and stop the idle-session janitor.
// It is safe for concurrent use.
type Server struct {
	cfg     Config
	g       *cmdguard.Guard
	log     *slog.Logger
	token   [sha256.Size]byte
	mux     *http.ServeMux
	running chan struct{} // a token per running command

	mu       sync.Mutex
	sessions map[string]*session
	closed   bool

	stop chan struct{}
	done chan struct{}
}

// New returns a Server for cfg.
func New(cfg Config) (*Server, error) {
	if cfg.Guard == nil {
		return nil, errors.New("bashapi: Config.Guard is required")
	}
	if cfg.Dir == "" {
		cfg.Dir = cfg.Guard.Root()
	}
	if cfg.MaxCommands <= 0 {
		cfg.MaxCommands = DefaultMaxCommands
	}
	if cfg.MaxSessions <= 0 {
		cfg.MaxSessions = DefaultMaxSessions
	}
	if cfg.OutputLimit <= 0 {
		cfg.OutputLimit = DefaultOutputLimit
	}
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = DefaultMaxBody
	}
	if cfg.IdleExpiry <= 0 {
		cfg.IdleExpiry = DefaultIdleExpiry
	}
	if cfg.KeepCommands <= 0 {
		cfg.KeepCommands = DefaultKeepCommands
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Server{
		cfg:      cfg,
		g:        cfg.Guard,
		log:      log,
		running:  make(chan struct{}, cfg.MaxCommands),
		sessions: map[string]*session{},
		stop:     make(chan struct{}),
		done:     make(chan struct{}),
	}
	if cfg.Token != "" {
		s.token = sha256.Sum256([]byte(cfg.Token))
	}
	s.mux = http.NewServeMux()
	s.mux.HandleFunc("POST /v1/bash/exec", s.exec)
	s.mux.HandleFunc("POST /v1/bash/output", s.output)
	s.mux.HandleFunc("POST /v1/bash/write", s.write)
	s.mux.HandleFunc("POST /v1/bash/kill", s.kill)
	s.mux.HandleFunc("GET /v1/bash/sessions", s.listSessions)
	s.mux.HandleFunc("POST /v1/bash/sessions/create", s.createSession)
	s.mux.HandleFunc("POST /v1/bash/sessions/{session_id}/close", s.closeSession)
	s.mux.HandleFunc("/", s.notFound)
	go s.janitor()
	return s, nil
}

// Close ends every session and its commands (SIGTERM, a grace period,
// SIGKILL), waits for them or for ctx, and makes later requests fail.
func (s *Server) Close(ctx context.Context) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	all := make([]*session, 0, len(s.sessions))
	for _, ss := range s.sessions {
		all = append(all, ss)
	}
	clear(s.sessions)
	s.mu.Unlock()
	close(s.stop)
	<-s.done
	finished := make(chan struct{})
	go func() {
		var wg sync.WaitGroup
		for _, ss := range all {
			wg.Go(ss.close)
		}
		wg.Wait()
		close(finished)
	}()
	select {
	case <-finished:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// janitor closes idle sessions.
func (s *Server) janitor() {
	defer close(s.done)
	tick := time.NewTicker(max(min(s.cfg.IdleExpiry/4, time.Minute), time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-s.stop:
			return
		case now := <-tick.C:
			s.expire(now)
		}
	}
}

// expire closes the sessions idle since before now-IdleExpiry.
func (s *Server) expire(now time.Time) {
	var idle []*session
	s.mu.Lock()
	for id, ss := range s.sessions {
		if ss.idleSince(now) > s.cfg.IdleExpiry {
			idle = append(idle, ss)
			delete(s.sessions, id)
		}
	}
	s.mu.Unlock()
	for _, ss := range idle {
		s.log.Info("session expired", "session_id", ss.id, "idle", s.cfg.IdleExpiry.String())
		go ss.close()
	}
}

// ServeHTTP serves the API: authentication, the body limit, panic
// recovery and the access log wrap every endpoint.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	rw := &recorder{ResponseWriter: w}
	info := &reqInfo{}
	r = r.WithContext(context.WithValue(r.Context(), infoKey{}, info))
	defer func() {
		if v := recover(); v != nil {
			s.log.Error("panic", "path", r.URL.Path, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			if !rw.wrote {
				msg := fmt.Sprintf("internal error: %v", v)
				writeJSON(rw, http.StatusOK, envelope{Success: false, Message: ptr("refused: " + msg), Data: refusedData{
					SessionID: info.session, CommandID: info.command, Status: "refused", Decision: cmdguard.Deny,
					Reasons: []cmdguard.Reason{{Verdict: cmdguard.Deny, Rule: "gate.internal", Message: msg, Source: "cmdguard serve"}},
				}})
			}
		}
		s.log.Info("request", "method", r.Method, "path", r.URL.Path, "status", rw.status(),
			"session_id", info.session, "command_id", info.command,
			"duration_ms", float64(time.Since(start).Microseconds())/1000, "remote", r.RemoteAddr)
	}()
	if s.cfg.Token != "" && !s.authorized(r) {
		rw.Header().Set("WWW-Authenticate", "Bearer")
		writeJSON(rw, http.StatusUnauthorized, map[string]string{"detail": "Not authenticated"})
		return
	}
	if s.cfg.Token == "" {
		// Without a token, a web page the user visits must not reach a
		// loopback server: browsers send Origin on every POST (CSRF),
		// and a rebound DNS name arrives with its own Host.
		if r.Header.Get("Origin") != "" || !loopbackHost(r.Host) {
			writeJSON(rw, http.StatusForbidden, map[string]string{"detail": "Forbidden: without a token, only requests to a loopback host name and without an Origin header (not from a web page) are served"})
			return
		}
	}
	s.mux.ServeHTTP(rw, r)
}

// loopbackHost reports whether a Host header names the loopback
// interface: localhost, 127.0.0.0/8 or ::1, with or without a port.
func loopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func (s *Server) authorized(r *http.Request) bool {
	tok, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return false
	}
	h := sha256.Sum256([]byte(strings.TrimSpace(tok)))
	return subtle.ConstantTimeCompare(h[:], s.token[:]) == 1
}

func (s *Server) notFound(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/v1/bash/exec", "/v1/bash/output", "/v1/bash/write", "/v1/bash/kill",
		"/v1/bash/sessions", "/v1/bash/sessions/create":
		w.Header().Set("Allow", map[bool]string{true: "GET", false: "POST"}[r.URL.Path == "/v1/bash/sessions"])
		writeJSON(w, http.StatusMethodNotAllowed, map[string]string{"detail": "Method Not Allowed"})
		return
	}
	writeJSON(w, http.StatusNotFound, envelope{Success: false, Message: ptr("not found: " + r.URL.Path)})
}

// reqInfo carries the ids a request concerns to the access log.
type reqInfo struct{ session, command string }

type infoKey struct{}

func requestInfo(r *http.Request) *reqInfo {
	if i, ok := r.Context().Value(infoKey{}).(*reqInfo); ok {
		return i
	}
	return &reqInfo{}
}

// recorder remembers the status written.
type recorder struct {
	http.ResponseWriter
	code  int
	wrote bool
}

func (r *recorder) WriteHeader(code int) {
	if !r.wrote {
		r.code, r.wrote = code, true
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *recorder) Write(b []byte) (int, error) {
	if !r.wrote {
		r.code, r.wrote = http.StatusOK, true
	}
	return r.ResponseWriter.Write(b)
}

func (r *recorder) status() int {
	if !r.wrote {
		return http.StatusOK
	}
	return r.code
}

// envelope is the AIO sandbox's Response[T].
type envelope struct {
	Success bool    `json:"success"`
	Message *string `json:"message"`
	Data    any     `json:"data"`
	Hint    *string `json:"hint"`
}

func ptr[T any](v T) *T { return &v }

func ok(w http.ResponseWriter, msg string, data any) {
	writeJSON(w, http.StatusOK, envelope{Success: true, Message: ptr(msg), Data: data})
}

// fail answers code with the envelope, success false.
func fail(w http.ResponseWriter, code int, msg string) {
	if code == http.StatusTooManyRequests {
		w.Header().Set("Retry-After", "1")
	}
	writeJSON(w, code, envelope{Success: false, Message: ptr(msg)})
}

// invalid answers 422 (or 413) in FastAPI's shape.
func invalid(w http.ResponseWriter, code int, items []detailItem) {
	writeJSON(w, code, map[string]any{"detail": items})
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		buf.Reset()
		fmt.Fprintf(&buf, "{\"success\":false,\"message\":%q,\"data\":null,\"hint\":null}\n", "cannot encode the answer: "+err.Error())
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(code)
	w.Write(buf.Bytes())
}

// readBody reads the request body within the limit and parses it; it
// answers 413 or 422 itself and returns nil when the request is bad.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) *fields {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBody))
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			invalid(w, http.StatusRequestEntityTooLarge, []detailItem{{Loc: []any{"body"},
				Msg: fmt.Sprintf("request body is larger than the limit of %d bytes", s.cfg.MaxBody), Type: "too_large"}})
			return nil
		}
		invalid(w, http.StatusUnprocessableEntity, []detailItem{{Loc: []any{"body"}, Msg: "cannot read the body: " + err.Error(), Type: "body_read"}})
		return nil
	}
	f := parseBody(body)
	if len(f.errs) > 0 {
		invalid(w, http.StatusUnprocessableEntity, f.errs)
		return nil
	}
	return f
}

// answered answers 422 if the fields had errors; it reports whether it did.
func (f *fields) answered(w http.ResponseWriter) bool {
	if len(f.errs) == 0 {
		return false
	}
	invalid(w, http.StatusUnprocessableEntity, f.errs)
	return true
}

// newID returns a random UUID (version 4).
func newID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
