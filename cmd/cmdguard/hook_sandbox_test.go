package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHookSandboxRewrite: with --sandbox, the Claude Code hook allows what
// the default policy allows only under the sandbox (go test) by rewriting
// the command into `cmdguard run --sandbox`, keeping the tool input's
// other fields; the rewritten command really runs sandboxed: the test it
// runs cannot read .env, which the same test reads when run directly.
func TestHookSandboxRewrite(t *testing.T) {
	t.Parallel()
	bin := cmdguardBin(t)
	dir := t.TempDir()
	dir, _ = filepath.EvalSymlinks(dir)
	files := map[string]string{
		"go.mod":    "module x\n\ngo 1.22\n",
		".env":      "TOKEN=hunter2\n",
		"x_test.go": "package x\n\nimport (\n\t\"fmt\"\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestRead(t *testing.T) {\n\tb, _ := os.ReadFile(\".env\")\n\tfmt.Printf(\"read[%s]\\n\", b)\n}\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := osexec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	env := append(os.Environ(), "CLAUDECODE=1", "GOFLAGS=-count=1", "GOCACHE="+filepath.Join(t.TempDir(), "cache"))
	hook := func(extra ...string) map[string]any {
		t.Helper()
		in := fmt.Sprintf(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"go test ./...","description":"run the tests","timeout":60000},"cwd":%q}`, dir)
		cmd := osexec.Command(bin, append([]string{"hook", "--agent", "claude"}, extra...)...)
		cmd.Dir, cmd.Env, cmd.Stdin = dir, env, strings.NewReader(in)
		out, _ := cmd.Output()
		var m struct{ HookSpecificOutput map[string]any }
		if err := json.Unmarshal(out, &m); err != nil {
			t.Fatalf("hook %v printed %q: %v", extra, out, err)
		}
		return m.HookSpecificOutput
	}
	if o := hook(); o["permissionDecision"] != "ask" || o["updatedInput"] != nil {
		t.Errorf("without --sandbox: %v; want ask and no rewrite", o)
	}
	o := hook("--sandbox")
	upd, _ := o["updatedInput"].(map[string]any)
	if o["permissionDecision"] != "allow" || upd == nil || upd["description"] != "run the tests" || upd["timeout"] != 60000.0 {
		t.Fatalf("with --sandbox: %v; want allow with the tool input rewritten", o)
	}
	line, _ := upd["command"].(string)
	if !strings.Contains(line, " run --sandbox --cwd ") || !strings.HasSuffix(line, " -- 'go test ./...'") {
		t.Fatalf("rewritten command %q", line)
	}
	run := func(command string) string {
		cmd := osexec.Command("bash", "-c", command)
		cmd.Dir, cmd.Env = dir, env
		var b bytes.Buffer
		cmd.Stdout, cmd.Stderr = &b, &b
		cmd.Run()
		return b.String()
	}
	if out := run("go test -v ./..."); !strings.Contains(out, "read[TOKEN=hunter2") {
		t.Fatalf("the test does not read .env without the sandbox, so this proves nothing:\n%s", out)
	}
	out := run(strings.Replace(line, "'go test ./...'", "'go test -v ./...'", 1))
	if strings.Contains(out, "hunter2") || !strings.Contains(out, "read[") {
		t.Errorf("the rewritten command did not run the test sandboxed:\n%s", out)
	}
}
