package main

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard"
)

// TestWriteRunJSON: the streamed result is byte for byte what encoding
// the whole object gives, for output that escapes in every way and
// crosses the pieces' boundaries inside UTF-8 sequences.
func TestWriteRunJSON(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 200_000)
	for i := range random {
		random[i] = byte(rnd.UintN(256))
	}
	code := 3
	sig := "SIGKILL"
	cases := map[string][2]string{
		"empty":   {"", ""},
		"escapes": {"a\"b\\c\n\r\t\b\f\x00\x1f<>&\u2028\u2029é€😀", "err\n"},
		"utf8":    {strings.Repeat("é", 40_000), strings.Repeat("€", 30_001)},
		"emoji":   {"x" + strings.Repeat("😀", 20_000), "xy" + strings.Repeat("😀", 20_000)},
		"invalid": {strings.Repeat("\xe2\x82", 30_000) + "\xff\xfe", strings.Repeat("\x80", 70_000)},
		"random":  {string(random), string(random[7:])},
		"nul":     {strings.Repeat("\x00", 100_000), ""},
	}
	for name, c := range cases {
		out := runResult{Decision: cmdguard.Allow, Reasons: []cmdguard.Reason{{Verdict: cmdguard.Allow, Rule: "policy.allow", Message: "<ok> & \"x\""}},
			Status: "completed", ExitCode: &code, Signal: &sig, Truncated: true, DurationMS: 12}
		var got bytes.Buffer
		writeRunJSON(&got, out, []byte(c[0]), []byte(c[1]))
		out.Stdout, out.Stderr = c[0], c[1]
		var want bytes.Buffer
		writeJSON(&want, out)
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			g, w := got.String(), want.String()
			i := 0
			for i < len(g) && i < len(w) && g[i] == w[i] {
				i++
			}
			t.Errorf("%s: streamed JSON differs at byte %d of %d/%d: got …%q…, want …%q…", name, i, len(g), len(w),
				g[max(0, i-20):min(len(g), i+20)], w[max(0, i-20):min(len(w), i+20)])
		}
	}
}

// BenchmarkWriteRunJSON writes a 1 MiB window of NULs (the worst case:
// six bytes each escaped), streamed and as one encoded object.
func BenchmarkWriteRunJSON(b *testing.B) {
	data := make([]byte, 1<<20)
	out := runResult{Decision: cmdguard.Allow, Status: "completed"}
	b.Run("stream", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			writeRunJSON(discard{}, out, data, nil)
		}
	})
	b.Run("encode", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			o := out
			o.Stdout = string(data)
			writeJSON(discard{}, o)
		}
	})
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
