package policy

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// AppendAllow adds prefix to the allow: list of the policy file at path,
// keeping its comments (the file is edited as a YAML node tree; the
// indentation may be normalised to two spaces). It is what the CLI's
// "always" answer does. Adding a prefix that is already allowed does
// nothing; a prefix that is in ask: or deny: is an error, as is a file
// that is not a valid policy before or after the edit. The file is
// replaced atomically. A token holding white space, or the empty token,
// is written in the list-of-tokens form.
func AppendAllow(path string, prefix []string) error {
	if len(prefix) == 0 {
		return fmt.Errorf("append allow to %s: empty prefix", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("append allow: %w", err)
	}
	p, err := Parse(path, data, filepath.Dir(path))
	if err != nil {
		return fmt.Errorf("append allow to %s: %w", path, err)
	}
	for _, pr := range p.prefixes {
		if slices.Equal(pr.Tokens, prefix) {
			if pr.Verdict == Allow {
				return nil
			}
			return fmt.Errorf("append allow to %s: %q is in %s (%s)", path, pr.String(), pr.Verdict, pr.Source)
		}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("append allow to %s: %w", path, err)
	}
	root := doc.Content[0]
	list := mappingValue(root, "allow")
	if list == nil {
		root.Content = append(root.Content,
			&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "allow"},
			&yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"})
		list = root.Content[len(root.Content)-1]
	} else if list.Kind != yaml.SequenceNode { // allow: with no value
		*list = yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", HeadComment: list.HeadComment, LineComment: list.LineComment}
	}
	list.Content = append(list.Content, prefixNode(prefix))
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return fmt.Errorf("append allow to %s: %w", path, err)
	}
	enc.Close()
	out := buf.Bytes()
	if _, err := Parse(path, out, filepath.Dir(path)); err != nil {
		return fmt.Errorf("append allow to %s: the edited policy is invalid: %w", path, err)
	}
	return writeAtomic(path, out)
}

func mappingValue(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// prefixNode renders a prefix as one string, or as a flow list of tokens
// when a token would not survive splitting on white space.
func prefixNode(prefix []string) *yaml.Node {
	simple := true
	for _, t := range prefix {
		if f := strings.Fields(t); len(f) != 1 || f[0] != t {
			simple = false
		}
	}
	if simple {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: strings.Join(prefix, " ")}
	}
	n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
	for _, t := range prefix {
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: t})
	}
	return n
}

func writeAtomic(path string, data []byte) error {
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(path), ".cmdguard-*.yaml")
	if err != nil {
		return fmt.Errorf("append allow: %w", err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("append allow: %w", err)
	}
	return nil
}

// SuggestAllow returns the narrowest prefix that, added to allow:, makes
// the prefix rules allow c: its whole argv, or the words before its first
// dynamic word (a dynamic word may expand to anything, so no rule can
// name it). ok is false when no allow prefix can do it: the first word is
// dynamic, the prefix is already in ask: or deny:, a stricter rule could
// match beyond a dynamic word, or a guarded option (policy.dangerous_option)
// lies beyond it. Findings and Rego are not considered: offer "always"
// only when the prefix rules alone asked. It is what the CLI's "always"
// answer writes with [AppendAllow].
func (p *Policy) SuggestAllow(c *Command) (prefix []string, ok bool) {
	if p == nil || p.trie == nil {
		return nil, false
	}
	w := matchWords(c)
	k := 0
	for k < len(w.argv) && !w.dynamic(k) {
		k++
	}
	if k == 0 {
		return nil, false
	}
	prefix = slices.Clone(w.argv[:k])
	prefixes := make([]Prefix, 0, len(p.prefixes)+1)
	for _, pr := range p.prefixes {
		if slices.Equal(pr.Tokens, prefix) {
			if pr.Verdict != Allow {
				return nil, false
			}
		}
		prefixes = append(prefixes, pr)
	}
	prefixes = append(prefixes, Prefix{Verdict: Allow, Tokens: prefix, index: len(prefixes)})
	trial := &Policy{def: p.def, trie: buildTrie(prefixes), ratings: p.ratings}
	m := trial.trie.lookup(w)
	if r := trial.commandReason(c, w, m); r.Verdict != Allow {
		return nil, false
	}
	if v, _ := p.RuleVerdict("policy.dangerous_option"); v != Allow && len(guardHits(c, m.depth, nil)) > 0 {
		return nil, false
	}
	return prefix, true
}
