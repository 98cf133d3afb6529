package hook_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/cmdguard/cmdguard/adapter/hook"
)

// FuzzHook: whatever arrives on stdin, the hook prints one JSON object,
// and input that is not JSON is a deny in the agent's dialect.
func FuzzHook(f *testing.F) {
	root := project(f, testPolicy)
	for _, tmpl := range inputs {
		f.Add(uint8(0), fill(tmpl, root, "cat .env"))
		f.Add(uint8(1), fill(tmpl, root, "git status"))
	}
	f.Add(uint8(2), `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"`)
	f.Fuzz(func(t *testing.T, a uint8, in string) {
		agents := append([]hook.Agent{""}, hook.Agents...)
		agent := agents[int(a)%len(agents)]
		var out, errb bytes.Buffer
		code := hook.Run(context.Background(), hook.Options{Agent: agent, Timeout: 2 * time.Second}, strings.NewReader(in), &out, &errb)
		var v map[string]any
		if err := json.Unmarshal(out.Bytes(), &v); err != nil {
			t.Fatalf("agent %q: stdout is not a JSON object (%v): %q", agent, err, out.String())
		}
		if json.Valid([]byte(in)) {
			return
		}
		denied := v["decision"] == "deny" || v["permission"] == "deny" || v["cancel"] == true
		if h, ok := v["hookSpecificOutput"].(map[string]any); ok && h["permissionDecision"] == "deny" {
			denied = true
		}
		if !denied {
			t.Fatalf("agent %q: input that is not JSON was not denied (exit %d): %s", agent, code, out.String())
		}
	})
}
