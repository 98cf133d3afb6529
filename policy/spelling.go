package policy

import (
	"slices"
	"strings"
)

// Deny wide, allow exact (docs/contract.md, "Policy file"). An allow rule matches the tokens
// as written, through the trie. A deny or ask rule also matches every
// spelling that could be the same command: the program path-qualified
// (/bin/rm), options clustered, split or reordered (rm -fr, rm -r -f, rm
// -v -rf), long or short or abbreviated (rm --recursive --force, rm
// --rec), after the operands (rm x -rf), --opt=v as --opt v; and a word
// the gate cannot see (a dynamic word, what xargs reads from stdin)
// completing it. How each program spells its options is not the
// policy's to know: a [Spelling] reads them.

// wideIndex indexes the deny and ask rules by program name, each with
// what its words after its leading words need (with spell).
func wideIndex(prefixes []Prefix, spell Spelling) map[string][]*Prefix {
	m := map[string][]*Prefix{}
	for i := range prefixes {
		pr := &prefixes[i]
		if pr.Verdict == Allow || pr.Tokens[0] == wildcard {
			continue
		}
		if spell.Rule != nil {
			k := commandWords(pr.Tokens)
			opts, operands := spell.Rule(pr.Tokens[:k], pr.Tokens[k:])
			pr.need = &need{opts, operands}
		}
		m[pr.Tokens[0]] = append(m[pr.Tokens[0]], pr)
	}
	return m
}

// widen replaces the trie's match by a stricter deny or ask rule that
// matches a spelling of the command. A longer rule that the wide rule
// matches itself keeps its verdict: allow: [rm -rf build] with deny: [rm
// -rf] allows rm -rf build (and only that spelling).
func (p *Policy) widen(c *Command, w words, m match) match {
	if len(p.wide) == 0 || len(w.argv) == 0 || w.dynamic(0) {
		return m
	}
	rules := p.wide[baseName(w.argv[0])]
	if len(rules) == 0 {
		return m
	}
	for _, pr := range rules {
		if pr == m.rule || m.rule != nil && pr.Verdict >= m.rule.Verdict || m.worst != nil && m.worst.Verdict <= pr.Verdict ||
			m.rule == nil && pr.Verdict >= p.def {
			// The trie's match, its dynamic word, or (no rule matched)
			// the default says as much: another spelling of a rule only
			// ever makes the verdict stricter.
			continue
		}
		k := commandWords(pr.Tokens)
		if !leadMatches(pr.Tokens[:k], w, c.Open) {
			continue
		}
		if len(w.argv) >= k && !c.Open && !p.spells(pr, w, k) {
			continue
		}
		if m.rule != nil && len(m.rule.Tokens) > len(pr.Tokens) && p.refines(pr, m.rule) {
			continue
		}
		m.rule, m.depth, m.spelled = pr, len(pr.Tokens), true
	}
	return m
}

// spells reports whether the command w, whose first k words are the
// leading words of the wide rule pr, could be pr: it sets every option pr
// names and holds pr's operands in order, as the policy's [Spelling]
// reads them. A word the gate cannot see could be any option or operand.
// Without a Spelling, any command with a word that could set an option
// could be pr (see [Spelling]).
func (p *Policy) spells(pr *Prefix, w words, k int) bool {
	for i := k; i < len(w.argv); i++ {
		if w.dynamic(i) {
			return true
		}
	}
	if p.spell.Command == nil {
		if k == len(pr.Tokens) || pr.Tokens[k] == "--" {
			return true // no option to look for (rm -- -rf)
		}
		for _, a := range w.argv[k:] {
			if len(a) > 1 && (a[0] == '-' || a[0] == '+') { // git push +main is --force
				return true
			}
		}
		return false
	}
	opts, operands, unseen := p.spell.Command(pr.Tokens[:k], w.argv[k:])
	return unseen || covers(opts, operands, pr.need)
}

// refines reports whether rule r is a longer spelling of the wide rule
// pr (pr matches r's own tokens). Without a Spelling, only when r's
// tokens start with pr's.
func (p *Policy) refines(pr, r *Prefix) bool {
	k := commandWords(pr.Tokens)
	if len(r.Tokens) < k || baseName(r.Tokens[0]) != pr.Tokens[0] {
		return false
	}
	for i := 1; i < k; i++ {
		if pr.Tokens[i] != wildcard && pr.Tokens[i] != r.Tokens[i] {
			return false
		}
	}
	if p.spell.Command == nil {
		return len(r.Tokens) >= len(pr.Tokens) && slices.Equal(r.Tokens[k:len(pr.Tokens)], pr.Tokens[k:])
	}
	opts, operands := p.spell.Rule(pr.Tokens[:k], r.Tokens[k:])
	return covers(opts, operands, pr.need)
}

// commandWords returns how many leading tokens of a rule name the
// program and its subcommands (git push): the tokens before the first
// option. They must be the command's own leading words.
func commandWords(tokens []string) int {
	k := 1
	for k < len(tokens) && !isOption(tokens[k]) {
		k++
	}
	return k
}

// leadMatches reports whether the command's leading words are lead (the
// program by its base name). A command shorter than lead matches when
// arguments the gate cannot see follow.
func leadMatches(lead []string, w words, open bool) bool {
	for i, t := range lead {
		if i >= len(w.argv) {
			return open
		}
		if w.dynamic(i) {
			return false // the trie's dynamic rule covers it
		}
		a := w.argv[i]
		if i == 0 {
			a = baseName(a)
		}
		if t != wildcard && t != a {
			return false
		}
	}
	return true
}

func isOption(s string) bool { return len(s) > 1 && s[0] == '-' }

// baseName returns the program name of a path-qualified command word
// (/bin/rm → rm).
func baseName(s string) string {
	if i := strings.LastIndexByte(s, '/'); i >= 0 && i < len(s)-1 {
		return s[i+1:]
	}
	return s
}

// Spelling reads the words that follow a command's leading words (its
// program and subcommands, as a rule names them: git push), and returns
// the options they set, each by one name whatever its spelling (rm -R and
// --recursive both "recursive"), and the operands in order: Command reads
// a command's words (a long option may be abbreviated), Rule a rule's
// tokens, as written.
//
// The policy reads no argv itself: a Spelling, given with [WithSpelling]
// (the cmdguard package gives the parser's), says how each program
// spells its options. Without one, a deny or ask rule with options
// matches every command its leading words match that has a word that
// could set an option (one starting with - or +, or a dynamic word),
// whatever the option: rm -v x matches deny: [rm -rf] (wider, never
// narrower), rm x does not.
//
// Command's unseen reports that the words could set any option: one of
// them reads more options from where the reader does not look (curl -K
// FILE).
type Spelling struct {
	Command func(lead, args []string) (opts, operands []string, unseen bool)
	Rule    func(lead, args []string) (opts, operands []string)
}

// LoadOption configures [Load], [Parse] and [Default].
type LoadOption func(*Policy)

// WithSpelling makes deny and ask rules match the spellings s reads as
// theirs (see [Spelling]); both its functions are needed, else the policy
// reads no spelling (every spelling matches, as without this option).
func WithSpelling(s Spelling) LoadOption {
	return func(p *Policy) {
		if s.Command != nil && s.Rule != nil {
			p.spell = s
		}
	}
}

// WithSkipKeys makes the loader accept the top-level keys named, without
// reading them: a file that is more than a policy (cmdguard's managed
// file, with its decision_log: and bundle:) is read by its owner for
// those keys and loaded as a policy for the rest.
func WithSkipKeys(keys ...string) LoadOption {
	return func(p *Policy) { p.skip = append(p.skip, keys...) }
}

// need is what a wide rule's words after its leading words say, as the
// policy's Spelling reads them.
type need struct{ opts, operands []string }

// covers reports whether a command that sets opts and holds operands
// could be the rule n: it sets every option n names and holds n's
// operands in order.
func covers(opts, operands []string, n *need) bool {
	for _, o := range n.opts {
		if !hasOption(opts, o) {
			return false
		}
	}
	j := 0
	for _, op := range operands {
		if j < len(n.operands) && (n.operands[j] == wildcard || n.operands[j] == op) {
			j++
		}
	}
	return j == len(n.operands)
}

// hasOption reports whether opts has o, or a long option as written that
// abbreviates it.
func hasOption(opts []string, o string) bool {
	for _, h := range opts {
		if h == o || strings.HasPrefix(o, "--") && strings.HasPrefix(h, "--") && len(h) > 2 && strings.HasPrefix(o, h) {
			return true
		}
	}
	return false
}

// runsDenied reports whether the first operand of a command no rule
// matched is the name of a program a deny or ask rule names: a program
// the gate does not know may run its operands as a command.
func (p *Policy) runsDenied(w words) (string, bool) {
	for i := 1; i < len(w.argv); i++ {
		a := w.argv[i]
		if w.dynamic(i) {
			return "", false
		}
		if isOption(a) {
			continue
		}
		name := baseName(a)
		return name, len(p.wide[name]) > 0
	}
	return "", false
}
