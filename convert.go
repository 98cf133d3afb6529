package cmdguard

import (
	"github.com/cmdguard/cmdguard/parser"
	"github.com/cmdguard/cmdguard/policy"
)

// inputBuf holds the policy input of a small check, its commands and
// their dynamic flags in one allocation.
type inputBuf struct {
	in   policy.Input
	cmds [4]policy.Command
	dyn  [32]bool
}

// newInput allocates the input for cmds, with Commands sized, and the
// backing array of every command's Dynamic flags (one per argv word).
func newInput(cmds []parser.Command) (*policy.Input, []bool) {
	words := 0
	for i := range cmds {
		words += len(cmds[i].Argv)
	}
	if len(cmds) <= len(inputBuf{}.cmds) && words <= len(inputBuf{}.dyn) {
		b := new(inputBuf)
		b.in.Commands = b.cmds[:len(cmds):len(cmds)]
		return &b.in, b.dyn[:words:words]
	}
	return &policy.Input{Commands: make([]policy.Command, len(cmds))}, make([]bool, words)
}
