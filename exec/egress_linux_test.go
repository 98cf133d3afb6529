package exec_test

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/cmdguard/cmdguard/exec"
)

// fakeProxy answers each line with "pong LINE" and records the line as
// a connection's host.
type fakeProxy struct {
	startErr error
	mu       sync.Mutex
	l        net.Listener
	conns    []exec.Connection
	stopped  int
}

func (p *fakeProxy) Start(l net.Listener) error {
	if p.startErr != nil {
		return p.startErr
	}
	p.l = l
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			line, _ := bufio.NewReader(c).ReadString('\n')
			line = strings.TrimSpace(line)
			p.mu.Lock()
			p.conns = append(p.conns, exec.Connection{Host: line, Port: 443, Via: "test"})
			p.mu.Unlock()
			fmt.Fprintf(c, "pong %s\n", line)
			c.Close()
		}
	}()
	return nil
}

func (p *fakeProxy) Stop() []exec.Connection {
	p.l.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stopped++
	return slices.Clone(p.conns)
}

// TestSandboxProxy: with a Proxy, the command reaches it on
// 127.0.0.1:ProxyPort from inside a network namespace that has nothing
// else: not the host's own 127.0.0.1 services, not an IP address, not a
// UDP destination, not a DNS server.
func TestSandboxProxy(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	hostPort := ln.Addr().(*net.TCPAddr).Port
	dir := sandboxProject(t)
	cmd := fmt.Sprintf(`exec 3<>/dev/tcp/127.0.0.1/%d && echo proxy-reached
echo registry.test >&3; read -r reply <&3; echo "reply: $reply"
(exec 4<>/dev/tcp/127.0.0.1/%d) 2>/dev/null && echo host-loopback-reached
(exec 4<>/dev/tcp/1.1.1.1/80) 2>/dev/null && echo ip-reached
(echo x >/dev/udp/8.8.8.8/53) 2>/dev/null && echo udp-sent
getent hosts example.org >/dev/null 2>&1 && echo dns-answered
env | grep -E '^(HTTPS?_PROXY|https?_proxy|ALL_PROXY|all_proxy|npm_config_(https_)?proxy|PIP_PROXY|GIT_CONFIG_(COUNT|KEY_0|VALUE_0))=' | sort
git config --get http.proxy`, exec.ProxyPort, hostPort)
	p := &fakeProxy{}
	r := sandboxRun(t, dir, cmd, &exec.Sandbox{Proxy: p})
	url := fmt.Sprintf("http://127.0.0.1:%d", exec.ProxyPort)
	want := fmt.Sprintf(`proxy-reached
reply: pong registry.test
ALL_PROXY=socks5h://127.0.0.1:%[1]d
GIT_CONFIG_COUNT=1
GIT_CONFIG_KEY_0=http.proxy
GIT_CONFIG_VALUE_0=%[2]s
HTTPS_PROXY=%[2]s
HTTP_PROXY=%[2]s
PIP_PROXY=%[2]s
all_proxy=socks5h://127.0.0.1:%[1]d
http_proxy=%[2]s
https_proxy=%[2]s
npm_config_https_proxy=%[2]s
npm_config_proxy=%[2]s
%[2]s
`, exec.ProxyPort, url)
	if got := string(r.Stdout.Data); got != want {
		t.Errorf("output:\n%s\nwant:\n%s\nstderr: %s", got, want, r.Stderr.Data)
	}
	if r.Sandbox == nil || r.Sandbox.Network || !slices.Contains(r.Sandbox.Layers, "net") || !slices.Contains(r.Sandbox.Layers, "proxy") {
		t.Errorf("report %+v, want no network, layers net and proxy", r.Sandbox)
	}
	if r.Sandbox == nil || len(r.Sandbox.Connections) != 1 || r.Sandbox.Connections[0].Host != "registry.test" || p.stopped != 1 {
		t.Errorf("connections %+v (stopped %d), want registry.test, stopped once", r.Sandbox, p.stopped)
	}
	// Network: true has no proxy and no namespace of its own: the proxy
	// is not started.
	p2 := &fakeProxy{}
	r = sandboxRun(t, dir, fmt.Sprintf(`(exec 3<>/dev/tcp/127.0.0.1/%d) && echo host-loopback-reached; echo "${HTTPS_PROXY-unset}"`, hostPort), &exec.Sandbox{Network: true, Proxy: p2})
	if got := string(r.Stdout.Data); got != "host-loopback-reached\nunset\n" || p2.l != nil {
		t.Errorf("Network true with a Proxy: %q (proxy started %v)", got, p2.l != nil)
	}
}

// TestSandboxProxyStartFails: a proxy that cannot start is a sandbox
// that cannot be set up: refused when required, and the command does
// not run.
func TestSandboxProxyStartFails(t *testing.T) {
	t.Parallel()
	dir := sandboxProject(t)
	marker := filepath.Join(dir, "ran")
	sb := &exec.Sandbox{Proxy: &fakeProxy{startErr: errors.New("no proxy today")}}
	_, err := exec.Start(testContext(t), exec.Cmd{Command: "touch " + marker, Dir: dir, Sandbox: sb})
	if err == nil || !strings.Contains(err.Error(), "no proxy today") {
		t.Errorf("Start: err = %v, want the proxy's error", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the command ran without its proxy")
	}
}

// TestProxyEnvKeepsGitConfig: the proxy's git setting is added after the
// caller's GIT_CONFIG_* entries, not over them.
func TestProxyEnvKeepsGitConfig(t *testing.T) {
	t.Parallel()
	dir := sandboxProject(t)
	r := run(t, exec.Cmd{Command: `git config --get user.name; git config --get http.proxy; echo "$GIT_CONFIG_COUNT $HTTPS_PROXY"`, Dir: dir,
		Env: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=user.name", "GIT_CONFIG_VALUE_0=someone",
			"HTTPS_PROXY=http://evil.example:1"},
		Sandbox: &exec.Sandbox{Proxy: &fakeProxy{}}})
	want := fmt.Sprintf("someone\nhttp://127.0.0.1:%[1]d\n2 http://127.0.0.1:%[1]d\n", exec.ProxyPort)
	if got := string(r.Stdout.Data); got != want {
		t.Errorf("got %q, want %q (stderr %s)", got, want, r.Stderr.Data)
	}
}
