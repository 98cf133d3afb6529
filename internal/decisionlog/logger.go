package decisionlog

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
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
	Agent   string // the agent, when known
	Host    string // os.Hostname() when empty
	// Queue is the number of events each sink holds before it drops
	// (1024 when zero); Batch the most events written at once (256);
	// Flush how long a partial batch waits (1s).
	Queue int
	Batch int
	Flush time.Duration
}

// Logger sends events to its sinks without blocking the caller. It
// implements cmdguard.DecisionLog.
type Logger struct {
	opts  Options
	pipes []*pipe
	once  sync.Once
	// in is the queue of events not yet masked: the dispatcher masks each
	// and offers it to the sinks, off the checking goroutine.
	in       chan Event
	inClosed atomic.Bool
	inDone   chan struct{}
	inMu     sync.RWMutex // held for reading by senders, for writing by Close
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
// per sink. Close it to flush.
func New(opts Options, sinks ...Sink) *Logger {
	if opts.Queue <= 0 {
		opts.Queue = 1024
	}
	if opts.Batch <= 0 {
		opts.Batch = 256
	}
	if opts.Flush <= 0 {
		opts.Flush = time.Second
	}
	if opts.Host == "" {
		opts.Host, _ = os.Hostname()
	}
	l := &Logger{opts: opts, in: make(chan Event, opts.Queue), inDone: make(chan struct{})}
	for _, s := range sinks {
		p := &pipe{sink: s, ch: make(chan Event, opts.Queue), done: make(chan struct{}), stop: make(chan struct{})}
		l.pipes = append(l.pipes, p)
		go p.run(opts.Batch, opts.Flush)
	}
	go l.dispatch()
	return l
}

// dispatch masks each event and offers it to the sinks.
func (l *Logger) dispatch() {
	defer close(l.inDone)
	for e := range l.in {
		e.Command, e.ID = Mask(e.Command), newID()
		l.Log(e)
	}
}

// LogDecision records rec: it builds the event and queues it; another
// goroutine masks the command and offers it to every sink's queue. It
// never blocks: a full queue drops the event (counted by every sink).
func (l *Logger) LogDecision(rec *cmdguard.DecisionRecord) {
	if l == nil || len(l.pipes) == 0 {
		return
	}
	e := l.event(rec)
	l.inMu.RLock()
	defer l.inMu.RUnlock()
	if l.inClosed.Load() {
		l.drop()
		return
	}
	select {
	case l.in <- e:
	default:
		l.drop()
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
	e := Event{Time: rec.Time.UTC(), Host: l.opts.Host, Adapter: l.opts.Adapter, Agent: l.opts.Agent,
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
func (l *Logger) Log(e Event) {
	for _, p := range l.pipes {
		if p.closed.Load() {
			p.dropped.Add(1)
			continue
		}
		select {
		case p.ch <- e:
		default:
			p.dropped.Add(1)
		}
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
		l.inMu.Lock()
		l.inClosed.Store(true)
		close(l.in)
		l.inMu.Unlock()
		select {
		case <-l.inDone:
		case <-ctx.Done():
		}
		for _, p := range l.pipes {
			p.closed.Store(true)
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
	sink   Sink
	ch     chan Event
	stop   chan struct{}
	done   chan struct{}
	closed atomic.Bool
	// ctx of the write in progress, cancelled when Close gives up.
	cancel atomic.Pointer[context.CancelFunc]

	sent, dropped, failed atomic.Uint64
	mu                    sync.Mutex
	lastErr               string
	lastOK                time.Time
}

func (p *pipe) run(size int, flush time.Duration) {
	defer close(p.done)
	batch := make([]Event, 0, size)
	t := time.NewTimer(flush)
	defer t.Stop()
	for {
		select {
		case e := <-p.ch:
			batch = append(batch, e)
			if len(batch) < size {
				continue
			}
		case <-t.C:
			t.Reset(flush)
		case <-p.stop:
			for {
				select {
				case e := <-p.ch:
					batch = append(batch, e)
					if len(batch) >= size {
						p.write(batch)
						batch = batch[:0]
					}
					continue
				default:
				}
				break
			}
			p.write(batch)
			return
		}
		if len(batch) > 0 {
			p.write(batch)
			batch = batch[:0]
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
	p.dropped.Add(uint64(len(p.ch)))
}

func (p *pipe) health() Health {
	p.mu.Lock()
	defer p.mu.Unlock()
	return Health{Sink: p.sink.Name(), Sent: p.sent.Load(), Dropped: p.dropped.Load(), Failed: p.failed.Load(), LastErr: p.lastErr, LastOK: p.lastOK}
}

func newID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
