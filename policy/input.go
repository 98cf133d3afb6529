package policy

import "fmt"

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
}

// Reason is one cause of a Decision.
type Reason struct {
	Verdict Verdict `json:"verdict"`
	Rule    string  `json:"rule"`
	Message string  `json:"message"`
	Pos     Pos     `json:"pos"`
	Source  string  `json:"source"` // "file:line" of the policy rule that fired, or "builtin"
	// Command is the 1-based index into Input.Commands of the command the
	// reason is about (a prefix rule's verdict); 0 when it is about no
	// single command (a finding, a Rego rule).
	Command int `json:"command,omitempty"`
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
