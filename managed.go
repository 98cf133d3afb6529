package cmdguard

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/cmdguard/cmdguard/internal/live"
	"github.com/cmdguard/cmdguard/policy"
)

// ManagedPath is where the managed policy lives: a policy file an
// administrator installs on every machine, whose deny and ask rules and
// rule ratings apply to every check of every Guard whatever the
// project's policy says. The environment variable CMDGUARD_MANAGED names
// another file (tests, containers); a file it names must exist.
const ManagedPath = "/etc/cmdguard/managed.yaml"

// ManagedEnv is the environment variable that names the managed policy
// file in place of [ManagedPath].
const ManagedEnv = "CMDGUARD_MANAGED"

// managedKeys are the top-level keys of the managed file that are not
// policy: read by the layer itself.
var managedKeys = []string{"decision_log", "bundle"}

// managedFile returns the managed layer's live file: CMDGUARD_MANAGED when
// set (it must exist), else ManagedPath (optional).
func managedFile() *live.File {
	opts := append(PolicyOptions(), policy.WithSkipKeys(managedKeys...))
	if p := os.Getenv(ManagedEnv); p != "" {
		return &live.File{Path: p, Options: opts}
	}
	return &live.File{Path: ManagedPath, Optional: true, Options: opts}
}

// The layers a decision comes from (Decision.Layer).
const (
	LayerManaged  = "managed"  // the managed policy (ManagedPath)
	LayerProject  = "project"  // the project's policy file
	LayerEmbedded = "embedded" // the embedded default policy
)

// managedSource reports whether a reason's source is a line of the
// managed file (its lists, ratings and rego: key).
func managedSource(src, path string) bool {
	return path != "" && strings.HasPrefix(src, path+":")
}

// reasonKey identifies the reason about one fact, for two policies'
// reasons about the same input.
type reasonKey struct {
	rule      string
	line, col int
	command   int
}

func keyOf(r *Reason) reasonKey { return reasonKey{r.Rule, r.Pos.Line, r.Pos.Col, r.Command} }

// applyManaged lays the managed policy over the project's decision pd on
// in. Every reason whose rule the managed file rates takes the managed
// rating (and its source), whatever the project says, the sandbox
// included; the managed file's own deny and ask reasons (its lists, its
// Rego, rated findings the project's policy does not rate on) are
// added. Its allow rules and its default: lift nothing. The verdict is
// the strictest reason's. A managed file that does not load makes the
// decision a deny with the load error, returned too. layer is "" when
// no managed policy is in force.
func (g *Guard) applyManaged(ctx context.Context, in *policy.Input, pd policy.Decision, trace *policy.Trace) (out policy.Decision, layer string, err error) {
	if g.managed == nil {
		return pd, "", nil
	}
	st, err := g.managed.Current()
	if err != nil {
		return policy.Decision{Verdict: Deny, Reasons: []Reason{{Verdict: Deny, Rule: "policy.invalid",
			Message: "the managed policy does not load, so every command is denied: " + err.Error(), Source: g.managed.Path}}}, LayerManaged, err
	}
	m := st.Policy
	if m == nil {
		return pd, "", nil
	}
	var md policy.Decision
	if trace != nil {
		var mt policy.Trace
		md, mt = m.Explain(ctx, in)
		for _, s := range mt {
			s.Kind = "managed " + s.Kind
			*trace = append(*trace, s)
		}
	} else {
		md = m.Evaluate(ctx, in)
	}
	path := m.Path()
	rated := func(id string) (Verdict, string, bool) {
		if id == "policy.no_match" {
			return 0, "", false
		}
		v, src := m.RuleVerdict(id)
		return v, src, managedSource(src, path)
	}
	managedMsg := map[reasonKey]string{}
	for i := range md.Reasons {
		managedMsg[keyOf(&md.Reasons[i])] = md.Reasons[i].Message
	}
	reasons := make([]Reason, 0, len(pd.Reasons)+len(md.Reasons))
	seen := map[reasonKey]bool{}
	for _, r := range pd.Reasons {
		seen[keyOf(&r)] = true
		if v, src, ok := rated(r.Rule); ok {
			if r.EnforcedBy != "" {
				// The managed rating outranks what the sandbox carries.
				r.EnforcedBy = ""
				if msg, ok := managedMsg[keyOf(&r)]; ok {
					r.Message = msg
				}
			}
			r.Verdict, r.Source = v, src
		}
		reasons = append(reasons, r)
	}
	for _, r := range md.Reasons {
		if r.Verdict == Allow || r.Rule == "policy.no_match" || seen[keyOf(&r)] || !managedSource(r.Source, path) {
			continue
		}
		reasons = append(reasons, r)
	}
	slices.SortStableFunc(reasons, func(a, b Reason) int { return int(clampVerdict(a.Verdict)) - int(clampVerdict(b.Verdict)) })
	out = policy.Decision{Verdict: Deny, Reasons: reasons}
	if len(reasons) > 0 {
		out.Verdict = clampVerdict(reasons[0].Verdict)
	}
	layer = LayerProject
	switch {
	case len(reasons) == 0 || managedSource(reasons[0].Source, path):
		layer = LayerManaged
	case g.Policy().IsDefault():
		layer = LayerEmbedded
	}
	if trace != nil && len(reasons) > 0 {
		*trace = append(*trace, policy.TraceStep{Command: -1, Kind: "layer", Rule: reasons[0].Rule, Verdict: out.Verdict,
			Source: reasons[0].Source, Matched: true, Note: fmt.Sprintf("decided by the %s layer", layer)})
	}
	return out, layer, nil
}

func clampVerdict(v Verdict) Verdict {
	if v > Allow {
		return Deny
	}
	return v
}

// ManagedStatus describes the managed layer as of the Guard's last check.
type ManagedStatus struct {
	Path  string // the managed file
	InUse bool   // the file exists and loads
	Err   error  // why it does not load (every check denies)
}

// Managed returns the state of the managed layer, reading it if no check
// has yet.
func (g *Guard) Managed() ManagedStatus {
	if g == nil || g.managed == nil {
		return ManagedStatus{}
	}
	st, err := g.managed.Current()
	return ManagedStatus{Path: g.managed.Path, InUse: err == nil && st.Policy != nil, Err: err}
}

// lintManaged warns of each rule the project's policy (at file) re-rates
// that the managed layer rates too: the managed rating wins. A managed
// file that does not load is an error: every check denies.
func (g *Guard) lintManaged(file string) []policy.Diagnostic {
	if g.managed == nil {
		return nil
	}
	st, err := g.managed.Current()
	if err != nil {
		return []policy.Diagnostic{{File: g.managed.Path, Line: 1, Col: 1, Severity: "error",
			Message: "the managed policy does not load, so every check denies: " + err.Error()}}
	}
	m, p := st.Policy, g.Policy()
	if m == nil || p == nil {
		return nil
	}
	var diags []policy.Diagnostic
	for _, info := range policy.Rules() {
		mv, msrc := m.RuleVerdict(info.ID)
		pv, psrc := p.RuleVerdict(info.ID)
		if info.ID == "policy.no_match" || !managedSource(msrc, m.Path()) || !managedSource(psrc, p.Path()) {
			continue
		}
		line, _ := strconv.Atoi(psrc[strings.LastIndexByte(psrc, ':')+1:])
		diags = append(diags, policy.Diagnostic{File: file, Line: line, Col: 1, Severity: "warning",
			Message: fmt.Sprintf("rules: %s: %s has no effect: the managed policy (%s) rates it %s, and its rating wins", info.ID, pv, msrc, mv)})
	}
	return diags
}

// SandboxAvailable reports whether this machine's kernel sets cmdguard's
// sandbox up (nil), or why not. It starts one sandboxed no-op command the
// first time a process asks, and keeps the answer.
func SandboxAvailable() error { return sandboxWorks() }
