package cmdguard

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cmdguard/cmdguard/exec"
)

// sbConnectEnv makes the test binary a client that connects to each Unix
// socket its value lists (one a line) and prints "connected PATH" once the
// server answered, or "refused PATH: ERROR".
const sbConnectEnv = "CMDGUARD_TEST_SB_CONNECT"

func init() {
	list, ok := os.LookupEnv(sbConnectEnv)
	if !ok {
		return
	}
	for p := range strings.SplitSeq(list, "\n") {
		c, err := net.DialTimeout("unix", p, 2*time.Second)
		if err != nil {
			fmt.Printf("refused %s: %v\n", p, err)
			continue
		}
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		b := make([]byte, 3)
		n, _ := c.Read(b)
		c.Close()
		if string(b[:n]) == "ok\n" {
			fmt.Printf("connected %s\n", p)
		} else {
			fmt.Printf("refused %s: no answer\n", p)
		}
	}
	os.Exit(0)
}

// TestSandboxSocketsPolicy: sandbox.sockets lets a sandboxed command
// reach the sockets it lists (an ssh agent's, here through a link in the
// home directory to a socket in /tmp) and no other: a terminal
// multiplexer's server socket in the home directory, which an
// unsandboxed command reaches (and its server then runs what it is
// asked, outside any sandbox), is out of reach.
func TestSandboxSocketsPolicy(t *testing.T) {
	t.Parallel()
	p := newSBProject(t, "version: 1\ndefault: allow\nsandbox:\n  network: false\n  sockets: [~/.agent.sock]\n", false)
	realHome, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	// A home outside /tmp (the sandbox's /tmp is a layer of its own,
	// which keeps the sockets there out of reach already).
	home, err := os.MkdirTemp(realHome, ".cmdguard-sbsockets-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	if home, err = filepath.EvalSymlinks(home); err != nil {
		t.Fatal(err)
	}
	agentDir := filepath.Join(p.tmp, "ssh-agent")
	os.Mkdir(agentDir, 0o700)
	marks := filepath.Join(p.tmp, "marks")
	os.Mkdir(marks, 0o700)
	serve := func(path, mark string) {
		l, err := net.Listen("unix", path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { l.Close() })
		go func() {
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				os.WriteFile(filepath.Join(marks, mark), nil, 0o644)
				c.Write([]byte("ok\n"))
				c.Close()
			}
		}()
	}
	serve(home+"/.tmux-1000-default", "tmux")
	serve(agentDir+"/agent.1", "agent")
	if err := os.Symlink(agentDir+"/agent.1", home+"/.agent.sock"); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env := slices.DeleteFunc(p.env(), func(kv string) bool { return strings.HasPrefix(kv, "HOME=") })
	env = append(env, "HOME="+home, sbConnectEnv+"="+home+"/.tmux-1000-default\n"+home+"/.agent.sock")
	g := p.guard()
	try := func(sandboxed bool) (string, []string) {
		os.RemoveAll(marks)
		os.Mkdir(marks, 0o700)
		c := exec.Cmd{Command: fmt.Sprintf("%q", exe), Dir: p.root, Env: env, HardTimeout: time.Minute}
		if sandboxed {
			req := RunRequest{Request: Request{Command: c.Command, BaseEnv: env}, Sandbox: true}
			c.Sandbox = g.sandbox(req, g.Policy())
		}
		r, err := exec.Run(t.Context(), c)
		if err != nil {
			t.Fatal(err)
		}
		if sandboxed && (r.Sandbox == nil || !r.Sandbox.Applied) {
			t.Fatalf("not applied: %+v", r.Sandbox)
		}
		var hit []string
		ents, _ := os.ReadDir(marks)
		for _, e := range ents {
			hit = append(hit, e.Name())
		}
		return sbOutput(r), hit
	}
	out, hit := try(false)
	if !slices.Equal(hit, []string{"agent", "tmux"}) {
		t.Fatalf("without the sandbox, the servers ran %v, want [agent tmux]: the case proves nothing\n%s", hit, out)
	}
	out, hit = try(true)
	if !slices.Equal(hit, []string{"agent"}) || !strings.Contains(out, "connected "+home+"/.agent.sock\n") ||
		!strings.Contains(out, "refused "+home+"/.tmux-1000-default:") {
		t.Errorf("in the sandbox, the servers ran %v, want [agent]\n%s", hit, out)
	}
}
