package decisionlog

import (
	"cmp"
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cmdguard/cmdguard"
)

// Event is one decision as the log keeps it. Command is masked; the
// reasons carry no message (a message quotes the command's words).
type Event struct {
	Time      time.Time `json:"time"`
	ID        string    `json:"decision_id"`
	Host      string    `json:"host"`
	Adapter   string    `json:"adapter,omitempty"`
	Agent     string    `json:"agent,omitempty"`
	Cwd       string    `json:"cwd"`
	Command   string    `json:"command"`
	Verdict   string    `json:"verdict"`
	Layer     string    `json:"layer,omitempty"`
	Reasons   []Reason  `json:"reasons"`
	DecidedBy string    `json:"decided_by"`
	Run       *Run      `json:"run,omitempty"`
}

// Reason is one reason of a decision: its rule, verdict and source.
type Reason struct {
	Rule       string `json:"rule"`
	Verdict    string `json:"verdict"`
	Source     string `json:"source"`
	EnforcedBy string `json:"enforced_by,omitempty"`
}

// Run is how a command that ran ended.
type Run struct {
	Exit       *int    `json:"exit"`
	Signal     string  `json:"signal,omitempty"`
	DurationMS float64 `json:"duration_ms"`
	Err        string  `json:"error,omitempty"`
}

// Sink writes batches of events somewhere. Write is called from one
// goroutine at a time.
type Sink interface {
	Name() string
	Write(ctx context.Context, batch []Event) error
	Close(ctx context.Context) error
}

// Options configure a Logger.
type Options struct {
	Adapter string // the command or adapter deciding: check, run, hook, serve, mcp, acp
	Agent   string // the agent, when known and the record names none
	Host    string // os.Hostname() when empty
	// Queue is the number of events each sink holds before it drops
	// (1024 when zero); Batch the most events written at once (256);
	// Flush how long an event may wait before it is written (1s).
	Queue int
	Batch int
	Flush time.Duration
}

// Logger sends events to its sinks without blocking the caller. It
// implements cmdguard.DecisionLog.
//
// LogDecision only appends the event, its command not yet masked, to a
// bounded queue under a mutex: it wakes no goroutine unless a batch is
// full. A dispatching goroutine takes the queue every Flush (or when a
// batch is full), masks each command and hands the batch to every sink's
// pipe; each pipe writes from its own goroutine, so that a slow sink
// delays only itself. Close writes everything queued.
type Logger struct {
	opts  Options
	pipes []*pipe
	once  sync.Once

	mu     sync.Mutex
	queue  []Event // not yet masked
	spare  []Event // the dispatcher's last batch, reused
	closed bool
	kick   chan struct{} // a batch is full
	stop   chan struct{}
	inDone chan struct{}
}

// Health is the state of one sink.
type Health struct {
	Sink    string    `json:"sink"`
	Sent    uint64    `json:"sent"`
	Dropped uint64    `json:"dropped"` // queue full, a failed write, or not sent at Close
	Failed  uint64    `json:"failed"`  // writes that failed
	LastErr string    `json:"last_error,omitempty"`
	LastOK  time.Time `json:"last_ok,omitzero"`
}

// New returns a Logger that writes to sinks; it starts one goroutine
// per sink and one that masks and dispatches. Close it to flush.
func New(opts Options, sinks ...Sink) *Logger {
	if opts.Queue <= 0 {
		opts.Queue = 1024
	}
	if opts.Batch <= 0 {
		opts.Batch = 256
	}
	opts.Batch = min(opts.Batch, opts.Queue)
	if opts.Flush <= 0 {
		opts.Flush = time.Second
	}
	if opts.Host == "" {
		opts.Host, _ = os.Hostname()
	}
	l := &Logger{opts: opts, kick: make(chan struct{}, 1), stop: make(chan struct{}), inDone: make(chan struct{})}
	for _, s := range sinks {
		p := &pipe{sink: s, max: opts.Queue, kick: make(chan struct{}, 1), done: make(chan struct{}), stop: make(chan struct{})}
		l.pipes = append(l.pipes, p)
		go p.run(opts.Batch)
	}
	go l.dispatch()
	return l
}

// dispatch takes the queue when a batch is full, every Flush, and at
// Close; it masks each event and offers the batch to every sink.
func (l *Logger) dispatch() {
	defer close(l.inDone)
	t := time.NewTicker(l.opts.Flush)
	defer t.Stop()
	for {
		stopping := false
		select {
		case <-l.kick:
		case <-t.C:
		case <-l.stop:
			stopping = true
		}
		l.mu.Lock()
		batch := l.queue
		l.queue, l.spare = l.spare[:0], nil
		l.mu.Unlock()
		for i := range batch {
			batch[i].Command, batch[i].ID = Mask(batch[i].Command), newID()
		}
		l.offer(batch)
		clear(batch) // the pipes copied the events
		l.mu.Lock()
		l.spare = batch[:0]
		l.mu.Unlock()
		if stopping {
			return
		}
	}
}

// LogDecision records rec: it builds the event and queues it; another
// goroutine masks the command and offers it to every sink's queue. It
// never blocks on a sink: a full queue drops the event (counted by every
// sink).
func (l *Logger) LogDecision(rec *cmdguard.DecisionRecord) {
	if l == nil || len(l.pipes) == 0 {
		return
	}
	e := l.event(rec)
	l.mu.Lock()
	if l.closed || len(l.queue) >= l.opts.Queue {
		l.mu.Unlock()
		l.drop()
		return
	}
	if l.queue == nil {
		l.queue = make([]Event, 0, l.opts.Batch)
	}
	l.queue = append(l.queue, e)
	full := len(l.queue) == l.opts.Batch
	l.mu.Unlock()
	if full {
		select {
		case l.kick <- struct{}{}:
		default:
		}
	}
}

func (l *Logger) drop() {
	for _, p := range l.pipes {
		p.dropped.Add(1)
	}
}

// Event builds the event of rec, its command masked.
func (l *Logger) Event(rec *cmdguard.DecisionRecord) Event {
	e := l.event(rec)
	e.Command, e.ID = Mask(e.Command), newID()
	return e
}

// event builds the event of rec, its command not yet masked.
func (l *Logger) event(rec *cmdguard.DecisionRecord) Event {
	e := Event{Time: rec.Time.UTC(), Host: l.opts.Host, Adapter: l.opts.Adapter, Agent: cmp.Or(rec.Agent, l.opts.Agent),
		Cwd: rec.Cwd, Command: rec.Command, Verdict: rec.Decision.Verdict.String(), Layer: rec.Decision.Layer,
		DecidedBy: rec.DecidedBy, Reasons: make([]Reason, 0, len(rec.Decision.Reasons))}
	for _, r := range rec.Decision.Reasons {
		e.Reasons = append(e.Reasons, Reason{Rule: r.Rule, Verdict: r.Verdict.String(), Source: r.Source, EnforcedBy: r.EnforcedBy})
	}
	if rr := rec.Run; rr != nil {
		e.Run = &Run{Exit: rr.ExitCode, Signal: rr.Signal, DurationMS: float64(rr.Duration.Microseconds()) / 1000, Err: rr.Err}
	}
	return e
}

// Log offers e, whose command is masked, to every sink; a full queue
// drops it (counted).
func (l *Logger) Log(e Event) { l.offer([]Event{e}) }

// offer appends batch, masked, to every sink's queue.
func (l *Logger) offer(batch []Event) {
	if len(batch) == 0 {
		return
	}
	for _, p := range l.pipes {
		p.offer(batch)
	}
}

// Health returns the state of every sink.
func (l *Logger) Health() []Health {
	if l == nil {
		return nil
	}
	hs := make([]Health, 0, len(l.pipes))
	for _, p := range l.pipes {
		hs = append(hs, p.health())
	}
	return hs
}

// Close sends what is queued, waiting at most until ctx ends (what is
// left then is dropped and counted), and closes the sinks. Events
// logged after Close are dropped.
func (l *Logger) Close(ctx context.Context) error {
	if l == nil {
		return nil
	}
	var errs []error
	l.once.Do(func() {
		l.mu.Lock()
		l.closed = true
		l.mu.Unlock()
		close(l.stop)
		select {
		case <-l.inDone:
		case <-ctx.Done():
			l.mu.Lock()
			n := len(l.queue)
			l.queue = nil
			l.mu.Unlock()
			for range n {
				l.drop()
			}
		}
		for _, p := range l.pipes {
			p.mu.Lock()
			p.closed = true
			p.mu.Unlock()
			close(p.stop)
		}
		for _, p := range l.pipes {
			select {
			case <-p.done:
			case <-ctx.Done():
				p.abandon()
			}
			if err := p.sink.Close(ctx); err != nil {
				errs = append(errs, err)
			}
		}
	})
	return errors.Join(errs...)
}

// pipe is one sink's queue and writer.
type pipe struct {
	sink Sink
	max  int // events queued at most
	kick chan struct{}
	stop chan struct{}
	done chan struct{}
	// ctx of the write in progress, cancelled when Close gives up.
	cancel atomic.Pointer[context.CancelFunc]

	sent, dropped, failed atomic.Uint64

	mu      sync.Mutex // guards the fields below
	queue   []Event
	closed  bool
	lastErr string
	lastOK  time.Time
}

// offer appends what fits of batch to the queue, drops the rest, and
// wakes the writer.
func (p *pipe) offer(batch []Event) {
	p.mu.Lock()
	n := len(batch)
	if p.closed {
		n = 0
	} else {
		n = min(n, p.max-len(p.queue))
		p.queue = append(p.queue, batch[:n]...)
	}
	p.mu.Unlock()
	if n < len(batch) {
		p.dropped.Add(uint64(len(batch) - n))
	}
	if n > 0 {
		select {
		case p.kick <- struct{}{}:
		default:
		}
	}
}

// take swaps the queue for spare (empty) and returns what was queued.
func (p *pipe) take(spare []Event) []Event {
	p.mu.Lock()
	defer p.mu.Unlock()
	q := p.queue
	p.queue = spare[:0]
	return q
}

func (p *pipe) run(size int) {
	defer close(p.done)
	var q []Event
	for {
		stopping := false
		select {
		case <-p.kick:
		case <-p.stop:
			stopping = true
		}
		for {
			q = p.take(q)
			if len(q) == 0 {
				break
			}
			for i := 0; i < len(q); i += size {
				p.write(q[i:min(i+size, len(q))])
			}
			clear(q) // keep no event alive in the spare
			q = q[:0]
		}
		if stopping {
			return
		}
	}
}

// writeTimeout bounds one write of a batch.
const writeTimeout = 10 * time.Second

func (p *pipe) write(batch []Event) {
	if len(batch) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
	p.cancel.Store(&cancel)
	err := p.sink.Write(ctx, batch)
	cancel()
	p.mu.Lock()
	defer p.mu.Unlock()
	if err != nil {
		p.failed.Add(1)
		p.dropped.Add(uint64(len(batch)))
		p.lastErr = err.Error()
		return
	}
	p.sent.Add(uint64(len(batch)))
	p.lastOK = time.Now()
}

// abandon cancels the write in progress and counts what is queued as
// dropped.
func (p *pipe) abandon() {
	if c := p.cancel.Load(); c != nil {
		(*c)()
	}
	p.mu.Lock()
	n := len(p.queue)
	p.queue = nil
	p.mu.Unlock()
	p.dropped.Add(uint64(n))
}

func (p *pipe) health() Health {
	p.mu.Lock()
	defer p.mu.Unlock()
	return Health{Sink: p.sink.Name(), Sent: p.sent.Load(), Dropped: p.dropped.Load(), Failed: p.failed.Load(), LastErr: p.lastErr, LastOK: p.lastOK}
}

// newID returns a random version 4 UUID. Its randomness is math/rand/v2's
// (ChaCha8, seeded by the runtime): an id must be unique, not secret, and
// it costs no system call.
func newID() string {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], rand.Uint64())
	binary.LittleEndian.PutUint64(b[8:], rand.Uint64())
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var out [36]byte
	hex.Encode(out[:8], b[:4])
	out[8] = '-'
	hex.Encode(out[9:13], b[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], b[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], b[8:10])
	out[23] = '-'
	hex.Encode(out[24:], b[10:])
	return string(out[:])
}
