package settings_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard/adapter/hook"
	"github.com/cmdguard/cmdguard/adapter/settings"
	"github.com/cmdguard/cmdguard/internal/agentfiles"
)

// TestInstallFilesProtected: every file `cmdguard install` writes, for
// every agent, hook and MCP server, project and user scope, is in the
// protected lists of package agentfiles (which path.protected and the
// sandbox read): a command that rewrites it is refused.
func TestInstallFilesProtected(t *testing.T) {
	loc := settings.Locations{Project: "/p", Home: "/h"}
	n := 0
	for _, agent := range hook.Agents {
		for _, scope := range []settings.Scope{settings.Project, settings.User} {
			var files []string
			if agent == hook.Opencode || agent == hook.Kilo {
				// A plugin file and its entry in the agent's config.
				ss, err := settings.PluginSettings(agent, scope, loc, []string{"cmdguard", "hook", "--agent", string(agent)})
				if err != nil {
					t.Errorf("PluginSettings(%s): %v", agent, err)
				}
				for _, s := range ss {
					files = append(files, s.File)
				}
			} else if s, err := settings.HookSettings(agent, scope, loc, "cmdguard hook --agent "+string(agent)); err == nil {
				files = append(files, s.File)
			} else {
				t.Errorf("HookSettings(%s): %v", agent, err)
			}
			if s, err := settings.MCPSettings(agent, scope, loc, "cmdguard"); err == nil {
				files = append(files, s.File)
			}
			for _, f := range files {
				n++
				var ok bool
				if rel, in := strings.CutPrefix(f, loc.Project+"/"); in {
					ok = agentfiles.InProject(filepath.ToSlash(rel))
				} else {
					ok = agentfiles.InHome(f, []string{loc.Home})
				}
				if !ok {
					t.Errorf("%s (%s, scope %d) is written by cmdguard install but not protected (internal/agentfiles)", f, agent, scope)
				}
			}
		}
	}
	if n == 0 {
		t.Fatal("no install file checked")
	}
}
