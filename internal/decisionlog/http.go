package decisionlog

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"time"
)

// HTTPSink POSTs batches in OPA's decision-log format: a gzip'd JSON
// array of events (labels, decision_id, path, input, result,
// requested_by, timestamp), Content-Encoding: gzip, to URL — what OPA's
// decision_logs plugin sends to its service's /logs, so a collector that
// accepts OPA's logs accepts these.
type HTTPSink struct {
	URL     string
	Headers map[string]string
	Client  *http.Client // one with a 5s timeout when nil
	Version string       // labels.version
}

// opaEvent is one event of OPA's decision-log API.
type opaEvent struct {
	Labels      map[string]string `json:"labels"`
	DecisionID  string            `json:"decision_id"`
	Path        string            `json:"path"`
	Input       opaInput          `json:"input"`
	Result      opaResult         `json:"result"`
	RequestedBy string            `json:"requested_by"`
	Timestamp   time.Time         `json:"timestamp"`
}

type opaInput struct {
	Command string `json:"command"`
	Cwd     string `json:"cwd"`
	Adapter string `json:"adapter,omitempty"`
	Agent   string `json:"agent,omitempty"`
}

type opaResult struct {
	Decision  string   `json:"decision"`
	Layer     string   `json:"layer,omitempty"`
	Reasons   []Reason `json:"reasons"`
	DecidedBy string   `json:"decided_by"`
	Run       *Run     `json:"run,omitempty"`
}

// Name returns "http:" and the URL.
func (s *HTTPSink) Name() string { return "opa-http:" + s.URL }

// Write POSTs batch.
func (s *HTTPSink) Write(ctx context.Context, batch []Event) error {
	evs := make([]opaEvent, len(batch))
	for i, e := range batch {
		evs[i] = opaEvent{
			Labels:     map[string]string{"app": "cmdguard", "id": e.Host, "version": s.Version},
			DecisionID: e.ID, Path: "cmdguard/decision",
			Input:       opaInput{Command: e.Command, Cwd: e.Cwd, Adapter: e.Adapter, Agent: e.Agent},
			Result:      opaResult{Decision: e.Verdict, Layer: e.Layer, Reasons: e.Reasons, DecidedBy: e.DecidedBy, Run: e.Run},
			RequestedBy: e.Adapter, Timestamp: e.Time,
		}
	}
	var body bytes.Buffer
	zw := gzip.NewWriter(&body)
	if err := json.NewEncoder(zw).Encode(evs); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, s.URL, &body)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Content-Encoding", "gzip")
	for k, v := range s.Headers {
		req.Header.Set(k, v)
	}
	c := s.Client
	if c == nil {
		c = &http.Client{Timeout: 5 * time.Second}
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("decision log upload: %s", resp.Status)
	}
	return nil
}

// Close does nothing.
func (s *HTTPSink) Close(context.Context) error { return nil }
