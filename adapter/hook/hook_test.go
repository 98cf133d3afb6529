package hook_test

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cmdguard/cmdguard/adapter/hook"
)

const testPolicy = `version: 1
default: ask
allow: [git status, ls, echo]
deny: [rm -rf]
`

// The recorded inputs of each agent (integrations.md §1.2, §2.1, §3, §4.1,
// §5), with CWD and CMD to fill in.
var inputs = map[string]string{
	"claude":         `{"session_id":"7e48f602","transcript_path":"/tmp/t.jsonl","cwd":CWD,"prompt_id":"39c6","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":CMD,"description":"x"},"tool_use_id":"toolu_1"}`,
	"codex":          `{"session_id":"01a1","turn_id":"01a1","transcript_path":"/tmp/r.jsonl","cwd":CWD,"hook_event_name":"PreToolUse","model":"gpt-5.1-codex","permission_mode":"bypassPermissions","tool_name":"Bash","tool_input":{"command":CMD},"tool_use_id":"call_13"}`,
	"gemini":         `{"session_id":"d3ea","transcript_path":"/tmp/s.jsonl","cwd":CWD,"hook_event_name":"BeforeTool","timestamp":"2026-11-21T19:50:01.248Z","tool_name":"run_shell_command","tool_input":{"command":CMD,"description":"x"}}`,
	"cursor":         `{"conversation_id":"c","generation_id":"g","hook_event_name":"beforeShellExecution","workspace_roots":[CWD],"cursor_version":"2.1.46","model":"m","user_email":"u@example.com","command":CMD,"cwd":CWD}`,
	"cursor-nocwd":   `{"conversation_id":"c","generation_id":"g","hook_event_name":"beforeShellExecution","workspace_roots":[CWD],"cursor_version":"2.1.46","command":CMD,"cwd":""}`,
	"cursor-pretool": `{"hook_event_name":"preToolUse","tool_name":"Shell","tool_input":{"command":CMD,"working_directory":CWD},"cwd":CWD,"workspace_roots":[CWD],"conversation_id":"c"}`,
	// opencode and Kilo: what cmdguard's plugin sends (plugins/opencode/cmdguard.js), recorded from opencode 1.18.33.
	"opencode": `{"hook_event_name":"tool.execute.before","agent":"opencode","tool":"bash","session_id":"ses_2f0c1e7a8ffeYt1q","call_id":"toolu_2","directory":CWD,"worktree":CWD,"tool_input":{"command":CMD,"description":"run it"}}`,
	"kilo":     `{"hook_event_name":"tool.execute.before","agent":"kilo","tool":"bash","session_id":"ses_2f0c1e7a8ffeYt1q","call_id":"toolu_2","directory":CWD,"worktree":CWD,"tool_input":{"command":CMD,"description":"run it"}}`,
	"cline":    `{"clineVersion":"3.40.0","hookName":"PreToolUse","timestamp":"1","taskId":"t","workspaceRoots":[CWD],"userId":"u","preToolUse":{"toolName":"execute_command","parameters":{"command":CMD,"requires_approval":false}}}`,
}

type result struct {
	out    map[string]any
	raw    string
	stderr string
	code   int
}

// match reports where got differs from want: a want string starting with
// "~" is a substring got must contain; a want of nil means the key must be
// absent.
func match(want, got map[string]any) []string {
	var diffs []string
	for k, w := range want {
		g, ok := got[k]
		switch w := w.(type) {
		case nil:
			if ok {
				diffs = append(diffs, fmt.Sprintf("%s: got %v, want absent", k, g))
			}
		case map[string]any:
			gm, isMap := g.(map[string]any)
			if !isMap {
				diffs = append(diffs, fmt.Sprintf("%s: got %v, want an object", k, g))
				continue
			}
			for _, d := range match(w, gm) {
				diffs = append(diffs, k+"."+d)
			}
		case string:
			gs, _ := g.(string)
			if sub, ok := strings.CutPrefix(w, "~"); ok {
				if !strings.Contains(gs, sub) {
					diffs = append(diffs, fmt.Sprintf("%s: got %q, want it to contain %q", k, gs, sub))
				}
			} else if gs != w {
				diffs = append(diffs, fmt.Sprintf("%s: got %v, want %q", k, g, w))
			}
		default:
			if fmt.Sprint(g) != fmt.Sprint(w) {
				diffs = append(diffs, fmt.Sprintf("%s: got %v, want %v", k, g, w))
			}
		}
	}
	return diffs
}

type obj = map[string]any

func claudeOut(decision, reason string) obj {
	o := obj{"hookEventName": "PreToolUse", "permissionDecision": decision}
	if reason != "" {
		o["permissionDecisionReason"] = reason
	}
	return obj{"hookSpecificOutput": o}
}

func cursorOut(permission, msg string) obj {
	if msg == "" {
		return obj{"permission": permission, "agent_message": nil}
	}
	return obj{"permission": permission, "user_message": msg, "agent_message": msg, "userMessage": msg, "agentMessage": msg}
}

func TestDialects(t *testing.T) {
	t.Parallel()
	root := project(t, testPolicy)
	const (
		envReason = "~ignore.denied: '.env' is ignored by"
		askReason = "~policy.no_match"
	)
	tests := []struct {
		name  string
		agent string // Options.Agent
		input string // a key of inputs
		cmd   string
		ask   bool // AskAsDeny
		want  obj
		code  int
	}{
		// Claude Code: allow / ask / deny as they are.
		{name: "claude allow", agent: "claude", input: "claude", cmd: "git status", want: claudeOut("allow", "~policy.allow")},
		{name: "claude deny .env", agent: "claude", input: "claude", cmd: "cat .env", want: claudeOut("deny", envReason)},
		{name: "claude deny .env through a glob", agent: "claude", input: "claude", cmd: "ls && cat .e?v", want: claudeOut("deny", envReason)},
		{name: "claude deny rm -rf", agent: "claude", input: "claude", cmd: "rm -rf src", want: claudeOut("deny", "~policy.deny")},
		{name: "claude deny substitution", agent: "claude", input: "claude", cmd: "echo $(cat .env)", want: claudeOut("deny", "~parser.command_substitution")},
		{name: "claude ask", agent: "claude", input: "claude", cmd: "npm install", want: claudeOut("ask", askReason)},
		{name: "claude ask has a hint", agent: "claude", input: "claude", cmd: "npm install", want: claudeOut("ask", `~to allow it, add "npm install" to allow:`)},
		{name: "claude ask as deny (headless)", agent: "claude", input: "claude", cmd: "npm install", ask: true, want: claudeOut("deny", "~cannot ask")},
		{name: "claude detected", input: "claude", cmd: "cat .env", want: claudeOut("deny", envReason)},
		// Detected as Claude without CLAUDECODE=1: it could be Codex, which runs an ask.
		{name: "claude detected ask unproven", input: "claude", cmd: "npm install", want: claudeOut("deny", "~cannot ask")},
		// Codex: deny only; ask → deny; allow says nothing.
		{name: "codex allow", agent: "codex", input: "codex", cmd: "git status", want: obj{"hookSpecificOutput": nil}},
		{name: "codex deny", agent: "codex", input: "codex", cmd: "cat .env", want: claudeOut("deny", envReason)},
		{name: "codex ask is deny", agent: "codex", input: "codex", cmd: "npm install", want: claudeOut("deny", "~needs a person's approval")},
		{name: "codex detected", input: "codex", cmd: "npm install", want: claudeOut("deny", askReason)},
		// Gemini: deny/ask/allow in decision.
		{name: "gemini allow", agent: "gemini", input: "gemini", cmd: "git status", want: obj{"decision": "allow", "reason": nil}},
		{name: "gemini deny", agent: "gemini", input: "gemini", cmd: "cat .env", want: obj{"decision": "deny", "reason": envReason}},
		{name: "gemini ask", agent: "gemini", input: "gemini", cmd: "npm install", want: obj{"decision": "ask", "reason": askReason}},
		{name: "gemini ask as deny", agent: "gemini", input: "gemini", cmd: "npm install", ask: true, want: obj{"decision": "deny", "reason": "~cannot ask"}},
		{name: "gemini detected", input: "gemini", cmd: "cat .env", want: obj{"decision": "deny"}},
		// Cursor: both spellings of the messages; cwd "" falls back to the workspace root.
		{name: "cursor allow", agent: "cursor", input: "cursor", cmd: "git status", want: cursorOut("allow", "")},
		{name: "cursor deny", agent: "cursor", input: "cursor", cmd: "cat .env", want: cursorOut("deny", envReason)},
		{name: "cursor ask", agent: "cursor", input: "cursor", cmd: "npm install", want: cursorOut("ask", askReason)},
		{name: "cursor empty cwd", agent: "cursor", input: "cursor-nocwd", cmd: "cat .env", want: cursorOut("deny", envReason)},
		{name: "cursor preToolUse", agent: "cursor", input: "cursor-pretool", cmd: "cat .env", want: cursorOut("deny", envReason)},
		{name: "cursor detected", input: "cursor", cmd: "git status", want: cursorOut("allow", "")},
		// Cline: cancel; ask → cancel.
		{name: "cline allow", agent: "cline", input: "cline", cmd: "git status", want: obj{"cancel": false, "errorMessage": nil}},
		{name: "cline deny", agent: "cline", input: "cline", cmd: "cat .env", want: obj{"cancel": true, "errorMessage": envReason}},
		{name: "cline ask is cancel", agent: "cline", input: "cline", cmd: "npm install", want: obj{"cancel": true, "errorMessage": "~cannot ask"}},
		{name: "cline detected", input: "cline", cmd: "cat .env", want: obj{"cancel": true}},
		// opencode and Kilo (the plugin): allow, deny; ask → deny (a plugin cannot ask).
		{name: "opencode allow", agent: "opencode", input: "opencode", cmd: "git status", want: obj{"decision": "allow", "reason": nil, "args": nil}},
		{name: "opencode deny", agent: "opencode", input: "opencode", cmd: "cat .env", want: obj{"decision": "deny", "reason": envReason}},
		{name: "opencode ask is deny", agent: "opencode", input: "opencode", cmd: "npm install", want: obj{"decision": "deny", "reason": "~policy.no_match"}},
		{name: "opencode ask says why", agent: "opencode", input: "opencode", cmd: "npm install", want: obj{"decision": "deny", "reason": "~needs a person's approval"}},
		{name: "opencode detected", input: "opencode", cmd: "cat .env", want: obj{"decision": "deny", "reason": envReason}},
		{name: "kilo deny", agent: "kilo", input: "kilo", cmd: "cat .env", want: obj{"decision": "deny", "reason": envReason}},
		{name: "kilo detected", input: "kilo", cmd: "npm install", want: obj{"decision": "deny", "reason": "~cannot ask"}},
		{name: "kilo reads opencode's input", agent: "kilo", input: "opencode", cmd: "git status", want: obj{"decision": "allow"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			opts := hook.Options{Agent: hook.Agent(tt.agent), AskAsDeny: tt.ask, Env: []string{"HOME=/nonexistent"}}
			r := runHook(t, opts, strings.NewReader(fill(inputs[tt.input], root, tt.cmd)))
			if d := match(tt.want, r.out); len(d) > 0 || r.code != tt.code {
				t.Errorf("hook(%s, %q): exit %d (want %d), mismatch:\n%s\nstdout: %s", tt.agent, tt.cmd, r.code, tt.code, strings.Join(d, "\n"), r.raw)
			}
		})
	}
}

// TestClaudeSure: a detected Claude Code input may keep its ask when
// Claude Code's own CLAUDECODE=1 is in the hook's environment.
func TestClaudeSure(t *testing.T) {
	t.Parallel()
	root := project(t, testPolicy)
	r := runHook(t, hook.Options{Env: []string{"CLAUDECODE=1"}}, strings.NewReader(fill(inputs["claude"], root, "npm install")))
	if d := match(claudeOut("ask", "~policy.no_match"), r.out); len(d) > 0 {
		t.Errorf("mismatch: %v\n%s", d, r.raw)
	}
}

// TestFailClosed: every way the hook can fail ends in that agent's deny,
// with exit 2 where the agent blocks on it, and the reason on stderr.
func TestFailClosed(t *testing.T) {
	t.Parallel()
	root := project(t, testPolicy)
	bad := project(t, "version: 1\ndefault: allow\nallow: [ls\n") // YAML syntax error
	huge := fill(inputs["claude"], root, "echo "+strings.Repeat("a", 9<<20))
	deny := map[string]obj{
		"claude":   claudeOut("deny", "~fails closed"),
		"codex":    claudeOut("deny", "~fails closed"),
		"gemini":   {"decision": "deny", "reason": "~fails closed"},
		"cursor":   cursorOut("deny", "~fails closed"),
		"cline":    {"cancel": true, "errorMessage": "~fails closed"},
		"opencode": {"decision": "deny", "reason": "~fails closed"},
		"kilo":     {"decision": "deny", "reason": "~fails closed"},
		"":         {"decision": "deny", "permission": "deny", "cancel": true, "hookSpecificOutput": obj{"permissionDecision": "deny"}},
	}
	exit := map[string]int{"claude": 2, "codex": 2, "gemini": 2, "cursor": 0, "cline": 0, "opencode": 2, "kilo": 2, "": 2}
	tests := []struct {
		name, input string
		policy      string
		timeout     time.Duration
		reader      io.Reader
		agents      []string
		why         string
	}{
		{name: "malformed JSON", input: `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"`, why: "not a JSON object"},
		{name: "not an object", input: `["ls"]`, why: "not a JSON object"},
		{name: "empty input", input: ``, why: "not a JSON object"},
		{name: "trailing data", input: fill(inputs["claude"], root, "ls") + `{"x":1}`, why: "data after"},
		{name: "huge input", input: huge, why: "larger than"},
		{name: "unreadable stdin", reader: errReader{}, why: "cannot read"},
		{name: "stdin never closes", reader: blockReader{}, timeout: 200 * time.Millisecond, why: "did not finish"},
		{name: "policy fails to load", input: "AGENT", policy: "", why: "policy did not load"},
		{name: "policy file missing", input: "AGENT", policy: "/nonexistent/.cmdguard.yaml", why: "policy did not load"},
	}
	for _, tt := range tests {
		for _, agent := range []string{"claude", "codex", "gemini", "cursor", "cline", "opencode", "kilo", ""} {
			t.Run(tt.name+"/"+agent, func(t *testing.T) {
				t.Parallel()
				in := tt.reader
				if in == nil {
					s := tt.input
					if s == "AGENT" {
						key, dir := agent, root
						if key == "" {
							key = "claude"
						}
						if tt.policy == "" {
							dir = bad
						}
						s = fill(inputs[key], dir, "ls")
					}
					in = strings.NewReader(s)
				}
				opts := hook.Options{Agent: hook.Agent(agent), Policy: tt.policy, Timeout: tt.timeout}
				r := runHook(t, opts, in)
				want := deny[agent]
				if agent == "" && tt.input == "AGENT" {
					want = deny["claude"] // detected from the input
				}
				wantCode := exit[agent]
				if agent == "" && tt.input == "AGENT" {
					wantCode = 2
				}
				if d := match(want, r.out); len(d) > 0 || r.code != wantCode {
					t.Errorf("exit %d (want %d), mismatch:\n%s\nstdout: %s", r.code, wantCode, strings.Join(d, "\n"), r.raw)
				}
				if !strings.Contains(r.raw, tt.why) || !strings.Contains(r.stderr, tt.why) {
					t.Errorf("the reason %q is missing from stdout %q or stderr %q", tt.why, r.raw, r.stderr)
				}
			})
		}
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, fmt.Errorf("broken pipe") }

type blockReader struct{}

func (blockReader) Read([]byte) (int, error) { select {} }

// TestBadCalls: inputs that parse but cannot be judged are denied.
func TestBadCalls(t *testing.T) {
	t.Parallel()
	root := project(t, testPolicy)
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	tests := []struct {
		name, agent, input, why string
	}{
		{"missing command", "claude", `{"hook_event_name":"PreToolUse","cwd":` + q(root) + `,"tool_name":"Bash","tool_input":{"description":"x"}}`, "has no command"},
		{"command not a string", "claude", `{"hook_event_name":"PreToolUse","cwd":` + q(root) + `,"tool_name":"Bash","tool_input":{"command":["ls"]}}`, "not a string"},
		{"tool_input missing", "codex", `{"hook_event_name":"PreToolUse","turn_id":"t","cwd":` + q(root) + `,"tool_name":"Bash"}`, "no tool input"},
		{"no cwd", "claude", `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`, "no absolute working directory"},
		{"relative cwd", "claude", `{"hook_event_name":"PreToolUse","cwd":"proj","tool_name":"Bash","tool_input":{"command":"ls"}}`, "no absolute working directory"},
		{"wrong event", "claude", `{"hook_event_name":"PostToolUse","cwd":` + q(root) + `,"tool_name":"Bash","tool_input":{"command":"ls"}}`, "not PreToolUse"},
		{"another agent's input", "claude", fill(inputs["gemini"], root, "ls"), "looks like gemini"},
		{"unknown dialect", "", `{"event":"x","command":"ls"}`, "cannot tell which agent"},
		{"gemini missing command", "gemini", `{"hook_event_name":"BeforeTool","cwd":` + q(root) + `,"tool_name":"run_shell_command","tool_input":{}}`, "has no command"},
		{"cursor missing command", "cursor", `{"hook_event_name":"beforeShellExecution","cwd":` + q(root) + `,"workspace_roots":[]}`, "has no command"},
		{"cursor no cwd at all", "cursor", `{"hook_event_name":"beforeShellExecution","command":"ls","cwd":"","workspace_roots":[]}`, "no absolute working directory"},
		{"cline missing command", "cline", `{"hookName":"PreToolUse","workspaceRoots":[` + q(root) + `],"preToolUse":{"toolName":"execute_command","parameters":{}}}`, "has no command"},
		{"claude Read without a path", "claude", `{"hook_event_name":"PreToolUse","cwd":` + q(root) + `,"tool_name":"Read","tool_input":{}}`, "has no file_path"},
		{"empty command", "claude", fill(inputs["claude"], root, ""), "parser.empty"},
		{"opencode missing command", "opencode", `{"hook_event_name":"tool.execute.before","tool":"bash","directory":` + q(root) + `,"tool_input":{"workdir":"/"}}`, "has no command"},
		{"opencode args null", "opencode", `{"hook_event_name":"tool.execute.before","tool":"bash","directory":` + q(root) + `,"tool_input":null}`, "no tool input"},
		{"opencode no directory", "opencode", `{"hook_event_name":"tool.execute.before","tool":"bash","tool_input":{"command":"ls"}}`, "no absolute working directory"},
		{"opencode read without a path", "opencode", `{"hook_event_name":"tool.execute.before","tool":"read","directory":` + q(root) + `,"tool_input":{}}`, "has no filePath"},
		{"opencode apply_patch naming no file", "opencode", `{"hook_event_name":"tool.execute.before","tool":"apply_patch","directory":` + q(root) + `,"tool_input":{"patchText":"*** Begin Patch\n*** End Patch"}}`, "names no file"},
		{"opencode wrong event", "opencode", `{"hook_event_name":"tool.execute.after","tool":"bash","directory":` + q(root) + `,"tool_input":{"command":"ls"}}`, "is not tool.execute.before"},
		{"opencode input given to claude", "claude", fill(inputs["opencode"], root, "ls"), "looks like opencode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := runHook(t, hook.Options{Agent: hook.Agent(tt.agent)}, strings.NewReader(tt.input))
			if !strings.Contains(r.raw, tt.why) {
				t.Errorf("stdout %q lacks %q", r.raw, tt.why)
			}
			denied := r.out["decision"] == "deny" || r.out["permission"] == "deny" || r.out["cancel"] == true
			if h, ok := r.out["hookSpecificOutput"].(map[string]any); ok && h["permissionDecision"] == "deny" {
				denied = true
			}
			if !denied {
				t.Errorf("not a deny: %s", r.raw)
			}
		})
	}
}

// TestFileTools: the agents' own file tools are judged by the file checks;
// other tools pass untouched.
func TestFileTools(t *testing.T) {
	t.Parallel()
	root := project(t, testPolicy)
	env := filepath.Join(root, ".env")
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	oc := func(tool, args string) string {
		return `{"hook_event_name":"tool.execute.before","agent":"opencode","tool":"` + tool + `","session_id":"s","call_id":"c","directory":` + q(root) + `,"worktree":` + q(root) + `,"tool_input":` + args + `}`
	}
	claude := func(tool, param, path string) string {
		return `{"hook_event_name":"PreToolUse","cwd":` + q(root) + `,"tool_name":"` + tool + `","tool_input":{"` + param + `":` + q(path) + `,"content":"x"}}`
	}
	tests := []struct {
		name, agent, input string
		want               obj
	}{
		{"claude Read .env", "claude", claude("Read", "file_path", env), claudeOut("deny", "~Read of "+env+": deny: 1:8 ignore.denied")},
		{"claude Edit .env", "claude", claude("Edit", "file_path", env), claudeOut("deny", "~ignore.denied")},
		{"claude Write .env", "claude", claude("Write", "file_path", env), claudeOut("deny", "~ignore.denied")},
		{"claude MultiEdit .env", "claude", claude("MultiEdit", "file_path", env), claudeOut("deny", "~ignore.denied")},
		{"claude Write policy", "claude", claude("Write", "file_path", filepath.Join(root, ".cmdguard.yaml")), claudeOut("deny", "~path.protected")},
		{"claude Write git hook", "claude", claude("Write", "file_path", filepath.Join(root, ".git/hooks/pre-commit")), claudeOut("deny", "~path.protected")},
		{"claude NotebookEdit .env", "claude", claude("NotebookEdit", "notebook_path", env), claudeOut("deny", "~ignore.denied")},
		{"claude Read outside asks", "claude", claude("Read", "file_path", "/etc/hostname"), claudeOut("ask", "~path.outside_root")},
		{"claude Read source", "claude", claude("Read", "file_path", filepath.Join(root, "src/main.go")), claudeOut("allow", "")},
		{"claude Write source", "claude", claude("Write", "file_path", filepath.Join(root, "src/new.go")), claudeOut("allow", "")},
		{"claude Grep the project", "claude", `{"hook_event_name":"PreToolUse","cwd":` + q(root) + `,"tool_name":"Grep","tool_input":{"pattern":"TOKEN"}}`, claudeOut("ask", "~ignore.contains_ignored")},
		{"claude Grep .env", "claude", claude("Grep", "path", ".env"), claudeOut("deny", "~ignore.denied")},
		{"claude Grep src", "claude", claude("Grep", "path", "src"), claudeOut("allow", "")},
		{"cline search_files", "cline", `{"hookName":"PreToolUse","workspaceRoots":[` + q(root) + `],"preToolUse":{"toolName":"search_files","parameters":{"path":".","regex":"TOKEN"}}}`, obj{"cancel": true, "errorMessage": "~ignore.contains_ignored"}},
		{"claude other tool untouched", "claude", claude("WebFetch", "url", "https://example.com/.env"), obj{"hookSpecificOutput": nil, "decision": nil}},
		{"codex other tool untouched", "codex", `{"hook_event_name":"PreToolUse","turn_id":"t","cwd":` + q(root) + `,"tool_name":"apply_patch","tool_input":{}}`, obj{"hookSpecificOutput": nil}},
		{"gemini read_file .env", "gemini", `{"hook_event_name":"BeforeTool","cwd":` + q(root) + `,"tool_name":"read_file","tool_input":{"file_path":` + q(env) + `}}`, obj{"decision": "deny", "reason": "~ignore.denied"}},
		{"gemini write_file policy", "gemini", `{"hook_event_name":"BeforeTool","cwd":` + q(root) + `,"tool_name":"write_file","tool_input":{"file_path":".cmdguardignore","content":""}}`, obj{"decision": "deny", "reason": "~path.protected"}},
		{"gemini other tool untouched", "gemini", `{"hook_event_name":"BeforeTool","cwd":` + q(root) + `,"tool_name":"glob","tool_input":{"pattern":"*"}}`, obj{"decision": nil}},
		{"gemini dir_path", "gemini", `{"hook_event_name":"BeforeTool","cwd":` + q(filepath.Join(root, "src")) + `,"tool_name":"run_shell_command","tool_input":{"command":"cat .env","dir_path":".."}}`, obj{"decision": "deny", "reason": "~ignore.denied"}},
		// A directory the model names for one call does not pick the policy.
		{"gemini dir_path elsewhere", "gemini", `{"hook_event_name":"BeforeTool","cwd":` + q(root) + `,"tool_name":"run_shell_command","tool_input":{"command":"cat ` + root + `/keys.secret","dir_path":"/"}}`, obj{"decision": "deny", "reason": "~ignore.denied"}},
		{"gemini dir_path elsewhere relative", "gemini", `{"hook_event_name":"BeforeTool","cwd":` + q(root) + `,"tool_name":"run_shell_command","tool_input":{"command":"cat keys.secret","dir_path":"/tmp"}}`, obj{"decision": "ask", "reason": "~path.outside_root"}},
		{"cursor working_directory elsewhere", "cursor", `{"hook_event_name":"preToolUse","tool_name":"Shell","tool_input":{"command":"cat ` + root + `/keys.secret","working_directory":"/"},"cwd":` + q(root) + `,"workspace_roots":[` + q(root) + `]}`, cursorOut("deny", "~ignore.denied")},
		{"cursor second workspace root", "cursor", `{"hook_event_name":"beforeShellExecution","command":"cat keys.secret","cwd":` + q(root) + `,"workspace_roots":["/nonexistent",` + q(root) + `]}`, cursorOut("deny", "~ignore.denied")},
		{"cursor beforeReadFile .env", "cursor", `{"hook_event_name":"beforeReadFile","file_path":` + q(env) + `,"content":"TOKEN=x","workspace_roots":[` + q(root) + `]}`, cursorOut("deny", "~ignore.denied")},
		{"cursor preToolUse other tool", "cursor", `{"hook_event_name":"preToolUse","tool_name":"Read","tool_input":{},"workspace_roots":[` + q(root) + `]}`, obj{"permission": nil}},
		{"cline read_file .env", "cline", `{"hookName":"PreToolUse","workspaceRoots":[` + q(root) + `],"preToolUse":{"toolName":"read_file","parameters":{"path":".env"}}}`, obj{"cancel": true, "errorMessage": "~ignore.denied"}},
		{"cline write_to_file source", "cline", `{"hookName":"PreToolUse","workspaceRoots":[` + q(root) + `],"preToolUse":{"toolName":"write_to_file","parameters":{"path":"src/x.go","content":"x"}}}`, obj{"cancel": false}},
		{"cline other tool untouched", "cline", `{"hookName":"PreToolUse","workspaceRoots":[` + q(root) + `],"preToolUse":{"toolName":"browser_action","parameters":{}}}`, obj{"cancel": nil}},
		{"opencode read .env", "opencode", oc("read", `{"filePath":`+q(env)+`}`), obj{"decision": "deny", "reason": "~read of " + env + ": deny: 1:8 ignore.denied"}},
		{"opencode read relative .env", "opencode", oc("read", `{"filePath":".env"}`), obj{"decision": "deny", "reason": "~ignore.denied"}},
		{"opencode read source", "opencode", oc("read", `{"filePath":"src/main.go"}`), obj{"decision": "allow", "reason": nil}},
		{"opencode write policy", "opencode", oc("write", `{"filePath":".cmdguard.yaml","content":"default: allow"}`), obj{"decision": "deny", "reason": "~path.protected"}},
		{"opencode edit .env", "opencode", oc("edit", `{"filePath":`+q(env)+`,"oldString":"a","newString":"b"}`), obj{"decision": "deny", "reason": "~ignore.denied"}},
		{"opencode grep the project", "opencode", oc("grep", `{"pattern":"TOKEN"}`), obj{"decision": "deny", "reason": "~ignore.contains_ignored"}},
		{"opencode grep src", "opencode", oc("grep", `{"pattern":"x","path":"src"}`), obj{"decision": "allow"}},
		{"opencode glob the project", "opencode", oc("glob", `{"pattern":"**/*"}`), obj{"decision": "allow"}},
		{"opencode list .git/hooks is fine", "opencode", oc("list", `{"path":".git"}`), obj{"decision": "allow"}},
		{"opencode apply_patch .env among others", "opencode", oc("apply_patch", `{"patchText":"*** Begin Patch\n*** Update File: src/main.go\n@@\n-a\n+b\n*** Add File: .env\n+TOKEN=y\n*** End Patch"}`), obj{"decision": "deny", "reason": "~apply_patch of .env: deny"}},
		{"opencode apply_patch move onto the policy", "opencode", oc("apply_patch", `{"patchText":"*** Begin Patch\n*** Update File: src/main.go\n*** Move to: .cmdguard.yaml\n*** End Patch"}`), obj{"decision": "deny", "reason": "~path.protected"}},
		{"opencode apply_patch source", "opencode", oc("apply_patch", `{"patchText":"*** Begin Patch\n*** Update File: src/main.go\n@@\n-a\n+b\n*** End Patch"}`), obj{"decision": "allow"}},
		{"kilo notebook_read .env", "kilo", oc("notebook_read", `{"path":".env"}`), obj{"decision": "deny", "reason": "~ignore.denied"}},
		{"kilo notebook_execute asks", "kilo", oc("notebook_execute", `{"path":"src/a.ipynb","index":0}`), obj{"decision": "deny", "reason": "~cannot check"}},
		{"opencode other tool untouched", "opencode", oc("webfetch", `{"url":"https://example.com/.env"}`), obj{"decision": "allow", "reason": nil}},
		{"opencode workdir", "opencode", oc("bash", `{"command":"cat ../.env","workdir":"src"}`), obj{"decision": "deny", "reason": "~ignore.denied"}},
		// A directory the model names for one call does not pick the policy.
		{"opencode workdir elsewhere", "opencode", oc("bash", `{"command":"cat `+root+`/keys.secret","workdir":"/"}`), obj{"decision": "deny", "reason": "~ignore.denied"}},
	}
	// ~ in a file tool's path is the home directory, as the agents read it.
	home := filepath.Dir(root)
	tilde := "~/" + filepath.Base(root) + "/top.txt" // anchored: only the expanded path matches
	tests = append(tests, struct {
		name, agent, input string
		want               obj
	}{"claude Read ~/…/top.txt", "claude", claude("Read", "file_path", tilde), claudeOut("deny", "~ignore.denied")},
		struct {
			name, agent, input string
			want               obj
		}{"cline read_file ~/…/top.txt", "cline", `{"hookName":"PreToolUse","workspaceRoots":[` + q(root) + `],"preToolUse":{"toolName":"read_file","parameters":{"path":` + q(tilde) + `}}}`, obj{"cancel": true, "errorMessage": "~ignore.denied"}})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := runHook(t, hook.Options{Agent: hook.Agent(tt.agent), Env: []string{"HOME=" + home}}, strings.NewReader(tt.input))
			if d := match(tt.want, r.out); len(d) > 0 || r.code != 0 {
				t.Errorf("exit %d, mismatch:\n%s\nstdout: %s", r.code, strings.Join(d, "\n"), r.raw)
			}
		})
	}
}

// TestPolicyDir: a model can name the directory of one call (Codex's
// workdir arrives as cwd); the policy is still the session's project's,
// not one found from a directory of the model's choosing.
func TestPolicyDir(t *testing.T) {
	t.Parallel()
	root := project(t, testPolicy)
	lax := t.TempDir()
	if err := os.WriteFile(filepath.Join(lax, ".cmdguard.yaml"), []byte("version: 1\ndefault: allow\nrules: {path.outside_root: allow}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(root, "keys.secret")
	tests := []struct {
		name  string
		opts  hook.Options
		input string
		want  obj
	}{
		{"codex workdir elsewhere", hook.Options{Agent: "codex", Dir: root}, fill(inputs["codex"], lax, "cat "+secret), claudeOut("deny", "~ignore.denied")},
		{"claude project dir from env", hook.Options{Agent: "claude", Env: []string{"CLAUDE_PROJECT_DIR=" + root}}, fill(inputs["claude"], lax, "cat "+secret), claudeOut("deny", "~ignore.denied")},
		{"gemini project dir from env", hook.Options{Agent: "gemini", Env: []string{"GEMINI_PROJECT_DIR=" + root}}, fill(inputs["gemini"], lax, "cat "+secret), obj{"decision": "deny"}},
		// Inside the project, the command's own directory finds the policy.
		{"opencode workdir elsewhere", hook.Options{Agent: "opencode", Dir: lax}, strings.Replace(fill(inputs["opencode"], root, "cat "+secret), `"description"`, `"workdir":`+jsonString(lax)+`,"description"`, 1), obj{"decision": "deny", "reason": "~ignore.denied"}},
		{"codex workdir inside", hook.Options{Agent: "codex", Dir: root}, fill(inputs["codex"], filepath.Join(root, "src"), "cat ../keys.secret"), claudeOut("deny", "~ignore.denied")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := runHook(t, tt.opts, strings.NewReader(tt.input))
			if d := match(tt.want, r.out); len(d) > 0 {
				t.Errorf("mismatch:\n%s\nstdout: %s", strings.Join(d, "\n"), r.raw)
			}
		})
	}
}

// TestPolicyDirSymlink: a directory inside the project that is a symlink to
// a directory outside it is outside. Its lax .cmdguard.yaml, reached
// through the link, must not become the policy (issue 26: `cat
// PROJECT/.env` was allowed from PROJECT/link), in any dialect that takes
// a cwd from the agent.
func TestPolicyDirSymlink(t *testing.T) {
	t.Parallel()
	root := project(t, testPolicy)
	lax := t.TempDir()
	if err := os.WriteFile(filepath.Join(lax, ".cmdguard.yaml"), []byte("version: 1\ndefault: allow\nrules: {path.outside_root: allow, ignore.denied: allow}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "link")
	if err := os.Symlink(lax, link); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(root, ".env")
	for _, tt := range []struct {
		agent, input string
		opts         hook.Options
		want         obj
	}{
		{"claude", "claude", hook.Options{Agent: "claude", Env: []string{"CLAUDE_PROJECT_DIR=" + root}}, claudeOut("deny", "~ignore.denied")},
		{"claude", "claude", hook.Options{Agent: "claude", Dir: root}, claudeOut("deny", "~ignore.denied")},
		{"codex", "codex", hook.Options{Agent: "codex", Dir: root}, claudeOut("deny", "~ignore.denied")},
		{"gemini", "gemini", hook.Options{Agent: "gemini", Env: []string{"GEMINI_PROJECT_DIR=" + root}}, obj{"decision": "deny"}},
		{"cursor", "cursor-pretool", hook.Options{Agent: "cursor"}, nil},
	} {
		for _, sandbox := range []bool{false, true} {
			opts := tt.opts
			opts.Sandbox = sandbox && hook.Rewrites(hook.Agent(tt.agent))
			input := fill(inputs[tt.input], link, "cat "+secret)
			if tt.input == "cursor-pretool" {
				// The workspace root is the project; the tool's directory
				// is the link inside it.
				input = strings.Replace(fill(inputs[tt.input], link, "cat "+secret), `"workspace_roots":[`+jsonString(link)+`]`, `"workspace_roots":[`+jsonString(root)+`]`, 1)
			}
			r := runHook(t, opts, strings.NewReader(input))
			if tt.want != nil {
				if d := match(tt.want, r.out); len(d) > 0 {
					t.Errorf("%s (sandbox %v): mismatch:\n%s\nstdout: %s", tt.agent, sandbox, strings.Join(d, "\n"), r.raw)
				}
			}
			if strings.Contains(r.raw, `"allow"`) || strings.Contains(r.raw, "run --sandbox") {
				t.Errorf("%s (sandbox %v): allowed or rewritten through the symlinked cwd: %s", tt.agent, sandbox, r.raw)
			}
		}
	}
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
