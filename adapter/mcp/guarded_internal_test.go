package mcp

import (
	"context"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestGuardedPanic: a panic in a tool becomes an error result (the SDK
// turns it into isError), never a crash or a success.
func TestGuardedPanic(t *testing.T) {
	h := guarded(func(context.Context, *sdk.CallToolRequest, RunInput) (*sdk.CallToolResult, RunResult, error) {
		panic("boom")
	})
	res, out, err := h(context.Background(), nil, RunInput{Command: "true"})
	if err == nil || !strings.Contains(err.Error(), "boom") || res != nil || out.Status != "" {
		t.Errorf("after a panic: %v, %+v, %v; want a nil result and an error naming the panic", res, out, err)
	}
}
