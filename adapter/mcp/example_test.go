package mcp_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/adapter/mcp"
)

// Serve a project's gated shell tools to an MCP client; here both ends
// are in memory (a real server runs s.MCP().Run(ctx, &sdk.StdioTransport{})).
func Example() {
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	os.WriteFile(filepath.Join(dir, ".cmdguard.yaml"), []byte("version: 1\nallow: [echo, cat]\nignore: [.env]\n"), 0o644)
	os.WriteFile(filepath.Join(dir, ".env"), []byte("SECRET=1\n"), 0o644)

	g, err := cmdguard.Open(dir)
	if err != nil {
		log.Fatal(err)
	}
	defer g.Close(context.Background())
	s, err := mcp.New(g, mcp.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	ctx := context.Background()
	st, ct := sdk.NewInMemoryTransports()
	if _, err := s.MCP().Connect(ctx, st, nil); err != nil {
		log.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "example", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer cs.Close()

	for _, command := range []string{"echo hello", "cat .env"} {
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": command}})
		if err != nil {
			log.Fatal(err)
		}
		out := res.StructuredContent.(map[string]any)
		fmt.Printf("%s: isError=%v decision=%v status=%v stdout=%q\n", command, res.IsError, out["decision"], out["status"], out["stdout"])
	}
	// Output:
	// echo hello: isError=false decision=allow status=completed stdout="hello\n"
	// cat .env: isError=true decision=deny status=refused stdout=""
}
