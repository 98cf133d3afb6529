package main

import (
	"bufio"
	"context"
	"net/http"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

const mcpTestPolicy = "version: 1\nallow: [echo, \"true\", cat]\nignore: [.env]\n"

func mcpProject(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range map[string]string{".cmdguard.yaml": mcpTestPolicy, ".env": "SECRET=1\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// mcpStdio starts `cmdguard mcp` in dir and connects to it over stdio.
func mcpStdio(t testing.TB, dir string) *sdk.ClientSession {
	t.Helper()
	bin, err := osexec.LookPath("cmdguard")
	if err != nil {
		t.Fatal(err)
	}
	cmd := osexec.Command(bin, "mcp")
	cmd.Dir = dir
	cmd.Stderr = os.Stderr
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "v0"}, nil).Connect(context.Background(), &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func toolText(res *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func TestMCPStdio(t *testing.T) {
	t.Parallel()
	dir := mcpProject(t)
	cs := mcpStdio(t, dir)
	ctx := context.Background()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 6 {
		t.Fatalf("ListTools: %v, %v", tools, err)
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": "echo hello"}})
	if err != nil || res.IsError || !strings.Contains(toolText(res), `"stdout":"hello\n"`) {
		t.Fatalf("run_command echo hello: %v\n%s", err, toolText(res))
	}
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": "cat .env"}})
	if err != nil || !res.IsError || !strings.Contains(toolText(res), "ignore.denied") || strings.Contains(toolText(res), "SECRET") {
		t.Fatalf("run_command cat .env: %v\n%s", err, toolText(res))
	}
}

func TestMCPHTTP(t *testing.T) {
	t.Parallel()
	dir := mcpProject(t)
	bin, err := osexec.LookPath("cmdguard")
	if err != nil {
		t.Fatal(err)
	}
	token := "0123456789abcdef0123"
	cmd := osexec.Command(bin, "mcp", "--http", "127.0.0.1:0")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CMDGUARD_MCP_TOKEN="+token)
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	}()
	lines := bufio.NewScanner(stderr)
	url := ""
	for lines.Scan() {
		if _, rest, ok := strings.Cut(lines.Text(), "serving "); ok {
			url, _, _ = strings.Cut(rest, " ")
			break
		}
	}
	if url == "" {
		t.Fatal("no serving line on stderr")
	}
	go func() {
		for lines.Scan() {
		}
	}()
	// Without the token: 401.
	resp, err := http.Post(url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("no token: HTTP %d, want 401", resp.StatusCode)
	}
	hc := &http.Client{Transport: headerRT{"Authorization", "Bearer " + token}, Timeout: 30 * time.Second}
	ctx := context.Background()
	asked := 0
	elicit := func(context.Context, *sdk.ElicitRequest) (*sdk.ElicitResult, error) {
		asked++
		return &sdk.ElicitResult{Action: "accept", Content: map[string]any{"answer": "once"}}, nil
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "v0"}, &sdk.ClientOptions{ElicitationHandler: elicit}).Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": "echo over http"}})
	if err != nil || res.IsError || !strings.Contains(toolText(res), `"stdout":"over http\n"`) {
		t.Fatalf("run_command over HTTP: %v\n%s", err, toolText(res))
	}
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": "cat .env"}})
	if err != nil || !res.IsError || !strings.Contains(toolText(res), "ignore.denied") {
		t.Fatalf("run_command cat .env over HTTP: %v\n%s", err, toolText(res))
	}
	// An ask is put to the person over HTTP too.
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": "touch approved"}})
	if _, serr := os.Stat(filepath.Join(dir, "approved")); err != nil || res.IsError || asked != 1 || serr != nil {
		t.Errorf("ask over HTTP: %v, asked %d times, file: %v\n%s", err, asked, serr, toolText(res))
	}
	// And with an older protocol, as elicitation/create on the session.
	old, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "v0"}, &sdk.ClientOptions{ElicitationHandler: elicit}).Connect(ctx, &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, &sdk.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	res, err = old.CallTool(ctx, &sdk.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": "touch approved2"}})
	if _, serr := os.Stat(filepath.Join(dir, "approved2")); err != nil || res.IsError || asked != 2 || serr != nil {
		t.Errorf("ask over HTTP, protocol 2025-11-25: %v, asked %d times, file: %v\n%s", err, asked, serr, toolText(res))
	}
	// The token is not passed on to the commands.
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": "echo token=$CMDGUARD_MCP_TOKEN"}})
	if err != nil || res.IsError || !strings.Contains(toolText(res), `"stdout":"token=\n"`) {
		t.Errorf("the token reached a command: %v\n%s", err, toolText(res))
	}
}

type headerRT struct{ k, v string }

func (h headerRT) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set(h.k, h.v)
	return http.DefaultTransport.RoundTrip(r)
}

func TestMCPNonLoopbackNeedsToken(t *testing.T) {
	t.Parallel()
	cmd := osexec.Command(cmdguardBin(t), "mcp", "--http", "0.0.0.0:0")
	cmd.Dir = mcpProject(t)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, mcpEnvToken+"=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	out, err := cmd.CombinedOutput()
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != exitError || !strings.Contains(string(out), "token") {
		t.Errorf("--http 0.0.0.0:0 without a token: %v, %s", err, out)
	}
}

// BenchmarkMCPRunTrue is a run_command of `true` over stdio to one
// long-lived `cmdguard mcp`; compare BenchmarkCLIRunTrue, a `cmdguard run
// -- true` process per command.
func BenchmarkMCPRunTrue(b *testing.B) {
	cs := mcpStdio(b, mcpProject(b))
	ctx := context.Background()
	b.ResetTimer()
	for b.Loop() {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": "true"}})
		if err != nil || res.IsError {
			b.Fatalf("%v %s", err, toolText(res))
		}
	}
}

func BenchmarkCLIRunTrue(b *testing.B) {
	dir := mcpProject(b)
	bin, err := osexec.LookPath("cmdguard")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		cmd := osexec.Command(bin, "run", "--", "true")
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v %s", err, out)
		}
	}
}
