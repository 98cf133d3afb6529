package exec_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/cmdguard/cmdguard/exec"
	"github.com/google/go-cmp/cmp"
)

func TestBufferWindow(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		limit  int
		writes []string
		offset int64
		want   exec.Chunk
	}{{
		name:   "fits",
		limit:  10,
		writes: []string{"hello"},
		want:   exec.Chunk{Data: []byte("hello"), Next: 5},
	}, {
		name:   "keeps newest",
		limit:  4,
		writes: []string{"abc", "def", "gh"},
		want:   exec.Chunk{Data: []byte("efgh"), Offset: 4, Next: 8, Lost: 4, Truncated: true},
	}, {
		name:   "one write larger than the limit",
		limit:  4,
		writes: []string{"0123456789"},
		want:   exec.Chunk{Data: []byte("6789"), Offset: 6, Next: 10, Lost: 6, Truncated: true},
	}, {
		name:   "offset inside the window",
		limit:  4,
		writes: []string{"0123456789"},
		offset: 8,
		want:   exec.Chunk{Data: []byte("89"), Offset: 8, Next: 10, Truncated: true},
	}, {
		name:   "offset past the end",
		limit:  4,
		writes: []string{"01"},
		offset: 99,
		want:   exec.Chunk{Data: []byte{}, Offset: 2, Next: 2},
	}, {
		// "é" is two bytes: the window starts on the second byte of the
		// third "é", which is skipped.
		name:   "cut inside a two-byte character",
		limit:  5,
		writes: []string{"éééé"},
		want:   exec.Chunk{Data: []byte("éé"), Offset: 4, Next: 8, Lost: 4, Truncated: true},
	}, {
		name:   "cut inside a three-byte character",
		limit:  7,
		writes: []string{"x€€€"},
		want:   exec.Chunk{Data: []byte("€€"), Offset: 4, Next: 10, Lost: 4, Truncated: true},
	}, {
		name:   "cut inside a four-byte character",
		limit:  6,
		writes: []string{"😀😀😀"},
		want:   exec.Chunk{Data: []byte("😀"), Offset: 8, Next: 12, Lost: 8, Truncated: true},
	}, {
		name:   "incomplete character held back",
		limit:  10,
		writes: []string{"a\xe2\x82"},
		want:   exec.Chunk{Data: []byte("a"), Next: 1},
	}, {
		name:   "held character completed by the next write",
		limit:  10,
		writes: []string{"a\xe2", "\x82", "\xacb"},
		want:   exec.Chunk{Data: []byte("a€b"), Next: 5},
	}, {
		name:   "misplaced offset steps to the next character",
		limit:  10,
		writes: []string{"€x"},
		offset: 1,
		want:   exec.Chunk{Data: []byte("x"), Offset: 3, Next: 4, Lost: 2},
	}, {
		name:   "binary is not skipped wholesale",
		limit:  4,
		writes: []string{"\x80\x80\x80\x80\x80\x80\x80\x80"},
		want:   exec.Chunk{Data: []byte("\x80"), Offset: 7, Next: 8, Lost: 7, Truncated: true},
	}, {
		name:   "a limit of one byte keeps one byte, never half a character",
		limit:  1,
		writes: []string{"x😀"},
		want:   exec.Chunk{Data: []byte{}, Offset: 5, Next: 5, Lost: 5, Truncated: true},
	}, {
		name:   "a limit of three bytes keeps what fits whole",
		limit:  3,
		writes: []string{"x😀ab"},
		want:   exec.Chunk{Data: []byte("ab"), Offset: 5, Next: 7, Lost: 5, Truncated: true},
	}, {
		name:   "a limit of two bytes keeps a two-byte character",
		limit:  2,
		writes: []string{"abé"},
		want:   exec.Chunk{Data: []byte("é"), Offset: 2, Next: 4, Lost: 2, Truncated: true},
	}, {
		name:   "an incomplete character wider than the window shows nothing yet",
		limit:  2,
		writes: []string{"a\xf0\x9f\x98"},
		want:   exec.Chunk{Data: []byte{}, Offset: 2, Next: 2, Lost: 2, Truncated: true},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := exec.NewBuffer(tt.limit)
			for _, w := range tt.writes {
				if n, err := b.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write(%q) = %d, %v", w, n, err)
				}
			}
			got := b.Since(tt.offset)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Since(%d) after %q mismatch (-want +got):\n%s", tt.offset, tt.writes, diff)
			}
		})
	}
}

func TestChunkClip(t *testing.T) {
	t.Parallel()
	c := exec.Chunk{Data: []byte("aé😀z"), Offset: 10, Next: 18, EOF: true}
	tests := []struct {
		n    int
		want exec.Chunk
	}{
		{-1, c},
		{8, c},
		{100, c},
		{0, exec.Chunk{Data: []byte{}, Offset: 10, Next: 10}},
		{1, exec.Chunk{Data: []byte("a"), Offset: 10, Next: 11}},
		{2, exec.Chunk{Data: []byte("a"), Offset: 10, Next: 11}},
		{3, exec.Chunk{Data: []byte("aé"), Offset: 10, Next: 13}},
		{6, exec.Chunk{Data: []byte("aé"), Offset: 10, Next: 13}},
		{7, exec.Chunk{Data: []byte("aé😀"), Offset: 10, Next: 17}},
	}
	for _, tt := range tests {
		got := c.Clip(tt.n)
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Clip(%d) mismatch (-want +got):\n%s", tt.n, diff)
		}
		if len(got.Data) > max(tt.n, 0) && tt.n >= 0 {
			t.Errorf("Clip(%d) kept %d bytes", tt.n, len(got.Data))
		}
	}
	bin := exec.Chunk{Data: []byte("\x80\x80\x80\x80\x80\x80"), Next: 6}
	if got := bin.Clip(4); len(got.Data) != 4 || got.Next != 4 {
		t.Errorf("Clip(4) of binary = %q, Next %d; want 4 bytes", got.Data, got.Next)
	}
}

func TestBufferClose(t *testing.T) {
	t.Parallel()
	b := exec.NewBuffer(10)
	b.Write([]byte("ok\xe2\x82"))
	if got := b.Since(0); got.EOF || string(got.Data) != "ok" {
		t.Errorf("before Close: Since(0) = %+v, want \"ok\", not EOF", got)
	}
	b.Close()
	want := exec.Chunk{Data: []byte("ok\xe2\x82"), Next: 4, EOF: true}
	if diff := cmp.Diff(want, b.Since(0)); diff != "" {
		t.Errorf("after Close: Since(0) mismatch (-want +got):\n%s", diff)
	}
	if _, err := b.Write([]byte("x")); err != exec.ErrClosed {
		t.Errorf("Write after Close: err = %v, want ErrClosed", err)
	}
}

func TestBufferZeroValue(t *testing.T) {
	t.Parallel()
	var b exec.Buffer
	big := bytes.Repeat([]byte("ab"), exec.DefaultOutputLimit)
	b.Write(big)
	got := b.Since(0)
	if len(got.Data) != exec.DefaultOutputLimit || got.Next != int64(len(big)) || !got.Truncated {
		t.Errorf("zero Buffer after %d bytes: len(Data)=%d Next=%d Truncated=%v, want %d, %d, true",
			len(big), len(got.Data), got.Next, got.Truncated, exec.DefaultOutputLimit, len(big))
	}
	if b.Total() != int64(len(big)) {
		t.Errorf("Total() = %d, want %d", b.Total(), len(big))
	}
}

// TestBufferIncrementalReads reads a stream in pieces while it is written
// and truncated, and checks that the pieces and the losses add up.
func TestBufferIncrementalReads(t *testing.T) {
	t.Parallel()
	const text = "Grüße, 世界! 😀 "
	b := exec.NewBuffer(16)
	var got strings.Builder
	var next, lost int64
	for i := range 50 {
		b.Write([]byte(text[:i%len(text)]))
		b.Write([]byte(text[i%len(text):]))
		if i%3 == 0 {
			c := b.Since(next)
			if c.Offset != next+c.Lost {
				t.Fatalf("read %d: Offset %d, want requested %d + Lost %d", i, c.Offset, next, c.Lost)
			}
			if !utf8.Valid(c.Data) {
				t.Fatalf("read %d: invalid UTF-8 %q", i, c.Data)
			}
			got.Write(c.Data)
			lost += c.Lost
			next = c.Next
		}
	}
	total := int64(50 * len(text))
	if last := b.Since(next); last.Next != total || last.Offset != next+last.Lost {
		t.Errorf("last read from %d = Offset %d Lost %d Next %d, want Offset = %d + Lost, Next = total %d",
			next, last.Offset, last.Lost, last.Next, next, total)
	}
	if int64(got.Len())+lost != next {
		t.Errorf("read %d bytes and lost %d, want them to add up to %d", got.Len(), lost, next)
	}
}

func TestBufferWait(t *testing.T) {
	t.Parallel()
	b := exec.NewBuffer(0)
	done := make(chan exec.Chunk)
	go func() { done <- b.Wait(context.Background(), 0) }()
	b.Write([]byte("x"))
	if c := <-done; string(c.Data) != "x" {
		t.Errorf("Wait(0) = %q, want \"x\"", c.Data)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if c := b.Wait(ctx, 1); len(c.Data) != 0 || c.EOF {
		t.Errorf("Wait(1) with nothing new = %+v, want empty, not EOF", c)
	}
	go func() { done <- b.Wait(context.Background(), 1) }()
	b.Close()
	if c := <-done; !c.EOF {
		t.Errorf("Wait(1) after Close = %+v, want EOF", c)
	}
}

// FuzzBuffer writes a stream in arbitrary pieces and compares the window
// with the end of the whole stream.
func FuzzBuffer(f *testing.F) {
	f.Fuzz(func(t *testing.T, data []byte, limit uint8, cut uint8) {
		b := exec.NewBuffer(int(limit))
		for p := data; len(p) > 0; {
			n := min(len(p), int(cut)+1)
			b.Write(p[:n])
			p = p[n:]
		}
		c := b.Since(0)
		if c.Next > int64(len(data)) || c.Next < int64(len(data)-utf8.UTFMax+1) {
			t.Fatalf("Next = %d for %d bytes", c.Next, len(data))
		}
		if !bytes.HasSuffix(data[:c.Next], c.Data) || c.Offset+int64(len(c.Data)) != c.Next {
			t.Fatalf("window %q (offset %d) is not the end of %q", c.Data, c.Offset, data[:c.Next])
		}
		if utf8.Valid(data) && !utf8.Valid(c.Data) {
			t.Fatalf("window %q of valid UTF-8 is invalid", c.Data)
		}
		if lim := max(int(limit), utf8.UTFMax); int(limit) > 0 && len(c.Data) > lim {
			t.Fatalf("window of %d bytes exceeds limit %d", len(c.Data), lim)
		}
		b.Close()
		if c := b.Since(0); c.Next != int64(len(data)) || !c.EOF {
			t.Fatalf("after Close: Next = %d, EOF = %v, want %d, true", c.Next, c.EOF, len(data))
		}
	})
}
