package policy

import "sort"

// RuleInfo describes one rule id of the registry.
type RuleInfo struct {
	ID string `json:"id"`
	// Verdict is the default verdict of a finding with this id. For
	// policy.no_match it is Ask, the default of the default: field.
	Verdict Verdict `json:"verdict"`
	// Fixed rules cannot be re-rated by a policy's rules: map; trying is
	// an error. They are the gate's own failures, the verdicts that the
	// allow/ask/deny lists and Rego produce, and parser.syntax.
	Fixed bool `json:"fixed,omitempty"`
	// Loosest is the loosest verdict rules: may give the id. It is below
	// Allow for findings that mean part of the command was never seen.
	Loosest     Verdict `json:"loosest"`
	Description string  `json:"description"`
	// OptIn rules are off unless a policy's rules: re-rates them: their
	// findings are then reasons like any other; otherwise they are
	// dropped.
	OptIn bool `json:"opt_in,omitempty"`
}

// registry is the constant table of every rule id, sorted by id.
var registry = []RuleInfo{
	{ID: "env.code_injection", Verdict: Deny, Loosest: Allow, Description: "an environment assignment makes a program run other code (PATH, LD_PRELOAD, GIT_SSH_COMMAND, …)"},
	{ID: "env.unknown", Verdict: Ask, Loosest: Allow, Description: "an environment assignment the gate does not know to be harmless (extend env_safe: in the policy)"},
	{ID: "gate.error", Verdict: Deny, Fixed: true, Loosest: Deny, Description: "the gate failed while checking"},
	{ID: "gate.panic", Verdict: Deny, Fixed: true, Loosest: Deny, Description: "the gate panicked while checking"},
	{ID: "gate.timeout", Verdict: Deny, Fixed: true, Loosest: Deny, Description: "checking took longer than allowed"},
	{ID: "git.config_runs", Verdict: Deny, Loosest: Allow, Description: "a git command uses a git directory other than the project's own (--git-dir, $GIT_DIR, a .git file, commondir, a bare or nested repository, one outside the project) whose configuration holds a key that runs a program (core.fsmonitor, core.pager, alias.*, filter.*.clean, …)"},
	{ID: "git.config_unknown", Verdict: Ask, Loosest: Allow, Description: "a git command uses a git directory other than the project's own whose configuration the gate cannot read, or that sets a key the gate does not know, or the git directory is not known before it runs"},
	{ID: "git.dangerous_config", Verdict: Deny, Loosest: Allow, Description: "git -c sets a key that runs a command (core.pager, core.sshCommand, alias.*, …)"},
	{ID: "git.data_loss", Verdict: Ask, Loosest: Allow, Description: "(strict policies) a git command that throws work away: push --force (or a +refspec) drops the remote's commits, reset --hard the uncommitted changes, clean -f untracked (with -x, ignored) files; the message names the loss"},
	{ID: "ignore.contains_ignored", Verdict: Ask, Loosest: Allow, Description: "a directory given to a recursive reader contains ignored files"},
	{ID: "ignore.denied", Verdict: Deny, Loosest: Allow, Description: "a file reference matches an ignore rule"},
	{ID: "ignore.error", Verdict: Deny, Fixed: true, Loosest: Deny, Description: "an ignore file on the way to a file reference cannot be read or holds a malformed pattern"},
	{ID: "ignore.unknown_ref", Verdict: Ask, Loosest: Allow, Description: "a file argument the gate cannot see (xargs stdin, find -exec {})"},
	{ID: "ignore.walk_limit", Verdict: Ask, Loosest: Ask, Description: "a directory given to a recursive reader holds more entries than the gate walks: what lies beyond is unknown"},
	{ID: "parser.arithmetic_variable", Verdict: Deny, Loosest: Allow, Description: "arithmetic that references a variable (bash evaluates its value as code)"},
	{ID: "parser.command_substitution", Verdict: Deny, Loosest: Allow, Description: "command substitution $(…) or backticks"},
	{ID: "parser.coprocess", Verdict: Deny, Loosest: Allow, Description: "a coprocess"},
	{ID: "parser.dynamic_command", Verdict: Deny, Loosest: Allow, Description: "a dynamic word in command position ($CMD, a glob)"},
	{ID: "parser.empty", Verdict: Deny, Loosest: Allow, Description: "the input holds no command"},
	{ID: "parser.eval", Verdict: Deny, Loosest: Allow, Description: "eval, source, ., alias, trap or enable"},
	{ID: "parser.function_definition", Verdict: Deny, Loosest: Allow, Description: "a function definition"},
	{ID: "parser.indirect_expansion", Verdict: Deny, Loosest: Allow, Description: "${!x} indirection or ${x@P} prompt expansion"},
	{ID: "parser.line_break_lookalike", Verdict: Deny, Loosest: Allow, Description: "a character that renders as a line break but is not one to bash (CR, U+2028, U+2029, U+0085)"},
	{ID: "parser.not_portable", Verdict: Deny, Loosest: Allow, Description: "syntax that zsh reads differently from bash (=cmd, glob qualifiers, extended-glob operators, **)"},
	{ID: "parser.process_substitution", Verdict: Deny, Loosest: Allow, Description: "process substitution <(…) or >(…)"},
	{ID: "parser.subshell", Verdict: Deny, Loosest: Allow, Description: "a subshell ( … )"},
	{ID: "parser.syntax", Verdict: Deny, Fixed: true, Loosest: Deny, Description: "the command is not valid bash"},
	{ID: "parser.too_deep", Verdict: Deny, Loosest: Ask, Description: "nesting deeper than the parser checks"},
	{ID: "parser.too_many_commands", Verdict: Deny, Loosest: Ask, Description: "more commands than the parser checks"},
	{ID: "parser.unsupported", Verdict: Deny, Loosest: Ask, Description: "a construct the parser does not analyse"},
	{ID: "path.dynamic_cwd", Verdict: Ask, Loosest: Allow, Description: "a relative file reference after a cd to a dynamic place"},
	{ID: "path.glob_option", Verdict: Deny, Loosest: Allow, Description: "a glob matches a file whose name starts with - : the program reads it as an option, not a file (sort * with a file named -o.gitignore writes .gitignore)"},
	{ID: "path.outside_root", Verdict: Ask, Loosest: Allow, Description: "a file reference leaves the project root, or a command runs outside it after a cd"},
	{ID: "path.protected", Verdict: Deny, Loosest: Allow, Description: "a write to .git/hooks, .git/config, any git directory's config or hooks, a policy or ignore file, or an agent's own settings (.claude/settings.json, .mcp.json, …, in the project or the home directory)"},
	{ID: "policy.allow", Verdict: Allow, Fixed: true, Loosest: Allow, Description: "the longest matching prefix is in allow:"},
	{ID: "policy.ask", Verdict: Ask, Fixed: true, Loosest: Ask, Description: "the longest matching prefix is in ask:"},
	{ID: "policy.assign_only", Verdict: Allow, Fixed: true, Loosest: Allow, Description: "every statement of the command only assigns shell variables (F=x, files=(a b c)): it runs nothing; what the values run or read (a command substitution, arithmetic on a variable, PATH=…) is rated by its own findings"},
	{ID: "policy.dangerous_option", Verdict: Ask, Loosest: Allow, Description: "an option that makes a read-only command write, delete or run a program (find -delete, rg --pre, …) not named by the prefix rule that matched"},
	{ID: "policy.deny", Verdict: Deny, Fixed: true, Loosest: Deny, Description: "the longest matching prefix is in deny:"},
	{ID: "policy.destructive", Verdict: Deny, Loosest: Allow, Description: "(strict policies) a recursive deletion, chmod or chown of /, the home directory, the project or anything outside it, a raw write to a block device, or the creation of a file system; the message names the project root"},
	{ID: "policy.invalid", Verdict: Deny, Fixed: true, Loosest: Deny, Description: "the policy file could not be loaded"},
	{ID: "policy.needs_sandbox", Verdict: Ask, Loosest: Allow, Description: "under the embedded default policy, an allowed command that runs the project's code (go test, go build, …) and will not run under the kernel sandbox; under it the reason is an allow"},
	{ID: "policy.no_match", Verdict: Ask, Fixed: true, Loosest: Allow, Description: "no prefix rule matches: the policy's default: applies"},
	{ID: "policy.unknown_option", Verdict: Ask, Loosest: Allow, Description: "under the embedded default policy, an option the gate does not know for an allowed program"},
	{ID: "policy.write_then_run", Verdict: Allow, Loosest: Allow, OptIn: true, Description: "(opt-in: re-rate it to ask or deny to turn it on) a command runs the project's code (go test, npm test, make, ./x, …) after the same command line wrote a file inside the project: it may run what was just written; the gate cannot see what a runner runs, whether the file was written in this line or the one before, so the rule protects nothing the policy or the sandbox does not already decide"},
	{ID: "redirect.network", Verdict: Deny, Loosest: Allow, Description: "a redirect to /dev/tcp or /dev/udp opens a socket"},
	{ID: "rego.allow", Verdict: Allow, Fixed: true, Loosest: Allow, Description: "a Rego allow rule lifted a command no prefix rule matched"},
	{ID: "rego.ask", Verdict: Ask, Fixed: true, Loosest: Ask, Description: "a Rego ask rule fired"},
	{ID: "rego.deny", Verdict: Deny, Fixed: true, Loosest: Deny, Description: "a Rego deny rule fired"},
	{ID: "rego.error", Verdict: Deny, Fixed: true, Loosest: Deny, Description: "Rego evaluation failed"},
	{ID: "sandbox.quarantine", Verdict: Deny, Fixed: true, Loosest: Deny, Description: "a sandboxed run's quarantine could not finish, its record cannot be trusted, or this check has just finished it"},
}

// LookupRule returns the registry entry of a rule id.
func LookupRule(id string) (RuleInfo, bool) {
	i := sort.Search(len(registry), func(i int) bool { return registry[i].ID >= id })
	if i < len(registry) && registry[i].ID == id {
		return registry[i], true
	}
	return RuleInfo{}, false
}

// Rules returns every rule of the registry, sorted by id. The slice is a
// copy: the caller may keep or change it.
func Rules() []RuleInfo {
	return append([]RuleInfo(nil), registry...)
}
