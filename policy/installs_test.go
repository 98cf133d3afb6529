package policy_test

import (
	"context"
	"testing"

	"github.com/cmdguard/cmdguard/policy"
)

// TestInstallNeedsHostList: under the embedded default, an allowed
// command that downloads packages (Command.Fetches, from the parser) is
// allowed only when Input.Sandboxed and Input.SandboxNetwork is "hosts";
// otherwise policy.needs_sandbox asks, and its message says why.
func TestInstallNeedsHostList(t *testing.T) {
	t.Parallel()
	p, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		sandboxed bool
		network   string
		want      policy.Verdict
	}{
		{true, policy.NetworkHosts, policy.Allow},
		{true, policy.NetworkAll, policy.Ask},
		{true, policy.NetworkNone, policy.Ask},
		{true, "", policy.Ask},
		{false, "", policy.Ask},
		{false, policy.NetworkHosts, policy.Ask}, // not sandboxed: the network of no sandbox
	} {
		in := &policy.Input{Source: "npm install", Commands: []policy.Command{{
			Argv: []string{"npm", "install"}, MatchArgv: []string{"npm", "install"}, Dynamic: []bool{false, false},
			Wrappers: []string{}, Redirects: []policy.Redirect{}, Files: []policy.File{},
			Runs: "runs the package's scripts", Fetches: "downloads packages from the npm registry",
		}}, Findings: []policy.Finding{}, Sandboxed: c.sandboxed, SandboxNetwork: c.network}
		d := p.Evaluate(context.Background(), in)
		var got *policy.Reason
		for i := range d.Reasons {
			if d.Reasons[i].Rule == "policy.needs_sandbox" {
				if got != nil {
					t.Errorf("two policy.needs_sandbox reasons: %v", d.Reasons)
				}
				got = &d.Reasons[i]
			}
		}
		if d.Verdict != c.want || got == nil || got.Verdict != c.want {
			t.Errorf("sandboxed %v, network %q: %v %v, want %v by policy.needs_sandbox", c.sandboxed, c.network, d.Verdict, d.Reasons, c.want)
		}
	}
	for net, want := range map[string]string{"true": policy.NetworkAll, "false": policy.NetworkNone, "[a.example]": policy.NetworkHosts, "[]": policy.NetworkHosts} {
		pol, err := policy.Parse("p.yaml", []byte("version: 1\nsandbox:\n  network: "+net+"\n"), "")
		if err != nil {
			t.Fatal(err)
		}
		if got := pol.Sandbox().NetworkKind(); got != want {
			t.Errorf("network: %s: NetworkKind %q, want %q", net, got, want)
		}
	}
	if got := p.Sandbox().NetworkKind(); got != policy.NetworkHosts {
		t.Errorf("the embedded default's network: %q, want %q", got, policy.NetworkHosts)
	}
}
