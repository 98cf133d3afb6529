package policy

import (
	"encoding/json"
	"fmt"
)

// Verdict is the outcome of a check. The zero Verdict is Deny, so that a
// Decision nobody filled in never lets a command through.
type Verdict uint8

const (
	Deny  Verdict = iota // the command must not run
	Ask                  // a person must approve it
	Allow                // it may run
)

// Pos is a position in the checked command: 1-based line and byte column.
type Pos struct {
	Line int `json:"line"`
	Col  int `json:"col"`
}

// Finding is a fact established before policy evaluation (by the parser or
// the file-reference checks) that carries a rule id. Its verdict comes from
// the rule registry, re-rated by the policy's rules: map.
type Finding struct {
	Rule    string `json:"rule"`
	Message string `json:"message"`
	Pos     Pos    `json:"pos"`
	// Source is where the fact comes from, when that is a file line (the
	// ignore pattern of an ignore.denied, "dir/.rooignore:3"). A Reason
	// cites it unless the policy's rules: re-rates the id; empty means
	// "builtin".
	Source string `json:"source,omitempty"`
	// Sandbox says what the kernel sandbox does about this instance when
	// it enforces it ("the sandbox hides '.env'"), and is empty when it
	// does not (a write that deletes, git reading history, a path outside
	// the project it does not hide). Under Input.Sandboxed such a finding
	// is an Allow with EnforcedBy "sandbox", unless the policy's rules:
	// re-rates its id (the person's word stands).
	Sandbox string `json:"sandbox,omitempty"`
}

// Redirect is a redirection of a command, as seen by a policy.
type Redirect struct {
	Op     string `json:"op"`
	Target string `json:"target"`
	Write  bool   `json:"write"`
	Pos    Pos    `json:"pos"`
}

// File is a file reference of a command with the facts the gate found.
type File struct {
	Path        string `json:"path"`    // cleaned, relative to Root when inside it, else absolute
	Written     string `json:"written"` // as written in the command (decoded)
	Pos         Pos    `json:"pos"`
	Kind        string `json:"kind"` // arg | option | redirect | at | rev | env
	Write       bool   `json:"write"`
	Recursive   bool   `json:"recursive"`
	Dynamic     bool   `json:"dynamic"`
	Maybe       bool   `json:"maybe"` // probably not a path (a pattern, an option value): checked against ignore rules only
	Ignored     bool   `json:"ignored"`
	IgnoredBy   string `json:"ignored_by,omitempty"` // file:line of the matching pattern
	OutsideRoot bool   `json:"outside_root"`
	IsDir       bool   `json:"is_dir"`
	Exists      bool   `json:"exists"`
}

// Command is one simple command as seen by a policy.
type Command struct {
	Argv      []string   `json:"argv"`       // decoded argv
	MatchArgv []string   `json:"match_argv"` // what prefix rules match (git global options removed)
	Dynamic   []bool     `json:"dynamic"`    // per argv word: not known statically
	Pos       Pos        `json:"pos"`
	Wrappers  []string   `json:"wrappers"` // outermost first
	Redirects []Redirect `json:"redirects"`
	Files     []File     `json:"files"`
	Cwd       string     `json:"cwd"`
	// UnknownOptions are options the gate does not know for a program it
	// knows every option of. Under the embedded default policy an allowed
	// command with one is policy.unknown_option (ask). Not part of the
	// Rego input.
	UnknownOptions []Option `json:"-"`
	// OptionHits are the options the parser found that make the command
	// write, delete or run a program (see OptionHit). Not part of the
	// Rego input.
	OptionHits []OptionHit `json:"-"`
	// Runs says what project code the command runs ("builds and runs the
	// package's code", for go test), empty when it runs none. Under the
	// embedded default policy an allowed command that runs project code
	// asks unless Input.Sandboxed (policy.needs_sandbox). Not part of the
	// Rego input.
	Runs string `json:"-"`
	// Fetches says what packages the command downloads ("downloads
	// packages from the npm registry", for npm install), empty when it is
	// not an install. Under the embedded default policy an allowed
	// install asks unless Input.SandboxNetwork is "hosts"
	// (policy.needs_sandbox). Not part of the Rego input.
	Fetches string `json:"-"`
	// Open: arguments the gate cannot see follow the command's words
	// (what xargs or parallel read from stdin, find -exec's {}). A deny
	// or ask rule whose leading words match could be completed by them.
	// Not part of the Rego input.
	Open bool `json:"-"`
	// Transparent: a shell running a parsed -c script with only options
	// that change nothing the gate checks. When no prefix rule matches
	// it, it gets no prefix reason: its inner commands decide. Not part
	// of the Rego input.
	Transparent bool `json:"-"`
	// ProjectFile: the program is a file of the project, named by a
	// path (./x.sh, bin/x) or a binary npx or bunx runs from the
	// project's node_modules/.bin: it resolves, symbolic links followed, to a
	// regular file inside the root that is not ignored, not protected,
	// not in a git directory, and that no command before it in the line
	// may have written. The prefix token {project} matches it. Not part
	// of the Rego input.
	ProjectFile bool `json:"-"`
}

// Option is one option word of a command, with its position.
type Option struct {
	Value string
	Pos   Pos
}

// Input is everything a policy sees about one command string. It is also
// the Rego input document (see the package documentation for its schema).
type Input struct {
	Source   string    `json:"source"` // the command string as given
	Commands []Command `json:"commands"`
	Findings []Finding `json:"findings"`
	Cwd      string    `json:"cwd"`
	Root     string    `json:"root"`
	// Sandboxed reports that the command will run under the kernel
	// sandbox, and not without it (the sandbox is required): secrets
	// hidden, git's config and hooks and the policy read-only.
	Sandboxed bool `json:"sandboxed"`
	// SandboxNetwork is the network of that sandbox, as the policy's
	// sandbox.network sets it: "hosts" (a list: only the listed hosts,
	// through cmdguard's proxy), "all" (true) or "none" (false); empty
	// when the command does not run sandboxed, or the caller did not say
	// (which counts as not "hosts"). See [Sandbox.NetworkKind].
	SandboxNetwork string `json:"sandbox_network"`
	// Prepared, when set, holds Rego terms of Commands built earlier by
	// [Policy.Prepare]: Evaluate uses those that match the commands
	// exactly and builds the others. Not part of the Rego input.
	Prepared *Prepared `json:"-"`
}

// Reason is one cause of a Decision.
type Reason struct {
	Verdict Verdict `json:"verdict"`
	Rule    string  `json:"rule"`
	Message string  `json:"message"`
	Pos     Pos     `json:"pos"`
	Source  string  `json:"source"` // "file:line" of the policy rule that fired, or "builtin"
	// Command names the command the reason is about (a prefix rule's
	// verdict, a guarded option, a Rego entry with "command"): it is the
	// index into Input.Commands plus one, so that the zero Reason names
	// none (a finding, a Rego entry without "command"). Use
	// [Reason.CommandIndex] for the index. In JSON, "command" is the
	// 0-based index itself, as in Rego and the explain trace, and is
	// absent when the reason names no command.
	Command int `json:"-"`
	// EnforcedBy is "sandbox" when the reason's finding is one the kernel
	// sandbox the command runs under enforces for this instance (it hides
	// the file read, makes the path written read-only): the reason is
	// then an Allow that says so, kept so that a person sees why the
	// command ran. Empty otherwise.
	EnforcedBy string `json:"-"`
}

// CommandIndex returns the 0-based index into Input.Commands (and
// Decision.Commands) of the command the reason is about; ok is false
// when it is about no single command.
func (r Reason) CommandIndex() (i int, ok bool) {
	return r.Command - 1, r.Command > 0
}

// reasonJSON is the JSON form of a Reason: "command" is 0-based and
// absent for none.
type reasonJSON struct {
	Verdict    Verdict `json:"verdict"`
	Rule       string  `json:"rule"`
	Message    string  `json:"message"`
	Pos        Pos     `json:"pos"`
	Source     string  `json:"source"`
	Command    *int    `json:"command,omitempty"`
	EnforcedBy string  `json:"enforced_by,omitempty"`
}

// MarshalJSON writes the reason with its 0-based "command" index, absent
// when the reason names no command.
func (r Reason) MarshalJSON() ([]byte, error) {
	j := reasonJSON{Verdict: r.Verdict, Rule: r.Rule, Message: r.Message, Pos: r.Pos, Source: r.Source, EnforcedBy: r.EnforcedBy}
	if i, ok := r.CommandIndex(); ok {
		j.Command = &i
	}
	return json.Marshal(j)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (r *Reason) UnmarshalJSON(b []byte) error {
	var j reasonJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*r = Reason{Verdict: j.Verdict, Rule: j.Rule, Message: j.Message, Pos: j.Pos, Source: j.Source, EnforcedBy: j.EnforcedBy}
	if j.Command != nil {
		if *j.Command < 0 {
			return fmt.Errorf("reason command %d: want a 0-based index", *j.Command)
		}
		r.Command = *j.Command + 1
	}
	return nil
}

// Decision is the verdict on an Input with every reason for it.
type Decision struct {
	Verdict Verdict  `json:"decision"`
	Reasons []Reason `json:"reasons"`
}

// String renders v as "allow", "ask" or "deny".
func (v Verdict) String() string {
	switch v {
	case Allow:
		return "allow"
	case Ask:
		return "ask"
	case Deny:
		return "deny"
	}
	return fmt.Sprintf("Verdict(%d)", uint8(v))
}
