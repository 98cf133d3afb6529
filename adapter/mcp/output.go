package mcp

import (
	"fmt"
	"sync"
	"unicode/utf8"

	"github.com/cmdguard/cmdguard/exec"
)

// headWriter keeps the first n bytes written to it (the live tee of a
// stream), so that a cut output can show its beginning as well as the
// newest bytes the executor keeps.
type headWriter struct {
	mu  sync.Mutex
	n   int
	buf []byte
}

func (h *headWriter) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if room := h.n - len(h.buf); room > 0 {
		h.buf = append(h.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (h *headWriter) bytes() []byte {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.buf
}

// shaped is one stream made fit for a model.
type shaped struct {
	text      string
	truncated bool
}

// shape returns a whole stream for a model: all of it when its total fits
// in limit bytes, else its head (a fifth of limit), a marker saying how
// many bytes were left out, and its tail. tail is the executor's window
// of the newest bytes, head the first bytes seen.
func shape(head []byte, tail exec.Chunk, limit int) shaped {
	total := tail.Next
	if total <= int64(limit) && tail.Offset == 0 {
		return shaped{text: clean(tail.Data)}
	}
	headN := limit / 5
	h := exec.Chunk{Data: head}.Clip(headN).Data
	t := clipFront(tail.Data, limit-len(h))
	omitted := total - int64(len(h)) - int64(len(t))
	return shaped{
		text:      clean(h) + fmt.Sprintf("\n[… cmdguard: %d bytes of output omitted …]\n", omitted) + clean(t),
		truncated: true,
	}
}

// clipFront returns the last at most n bytes of b, starting at a
// character boundary.
func clipFront(b []byte, n int) []byte {
	if n <= 0 {
		return nil
	}
	if len(b) <= n {
		return b
	}
	b = b[len(b)-n:]
	for i := 0; i < len(b) && i < utf8.UTFMax; i++ {
		if utf8.RuneStart(b[i]) {
			return b[i:]
		}
	}
	return b
}

// clean makes output text for a model: escape sequences removed,
// carriage-return redraws (progress bars) collapsed to what a terminal
// would show, invalid UTF-8 replaced.
func clean(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return exec.CollapseCR(exec.StripANSI(string(b)))
}
