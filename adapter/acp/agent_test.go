package acp_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/adapter/acp"
	sdk "github.com/coder/acp-go-sdk"
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

// TestDecisionLogNamesAgent: the decision log's record of a terminal's
// command names the agent Terminals.Agent names.
func TestDecisionLogNamesAgent(t *testing.T) {
	t.Parallel()
	g, err := cmdguard.Open(project(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close(context.Background()) })
	log := &logRecords{}
	g.SetDecisionLog(log)
	a := connect(t, &acp.Terminals{Guard: g, Agent: "gemini"})
	run(t, a, sdk.CreateTerminalRequest{Command: "echo", Args: []string{"hi"}})
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		log.mu.Lock()
		n := len(log.recs)
		log.mu.Unlock()
		if n > 0 {
			break
		}
	}
	log.mu.Lock()
	defer log.mu.Unlock()
	if len(log.recs) != 1 || log.recs[0].Agent != "gemini" {
		t.Errorf("records %+v; want one, its agent gemini", log.recs)
	}
}
