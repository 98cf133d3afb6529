package parser

import "testing"

// TestAwkNumberAsGawk: gawk keeps an x or X inside a number's digits
// (70X0system("id") runs id: the number 70X0, then a call), starts hex
// digits after a first character and an x, and ends the number before an
// e with no exponent digits. Each row's reading was checked in gawk 5.2
// (the fuzz smoke found the first: main read X0system as a name).
func TestAwkNumberAsGawk(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		prog string
		eval bool
	}{
		{`BEGIN{print 70X0system("echo A")}`, true},
		{`BEGIN{print 70xsystem("echo B")}`, true},
		{`BEGIN{print 0x1fsystem("echo E")}`, true},
		{`BEGIN{print 2system("echo F")}`, true},
		{`BEGIN{print 7xsystem("echo C")}`, false}, // xsystem, a name (gawk: function not defined)
		{`BEGIN{print 2esystem("echo D")}`, false}, // esystem, a name
		{`BEGIN{print 1.5e3, 0x10, 12}`, false},
	} {
		if got := awkLex(tt.prog).eval; got != tt.eval {
			t.Errorf("awkLex(%q).eval = %v, want %v", tt.prog, got, tt.eval)
		}
	}
}
