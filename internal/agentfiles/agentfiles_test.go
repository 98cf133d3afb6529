package agentfiles

import "testing"

func TestInProject(t *testing.T) {
	for rel, want := range map[string]bool{
		".claude/settings.json":        true,
		".Claude/Settings.JSON":        true,
		"./.claude/settings.json":      true,
		"sub/.claude/settings.json":    true,
		".claude":                      false, // the directory's other files are the agent's work
		".claude/commands/x.md":        false,
		".claude/hooks":                true,
		".claude/hooks/guard.sh":       true,
		".codex/config.toml":           true,
		".codex":                       true,
		".clinerules/hooks/PreToolUse": true,
		".clinerules/style.md":         false,
		"a/b/opencode.json":            true,
		"myopencode.json":              false,
		".vscode/launch.json":          false,
		"src/main.go":                  false,
	} {
		if got := InProject(rel); got != want {
			t.Errorf("InProject(%q) = %v, want %v", rel, got, want)
		}
	}
}

func TestInHome(t *testing.T) {
	homes := []string{"/home/u", "/root/"}
	for p, want := range map[string]bool{
		"/home/u/.claude/settings.json":            true,
		"/home/u/.claude.json":                     true,
		"/root/.codex/hooks.json":                  true,
		"/home/u/Documents/Cline/Hooks/PreToolUse": true,
		"/home/u/.claude/projects/x.jsonl":         false,
		"/home/v/.claude/settings.json":            false,
		"/home/u/p/.claude.json":                   false,
	} {
		if got := InHome(p, homes); got != want {
			t.Errorf("InHome(%q) = %v, want %v", p, got, want)
		}
	}
}
