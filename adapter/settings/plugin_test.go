package settings_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard/adapter/hook"
	"github.com/cmdguard/cmdguard/adapter/settings"
)

// TestPluginSettings: install opencode|kilo writes the plugin, byte for
// byte the file in the repo, and one entry in the agent's config that
// loads it with the hook command; installing twice changes nothing;
// uninstall gives back the config as it was and removes the plugin.
func TestPluginSettings(t *testing.T) {
	t.Parallel()
	repo, err := os.ReadFile("../hook/plugins/opencode/cmdguard.js")
	if err != nil {
		t.Fatal(err)
	}
	if hook.OpencodePlugin != string(repo) {
		t.Fatal("the embedded plugin is not plugins/opencode/cmdguard.js")
	}
	configs := map[string]string{
		"new":   "",
		"empty": "{}\n",
		"theirs": `{
  "$schema": "https://opencode.ai/config.json",
  "plugin": ["opencode-wakatime", ["./.opencode/mine.js", {"x": 1}]],
  "permission": {"bash": {"*": "ask", "git status": "allow"}}
}
`,
		"one line": `{"model":"anthropic/claude-sonnet-4-5","share":"disabled"}`,
	}
	argv := []string{"/usr/local/bin/cmdguard", "hook", "--agent", "AGENT", "--sandbox"}
	for _, tt := range []struct {
		agent         hook.Agent
		scope         settings.Scope
		plugin, file  string
		spec, command string
	}{
		{hook.Opencode, settings.Project, "/p/.opencode/cmdguard.js", "/p/opencode.json", "./.opencode/cmdguard.js", "opencode"},
		{hook.Opencode, settings.User, "/h/.config/opencode/cmdguard.js", "/h/.config/opencode/opencode.json", "./cmdguard.js", "opencode"},
		{hook.Kilo, settings.Project, "/p/.kilo/cmdguard.js", "/p/kilo.json", "./.kilo/cmdguard.js", "kilo"},
		{hook.Kilo, settings.User, "/h/.config/kilo/cmdguard.js", "/h/.config/kilo/kilo.json", "./cmdguard.js", "kilo"},
	} {
		a := append([]string(nil), argv...)
		a[3] = tt.command
		ss, err := settings.PluginSettings(tt.agent, tt.scope, loc, a)
		if err != nil {
			t.Fatal(err)
		}
		if len(ss) != 2 || ss[0].File != tt.plugin || ss[1].File != tt.file {
			t.Fatalf("%s %v: files %v, want %s and %s", tt.agent, tt.scope, ss, tt.plugin, tt.file)
		}
		got, err := ss[0].Install(nil)
		if err != nil || string(got) != hook.OpencodePlugin {
			t.Fatalf("the plugin file is not the plugin (%v)", err)
		}
		if _, err := ss[0].Install([]byte("export const Mine = async () => ({})\n")); err == nil {
			t.Errorf("install overwrote a plugin that is not cmdguard's")
		}
		older := strings.Replace(hook.OpencodePlugin, "const maxAnswer = 1 << 20", "const maxAnswer = 1 << 16", 1)
		if got, err := ss[0].Install([]byte(older)); err != nil || string(got) != hook.OpencodePlugin {
			t.Errorf("an older plugin of cmdguard's was not replaced (%v)", err)
		}
		if _, remove, err := ss[0].Uninstall([]byte(hook.OpencodePlugin)); err != nil || !remove {
			t.Errorf("uninstall does not remove the plugin (%v)", err)
		}
		for name, before := range configs {
			after, err := ss[1].Install([]byte(before))
			if err != nil {
				t.Fatalf("%s %s: %v", tt.agent, name, err)
			}
			var v struct {
				Plugin []any `json:"plugin"`
			}
			if err := json.Unmarshal(after, &v); err != nil {
				t.Fatalf("%s: not JSON after install: %v\n%s", name, err, after)
			}
			last, _ := v.Plugin[len(v.Plugin)-1].([]any)
			if len(last) != 2 || last[0] != tt.spec {
				t.Fatalf("%s: the entry is %v, want [%q, {command}]", name, v.Plugin, tt.spec)
			}
			opts, _ := last[1].(map[string]any)
			cmd, _ := json.Marshal(opts["command"])
			want, _ := json.Marshal(a)
			if string(cmd) != string(want) {
				t.Errorf("%s: command %s, want %s", name, cmd, want)
			}
			if !subsequence(before, string(after)) {
				t.Errorf("%s: install changed the bytes that were there:\n%s\n%s", name, before, after)
			}
			again, err := ss[1].Install(after)
			if err != nil || string(again) != string(after) {
				t.Errorf("%s: installing twice changed the file (%v)", name, err)
			}
			// Another option (no --sandbox): replaced, not doubled.
			other, _ := settings.PluginSettings(tt.agent, tt.scope, loc, a[:4])
			switched, err := other[1].Install(after)
			if err != nil || strings.Count(string(switched), "cmdguard.js") != 1 || strings.Contains(string(switched), "--sandbox") {
				t.Errorf("%s: reinstalling without --sandbox gave (%v):\n%s", name, err, switched)
			}
			removed, gone, err := ss[1].Uninstall(after)
			if err != nil {
				t.Fatal(err)
			}
			if before == "" {
				if !gone {
					t.Errorf("%s: uninstall left %q; want the file removed", name, removed)
				}
			} else if string(removed) != before {
				t.Errorf("%s: uninstall is not exact:\n--- before\n%s\n--- after uninstall\n%s", name, before, removed)
			}
		}
	}
	if _, err := settings.PluginSettings(hook.Claude, settings.Project, loc, argv); err == nil {
		t.Error("PluginSettings accepted claude")
	}
}

// TestPluginDirs: the plugin is not put where opencode loads every file
// without options ({plugin,plugins}/ of a config directory): it would be
// loaded twice, once without its command.
func TestPluginDirs(t *testing.T) {
	t.Parallel()
	for _, agent := range []hook.Agent{hook.Opencode, hook.Kilo} {
		for _, scope := range []settings.Scope{settings.Project, settings.User} {
			ss, err := settings.PluginSettings(agent, scope, loc, []string{"cmdguard", "hook"})
			if err != nil {
				t.Fatal(err)
			}
			if d := filepath.Base(filepath.Dir(ss[0].File)); d == "plugin" || d == "plugins" {
				t.Errorf("%s: the plugin is in %s", agent, ss[0].File)
			}
		}
	}
}
