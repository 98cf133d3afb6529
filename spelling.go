package cmdguard

import (
	"github.com/cmdguard/cmdguard/parser"
	"github.com/cmdguard/cmdguard/policy"
)

// PolicyOptions returns the options to load a policy for a [Guard] with
// (policy.Parse(name, data, dir, cmdguard.PolicyOptions()...)): its deny
// and ask rules then match every spelling of their options as the
// parser's program table reads them (rm -fr, rm --recursive --force, git
// branch --delete --force for git branch -D). A policy loaded without
// them matches such a rule wider, on any option word (see
// [policy.Spelling]). The Guard loads its own policy files with them.
func PolicyOptions() []policy.LoadOption {
	return []policy.LoadOption{policy.WithSpelling(parser.Spelling)}
}
