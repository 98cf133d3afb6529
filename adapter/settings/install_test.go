package settings_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard/adapter/hook"
	"github.com/cmdguard/cmdguard/adapter/settings"
)

var loc = settings.Locations{Project: "/p", Home: "/h"}

func hookSettings(t *testing.T, agent hook.Agent, command string) settings.Settings {
	t.Helper()
	s, err := settings.HookSettings(agent, settings.Project, loc, command)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Existing settings files, in the styles people write them.
var existing = map[string]string{
	"new":       "",
	"empty obj": "{}\n",
	"other keys": `{
    "$schema": "https://json.schemastore.org/claude-code-settings.json",
    "permissions": {
        "allow": ["Bash(npm run test *)"],
        "deny":  [ "Read(./.env)" ]
    },
    "env": {"A": "1"}
}
`,
	"other hooks": `{
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Edit",
        "hooks": [{"type": "command", "command": "prettier --check"}]
      }
    ],
    "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}],
    "beforeShellExecution": [{"command": "./audit.sh"}]
  },
  "model": "opus"
}
`,
	"one line":  `{"model":"opus","hooks":{"PreToolUse":[{"matcher":"Write","hooks":[{"type":"command","command":"x"}]}]}}`,
	"tabs":      "{\n\t\"theme\": \"dark\",\n\t\"hooks\": {}\n}\n",
	"no indent": "{\n\"a\": 1\n}",
}

func TestInstallRoundTrip(t *testing.T) {
	t.Parallel()
	for _, agent := range []hook.Agent{hook.Claude, hook.Codex, hook.Gemini, hook.Cursor} {
		for name, before := range existing {
			t.Run(string(agent)+"/"+name, func(t *testing.T) {
				t.Parallel()
				s := hookSettings(t, agent, "/usr/local/bin/cmdguard hook --agent "+string(agent))
				after, err := s.Install([]byte(before))
				if err != nil {
					t.Fatal(err)
				}
				var v map[string]any
				if err := json.Unmarshal(after, &v); err != nil {
					t.Fatalf("not JSON after install: %v\n%s", err, after)
				}
				if !strings.Contains(string(after), "hook --agent "+string(agent)) {
					t.Fatalf("the hook is not in:\n%s", after)
				}
				// Install only inserts: the file before is still there, byte for byte, in order.
				if !subsequence(before, string(after)) {
					t.Errorf("install changed the bytes that were there:\n--- before\n%s\n--- after\n%s", before, after)
				}
				again, err := s.Install(after)
				if err != nil || string(again) != string(after) {
					t.Errorf("installing twice changed the file (err %v):\n%s\nthen\n%s", err, after, again)
				}
				removed, gone, err := s.Uninstall(after)
				if err != nil {
					t.Fatal(err)
				}
				switch {
				case before == "":
					if !gone {
						t.Errorf("uninstall of a file install created left:\n%s", removed)
					}
				case name == "tabs":
					// "hooks": {} was there before: the empty container is pruned.
					if !strings.Contains(string(removed), `"theme": "dark"`) || strings.Contains(string(removed), "cmdguard") {
						t.Errorf("uninstall left:\n%s", removed)
					}
				case string(removed) != before:
					t.Errorf("uninstall did not restore the file byte for byte:\n--- before\n%s\n--- after install\n%s\n--- after uninstall\n%s", before, after, removed)
				}
			})
		}
	}
}

// TestInstallReplacesOlder: an entry of ours with other options is
// replaced, not doubled; another tool's entry is kept.
func TestInstallReplacesOlder(t *testing.T) {
	t.Parallel()
	old := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"cmdguard hook --agent claude","timeout":60}]},{"matcher":"Bash","hooks":[{"type":"command","command":"other-guard"}]}]}}`
	s := hookSettings(t, hook.Claude, "/bin/cmdguard hook --agent claude")
	out, err := s.Install([]byte(old))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(out), "hook --agent claude"); n != 1 {
		t.Errorf("%d entries of ours after install:\n%s", n, out)
	}
	if !strings.Contains(string(out), `"onFailure":"block"`) || !strings.Contains(string(out), "other-guard") {
		t.Errorf("install lost the new options or the other hook:\n%s", out)
	}
	back, _, err := s.Uninstall(out)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"other-guard"}]}]}}`; string(back) != want {
		t.Errorf("uninstall left\n%s\nwant\n%s", back, want)
	}
}

func TestInstallRefuses(t *testing.T) {
	t.Parallel()
	s := hookSettings(t, hook.Claude, "cmdguard hook --agent claude")
	for _, bad := range []string{
		"// comment\n{}",
		`{"hooks": []}`,
		`{"hooks": {"PreToolUse": {}}}`,
		`[1]`,
		`{"a":1} {"b":2}`,
	} {
		if out, err := s.Install([]byte(bad)); err == nil {
			t.Errorf("Install(%q) = %q, want an error", bad, out)
		}
	}
	cline := hookSettings(t, hook.Cline, "cmdguard hook --agent cline")
	if _, err := cline.Install([]byte("#!/bin/sh\nmy-own-hook\n")); err == nil {
		t.Error("Install over someone else's Cline hook script: want an error")
	}
	if _, _, err := cline.Uninstall([]byte("#!/bin/sh\nmy-own-hook\n")); err == nil {
		t.Error("Uninstall of someone else's Cline hook script: want an error")
	}
	out, err := cline.Install(nil)
	if err != nil || !strings.HasPrefix(string(out), "#!/bin/sh\n") || !strings.Contains(string(out), "exec cmdguard hook --agent cline") {
		t.Errorf("Cline install = %q, %v", out, err)
	}
}

// TestMCPEntry: the same editor adds an object member (an MCP server).
func TestMCPEntry(t *testing.T) {
	t.Parallel()
	s := settings.Settings{File: ".mcp.json", Entries: []settings.Entry{{Path: []string{"mcpServers"}, Key: "cmdguard",
		Value: map[string]any{"command": "cmdguard", "args": []any{"mcp"}}}}}
	before := "{\n  \"mcpServers\": {\n    \"fs\": {\"command\": \"fs-server\"}\n  }\n}\n"
	out, err := s.Install([]byte(before))
	if err != nil {
		t.Fatal(err)
	}
	var v struct{ MCPServers map[string]any }
	if err := json.Unmarshal(out, &v); err != nil || v.MCPServers["cmdguard"] == nil || v.MCPServers["fs"] == nil {
		t.Fatalf("install gave %v:\n%s", err, out)
	}
	back, _, err := s.Uninstall(out)
	if err != nil || string(back) != before {
		t.Errorf("uninstall gave %v:\n%s", err, back)
	}
}
