package policy

// sandboxReason is the reason the embedded default policy gives an allowed
// command that runs the project's code (c.Runs): the allow holds only
// under the kernel sandbox, since the code it runs is whatever the
// project holds, which no check saw. Without the sandbox it is
// policy.needs_sandbox (ask, re-ratable); with it, the same rule as an
// allow that says why.
func (p *Policy) sandboxReason(t *texts, c *Command, w words, sandboxed bool, ci int) Reason {
	if sandboxed {
		return Reason{Verdict: Allow, Rule: "policy.needs_sandbox", Pos: c.Pos, Source: "builtin", Command: ci + 1, EnforcedBy: "sandbox",
			Message: t.argv(w.argv).add(" ", c.Runs, ": allowed because it runs under the sandbox (secrets hidden, git config and hooks and the policy read-only)").done()}
	}
	v, src := p.RuleVerdict("policy.needs_sandbox")
	return Reason{Verdict: v, Rule: "policy.needs_sandbox", Pos: c.Pos, Source: src, Command: ci + 1,
		Message: t.argv(w.argv).add(" ", c.Runs, ": ", p.strictName(), " allows it only under cmdguard's sandbox (--sandbox where it runs: cmdguard run, serve, mcp, acp, or the hook installed with install --sandbox; or sandbox: enabled: true in the policy)").done()}
}

// strictName names a strict policy in a message: the built-in one, or
// the file that says strict: true.
func (p *Policy) strictName() string {
	if p.builtin {
		return "the built-in policy"
	}
	return "the policy (strict: true)"
}
