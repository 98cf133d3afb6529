package acp_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/adapter/acp"
)

// editorClient is a Go ACP client: the terminal methods come from the
// embedded Terminals, the rest is the client's own.
type editorClient struct {
	*acp.Terminals
}

func (editorClient) ReadTextFile(context.Context, sdk.ReadTextFileRequest) (sdk.ReadTextFileResponse, error) {
	return sdk.ReadTextFileResponse{}, errors.New("not supported")
}
func (editorClient) WriteTextFile(context.Context, sdk.WriteTextFileRequest) (sdk.WriteTextFileResponse, error) {
	return sdk.WriteTextFileResponse{}, errors.New("not supported")
}
func (editorClient) RequestPermission(context.Context, sdk.RequestPermissionRequest) (sdk.RequestPermissionResponse, error) {
	return sdk.RequestPermissionResponse{}, errors.New("not supported")
}
func (editorClient) SessionUpdate(context.Context, sdk.SessionNotification) error { return nil }

// A Go ACP client embeds Terminals: the agent's commands are checked
// before they start, and a refused one never starts.
func ExampleTerminals() {
	root, _ := os.MkdirTemp("", "acp-example")
	defer os.RemoveAll(root)
	os.WriteFile(filepath.Join(root, ".cmdguard.yaml"), []byte("version: 1\nallow: [echo, cat]\n"), 0o644)
	os.WriteFile(filepath.Join(root, ".cmdguardignore"), []byte(".env\n"), 0o644)

	g, _ := cmdguard.Open(root)
	defer g.Close(context.Background())
	terms := &acp.Terminals{Guard: g} // no Approve: an ask is refused
	defer terms.Close()

	// The client and an agent (here in-process) over pipes.
	agentR, clientW := io.Pipe()
	clientR, agentW := io.Pipe()
	client := sdk.NewClientSideConnection(editorClient{terms}, clientW, clientR)
	client.SetLogger(quiet)
	agent := sdk.NewAgentSideConnection(stubAgent{}, agentW, agentR)
	agent.SetLogger(quiet)
	defer agentW.Close()
	defer clientW.Close()

	// What the agent asks of its client:
	ctx := context.Background()
	t, err := agent.CreateTerminal(ctx, sdk.CreateTerminalRequest{SessionId: "s", Command: "echo", Args: []string{"hello world"}})
	if err != nil {
		fmt.Println(err)
		return
	}
	exit, _ := agent.WaitForTerminalExit(ctx, sdk.WaitForTerminalExitRequest{SessionId: "s", TerminalId: t.TerminalId})
	out, _ := agent.TerminalOutput(ctx, sdk.TerminalOutputRequest{SessionId: "s", TerminalId: t.TerminalId})
	agent.ReleaseTerminal(ctx, sdk.ReleaseTerminalRequest{SessionId: "s", TerminalId: t.TerminalId})
	fmt.Printf("%q exit %d\n", out.Output, *exit.ExitCode)

	_, err = agent.CreateTerminal(ctx, sdk.CreateTerminalRequest{SessionId: "s", Command: "cat .env"})
	var re *sdk.RequestError
	if errors.As(err, &re) {
		fmt.Println(re.Code, re.Message)
	}
	// Output:
	// "hello world\n" exit 0
	// -32001 cmdguard refused the command: deny: 1:5 ignore.denied: '.env' is ignored by .cmdguardignore:1 (.env)
}
