package bashapi_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/adapter/bashapi"
)

// The load test and the latency comparison are not in the default run
// (they start thousands of processes): CMDGUARD_LOAD=1 go test -run 'TestLoad|TestLatency' -v ./adapter/bashapi/

func needLoad(t *testing.T) {
	if os.Getenv("CMDGUARD_LOAD") == "" {
		t.Skip("set CMDGUARD_LOAD=1 to run the load test")
	}
}

func openFDs(t *testing.T) int {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}

// TestLoad: 200 clients × 20 commands on loopback, bounded in time. Every
// command's output arrives whole, no process group outlives its command,
// and no file descriptor is left open.
func TestLoad(t *testing.T) {
	needLoad(t)
	const clients, perClient = 200, 20
	s := newServer(t, bashapi.Config{}) // the default limits: 64 commands at once, so clients retry on 429 as the SDKs do
	hs := httptest.NewServer(s.h)
	client := &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	fdsBefore := openFDs(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	var (
		mu      sync.Mutex
		pgids   []int
		errs    []string
		retries atomic.Int64
	)
	failf := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		if len(errs) < 20 {
			errs = append(errs, fmt.Sprintf(format, args...))
		}
	}
	start := time.Now()
	var wg sync.WaitGroup
	for i := range clients {
		wg.Go(func() {
			sid := ""
			for j := range perClient {
				body := map[string]any{"command": fmt.Sprintf("echo $$; printf 'client %d command %d:'; printf '%%3000s|\\n' ''", i, j)}
				if sid != "" {
					body["session_id"] = sid
				}
				var m map[string]any
				for {
					code, a, err := postJSON(ctx, client, hs.URL+"/v1/bash/exec", body)
					if err != nil {
						failf("client %d command %d: %v", i, j, err)
						return
					}
					if code == http.StatusTooManyRequests {
						retries.Add(1)
						time.Sleep(20 * time.Millisecond)
						continue
					}
					if code != http.StatusOK {
						failf("client %d command %d: status %d %v", i, j, code, a)
						return
					}
					m = a
					break
				}
				d, _ := m["data"].(map[string]any)
				out := str(d["stdout"])
				pid, rest, _ := strings.Cut(out, "\n")
				want := fmt.Sprintf("client %d command %d:%s|\n", i, j, strings.Repeat(" ", 3000))
				if d["status"] != "completed" || d["exit_code"] != 0.0 || rest != want || num(d["offset"]) != int64(len(out)) {
					failf("client %d command %d: status %v exit %v, %d bytes of output, want %d", i, j, d["status"], d["exit_code"], len(rest), len(want))
				}
				pgid, _ := strconv.Atoi(pid)
				mu.Lock()
				pgids = append(pgids, pgid)
				mu.Unlock()
				sid = str(d["session_id"])
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	if len(errs) > 0 {
		t.Fatalf("%d+ failures, first:\n%s", len(errs), strings.Join(errs, "\n"))
	}
	if len(pgids) != clients*perClient {
		t.Fatalf("%d commands answered, want %d", len(pgids), clients*perClient)
	}
	for _, pgid := range pgids {
		if pgid <= 1 || syscall.Kill(-pgid, 0) == nil {
			t.Errorf("process group %d is still alive after its command completed", pgid)
		}
	}
	// Close the sessions (freeing their commands' output), then count fds.
	ctxc, cancelc := context.WithTimeout(context.Background(), time.Minute)
	defer cancelc()
	s.api.Close(ctxc)
	client.CloseIdleConnections()
	hs.Close()
	var fdsAfter int
	for range 50 {
		if fdsAfter = openFDs(t); fdsAfter <= fdsBefore {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if fdsAfter > fdsBefore {
		t.Errorf("%d file descriptors open after the load, %d before", fdsAfter, fdsBefore)
	}
	t.Logf("%d clients × %d commands in %v (%.0f commands/s), %d answers 429 retried, fds %d before, %d after",
		clients, perClient, elapsed.Round(time.Millisecond), float64(clients*perClient)/elapsed.Seconds(), retries.Load(), fdsBefore, fdsAfter)
}

// latencies sends n execs of `true` to url, one at a time, and returns
// the sorted latencies.
func latencies(t testing.TB, client *http.Client, url string, n int, session bool) []time.Duration {
	t.Helper()
	ds := make([]time.Duration, 0, n)
	sid := ""
	for range n {
		body := map[string]any{"command": "true"}
		if sid != "" {
			body["session_id"] = sid
		}
		t0 := time.Now()
		code, m, err := postJSON(context.Background(), client, url, body)
		ds = append(ds, time.Since(t0))
		d, _ := m["data"].(map[string]any)
		if err != nil || code != http.StatusOK || d["status"] != "completed" || d["exit_code"] != 0.0 {
			t.Fatalf("exec true: %d %v %v", code, m, err)
		}
		if session {
			sid = str(d["session_id"])
		}
	}
	slices.Sort(ds)
	return ds
}

func pct(ds []time.Duration, p float64) time.Duration {
	return ds[min(len(ds)-1, int(float64(len(ds))*p))]
}

// benchServer serves the /v1/bash API of a project with testPolicy over
// loopback HTTP until b ends.
func benchServer(b *testing.B) *httptest.Server {
	dir := b.TempDir()
	if err := os.WriteFile(dir+"/.cmdguard.yaml", []byte(testPolicy), 0o644); err != nil {
		b.Fatal(err)
	}
	g, err := cmdguard.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	s, err := bashapi.New(bashapi.Config{Guard: g, BaseEnv: []string{"PATH=" + os.Getenv("PATH")}})
	if err != nil {
		b.Fatal(err)
	}
	hs := httptest.NewServer(s)
	b.Cleanup(func() {
		hs.Close()
		s.Close(context.Background())
	})
	return hs
}

// BenchmarkLatencyRatio compares a gated exec of `true` through the
// server with the same through a bare os/exec handler, over loopback HTTP,
// interleaved: each iteration is a round of 50 requests to each, so that
// both see the same machine load. It reports the p50 and p99 of each and
// their ratios gated/bare (every answer is checked):
//
//	go test -run '^$' -bench LatencyRatio -benchtime 10x ./adapter/bashapi/
func BenchmarkLatencyRatio(b *testing.B) {
	gated := benchServer(b)
	bare := httptest.NewServer(http.HandlerFunc(bareHandler))
	defer bare.Close()
	client := &http.Client{Timeout: time.Minute}
	latencies(b, client, gated.URL+"/v1/bash/exec", 20, true) // warm up
	latencies(b, client, bare.URL, 20, false)
	var gl, d []time.Duration
	for b.Loop() {
		gl = append(gl, latencies(b, client, gated.URL+"/v1/bash/exec", 50, true)...)
		d = append(d, latencies(b, client, bare.URL, 50, false)...)
	}
	slices.Sort(gl)
	slices.Sort(d)
	ms := func(x time.Duration) float64 { return float64(x) / float64(time.Millisecond) }
	b.ReportMetric(ms(pct(gl, 0.5)), "gated-p50-ms")
	b.ReportMetric(ms(pct(gl, 0.99)), "gated-p99-ms")
	b.ReportMetric(ms(pct(d, 0.5)), "bare-p50-ms")
	b.ReportMetric(ms(pct(d, 0.99)), "bare-p99-ms")
	b.ReportMetric(float64(pct(gl, 0.5))/float64(pct(d, 0.5)), "p50-ratio")
	b.ReportMetric(float64(pct(gl, 0.99))/float64(pct(d, 0.99)), "p99-ratio")
	b.ReportMetric(0, "ns/op") // a round's time says nothing: the metrics above do
}

// BenchmarkExecTrue and BenchmarkBareExecTrue are the same comparison as
// BenchmarkLatencyRatio, as means: go test -run '^$' -bench ExecTrue -benchmem ./adapter/bashapi/
func BenchmarkExecTrue(b *testing.B) {
	hs := benchServer(b)
	client := &http.Client{}
	sid := ""
	for b.Loop() {
		body := map[string]any{"command": "true"}
		if sid != "" {
			body["session_id"] = sid
		}
		code, m, err := postJSON(context.Background(), client, hs.URL+"/v1/bash/exec", body)
		if err != nil || code != 200 {
			b.Fatal(code, m, err)
		}
		sid = str(m["data"].(map[string]any)["session_id"])
	}
}

func BenchmarkBareExecTrue(b *testing.B) {
	hs := httptest.NewServer(http.HandlerFunc(bareHandler))
	defer hs.Close()
	client := &http.Client{}
	for b.Loop() {
		if code, m, err := postJSON(context.Background(), client, hs.URL, map[string]any{"command": "true"}); err != nil || code != 200 {
			b.Fatal(code, m, err)
		}
	}
}
