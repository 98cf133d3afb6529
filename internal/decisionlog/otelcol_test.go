package decisionlog

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestOTLPRealCollector sends the masking corpus through the OTLP/HTTP
// sink to a real OpenTelemetry Collector (built from the collector's
// published Go modules: scripts/otelcol/manifest.yaml; CMDGUARD_OTELCOL
// names the binary, .ci/run builds it), whose debug exporter writes each
// log record it received to a file: every command arrives, with its
// verdict attribute, and the secret is in none.
func TestOTLPRealCollector(t *testing.T) {
	bin := os.Getenv("CMDGUARD_OTELCOL")
	if bin == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("CMDGUARD_OTELCOL is not set, and CI is set: .ci/run builds the collector (scripts/otelcol/manifest.yaml)")
		}
		t.Skip("needs a real OpenTelemetry Collector: set CMDGUARD_OTELCOL (see scripts/otelcol/manifest.yaml; CI builds it)")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	dir := t.TempDir()
	conf := filepath.Join(dir, "otelcol.yaml")
	if err := os.WriteFile(conf, []byte(fmt.Sprintf(`receivers:
  otlp:
    protocols:
      http:
        endpoint: %s
exporters:
  debug:
    verbosity: detailed
service:
  telemetry:
    metrics:
      level: none
  pipelines:
    logs:
      receivers: [otlp]
      exporters: [debug]
`, addr)), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "collector.log")
	f, err := os.Create(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	col := exec.CommandContext(ctx, bin, "--config", conf)
	col.Stdout, col.Stderr = f, f
	if err := col.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { col.Process.Kill(); col.Wait() }()
	waitFor(t, 30*time.Second, "the collector to listen on "+addr, func() bool {
		c, err := net.DialTimeout("tcp", addr, 100*time.Millisecond)
		if err == nil {
			c.Close()
		}
		return err == nil
	}, out)

	l := New(Options{Adapter: "check", Host: "h", Flush: 10 * time.Millisecond},
		&OTLPSink{URL: "http://" + addr + "/v1/logs", Version: "test"})
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
	// The debug exporter prints one "LogRecord #N" per record it got.
	var data []byte
	waitFor(t, 20*time.Second, fmt.Sprintf("%d log records in the collector's output", len(maskCorpus)), func() bool {
		data, _ = os.ReadFile(out)
		return bytes.Count(data, []byte("LogRecord #")) >= len(maskCorpus)
	}, out)
	t.Logf("the collector printed %d bytes, %d log records", len(data), bytes.Count(data, []byte("LogRecord #")))
	if n := bytes.Count(data, []byte("LogRecord #")); n != len(maskCorpus) {
		t.Errorf("the collector got %d log records, want %d", n, len(maskCorpus))
	}
	for _, want := range []string{"gh pr list", "psql -h db", "cmdguard.verdict", "policy.no_match"} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("the collector's records lack %q", want)
		}
	}
	if i := bytes.Index(data, []byte(secret)); i >= 0 {
		t.Errorf("the collector's records show the secret: …%q…", data[max(0, i-80):min(len(data), i+40)])
	}
}

// waitFor polls cond until it holds or d has passed; then it fails t,
// showing the end of the log file.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool, log string) {
	t.Helper()
	for end := time.Now().Add(d); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			b, _ := os.ReadFile(log)
			t.Fatalf("waited %v for %s; the collector said:\n%s", d, what, tail(string(b), 3000))
		}
	}
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[strings.IndexByte(s[len(s)-n:], '\n')+len(s)-n+1:]
}
