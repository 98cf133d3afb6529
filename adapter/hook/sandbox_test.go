package hook_test

import (
	"bytes"
	"encoding/json"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard/adapter/hook"
)

// sandboxPolicy is the embedded default's rule for runners: go test is
// allowed only where the sandbox backs the allow (no policy file).
const sandboxPolicy = ""

// rewritten returns the tool input an answer rewrites the command into,
// in the agent's own field, or nil.
func rewritten(agent string, out map[string]any) map[string]any {
	var m any
	switch agent {
	case "claude", "codex":
		hso, _ := out["hookSpecificOutput"].(map[string]any)
		if hso["permissionDecision"] != "allow" {
			return nil
		}
		m = hso["updatedInput"]
	case "gemini":
		hso, _ := out["hookSpecificOutput"].(map[string]any)
		if out["decision"] != "allow" || hso["hookEventName"] != "BeforeTool" {
			return nil
		}
		m = hso["tool_input"]
	case "opencode", "kilo":
		if out["decision"] != "allow" {
			return nil
		}
		m = out["args"]
	}
	r, _ := m.(map[string]any)
	return r
}

// argvOf runs line with the real shell and returns the arguments the
// program it names receives: bin is a script that writes them, NUL
// separated, to a file.
func argvOf(t *testing.T, shell, bin, line string) []string {
	t.Helper()
	out := bin + ".args"
	os.Remove(out)
	cmd := osexec.Command(shell, "-c", line)
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s -c %q: %v\n%s", shell, line, err, b.String())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("%s -c %q did not run the program: %v\n%s", shell, line, err, b.String())
	}
	return strings.Split(strings.TrimSuffix(string(data), "\x00"), "\x00")
}

// TestSandboxRewrite: with Sandbox, Claude Code, Codex and Gemini CLI get
// an allowed runner (go test, which the default policy allows only under
// the sandbox) back as an allow that rewrites the command, in each
// agent's own field, into `cmdguard run --sandbox --cwd DIR -- 'CMD'`,
// every other field of the input kept; the real shell hands cmdguard the
// original command exactly and the directory it was to run in. Without
// Sandbox each keeps today's answer (ask; Codex's deny), and Cursor and
// Cline, which cannot rewrite, keep it with Sandbox too.
func TestSandboxRewrite(t *testing.T) {
	root := project(t, "version: 1\ndefault: ask\n")
	os.Remove(filepath.Join(root, ".cmdguard.yaml")) // the embedded default
	bin := filepath.Join(t.TempDir(), "cmd guard's")
	script := "#!/bin/sh\nfor a; do printf '%s\\000' \"$a\"; done > \"$0.args\"\n"
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	gemSub := `{"session_id":"d3ea","cwd":CWD,"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":CMD,"description":"x","dir_path":"src","is_background":false}}`
	cases := []struct {
		name, agent, input, cmd, cwd string
		keep                         map[string]any // other fields the rewrite keeps
		wantPlain                    string         // the answer without Sandbox
	}{
		{"claude", "claude", inputs["claude"], "go test ./...", root, map[string]any{"description": "x"}, "ask"},
		{"codex", "codex", inputs["codex"], "go test ./...", root, nil, "deny"},
		{"gemini", "gemini", inputs["gemini"], "go test ./...", root, map[string]any{"description": "x"}, "ask"},
		{"gemini dir_path", "gemini", gemSub, "go test ./...", filepath.Join(root, "src"), map[string]any{"description": "x", "dir_path": "src", "is_background": false}, "ask"},
		{"opencode", "opencode", inputs["opencode"], "go test ./...", root, map[string]any{"description": "run it"}, "deny"},
		{"kilo workdir", "kilo", strings.Replace(inputs["kilo"], `"description"`, `"workdir":"src","description"`, 1), "go test ./...", filepath.Join(root, "src"), map[string]any{"description": "run it", "workdir": "src"}, "deny"},
		{"codex quoting", "codex", inputs["codex"], "go test -run 'A|B\n\t\\'\"C\\\"D\" -v ./... # it's \"q\" $(id) `x` é", root, nil, "deny"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := fill(c.input, root, c.cmd)
			env := []string{"HOME=" + root, "CLAUDECODE=1"}
			plain := runHook(t, hook.Options{Agent: hook.Agent(c.agent), Env: env, Dir: root}, strings.NewReader(in))
			if got := verdictOf(c.agent, plain.out); got != c.wantPlain || rewritten(c.agent, plain.out) != nil {
				t.Errorf("without Sandbox: %s (%s), want %s and no rewrite", got, plain.raw, c.wantPlain)
			}
			r := runHook(t, hook.Options{Agent: hook.Agent(c.agent), Env: env, Dir: root, Sandbox: true, Bin: bin}, strings.NewReader(in))
			upd := rewritten(c.agent, r.out)
			if upd == nil || r.code != hook.ExitOK {
				t.Fatalf("with Sandbox: %s (exit %d); want an allow that rewrites the command", r.raw, r.code)
			}
			for k, v := range c.keep {
				if upd[k] != v {
					t.Errorf("the rewrite lost %s: %v, want %v", k, upd[k], v)
				}
			}
			line, _ := upd["command"].(string)
			want, err := hook.SandboxCommand(bin, "", c.cwd, c.cmd)
			if err != nil || line != want {
				t.Fatalf("rewritten command %q, want %q (%v)", line, want, err)
			}
			for _, sh := range []string{"bash", "zsh"} {
				t.Run(sh, func(t *testing.T) {
					needProgram(t, sh)
					argv := argvOf(t, sh, bin, line)
					wantArgv := []string{"run", "--sandbox", "--cwd", c.cwd, "--", c.cmd}
					if strings.Join(argv, "\x00") != strings.Join(wantArgv, "\x00") {
						t.Errorf("%s hands cmdguard %q, want %q", sh, argv, wantArgv)
					}
				})
			}
		})
	}
	// Not allowed even under the sandbox (git reads .env out of history,
	// which the sandbox does not hide): no rewrite, the usual answer.
	for _, agent := range []string{"claude", "codex", "gemini", "opencode", "kilo"} {
		r := runHook(t, hook.Options{Agent: hook.Agent(agent), Env: []string{"HOME=" + root, "CLAUDECODE=1"}, Dir: root, Sandbox: true, Bin: bin},
			strings.NewReader(fill(inputs[agent], root, "git show HEAD:.env")))
		if verdictOf(agent, r.out) != "deny" || rewritten(agent, r.out) != nil {
			t.Errorf("%s, git show HEAD:.env with Sandbox: %s; want a deny and no rewrite", agent, r.raw)
		}
	}
	// What the sandbox enforces is allowed and rewritten, and says why
	// (issue 24): cat .env reads an empty file there.
	for _, agent := range []string{"claude", "codex", "gemini", "opencode", "kilo"} {
		r := runHook(t, hook.Options{Agent: hook.Agent(agent), Env: []string{"HOME=" + root, "CLAUDECODE=1"}, Dir: root, Sandbox: true, Bin: bin},
			strings.NewReader(fill(inputs[agent], root, "cat .env")))
		if verdictOf(agent, r.out) != "allow" || rewritten(agent, r.out) == nil || ((agent == "claude" || agent == "codex") && !strings.Contains(r.raw, "the sandbox hides '.env'")) {
			t.Errorf("%s, cat .env with Sandbox: %s; want an allow that says the sandbox hides .env, rewritten", agent, r.raw)
		}
	}
	// A command run outside the project (Codex's workdir, Gemini's
	// dir_path, Claude's shell after a cd): `cmdguard run --cwd DIR` would
	// take DIR's project and sandbox, where none of this project's secrets
	// is hidden. Not rewritten; judged as unsandboxed.
	elsewhere := t.TempDir()
	for _, agent := range []string{"claude", "codex", "gemini", "opencode"} {
		env := []string{"HOME=" + root, "CLAUDECODE=1", "CLAUDE_PROJECT_DIR=" + root, "GEMINI_PROJECT_DIR=" + root}
		in := fill(inputs[agent], elsewhere, "go test ./...")
		if agent == "opencode" {
			in = strings.Replace(fill(inputs[agent], root, "go test ./..."), `"description"`, `"workdir":`+strconvQuote(elsewhere)+`,"description"`, 1)
		}
		if agent == "gemini" {
			in = fill(gemSub, root, "go test ./...")
			in = strings.Replace(in, `"dir_path":"src"`, `"dir_path":`+strconvQuote(elsewhere), 1)
		}
		r := runHook(t, hook.Options{Agent: hook.Agent(agent), Env: env, Dir: root, Sandbox: true, Bin: bin}, strings.NewReader(in))
		want := map[string]string{"claude": "ask", "codex": "deny", "gemini": "ask", "opencode": "deny"}[agent]
		if verdictOf(agent, r.out) != want || rewritten(agent, r.out) != nil || !strings.Contains(r.raw, "is outside the project") {
			t.Errorf("%s, go test in %s (outside the project) with Sandbox: %s; want %s, no rewrite, and why", agent, elsewhere, r.raw, want)
		}
	}
	// Cursor and Cline cannot rewrite: Sandbox changes nothing there.
	for _, agent := range []string{"cursor", "cline"} {
		in := fill(inputs[agent], root, "go test ./...")
		a := runHook(t, hook.Options{Agent: hook.Agent(agent), Dir: root}, strings.NewReader(in)).raw
		b := runHook(t, hook.Options{Agent: hook.Agent(agent), Dir: root, Sandbox: true, Bin: bin}, strings.NewReader(in)).raw
		if a != b || strings.Contains(b, `"allow"`) || strings.Contains(b, `"cancel":false`) {
			t.Errorf("%s: with Sandbox %s, without %s; want the same, no allow", agent, b, a)
		}
	}
}

func strconvQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

// verdictOf reads the verdict out of an answer in agent's dialect.
func verdictOf(agent string, out map[string]any) string {
	switch agent {
	case "claude", "codex":
		hso, _ := out["hookSpecificOutput"].(map[string]any)
		if hso == nil {
			return "allow" // Codex's allow: no output
		}
		s, _ := hso["permissionDecision"].(string)
		return s
	case "gemini", "opencode", "kilo":
		s, _ := out["decision"].(string)
		return s
	}
	b, _ := json.Marshal(out)
	return string(b)
}
