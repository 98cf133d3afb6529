package exec_test

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/cmdguard/cmdguard/exec"
)

func TestStripANSI(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"plain\ttext\r\n", "plain\ttext\r\n"},
		{"\x1b[1;31mred\x1b[0m", "red"},
		{"\x1b[2K\x1b[1Gline", "line"},
		{"\x1b[?25lhidden cursor\x1b[?25h", "hidden cursor"},
		{"\x1b]0;title\alink \x1b]8;;http://x\x1b\\text\x1b]8;;\x1b\\", "link text"},
		{"\x1b(Bcharset \x1b7saved\x1b8", "charset saved"},
		{"\x1bPdevice control\x1b\\after", "after"},
		{"\u009b31mC1 CSI\u009b0m", "C1 CSI"},
		{"wörld 世界 \x1b[32m😀\x1b[m", "wörld 世界 😀"},
		{"cut at the end \x1b[3", "cut at the end "},
		{"lone escape \x1b", "lone escape "},
		{"bad \xff byte", "bad \ufffd byte"},
	}
	for _, tt := range tests {
		if got := exec.StripANSI(tt.in); got != tt.want {
			t.Errorf("StripANSI(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestCollapseCR(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"no returns\n", "no returns\n"},
		{"10%\r50%\r100%\ndone\n", "100%\ndone\n"},
		{"windows\r\nlines\r\n", "windows\nlines\n"},
		{"long line\rshort", "shortline"},
		{"[==  ]\r[====]\r", "[====]"},
		{"größe\rGRÖ", "GRÖße"},
	}
	for _, tt := range tests {
		if got := exec.CollapseCR(tt.in); got != tt.want {
			t.Errorf("CollapseCR(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzStripANSI(f *testing.F) {
	f.Fuzz(func(t *testing.T, s string) {
		got := exec.StripANSI(s)
		if strings.ContainsRune(got, 0x1b) {
			t.Fatalf("StripANSI(%q) = %q still has an escape", s, got)
		}
		if again := exec.StripANSI(got); again != got {
			t.Fatalf("StripANSI not idempotent on %q: %q then %q", s, got, again)
		}
		if !utf8.ValidString(got) {
			t.Fatalf("StripANSI(%q) = %q is not valid UTF-8", s, got)
		}
	})
}

// countingWriter records the writes it receives.
type countingWriter struct {
	mu     sync.Mutex
	writes int
	buf    bytes.Buffer
}

func (w *countingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writes++
	return w.buf.Write(p)
}

func (w *countingWriter) state() (int, string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.writes, w.buf.String()
}

func TestThrottle(t *testing.T) {
	t.Parallel()
	t.Run("coalesces", func(t *testing.T) {
		t.Parallel()
		var w countingWriter
		th := exec.NewThrottle(&w, time.Hour)
		var want strings.Builder
		for i := range 1000 {
			line := strings.Repeat("x", i%100) + "\n"
			want.WriteString(line)
			th.Write([]byte(line))
		}
		th.Close()
		writes, got := w.state()
		if got != want.String() {
			t.Errorf("Throttle passed on %d bytes, want the %d written", len(got), want.Len())
		}
		// The first write goes through; then one per 64 KiB; then Close.
		if maxWrites := 2 + want.Len()/(64<<10); writes > maxWrites {
			t.Errorf("1000 writes became %d, want at most %d", writes, maxWrites)
		}
		if _, err := th.Write([]byte("late")); err != exec.ErrClosed {
			t.Errorf("Write after Close: %v, want ErrClosed", err)
		}
	})
	t.Run("zero value discards", func(t *testing.T) {
		t.Parallel()
		var th exec.Throttle
		if n, err := th.Write([]byte("x")); n != 1 || err != nil {
			t.Errorf("zero Throttle Write = %d, %v; want 1, nil", n, err)
		}
		if err := th.Close(); err != nil {
			t.Errorf("zero Throttle Close: %v", err)
		}
	})
	t.Run("flushes after the interval", func(t *testing.T) {
		t.Parallel()
		var w countingWriter
		th := exec.NewThrottle(&w, time.Millisecond)
		th.Write([]byte("a"))
		th.Write([]byte("b"))
		th.Write([]byte("c"))
		eventually(t, "pending bytes were not flushed", func() bool { _, s := w.state(); return s == "abc" })
	})
}
