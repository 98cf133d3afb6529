package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard/internal/egress/egresstest"
)

// TestRunSandboxEgress: cmdguard run --sandbox, in process, with a
// policy that lists a loopback npm registry (egresstest): npm install
// of a package succeeds through the proxy, and a request to a name the
// list does not hold (which resolves and serves the same) is refused,
// with "network: refused HOST:PORT, not in sandbox.network" on stderr;
// --format json lists both connections.
func TestRunSandboxEgress(t *testing.T) {
	needProgram(t, "npm")
	needProgram(t, "curl")
	reg, err := egresstest.Start("registry.test", []string{"cg-one"}, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	defer egresstest.Resolve("registry.test", "other.test")()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(tmp, "proj")
	os.MkdirAll(filepath.Join(tmp, "home"), 0o755)
	os.MkdirAll(root, 0o755)
	pol := fmt.Sprintf("version: 1\ndefault: allow\nsandbox:\n  network:\n    - registry.test:%d\n", reg.Port)
	for name, body := range map[string]string{".cmdguard.yaml": pol, "package.json": `{"name":"p","version":"1.0.0","private":true}` + "\n"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOME", filepath.Join(tmp, "home"))
	t.Setenv("npm_config_cache", filepath.Join(tmp, "npmcache"))
	t.Setenv("npm_config_registry", fmt.Sprintf("http://registry.test:%d/", reg.Port))
	t.Setenv("npm_config_update_notifier", "false")
	t.Setenv("npm_config_audit", "false")
	t.Setenv("npm_config_fund", "false")
	t.Setenv("npm_config_fetch_retries", "0")
	command := fmt.Sprintf(`npm install cg-one && test -f node_modules/cg-one/index.js && echo installed; curl -sS http://other.test:%d/cg-one; echo`, reg.Port)
	var stdout, stderr bytes.Buffer
	code := run([]string{"run", "--sandbox", "--cwd", root, "--", command}, strings.NewReader(""), &stdout, &stderr)
	refused := fmt.Sprintf("network: refused other.test:%d, not in sandbox.network\n", reg.Port)
	if code != 0 || !strings.Contains(stdout.String(), "installed") || !strings.Contains(stderr.String(), refused) {
		t.Errorf("cmdguard run --sandbox = %d\nstdout:\n%s\nstderr:\n%s\nwant 0, installed, and %q on stderr", code, stdout.String(), stderr.String(), refused)
	}
	if strings.Contains(stderr.String(), "network: refused registry.test") {
		t.Errorf("the listed registry was refused:\n%s", stderr.String())
	}

	stdout.Reset()
	stderr.Reset()
	code = run([]string{"run", "--sandbox", "--format", "json", "--cwd", root, "--", command}, strings.NewReader(""), &stdout, &stderr)
	var res struct {
		Sandbox struct {
			Connections []struct {
				Host    string `json:"host"`
				Port    int    `json:"port"`
				Allowed bool   `json:"allowed"`
				Rule    string `json:"rule"`
				Reason  string `json:"reason"`
			} `json:"connections"`
		} `json:"sandbox"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil || code != 0 {
		t.Fatalf("run --format json = %d, %v:\n%s\n%s", code, err, stdout.String(), stderr.String())
	}
	var allowed, refusedJSON bool
	for _, c := range res.Sandbox.Connections {
		allowed = allowed || c.Host == "registry.test" && c.Port == reg.Port && c.Allowed && c.Rule == fmt.Sprintf("registry.test:%d", reg.Port)
		refusedJSON = refusedJSON || c.Host == "other.test" && c.Port == reg.Port && !c.Allowed && c.Reason == "not in sandbox.network"
	}
	if !allowed || !refusedJSON {
		t.Errorf("connections %+v, want registry.test allowed by its rule and other.test refused", res.Sandbox.Connections)
	}
}
