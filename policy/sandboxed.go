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

// The values of Input.SandboxNetwork.
const (
	NetworkHosts = "hosts" // sandbox.network: [HOST, …]: the listed hosts, through cmdguard's proxy
	NetworkAll   = "all"   // sandbox.network: true
	NetworkNone  = "none"  // sandbox.network: false
)

// NetworkKind says what network a command of this sandbox reaches:
// NetworkHosts, NetworkAll or NetworkNone (see Input.SandboxNetwork).
func (s Sandbox) NetworkKind() string {
	switch {
	case s.Network:
		return NetworkAll
	case s.Egress != nil:
		return NetworkHosts
	}
	return NetworkNone
}

// installReason is the reason the embedded default policy gives an
// allowed install (c.Fetches: npm install, go mod download, pip
// install): the allow holds only under the kernel sandbox whose network
// is a list of hosts, where the sandbox's proxy decides which registries
// it reaches and what it runs (lifecycle scripts, setup.py) runs
// sandboxed. Without the sandbox, and under a sandbox with the whole
// network (network: true: an install script could send the project
// anywhere) or none (the install cannot work), it is
// policy.needs_sandbox (ask, re-ratable).
func (p *Policy) installReason(t *texts, c *Command, w words, in *Input, ci int) Reason {
	if in.Sandboxed && in.SandboxNetwork == NetworkHosts {
		return Reason{Verdict: Allow, Rule: "policy.needs_sandbox", Pos: c.Pos, Source: "builtin", Command: ci + 1, EnforcedBy: "sandbox",
			Message: t.argv(w.argv).add(" ", c.Fetches, ": allowed because it runs under the sandbox, which reaches only the hosts sandbox.network lists (secrets hidden, git config and hooks and the policy read-only)").done()}
	}
	why := "it does not run under cmdguard's sandbox"
	switch {
	case in.Sandboxed && in.SandboxNetwork == NetworkAll:
		why = "the sandbox's network is the whole network (sandbox.network: true), so a script it runs could send the project anywhere"
	case in.Sandboxed && in.SandboxNetwork == NetworkNone:
		why = "the sandbox has no network (sandbox.network: false)"
	case in.Sandboxed:
		why = "the sandbox's network is not known"
	}
	v, src := p.RuleVerdict("policy.needs_sandbox")
	return Reason{Verdict: v, Rule: "policy.needs_sandbox", Pos: c.Pos, Source: src, Command: ci + 1,
		Message: t.argv(w.argv).add(" ", c.Fetches, ": ", p.strictName(), " allows it only under cmdguard's sandbox with sandbox.network as a list of hosts (the registries), and ", why).done()}
}
