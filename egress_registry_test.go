package cmdguard

import (
	"context"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cmdguard/cmdguard/exec"
	"github.com/cmdguard/cmdguard/internal/egress"
	"github.com/cmdguard/cmdguard/internal/egress/egresstest"
)

// TestSandboxEgressRegistries: a real npm install and a real go mod
// download succeed through the sandbox's proxy, from registries served on
// loopback under names the policy's sandbox.network lists (the proxy
// resolves them to 127.0.0.1 through egresstest.Resolve; nothing else
// resolves them, so without the proxy the same install fails, which the
// control row shows). A registry the list does not name is refused with
// the reason in the run's connections and in what curl prints. The
// policy is strict, as the embedded default: the gate allows the
// installs because the sandbox's network is a host list (an option
// naming another registry is a guard: the unlisted-registry row allows
// it by a longer prefix, so that the proxy is what refuses). .ci/run
// runs it as root and as a normal user (its name holds Sandbox).
func TestSandboxEgressRegistries(t *testing.T) {
	for _, tool := range []string{"npm", "node", "go", "curl"} {
		needProgram(t, tool)
	}
	reg, err := egresstest.Start("registry.test", []string{"cg-tiny", "cg-tiny-dep"}, true, []string{"mod.test/hello"})
	if err != nil {
		t.Fatal(err)
	}
	defer reg.Close()
	defer egresstest.Resolve("registry.test", "goproxy.test", "other.test")()

	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(tmp, "proj")
	port := reg.Port
	files := map[string]string{
		".cmdguard.yaml": fmt.Sprintf("version: 1\ndefault: ask\nstrict: true\nallow: [npm install, npm install --registry, go mod download, go run, node, curl, rm]\nrules: {policy.unknown_option: allow}\nsandbox:\n  enabled: true\n  network:\n    - registry.test:%d\n    - goproxy.test:%d\n", port, port),
		"package.json":   `{"name":"p","version":"1.0.0","private":true}` + "\n",
		"go.mod":         "module example.com/p\n\ngo 1.21\n\nrequire mod.test/hello v1.0.0\n",
		"main.go":        "package main\n\nimport (\n\t\"fmt\"\n\n\t\"mod.test/hello\"\n)\n\nfunc main() { fmt.Println(hello.Hello()) }\n",
	}
	for name, body := range files {
		f := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	home := filepath.Join(tmp, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + home,
		fmt.Sprintf("npm_config_registry=http://registry.test:%d/", port),
		"npm_config_cache=" + filepath.Join(tmp, "npmcache"),
		"npm_config_update_notifier=false", "npm_config_audit=false", "npm_config_fund=false",
		"npm_config_fetch_retries=0", "npm_config_fetch_timeout=20000",
		fmt.Sprintf("GOPROXY=http://goproxy.test:%d", port),
		"GOSUMDB=off", "GOFLAGS=-mod=mod", "GOTOOLCHAIN=local",
		"GOPATH=" + filepath.Join(tmp, "gopath"), "GOCACHE=" + goCache(),
	}
	g, err := OpenPolicy(filepath.Join(root, ".cmdguard.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	run := func(t *testing.T, command string) exec.Result {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		d, r, err := g.Run(ctx, RunRequest{Request: Request{Command: command, Cwd: root, BaseEnv: env}, Sandbox: true})
		if err != nil {
			t.Fatalf("Run(%q): %v (decision %v)", command, err, d)
		}
		if r.Sandbox == nil || !r.Sandbox.Applied || r.Sandbox.Network {
			t.Fatalf("Run(%q): sandbox %+v, want applied without the whole network", command, r.Sandbox)
		}
		return r
	}
	exitText := func(r exec.Result) string {
		if r.ExitCode == nil {
			return "no exit code, status " + string(r.Status)
		}
		return fmt.Sprintf("exit %d", *r.ExitCode)
	}
	allowedTo := func(r exec.Result, host string) bool {
		for _, c := range r.Sandbox.Connections {
			if c.Host == host && c.Port == port && c.Allowed && c.Rule == fmt.Sprintf("%s:%d", host, port) && c.Reason == "" {
				return true
			}
		}
		return false
	}

	// The control: outside the sandbox nothing resolves registry.test
	// (the proxy does, for the sandbox), and the install fails.
	c := osexec.Command("npm", "install", "cg-tiny")
	c.Dir = t.TempDir()
	c.Env = env
	os.WriteFile(filepath.Join(c.Dir, "package.json"), []byte(files["package.json"]), 0o644)
	if out, err := c.CombinedOutput(); err == nil {
		t.Fatalf("npm install without the sandbox's proxy succeeded, so the rows below prove nothing:\n%s", out)
	}

	t.Run("npm install", func(t *testing.T) {
		r := run(t, "npm install cg-tiny && node -e 'console.log(require(\"cg-tiny\"), require(\"cg-tiny-dep\"))'")
		out := sbOutput(r)
		if r.ExitCode == nil || *r.ExitCode != 0 || !strings.Contains(out, "cg-tiny cg-tiny-dep") {
			t.Fatalf("npm install through the proxy failed (%s):\n%s", exitText(r), out)
		}
		if !allowedTo(r, "registry.test") {
			t.Errorf("connections %+v, want registry.test:%d allowed by its rule", r.Sandbox.Connections, port)
		}
		for _, p := range []string{"/cg-tiny", "/cg-tiny/-/cg-tiny-1.0.0.tgz", "/cg-tiny-dep", "/cg-tiny-dep/-/cg-tiny-dep-1.0.0.tgz"} {
			if reg.Hits()[p] == 0 {
				t.Errorf("the registry never served %s (hits %v)", p, reg.Hits())
			}
		}
		// The project is writable: the install stays.
		if _, err := os.Stat(filepath.Join(root, "node_modules/cg-tiny-dep/index.js")); err != nil {
			t.Errorf("node_modules after the run: %v", err)
		}
	})

	t.Run("go mod download", func(t *testing.T) {
		r := run(t, "go mod download -x && go run .")
		out := sbOutput(r)
		if r.ExitCode == nil || *r.ExitCode != 0 || !strings.Contains(string(r.Stdout.Data), "hello from mod.test/hello") {
			t.Fatalf("go mod download through the proxy failed (%s):\n%s", exitText(r), out)
		}
		if !allowedTo(r, "goproxy.test") {
			t.Errorf("connections %+v, want goproxy.test:%d allowed by its rule", r.Sandbox.Connections, port)
		}
		for _, p := range []string{"/mod.test/hello/@v/v1.0.0.mod", "/mod.test/hello/@v/v1.0.0.zip"} {
			if reg.Hits()[p] == 0 {
				t.Errorf("the proxy never served %s (hits %v)", p, reg.Hits())
			}
		}
	})

	t.Run("unlisted registry", func(t *testing.T) {
		// other.test resolves and serves the same packages: only the
		// list refuses it.
		before := reg.Hits()["/cg-tiny"]
		r := run(t, fmt.Sprintf("rm -rf node_modules package-lock.json; npm install --registry http://other.test:%d/ cg-tiny", port))
		out := sbOutput(r)
		if r.ExitCode != nil && *r.ExitCode == 0 {
			t.Fatalf("npm install from an unlisted registry succeeded:\n%s", out)
		}
		if reg.Hits()["/cg-tiny"] != before {
			t.Errorf("the unlisted registry was reached")
		}
		refused := false
		for _, c := range r.Sandbox.Connections {
			if c.Host == "other.test" && c.Port == port {
				refused = !c.Allowed && c.Reason == egress.NotListed && c.Rule == ""
				if !refused {
					break
				}
			}
		}
		if !refused {
			t.Errorf("connections %+v, want other.test:%d refused (%s)", r.Sandbox.Connections, port, egress.NotListed)
		}
		want := fmt.Sprintf("cmdguard: refused other.test:%d, %s", port, egress.NotListed)
		if !strings.Contains(out, "403") {
			t.Errorf("npm's output does not show the proxy's 403 (%q):\n%s", want, out)
		}
		// curl prints the proxy's answer itself: the reason in words.
		r = run(t, fmt.Sprintf("curl -sS http://other.test:%d/cg-tiny", port))
		if out := sbOutput(r); !strings.Contains(out, want) {
			t.Errorf("curl of an unlisted host printed %q, want %q", out, want)
		}
	})
}
