package cmdguard

import (
	"sync/atomic"
	"time"

	"github.com/cmdguard/cmdguard/exec"
)

// DecisionLog receives every decision a Guard makes: each Check and
// Explain, each Start and Run (refused, or with the command's end). The
// Guard calls LogDecision on the checking goroutine: it must not block
// and must not keep rec's slices past the call unless it copies them.
// The library has none by default and never logs on its own; a program
// sets one with [Guard.SetDecisionLog] or [SetDecisionLog].
type DecisionLog interface {
	LogDecision(rec *DecisionRecord)
}

// DecisionRecord is one decision as a Guard reports it to its
// DecisionLog. Command is the command as checked, unmasked: the log
// masks what it keeps.
type DecisionRecord struct {
	Time     time.Time
	Command  string
	Cwd      string
	Agent    string // Request.Agent: the agent that asked, when the adapter knows it
	Decision Decision
	// DecidedBy says who decided: "rule" (the policy), "person" (an ask
	// answered by RunRequest.Approve) or "sandbox" (an allow that holds
	// because the sandbox enforces a finding: a reason with EnforcedBy).
	DecidedBy string
	// Run is set for a command that was started, once it ended.
	Run *RunRecord
}

// RunRecord is how a command the Guard started ended.
type RunRecord struct {
	ExitCode *int   // nil when a signal ended it or it could not start
	Signal   string // the signal that ended it, or ""
	Duration time.Duration
	Err      string // why it could not start or be waited for
}

// Who decided (DecisionRecord.DecidedBy).
const (
	DecidedByRule    = "rule"
	DecidedByPerson  = "person"
	DecidedBySandbox = "sandbox"
)

// defaultLog is the DecisionLog of the Guards built after SetDecisionLog.
var defaultLog atomic.Pointer[DecisionLog]

// SetDecisionLog sets the DecisionLog of every Guard built after the call
// (by Open, OpenPolicy and New) in this process; nil sets none. A command
// line program calls it once before it opens its Guards.
func SetDecisionLog(l DecisionLog) {
	if l == nil {
		defaultLog.Store(nil)
		return
	}
	defaultLog.Store(&l)
}

func processLog() DecisionLog {
	if p := defaultLog.Load(); p != nil {
		return *p
	}
	return nil
}

// SetDecisionLog sets the DecisionLog of g (nil for none). Call it before
// g is used by more than one goroutine.
func (g *Guard) SetDecisionLog(l DecisionLog) {
	if g != nil {
		g.log = l
	}
}

// decidedBy says who decided d when the person approved (or refused) an
// ask or did not.
func decidedBy(d *Decision, person bool) string {
	if person {
		return DecidedByPerson
	}
	if d.Verdict == Allow {
		for _, r := range d.Reasons {
			if r.EnforcedBy != "" {
				return DecidedBySandbox
			}
		}
	}
	return DecidedByRule
}

// logCheck reports a check's decision.
func (g *Guard) logCheck(req *Request, d *Decision) {
	if g.log == nil {
		return
	}
	g.log.LogDecision(&DecisionRecord{Time: time.Now(), Command: req.Command, Cwd: g.cwd(req.Cwd), Agent: req.Agent, Decision: *d, DecidedBy: decidedBy(d, false)})
}

// logStart reports the decision of a Start: at once when the command
// does not start, else when it ends. asked says Approve was asked.
func (g *Guard) logStart(req *RunRequest, d Decision, asked bool, p *exec.Process, err error) {
	if g == nil || g.log == nil {
		return
	}
	rec := &DecisionRecord{Time: time.Now(), Command: req.Command, Cwd: g.cwd(req.Cwd), Agent: req.Agent, Decision: d, DecidedBy: decidedBy(&d, asked)}
	if p == nil {
		if err != nil && (d.Verdict == Allow || asked && d.Verdict == Ask) {
			rec.Run = &RunRecord{Err: err.Error()} // allowed, yet it did not start
		}
		g.log.LogDecision(rec)
		return
	}
	log := g.log
	go func() {
		<-p.Done()
		res, err := p.Status()
		rec.Run = &RunRecord{ExitCode: res.ExitCode, Signal: res.Signal, Duration: res.Duration}
		if err != nil {
			rec.Run.Err = err.Error()
		}
		log.LogDecision(rec)
	}()
}
