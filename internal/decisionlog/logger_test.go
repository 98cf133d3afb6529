package decisionlog

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// recorder is an HTTP server on 127.0.0.1 that keeps every body it gets
// (gunzipped when Content-Encoding says gzip).
type recorder struct {
	mu     sync.Mutex
	bodies [][]byte
	srv    *httptest.Server
}

func newRecorder(t *testing.T) *recorder {
	r := &recorder{}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		var body io.Reader = req.Body
		if req.Header.Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(req.Body)
			if err != nil {
				http.Error(w, err.Error(), 400)
				return
			}
			body = zr
		}
		b, _ := io.ReadAll(body)
		r.mu.Lock()
		r.bodies = append(r.bodies, b)
		r.mu.Unlock()
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *recorder) all() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return bytes.Join(r.bodies, []byte("\n"))
}

// TestSinksNeverShowSecret sends the masking corpus through the file,
// the OPA HTTP and the OTLP/HTTP sink (servers on 127.0.0.1): each gets
// every event, and none shows the secret.
func TestSinksNeverShowSecret(t *testing.T) {
	opa, otlp := newRecorder(t), newRecorder(t)
	file := filepath.Join(t.TempDir(), "decisions.jsonl")
	l := New(Options{Adapter: "check", Host: "h", Flush: 10 * time.Millisecond},
		&FileSink{Path: file}, &HTTPSink{URL: opa.srv.URL + "/logs"}, &OTLPSink{URL: otlp.srv.URL + "/v1/logs"})
	for _, cmd := range maskCorpus {
		l.LogDecision(record(cmd))
	}
	if err := l.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, h := range l.Health() {
		if h.Sent != uint64(len(maskCorpus)) || h.Dropped != 0 || h.LastErr != "" {
			t.Errorf("sink %s: %+v, want %d sent", h.Sink, h, len(maskCorpus))
		}
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(data, []byte("\n")); n != len(maskCorpus) {
		t.Errorf("file: %d lines, want %d", n, len(maskCorpus))
	}
	var evs []map[string]any
	if err := json.Unmarshal(opa.all(), &evs); err != nil && len(maskCorpus) <= 256 {
		t.Fatalf("OPA body is not one JSON array: %v", err)
	}
	if len(evs) != len(maskCorpus) || evs[0]["decision_id"] == "" || evs[0]["path"] != "cmdguard/decision" {
		t.Errorf("OPA events: %d, first %v", len(evs), evs[0])
	}
	for name, b := range map[string][]byte{"file": data, "opa": opa.all(), "otlp": otlp.all()} {
		if bytes.Contains(b, []byte(secret)) || bytes.Contains(b, []byte("ghp_abc")) {
			i := bytes.Index(b, []byte(secret))
			t.Errorf("%s sink shows the secret: …%q…", name, b[max(0, i-80):min(len(b), i+40)])
		}
		if !bytes.Contains(b, []byte("gh pr list")) {
			t.Errorf("%s sink lacks the commands (%d bytes)", name, len(b))
		}
	}
}

// TestFileRotates: past MaxBytes the file moves to .1, and older ones
// shift up to Keep.
func TestFileRotates(t *testing.T) {
	file := filepath.Join(t.TempDir(), "d.jsonl")
	s := &FileSink{Path: file, MaxBytes: 2000, Keep: 2}
	for i := 0; i < 40; i++ {
		if err := s.Write(context.Background(), []Event{{Command: strings.Repeat("x", 200)}}); err != nil {
			t.Fatal(err)
		}
	}
	s.Close(context.Background())
	for _, p := range []string{file + ".1", file + ".2"} {
		fi, err := os.Stat(p)
		if err != nil || fi.Size() < 2000 {
			t.Errorf("%s: %v %v, want a rotated file of at least 2000 bytes", p, fi, err)
		}
	}
	if _, err := os.Stat(file + ".3"); err == nil {
		t.Errorf("%s.3 exists: Keep is 2", file)
	}
}

// TestHTTPDownNeverBlocks: with the collector down (a closed port), each
// LogDecision returns at once, the queue stays bounded, and every event
// is counted: sent or dropped.
func TestHTTPDownNeverBlocks(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + ln.Addr().String() + "/logs"
	ln.Close()
	l := New(Options{Queue: 64, Batch: 16, Flush: time.Millisecond}, &HTTPSink{URL: url})
	const n = 20000
	start := time.Now()
	for i := 0; i < n; i++ {
		l.LogDecision(record("ls"))
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("%d LogDecision took %v with the collector down", n, d)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	l.Close(ctx)
	h := l.Health()[0]
	if h.Sent != 0 || h.Dropped < n-64 || h.Failed == 0 || h.LastErr == "" {
		t.Errorf("collector down: %+v, want nothing sent, about %d dropped, the error kept", h, n)
	}
}

func TestLoadConfig(t *testing.T) {
	dir := t.TempDir()
	managed := filepath.Join(dir, "managed.yaml")
	user := filepath.Join(dir, "config.yaml")
	os.WriteFile(user, []byte("decision_log:\n  http: {url: http://user/logs}\n"), 0o644)
	c, err := LoadConfig(managed, user)
	if err != nil || c.HTTP == nil || c.HTTP.URL != "http://user/logs" || c.Source != user {
		t.Errorf("user config: %+v, %v", c, err)
	}
	os.WriteFile(managed, []byte("version: 1\ndecision_log:\n  file: {enabled: false}\n  otlp: {url: http://col/v1/logs}\n"), 0o644)
	c, err = LoadConfig(managed, user)
	if err != nil || c.HTTP != nil || c.OTLP == nil || c.Source != managed {
		t.Errorf("managed config wins: %+v, %v", c, err)
	}
	if s := c.Sinks("v"); len(s) != 1 || !strings.HasPrefix(s[0].Name(), "otlp:") {
		t.Errorf("sinks of %+v: %v, want the otlp sink alone", c, s)
	}
	os.WriteFile(managed, []byte("version: 1\ndecision_log:\n  http: {}\n"), 0o644)
	if _, err := LoadConfig(managed, user); err == nil {
		t.Errorf("http without url: no error")
	}
}

// TestCloseLosesNothing: with a flush interval no test waits for, Close
// still writes every event queued: full batches, the partial last one.
func TestCloseLosesNothing(t *testing.T) {
	file := filepath.Join(t.TempDir(), "d.jsonl")
	l := New(Options{Queue: 4096, Batch: 100, Flush: time.Hour}, &FileSink{Path: file})
	const n = 1234
	for i := 0; i < n; i++ {
		l.LogDecision(record("ls"))
	}
	if err := l.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(file)
	if lines := bytes.Count(data, []byte("\n")); lines != n {
		t.Errorf("file holds %d lines after Close, want %d", lines, n)
	}
	if h := l.Health()[0]; h.Sent != n || h.Dropped != 0 {
		t.Errorf("health %+v, want %d sent", h, n)
	}
	l.LogDecision(record("ls"))
	if h := l.Health()[0]; h.Dropped != 1 {
		t.Errorf("a decision after Close: health %+v, want it dropped", h)
	}
}

// TestEventAgent: the record's agent (Request.Agent) names the agent;
// Options.Agent stands in when the record names none.
func TestEventAgent(t *testing.T) {
	l := New(Options{Adapter: "hook", Agent: "fallback", Host: "h"})
	r := record("ls")
	if e := l.Event(r); e.Agent != "fallback" || e.Adapter != "hook" {
		t.Errorf("no agent in the record: event %+v, want Options.Agent", e)
	}
	r.Agent = "claude"
	if e := l.Event(r); e.Agent != "claude" {
		t.Errorf("record agent claude: event agent %q", e.Agent)
	}
	l.Close(context.Background())
}

// BenchmarkLogDecision: one decision through the file sink, the
// dispatcher's masking and the JSON encoding included (cpu-ns/op is the
// process's CPU time, Close included, per decision).
func BenchmarkLogDecision(b *testing.B) {
	// A queue no run of the benchmark fills: every decision is written.
	l := New(Options{Adapter: "bench", Host: "h", Queue: 1 << 20}, &FileSink{Path: filepath.Join(b.TempDir(), "d.jsonl"), MaxBytes: 1 << 30})
	rec := record("git status && grep -r TODO src | wc -l")
	b.ReportAllocs()
	cpu0 := processCPU()
	n := 0
	for b.Loop() {
		l.LogDecision(rec)
		n++
	}
	l.Close(context.Background())
	b.ReportMetric(float64(processCPU()-cpu0)/float64(n), "cpu-ns/op")
	if h := l.Health()[0]; h.Dropped > 0 {
		b.Logf("dropped %d of %d", h.Dropped, n)
	}
}

func processCPU() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
