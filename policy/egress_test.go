package policy_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cmdguard/cmdguard/policy"
)

func TestSandboxNetworkList(t *testing.T) {
	t.Parallel()
	p, err := policy.Parse("p.yaml", []byte(`version: 1
sandbox:
  network:
    - Registry.NPMjs.org.
    - "*.example.org"
    - "example.com:8443"
    - "192.0.2.7:443"
    - "[2001:db8::1]:443"
    - "2001:db8::2"
`), "")
	if err != nil {
		t.Fatal(err)
	}
	s := p.Sandbox()
	if s.Network {
		t.Error("a list sets Network; want false (a namespace with only loopback)")
	}
	want := []policy.HostRule{
		{Pattern: "Registry.NPMjs.org.", Host: "registry.npmjs.org", Source: "p.yaml:4"},
		{Pattern: "*.example.org", Host: "example.org", Subdomains: true, Source: "p.yaml:5"},
		{Pattern: "example.com:8443", Host: "example.com", Port: 8443, Source: "p.yaml:6"},
		{Pattern: "192.0.2.7:443", Host: "192.0.2.7", Port: 443, Source: "p.yaml:7"},
		{Pattern: "[2001:db8::1]:443", Host: "2001:db8::1", Port: 443, Source: "p.yaml:8"},
		{Pattern: "2001:db8::2", Host: "2001:db8::2", Source: "p.yaml:9"},
	}
	if diff := cmp.Diff(want, s.Egress); diff != "" {
		t.Errorf("Egress mismatch (-want +got):\n%s", diff)
	}
	// true and false keep their meaning, with no list.
	for text, net := range map[string]bool{"true": true, "false": false} {
		p, err := policy.Parse("p.yaml", []byte("version: 1\nsandbox: {network: "+text+"}\n"), "")
		if err != nil {
			t.Fatal(err)
		}
		if s := p.Sandbox(); s.Network != net || s.Egress != nil {
			t.Errorf("network: %s = %v %v, want %v and no list", text, s.Network, s.Egress, net)
		}
	}
	// An empty list: loopback only, the proxy refuses everything.
	p, err = policy.Parse("p.yaml", []byte("version: 1\nsandbox: {network: []}\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	if s := p.Sandbox(); s.Network || s.Egress == nil || len(s.Egress) != 0 {
		t.Errorf("network: [] = %v %#v, want false and an empty list", s.Network, s.Egress)
	}
}

// TestDefaultEgress: the embedded default lists the registries of Go,
// npm, PyPI and crates, and nothing else.
func TestDefaultEgress(t *testing.T) {
	t.Parallel()
	def, err := policy.Default()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range def.Sandbox().Egress {
		got = append(got, r.Pattern)
	}
	want := []string{"proxy.golang.org", "sum.golang.org", "registry.npmjs.org", "pypi.org", "files.pythonhosted.org", "crates.io", "index.crates.io", "static.crates.io"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("default sandbox.network mismatch (-want +got):\n%s", diff)
	}
	// A file that leaves network out gets the default's list.
	p, err := policy.Parse("p.yaml", []byte("version: 1\nsandbox: {}\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(p.Sandbox().Egress); n != len(want) {
		t.Errorf("sandbox: {} has %d hosts, want the default's %d", n, len(want))
	}
}

func TestSandboxNetworkListInvalid(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("a", 64) + ".org"
	longName := strings.Repeat(strings.Repeat("a", 60)+".", 5) + "org"
	cases := map[string]string{
		`"*"`:                `"*": a name with a character other than a letter, digit, hyphen, underscore or dot`,
		`"*.*.org"`:          `"*.*.org": a name with a character other than a letter, digit, hyphen, underscore or dot`,
		`"a.*.org"`:          `"a.*.org": a name with a character other than a letter, digit, hyphen, underscore or dot`,
		`"*.10.0.0.1"`:       `"*.10.0.0.1": a wildcard over an IP address, or a name that is a number`,
		`"127.1"`:            `"127.1": a wildcard over an IP address, or a name that is a number`,
		`"0x7f.1"`:           `"0x7f.1": a wildcard over an IP address, or a name that is a number`,
		`"a.org:0"`:          `"a.org:0": the port must be a number from 1 to 65535`,
		`"a.org:65536"`:      `"a.org:65536": the port must be a number from 1 to 65535`,
		`"a.org:080"`:        `"a.org:080": the port must be a number from 1 to 65535`,
		`"a.org:"`:           `"a.org:": the port must be a number from 1 to 65535`,
		`"a.org:1:2"`:        `"a.org:1:2": want HOST, "*.HOST" or "HOST:PORT" (an IPv6 address with a port as "[ADDR]:PORT")`,
		`"[a.org]:443"`:      `"[a.org]:443": want HOST, "*.HOST" or "HOST:PORT" (an IPv6 address with a port as "[ADDR]:PORT")`,
		`"https://a.org"`:    `"https://a.org": the port must be a number from 1 to 65535`,
		`"-a.org"`:           `"-a.org": a label that starts or ends with a hyphen`,
		`"a..org"`:           `"a..org": a name with an empty label or one longer than 63 characters`,
		`"` + long + `"`:     `"` + long + `": a name with an empty label or one longer than 63 characters`,
		`"` + longName + `"`: `"` + longName + `": a name longer than 253 characters`,
		`"fe80::1%eth0"`:     `"fe80::1%eth0": an IP address with a zone`,
		`"a.org/x"`:          `"a.org/x": a name with a character other than a letter, digit, hyphen, underscore or dot`,
	}
	for entry, want := range cases {
		in := "version: 1\nsandbox:\n  network: [" + entry + "]\n"
		_, err := policy.Parse("p.yaml", []byte(in), "")
		if want = "p.yaml:3:13: sandbox.network entry " + want; err == nil || err.Error() != want {
			t.Errorf("Parse(%q) = %v\nwant %s", in, err, want)
		}
	}
	_, err := policy.Parse("p.yaml", []byte("version: 1\nsandbox: {network: [[a]]}\n"), "")
	if err == nil || !strings.Contains(err.Error(), "want a non-empty string") {
		t.Errorf("network: [[a]] = %v, want a load error", err)
	}
}
