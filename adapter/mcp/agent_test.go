package mcp_test

import (
	"sync"
	"testing"
	"time"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/adapter/mcp"
)

type logRecords struct {
	mu   sync.Mutex
	recs []cmdguard.DecisionRecord
}

func (l *logRecords) LogDecision(r *cmdguard.DecisionRecord) {
	l.mu.Lock()
	l.recs = append(l.recs, *r)
	l.mu.Unlock()
}

// TestDecisionLogNamesClient: the decision log's record of a check and
// of a run names the MCP client (its clientInfo.name) as the agent.
// Not parallel: the decision log it sets is the process's.
func TestDecisionLogNamesClient(t *testing.T) {
	log := &logRecords{}
	cmdguard.SetDecisionLog(log)
	defer cmdguard.SetDecisionLog(nil)
	cs := connect(t, project(t, "version: 1\nallow: [echo]\n"), nil, nil, mcp.Options{})
	call(t, cs, "check_command", map[string]any{"command": "echo checked"})
	call(t, cs, "run_command", map[string]any{"command": "echo ran"})
	cs.Close()
	want := map[string]bool{"echo checked": true, "echo ran": true}
	// A run's record comes when the command's end is seen: wait for it.
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		log.mu.Lock()
		n := len(log.recs)
		log.mu.Unlock()
		if n >= 2 {
			break
		}
	}
	log.mu.Lock()
	defer log.mu.Unlock()
	for _, r := range log.recs {
		if want[r.Command] {
			if r.Agent != "test" {
				t.Errorf("record of %q: agent %q, want the client's name %q", r.Command, r.Agent, "test")
			}
			delete(want, r.Command)
		}
	}
	if len(want) > 0 {
		t.Errorf("no record of %v among %d", want, len(log.recs))
	}
}
