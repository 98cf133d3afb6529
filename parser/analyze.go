package parser

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// internalError starts the message of the finding that a recovered panic
// becomes.
const internalError = "internal error in the analysis"

// maxFindings bounds the findings of one analysis.
const maxFindings = 512

// Bounds on the source given to the parser: mvdan.cc/sh recurses once per
// level of nesting, and running out of stack is a fatal error that
// recover cannot catch. No real command comes near them.
const (
	maxSource  = 1 << 20 // bytes
	maxNesting = 500     // unclosed ( [ { at any point
	// maxWalk bounds the statements the walker is inside at once (a|b|…
	// and a&&b&&… chains nest one level per operator).
	maxWalk = 2000
)

// Default limits used when the corresponding Options field is zero.
const (
	DefaultMaxDepth    = 8
	DefaultMaxCommands = 256
)

// Options configures Analyze. The zero value is valid: no working
// directory, an empty environment and the default limits.
type Options struct {
	// Cwd is the directory the command starts in. Command.Cwd is derived
	// from it; when it is absolute, so is every Command.Cwd.
	Cwd string
	// Env is the only source of $HOME, ~ and (when Cwd is empty) $PWD. The
	// host's environment, user database and file system are never read.
	Env map[string]string
	// AddEnv holds the variables a request adds to the environment the
	// script runs with ("NAME=value"; an agent's ACP or /v1/bash env),
	// as opposed to the trusted environment Env describes. Each is judged
	// as an assignment prefixed to the script would be (a Finding whose
	// Var names it: env.code_injection for PATH, BASH_ENV, BASH_FUNC_*,
	// LD_*, …, and for an entry that is not NAME=value with a shell
	// variable name). Its value is known to the file checks: $NAME and
	// ${NAME} resolve to it when the value cannot split or glob and the
	// script never names the variable otherwise (it could assign it).
	AddEnv []string
	// MaxDepth bounds the nesting of wrappers and shell strings
	// (sudo bash -c '…'); 0 means DefaultMaxDepth. Deeper input yields the
	// finding parser.too_deep.
	MaxDepth int
	// MaxCommands bounds the number of commands reported; 0 means
	// DefaultMaxCommands. More yields the finding parser.too_many_commands.
	MaxCommands int
	// EnvSafe extends the short built-in list of environment variables
	// that no program reads as code or as a file (LANG, LC_*, TZ, TERM,
	// NO_COLOR, CI, …): names, or prefixes ending in "*". Assigning any
	// other variable that reaches a program's environment is env.unknown
	// (see AssignFindings). Nil adds nothing.
	EnvSafe []string
}

// sticky flags: state of the shell that a script can change and the
// analysis would otherwise assume.
type sticky uint8

const (
	stickyPWD       sticky = 1 << iota // PWD or OLDPWD assigned: $PWD, ~+, ~- unknown
	stickyGlob                         // shopt, set -o, bash -O: globs may not expand the default way
	stickyAllexport                    // set -a: every assignment is exported
)

// Analyzer analyses bash source. Its zero value is ready to use; it keeps
// a parser between calls, so reusing one Analyzer saves allocations. An
// Analyzer must not be used by several goroutines at once; the package
// function Analyze is safe for concurrent use.
type Analyzer struct {
	p *syntax.Parser
	s state // scratch reused between calls
	r strings.Reader
	// cp parses with comments kept, to find the comments an interactive
	// zsh reads as words (see interactiveZsh).
	cp *syntax.Parser
}

var analyzerPool = sync.Pool{New: func() any { return new(Analyzer) }}

// Analyze parses src as bash and reports every simple command and every
// finding. It never reads the host's environment or file system, and it
// does not panic: an internal error becomes a parser.unsupported finding,
// so a gate refuses the command. It is safe for concurrent use.
func Analyze(src string, opts Options) *Analysis {
	a := analyzerPool.Get().(*Analyzer)
	defer analyzerPool.Put(a)
	return a.Analyze(src, opts)
}

// Analyze is like the package function Analyze, reusing a's parser.
func (a *Analyzer) Analyze(src string, opts Options) (res *Analysis) {
	if a.p == nil {
		a.p = syntax.NewParser(syntax.Variant(syntax.LangBash))
	}
	if opts.MaxDepth <= 0 {
		opts.MaxDepth = DefaultMaxDepth
	}
	if opts.MaxCommands <= 0 {
		opts.MaxCommands = DefaultMaxCommands
	}
	defer func() {
		// Fail closed: a bug here must refuse the command, not crash the
		// caller nor let it through.
		if r := recover(); r != nil {
			res = &Analysis{Findings: []Finding{{Rule: "parser.unsupported",
				Message: fmt.Sprintf("%s: %v", internalError, r)}}}
		}
	}()
	res = a.analyze(src, opts)
	if res != nil && strings.IndexByte(src, '#') >= 0 && len(src) <= maxSource && nestedAt(src) < 0 {
		a.interactiveZsh(src, opts, res)
	}
	return res
}

// analyze walks src until the sticky flags it sets are preset.
func (a *Analyzer) analyze(src string, opts Options) *Analysis {
	s := &a.s
	var preset sticky
	for {
		res := a.walk(src, opts, preset)
		if s.sticky&^preset == 0 || res == nil {
			return res
		}
		preset |= s.sticky // analyse again, as if it had been set from the start
	}
}

// walk is one analysis of src with the sticky flags preset.
func (a *Analyzer) walk(src string, opts Options, preset sticky) *Analysis {
	s := &a.s
	*s = state{p: a.p, opts: opts, res: &Analysis{}, top: src, r: &a.r,
		buf: s.buf[:0], pbuf: s.pbuf[:0], sticky: preset}
	s.res.Commands = make([]Command, 0, min(1+strings.Count(src, "&")/2+strings.Count(src, "|")+
		strings.Count(src, ";")+strings.Count(src, "\n"), 16))
	s.arenaHint = min(strings.Count(src, " ")+2, 64) // about the number of words
	start := cwdState{dir: opts.Cwd}
	if start.dir == "" {
		start.dir = opts.Env["PWD"]
	}
	if len(src) > maxSource {
		s.find("parser.too_deep", Pos{Line: 1, Col: 1}, fmt.Sprintf("command longer than %d bytes", maxSource))
		return s.finish()
	}
	s.controls(src)
	s.addEnv(src)
	s.script(src, &ctx{src: src}, start, Pos{})
	s.linkPass()
	for i := range s.res.Commands {
		// Every command gets the request's environment, and so reads
		// (or writes) the files its variables name, from its own cwd.
		s.res.Commands[i].Files = append(s.res.Commands[i].Files, s.envRefs...)
	}
	if s.stmts == 0 && len(s.res.Commands) == 0 && !s.hasRule("parser.syntax") && !s.hasRule("parser.too_deep") {
		s.find("parser.empty", Pos{}, "no command to run")
	}
	return s.finish()
}

// addEnv judges the variables of Options.AddEnv as exported assignments
// (AssignFindings), keeps the files they name for every command, and the
// values that $NAME can resolve to in s.vars.
func (s *state) addEnv(src string) {
	s.vars, s.envRefs = nil, nil
	for _, kv := range s.opts.AddEnv {
		name, val, ok := strings.Cut(kv, "=")
		if !ok || !validName(name) {
			s.res.Findings = append(s.res.Findings, Finding{Rule: "env.code_injection", Var: name,
				Message: fmt.Sprintf("the request's environment entry %q is not NAME=value with a shell variable name (bash may import it as a function)", clip(kv, 80))})
			continue
		}
		// Judged as an exported assignment before the script is: code,
		// a file a program reads or writes, harmless, or unknown.
		s.stateVar(name)
		if why := zshParamWhy(name); why != "" {
			s.res.Findings = append(s.res.Findings, Finding{Rule: "env.code_injection", Var: name,
				Message: "the request's environment adds " + name + ": " + why})
		}
		fs, refs := AssignFindings(name, val, false, Pos{}, s.opts)
		for _, f := range fs {
			f.Var, f.Message = name, "the request's environment adds "+name+": "+f.Message
			s.res.Findings = append(s.res.Findings, f)
		}
		s.envRefs = append(s.envRefs, refs...)
		if plainValue(val) && countNamed(src, name) == 0 {
			s.setVar(name, value{elems: []Word{{Value: val}}, env: true})
		} else {
			delete(s.vars, name)
		}
	}
}

// validName reports whether name is a shell variable name.
func validName(name string) bool {
	if name == "" || name[0] >= '0' && name[0] <= '9' {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !isNameByte(name[i]) {
			return false
		}
	}
	return true
}

// clip cuts s to at most n bytes for a message.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// finish returns the result and drops every reference to the caller's
// data.
func (s *state) finish() *Analysis {
	res := s.res
	programsWritten(res.Commands)
	s.res, s.top, s.opts, s.vars = nil, "", Options{}, nil
	return res
}

// nestedAt returns the offset where src opens more than maxNesting
// brackets ( [ { that are not yet closed, or -1. Quotes are not
// considered: over-counting only refuses more.
func nestedAt(src string) int {
	depth := 0
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '(', '[', '{':
			if depth++; depth > maxNesting {
				return i
			}
		case ')', ']', '}':
			depth = max(depth-1, 0)
		}
	}
	return -1
}

// strs returns n strings carved from a shared arena: one allocation for
// the Args of many commands.
func (s *state) strs(n int) []string {
	if cap(s.strArena)-len(s.strArena) < n {
		s.strArena = make([]string, 0, max(s.arenaHint, n))
	}
	l := len(s.strArena)
	s.strArena = s.strArena[:l+n]
	return s.strArena[l : l+n : l+n]
}

// wordSlice returns an empty slice with room for n words, carved from a
// shared arena.
func (s *state) wordSlice(n int) []Word {
	if cap(s.wordArena)-len(s.wordArena) < n {
		s.wordArena = make([]Word, 0, max(s.arenaHint, n))
	}
	l := len(s.wordArena)
	s.wordArena = s.wordArena[:l+n]
	return s.wordArena[l : l : l+n]
}

// state is one analysis in progress.
type state struct {
	p         *syntax.Parser
	opts      Options
	res       *Analysis
	top       string // the top-level source
	lines     []int  // offsets of line starts in top, built on demand
	r         *strings.Reader
	strArena  []string
	wordArena []Word
	arenaHint int
	// sticky holds what the script may change that the analysis would
	// otherwise resolve itself: once set anywhere, the whole source is
	// analysed again with it set from the start (a loop repeats what
	// comes before it).
	sticky sticky
	// stdin is the text a heredoc or here-string feeds to the command
	// being walked (a shell without a script runs it).
	stdin *Word
	buf   []byte // scratch for decoding words
	pbuf  []byte // scratch for the glob pattern of a word
	quiet int    // >0: do not report findings
	// bracket: the word being decoded had an unquoted [ so far.
	bracket bool
	// zshTilde: the word being decoded has an unquoted ~ after its start
	// (zsh's extendedglob exclusion x~y when the word is a glob).
	zshTilde bool
	// zshTTY: the script about to be walked is read by an interactive
	// zsh (zsh -i with a heredoc): see ctx.zshTTY.
	zshTTY bool
	// noAssignTilde > 0: no ~ expansion after = and : (brace results)
	noAssignTilde int
	stmts         int  // statements seen at top level
	walk          int  // statements being walked (recursion depth)
	stopped       bool // MaxCommands reached
	cwd           cwdState
	vars          map[string]value // variables whose values are known statically (values.go)
	assigns       map[string]int   // top-level plain assignments per variable (values.go)
	envRefs       []FileRef        // files the AddEnv variables name
	loop, loops   int              // Command.Loop of the commands being walked; loops numbered so far
	pipe, pipes   int              // Command.pipe likewise, for pipelines
	concurrent    int              // >0: walking a pipeline or a background job
}

// ctx is where in the (possibly nested) source the walker is.
type ctx struct {
	src      string   // the source the current AST was parsed from
	fr       frame    // maps src positions to top-level positions
	wrappers []string // wrappers around commands found here
	depth    int
	zsh      bool // src is a script zsh runs (zsh -c STRING): see zshScript
	zshTTY   bool // … an interactive zsh, reading it as a terminal's lines
}

// frame maps positions of a nested source (the STRING of bash -c STRING)
// to the top-level source: exactly when the string is written verbatim
// (single quotes, or no quoting or escapes), else to the string's start.
type frame struct {
	nested    bool
	exact     bool
	line, col int
}

func (c *ctx) pos(p syntax.Pos) Pos {
	l, col := int(p.Line()), int(p.Col())
	if !c.fr.nested {
		return Pos{Line: l, Col: col}
	}
	if !c.fr.exact {
		return Pos{Line: c.fr.line, Col: c.fr.col}
	}
	if l == 1 {
		col += c.fr.col - 1
	}
	return Pos{Line: l + c.fr.line - 1, Col: col}
}

// posOffset maps a byte offset of c.src (used for raw character scans).
func (c *ctx) posOffset(off int) Pos {
	line, col := 1, 1
	for i := 0; i < off && i < len(c.src); i++ {
		if c.src[i] == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return c.pos(syntax.NewPos(uint(off), uint(line), uint(col)))
}

func (c *ctx) text(n syntax.Node) string {
	a, b := int(n.Pos().Offset()), int(n.End().Offset())
	if a < 0 || b > len(c.src) || a > b {
		return ""
	}
	return c.src[a:b]
}

// cwdState is the effective working directory at some point of a chain.
type cwdState struct {
	dir   string
	dyn   bool
	chain *cdChain // the cd steps to dir (Command.Chdirs)
}

// merge joins two paths of control flow: if they disagree, the directory
// is no longer known for sure.
func merge(a, b cwdState) cwdState {
	if a == b {
		return a
	}
	return cwdState{dir: a.dir, dyn: true}
}

func (s *state) find(rule string, p Pos, msg string) {
	if s.quiet > 0 || len(s.res.Findings) >= maxFindings {
		return // past maxFindings the verdict cannot change: stop collecting
	}
	for _, f := range s.res.Findings {
		if f.Rule == rule && f.Pos == p {
			return // one finding per rule and place
		}
	}
	s.res.Findings = append(s.res.Findings, Finding{Rule: rule, Message: msg, Pos: p})
}

func (s *state) hasRule(rule string) bool {
	for _, f := range s.res.Findings {
		if f.Rule == rule {
			return true
		}
	}
	return false
}

// script parses and walks src in context c.
func (s *state) script(src string, c *ctx, cwd cwdState, anchor Pos) {
	if off := nestedAt(src); off >= 0 {
		s.find("parser.too_deep", c.posOffset(off), fmt.Sprintf("brackets nested more than %d deep", maxNesting))
		return
	}
	s.r.Reset(src)
	f, err := s.p.Parse(s.r, "")
	if err != nil {
		p := anchor
		var pe syntax.ParseError
		var le syntax.LangError
		switch {
		case errors.As(err, &pe):
			p = c.pos(pe.Pos)
		case errors.As(err, &le):
			p = c.pos(le.Pos)
		}
		if p == (Pos{}) {
			p = Pos{Line: 1, Col: 1}
		}
		msg := err.Error()
		if i := strings.LastIndex(msg, ": "); i >= 0 && pe.Text != "" {
			msg = pe.Text
		}
		s.find("parser.syntax", p, "syntax error: "+msg)
		return
	}
	if c.depth == 0 {
		s.stmts = len(f.Stmts)
	}
	if c.zsh {
		s.zshScript(src, c)
	}
	if mayHaveLookalike(src) {
		s.lookalikes(f, c)
	}
	if c.depth > 0 || c.fr.nested || src != s.top {
		s.list(f.Stmts, cwd, c)
		return
	}
	// The top-level list: a plain assignment statement there gives its
	// variable a value known statically from then on (see staticAssign).
	s.countAssigns(f.Stmts)
	succ, fail := cwd, cwd
	for i, st := range f.Stmts {
		if i > 0 {
			cwd = merge(succ, fail)
		}
		succ, fail = s.stmt(st, cwd, c)
		s.staticAssign(st, c, cwd)
	}
}

// specialVar reports bash's variables that bash itself sets or gives a
// meaning: their values are not what a script assigned.
func specialVar(name string) bool {
	switch name {
	case "RANDOM", "SRANDOM", "SECONDS", "LINENO", "EPOCHSECONDS", "EPOCHREALTIME", "BASHPID", "PWD", "OLDPWD", "UID", "EUID",
		"PPID", "BASHOPTS", "SHELLOPTS", "FUNCNAME", "GROUPS", "HISTCMD", "DIRSTACK", "PIPESTATUS", "IFS", "PATH", "HOME", "CDPATH",
		"REPLY", "OPTARG", "OPTIND", "HOSTNAME", "HOSTTYPE", "MACHTYPE", "OSTYPE", "SHLVL", "_":
		return true
	}
	return strings.HasPrefix(name, "BASH") || strings.HasPrefix(name, "COMP_")
}

// controls reports control characters other than tab, newline and the
// line-break look-alikes, anywhere in the source: a NUL ends the string
// bash is given, and escape sequences and bidirectional controls change
// what a reviewer sees.
func (s *state) controls(src string) {
	line, col := 1, 1
	for i := 0; i < len(src); i++ {
		ch := src[i]
		bad := ch < 0x20 && ch != '\t' && ch != '\n' && ch != '\r' && ch != '\v' && ch != '\f' || ch == 0x7f
		r := rune(ch)
		if ch >= 0x80 {
			r, _ = utf8.DecodeRuneInString(src[i:])
			bad = r >= 0x80 && r <= 0x9f && r != 0x85 || isBidi(r)
		}
		if bad {
			s.find("parser.unsupported", Pos{Line: line, Col: col},
				fmt.Sprintf("control character %U in the command", r))
			return
		}
		if ch == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
}

// mayHaveLookalike is a fast conservative test for lookalikes' bytes.
func mayHaveLookalike(src string) bool {
	for i := 0; i < len(src); i++ {
		switch src[i] {
		case '\r', '\v', '\f', 0xe2, 0xc2:
			return true
		}
	}
	return false
}

// isBidi reports the Unicode bidirectional controls, which reorder how
// text is shown ("Trojan Source").
func isBidi(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x061c
}

// lookalikes reports characters that render as a line break but are not
// one to bash, outside quotes.
func (s *state) lookalikes(f *syntax.File, c *ctx) {
	type span struct{ a, b int }
	var quoted []span
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			quoted = append(quoted, span{int(n.Pos().Offset()), int(n.End().Offset())})
		case *syntax.Redirect:
			if n.Hdoc != nil {
				quoted = append(quoted, span{int(n.Hdoc.Pos().Offset()), int(n.Hdoc.End().Offset())})
			}
		}
		return true
	})
	// Sort and merge the spans into disjoint ones (heredoc bodies come
	// after the rest of their line).
	slices.SortFunc(quoted, func(x, y span) int { return x.a - y.a })
	merged := quoted[:0]
	for _, q := range quoted {
		if n := len(merged); n > 0 && q.a < merged[n-1].b {
			merged[n-1].b = max(merged[n-1].b, q.b)
			continue
		}
		merged = append(merged, q)
	}
	src := c.src
	reported, k := 0, 0
	for i := 0; i < len(src); i++ {
		n := 0
		switch {
		case src[i] == '\r', src[i] == '\v', src[i] == '\f': // CR: bare, or in CRLF where bash keeps it
			n = 1
		case strings.HasPrefix(src[i:], "\u2028"), strings.HasPrefix(src[i:], "\u2029"):
			n = 3
		case strings.HasPrefix(src[i:], "\u0085"):
			n = 2
		}
		if n == 0 {
			continue
		}
		for k < len(merged) && merged[k].b <= i {
			k++
		}
		if k == len(merged) || i < merged[k].a {
			s.find("parser.line_break_lookalike", c.posOffset(i),
				fmt.Sprintf("%q renders as a line break but is not one to bash", src[i:i+n]))
			if reported++; reported == 16 {
				return
			}
		}
		i += n - 1
	}
}

// list walks statements run one after another (; or newline).
func (s *state) list(stmts []*syntax.Stmt, cwd cwdState, c *ctx) cwdState {
	succ, fail := s.listSF(stmts, cwd, c)
	return merge(succ, fail)
}

// listSF walks a statement list and returns the directories after its last
// statement succeeded and failed (for if and while conditions).
func (s *state) listSF(stmts []*syntax.Stmt, cwd cwdState, c *ctx) (succ, fail cwdState) {
	succ, fail = cwd, cwd
	for i, st := range stmts {
		if i > 0 {
			cwd = merge(succ, fail)
		}
		succ, fail = s.stmt(st, cwd, c)
	}
	return succ, fail
}

// stmt walks one statement starting in directory cwd and returns the
// directory after it succeeded and after it failed.
func (s *state) stmt(st *syntax.Stmt, cwd cwdState, c *ctx) (succ, fail cwdState) {
	if s.stopped {
		return cwd, cwd
	}
	if s.walk++; s.walk > maxWalk {
		s.walk--
		s.find("parser.too_deep", c.pos(st.Pos()), fmt.Sprintf("statements nested more than %d deep", maxWalk))
		s.stopped = true
		return cwd, cwd
	}
	defer func() { s.walk-- }()
	first := len(s.res.Commands)
	if st.Background {
		s.concurrent++ // runs alongside what follows (values.go)
		defer func() { s.concurrent-- }()
	}
	if ce, ok := st.Cmd.(*syntax.CallExpr); ok || st.Cmd == nil {
		succ, fail = s.callExpr(st, ce, cwd, c)
	} else {
		succ, fail = s.compound(st.Cmd, cwd, c)
		if len(st.Redirs) > 0 {
			s.compoundRedirects(st, first, cwd, c)
		}
	}
	if st.Coprocess {
		s.find("parser.coprocess", c.pos(st.Pos()), "coprocess")
	}
	if st.Background {
		s.async(first)
		for k := first; k < len(s.res.Commands); k++ {
			s.res.Commands[k].background = true
		}
		// A background job runs in a subshell: its cd is not ours.
		return cwd, cwd
	}
	if st.Negated {
		succ, fail = fail, succ
	}
	return succ, fail
}

// compoundRedirects attaches the redirects of a compound command
// ({ …; } > f, while …; done < f) to every command inside it.
func (s *state) compoundRedirects(st *syntax.Stmt, first int, cwd cwdState, c *ctx) {
	var tmp Command
	s.cwd = cwd
	for _, r := range st.Redirs {
		s.redirect(r, c, &tmp)
	}
	if first == len(s.res.Commands) {
		tmp.Pos = c.pos(st.Pos())
		tmp.Wrappers = c.wrappers
		tmp.Cwd, tmp.CwdDynamic, tmp.Chdirs = cwd.dir, cwd.dyn, cwd.chain.steps()
		s.add(tmp)
		return
	}
	for i := first; i < len(s.res.Commands); i++ {
		cmd := &s.res.Commands[i]
		cmd.Redirects = append(cmd.Redirects, tmp.Redirects...)
		cmd.Files = append(cmd.Files, tmp.Files...)
	}
}

// compound walks every command other than a simple command.
func (s *state) compound(cmd syntax.Command, cwd cwdState, c *ctx) (succ, fail cwdState) {
	switch x := cmd.(type) {
	case *syntax.BinaryCmd:
		switch x.Op {
		case syntax.AndStmt:
			s1, f1 := s.stmt(x.X, cwd, c)
			s2, f2 := s.stmt(x.Y, s1, c)
			return s2, merge(f1, f2)
		case syntax.OrStmt:
			s1, f1 := s.stmt(x.X, cwd, c)
			s2, f2 := s.stmt(x.Y, f1, c)
			return merge(s1, s2), f2
		default: // | and |&: every element runs in a subshell
			s.concurrent++ // the elements run at once (values.go)
			defer func() { s.concurrent-- }()
			if s.pipe == 0 {
				s.pipes++
				s.pipe = s.pipes
				defer func() { s.pipe = 0 }()
			}
			first := len(s.res.Commands)
			s.stmt(x.X, cwd, c)
			s.async(first)
			s.stmt(x.Y, cwd, c)
			return cwd, cwd
		}
	case *syntax.Block:
		return s.listSF(x.Stmts, cwd, c)
	case *syntax.Subshell:
		s.find("parser.subshell", c.pos(x.Lparen), "subshell ( … )")
		s.list(x.Stmts, cwd, c)
		return cwd, cwd
	case *syntax.IfClause:
		out := cwd
		first := true
		for cl := x; cl != nil; cl = cl.Else {
			branch := cwd
			if len(cl.Cond) > 0 {
				succ, fail := s.listSF(cl.Cond, cwd, c)
				branch, cwd = succ, fail
			}
			end := s.list(cl.Then, branch, c)
			if first {
				out, first = end, false
			} else {
				out = merge(out, end)
			}
			if cl.Else == nil && len(cl.Cond) > 0 {
				out = merge(out, cwd) // no else: the failed condition falls through
			}
		}
		return out, out
	case *syntax.WhileClause:
		defer s.repeat()()
		succ, fail := s.listSF(x.Cond, cwd, c)
		body := succ
		if x.Until {
			body = fail
		}
		end := s.list(x.Do, body, c)
		out := merge(merge(succ, fail), end)
		if out != cwd {
			out.dyn = true // a loop may repeat its cd
		}
		return out, out
	case *syntax.ForClause:
		inLoop := s.loop != 0
		defer s.repeat()()
		switch l := x.Loop.(type) {
		case *syntax.WordIter:
			s.checkEnv(l.Name.Value, c.pos(l.Name.Pos()))
			s.zshParam(l.Name.Value, c.pos(l.Name.Pos()))
			s.historyVar(l.Name.Value, c.pos(l.Name.Pos()))
			for _, w := range l.Items {
				s.scanWord(w, c)
			}
		case *syntax.CStyleLoop:
			for _, e := range []syntax.ArithmExpr{l.Init, l.Cond, l.Post} {
				if e != nil {
					s.arithm(e, c)
				}
			}
		default:
			s.unsupported(x, c)
		}
		var end cwdState
		s.cwd = cwd
		if vals, name, ok := s.loopValues(x, c); ok {
			// Each value in turn: the body is checked once per value,
			// each pass starting where the one before ended (a cd in the
			// body carries over). A glob stands for every name it
			// matches: when the body moves the cwd, it is checked again
			// from where a later pass may start.
			end = cwd
			cur := cwd
			late := inLoop || s.concurrent > 0 || s.ranBefore()
			for _, v := range vals {
				s.setVar(name, value{elems: []Word{v}, dir: cwd, late: late})
				start := cur
				cur = s.list(x.Do, cur, c)
				if v.Glob && cur != start {
					cur = s.list(x.Do, merge(start, cur), c)
				}
				end = merge(end, cur)
			}
			delete(s.vars, name)
		} else {
			end = s.list(x.Do, cwd, c)
		}
		out := merge(cwd, end)
		if out != cwd {
			out.dyn = true
		}
		return out, out
	case *syntax.CaseClause:
		s.scanWord(x.Word, c)
		out := cwd
		for _, it := range x.Items {
			for _, p := range it.Patterns {
				s.scanWord(p, c)
			}
			out = merge(out, s.list(it.Stmts, cwd, c))
		}
		return out, out
	case *syntax.FuncDecl:
		s.find("parser.function_definition", c.pos(x.Position), "function definition")
		if x.Body != nil {
			s.stmt(x.Body, cwd, c)
		}
		return cwd, cwd
	case *syntax.ArithmCmd:
		s.arithm(x.X, c)
		return cwd, cwd
	case *syntax.TestClause:
		s.cwd = cwd
		cmd := Command{Pos: c.pos(x.Left), Wrappers: c.wrappers, Cwd: cwd.dir, CwdDynamic: cwd.dyn, Chdirs: cwd.chain.steps()}
		cmd.Argv = append(cmd.Argv, Word{Value: "[[", Pos: cmd.Pos})
		cmd.Argv = s.testExpr(x.X, c, cmd.Argv)
		cmd.Argv = append(cmd.Argv, Word{Value: "]]", Pos: c.pos(x.Right)})
		for _, w := range cmd.Argv[1 : len(cmd.Argv)-1] {
			if !isTestOp(w.Value) && !strings.HasPrefix(w.Value, "-") {
				s.fileRef(&cmd, w, RefArg, useRead)
			}
		}
		s.add(cmd)
		return cwd, cwd
	case *syntax.DeclClause:
		return s.declClause(x, cwd, c)
	case *syntax.LetClause:
		s.cwd = cwd
		cmd := Command{Pos: c.pos(x.Let), Wrappers: c.wrappers, Cwd: cwd.dir, CwdDynamic: cwd.dyn, Chdirs: cwd.chain.steps()}
		cmd.Argv = append(cmd.Argv, Word{Value: "let", Pos: cmd.Pos})
		for _, e := range x.Exprs {
			s.arithm(e, c)
			cmd.Argv = append(cmd.Argv, Word{Value: c.text(e), Pos: c.pos(e.Pos()), Dynamic: true})
		}
		s.add(cmd)
		return cwd, cwd
	case *syntax.TimeClause:
		if x.Stmt == nil {
			return cwd, cwd
		}
		return s.stmt(x.Stmt, cwd, c)
	case *syntax.CoprocClause:
		s.find("parser.coprocess", c.pos(x.Coproc), "coprocess")
		if x.Stmt != nil {
			s.stmt(x.Stmt, cwd, c)
		}
		return cwd, cwd
	default:
		s.unsupported(cmd, c)
		return cwd, cwd
	}
}

func (s *state) unsupported(n syntax.Node, c *ctx) {
	s.find("parser.unsupported", c.pos(n.Pos()), fmt.Sprintf("unsupported shell construct %T", n))
}

func isTestOp(v string) bool {
	switch v {
	case "!", "(", ")", "&&", "||", "=", "==", "!=", "=~", "<", ">",
		"-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef":
		return true
	}
	return false
}

// testExpr walks a [[ ]] expression, reporting findings and appending its
// words to argv.
func (s *state) testExpr(x syntax.TestExpr, c *ctx, argv []Word) []Word {
	switch x := x.(type) {
	case *syntax.Word:
		return append(argv, s.word(x, c))
	case *syntax.UnaryTest:
		argv = append(argv, Word{Value: x.Op.String(), Pos: c.pos(x.OpPos)})
		if x.Op == syntax.TsVarSet || x.Op == syntax.TsRefVar {
			if w, ok := x.X.(*syntax.Word); ok {
				v := s.word(w, c)
				s.checkVarName(v)
				return append(argv, v)
			}
		}
		return s.testExpr(x.X, c, argv)
	case *syntax.BinaryTest:
		argv = s.testExpr(x.X, c, argv)
		argv = append(argv, Word{Value: x.Op.String(), Pos: c.pos(x.OpPos)})
		switch x.Op {
		case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
			for _, op := range []syntax.TestExpr{x.X, x.Y} {
				if w, ok := op.(*syntax.Word); ok && !isArithLiteral(w) {
					s.find("parser.arithmetic_variable", c.pos(w.Pos()),
						"[[ "+x.Op.String()+" ]] evaluates its operands as arithmetic: a variable's value runs as code")
				}
			}
		}
		return s.testExpr(x.Y, c, argv)
	case *syntax.ParenTest:
		argv = append(argv, Word{Value: "(", Pos: c.pos(x.Lparen)})
		argv = s.testExpr(x.X, c, argv)
		return append(argv, Word{Value: ")", Pos: c.pos(x.Rparen)})
	default:
		s.unsupported(x, c)
		return argv
	}
}

// arithm reports arithmetic that references a variable (bash evaluates the
// variable's value as an expression, which may run code through a[$(…)])
// and any substitution inside.
func (s *state) arithm(x syntax.ArithmExpr, c *ctx) {
	switch x := x.(type) {
	case *syntax.Word:
		if !isArithLiteral(x) {
			s.find("parser.arithmetic_variable", c.pos(x.Pos()),
				"arithmetic references a variable: bash evaluates its value as code")
		}
		s.scanWord(x, c)
	case *syntax.BinaryArithm:
		s.arithm(x.X, c)
		s.arithm(x.Y, c)
	case *syntax.UnaryArithm:
		s.arithm(x.X, c)
	case *syntax.ParenArithm:
		s.arithm(x.X, c)
	default:
		s.unsupported(x, c)
	}
}

// isArithLiteral reports whether w is a plain integer constant.
func isArithLiteral(w *syntax.Word) bool {
	if len(w.Parts) != 1 {
		return false
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	return ok && isNumber(l.Value)
}

// isNumber reports whether v is an integer constant of bash arithmetic:
// 42, 0x2a, 052, 2#101010, 64#z.
func isNumber(v string) bool {
	if v == "" {
		return false
	}
	if len(v) > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X') {
		for _, r := range v[2:] {
			if !strings.ContainsRune("0123456789abcdefABCDEF", r) {
				return false
			}
		}
		return true
	}
	i := 0
	for i < len(v) && v[i] >= '0' && v[i] <= '9' {
		i++
	}
	if i == 0 {
		return false
	}
	if i == len(v) {
		return true
	}
	if v[i] != '#' || i+1 == len(v) {
		return false
	}
	for _, r := range v[i+1:] {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '@' || r == '_') {
			return false
		}
	}
	return true
}

// checkVarName reports a variable name with an array subscript that bash
// would evaluate as arithmetic (printf -v 'a[$(id)]', read, unset, -v).
func (s *state) checkVarName(w Word) {
	i := strings.IndexByte(w.Value, '[')
	if w.Dynamic {
		s.find("parser.eval", w.Pos, "dynamic variable name is evaluated as code")
		return
	}
	if i < 0 {
		return
	}
	sub := strings.TrimSuffix(w.Value[i+1:], "]")
	if sub == "@" || sub == "*" || isNumber(sub) {
		return
	}
	s.find("parser.arithmetic_variable", w.Pos, "array subscript "+w.Value+" is evaluated as code")
}

// add records a finished command, enforcing MaxCommands.
func (s *state) add(cmd Command) bool {
	if s.stopped {
		return false
	}
	if len(s.res.Commands) >= s.opts.MaxCommands {
		s.stopped = true
		s.quiet = 0
		s.find("parser.too_many_commands", cmd.Pos,
			fmt.Sprintf("more than %d commands", s.opts.MaxCommands))
		return false
	}
	if cmd.Args == nil {
		cmd.Args = s.strs(len(cmd.Argv))
		for i, w := range cmd.Argv {
			cmd.Args[i] = w.Value
		}
	}
	if cmd.MatchArgv == nil {
		cmd.MatchArgv = npmMatchArgv(cmd.Args)
	}
	cmd.Loop, cmd.pipe = s.loop, s.pipe
	s.res.Commands = append(s.res.Commands, cmd)
	if c := &s.res.Commands[len(s.res.Commands)-1]; len(c.MatchArgv) > 0 {
		c.OptionHits = optionHits(c) // c, not &cmd: cmd would escape
	}
	return true
}

// joinDir resolves dir against base like cd does, lexically.
func joinDir(base, dir string) string {
	if path.IsAbs(dir) || base == "" {
		return path.Clean(dir)
	}
	return path.Join(base, dir)
}
