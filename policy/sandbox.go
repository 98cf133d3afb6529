package policy

import (
	"path"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Sandbox holds the sandbox: settings of a policy (docs/contract.md and the README's Sandbox section): the
// kernel sandbox that approved commands run in. A policy without a
// sandbox: section has it disabled, with the default policy's settings
// for `cmdguard run --sandbox`; a section that leaves a key out gets the
// default policy's value for it, and "enabled" defaults to true.
type Sandbox struct {
	// Enabled makes the executor run every approved command in the sandbox.
	Enabled bool `json:"enabled"`
	// Hide lists what no process may read, in addition to what the
	// project's ignore files and ignore: patterns ignore: gitignore
	// patterns matched against the project tree, and "~/PATH" entries
	// naming a file or directory in the person's home directory.
	Hide []Pattern `json:"hide"`
	// Protect lists paths no process may write, in addition to the real
	// git directory's config and hooks and the policy and ignore files:
	// "~/PATH" in the home directory, absolute paths, or paths relative
	// to the project root; each may hold glob characters.
	Protect []Pattern `json:"protect"`
	// Writable lists places outside the project the command may write
	// (absolute or ~/PATH): everything else but the project, a private
	// /tmp and the tool caches' copy-on-write layers is read-only.
	Writable []Pattern `json:"writable"`
	// Persist lists tool caches (absolute or ~/PATH) kept writable for
	// real instead of a copy-on-write layer whose writes vanish with the
	// run: what a sandboxed command writes there reaches later commands.
	Persist []Pattern `json:"persist"`
	// Sockets lists the Unix sockets (absolute or ~/PATH, as Writable)
	// outside the writable places a command may connect to (an ssh
	// agent's): every other one is out of reach in the sandbox.
	Sockets []Pattern `json:"sockets"`
	// Network lets commands reach the network. It is false when the
	// policy lists the hosts commands may reach (Egress).
	Network bool `json:"network"`
	// Egress, from sandbox.network written as a list, names the hosts a
	// command may reach, through a proxy, from a network namespace that
	// has only loopback; nil when sandbox.network is true or false.
	Egress []HostRule `json:"egress,omitempty"`
	// Required refuses to run a command when the sandbox cannot be set
	// up; otherwise the command runs without it and the result says so.
	Required bool `json:"required"`

	set map[string]bool // keys the policy wrote
}

// Sandbox returns the sandbox: settings, with defaults filled in.
func (p *Policy) Sandbox() Sandbox {
	if p == nil {
		return Sandbox{Required: true}
	}
	s := p.sandbox
	s.Hide = append([]Pattern(nil), s.Hide...)
	s.Protect = append([]Pattern(nil), s.Protect...)
	if s.Egress != nil {
		s.Egress = append(make([]HostRule, 0, len(s.Egress)), s.Egress...)
	}
	s.Writable = append([]Pattern(nil), s.Writable...)
	s.Persist = append([]Pattern(nil), s.Persist...)
	s.Sockets = append([]Pattern(nil), s.Sockets...)
	s.set = nil
	return s
}

func (d *decoder) sandboxSettings(n *yaml.Node) {
	if n.Kind != yaml.MappingNode {
		d.errorf(n, "sandbox must be a mapping")
		return
	}
	s := &d.p.sandbox
	s.set = map[string]bool{}
	s.Enabled = true
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if s.set[k.Value] {
			d.errorf(k, "key %q repeated in sandbox", k.Value)
			continue
		}
		s.set[k.Value] = true
		switch k.Value {
		case "enabled":
			s.Enabled = d.boolean(v)
		case "network":
			if v.Kind == yaml.SequenceNode {
				s.Egress = d.hostRules(v)
			} else {
				s.Network = d.boolean(v)
			}
		case "required":
			s.Required = d.boolean(v)
		case "hide":
			s.Hide = d.sandboxPaths(v, "sandbox.hide", true)
		case "protect":
			s.Protect = d.sandboxPaths(v, "sandbox.protect", false)
		case "writable", "persist", "sockets":
			ps := d.sandboxPaths(v, "sandbox."+k.Value, false)
			out := ps[:0]
			for _, p := range ps {
				if !strings.HasPrefix(p.Pattern, "~/") && !path.IsAbs(p.Pattern) || hasGlob(p.Pattern) {
					d.errorf(v, "sandbox.%s entry %q: want an absolute path or ~/PATH, without wildcards", k.Value, p.Pattern)
					continue
				}
				if strings.Contains(p.Pattern+"/", "/../") {
					d.errorf(v, "sandbox.%s entry %q must name a path below its base, without ..", k.Value, p.Pattern)
					continue
				}
				out = append(out, p)
			}
			switch k.Value {
			case "writable":
				s.Writable = out
			case "persist":
				s.Persist = out
			default:
				s.Sockets = out
			}
		default:
			d.errorf(k, "unknown key %q in sandbox", k.Value)
		}
	}
}

func (d *decoder) boolean(n *yaml.Node) bool {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!bool" {
		return n.Value == "true"
	}
	d.errorf(n, "invalid value %q: want true or false", n.Value)
	return false
}

// sandboxPaths reads a hide: or protect: list. Entries are never empty
// and never climb out with "..": what they name must be plain to a
// reviewer.
func (d *decoder) sandboxPaths(n *yaml.Node, key string, pattern bool) []Pattern {
	out := make([]Pattern, 0)
	for _, item := range d.seq(n, key) {
		s, ok := d.str(item)
		if !ok {
			continue
		}
		if strings.ContainsAny(s, "\r\n\x00") {
			d.errorf(item, "%s entry %q holds a line break or NUL", key, s)
			continue
		}
		rest, home := strings.CutPrefix(s, "~/")
		if s == "~" || strings.HasPrefix(s, "~") && !home {
			d.errorf(item, "%s entry %q: write ~/PATH for a path in the home directory", key, s)
			continue
		}
		if home || !pattern {
			if p := path.Clean(rest); p == "." || p == ".." || strings.HasPrefix(p, "../") || strings.Contains(p, "/../") {
				d.errorf(item, "%s entry %q must name a path below its base, without ..", key, s)
				continue
			}
		}
		out = append(out, Pattern{Pattern: s, Source: d.source(item)})
	}
	return out
}

// sandboxDefaults fills what a policy's sandbox: section leaves out (or
// the whole section) from the embedded default policy.
func (d *decoder) sandboxDefaults() {
	def, err := Default()
	if err != nil {
		d.errorf(nil, "embedded default policy: %v", err)
		return
	}
	s, ds := &d.p.sandbox, def.sandbox
	if !s.set["hide"] {
		s.Hide = ds.Hide
	}
	if !s.set["protect"] {
		s.Protect = ds.Protect
	}
	if !s.set["network"] {
		s.Network, s.Egress = ds.Network, ds.Egress
	}
	if !s.set["required"] {
		// A policy file's sandbox is required unless it says otherwise;
		// the embedded default's required: false (run sandboxed where
		// the kernel allows it) is its own.
		s.Required = true
	}
	if s.set == nil {
		s.Enabled = false
	}
}

func hasGlob(p string) bool { return strings.ContainsAny(p, `*?[\`) }
