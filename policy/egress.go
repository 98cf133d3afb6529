package policy

import (
	"net/netip"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A HostRule is an entry of sandbox.network written as a list: a host a
// sandboxed command may reach through the sandbox's proxy.
//
//	registry.npmjs.org        the name itself, ports 80 and 443
//	"*.example.org"           any name below example.org (not itself)
//	"example.org:8443"        the name, port 8443 only
//	"192.0.2.7:443"           an IP address, only as the client names it
//
// Names are compared as the proxy receives them, in lower case and
// without a trailing dot; the proxy resolves a listed name itself. An IP
// address entry matches only a client that asks for that address
// literally (never a name that resolves to it); "*" alone and a wildcard
// in any other place are refused.
type HostRule struct {
	// Pattern is the entry as written.
	Pattern string `json:"pattern"`
	// Host is the name (lower case, no trailing dot) or the IP address,
	// without the "*." of a wildcard.
	Host string `json:"host"`
	// Subdomains makes the rule match the names below Host, not Host.
	Subdomains bool `json:"subdomains,omitempty"`
	// Port is the one port allowed; 0 allows 80 and 443.
	Port   int    `json:"port,omitempty"`
	Source string `json:"source"` // "file:line", or "builtin"
}

// hostRules reads sandbox.network written as a list. An empty list is
// a namespace with only loopback and a proxy that refuses everything.
func (d *decoder) hostRules(n *yaml.Node) []HostRule {
	out := make([]HostRule, 0, len(n.Content))
	for _, item := range d.seq(n, "sandbox.network") {
		s, ok := d.str(item)
		if !ok {
			continue
		}
		r, msg := ParseHostRule(s)
		if msg != "" {
			d.errorf(item, "sandbox.network entry %q: %s", s, msg)
			continue
		}
		r.Source = d.source(item)
		out = append(out, r)
	}
	return out
}

// ParseHostRule parses an entry of sandbox.network; the message says
// what is wrong with it, "" when nothing is.
func ParseHostRule(s string) (HostRule, string) {
	r := HostRule{Pattern: s}
	host := s
	if _, err := netip.ParseAddr(s); err != nil && (strings.Contains(s, ":") || strings.HasPrefix(s, "[")) {
		h, p, ok := splitHostPort(s)
		if !ok {
			return r, `want HOST, "*.HOST" or "HOST:PORT" (an IPv6 address with a port as "[ADDR]:PORT")`
		}
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 || p[0] < '1' || p[0] > '9' {
			return r, "the port must be a number from 1 to 65535"
		}
		host, r.Port = h, n
	}
	if a, err := netip.ParseAddr(host); err == nil {
		if a.Zone() != "" {
			return r, "an IP address with a zone"
		}
		r.Host = a.Unmap().String()
		return r, ""
	}
	name, sub := strings.CutPrefix(host, "*.")
	r.Subdomains = sub
	name = strings.TrimSuffix(strings.ToLower(name), ".")
	if msg := CheckHostName(name); msg != "" {
		return r, msg
	}
	if _, err := netip.ParseAddr(name); err == nil || looksNumeric(name) {
		return r, "a wildcard over an IP address, or a name that is a number"
	}
	r.Host = name
	return r, ""
}

func splitHostPort(s string) (host, port string, ok bool) {
	if rest, v6 := strings.CutPrefix(s, "["); v6 {
		h, p, found := strings.Cut(rest, "]:")
		_, err := netip.ParseAddr(h)
		return h, p, found && err == nil
	}
	h, p, found := strings.Cut(s, ":")
	return h, p, found && h != "" && !strings.ContainsAny(p, ":[]")
}

// looksNumeric reports a name whose last label is all digits: the
// resolver would take it for an address (127.1, 0x7f.1), not a name.
func looksNumeric(name string) bool {
	last := name[strings.LastIndexByte(name, '.')+1:]
	if strings.HasPrefix(last, "0x") {
		return true
	}
	for i := 0; i < len(last); i++ {
		if last[i] < '0' || last[i] > '9' {
			return false
		}
	}
	return true
}

// CheckHostName returns what is wrong with a DNS name in lower case
// without a trailing dot, "" when nothing: at most 253 characters, labels
// of 1 to 63 letters, digits, hyphens (not at either end) and
// underscores.
func CheckHostName(name string) string {
	if name == "" {
		return "an empty name"
	}
	if len(name) > 253 {
		return "a name longer than 253 characters"
	}
	for label := range strings.SplitSeq(name, ".") {
		if label == "" || len(label) > 63 {
			return "a name with an empty label or one longer than 63 characters"
		}
		if label[0] == '-' || label[len(label)-1] == '-' {
			return "a label that starts or ends with a hyphen"
		}
		for i := 0; i < len(label); i++ {
			c := label[i]
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
				return "a name with a character other than a letter, digit, hyphen, underscore or dot"
			}
		}
	}
	return ""
}
