package cmdguard

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/cmdguard/cmdguard/policy"
)

// sandboxSockets returns the real paths of the policy's sandbox.sockets
// (each ~/PATH in every home directory; symbolic links resolved, so that
// an agent socket reached through a link is allowed where it is). Those
// that do not exist are left out: there is nothing to reach.
func sandboxSockets(cfg policy.Sandbox, homes []string) []string {
	var out []string
	add := func(p string) {
		if r, err := filepath.EvalSymlinks(p); err == nil && filepath.IsAbs(r) && r != "/" && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	for _, pt := range cfg.Sockets {
		if rest, ok := strings.CutPrefix(pt.Pattern, "~/"); ok {
			for _, h := range homes {
				add(filepath.Join(h, rest))
			}
			continue
		}
		add(pt.Pattern)
	}
	return out
}
