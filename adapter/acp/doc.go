// Package acp puts cmdguard between an ACP (Agent Client Protocol) agent and
// the commands it asks its client to run.
//
// [Terminals] is the client side of ACP v1's terminal methods
// (terminal/create, output, wait_for_exit, kill, release) for any Go program
// that is an ACP client built on github.com/coder/acp-go-sdk: embed it in
// the type that implements the rest of acp.Client. Every command is checked
// by a [cmdguard.Guard] before it starts and runs with bash in its own
// process group; a refused command never starts, and the agent gets a
// JSON-RPC error with code [CodeRefused] whose data carries the decision
// and every reason.
//
// [Proxy] is the same terminal host as a stdio proxy between an editor and
// an ACP agent (`cmdguard acp -- AGENT…`): it forwards every message both
// ways, tells the agent the client supports terminals and answers its
// terminal/* requests itself, turns an ask into session/request_permission
// to the editor, checks the agent's fs/read_text_file and
// fs/write_text_file against the ignore files and protected paths, and
// shows the person each terminal's output as tool-call content.
//
// # Security
//
// What was checked is what runs: the command line the gate checked is run
// with bash -c in the checked directory, whatever shell the editor uses.
// The request's env is judged as VAR=value assignments would be; cwd must
// be an absolute directory inside the project root. Any failure refuses.
package acp
