package cmdguard

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/cmdguard/cmdguard/internal/bundle"
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

// managedFile returns the managed layer: its live file, CMDGUARD_MANAGED
// when set (it must exist), else ManagedPath (optional), and the bundle
// its bundle: section names.
func managedFile() *managedLayer {
	opts := append(PolicyLoadOptions(), policy.WithSkipKeys(managedKeys...))
	if p := os.Getenv(ManagedEnv); p != "" {
		return &managedLayer{file: &live.File{Path: p, Options: opts}}
	}
	return &managedLayer{file: &live.File{Path: ManagedPath, Optional: true, Options: opts}}
}

// managedLayer is the managed file and the bundle it names.
type managedLayer struct {
	file *live.File

	mu        sync.Mutex
	seen      *live.FileState // the state the bundle: section was read from
	cfg       *bundle.Config
	bundle    *bundle.Manager // nil when the file names no bundle
	bundleErr error           // why the bundle: section is unusable: every check denies
	floor     *policy.Policy  // the embedded default, for the floor
}

// bundleOf returns the bundle manager of the managed file's state st,
// reading its bundle: section again when the file changed.
func (ml *managedLayer) bundleOf(st *live.FileState) (*bundle.Manager, error) {
	ml.mu.Lock()
	defer ml.mu.Unlock()
	if st == ml.seen {
		return ml.bundle, ml.bundleErr
	}
	ml.seen = st
	if st == nil || st.Policy == nil {
		ml.cfg, ml.bundle, ml.bundleErr = nil, nil, nil
		return nil, nil
	}
	data, err := os.ReadFile(ml.file.Path)
	var cfg *bundle.Config
	if err == nil {
		cfg, err = bundle.ReadConfig(ml.file.Path, data)
	}
	switch {
	case err != nil:
		ml.cfg, ml.bundle, ml.bundleErr = nil, nil, err
	case cfg == nil:
		ml.cfg, ml.bundle, ml.bundleErr = nil, nil, nil
	case ml.cfg != nil && *ml.cfg == *cfg && ml.bundle != nil:
		// unchanged: keep the manager and its active bundle
	default:
		m, err := bundle.New(*cfg, PolicyLoadOptions()...)
		ml.cfg, ml.bundle, ml.bundleErr = cfg, m, err
		if err != nil {
			ml.cfg, ml.bundle = nil, nil
		}
	}
	return ml.bundle, ml.bundleErr
}

// floorPolicy returns the embedded default policy the floor denies by.
func (ml *managedLayer) floorPolicy() (*policy.Policy, error) {
	ml.mu.Lock()
	defer ml.mu.Unlock()
	if ml.floor == nil {
		p, err := policy.Default(PolicyLoadOptions()...)
		if err != nil {
			return nil, err
		}
		ml.floor = p
	}
	return ml.floor, nil
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

// FloorSource is the source of the floor's reasons: a managed policy
// names a bundle and none was ever activated (see [ManagedStatus]).
const FloorSource = "bundle floor"

// managedPolicy is one managed policy laid over the project's: the
// managed file's, or its bundle's.
type managedPolicy struct {
	p      *policy.Policy
	prefix string              // every source of p's own rules begins with it
	relab  func(string) string // rewrites such a source for the decision
	kind   string              // for the explain trace: "managed" or "bundle"
}

func (mp *managedPolicy) owns(src string) bool {
	return mp.prefix != "" && strings.HasPrefix(src, mp.prefix)
}

// applyManaged lays the managed layer over the project's decision pd on
// in: the managed file's policy, then the bundle it names (or, with no
// bundle ever activated, the floor). Every reason whose rule a managed
// policy rates takes the managed rating (and its source), whatever the
// project says, the sandbox included; when both managed policies rate
// it, the stricter rating holds. Each managed policy's own deny and ask
// reasons (its lists, its Rego, rated findings the project's policy does
// not rate on) are added. Their allow rules and default: lift nothing.
// The floor adds the embedded default's deny reasons and one ask. The
// verdict is the strictest reason's. A managed file (or bundle: section)
// that does not load makes the decision a deny with the load error,
// returned too. layer is "" when no managed policy is in force.
func (g *Guard) applyManaged(ctx context.Context, in *policy.Input, pd policy.Decision, trace *policy.Trace) (out policy.Decision, layer string, err error) {
	if g.managed == nil {
		return pd, "", nil
	}
	invalid := func(err error) (policy.Decision, string, error) {
		return policy.Decision{Verdict: Deny, Reasons: []Reason{{Verdict: Deny, Rule: "policy.invalid",
			Message: "the managed policy does not load, so every command is denied: " + err.Error(), Source: g.managed.file.Path}}}, LayerManaged, err
	}
	st, err := g.managed.file.Current()
	if err != nil {
		return invalid(err)
	}
	bm, err := g.managed.bundleOf(st)
	if err != nil {
		return invalid(err)
	}
	if st.Policy == nil {
		return pd, "", nil
	}
	var layers []managedPolicy
	keep := func(s string) string { return s }
	layers = append(layers, managedPolicy{p: st.Policy, prefix: st.Policy.Path() + ":", relab: keep, kind: "managed"})
	var floor bool
	if bm != nil {
		if a := bm.Current(ctx); a != nil {
			layers = append(layers, managedPolicy{p: a.Policy, prefix: a.Prefix, relab: a.Source, kind: "bundle"})
		} else {
			floor = true
		}
	}
	// managed reports whether a reason's (rewritten) source is a managed
	// policy's.
	managed := func(src string) bool {
		if strings.HasPrefix(src, st.Policy.Path()+":") || strings.HasPrefix(src, FloorSource) {
			return true
		}
		return len(layers) > 1 && strings.HasPrefix(src, layers[1].relab(layers[1].prefix))
	}
	reasons := pd.Reasons
	for i := range layers {
		reasons = layerOver(ctx, in, reasons, &layers[i], managed, trace)
	}
	if floor {
		fp, err := g.managed.floorPolicy()
		if err != nil {
			return invalid(err)
		}
		reasons = g.floorOver(ctx, in, reasons, fp, bm.Status(), trace)
	}
	slices.SortStableFunc(reasons, func(a, b Reason) int { return int(clampVerdict(a.Verdict)) - int(clampVerdict(b.Verdict)) })
	out = policy.Decision{Verdict: Deny, Reasons: reasons}
	if len(reasons) > 0 {
		out.Verdict = clampVerdict(reasons[0].Verdict)
	}
	layer = LayerProject
	switch {
	case len(reasons) == 0 || managed(reasons[0].Source):
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

// layerOver lays one managed policy mp over the reasons so far.
func layerOver(ctx context.Context, in *policy.Input, prior []Reason, mp *managedPolicy, managed func(string) bool, trace *policy.Trace) []Reason {
	m := mp.p
	var md policy.Decision
	if trace != nil {
		var mt policy.Trace
		md, mt = m.Explain(ctx, in)
		for _, s := range mt {
			s.Kind = mp.kind + " " + s.Kind
			s.Source = mp.relab(s.Source)
			*trace = append(*trace, s)
		}
	} else {
		md = m.Evaluate(ctx, in)
	}
	rated := func(id string) (Verdict, string, bool) {
		if id == "policy.no_match" {
			return 0, "", false
		}
		v, src := m.RuleVerdict(id)
		return v, mp.relab(src), mp.owns(src)
	}
	managedMsg := map[reasonKey]string{}
	for i := range md.Reasons {
		managedMsg[keyOf(&md.Reasons[i])] = md.Reasons[i].Message
	}
	reasons := make([]Reason, 0, len(prior)+len(md.Reasons))
	seen := map[reasonKey]bool{}
	for _, r := range prior {
		seen[keyOf(&r)] = true
		if v, src, ok := rated(r.Rule); ok {
			if managed(r.Source) && clampVerdict(v) > clampVerdict(r.Verdict) {
				// Another managed policy rated it stricter: that holds.
				reasons = append(reasons, r)
				continue
			}
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
		if r.Verdict == Allow || r.Rule == "policy.no_match" || seen[keyOf(&r)] || !mp.owns(r.Source) {
			continue
		}
		r.Source = mp.relab(r.Source)
		reasons = append(reasons, r)
	}
	return reasons
}

// floorOver adds the floor to the reasons so far: what the embedded
// default policy denies stays denied, and every command asks. It holds
// while a managed policy names a bundle and none was ever activated.
func (g *Guard) floorOver(ctx context.Context, in *policy.Input, prior []Reason, fp *policy.Policy, bs bundle.Status, trace *policy.Trace) []Reason {
	seen := map[reasonKey]bool{}
	for i := range prior {
		seen[keyOf(&prior[i])] = true
	}
	reasons := prior
	for _, r := range fp.Evaluate(ctx, in).Reasons {
		if clampVerdict(r.Verdict) != Deny || seen[keyOf(&r)] {
			continue
		}
		r.Source = FloorSource + " (" + r.Source + ")"
		reasons = append(reasons, r)
	}
	why := "the server was not asked yet"
	switch {
	case bs.Refused != "":
		why = bs.Refused
	case bs.LastError != "":
		why = bs.LastError
	}
	msg := fmt.Sprintf("no policy bundle from %s was ever activated (%s): until one is, every command the embedded default does not deny asks", bs.URL, why)
	reasons = append(reasons, Reason{Verdict: Ask, Rule: "policy.no_match", Message: msg, Source: FloorSource})
	if trace != nil {
		*trace = append(*trace, policy.TraceStep{Command: -1, Kind: "bundle floor", Rule: "policy.no_match", Verdict: Ask, Source: FloorSource, Matched: true, Note: msg})
	}
	return reasons
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
	// Bundle is the state of the bundle the file names (nil for none):
	// the active revision and when it was fetched, the last fetch's
	// error, the reason the last bundle received was refused. With no
	// Revision, the floor is in force.
	Bundle *bundle.Status
	// BundleErr is why the file's bundle: section is unusable (every
	// check denies).
	BundleErr error
}

// Managed returns the state of the managed layer, reading it if no check
// has yet.
func (g *Guard) Managed() ManagedStatus {
	if g == nil || g.managed == nil {
		return ManagedStatus{}
	}
	st, err := g.managed.file.Current()
	ms := ManagedStatus{Path: g.managed.file.Path, InUse: err == nil && st.Policy != nil, Err: err}
	if err == nil {
		bm, err := g.managed.bundleOf(st)
		ms.BundleErr = err
		if bm != nil {
			bs := bm.Status()
			ms.Bundle = &bs
		}
	}
	return ms
}

// lintManaged warns of each rule the project's policy (at file) re-rates
// that the managed layer rates too: the managed rating wins. A managed
// file that does not load is an error: every check denies.
func (g *Guard) lintManaged(file string) []policy.Diagnostic {
	if g.managed == nil {
		return nil
	}
	st, err := g.managed.file.Current()
	if err != nil {
		return []policy.Diagnostic{{File: g.managed.file.Path, Line: 1, Col: 1, Severity: "error",
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
