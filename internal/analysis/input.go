package analysis

import (
	"slices"

	"github.com/cmdguard/cmdguard/policy"
)

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
	if len(src) == 0 {
		return []T{} // Rego and JSON see [], not null
	}
	a := *arena
	n := copy(a[:len(src)], src)
	*arena = a[n:]
	return a[:n:n]
}

// newInput builds the policy input of a check from the memo entry e: the
// commands with copies of every list the entry holds (a Decision hands
// them to the caller, who may change them), empty Files with room for
// one per reference, and e's findings. Lists are sized exactly: a fixed
// buffer big enough for most commands costs the garbage collector more
// than the few allocations it saves.
//
// An entry the memo does not keep (own) is used up instead: the input
// takes its lists.
func (e *Entry) newInput(own bool) *policy.Input {
	var ar arena
	if e.files > 0 {
		ar.files = make([]policy.File, e.files)
	}
	if own {
		in := &policy.Input{Commands: e.cmds, Findings: e.findings}
		if in.Findings == nil {
			in.Findings = []policy.Finding{}
		}
		for i := range in.Commands {
			in.Commands[i].Files = carveFiles(&ar, len(e.a.Commands[i].Files))
		}
		return in
	}
	in := &policy.Input{Commands: make([]policy.Command, len(e.cmds))}
	ar.strs, ar.dyn = make([]string, e.strs), make([]bool, e.dyn)
	if e.reds > 0 {
		ar.reds = make([]policy.Redirect, e.reds)
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
		c.Files = carveFiles(&ar, len(e.a.Commands[i].Files))
	}
	if len(e.findings) > 0 {
		in.Findings = slices.Clone(e.findings)
	} else {
		in.Findings = []policy.Finding{}
	}
	return in
}

// carveFiles returns an empty list with room for n files.
func carveFiles(ar *arena, n int) []policy.File {
	if n == 0 {
		return []policy.File{}
	}
	fs := ar.files[:0:n]
	ar.files = ar.files[n:]
	return fs
}
