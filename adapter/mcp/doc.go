// Package mcp is cmdguard as an MCP (Model Context Protocol) server: the
// shell tools an agent needs, with every command checked by a
// [cmdguard.Guard] before it starts and run by cmdguard's executor.
//
// [New] builds the server on the official Go SDK
// (github.com/modelcontextprotocol/go-sdk) with six tools:
//
//   - run_command {command, cwd?, timeout?}: check, run, wait; the result
//     holds stdout, stderr, exit_code, signal, status, truncated,
//     duration_ms and the decision.
//   - start_command {command, cwd?, timeout?}: check and start a
//     long-running command; returns its id.
//   - read_output {id, stdout_offset?, stderr_offset?, wait?}: the output
//     past the offsets and the state, waiting up to wait seconds for more
//     (the /v1/bash long poll).
//   - write_stdin {id, input, close_stdin?} and kill_command {id, signal?}.
//   - check_command {command, cwd?}: the decision and its reasons; runs
//     nothing.
//
// A refused command never starts. The refusal is a tool result with
// isError set, whose text says for a model what was refused, by which
// rule, and what a person could change; its structured content holds the
// decision and every reason. An ask is put to the person through MCP
// elicitation (allow once, allow always, no) when the client supports it,
// and refused with that reason when it does not.
//
// Output is shaped for a model's context: ANSI escape sequences are
// stripped, carriage-return redraws collapsed, and each stream is cut to
// the policy's exec.model_output_limit ([DefaultOutputLimit] when unset),
// keeping its head and its tail with the cut marked in the text and in
// truncated.
//
// # Security
//
// What was checked is what runs: the command line is run with bash -c in
// the checked directory, which must be inside the project root (symlinks
// resolved). An approval given through elicitation is bound to the exact
// tool, command, directory and timeout it was asked for and is used once.
// A panic or an internal error in a tool refuses.
package mcp
