package exec_test

import (
	"strings"
	"testing"
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
