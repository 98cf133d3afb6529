// Package bashapi serves the AIO sandbox's /v1/bash HTTP API with the
// cmdguard gate in front of every command.
//
// The AIO sandbox (github.com/agent-infra/sandbox) gives agents an HTTP
// API to run shell commands; its Python and TypeScript SDKs call
// client.bash.exec, output, write, kill and the session endpoints. A
// Server answers the same requests field for field, so an agent framework
// points its SDK at it and changes nothing else:
//
//	POST /v1/bash/exec                     run a command (gated)
//	POST /v1/bash/output                   read output by byte offset, long-poll
//	POST /v1/bash/write                    write to a running command's stdin
//	POST /v1/bash/kill                     signal a command's process group
//	GET  /v1/bash/sessions                 list sessions
//	POST /v1/bash/sessions/create          create a session (snapshot_path gated)
//	POST /v1/bash/sessions/{id}/close      close a session, ending its commands
//
// Every answer with status 200 is the envelope {success, message, data,
// hint}. A command the gate refuses never starts: the answer is 200 with
// success false, data.status "refused", the decision and every reason, a
// one-line message and the rendered reasons with their caret in hint.
// Malformed requests are 422 in FastAPI's {"detail": [{loc, msg, type}]}
// shape, an unknown session or command is 404 with the envelope, a limit
// reached is 429 (or 413 for a body too large), and a panic is answered as
// a refusal, never a 500.
//
// # Security
//
// The Server adds no rule of its own: what runs is decided by the Guard.
// It does not authenticate unless Config.Token is set; serve it on a
// loopback address or set a token. The request's env is judged by the gate
// (see cmdguard.Request); the trusted environment is Config.BaseEnv.
package bashapi
