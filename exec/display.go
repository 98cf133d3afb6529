package exec

import (
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// StripANSI returns s without terminal escape sequences: CSI sequences
// (colours, cursor moves: ESC [ … final byte, or the C1 character U+009B),
// OSC strings (titles, hyperlinks: ESC ] … ended by BEL or ESC \), DCS, SOS,
// PM and APC strings, and two-byte escapes such as ESC 7 or ESC ( B. An
// unfinished sequence at the end of s is dropped. Other text, including
// newlines, tabs and carriage returns, is kept; bytes that are not valid
// UTF-8 become U+FFFD, so that the result is valid UTF-8.
func StripANSI(s string) string {
	if !strings.ContainsAny(s, "\x1b\u009b\u009d") && utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == 0x1b && i+1 < len(s):
			i += 1 + escapeLen(s[i+1:])
		case r == 0x1b:
			i++
		case r == 0x9b:
			i += size + csiLen(s[i+size:])
		case r == 0x9d:
			i += size + stringLen(s[i+size:])
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
			i++
		default:
			b.WriteString(s[i : i+size])
			i += size
		}
	}
	return b.String()
}

// escapeLen returns the length of the escape sequence whose introducer
// (the byte after ESC) begins s.
func escapeLen(s string) int {
	switch s[0] {
	case '[':
		return 1 + csiLen(s[1:])
	case ']', 'P', 'X', '^', '_':
		return 1 + stringLen(s[1:])
	}
	// nF escapes: intermediate bytes, then one final byte.
	i := 0
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		i++
	}
	return i
}

// csiLen returns the length of a CSI sequence's parameters, intermediates
// and final byte at the start of s.
func csiLen(s string) int {
	i := 0
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x3f {
		i++
	}
	if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
		i++
	}
	return i
}

// stringLen returns the length of a control string at the start of s, with
// its terminator: BEL, ESC \ or the C1 character U+009C.
func stringLen(s string) int {
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\a':
			return i + 1
		case s[i] == 0x1b && i+1 < len(s) && s[i+1] == '\\':
			return i + 2
		case strings.HasPrefix(s[i:], "\u009c"):
			return i + len("\u009c")
		}
	}
	return len(s)
}

// CollapseCR returns s as a terminal would show it after carriage returns:
// on each line, text written after a '\r' overwrites the line from its
// start, so a progress bar redrawn a thousand times leaves only its last
// state. "\r\n" ends a line as "\n" does.
func CollapseCR(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	var line []rune
	pos := 0
	for _, r := range s {
		switch r {
		case '\r':
			pos = 0
		case '\n':
			b.WriteString(string(line))
			b.WriteByte('\n')
			line, pos = line[:0], 0
		default:
			if pos < len(line) {
				line[pos] = r
			} else {
				line = append(line, r)
			}
			pos++
		}
	}
	b.WriteString(string(line))
	return b.String()
}

// maxPending is how many bytes a Throttle holds before it writes anyway.
const maxPending = 64 << 10

// A Throttle passes writes on to an io.Writer at most once per interval,
// coalescing what comes in between, for live display of chatty output: a
// command printing a million short lines costs the terminal a few dozen
// writes a second. No byte is dropped: what is pending is written when the
// interval has passed, when 64 KiB are pending, and by Flush and Close.
//
// Use [NewThrottle] to make one; the zero value discards what is written.
// A Throttle is safe for use by many goroutines at once.
type Throttle struct {
	w        io.Writer
	interval time.Duration

	mu      sync.Mutex
	pending []byte
	last    time.Time
	timer   *time.Timer
	err     error
	closed  bool
}

// NewThrottle returns a Throttle writing to w at most once per interval.
func NewThrottle(w io.Writer, interval time.Duration) *Throttle {
	return &Throttle{w: w, interval: interval}
}

// Write queues p and writes what is pending if the interval has passed. It
// returns an error from an earlier write to the underlying writer, or
// [ErrClosed] after Close.
func (t *Throttle) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case t.closed:
		return 0, ErrClosed
	case t.err != nil:
		return 0, t.err
	}
	t.pending = append(t.pending, p...)
	wait := t.interval - time.Since(t.last)
	switch {
	case wait <= 0 || len(t.pending) >= maxPending:
		t.flushLocked()
	case t.timer == nil:
		t.timer = time.AfterFunc(wait, func() { t.Flush() })
	}
	return len(p), t.err
}

// Flush writes what is pending now.
func (t *Throttle) Flush() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.flushLocked()
	return t.err
}

// Close flushes and stops the Throttle. It does not close the underlying
// writer.
func (t *Throttle) Close() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.flushLocked()
	t.closed = true
	return t.err
}

func (t *Throttle) flushLocked() {
	if t.timer != nil {
		t.timer.Stop()
		t.timer = nil
	}
	t.last = time.Now()
	if len(t.pending) == 0 || t.err != nil || t.w == nil {
		t.pending = t.pending[:0]
		return
	}
	_, t.err = t.w.Write(t.pending)
	t.pending = t.pending[:0]
}
