package decisionlog

import (
	"time"

	"github.com/cmdguard/cmdguard"
)

// Test helpers shared by the package's test files.

func record(cmd string) *cmdguard.DecisionRecord {
	return &cmdguard.DecisionRecord{Time: time.Now(), Command: cmd, Cwd: "/p",
		Decision:  cmdguard.Decision{Verdict: cmdguard.Ask, Reasons: []cmdguard.Reason{{Verdict: cmdguard.Ask, Rule: "policy.no_match", Source: "/p/.cmdguard.yaml:2", Message: "no rule for " + cmd}}},
		DecidedBy: cmdguard.DecidedByRule}
}
