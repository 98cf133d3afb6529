package exec

import (
	"syscall"
	"testing"
)

// BenchmarkSweepSessions measures one pass over /proc for one session
// (one that does not exist: nothing is signalled).
func BenchmarkSweepSessions(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sweepSessions([]sweepReq{{sid: 1 << 30, sig: syscall.Signal(0)}})
	}
}

func TestStatGroups(t *testing.T) {
	for _, tt := range []struct {
		line       string
		pgrp, sess int
		ok         bool
	}{
		{"123 (bash) S 1 120 110 34816 120 4194304 ...", 120, 110, true},
		{"7 (a) b) c (d) R 2 7 7 0 -1", 7, 7, true},
		{"9 (x)", 0, 0, false},
		{"garbage", 0, 0, false},
	} {
		pgrp, sess, ok := statGroups([]byte(tt.line))
		if pgrp != tt.pgrp || sess != tt.sess || ok != tt.ok {
			t.Errorf("statGroups(%q) = %d, %d, %v; want %d, %d, %v", tt.line, pgrp, sess, ok, tt.pgrp, tt.sess, tt.ok)
		}
	}
}
