package policy

// node is a node of the prefix trie: one level per argv token. Matching
// costs one map lookup per token and active node, whatever the number of
// rules.
type node struct {
	children map[string]*node
	star     *node   // the "*" token: matches any one word, dynamic or not
	rule     *Prefix // the strictest rule ending here, if any (a prefix in allow and deny is a tie deny wins)
	below    *Prefix // the strictest rule strictly below this node
}

// wildcard is the prefix token that matches any one word.
const wildcard = "*"

// projectToken is the prefix token that matches, as the program word, a
// file of the project run by its path (Command.ProjectFile): ./x.sh,
// bin/x, scripts/test.sh.
const projectToken = "{project}"

func buildTrie(prefixes []Prefix) *node {
	root := &node{}
	for i := range prefixes {
		pr := &prefixes[i]
		n := root
		for _, tok := range pr.Tokens {
			n = n.child(tok)
		}
		n.rule = strictestRule(n.rule, pr)
	}
	root.fillBelow()
	return root
}

func (n *node) child(tok string) *node {
	if tok == wildcard {
		if n.star == nil {
			n.star = &node{}
		}
		return n.star
	}
	if n.children == nil {
		n.children = map[string]*node{}
	}
	c := n.children[tok]
	if c == nil {
		c = &node{}
		n.children[tok] = c
	}
	return c
}

// fillBelow sets below on n and its descendants and returns the strictest
// rule in n's subtree, n's own rule included.
func (n *node) fillBelow() *Prefix {
	visit := func(c *node) {
		if c != nil {
			n.below = strictestRule(n.below, c.fillBelow())
		}
	}
	for _, c := range n.children {
		visit(c)
	}
	visit(n.star)
	return strictestRule(n.rule, n.below)
}

// strictestRule returns the rule with the stricter verdict; on a tie, the
// one written first in the file, so that results do not depend on map
// order.
func strictestRule(a, b *Prefix) *Prefix {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	case a.Verdict != b.Verdict:
		if a.Verdict < b.Verdict {
			return a
		}
		return b
	case a.index <= b.index:
		return a
	}
	return b
}

// match is the result of matching one argv against the trie.
type match struct {
	rule  *Prefix // longest matching rule (stricter on a tie); nil: no match
	depth int     // its length in tokens
	// worst is the strictest rule that could match had the dynamic word
	// at dynIdx been something else; nil when no word is dynamic or no
	// rule lies beyond it.
	worst  *Prefix
	dynIdx int
	// spelled: rule is a deny or ask rule matched by another spelling of
	// the command (see widen), not token by token.
	spelled bool
}

// lookup matches argv against the trie. dynamic reports, per argv word,
// that its value is unknown: such a word matches only "*", and since it
// could expand to any words (or none), every rule below the nodes reached
// so far could match. lookup then stops, recording the strictest of them
// in worst.
func (root *node) lookup(w words) match {
	var m match
	var buf1, buf2 [8]*node
	active := append(buf1[:0], root)
	next := buf2[:0]
	for i, tok := range w.argv {
		if w.dynamic(i) {
			for _, n := range active {
				m.worst = strictestRule(m.worst, n.below)
			}
			m.dynIdx = i
			return m
		}
		next = next[:0]
		var level, star *Prefix
		for _, n := range active {
			if c := n.children[tok]; c != nil && (i != 0 || tok != projectToken) { // a program named {project} is no file of the project
				next = append(next, c)
				level = strictestRule(level, c.rule)
			}
			if i == 0 && w.c != nil && w.c.ProjectFile {
				if c := n.children[projectToken]; c != nil {
					next = append(next, c)
					level = strictestRule(level, c.rule)
				}
			}
			if c := n.star; c != nil {
				next = append(next, c)
				if i == 0 && n == root {
					star = c.rule // a lone "*" is the shortest prefix: it loses to any other match
				} else {
					level = strictestRule(level, c.rule)
				}
			}
		}
		if level == nil {
			level, star = star, nil
		}
		if level != nil {
			m.rule, m.depth = level, i+1
		}
		if len(next) == 0 {
			break
		}
		active, next = next, active
	}
	return m
}
