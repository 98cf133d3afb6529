// Package cmdguard is the gate an AI coding agent puts in front of its
// shell: it decides whether a bash command may run, and runs the approved
// ones with their output captured.
//
// Build a [Guard] once per project (from a policy file found by walking up
// from a directory, or one you give), then call [Guard.Check] before you
// execute anything:
//
//	g, err := cmdguard.Open(dir)
//	if err != nil { … }
//	d, err := g.Check(ctx, cmdguard.Request{Command: cmd, Cwd: dir, Env: agentEnv})
//	switch d.Verdict {
//	case cmdguard.Allow: // run it — exactly this string, with bash, in this cwd
//	case cmdguard.Ask:   // a person must approve it
//	default:             // deny: show d.Reasons
//	}
//
// A check runs the pipeline of the [contract]: the command is parsed with
// a real bash parser ([parser]), every file it touches is resolved
// against the file system and matched against the project's ignore files
// ([ignore]), and the policy ([policy]) rates every command and finding.
// The [Decision] carries every reason with its rule id, message, position
// and the policy line that fired. The contract (docs/contract.md in the
// repository) lists the rule ids, the policy schema, the Rego input, the
// CLI's JSON and exit codes, each with the version since which it holds.
//
// # Security
//
// The gate fails closed: a parse error, an unreadable policy, a Rego
// error, a context deadline and a panic in any stage all end in [Deny],
// never [Allow]. The zero [Decision] is a deny. What was checked is what
// must run: [Guard.Run] executes the checked string with bash -c in the
// checked directory; if you execute commands yourself, do the same — no
// re-quoting, no other shell.
//
// The environment comes in two kinds (see [Request]): BaseEnv is trusted,
// Env is what the request asks for, and every variable it adds is judged
// as a VAR=value prefix assignment would be.
//
// A Guard is live and safe for concurrent use: before each check it
// examines the policy file, its Rego modules and the ignore files it has
// read with one stat each, and uses them as they are then. An edited
// policy applies to the next check; one that no longer loads makes every
// check deny with the load error until it is fixed. Ignore files are read
// where a check needs them (the directories on the way to each file it
// names), so a check costs the same in a small project and in a
// million-file monorepo.
//
// [contract]: https://github.com/cmdguard/cmdguard/blob/main/docs/contract.md
package cmdguard
