package parser

import "strings"

// A CdStep is one change of directory on the way from Options.Cwd to a
// command's Cwd, as written: Command.Cwd is its lexical reading, which is
// not where bash goes when a symbolic link comes before a "..", or with
// cd -P. A caller with the file system replays the steps as bash does
// (the parser does not read the file system).
type CdStep struct {
	// Dir is the directory named (expanded): absolute, or relative to
	// the directory before the step.
	Dir string `json:"dir"`
	// Physical is set for cd -P and pushd -P, and for a program that
	// changes directory itself (env -C, sudo -D): the kernel resolves Dir
	// from the physical directory, and $PWD becomes the physical path.
	// Otherwise it is bash's cd -L: Dir is joined to $PWD and its ".."
	// removed as text, unless a component before a ".." is not a
	// directory, or the result does not exist: bash then lets the kernel
	// resolve it (and sets $PWD to the physical path).
	Physical bool `json:"physical,omitempty"`
	// Back is cd - : back to $OLDPWD, the directory before the previous
	// step (Dir is then empty).
	Back bool `json:"back,omitempty"`
}

// cdChain is the list of the steps to a cwdState, newest first, shared
// between the states that follow from it (comparable: two states with
// the same chain came the same way).
type cdChain struct {
	prev *cdChain
	step CdStep
	from cwdState // the state before the step, without its chain
}

// push returns the chain of the state after step, taken from cwd.
func (cwd cwdState) push(step CdStep) *cdChain {
	return &cdChain{prev: cwd.chain, step: step, from: cwdState{dir: cwd.dir, dyn: cwd.dyn}}
}

// back returns the state cd - goes to: the one before the last shell cd
// (OLDPWD), when it is known.
func (cwd cwdState) back() (cwdState, bool) {
	ch := cwd.chain
	if cwd.dyn || ch == nil || ch.from.dyn || ch.step.Physical || ch.step.Back {
		return cwdState{}, false // env -C does not set OLDPWD; cd - - is not followed
	}
	return cwdState{dir: ch.from.dir, chain: cwd.push(CdStep{Back: true})}, true
}

// steps returns the chain's steps, oldest first (nil for none).
func (ch *cdChain) steps() []CdStep {
	n := 0
	for c := ch; c != nil; c = c.prev {
		n++
	}
	if n == 0 {
		return nil
	}
	out := make([]CdStep, n)
	for c := ch; c != nil; c = c.prev {
		n--
		out[n] = c.step
	}
	return out
}

// unsure reports whether bash's $PWD after the chain may differ from its
// lexical reading: a step that resolves physically, goes back, or has a
// ".." that a symbolic link before it would move.
func (ch *cdChain) unsure() bool {
	for c := ch; c != nil; c = c.prev {
		if c.step.Physical || c.step.Back || hasDotDot(c.step.Dir) {
			return true
		}
	}
	return false
}

func hasDotDot(p string) bool {
	for _, e := range strings.Split(p, "/") {
		if e == ".." {
			return true
		}
	}
	return false
}
