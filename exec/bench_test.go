package exec_test

import (
	"context"
	"flag"
	"fmt"
	"os/exec"
	"slices"
	"testing"
	"time"

	cmdexec "github.com/cmdguard/cmdguard/exec"
)

var streamBytes = flag.Int64("exec.stream", 1_000_000_000, "bytes written by the stream benchmarks")

// BenchmarkStartTrue measures start to exit of `bash -c true` through this
// package: pipes, process group, capture, reaping. Compare with
// BenchmarkBareOSExecTrue.
func BenchmarkStartTrue(b *testing.B) {
	b.ReportAllocs()
	ctx := context.Background()
	for b.Loop() {
		r, err := cmdexec.Run(ctx, cmdexec.Cmd{Command: "true"})
		if err != nil || r.ExitCode == nil || *r.ExitCode != 0 {
			b.Fatalf("Run(true) = %s, %v", r.Explain(), err)
		}
	}
}

// BenchmarkStartVsBare runs `true` through this package and `bash -c
// true` through bare os/exec alternately in one loop (which goes first
// alternates too), so that both see the same machine load, and reports
// the ratio of their medians (p50-ratio) and of their sums (ratio), with
// each median in ns. Sub-benchmarks: the default mechanism (a cgroup where
// one can be made) and the sweep forced.
//
//	go test -run '^$' -bench StartVsBare -benchtime 400x -count 5 ./exec
func BenchmarkStartVsBare(b *testing.B) {
	for _, mode := range []string{"default", cmdexec.ReaperSweep} {
		b.Run(mode, func(b *testing.B) {
			want := cmdexec.ExpectedReaper()
			if mode == cmdexec.ReaperSweep {
				defer cmdexec.ForceSweep()()
				want = cmdexec.ReaperSweep
			}
			ctx := context.Background()
			start := func() time.Duration {
				t0 := time.Now()
				r, err := cmdexec.Run(ctx, cmdexec.Cmd{Command: "true"})
				d := time.Since(t0)
				if err != nil || r.ExitCode == nil || *r.ExitCode != 0 || r.Reaper != want {
					b.Fatalf("Run(true) = %s, reaper %q (want %q), %v", r.Explain(), r.Reaper, want, err)
				}
				return d
			}
			bare := func() time.Duration {
				t0 := time.Now()
				if err := exec.Command("bash", "-c", "true").Run(); err != nil {
					b.Fatal(err)
				}
				return time.Since(t0)
			}
			var ds, db []time.Duration
			for i := 0; b.Loop(); i++ {
				if i%2 == 0 {
					ds, db = append(ds, start()), append(db, bare())
				} else {
					db, ds = append(db, bare()), append(ds, start())
				}
			}
			reportRatio(b, ds, db)
		})
	}
}

// reportRatio reports the medians of ds and db, in ns, and the ratios of
// their medians and of their sums.
func reportRatio(b *testing.B, ds, db []time.Duration) {
	var ss, sb time.Duration
	for i := range ds {
		ss, sb = ss+ds[i], sb+db[i]
	}
	slices.Sort(ds)
	slices.Sort(db)
	ms, mb := ds[len(ds)/2], db[len(db)/2]
	b.ReportMetric(float64(ms), "start-p50-ns")
	b.ReportMetric(float64(mb), "bare-p50-ns")
	b.ReportMetric(float64(ms)/float64(mb), "p50-ratio")
	b.ReportMetric(float64(ss)/float64(sb), "ratio")
	if testing.Verbose() {
		for _, q := range []float64{0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 0.99} {
			i := min(len(ds)-1, int(q*float64(len(ds))))
			b.Logf("q%.2f start %v bare %v", q, ds[i], db[i])
		}
	}
}

// BenchmarkPollFinished measures a Poll of a command that has ended:
// what every /v1/bash output request for a finished command costs.
func BenchmarkPollFinished(b *testing.B) {
	b.ReportAllocs()
	ctx := context.Background()
	p, err := cmdexec.Start(ctx, cmdexec.Cmd{Command: "printf 'hello\\n'; printf 'err\\n' >&2"})
	if err != nil {
		b.Fatal(err)
	}
	defer p.Release()
	<-p.Done()
	for b.Loop() {
		r, err := p.Poll(ctx, 0, 0, 0)
		if err != nil || r.Status != cmdexec.StatusCompleted || len(r.Stdout.Data) != 6 {
			b.Fatalf("Poll = %s %q, %v", r.Status, r.Stdout.Data, err)
		}
	}
}

// BenchmarkBareOSExecTrue is the baseline: os/exec running bash -c true,
// output to the null device.
func BenchmarkBareOSExecTrue(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if err := exec.Command("bash", "-c", "true").Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCaptureStream measures the capture of a -exec.stream byte
// stream into the default 1 MiB window. Compare with
// BenchmarkBareStreamDevNull.
func BenchmarkCaptureStream(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(*streamBytes)
	ctx := context.Background()
	cmd := fmt.Sprintf("head -c %d /dev/zero", *streamBytes)
	for b.Loop() {
		r, err := cmdexec.Run(ctx, cmdexec.Cmd{Command: cmd})
		if err != nil || r.Stdout.Next != *streamBytes {
			b.Fatalf("Run(%q) captured %d bytes, %v", cmd, r.Stdout.Next, err)
		}
	}
}

// BenchmarkBareStreamDevNull is the baseline: the same stream written by
// bash -c 'CMD > /dev/null'.
func BenchmarkBareStreamDevNull(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(*streamBytes)
	cmd := fmt.Sprintf("head -c %d /dev/zero > /dev/null", *streamBytes)
	for b.Loop() {
		if err := exec.Command("bash", "-c", cmd).Run(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBareStreamPipe is the floor of any capture through a pipe: the
// same stream piped to cat, which throws it away.
func BenchmarkBareStreamPipe(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(*streamBytes)
	cmd := fmt.Sprintf("head -c %d /dev/zero | cat > /dev/null", *streamBytes)
	for b.Loop() {
		if err := exec.Command("bash", "-c", cmd).Run(); err != nil {
			b.Fatal(err)
		}
	}
}
