package mcp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/adapter/mcp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Test helpers shared by the package's test files.

func call(t *testing.T, cs *sdk.ClientSession, tool string, args map[string]any) result {
	t.Helper()
	return callParams(t, cs, &sdk.CallToolParams{Name: tool, Arguments: args})
}

// connect serves the project over the SDK's in-memory transport and
// returns a connected client session.
func connect(t *testing.T, dir string, copts *sdk.ClientOptions, sopts *sdk.ClientSessionOptions, o mcp.Options) *sdk.ClientSession {
	t.Helper()
	g, err := cmdguard.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	s, err := mcp.New(g, o)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, ct := sdk.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "v0"}, copts).Connect(ctx, ct, sopts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
		s.Close()
		g.Close(context.Background())
	})
	return cs
}

// project makes a project directory with the policy, a secret .env and
// a subdirectory.
func project(t *testing.T, policy string) string {
	t.Helper()
	dir := t.TempDir()
	dir, _ = filepath.EvalSymlinks(dir)
	files := map[string]string{".cmdguard.yaml": policy, ".env": "SECRET=hunter2\n", "sub/f.txt": "in sub\n"}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func callParams(t *testing.T, cs *sdk.ClientSession, p *sdk.CallToolParams) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, p)
	if err != nil {
		t.Fatalf("CallTool(%s, %v): %v", p.Name, p.Arguments, err)
	}
	var r result
	if res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("structured content of %s: %v\n%s", p.Name, err, b)
		}
	}
	r.IsError, r.Raw = res.IsError, res
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			r.Text += tc.Text
		}
	}
	return r
}
