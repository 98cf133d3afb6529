package bashapi_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/adapter/bashapi"
)

// BenchmarkServeVsBare sends an exec of `true` to the server and the same
// to a bare os/exec handler (bareHandler) alternately in one loop, over
// loopback HTTP, one request at a time (which goes first alternates too),
// so that both see the same machine load. It reports the median latency
// of each in ns and the ratio of the medians (p50-ratio) and of the sums
// (ratio). The executor's default mechanism is used; the environment
// variable forces the fallback:
//
//	go test -run '^$' -bench ServeVsBare -benchtime 400x -count 5 ./adapter/bashapi/
//	CMDGUARD_EXEC_REAPER=sweep go test -run '^$' -bench ServeVsBare -benchtime 400x -count 5 ./adapter/bashapi/
func BenchmarkServeVsBare(b *testing.B) {
	dir := b.TempDir()
	if err := os.WriteFile(dir+"/.cmdguard.yaml", []byte(testPolicy), 0o644); err != nil {
		b.Fatal(err)
	}
	g, err := cmdguard.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close(context.Background())
	s, err := bashapi.New(bashapi.Config{Guard: g, Dir: dir, BaseEnv: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close(context.Background())
	gated := httptest.NewServer(s)
	defer gated.Close()
	bare := httptest.NewServer(http.HandlerFunc(bareHandler))
	defer bare.Close()
	client := &http.Client{Timeout: time.Minute}
	sid := ""
	gatedOnce := func() time.Duration {
		body := map[string]any{"command": "true"}
		if sid != "" {
			body["session_id"] = sid
		}
		t0 := time.Now()
		code, m, err := postJSON(context.Background(), client, gated.URL+"/v1/bash/exec", body)
		d := time.Since(t0)
		data, _ := m["data"].(map[string]any)
		if err != nil || code != http.StatusOK || data["status"] != "completed" || data["exit_code"] != 0.0 {
			b.Fatalf("gated exec true: %d %v %v", code, m, err)
		}
		sid = str(data["session_id"])
		return d
	}
	bareOnce := func() time.Duration {
		t0 := time.Now()
		code, m, err := postJSON(context.Background(), client, bare.URL, map[string]any{"command": "true"})
		d := time.Since(t0)
		if err != nil || code != http.StatusOK {
			b.Fatalf("bare exec true: %d %v %v", code, m, err)
		}
		return d
	}
	for range 10 { // warm up: connections, the session, the watchdog
		gatedOnce()
		bareOnce()
	}
	var dg, db []time.Duration
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			dg, db = append(dg, gatedOnce()), append(db, bareOnce())
		} else {
			db, dg = append(db, bareOnce()), append(dg, gatedOnce())
		}
	}
	var sg, sb time.Duration
	for i := range dg {
		sg, sb = sg+dg[i], sb+db[i]
	}
	slices.Sort(dg)
	slices.Sort(db)
	mg, mb := dg[len(dg)/2], db[len(db)/2]
	b.ReportMetric(float64(mg), "gated-p50-ns")
	b.ReportMetric(float64(mb), "bare-p50-ns")
	b.ReportMetric(float64(mg)/float64(mb), "p50-ratio")
	b.ReportMetric(float64(sg)/float64(sb), "ratio")
}
