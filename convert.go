package cmdguard

import (
	"slices"

	"github.com/cmdguard/cmdguard/policy"
)

// inputBuf holds the policy input of a small check and the lists of its
// commands in one allocation.
type inputBuf struct {
	in    policy.Input
	cmds  [4]policy.Command
	strs  [32]string
	dyn   [32]bool
	reds  [4]policy.Redirect
	files [6]policy.File
}

// arena hands out the lists of one input.
type arena struct {
	strs  []string
	dyn   []bool
	reds  []policy.Redirect
	files []policy.File
}

// carve copies src into the arena's next len(src) elements; its capacity
// is its length, so that an append never reaches the next list. The
// result is empty, never nil, when src is empty.
func carve[T any](arena *[]T, src []T) []T {
	a := *arena
	n := copy(a[:len(src)], src)
	*arena = a[n:]
	return a[:n:n]
}

// newInput builds the policy input of a check from the memo entry e: the
// commands with copies of every list the entry holds (a Decision hands
// them to the caller, who may change them), empty Files with room for
// one per reference, and e's findings.
func (e *memoEntry) newInput() *policy.Input {
	var in *policy.Input
	var ar arena
	var b *inputBuf
	if len(e.cmds) <= len(b.cmds) && e.strs <= len(b.strs) && e.dyn <= len(b.dyn) && e.reds <= len(b.reds) && e.files <= len(b.files) {
		b = new(inputBuf)
		in = &b.in
		in.Commands = b.cmds[:len(e.cmds):len(e.cmds)]
		ar = arena{strs: b.strs[:], dyn: b.dyn[:], reds: b.reds[:], files: b.files[:]}
	} else {
		in = &policy.Input{Commands: make([]policy.Command, len(e.cmds))}
		ar = arena{strs: make([]string, e.strs), dyn: make([]bool, e.dyn), reds: make([]policy.Redirect, e.reds), files: make([]policy.File, e.files)}
	}
	for i := range e.cmds {
		t, c := &e.cmds[i], &in.Commands[i]
		*c = *t
		c.Argv = carve(&ar.strs, t.Argv)
		if sameSlice(t.Argv, t.MatchArgv) {
			c.MatchArgv = c.Argv
		} else {
			c.MatchArgv = carve(&ar.strs, t.MatchArgv)
		}
		c.Wrappers = carve(&ar.strs, t.Wrappers)
		c.Dynamic = carve(&ar.dyn, t.Dynamic)
		c.Redirects = carve(&ar.reds, t.Redirects)
		c.OptionHits = slices.Clone(t.OptionHits)
		c.UnknownOptions = slices.Clone(t.UnknownOptions)
		n := len(e.a.Commands[i].Files)
		c.Files = ar.files[:0:n]
		ar.files = ar.files[n:]
	}
	if len(e.findings) > 0 {
		in.Findings = slices.Clone(e.findings)
	} else {
		in.Findings = []policy.Finding{}
	}
	return in
}
