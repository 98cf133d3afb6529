package bashapi

import (
	"errors"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/cmdguard/cmdguard/exec"
)

// timeFormat is how session timestamps are written (RFC 3339 with
// microseconds, as Python's datetime.isoformat writes them in UTC).
const timeFormat = "2006-01-02T15:04:05.000000Z07:00"

// errSessionClosed is returned when a command is added to a closed session.
var errSessionClosed = errors.New("session closed")

// A session is API-level state: a default directory and its commands.
// Each command is a process of its own; nothing of one command's shell
// state (cd, export) reaches the next.
type session struct {
	id      string
	created time.Time

	mu       sync.Mutex
	dir      string
	lastUsed time.Time
	cmds     []*command // in start order; ended ones beyond keep are released
	count    int        // commands started, ever
	starting int        // commands being checked and started
	closed   bool
}

// A command is one started process of a session.
type command struct {
	id, text string
	p        *exec.Process
}

func newSession(id, dir string) *session {
	now := time.Now()
	return &session{id: id, created: now, dir: dir, lastUsed: now}
}

// touch marks the session used now.
func (ss *session) touch() {
	ss.mu.Lock()
	ss.lastUsed = time.Now()
	ss.mu.Unlock()
}

// workDir returns the session's default directory.
func (ss *session) workDir() string {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.dir
}

// add records a started command (and dir, if set, as the new default),
// releasing the oldest ended commands beyond keep.
func (ss *session) add(c *command, dir string, keep int) error {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.closed {
		return errSessionClosed
	}
	if dir != "" {
		ss.dir = dir
	}
	ss.cmds = append(ss.cmds, c)
	ss.count++
	ss.lastUsed = time.Now()
	ended := 0
	for _, c := range ss.cmds {
		if !c.running() {
			ended++
		}
	}
	for i := 0; ended > keep && i < len(ss.cmds); {
		if old := ss.cmds[i]; !old.running() {
			go old.p.Release()
			ss.cmds = slices.Delete(ss.cmds, i, i+1)
			ended--
			continue
		}
		i++
	}
	return nil
}

func (c *command) running() bool {
	select {
	case <-c.p.Done():
		return false
	default:
		return true
	}
}

// find returns the command with id, or nil.
func (ss *session) find(id string) *command {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for _, c := range ss.cmds {
		if c.id == id {
			return c
		}
	}
	return nil
}

// current returns the session's current command: the most recent one
// still running, else the most recent one; nil when there is none.
func (ss *session) current() *command {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for _, c := range slices.Backward(ss.cmds) {
		if c.running() {
			return c
		}
	}
	if len(ss.cmds) == 0 {
		return nil
	}
	return ss.cmds[len(ss.cmds)-1]
}

// hold marks a command of the session being started, so that the session
// does not expire meanwhile; the func it returns ends the mark.
func (ss *session) hold() func() {
	ss.mu.Lock()
	ss.starting++
	ss.mu.Unlock()
	return func() {
		ss.mu.Lock()
		ss.starting--
		ss.lastUsed = time.Now()
		ss.mu.Unlock()
	}
}

// idleSince returns how long the session has not been used; zero while a
// command runs or starts.
func (ss *session) idleSince(now time.Time) time.Duration {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.starting > 0 {
		return 0
	}
	for _, c := range ss.cmds {
		if c.running() {
			return 0
		}
	}
	return now.Sub(ss.lastUsed)
}

// close ends every command of the session (SIGTERM, grace, SIGKILL) and
// frees their output. Later adds fail.
func (ss *session) close() {
	ss.mu.Lock()
	ss.closed = true
	cmds := ss.cmds
	ss.cmds = nil
	ss.mu.Unlock()
	var wg sync.WaitGroup
	for _, c := range cmds {
		wg.Go(func() {
			c.p.Kill(syscall.SIGTERM)
			c.p.Release()
		})
	}
	wg.Wait()
}

// sessionInfo is the AIO sandbox's BashSessionInfo.
type sessionInfo struct {
	SessionID      string  `json:"session_id"`
	Status         string  `json:"status"` // ready | closed
	WorkingDir     string  `json:"working_dir"`
	CreatedAt      string  `json:"created_at"`
	LastUsedAt     string  `json:"last_used_at"`
	CurrentCommand *string `json:"current_command"`
	CommandCount   int     `json:"command_count"`
}

func (ss *session) info() sessionInfo {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	in := sessionInfo{
		SessionID:    ss.id,
		Status:       "ready",
		WorkingDir:   ss.dir,
		CreatedAt:    ss.created.UTC().Format(timeFormat),
		LastUsedAt:   ss.lastUsed.UTC().Format(timeFormat),
		CommandCount: ss.count,
	}
	if ss.closed {
		in.Status = "closed"
	}
	for _, c := range slices.Backward(ss.cmds) {
		if c.running() {
			in.CurrentCommand = &c.text
			break
		}
	}
	return in
}
