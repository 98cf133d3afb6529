package policy

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// AppendAllow adds prefix to the allow: list of the policy file at path.
// It is what the CLI's "always" answer does. The file is edited as text,
// guided by its YAML node tree: one item is inserted into the allow:
// list — after its last item in a block list (before any comment lines
// that follow it), before the closing bracket of a flow list — and every
// other byte (comments, blank lines, indentation, quoting) stays as it
// was. Without an allow: key, "allow: [PREFIX]" is added at the end.
//
// Adding a prefix that is already allowed does nothing; a prefix that is
// in ask: or deny: is an error, as is a prefix with the word "*" (the
// policy would read it as any word) and a file that is not a valid policy.
// The edited text must parse to the same policy plus the new allow
// prefix, else nothing is written. The file is replaced atomically. A
// token holding white space, or the empty token, is written in the
// list-of-tokens form.
func AppendAllow(path string, prefix []string) error {
	if len(prefix) == 0 {
		return fmt.Errorf("append allow to %s: empty prefix", path)
	}
	if slices.Contains(prefix, wildcard) {
		// A literal * (echo '*') would be the wildcard in the policy and
		// allow any word there: far more than what was approved.
		return fmt.Errorf("append allow to %s: %q holds the word *, which a policy reads as any word; add a rule by hand", path, strings.Join(prefix, " "))
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
	out, err := insertAllow(data, prefix)
	if err != nil {
		return fmt.Errorf("append allow to %s: %w", path, err)
	}
	q, err := Parse(path, out, filepath.Dir(path))
	if err != nil {
		return fmt.Errorf("append allow to %s: the edited policy is invalid: %w", path, err)
	}
	if !sameButAllow(p, q, prefix) {
		return fmt.Errorf("append allow to %s: the edit would change more than the allow list; add %q by hand", path, strings.Join(prefix, " "))
	}
	return writeAtomic(path, out)
}

// sameButAllow reports whether q is p with one more allow prefix.
func sameButAllow(p, q *Policy, prefix []string) bool {
	if len(q.prefixes) != len(p.prefixes)+1 || p.def != q.def {
		return false
	}
	found := false
	for _, pr := range q.prefixes {
		if slices.Equal(pr.Tokens, prefix) {
			found = pr.Verdict == Allow
		}
	}
	for _, pr := range p.prefixes {
		j := slices.IndexFunc(q.prefixes, func(x Prefix) bool { return slices.Equal(x.Tokens, pr.Tokens) })
		if j < 0 || q.prefixes[j].Verdict != pr.Verdict {
			return false
		}
	}
	if !found || !slices.Equal(p.IgnoreFiles(), q.IgnoreFiles()) ||
		!slices.EqualFunc(p.ignore, q.ignore, func(a, b Pattern) bool { return a.Pattern == b.Pattern }) ||
		len(p.ratings) != len(q.ratings) || !reflect.DeepEqual(p.Exec(), q.Exec()) {
		return false
	}
	for id, r := range p.ratings {
		if qr, ok := q.ratings[id]; !ok || qr.Verdict != r.Verdict {
			return false
		}
	}
	if (p.rego == nil) != (q.rego == nil) {
		return false
	}
	return p.rego == nil || slices.Equal(p.rego.files, q.rego.files)
}

// insertAllow returns data with prefix added to the allow: list.
func insertAllow(data []byte, prefix []string) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) != 1 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, fmt.Errorf("not a mapping")
	}
	root := doc.Content[0]
	lines := splitLines(data)
	var key, list *yaml.Node
	for i := 0; i+1 < len(root.Content); i += 2 {
		if root.Content[i].Value == "allow" {
			key, list = root.Content[i], root.Content[i+1]
		}
	}
	switch {
	case key == nil: // no allow: key: add one at the end
		out := slices.Clone(data)
		if len(out) > 0 && out[len(out)-1] != '\n' {
			out = append(out, '\n')
		}
		return append(out, "allow: ["+flowItem(prefix)+"]\n"...), nil

	case list.Kind == yaml.ScalarNode && list.Tag == "!!null": // allow: (empty), allow: ~
		if list.Value == "" {
			// Nothing written after "allow:": put the list right after the colon.
			l := key.Line - 1
			at := key.Column - 1 + len(key.Value)
			if at >= len(lines[l]) || lines[l][at] != ':' {
				return nil, fmt.Errorf("cannot find the colon after allow")
			}
			return insertAt(lines, l, at+1, " ["+flowItem(prefix)+"]"), nil
		}
		return replaceAt(lines, list.Line-1, list.Column-1, len(list.Value), "["+flowItem(prefix)+"]")

	case list.Kind != yaml.SequenceNode:
		return nil, fmt.Errorf("allow is not a list")

	case list.Style&yaml.FlowStyle != 0: // allow: [a, b]
		l, c, comma, err := flowEnd(lines, list)
		if err != nil {
			return nil, err
		}
		item := flowItem(prefix)
		switch {
		case comma:
			item = " " + item
		case len(list.Content) > 0:
			item = ", " + item
		}
		return insertAt(lines, l, c, item), nil
	}
	// A block list: a new line after the last item's last line, with the
	// same indentation and dash as the first item.
	if len(list.Content) == 0 {
		return nil, fmt.Errorf("empty block list")
	}
	first := list.Content[0]
	fl := lines[first.Line-1]
	if first.Column-1 > len(fl) || !strings.HasSuffix(strings.TrimRight(string(fl[:first.Column-1]), " \t"), "-") {
		return nil, fmt.Errorf("cannot find the dash of the first allow item")
	}
	lead := string(fl[:first.Column-1]) // "  - "
	last := lastLine(list.Content[len(list.Content)-1])
	eol := "\n"
	if bytes.HasSuffix(lines[last-1], []byte("\r\n")) {
		eol = "\r\n"
	}
	return insertLine(lines, last, lead+flowItem(prefix)+eol), nil
}

// splitLines splits data into lines that keep their line endings.
func splitLines(data []byte) [][]byte {
	var out [][]byte
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			out = append(out, data)
			break
		}
		out = append(out, data[:i+1])
		data = data[i+1:]
	}
	return out
}

// lastLine returns the 1-based last line of n and everything under it.
func lastLine(n *yaml.Node) int {
	l := n.Line
	for _, c := range n.Content {
		l = max(l, lastLine(c))
	}
	return l
}

// flowEnd finds where a new element of the flow list n goes: just after
// its last element (or its "["), before any white space, comment and the
// "]" that close it. comma reports whether a comma already follows the
// last element (a trailing comma).
func flowEnd(lines [][]byte, n *yaml.Node) (line, col int, comma bool, err error) {
	l, c := n.Line-1, n.Column // just after "["
	if len(n.Content) > 0 {
		last := n.Content[len(n.Content)-1]
		l, c = last.Line-1, last.Column-1
	}
	endL, endC := l, c // just after the last significant byte
	depth := 0
	var quote byte
	for ; l < len(lines); l, c = l+1, 0 {
		s := lines[l]
		for ; c < len(s); c++ {
			ch := s[c]
			switch {
			case quote == '\'' && ch == '\'':
				if c+1 < len(s) && s[c+1] == '\'' {
					c++ // '' inside single quotes
				} else {
					quote = 0
				}
			case quote == '"' && ch == '\\':
				c++
			case quote == '"' && ch == '"':
				quote = 0
			case quote != 0:
			case ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n':
				continue
			case ch == '#' && (c == 0 || s[c-1] == ' ' || s[c-1] == '\t'):
				c = len(s) // a comment, to the end of the line
				continue
			case ch == '\'' || ch == '"':
				quote = ch
			case ch == '[' || ch == '{':
				depth++
			case ch == ']' || ch == '}':
				if depth == 0 {
					if ch != ']' {
						return 0, 0, false, fmt.Errorf("unbalanced flow list")
					}
					comma = endC > 0 && lines[endL][endC-1] == ',' && len(n.Content) > 0
					return endL, endC, comma, nil
				}
				depth--
			}
			endL, endC = l, c+1
		}
	}
	return 0, 0, false, fmt.Errorf("cannot find the end of the allow list")
}

func insertAt(lines [][]byte, l, c int, s string) []byte {
	var b bytes.Buffer
	for i, line := range lines {
		if i == l {
			b.Write(line[:c])
			b.WriteString(s)
			b.Write(line[c:])
			continue
		}
		b.Write(line)
	}
	return b.Bytes()
}

func replaceAt(lines [][]byte, l, c, n int, s string) ([]byte, error) {
	if l >= len(lines) || c+n > len(lines[l]) {
		return nil, fmt.Errorf("position out of range")
	}
	var b bytes.Buffer
	for i, line := range lines {
		if i == l {
			b.Write(line[:c])
			b.WriteString(s)
			b.Write(line[c+n:])
			continue
		}
		b.Write(line)
	}
	return b.Bytes(), nil
}

// insertLine inserts s after the 1-based line after.
func insertLine(lines [][]byte, after int, s string) []byte {
	var b bytes.Buffer
	for i, line := range lines {
		b.Write(line)
		if i == after-1 {
			if len(line) == 0 || line[len(line)-1] != '\n' {
				b.WriteByte('\n')
			}
			b.WriteString(s)
		}
	}
	return b.Bytes()
}

// plainToken matches tokens that YAML reads as the same plain string in
// block and flow context.
var plainToken = regexp.MustCompile(`^[A-Za-z0-9_./+=%^][A-Za-z0-9_./+=%^@-]*$`)

// scalar renders one token: plain when that reads back the same, else
// double-quoted.
func scalar(t string) string {
	if plainToken.MatchString(t) && !isYAMLWord(t) {
		return t
	}
	return strconv.Quote(t)
}

// isYAMLWord reports whether a plain t would read as something other than
// the string t (true, null, 1e3, …): quote those.
func isYAMLWord(t string) bool {
	var v any
	if yaml.Unmarshal([]byte(t), &v) != nil {
		return true
	}
	s, ok := v.(string)
	return !ok || s != t
}

// prefixSimple reports whether the prefix can be one string split on
// white space.
func prefixSimple(prefix []string) bool {
	for _, t := range prefix {
		if f := strings.Fields(t); len(f) != 1 || f[0] != t {
			return false
		}
	}
	return true
}

// flowItem renders a prefix as one list element, in a block or a flow
// list: a string of tokens joined by spaces (plain when every token can
// be), else a flow list of tokens.
func flowItem(prefix []string) string {
	if prefixSimple(prefix) {
		plain := true
		for _, t := range prefix {
			plain = plain && plainToken.MatchString(t) && !isYAMLWord(t)
		}
		if plain && !isYAMLWord(strings.Join(prefix, " ")) {
			return strings.Join(prefix, " ")
		}
		return strconv.Quote(strings.Join(prefix, " "))
	}
	parts := make([]string, len(prefix))
	for i, t := range prefix {
		parts[i] = scalar(t)
	}
	return "[" + strings.Join(parts, ", ") + "]"
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
	if r := trial.commandReason(new(texts), c, w, m); r.Verdict != Allow {
		return nil, false
	}
	if v, _ := p.RuleVerdict("policy.dangerous_option"); v != Allow && len(guardHits(c, m.depth, nil)) > 0 {
		return nil, false
	}
	return prefix, true
}
