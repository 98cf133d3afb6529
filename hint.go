package cmdguard

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/cmdguard/cmdguard/policy"
	"go.yaml.in/yaml/v3"
)

// A hint says what in the policy would change a verdict, and is given
// only when following it does: every hint is the result of a trial. The
// planner proposes an edit for each reason that decided (an allow:
// prefix, a rules: re-rating, the sandbox), evaluates the same input
// again under the policy so edited (with the managed layer over it, as
// a check does), and proposes edits for what still decides, a few rounds,
// until the verdict is looser or nothing more can be proposed. When the
// verdict does not change, no edit is offered: the hint of the reason
// that stays says what to do instead.

// basis is what a refusal was made from, kept for its hints: the input
// the policy saw and the policy. The plan is made once.
type basis struct {
	reasons *Reason // the decision's first reason, which finds it again
	in      *policy.Input
	pol     *policy.Policy
	once    sync.Once
	fix     *fix
}

// bases holds the bases of a Guard's last refusals, found again by the
// decision's Reasons (a slice, which a Decision and its copies share). A Decision keeps no field for it: it is a value that
// callers compare and marshal. Allows are not kept: they get no hints.
type bases struct {
	mu   sync.Mutex
	ring [64]*basis
	next int
	// trials are the last edited policies (edited).
	trials    [16]trialPolicy
	nextTrial int
}

type trialPolicy struct {
	base *policy.Policy
	key  string
	pol  *policy.Policy
}

func (bs *bases) put(d Decision, in *policy.Input, pol *policy.Policy) {
	if bs == nil || len(d.Reasons) == 0 {
		return
	}
	bs.mu.Lock()
	defer bs.mu.Unlock()
	bs.ring[bs.next] = &basis{reasons: &d.Reasons[0], in: in, pol: pol}
	bs.next = (bs.next + 1) % len(bs.ring)
}

// get returns the basis of d, nil when it is not one of the last
// refusals (a decision made elsewhere, or copied field by field).
func (bs *bases) get(d Decision) *basis {
	if bs == nil || len(d.Reasons) == 0 {
		return nil
	}
	bs.mu.Lock()
	defer bs.mu.Unlock()
	for _, b := range bs.ring {
		if b != nil && b.reasons == &d.Reasons[0] {
			return b
		}
	}
	return nil
}

// An edit is one change a hint proposes.
type edit struct {
	allow   []string // an allow: prefix
	rule    string   // rules: {rule: to}
	to      Verdict
	sandbox bool // run the command under the sandbox
}

func (e edit) equal(o edit) bool {
	return slices.Equal(e.allow, o.allow) && e.rule == o.rule && e.to == o.to && e.sandbox == o.sandbox
}

// A fix is the plan for a decision: the edits that together make its
// verdict looser, each under the reason it answers, or, when no edit
// can, what to do instead, under the reason that stays.
type fix struct {
	ok      bool
	verdict Verdict // after every edit, when ok
	edits   []edit
	owner   []reasonKey // the reason of the decision each edit is shown under
	instead map[reasonKey]string
}

// hintTimeout bounds the trials of one plan (Rego runs in them).
const hintTimeout = 5 * time.Second

// maxRounds bounds the planner: each round answers what the edits of the
// previous one left (an allow: prefix that then needs the sandbox).
const maxRounds = 4

// plan returns the fix of d, computing it once per decision.
func (g *Guard) plan(d Decision) *fix {
	var b *basis
	if g != nil {
		b = g.bases.get(d)
	}
	if b == nil {
		return g.makePlan(d, nil)
	}
	b.once.Do(func() { b.fix = g.makePlan(d, b) })
	return b.fix
}

// causes returns the reasons that decided d: those as strict as it.
func causes(d Decision) []Reason {
	var out []Reason
	for _, r := range d.Reasons {
		if d.Verdict != Allow && r.Verdict == d.Verdict {
			out = append(out, r)
		}
	}
	return out
}

func (g *Guard) makePlan(d Decision, b *basis) *fix {
	f := &fix{instead: map[reasonKey]string{}}
	first := causes(d)
	if len(first) == 0 {
		return f
	}
	if b == nil || b.in == nil || b.pol == nil {
		for _, r := range first {
			why := "this decision is not one of the Guard's last refusals, so no policy change can be checked: run cmdguard explain on the command"
			if info, ok := policy.LookupRule(r.Rule); ok && (info.Fixed || r.Verdict+1 > info.Loosest) && !strings.HasPrefix(r.Rule, "policy.") && !strings.HasPrefix(r.Rule, "rego.") {
				_, why = g.rerate(&r)
			}
			f.instead[keyOf(&r)] = why
		}
		return f
	}
	ctx, cancel := context.WithTimeout(context.Background(), hintTimeout)
	defer cancel()
	// owner of a later reason: the first cause about the same command,
	// else the first cause.
	ownerOf := func(r *Reason) reasonKey {
		for _, c := range first {
			if keyOf(&c) == keyOf(r) {
				return keyOf(r)
			}
		}
		for _, c := range first {
			if r.Command > 0 && c.Command == r.Command {
				return keyOf(&c)
			}
		}
		return keyOf(&first[0])
	}
	cur := d.Reasons
	seen := map[reasonKey]bool{}
	for range maxRounds {
		added := false
		for _, r := range cur {
			if r.Verdict > d.Verdict || r.Verdict == Allow {
				continue
			}
			k := keyOf(&r)
			owner := ownerOf(&r)
			if seen[k] {
				// Answered in an earlier round, and it stays: say why.
				if _, ok := f.instead[owner]; !ok {
					f.instead[owner] = g.stays(d, &r, f.edits)
				}
				continue
			}
			seen[k] = true
			e, why := g.propose(d, b, &r)
			if why != "" {
				if owner != k {
					why = fmt.Sprintf("after %s, %s still %ss: %s", describeEdits(f.edits), r.Rule, r.Verdict, why)
				}
				f.instead[owner] = why
				continue
			}
			if slices.ContainsFunc(f.edits, e.equal) {
				continue
			}
			f.edits, f.owner = append(f.edits, e), append(f.owner, owner)
			added = true
		}
		if !added || len(f.instead) > 0 {
			break
		}
		td, err := g.trial(ctx, b, f.edits)
		if err != nil {
			for _, r := range first {
				f.instead[keyOf(&r)] = "no policy change could be checked: " + err.Error()
			}
			break
		}
		if td.Verdict > d.Verdict {
			f.ok, f.verdict = true, td.Verdict
			break
		}
		cur = td.Reasons
	}
	if !f.ok {
		f.edits, f.owner = nil, nil
		if len(f.instead) == 0 {
			for _, r := range first {
				f.instead[keyOf(&r)] = "no change to the policy that cmdguard can propose makes it looser: change the command"
			}
		}
	}
	return f
}

// stays says why reason r still decides after the edits.
func (g *Guard) stays(d Decision, r *Reason, edits []edit) string {
	c := commandOf(d, r)
	if c != nil {
		if i := firstDynamic(c); i >= 0 {
			return fmt.Sprintf("%s is not known before it runs (a variable, a glob or a substitution), and the rule at %s could match what it expands to, so no allow: prefix lifts it; write the words out", matchWord(c, i), r.Source)
		}
	}
	return fmt.Sprintf("even with %s, %s still %ss [%s]: change the command", describeEdits(edits), r.Rule, r.Verdict, r.Source)
}

// propose returns the edit that would lift reason r of d, or why none
// can.
func (g *Guard) propose(d Decision, b *basis, r *Reason) (edit, string) {
	if m := managedPath(g); m != "" && strings.HasPrefix(r.Source, m) {
		return edit{}, fmt.Sprintf("the managed policy (%s) decides it, and a project's policy cannot loosen it: ask whoever manages it", r.Source)
	}
	switch r.Rule {
	case "policy.no_match", "policy.ask", "policy.deny", "policy.dangerous_option":
		c := commandOf(d, r)
		if c == nil {
			return edit{}, "it is about no single command: change the command"
		}
		argv := c.MatchArgv
		n := firstDynamic(c)
		if n == 0 {
			return edit{}, fmt.Sprintf("its program (%s) is not known before it runs, so no allow: prefix can name it: write the program's name", argv[0])
		}
		if n < 0 {
			n = len(argv)
		}
		prefix := slices.Clone(argv[:n])
		if slices.Contains(prefix, "*") {
			return edit{}, "it has the word *, which a policy reads as any word, so no allow: prefix names only this command: quote differently, or write a wider rule by hand"
		}
		if slices.ContainsFunc(prefix, func(t string) bool { return t == "" || strings.ContainsAny(t, "\n\x00") }) {
			return edit{}, "a word of it cannot be written in a policy's prefix: change the command"
		}
		for _, p := range b.pol.Prefixes() {
			if p.Verdict != Allow && slices.Equal(p.Tokens, prefix) {
				return edit{}, fmt.Sprintf("the rule at %s names exactly this command: change or remove it to allow it", p.Source)
			}
		}
		return edit{allow: prefix}, ""
	case "policy.needs_sandbox":
		if b.in.Sandboxed {
			return g.rerate(r)
		}
		return edit{sandbox: true}, ""
	case "rego.deny", "rego.ask", "rego.error":
		return edit{}, fmt.Sprintf("the Rego policy at %s decides it: change that module or the command", r.Source)
	}
	return g.rerate(r)
}

// rerate returns the rules: edit that makes r one step looser, or why
// there is none.
func (g *Guard) rerate(r *Reason) (edit, string) {
	info, ok := policy.LookupRule(r.Rule)
	switch {
	case !ok:
		return edit{}, "an unknown rule id is always a deny: change the command"
	case info.Fixed:
		return edit{}, r.Rule + " cannot be re-rated: change the command" + findingAdvice(r)
	case r.Verdict+1 > info.Loosest:
		return edit{}, fmt.Sprintf("%s cannot be rated looser than %s: change the command%s", r.Rule, info.Loosest, findingAdvice(r))
	}
	return edit{rule: r.Rule, to: r.Verdict + 1}, ""
}

// findingAdvice is what can be done about a finding besides re-rating it.
func findingAdvice(r *Reason) string {
	switch {
	case strings.HasPrefix(r.Rule, "ignore.") && strings.Contains(r.Source, ":"):
		return fmt.Sprintf(", or remove the pattern at %s", r.Source)
	}
	return ""
}

// managedPath returns the managed policy's file, "" when there is none.
func managedPath(g *Guard) string {
	if g == nil || g.managed == nil {
		return ""
	}
	return g.managed.file.Path
}

// commandOf returns the command a reason is about, nil when none.
func commandOf(d Decision, r *Reason) *Command {
	if r.Command < 1 || r.Command > len(d.Commands) || len(d.Commands[r.Command-1].MatchArgv) == 0 {
		return nil
	}
	return &d.Commands[r.Command-1]
}

// firstDynamic returns the index in c.MatchArgv of its first word not
// known before it runs, -1 when every word is known. MatchArgv is Argv
// without git's global options, which follow the first word.
func firstDynamic(c *Command) int {
	off := len(c.Argv) - len(c.MatchArgv)
	for i := range c.MatchArgv {
		j := i
		if i > 0 {
			j = i + off
		}
		if j >= 0 && j < len(c.Dynamic) && c.Dynamic[j] {
			return i
		}
	}
	return -1
}

func matchWord(c *Command, i int) string {
	if i < 0 || i >= len(c.MatchArgv) {
		return "a word"
	}
	return TerminalSafe(c.MatchArgv[i])
}

// trial evaluates b's input again under b's policy with the edits made,
// and the managed layer over it, as a check does.
func (g *Guard) trial(ctx context.Context, b *basis, edits []edit) (policy.Decision, error) {
	p, err := g.bases.edited(b.pol, edits)
	if err != nil {
		return policy.Decision{}, err
	}
	in := *b.in
	in.Prepared = nil
	for _, e := range edits {
		if e.sandbox {
			// As a check of a run does: the run's sandbox is the policy's,
			// its network too (an install needs a list of hosts).
			in.Sandboxed = true
			in.SandboxNetwork = p.Sandbox().NetworkKind()
		}
	}
	pd := p.Evaluate(ctx, &in)
	pd, _, err = g.applyManaged(ctx, &in, pd, nil)
	return pd, err
}

// edited returns pol with the edits' allow: prefixes and rules: ratings,
// loaded from its file (or the embedded default's text) edited; pol
// itself when the edits change no policy text. The last few are kept: a
// long-lived Guard sees the same refusals again, and loading a policy
// costs milliseconds.
func (bs *bases) edited(pol *policy.Policy, edits []edit) (*policy.Policy, error) {
	var key strings.Builder
	for _, e := range edits {
		switch {
		case e.allow != nil:
			fmt.Fprintf(&key, "allow %q\n", e.allow)
		case e.rule != "":
			fmt.Fprintf(&key, "rule %s %s\n", e.rule, e.to)
		}
	}
	if key.Len() == 0 {
		return pol, nil
	}
	bs.mu.Lock()
	for _, t := range bs.trials {
		if t.base == pol && t.key == key.String() {
			bs.mu.Unlock()
			return t.pol, nil
		}
	}
	bs.mu.Unlock()
	var data []byte
	name, dir := "edited policy", ""
	switch {
	case pol.Path() != "":
		var err error
		if data, err = os.ReadFile(pol.Path()); err != nil {
			return nil, err
		}
		name, dir = pol.Path(), filepath.Dir(pol.Path())
	case pol.IsDefault():
		data = policy.DefaultYAML()
	default:
		return nil, errors.New("the policy was given in code, not read from a file")
	}
	out, err := editPolicy(data, edits)
	if err != nil {
		return nil, err
	}
	p, err := policy.Parse(name, out, dir, PolicyLoadOptions()...)
	if err != nil {
		return nil, fmt.Errorf("the edited policy does not load: %w", err)
	}
	bs.mu.Lock()
	bs.trials[bs.nextTrial] = trialPolicy{base: pol, key: key.String(), pol: p}
	bs.nextTrial = (bs.nextTrial + 1) % len(bs.trials)
	bs.mu.Unlock()
	return p, nil
}

// editPolicy returns the policy text data with the edits' allow: prefixes
// and rules: ratings added (comments may move; the trial only evaluates
// it).
func editPolicy(data []byte, edits []edit) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, errors.New("the policy is not a mapping")
	}
	root := doc.Content[0]
	value := func(key string, kind yaml.Kind) *yaml.Node {
		for i := 0; i+1 < len(root.Content); i += 2 {
			if root.Content[i].Value == key {
				if root.Content[i+1].Kind != kind {
					root.Content[i+1] = &yaml.Node{Kind: kind}
				}
				return root.Content[i+1]
			}
		}
		n := &yaml.Node{Kind: kind}
		root.Content = append(root.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, n)
		return n
	}
	str := func(s string) *yaml.Node {
		return &yaml.Node{Kind: yaml.ScalarNode, Value: s, Style: yaml.DoubleQuotedStyle}
	}
	for _, e := range edits {
		switch {
		case e.allow != nil:
			item := &yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle}
			for _, t := range e.allow {
				item.Content = append(item.Content, str(t))
			}
			l := value("allow", yaml.SequenceNode)
			l.Content = append(l.Content, item)
		case e.rule != "":
			m := value("rules", yaml.MappingNode)
			set := false
			for i := 0; i+1 < len(m.Content); i += 2 {
				if m.Content[i].Value == e.rule {
					m.Content[i+1], set = str(e.to.String()), true
				}
			}
			if !set {
				m.Content = append(m.Content, str(e.rule), str(e.to.String()))
			}
		}
	}
	return yaml.Marshal(&doc)
}

// policyName names the policy file for hints.
func (g *Guard) policyName() string {
	if p := g.Policy(); p != nil && p.Path() != "" {
		return p.Path()
	}
	return "a .cmdguard.yaml (cmdguard init writes one)"
}

// describe says an edit as a person follows it.
func (g *Guard) describe(e edit, r *Reason, c *Command, source string) string {
	file := g.policyName()
	switch {
	case e.allow != nil:
		s := fmt.Sprintf("add %s to allow: in %s", prefixText(e.allow), file)
		if c != nil && len(e.allow) < len(c.MatchArgv) {
			s += fmt.Sprintf(" (%s is not known before it runs: no rule can name it)", matchWord(c, len(e.allow)))
		}
		return s
	case e.sandbox:
		cmd := "COMMAND"
		if source != "" && len(source) <= 80 && !needsEscape(source) {
			cmd = "'" + strings.ReplaceAll(source, "'", `'\''`) + "'"
		}
		return "run it under the sandbox: cmdguard run --sandbox -- " + cmd + " (serve, mcp and acp take --sandbox too; for a hook, cmdguard install --sandbox AGENT); or, to run such commands without it, rules: {policy.needs_sandbox: allow} in " + file
	case e.rule == "policy.unknown_option":
		return fmt.Sprintf("rules: {%s: %s} in %s (for every program: under strict: true an allowed program passes only with the options cmdguard knows for it; or change the command)", e.rule, e.to, file)
	default:
		return fmt.Sprintf("rules: {%s: %s} in %s (or change the command)", e.rule, e.to, file)
	}
}

// prefixText writes an allow: prefix as a person adds it: one quoted
// string, or a list of tokens when a token holds white space or is empty
// (a string is split on white space).
func prefixText(prefix []string) string {
	if !slices.ContainsFunc(prefix, func(t string) bool { return t == "" || strings.ContainsAny(t, " \t\n\r\v\f") }) {
		return strconv.Quote(strings.Join(prefix, " "))
	}
	q := make([]string, len(prefix))
	for i, t := range prefix {
		q[i] = strconv.Quote(t)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func describeEdits(edits []edit) string {
	var parts []string
	for _, e := range edits {
		switch {
		case e.allow != nil:
			parts = append(parts, prefixText(e.allow)+" in allow:")
		case e.sandbox:
			parts = append(parts, "the sandbox")
		default:
			parts = append(parts, fmt.Sprintf("rules: {%s: %s}", e.rule, e.to))
		}
	}
	if len(parts) == 0 {
		return "no change"
	}
	return strings.Join(parts, " and ")
}

// HowToAllow says what would change the verdict of d for reason r, one of its
// reasons: a change to the policy (an allow: prefix, a rules: entry) or
// running the command under the sandbox, checked by evaluating the
// command again with the change made; or, when no such change makes the
// verdict looser, what to do instead. It is "" for a reason that did not
// decide, and for one whose change is named under another reason.
func (g *Guard) HowToAllow(r Reason, d Decision) string {
	if d.Verdict == Allow || r.Verdict != d.Verdict {
		return ""
	}
	f := g.plan(d)
	k := keyOf(&r)
	if why, ok := f.instead[k]; ok {
		return why
	}
	if !f.ok {
		return ""
	}
	c := commandOf(d, &r)
	source := ""
	if g != nil {
		if b := g.bases.get(d); b != nil {
			source = b.in.Source
		}
	}
	var parts []string
	for i, e := range f.edits {
		if f.owner[i] == k {
			parts = append(parts, g.describe(e, &r, c, source))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	s := strings.Join(parts, "; and ")
	verb := "to allow it"
	if f.verdict != Allow {
		verb = "to make it " + f.verdict.String()
	}
	if strings.HasPrefix(s, "rules:") {
		s = "to make it " + f.verdict.String() + ": " + s
	} else {
		s = verb + ", " + s
	}
	if len(f.edits) > 1 {
		s += " (with the other hints)"
	}
	if r.Rule == "policy.deny" && len(parts) == 1 && strings.HasPrefix(parts[0], "add ") {
		s += fmt.Sprintf("; a longer allow: prefix wins over the deny rule at %s", r.Source)
	}
	return s
}

// AllowPrefixes returns the allow: prefixes that turn every ask of d into
// an allow — what an "allow always" answer adds to the policy — checked
// by evaluating the command again with them added. It fails, saying what
// to do instead, when no allow: prefixes alone make d an allow (a finding
// no prefix lifts, a command that needs the sandbox, a word not known
// before it runs that a stricter rule could stand for).
func (g *Guard) AllowPrefixes(d Decision) ([][]string, error) {
	if d.Verdict != Ask {
		return nil, fmt.Errorf("the decision is %s, not ask", d.Verdict)
	}
	f := g.plan(d)
	if !f.ok {
		for _, r := range causes(d) {
			if why, ok := f.instead[keyOf(&r)]; ok {
				return nil, fmt.Errorf("%s: %s", r.Rule, why)
			}
		}
		return nil, errors.New("no allow: prefix makes it an allow")
	}
	var out [][]string
	for i, e := range f.edits {
		if e.allow == nil {
			return nil, fmt.Errorf("an allow: prefix does not lift %s: it needs %s", f.owner[i].rule, describeEdits([]edit{e}))
		}
		out = append(out, e.allow)
	}
	if f.verdict != Allow {
		return nil, fmt.Errorf("allow: prefixes alone make it %s, not allow", f.verdict)
	}
	return out, nil
}

// AddAllow appends each prefix to the allow: list of the policy file in
// use, keeping the rest of the file as it is. It fails without a policy
// file (the embedded default). A Guard built by [Open] or [OpenPolicy]
// applies the change at its next check.
func (g *Guard) AddAllow(prefixes [][]string) error {
	pol := g.Policy()
	if pol == nil || pol.Path() == "" {
		return errors.New("cmdguard: no policy file in use (cmdguard init writes one)")
	}
	for _, p := range prefixes {
		if err := policy.AppendAllow(pol.Path(), p); err != nil {
			return err
		}
	}
	return nil
}
