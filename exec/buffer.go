package exec

import (
	"context"
	"errors"
	"sync"
	"unicode/utf8"
)

// DefaultOutputLimit is the number of bytes a [Buffer] keeps when no limit
// is given: 1 MiB per stream.
const DefaultOutputLimit = 1 << 20

// ErrClosed is returned by writes to a [Buffer] or [Throttle] after Close.
var ErrClosed = errors.New("exec: write after close")

// A Buffer keeps the newest bytes of an output stream, up to a limit, and
// counts every byte ever written to it. Offsets are positions in the whole
// stream, so they stay valid after older bytes have been dropped.
//
// A Buffer never hands out half a UTF-8 character: a window that begins
// inside a character starts at the next character, and an incomplete
// character at the end is held back until it is complete or the Buffer is
// closed. Bytes that are not valid UTF-8 are passed on as they are.
//
// Writes never block on readers and never fail before Close, so the process
// feeding the Buffer is never held up. Memory stays bounded by the limit.
//
// The zero value is an empty Buffer that keeps [DefaultOutputLimit] bytes.
// A Buffer is safe for use by many goroutines at once.
type Buffer struct {
	limit int

	mu      sync.Mutex
	ring    []byte // the newest bytes; once len(ring)==limit, ring[head] is the oldest
	head    int
	total   int64 // bytes ever written
	hold    int   // bytes at the end that begin an incomplete character
	closed  bool
	changed chan struct{} // closed when visible bytes grow or the Buffer closes; nil when nobody waits
}

// NewBuffer returns a Buffer that keeps the newest limit bytes. A limit of
// zero or less means [DefaultOutputLimit]. The limit is kept exactly: a
// limit below [utf8.UTFMax] keeps at most that many bytes, so a wider
// character that does not fit is dropped whole (and counted as lost).
func NewBuffer(limit int) *Buffer {
	return &Buffer{limit: normLimit(limit)}
}

func normLimit(limit int) int {
	if limit <= 0 {
		return DefaultOutputLimit
	}
	return limit
}

// A Chunk is a piece of an output stream, as returned by [Buffer.Since] and
// [Process.Read].
type Chunk struct {
	// Data holds the stream's bytes from Offset up to Next. It is a copy
	// that the caller owns; it never ends or begins inside a UTF-8
	// character.
	Data []byte
	// Offset is the stream position of Data[0].
	Offset int64
	// Next is the position to ask for next time: Offset+len(Data).
	Next int64
	// Lost counts the bytes between the requested offset and Offset that
	// will never be returned: they were dropped from the window, or they
	// were the tail of a character cut by the window.
	Lost int64
	// Truncated reports whether the stream has dropped bytes from its
	// beginning because it outgrew its limit.
	Truncated bool
	// EOF reports that the stream has ended and Next is its end: no more
	// bytes will come.
	EOF bool
}

// String returns the chunk's bytes as a string.
func (c Chunk) String() string { return string(c.Data) }

// Clip returns c cut to at most n bytes from its beginning, at a character
// boundary: the cut never splits a UTF-8 character, so a character wider
// than n at the start gives an empty Data (callers that read on from Next
// must allow at least [utf8.UTFMax] bytes to make progress). Next moves
// back to the end of what is kept and EOF is cleared when anything was
// cut. A negative n returns c unchanged. Bytes that are not valid UTF-8
// are cut anywhere.
func (c Chunk) Clip(n int) Chunk {
	if n < 0 || len(c.Data) <= n {
		return c
	}
	cut := n
	for i := 0; i < utf8.UTFMax-1 && cut > 0 && !utf8.RuneStart(c.Data[cut]); i++ {
		cut--
	}
	if !utf8.RuneStart(c.Data[cut]) {
		cut = n // not UTF-8 text: cut where asked
	}
	c.Data = c.Data[:cut:cut]
	c.Next = c.Offset + int64(cut)
	c.EOF = false
	return c
}

// Write appends p to the Buffer, dropping the oldest bytes beyond the
// limit. It returns len(p) and a nil error, or [ErrClosed] after Close.
func (b *Buffer) Write(p []byte) (int, error) {
	n := len(p)
	last := p[max(n-utf8.UTFMax, 0):]
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return 0, ErrClosed
	}
	if b.limit == 0 {
		b.limit = DefaultOutputLimit
	}
	b.total += int64(n)
	if len(p) > b.limit {
		p = p[len(p)-b.limit:]
	}
	for len(p) > 0 {
		if len(b.ring) < b.limit {
			m := min(b.limit-len(b.ring), len(p))
			if cap(b.ring)-len(b.ring) < m {
				grown := make([]byte, len(b.ring), min(b.limit, max(2*cap(b.ring), len(b.ring)+m)))
				copy(grown, b.ring)
				b.ring = grown
			}
			b.ring = append(b.ring, p[:m]...)
			p = p[m:]
			continue
		}
		m := copy(b.ring[b.head:], p)
		b.head = (b.head + m) % b.limit
		p = p[m:]
	}
	if len(last) < utf8.UTFMax {
		last = b.tail()
	}
	b.hold = incompleteTail(last)
	b.notify()
	return n, nil
}

// Close ends the stream: a held incomplete character is released as it is,
// and waiters are woken. Close is idempotent and always returns nil.
func (b *Buffer) Close() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.closed {
		b.closed = true
		b.hold = 0
		b.notify()
	}
	return nil
}

// Total returns the number of bytes ever written.
func (b *Buffer) Total() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.total
}

// Since returns the bytes held from offset on. An offset older than the
// window returns the window, with Lost counting what was skipped; an offset
// past the end returns an empty Chunk at the end.
func (b *Buffer) Since(offset int64) Chunk {
	b.mu.Lock()
	defer b.mu.Unlock()
	start := b.total - int64(len(b.ring))
	// A held incomplete character may be wider than a tiny window: then
	// nothing of it is visible yet.
	end := max(b.total-int64(b.hold), start)
	c := Chunk{Truncated: start > 0}
	from := max(offset, 0)
	if from < start {
		from = start
	}
	if from > end {
		from = end
	}
	// Step over continuation bytes of a character cut by the window or by
	// a misplaced offset, but at most a character's worth, so that binary
	// data is not skipped wholesale.
	if from > 0 {
		for i := 0; i < utf8.UTFMax-1 && from < end && !utf8.RuneStart(b.at(from)); i++ {
			from++
		}
	}
	c.Offset, c.Next = from, end
	c.Lost = max(from-max(offset, 0), 0)
	c.Data = b.copyRange(from, end)
	c.EOF = b.closed && c.Next == b.total
	return c
}

// Wait blocks until bytes past offset can be read, the Buffer is closed, or
// ctx is done, and returns what [Buffer.Since] returns then.
func (b *Buffer) Wait(ctx context.Context, offset int64) Chunk {
	for {
		ch := b.waitCh(offset)
		if ch == nil {
			return b.Since(offset)
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return b.Since(offset)
		}
	}
}

// waitCh returns a channel closed when bytes past offset become visible or
// the Buffer closes, or nil if that is already so.
func (b *Buffer) waitCh(offset int64) <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed || b.total-int64(b.hold) > offset {
		return nil
	}
	if b.changed == nil {
		b.changed = make(chan struct{})
	}
	return b.changed
}

// newData returns a channel closed when bytes past offset become visible,
// or nil if they already are. Unlike waitCh, a closed Buffer is not news:
// its channel never closes.
func (b *Buffer) newData(offset int64) <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.total-int64(b.hold) > offset && len(b.ring) > 0 {
		return nil
	}
	if b.closed {
		return make(chan struct{})
	}
	if b.changed == nil {
		b.changed = make(chan struct{})
	}
	return b.changed
}

// free drops the window, keeping the counts. Later reads return no data.
func (b *Buffer) free() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.ring, b.head, b.hold = nil, 0, 0
	b.closed = true
	b.notify()
}

func (b *Buffer) notify() {
	if b.changed != nil {
		close(b.changed)
		b.changed = nil
	}
}

// at returns the byte at stream position off, which must be in the window.
func (b *Buffer) at(off int64) byte {
	i := int(off - (b.total - int64(len(b.ring))))
	return b.ring[(b.head+i)%len(b.ring)]
}

// tail returns the last bytes of the window, up to utf8.UTFMax of them.
func (b *Buffer) tail() []byte {
	n := min(len(b.ring), utf8.UTFMax)
	return b.copyRange(b.total-int64(n), b.total)
}

// copyRange copies stream positions [from, to), which must be in the window.
func (b *Buffer) copyRange(from, to int64) []byte {
	out := make([]byte, to-from)
	if len(out) == 0 {
		return out
	}
	i := (b.head + int(from-(b.total-int64(len(b.ring))))) % len(b.ring)
	n := copy(out, b.ring[i:])
	copy(out[n:], b.ring)
	return out
}

// incompleteTail returns how many bytes at the end of p begin a UTF-8
// character that is not complete yet.
func incompleteTail(p []byte) int {
	for i := len(p) - 1; i >= 0 && i >= len(p)-utf8.UTFMax; i-- {
		if utf8.RuneStart(p[i]) {
			if utf8.FullRune(p[i:]) {
				return 0
			}
			return len(p) - i
		}
	}
	return 0
}
