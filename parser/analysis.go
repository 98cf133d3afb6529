package parser

import "fmt"

// Pos is a position in the analysed source: 1-based line and 1-based byte
// column, as mvdan.cc/sh/v3/syntax reports them. The zero Pos means "no
// position" (for example a finding about the input as a whole).
type Pos struct {
	Line int `json:"line"`
	Col  int `json:"col"`
}

// String renders p as "line:col".
func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Finding is something the analysis could not judge statically, or judged
// dangerous. Every finding is a reason for the gate to refuse the command;
// the policy decides how strictly (by rule id, see docs/contract.md, "Rule ids").
type Finding struct {
	Rule    string `json:"rule"`    // stable id, e.g. "parser.command_substitution"
	Message string `json:"message"` // one line, for people
	Pos     Pos    `json:"pos"`     // where in the top-level source
	// Var names the variable of Options.AddEnv the finding is about; Pos
	// is zero then, as the variable is not in the source.
	Var string `json:"var,omitempty"`
}

// Word is one decoded argv element or redirect target.
type Word struct {
	// Value is what bash would pass when the word is static: quotes,
	// escapes, $'…' and line continuations decoded. For a dynamic word it
	// is the best static rendering: resolvable parts (~, $HOME, $PWD from
	// Options.Env) resolved, the rest kept as written source.
	Value string `json:"value"`
	// Pos is the position of the word's first byte in the top-level source.
	Pos Pos `json:"pos"`
	// Dynamic reports that the value is not fully known before run time
	// (a parameter expansion that could not be resolved).
	Dynamic bool `json:"dynamic,omitempty"`
	// Glob reports unquoted glob metacharacters: the word expands against
	// the file system (see Glob).
	Glob bool `json:"glob,omitempty"`
	// Resplit is set on a glob that stands for the value of an unquoted
	// variable bound to it (for f in src/*; do cat $f): bash splits each
	// name the glob matches at blanks and globs it again, so a match
	// with a blank or a glob character names other files.
	Resplit bool `json:"resplit,omitempty"`
	// Pattern is set when Glob is: the word as a pattern for Glob, with
	// quoted or escaped metacharacters (* ? [ ] \) escaped by a backslash,
	// so that "*".go matches only the file named *.go.
	Pattern string `json:"pattern,omitempty"`
}

// Redirect is one redirection of a command.
type Redirect struct {
	Op     string `json:"op"`            // as written: ">", ">>", "<", "<>", "&>", ">|", "<<<", "<<", …
	Fd     string `json:"fd,omitempty"`  // explicit fd before the operator, if any
	Target Word   `json:"target"`        // empty Value for heredocs
	Write  bool   `json:"write"`         // the target is opened for writing
	Dup    bool   `json:"dup,omitempty"` // fd duplication (2>&1, <&0): not a file
	Pos    Pos    `json:"pos"`
}

// RefKind says where a file reference came from.
type RefKind string

const (
	RefArg      RefKind = "arg"      // a non-option argument
	RefOption   RefKind = "option"   // the value of --opt=value
	RefRedirect RefKind = "redirect" // a redirect target
	RefAt       RefKind = "at"       // @FILE (curl -d @.env)
	RefRev      RefKind = "rev"      // REV:PATH (git show HEAD:.env)
	RefEnv      RefKind = "env"      // the value of a variable a program reads as a file (GIT_GRAFT_FILE=f)
)

// FileRef is a candidate file reference of a command (docs/contract.md, "What is checked").
// Paths that are not files at all (/dev/null, /dev/stdin, /dev/fd/N,
// fd duplications) are never FileRefs.
type FileRef struct {
	// Path is the decoded path: ~, $HOME and $PWD resolved from
	// Options.Env, one FileRef per brace-expansion result. It is not yet
	// cleaned nor joined with Cwd, and globs are not yet expanded.
	Path      string  `json:"path"`
	Pos       Pos     `json:"pos"`
	Kind      RefKind `json:"kind"`
	Write     bool    `json:"write,omitempty"`     // opened or replaced for writing (redirect >, cp/mv/tee/install target, sed -i, …)
	Recursive bool    `json:"recursive,omitempty"` // given to a command that reads directories recursively (grep -r, rg, tar, cp -r, …)
	Glob      bool    `json:"glob,omitempty"`      // expand Pattern with Glob before checking
	Pattern   string  `json:"pattern,omitempty"`   // Word.Pattern when Glob is set
	Resplit   bool    `json:"resplit,omitempty"`   // Word.Resplit: every match must be a plain name
	Dynamic   bool    `json:"dynamic,omitempty"`   // could not be fully resolved
	// Maybe marks a word that is probably not a path but could be one: a
	// grep or sed pattern operand, the value attached to a short option
	// (-m.env), the value of an option the parser does not know. The gate
	// checks it only against the ignore rules and the protected paths,
	// never for leaving the root, so that guessing costs no noise.
	Maybe bool `json:"maybe,omitempty"`
	// Filter, on a Recursive reference, says which entries under the
	// directory Path the command can reach (a git pathspec with
	// wildcards or magic, grep -r --include, rg -g and -t): an ignored
	// file it rejects is never read. Nil: every entry (see PathFilter,
	// FileRef.Selects).
	Filter PathFilter `json:"-"`
	// Top: Path is relative to the top of the git work tree, not to
	// Cwd (git's :(top) and :/ pathspec magic): the gate resolves it
	// from its root, as a RefRev.
	Top bool `json:"top,omitempty"`
	// Listed: the command lists or stats Path (its name, size, mode,
	// or a directory's entries) and never reads its contents (ls -l,
	// stat, du, rg --files; see ListsOnly). An ignored file named so is
	// no ignored read.
	Listed bool `json:"listed,omitempty"`
	// Removed: a Write that deletes Path and creates nothing there (rm,
	// rmdir, unlink): rm -- -f makes no file named like an option.
	Removed bool `json:"removed,omitempty"`
}

// UnknownRef is an argument the gate cannot see: what xargs and parallel
// read from stdin, the {} that find -exec fills from its traversal, or
// files named inside another file (sort --files0-from, tar -T, rsync
// --files-from, zip -@) or written from one (tar x, unzip, patch, git
// apply/am).
type UnknownRef struct {
	Pos Pos `json:"pos"`
	// From lists the directories (as written, relative to the command's
	// Cwd) the unknown paths come from, e.g. find's starting points. Empty
	// means nothing is known about them (stdin).
	From    []string `json:"from,omitempty"`
	Message string   `json:"message"`
}

// Assign is a VAR=value assignment in front of a command, or one made by
// export/declare/readonly/local.
type Assign struct {
	Name  string `json:"name"`
	Value Word   `json:"value"`
	Pos   Pos    `json:"pos"`
}

// Command is one simple command found anywhere in the source, including
// the inner commands of wrappers. A wrapper (sudo, env, bash -c, xargs, …)
// is reported as a Command of its own, and each command it runs is reported
// again as a separate Command whose Wrappers name the chain around it.
// Argv is empty for a statement without a command word: an assignment
// (X=1) or a redirection alone (> f, which truncates f).
type Command struct {
	// Argv is the decoded argv as bash would pass it to the program.
	Argv []Word `json:"argv"`
	// Args holds Argv[i].Value, for convenience.
	Args []string `json:"args"`
	// MatchArgv is the argv that policy prefix rules are matched against:
	// Args with git's global options before the subcommand removed
	// (git -C . push → git push). Otherwise equal to Args.
	MatchArgv []string `json:"match_argv"`
	// Pos is where the command starts in the top-level source.
	Pos Pos `json:"pos"`
	// Wrappers names the wrappers around this command, outermost first
	// ("sudo", "env", "bash -c", "find -exec", …). Empty at top level.
	Wrappers  []string     `json:"wrappers,omitempty"`
	Assigns   []Assign     `json:"assigns,omitempty"`
	Redirects []Redirect   `json:"redirects,omitempty"`
	Files     []FileRef    `json:"files,omitempty"`
	Unknown   []UnknownRef `json:"unknown,omitempty"`
	// Cwd is the directory relative references resolve against, after any
	// static cd earlier in the chain: absolute when Options.Cwd is. When a
	// cd to a dynamic place came before, CwdDynamic is set and Cwd is the
	// last known directory.
	Cwd        string `json:"cwd"`
	CwdDynamic bool   `json:"cwd_dynamic,omitempty"`
	// Chdirs are the cd steps from Options.Cwd to Cwd, unresolved, for a
	// caller that resolves them with the file system as bash does (see
	// CdStep). Empty when no cd came before; not to be used when
	// CwdDynamic is set.
	Chdirs []CdStep `json:"chdirs,omitempty"`
	// UnknownOptions are the options of a program the analysis knows
	// every option of that are not among them: they may write a file or
	// run a program. A policy decides what they mean
	// (the embedded default policy asks: policy.unknown_option).
	UnknownOptions []Word `json:"unknown_options,omitempty"`
	// OptionHits are the options (or words) that make a command that
	// otherwise reads write, delete or run a program: find -delete, rg
	// --pre, sort -o, go test -exec, a sed or awk program that runs or
	// touches files, a git config that writes, … in any spelling. A
	// policy asks for each unless the prefix rule it allowed the command
	// with names it (policy.dangerous_option).
	OptionHits []OptionHit `json:"option_hits,omitempty"`
	// Loop is nonzero for a command that may run more than once: one
	// inside a while, until or for loop, or run by a wrapper that repeats
	// it (xargs, parallel, watch, find -exec). Commands with the same Loop
	// repeat together: it numbers the outermost repetition.
	Loop int `json:"loop,omitempty"`
	// Async reports a command that runs alongside commands after it: in
	// a job sent to the background with & (alongside every command after
	// it), or in a pipeline element before the last (alongside the rest
	// of its pipeline: the shell waits for the whole pipeline before it
	// goes on).
	Async bool `json:"async,omitempty"`
	// pipe numbers the outermost pipeline the command is in (0: none);
	// background: it is in a job sent to the background.
	pipe       int
	background bool
	// Transparent: the command is a shell (bash, sh, dash, zsh) running
	// a -c script that was parsed, with only options that change nothing
	// the gate checks (-l, -e, -u, -x, -o pipefail, …). Its inner
	// commands are checked; a policy rates it by them when no rule names
	// the shell itself (bash -lc 'git status' is git status).
	Transparent bool `json:"transparent,omitempty"`
	// ProgramWritten and ProgramWrites: the command runs a file by a
	// path (./x.sh, bin/x) or a binary npx finds in node_modules/.bin,
	// and commands before it in the source (or alongside it, or in the
	// same loop) write: ProgramWrites, the places they write (absolute,
	// lexical: a caller resolves them, and the program, with the file
	// system); ProgramWritten, a write that cannot be placed (a dynamic
	// name, a glob, an unknown directory) or listed (tar, git checkout,
	// curl -O, a guarded option). A written program is not the project's
	// own script (policy token {project}).
	ProgramWrites  []string `json:"program_writes,omitempty"`
	ProgramWritten bool     `json:"program_written,omitempty"`
}

// OptionHit is one guarded option of a command.
type OptionHit struct {
	Index int    `json:"index"` // into Command.MatchArgv
	What  string `json:"what"`  // the guarded prefix and the word: "sort --out=f"
	Why   string `json:"why"`   // what it does
}

// Analysis is the result of Analyze: every simple command and every
// finding. An Analysis with no findings may still be refused by policy.
type Analysis struct {
	Commands []Command `json:"commands"`
	Findings []Finding `json:"findings"`
}
