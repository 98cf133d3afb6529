package policy_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cmdguard/cmdguard/policy"
)

func patterns(ps []policy.Pattern) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Pattern)
	}
	return out
}

func TestSandboxSection(t *testing.T) {
	t.Parallel()
	def, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	ds := def.Sandbox()
	// Issue 24: on where the kernel allows it, the gate's answers where not.
	if !ds.Enabled || ds.Network || ds.Egress == nil || ds.Required {
		t.Errorf("default policy: %+v, want enabled, a network list (issue 27), not required", ds)
	}
	// A file's section (or none) stays required unless it says otherwise.
	for _, text := range []string{"version: 1\n", "version: 1\nsandbox: {network: false}\n"} {
		p, err := policy.Parse("p.yaml", []byte(text), ".")
		if err != nil {
			t.Fatal(err)
		}
		if !p.Sandbox().Required {
			t.Errorf("%q: sandbox not required; a file's sandbox is required unless it says required: false", text)
		}
	}
	for _, want := range []string{".env", ".env.*", "!.env.example", "*.pem", "*.key", "secrets/", "~/.ssh", "~/.aws", "~/.config/gcloud", "~/.netrc", "~/.git-credentials", "~/.docker/config.json", "~/.kube", "~/.npmrc"} {
		if !strings.Contains(strings.Join(patterns(ds.Hide), "\n")+"\n", want+"\n") {
			t.Errorf("default hide lacks %q", want)
		}
	}
	for _, want := range []string{"~/.bashrc", "~/.profile", "~/.zshrc", "~/.gitconfig"} {
		if !strings.Contains(strings.Join(patterns(ds.Protect), "\n")+"\n", want+"\n") {
			t.Errorf("default protect lacks %q", want)
		}
	}

	cases := []struct {
		yaml    string
		enabled bool
		network bool
		hide    []string // nil: the default's
		protect []string
	}{
		{"version: 1\n", false, false, nil, nil},
		{"version: 1\nsandbox: {}\n", true, false, nil, nil},
		{"version: 1\nsandbox: {network: false, hide: [\"*.secret\", ~/.vault]}\n", true, false, []string{"*.secret", "~/.vault"}, nil},
		{"version: 1\nsandbox: {enabled: false, hide: [], protect: [Makefile, /etc/hosts]}\n", false, false, []string{}, []string{"Makefile", "/etc/hosts"}},
	}
	for _, c := range cases {
		p, err := policy.Parse("p.yaml", []byte(c.yaml), "")
		if err != nil {
			t.Fatalf("%q: %v", c.yaml, err)
		}
		s := p.Sandbox()
		if c.hide == nil {
			c.hide = patterns(ds.Hide)
		}
		if c.protect == nil {
			c.protect = patterns(ds.Protect)
		}
		got := []any{s.Enabled, s.Network, s.Required, patterns(s.Hide), patterns(s.Protect)}
		want := []any{c.enabled, c.network, true, c.hide, c.protect}
		if diff := cmp.Diff(want, got, cmp.Comparer(func(a, b []string) bool { return strings.Join(a, "\n") == strings.Join(b, "\n") })); diff != "" {
			t.Errorf("%q mismatch (-want +got):\n%s", c.yaml, diff)
		}
	}
}

func TestSandboxSectionInvalid(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"version: 1\nsandbox: [a]\n":                         "p.yaml:2:10: sandbox must be a mapping",
		"version: 1\nsandbox: {enabled: yes}\n":              `p.yaml:2:20: invalid value "yes": want true or false`,
		"version: 1\nsandbox: {network: \"false\"}\n":        `p.yaml:2:20: invalid value "false": want true or false`,
		"version: 1\nsandbox: {hidden: [x]}\n":               `p.yaml:2:11: unknown key "hidden" in sandbox`,
		"version: 1\nsandbox: {hide: [~root/.ssh]}\n":        `p.yaml:2:18: sandbox.hide entry "~root/.ssh": write ~/PATH for a path in the home directory`,
		"version: 1\nsandbox: {hide: [~/../x]}\n":            `p.yaml:2:18: sandbox.hide entry "~/../x" must name a path below its base, without ..`,
		"version: 1\nsandbox: {protect: [../x]}\n":           `p.yaml:2:21: sandbox.protect entry "../x" must name a path below its base, without ..`,
		"version: 1\nsandbox: {hide: x}\n":                   "p.yaml:2:17: sandbox.hide must be a list",
		"version: 1\nsandbox: {required: 1}\n":               `p.yaml:2:21: invalid value "1": want true or false`,
		"version: 1\nsandbox: {writable: [rel/dir]}\n":       `p.yaml:2:21: sandbox.writable entry "rel/dir": want an absolute path or ~/PATH, without wildcards`,
		"version: 1\nsandbox: {persist: [~/.cache/*]}\n":     `p.yaml:2:20: sandbox.persist entry "~/.cache/*": want an absolute path or ~/PATH, without wildcards`,
		"version: 1\nsandbox: {writable: [/a/../b]}\n":       `p.yaml:2:21: sandbox.writable entry "/a/../b" must name a path below its base, without ..`,
		"version: 1\nsandbox: {sockets: [$SSH_AUTH_SOCK]}\n": `p.yaml:2:20: sandbox.sockets entry "$SSH_AUTH_SOCK": want an absolute path or ~/PATH, without wildcards`,
		"version: 1\nsandbox: {sockets: [/run/*/bus]}\n":     `p.yaml:2:20: sandbox.sockets entry "/run/*/bus": want an absolute path or ~/PATH, without wildcards`,
		"version: 1\nsandbox: {sockets: [~/../s]}\n":         `p.yaml:2:21: sandbox.sockets entry "~/../s" must name a path below its base, without ..`,
		"version: 1\nsandbox: {sockets: /s}\n":               "p.yaml:2:20: sandbox.sockets must be a list",
	}
	for in, want := range cases {
		_, err := policy.Parse("p.yaml", []byte(in), "")
		if err == nil || err.Error() != want {
			t.Errorf("Parse(%q) = %v, want %s", in, err, want)
		}
	}
}

func TestSandboxWritablePersist(t *testing.T) {
	t.Parallel()
	p, err := policy.Parse("p.yaml", []byte("version: 1\nsandbox:\n  writable: [/srv/out, ~/scratch]\n  persist: [~/.cache/go-build]\n  sockets: [~/.ssh/agent.sock, /run/user/1000/gcr/ssh]\n"), ".")
	if err != nil {
		t.Fatal(err)
	}
	s := p.Sandbox()
	if got := patterns(s.Writable); !cmp.Equal(got, []string{"/srv/out", "~/scratch"}) {
		t.Errorf("writable = %q", got)
	}
	if got := patterns(s.Persist); !cmp.Equal(got, []string{"~/.cache/go-build"}) {
		t.Errorf("persist = %q", got)
	}
	if got := patterns(s.Sockets); !cmp.Equal(got, []string{"~/.ssh/agent.sock", "/run/user/1000/gcr/ssh"}) {
		t.Errorf("sockets = %q", got)
	}
	def, _ := policy.Default()
	if ds := def.Sandbox(); len(ds.Writable)+len(ds.Persist)+len(ds.Sockets) != 0 {
		t.Errorf("default: writable %v persist %v sockets %v, want none", ds.Writable, ds.Persist, ds.Sockets)
	}
}
