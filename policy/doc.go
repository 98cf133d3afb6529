// Package policy compiles cmdguard policy files — YAML prefix rules plus
// optional Rego modules — and decides on the analysis of a command string.
// The policy schema, the rule ids and the Rego input are part of the
// [contract] (docs/contract.md in the repository).
//
// A [Policy] comes from [Load] (a file, usually found by [Find] walking up
// from the working directory to the first .cmdguard.yaml), [Parse] (bytes)
// or [Default] (the embedded default policy, used when there is no file).
// [Policy.Evaluate] turns an [Input] into a [Decision]: a [Verdict]
// (allow, ask or deny) with every [Reason] for it.
//
// # Policy files
//
//	version: 1
//	default: ask                 # verdict when no prefix matches
//	allow: [git status, go test]
//	ask:   [git push]
//	deny:  [rm -rf, git push --force, curl]
//	ignore_files: [.cmdguardignore, .cursorignore]
//	ignore: [.env, "*.pem", secrets/]
//	rules: {path.outside_root: deny}
//	rego: [policies/*.rego]
//	exec: {timeout: 30s, hard_timeout: 5m, output_limit: 1MiB, env_allow: [PATH, HOME]}
//	sandbox: {network: false, required: true, hide: [.env, ~/.ssh], protect: [~/.bashrc]}
//
// The sandbox: section ([Sandbox], [Policy.Sandbox]) turns on the kernel
// sandbox approved commands run in (enabled: false keeps it off); a key it
// leaves out takes the embedded default policy's value.
//
//	env_safe: [NODE_ENV, MYAPP_*] # variables no program reads as code or a file
//
// env_safe extends the gate's short list of environment variables that
// may reach a program (VAR=x cmd, export, env, a request's env) without
// asking (env.unknown); a name programs read as code stays
// env.code_injection whatever the list says. Entries are names or NAME*
// prefixes.
//
// Decoding is strict: an unknown key, a wrong type, a missing or
// unsupported version, an empty prefix, a prefix repeated or in two lists,
// an unknown rule id, a rule that may not be re-rated, a bad duration or
// size, a rego glob that matches no module, and any Rego compile error are
// errors ([Errors], each with file:line:col), never a partial policy. A
// prefix is a string split on white space, or a list of tokens
// ([grep, "two words"]) for tokens that hold spaces.
//
// # Prefix rules
//
// Rules match [Command.MatchArgv] (argv with git's global options removed)
// token by token, case-sensitively: "git status" matches "git status -s",
// not "git statusx" nor "/usr/bin/git status". The token "*" matches any
// one word. The token "{project}", only as the first token, matches the
// program word of a command that runs a file of the project by its path
// (./x.sh, bin/x, scripts/test.sh), or a binary npx or bunx runs from the
// project's node_modules/.bin (npx nx lint; [Command.ProjectFile]): the
// path resolves, symbolic links followed, to a regular file
// inside the project that is not ignored, not protected, not in a git
// directory, and that no command before it on the line may have written
// (../x, /tmp/x, a link out of the project do not match). The embedded
// default allows it, under the sandbox only (policy.needs_sandbox). In
// YAML it is quoted ("{project}"): bare, it is a mapping. Any other
// {name} token, or {project} after the first, is a load error.
// The longest matching prefix across allow, ask and deny wins;
// on a tie the stricter wins. Matching walks a token trie: its cost
// depends on the length of argv, not on the number of rules.
//
// A dynamic word ($X, marked in [Command.Dynamic]) never equals a literal
// token. Since it may expand to any words, or none, the verdict for a
// command with a dynamic word is the strictest of the longest match before
// it (or the default) and every rule that could match beyond it: with
// allow: [rm] and deny: [rm -rf], "rm $X" is denied, because $X could be
// -rf.
//
// Options that turn a read-only command into one that writes, deletes or
// runs a program (find -delete/-exec/-fprint…, rg --pre, git diff --output,
// sort -o, go test -exec, tar --to-command, git config writes, …) cannot be
// expressed as prefixes, since they may appear anywhere. A built-in table
// catches them for every policy as policy.dangerous_option (ask), unless
// the prefix rule that matched names the option itself (allow: [find .
// -delete]). This is why the default policy can allow find. The table
// errs towards asking: a long option matches in any abbreviation (sort
// --out=f), a short one inside a cluster (sort -uo f), a dynamic word in
// a guarded command may be any option, and sed and awk programs are
// scanned for commands that run programs or read or write files (sed
// e/r/w, awk system/getline/|/>), a program read from a file (-f) asking.
//
// Under a strict policy (the embedded default, or a file with strict:
// true, as cmdguard init writes it), an allowed program also passes only
// with the options the gate knows for it (Command.UnknownOptions, from
// the parser's table): another option is policy.unknown_option (ask); and
// an allowed command that runs the project's code is policy.needs_sandbox
// unless it runs under the sandbox. Otherwise a policy file's own allow
// rules trust the program.
//
// A chain is allowed only when every command in it is allowed: the
// verdict is the strictest of all reasons. Findings ([Finding]) are rated
// by their rule id: the policy's rules: entry, else the registry default
// ([LookupRule], [Rules]). An unknown finding id is deny. Fixed ids (the
// gate's own failures, parser.syntax, rego.error and the ids of the lists
// and of Rego) cannot be re-rated; findings that mean part of the command
// was never analysed (parser.unsupported, parser.too_deep,
// parser.too_many_commands) can be lowered to ask but never to allow.
//
// # Rego
//
// The modules named by rego: (globs relative to the policy file; files
// ending in _test.rego are left to [RunTests]) are Rego v1 in package
// cmdguard. They may define three set rules, whose elements are strings or
// objects {"msg": string, "rule": string, "command": index}:
//
//	deny contains msg if { … }   # adds a rego.deny reason
//	ask contains msg if { … }    # adds a rego.ask reason
//	allow contains msg if { … }  # lifts policy.no_match to allow
//
// deny and ask can only make the verdict stricter. allow never overrides
// a deny or ask — from the lists, from findings, from Rego itself — it
// only lifts the policy.no_match reason of the command it names with
// "command" (the 0-based index into input.commands, as everywhere in
// cmdguard: a reason's "command" in JSON and the explain trace use the
// same base), or of every command when it names none; write such an allow so that it holds for the whole input. A
// deny, ask or allow that is not a set (deny if …) is a compile error.
//
// The query is prepared once, at load, and shared by every evaluation;
// each Evaluate runs it once. A runtime error (a builtin error, a
// conflict, a malformed entry, a canceled context) is a rego.error reason:
// deny. Capabilities are restricted so that a repository's policy cannot
// reach the network or the host: http.send, net.*, opa.runtime and the
// JSON schema builtins are unknown functions at compile time.
//
// The input document is [Input] as JSON (arrays are never null):
//
//	{
//	  "source": "cat .env | grep KEY > out.txt",
//	  "cwd": "/home/me/proj", "root": "/home/me/proj", "sandboxed": false, "sandbox_network": "",
//	  "commands": [
//	    {"argv": ["cat", ".env"], "match_argv": ["cat", ".env"], "dynamic": [false, false],
//	     "pos": {"line": 1, "col": 1}, "wrappers": [], "redirects": [], "cwd": "/home/me/proj",
//	     "files": [{"path": ".env", "written": ".env", "pos": {"line": 1, "col": 5}, "kind": "arg",
//	                "write": false, "recursive": false, "dynamic": false, "maybe": false, "ignored": true,
//	                "ignored_by": ".cmdguardignore:1", "outside_root": false, "is_dir": false, "exists": true}]},
//	    {"argv": ["grep", "KEY"], "match_argv": ["grep", "KEY"], "dynamic": [false, false],
//	     "pos": {"line": 1, "col": 12}, "wrappers": [], "cwd": "/home/me/proj",
//	     "redirects": [{"op": ">", "target": "out.txt", "write": true, "pos": {"line": 1, "col": 21}}],
//	     "files": [{"path": "out.txt", "written": "out.txt", "pos": {"line": 1, "col": 23}, "kind": "redirect",
//	                "write": true, "recursive": false, "dynamic": false, "maybe": false, "ignored": false,
//	                "outside_root": false, "is_dir": false, "exists": false}]}
//	  ],
//	  "findings": [{"rule": "ignore.denied", "message": ".env is ignored by .cmdguardignore:1", "pos": {"line": 1, "col": 5}}]
//	}
//
// With it, this module denies the pipe of a secret into a file:
//
//	package cmdguard
//
//	deny contains {"msg": "secret piped into a file", "rule": "no-exfil", "command": i} if {
//		some i, c in input.commands
//		some r in c.redirects
//		r.write
//		some f in input.commands[_].files
//		f.ignored
//	}
//
// Rego tests (_test.rego files, test_* rules) run with [RunTests] and
// with the standard opa test; [Lint] reports problems with positions.
//
// # Security
//
// Everything fails closed. A nil or zero Policy denies every input with
// policy.invalid; an empty input is parser.empty (deny); an unknown
// finding id is deny; a Rego error is deny. A Policy is immutable after
// loading and safe for concurrent use; Evaluate never panics on a
// well-formed Input and never prints.
//
// [contract]: https://github.com/cmdguard/cmdguard/blob/main/docs/contract.md
package policy
