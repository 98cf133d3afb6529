package main

import "testing"

func TestAgentName(t *testing.T) {
	for _, tc := range []struct {
		argv []string
		want string
	}{
		{[]string{"gemini", "--experimental-acp"}, "gemini"},
		{[]string{"/usr/local/bin/claude-code-acp"}, "claude-code-acp"},
		{[]string{"npx", "-y", "@zed-industries/claude-code-acp"}, "@zed-industries/claude-code-acp"},
		{[]string{"env", "FOO=1", "node", "/opt/agent/main.js", "--acp"}, "main.js"},
		{[]string{"npx"}, "npx"},
		{nil, ""},
	} {
		if got := agentName(tc.argv); got != tc.want {
			t.Errorf("agentName(%q) = %q, want %q", tc.argv, got, tc.want)
		}
	}
}
