package cmdguard_test

import (
	"bytes"
	"context"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/internal/decisionlog"
)

// TestDecisionLogHTTPDown100k: 100,000 checks with the decision log on
// and its HTTP collector down (a closed port on 127.0.0.1): every check
// returns its decision, the heap stays bounded, and every decision is
// counted by each sink (sent or dropped); the file sink keeps what it
// did not drop.
func TestDecisionLogHTTPDown100k(t *testing.T) {
	if testing.Short() {
		t.Skip("100,000 checks: skipped with -short")
	}
	t.Setenv(cmdguard.ManagedEnv, "")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + "/logs"
	ln.Close()
	file := filepath.Join(t.TempDir(), "decisions.jsonl")
	l := decisionlog.New(decisionlog.Options{Adapter: "test"}, &decisionlog.FileSink{Path: file, MaxBytes: 1 << 30}, &decisionlog.HTTPSink{URL: url}) // no rotation: the test counts the lines
	g, err := cmdguard.Open(project(t, testPolicy))
	if err != nil {
		t.Fatal(err)
	}
	g.SetDecisionLog(l)
	const n = 100000
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var peak uint64
	ctx := context.Background()
	start := time.Now()
	for i := 0; i < n; i++ {
		d, err := g.Check(ctx, cmdguard.Request{Command: "git status", BaseEnv: []string{}})
		if err != nil || d.Verdict != cmdguard.Allow {
			t.Fatalf("check %d: %s %v", i, d.Verdict, err)
		}
		if i%10000 == 0 {
			runtime.ReadMemStats(&after)
			peak = max(peak, after.HeapAlloc)
		}
	}
	elapsed := time.Since(start)
	runtime.GC()
	runtime.ReadMemStats(&after)
	cctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	l.Close(cctx)
	t.Logf("%d checks in %v; heap %d KiB before, %d KiB peak sampled, %d KiB after GC", n, elapsed, before.HeapAlloc>>10, peak>>10, after.HeapAlloc>>10)
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 32<<20 {
		t.Errorf("heap grew by %d MiB over %d checks with the collector down", grew>>20, n)
	}
	lines := 0
	if data, err := os.ReadFile(file); err == nil {
		lines = bytes.Count(data, []byte("\n"))
	}
	for _, h := range l.Health() {
		t.Logf("sink %s: sent %d dropped %d failed %d", h.Sink, h.Sent, h.Dropped, h.Failed)
		if h.Sent+h.Dropped != n {
			t.Errorf("sink %s: sent %d + dropped %d != %d decisions", h.Sink, h.Sent, h.Dropped, n)
		}
		if h.Sink == "file:"+file && h.Sent != uint64(lines) {
			t.Errorf("file sink says %d sent, the file holds %d lines", h.Sent, lines)
		}
	}
}

// TestDecisionLogRecordsRun: Run reports the decision once the command
// ended, with its exit status and duration; a refused one at once.
func TestDecisionLogRecordsRun(t *testing.T) {
	t.Setenv(cmdguard.ManagedEnv, "")
	needProgram(t, "bash")
	g, err := cmdguard.Open(project(t, testPolicy))
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan cmdguard.DecisionRecord, 4)
	g.SetDecisionLog(logFunc(func(r *cmdguard.DecisionRecord) { got <- *r }))
	g.Run(context.Background(), cmdguard.RunRequest{Request: cmdguard.Request{Command: "sed -n 1p nothere", BaseEnv: []string{}}})
	g.Run(context.Background(), cmdguard.RunRequest{Request: cmdguard.Request{Command: "rm -rf src", BaseEnv: []string{}}})
	g.Run(context.Background(), cmdguard.RunRequest{Request: cmdguard.Request{Command: "rm x", BaseEnv: []string{}},
		Approve: func(cmdguard.Decision) bool { return false }})
	want := map[string]struct {
		verdict cmdguard.Verdict
		by      string
		exit    int // -1: no run
	}{"sed -n 1p nothere": {cmdguard.Allow, "rule", 2}, "rm -rf src": {cmdguard.Deny, "rule", -1}, "rm x": {cmdguard.Ask, "person", -1}}
	for n := len(want); n > 0; n-- {
		select {
		case r := <-got:
			w, found := want[r.Command]
			ok := found && r.Decision.Verdict == w.verdict && r.DecidedBy == w.by
			if w.exit < 0 {
				ok = ok && r.Run == nil
			} else {
				ok = ok && r.Run != nil && r.Run.ExitCode != nil && *r.Run.ExitCode == w.exit && r.Run.Duration > 0
			}
			if !ok {
				t.Errorf("record of %q: %s by %s run %+v; want %+v", r.Command, r.Decision.Verdict, r.DecidedBy, r.Run, w)
			}
			delete(want, r.Command)
		case <-time.After(10 * time.Second):
			t.Fatalf("records of %v never came", want)
		}
	}
}

// processCPU returns the user and system CPU time of the process in
// nanoseconds.
func processCPU() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

type logFunc func(*cmdguard.DecisionRecord)

func (f logFunc) LogDecision(r *cmdguard.DecisionRecord) { f(r) }

// BenchmarkCheckDecisionLog: Guard.Check with the decision log off, and
// on with the file sink.
func BenchmarkCheckDecisionLog(b *testing.B) {
	b.Setenv(cmdguard.ManagedEnv, "")
	for _, on := range []bool{false, true} {
		name := "off"
		if on {
			name = "file"
		}
		b.Run(name, func(b *testing.B) {
			g, err := cmdguard.Open(project(b, testPolicy))
			if err != nil {
				b.Fatal(err)
			}
			var l *decisionlog.Logger
			if on {
				l = decisionlog.New(decisionlog.Options{Adapter: "bench"}, &decisionlog.FileSink{Path: filepath.Join(b.TempDir(), "d.jsonl")})
				g.SetDecisionLog(l)
			}
			ctx := context.Background()
			req := cmdguard.Request{Command: "git status && grep -r TODO src | wc -l", BaseEnv: []string{}}
			b.ReportAllocs()
			cpu0 := processCPU()
			n := 0
			for b.Loop() {
				if d, _ := g.Check(ctx, req); d.Verdict != cmdguard.Allow {
					b.Fatal(d.Verdict)
				}
				n++
			}
			b.StopTimer()
			if l != nil {
				l.Close(ctx)
				h := l.Health()[0]
				b.ReportMetric(float64(h.Dropped), "dropped")
			}
			// The process's CPU time (every thread: the log's goroutines,
			// the file's writes, the garbage collector), closing the log
			// included: a figure the machine's other load disturbs less
			// than the wall clock.
			b.ReportMetric(float64(processCPU()-cpu0)/float64(n), "cpu-ns/op")
		})
	}
}
