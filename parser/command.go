package parser

import (
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// callExpr walks a simple command (ce may be nil for a redirect-only
// statement such as "> f").
func (s *state) callExpr(st *syntax.Stmt, ce *syntax.CallExpr, cwd cwdState, c *ctx) (succ, fail cwdState) {
	s.cwd = cwd
	cmd := Command{Pos: c.pos(st.Pos()), Wrappers: c.wrappers, Cwd: cwd.dir, CwdDynamic: cwd.dyn, Chdirs: cwd.chain.steps()}
	if ce != nil {
		// A prefix assignment (VAR=x cmd) reaches cmd's environment; a
		// bare one (VAR=x) only the shell's, unless set -a exports it.
		exported := len(ce.Args) > 0 || s.sticky&stickyAllexport != 0
		mark := len(s.res.Findings)
		for _, a := range ce.Assigns {
			as := s.assign(a, c)
			s.judgeAssign(&cmd, as, exported)
			cmd.Assigns = append(cmd.Assigns, as)
		}
		if len(ce.Args) > 0 {
			cmd.Argv = s.wordSlice(len(ce.Args))
			for _, w := range ce.Args {
				cmd.Argv = s.words(w, c, cmd.Argv)
			}
			if len(cmd.Argv) > 0 {
				cmd.Pos = cmd.Argv[0].Pos
			}
			s.envSeenBy(&cmd, mark)
		}
	}
	stdin := s.stdin
	s.stdin = nil
	for _, r := range st.Redirs {
		if w, ok := s.redirect(r, c, &cmd); ok {
			s.stdin = &w
		}
	}
	succ, fail = s.run(cmd, c, cwd, true)
	s.stdin = stdin
	return succ, fail
}

// assign decodes an assignment and reports the dangerous ones.
func (s *state) assign(a *syntax.Assign, c *ctx) Assign {
	var out Assign
	if a.Name == nil {
		if a.Value != nil {
			out.Value = s.word(a.Value, c)
			out.Pos = out.Value.Pos
		}
		return out
	}
	out.Name = a.Name.Value
	out.Pos = c.pos(a.Name.Pos())
	if a.Index != nil {
		s.arithm(a.Index, c)
	}
	if a.Value != nil {
		out.Value = s.word(a.Value, c)
	}
	if a.Array != nil {
		out.Value = Word{Value: c.text(a.Array), Pos: c.pos(a.Array.Pos()), Dynamic: true}
		for _, e := range a.Array.Elems {
			if e.Index != nil {
				s.arithm(e.Index, c)
			}
			s.scanWord(e.Value, c)
		}
	}
	return out
}

// judgeAssign judges an assignment made by the shell: one that reaches
// a program's environment as AssignFindings does, else only for code.
func (s *state) judgeAssign(cmd *Command, as Assign, exported bool) {
	if as.Name == "" {
		return
	}
	s.zshParam(as.Name, as.Pos)
	switch {
	case exported:
		s.exportEnv(cmd, as.Name, as.Value, as.Pos)
	case historyFile[as.Name]:
		// The shell itself writes its history there: an interactive
		// shell (zsh with share_history, as frameworks set it) after
		// each command, any shell on history -w or fc -W.
		s.exportEnv(cmd, as.Name, as.Value, as.Pos)
	default:
		s.checkEnv(as.Name, as.Pos)
	}
}

// historyFile are the variables naming the file the shell reads and
// writes its history from.
var historyFile = map[string]bool{"HISTFILE": true}

// zshParam reports an assignment to a parameter zsh gives a meaning
// (path, functions, commands, …): the verdict holds whether bash or zsh
// runs the line.
func (s *state) zshParam(name string, p Pos) {
	if why := zshParamWhy(name); why != "" {
		s.find("env.code_injection", p, why)
	}
}

// historyVar reports a variable naming the history file assigned a
// value the analysis does not see (read, for, printf -v, getln): an
// interactive shell writes its history there.
func (s *state) historyVar(name string, p Pos) {
	if historyFile[name] {
		s.find("env.unknown", p, name+" names the file the shell writes its history to, and its value is not known here")
	}
}

// declClause walks export/declare/local/readonly/typeset/nameref.
func (s *state) declClause(d *syntax.DeclClause, cwd cwdState, c *ctx) (succ, fail cwdState) {
	s.cwd = cwd
	cmd := Command{Pos: c.pos(d.Pos()), Wrappers: c.wrappers, Cwd: cwd.dir, CwdDynamic: cwd.dyn, Chdirs: cwd.chain.steps()}
	cmd.Argv = append(cmd.Argv, Word{Value: d.Variant.Value, Pos: cmd.Pos})
	if d.Variant.Value == "nameref" {
		s.find("parser.eval", cmd.Pos, "nameref variables redirect assignments to other names")
	}
	exported := d.Variant.Value == "export" || s.sticky&stickyAllexport != 0
	for _, a := range d.Args {
		if a.Name == nil && a.Value != nil {
			if l := a.Value.Lit(); strings.HasPrefix(l, "-") && strings.ContainsRune(l, 'x') {
				exported = true // declare -x, local -x, typeset -x
			}
		}
	}
	for _, a := range d.Args {
		if a.Name == nil && a.Value != nil {
			// A word that is not a plain assignment: bash expands it
			// (export {PATH,X}=/tmp assigns PATH).
			n := len(cmd.Argv)
			cmd.Argv = s.words(a.Value, c, cmd.Argv)
			for _, w := range cmd.Argv[n:] {
				if k := assignPrefix(w.Value); k > 0 && !strings.HasPrefix(w.Value, "-") {
					as := Assign{Name: w.Value[:k-1], Pos: w.Pos,
						Value: Word{Value: w.Value[k:], Pos: w.Pos, Dynamic: w.Dynamic, Glob: w.Glob}}
					s.judgeAssign(&cmd, as, exported)
					cmd.Assigns = append(cmd.Assigns, as)
				}
			}
			continue
		}
		as := s.assign(a, c)
		if a.Naked {
			as.Value.Dynamic = true // export NAME: the value set before
		}
		s.judgeAssign(&cmd, as, exported)
		w := as.Value
		w.Value = as.Name + "=" + w.Value
		w.Pos = as.Pos
		cmd.Argv = append(cmd.Argv, w)
		cmd.Assigns = append(cmd.Assigns, as)
	}
	succ, fail = s.run(cmd, c, cwd, true)
	return succ, fail
}

// run finishes a command: it reports what its name implies (eval,
// dynamic), unwraps wrappers, collects file references and tracks cd.
// inShell reports that the command runs in the shell walking it (so a cd
// moves the directory of what follows).
func (s *state) run(cmd Command, c *ctx, cwd cwdState, inShell bool) (succ, fail cwdState) {
	succ, fail = cwd, cwd
	if len(cmd.Argv) == 0 {
		s.add(cmd)
		return
	}
	name := cmd.Argv[0]
	if name.Dynamic || name.Glob {
		s.find("parser.dynamic_command", name.Pos, "the command name "+name.Value+" is not known before run time")
		s.genericRefs(&cmd, cmd.Argv[1:])
		s.add(cmd)
		return
	}
	base := path.Base(name.Value)
	if name.Value == "" {
		base = ""
	}
	s.builtin(&cmd, base)
	p := progs()[base]
	if p != nil && p.wrap != nil {
		succ = s.unwrap(&cmd, base, *p.wrap, p.roles, c, cwd, inShell)
		return succ, succ
	}
	if inShell && len(cmd.Argv) == 1 && p == nil && zshAutoCd(name.Value) {
		// zsh with auto_cd (oh-my-zsh sets it) changes to a directory
		// given as a command; its aliases 1…9 run cd -N.
		succ, fail = cwdState{dir: cwd.dir, dyn: true}, cwdState{dir: cwd.dir, dyn: true}
	}
	for _, w := range cmd.Argv {
		if len(w.Value) > 2 && strings.Trim(w.Value, ".") == "" {
			s.find("parser.not_portable", w.Pos, "zsh frameworks alias "+w.Value+" to a parent directory (oh-my-zsh: ... is ../..)")
		}
	}
	e := p
	if e == nil {
		e = entryOf(base) // a prefix entry (git-remote-ext)
	}
	if e != nil && e.remoteHelper {
		s.find("parser.eval", name.Pos, base+" is a git remote helper: it runs or connects to what its URL names")
	}
	switch {
	case base == "cd" || base == "pushd" || base == "popd":
		if inShell && name.Value == base {
			succ = s.cd(cmd.Argv, cwd)
		}
	case p != nil && p.git != nil: // git: its subcommands and options, read by the git readers
		sub, sp := s.git(&cmd)
		if sub < len(cmd.Argv) && strings.HasPrefix(cmd.Argv[sub].Value, "remote-") {
			// git remote-ext runs its URL as a command; remote-fd and the
			// others talk the remote protocol on what they are given.
			s.find("parser.eval", cmd.Argv[sub].Pos, "git "+cmd.Argv[sub].Value+" is a remote helper: it runs or connects to what its URL names")
		}
		s.add(cmd)
		s.gitRuns(cmd.Argv[sub:], sp, c, cwd)
		return
	}
	if p != nil && p.files.reader == readGo {
		s.goIndirectFiles(&cmd, cmd.Argv[1:], p.roles)
	}
	n := len(cmd.Files)
	if mod, args, ok := pythonModule(p, cmd.Argv[1:]); ok {
		// python -m ruff check .: the module's arguments, read as the
		// module's own command's.
		s.fileRefs(&cmd, mod, args)
		markRecursive(&cmd, progs()[mod], n)
	} else {
		s.fileRefs(&cmd, base, cmd.Argv[1:])
		markRecursive(&cmd, p, n)
	}
	languageFilters(&cmd, base, n)
	unknownOptions(&cmd, p, cmd.Argv[1:])
	s.add(cmd)
	if p != nil && p.roles != nil && p.roles.any&runs != 0 {
		s.optionPrograms(cmd.Argv, base, p, c, cwd)
	}
	return
}

// optionPrograms walks the programs a command runs because an option
// of its entry p has the role runs: sort --compress-program=PROG, go
// -exec/-toolexec 'PROG ARGS'.
func (s *state) optionPrograms(argv []Word, base string, p *program, c *ctx, cwd cwdState) {
	args := argv[1:]
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		if v == "--" {
			return
		}
		if p.goFlags && strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") {
			v = "-" + v // Go flags take one dash or two
		}
		name, val, hasVal, ok := longOpt(v)
		if !ok {
			continue
		}
		if union, exact := p.roles.longRoles(name); union&runs == 0 || p.goFlags && exact&runs == 0 {
			continue
		}
		w := Word{Value: val, Pos: args[i].Pos, Dynamic: args[i].Dynamic}
		if !hasVal {
			if i+1 >= len(args) {
				return
			}
			i++
			w = args[i]
		}
		if c.depth+1 > s.opts.MaxDepth {
			s.find("parser.too_deep", w.Pos, "commands nested more than the maximum depth")
			return
		}
		if !p.goFlags {
			name = p.roles.longName(name, runs) // the option's name, not its abbreviation
			s.inner([]Word{w}, base+" --"+name, c, cwd, false, nil)
		} else {
			s.shellString(w, base+" -"+name, c, cwd)
		}
	}
}

// cd returns the directory after a successful cd/pushd/popd.
func (s *state) cd(argv []Word, cwd cwdState) cwdState {
	dyn := cwdState{dir: cwd.dir, dyn: true}
	args := argv[1:]
	for _, a := range args {
		if len(a.Value) > 1 && (a.Value[0] == '+' || a.Value[0] == '-') && isDigits(a.Value[1:]) {
			// zsh's cd/pushd +N and -N pick an entry of the directory
			// stack (which auto_pushd fills on every cd); bash rejects
			// -N, or reads +N as a directory name.
			return dyn
		}
	}
	for _, a := range args {
		if a.Dynamic || a.Value == "--" || !strings.HasPrefix(a.Value, "-") {
			break
		}
		if a.Value == "-n" && argv[0].Value != "cd" {
			return cwd // pushd -n, popd -n: only the stack changes
		}
	}
	physical := false
	for len(args) > 0 && len(args[0].Value) > 1 && args[0].Value[0] == '-' && !args[0].Dynamic {
		if args[0].Value == "--" {
			args = args[1:]
			break
		}
		if i := strings.LastIndexAny(args[0].Value, "LP"); i > 0 {
			physical = args[0].Value[i] == 'P' // the last of -L and -P wins
		}
		args = args[1:]
	}
	if argv[0].Value == "popd" || len(args) > 1 {
		return dyn
	}
	var dir Word
	if len(args) == 0 {
		if argv[0].Value == "pushd" {
			return dyn
		}
		h, ok := s.opts.Env["HOME"]
		if !ok || h == "" {
			return dyn
		}
		dir = Word{Value: h}
	} else {
		dir = args[0]
	}
	step := CdStep{Dir: dir.Value, Physical: physical}
	switch {
	case dir.Value == "-" && argv[0].Value == "cd" && !dir.Dynamic && !physical:
		if back, ok := cwd.back(); ok {
			return back
		}
		return dyn
	case dir.Dynamic || dir.Glob || dir.Value == "-" || strings.HasPrefix(dir.Value, "+") && argv[0].Value == "pushd":
		return dyn
	case path.IsAbs(dir.Value):
		return cwdState{dir: path.Clean(dir.Value), chain: cwd.push(step)}
	case s.opts.Env["CDPATH"] != "" && !strings.HasPrefix(dir.Value, "./") && !strings.HasPrefix(dir.Value, "../") &&
		dir.Value != "." && dir.Value != "..":
		return dyn
	}
	return cwdState{dir: joinDir(cwd.dir, dir.Value), dyn: cwd.dyn, chain: cwd.push(step)}
}

// builtin reports builtins that run text as code or install callbacks,
// and variable names whose subscripts bash evaluates.
func (s *state) builtin(cmd *Command, base string) {
	argv := cmd.Argv
	if z, ok := zshCommands[base]; ok && base == argv[0].Value {
		s.find(z.rule, argv[0].Pos, z.why)
	}
	switch base {
	case "eval", "source", ".", "trap", "enable", "fc", "coproc", "function":
		s.find("parser.eval", argv[0].Pos, base+" runs text as shell code")
	case "alias":
		if aliasDefines(argv[1:]) {
			s.find("parser.eval", argv[0].Pos, base+" runs text as shell code")
		}
	case "hash":
		if hasShortOpt(argv[1:], 'p') {
			s.find("parser.eval", argv[0].Pos, "hash -p maps a command name to another program")
		}
		for _, a := range argv[1:] {
			if strings.IndexByte(a.Value, '=') > 0 || a.Dynamic {
				// zsh: hash NAME=PATH maps a command, hash -d NAME=DIR
				// names a directory (~NAME).
				s.find("parser.eval", a.Pos, "zsh's hash NAME=PATH maps a command name (or with -d, ~NAME) to another path")
				break
			}
		}
	case "bind":
		if hasShortOpt(argv[1:], 'x') {
			s.find("parser.eval", argv[0].Pos, "bind -x installs a shell command callback")
		}
	case "complete", "compgen":
		if hasShortOpt(argv[1:], 'C') || hasShortOpt(argv[1:], 'F') {
			s.find("parser.eval", argv[0].Pos, base+" -C/-F installs a callback")
		}
	case "mapfile", "readarray":
		if hasShortOpt(argv[1:], 'C') {
			s.find("parser.eval", argv[0].Pos, base+" -C installs a callback")
		}
		s.varOperands(argv[1:], "dnOsuC", true)
	case "declare", "typeset", "local", "export", "readonly", "nameref", "integer", "float", "private":
		for _, a := range argv[1:] {
			n := assignPrefix(a.Value)
			switch {
			case n > 0:
				name := a.Value[:n-1]
				s.checkEnv(name, a.Pos)
				s.zshParam(name, a.Pos)
				if (base == "integer" || base == "float") && !isNumber(a.Value[n:]) {
					s.find("parser.arithmetic_variable", a.Pos, "zsh's "+base+" evaluates the value as arithmetic: a variable's value runs as code")
				}
			case a.Dynamic:
				s.find("parser.eval", a.Pos, base+" with a dynamic argument evaluates it as an assignment")
			case strings.HasPrefix(a.Value, "-") && strings.ContainsRune(a.Value, 'n'):
				s.find("parser.eval", a.Pos, base+" -n makes a nameref that redirects assignments")
			case strings.HasPrefix(a.Value, "-") && strings.ContainsRune(a.Value, 'i'):
				s.find("parser.arithmetic_variable", a.Pos, base+" -i evaluates every value assigned as arithmetic")
			case !strings.HasPrefix(a.Value, "-") && !strings.HasPrefix(a.Value, "+"):
				name, _, _ := strings.Cut(a.Value, "=")
				s.checkVarName(Word{Value: name, Pos: a.Pos})
			}
		}
	case "shopt":
		// dotglob, globstar, nullglob, extglob, nocaseglob, globskipdots…
		// change what later globs match: they can no longer be expanded
		// statically.
		s.sticky |= stickyGlob
		if hasShortOpt(argv[1:], 'o') { // shopt -so allexport
			s.sticky |= stickyAllexport
		}
	case "set":
		s.setOptions(argv[1:])
		if len(argv) > 2 && len(argv[1].Value) > 1 && (argv[1].Value[0] == '-' || argv[1].Value[0] == '+') &&
			strings.IndexByte(argv[1].Value, 'A') > 0 {
			s.assignedName(argv[2]) // zsh's set -A NAME assigns an array
		}
	case "setopt", "unsetopt":
		s.zshOptions(argv[1:])
	case "history":
		s.historyRefs(cmd)
	case "let":
		for _, a := range argv[1:] {
			if !isNumber(a.Value) {
				s.find("parser.arithmetic_variable", a.Pos, "let evaluates arithmetic: a variable's value runs as code")
			}
		}
	case "printf", "print":
		// printf -v NAME, and zsh's print -v NAME.
		for i := 1; i+1 < len(argv); i++ {
			if argv[i].Value == "-v" {
				s.assignedName(argv[i+1])
			}
		}
		if base == "print" && hasShortOpt(argv[1:], 'P') {
			s.find("parser.eval", argv[0].Pos, "zsh's print -P expands its arguments as a prompt: with prompt_subst (oh-my-zsh sets it) $(…) runs")
		}
	case "getln":
		// zsh's getln NAME… assigns lines of the buffer stack.
		s.varOperands(argv[1:], "", true)
	case "read":
		s.varOperands(argv[1:], "adinNptu", true)
	case "unset":
		s.varOperands(argv[1:], "", false)
		for _, a := range argv[1:] {
			s.stateVar(a.Value)
		}
	case "getopts":
		if len(argv) > 2 {
			s.assignedName(argv[2])
		}
	case "wait":
		for i := 1; i+1 < len(argv); i++ {
			if argv[i].Value == "-p" {
				s.assignedName(argv[i+1])
			}
		}
	case "test", "[":
		for i := 1; i+1 < len(argv); i++ {
			if argv[i].Value == "-v" || argv[i].Value == "-R" {
				s.checkVarName(argv[i+1])
			}
		}
	}
}

// varOperands checks the operands of a builtin that names variables;
// valOpts are its short options taking a value; assigns says the builtin
// assigns them (read, mapfile) rather than just naming them (unset).
func (s *state) varOperands(args []Word, valOpts string, assigns bool) {
	check := s.checkVarName
	if assigns {
		check = s.assignedName
	}
	i := skipOpts(args, valOpts, nil)
	for j := 0; j < i && j < len(args); j++ {
		if args[j].Value == "-a" && j+1 < len(args) {
			check(args[j+1])
		}
	}
	for _, a := range args[min(i, len(args)):] {
		check(a)
	}
}

// assignedName checks a variable a builtin assigns (read PATH, printf -v
// LD_PRELOAD): its subscript and whether the name injects code.
func (s *state) assignedName(w Word) {
	s.checkVarName(w)
	name, _, _ := strings.Cut(w.Value, "[")
	s.checkEnv(name, w.Pos)
	s.zshParam(name, w.Pos)
	s.historyVar(name, w.Pos)
}

// hasShortOpt reports whether an option word in args contains flag.
func hasShortOpt(args []Word, flag byte) bool {
	for _, a := range args {
		if a.Value == "--" {
			return false
		}
		if len(a.Value) > 1 && (a.Value[0] == '-' || a.Value[0] == '+') && a.Value[1] != '-' &&
			strings.IndexByte(a.Value[1:], flag) >= 0 {
			return true
		}
	}
	return false
}

// skipOpts returns the index of the first operand of args: options are
// skipped, short options listed in shortVal consume a value (attached or
// the next word), as do long options listed in longVal unless written
// --opt=value. A dynamic word ends the options.
func skipOpts(args []Word, shortVal string, longVal []string) int {
	return skipOptsBy(args, literalOpts{short: shortVal, long: longVal})
}

// skipOptsBy is skipOpts with the options that take values given by
// opts (an entry's options: see valueOpts), where long options may take
// two separate values (bwrap --bind SRC DEST), named in whole.
func skipOptsBy[V valueOpts](args []Word, opts V) int {
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if a.Dynamic || len(v) < 2 || v[0] != '-' {
			return i
		}
		if v == "--" {
			return i + 1
		}
		if v[1] == '-' {
			switch {
			case opts.longPair(v[2:]):
				i += 2
			case strings.IndexByte(v, '=') < 0 && opts.longValue(v[2:]):
				i++
			}
			continue
		}
		for j := 1; j < len(v); j++ {
			if opts.shortValue(v[j]) {
				if j == len(v)-1 {
					i++
				}
				break
			}
		}
	}
	return len(args)
}

// redirect decodes a redirection of cmd and adds its file reference. For
// a heredoc or here-string it returns the text it feeds to standard input
// (a shell given no script runs it).
func (s *state) redirect(r *syntax.Redirect, c *ctx, cmd *Command) (stdin Word, ok bool) {
	rd := Redirect{Op: r.Op.String(), Pos: c.pos(r.Pos())}
	if r.N != nil {
		rd.Fd = r.N.Value
	}
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		cmd.Redirects = append(cmd.Redirects, rd)
		if r.Hdoc == nil {
			return Word{Pos: rd.Pos}, true
		}
		s.scanWord(r.Hdoc, c)
		return s.heredoc(r.Hdoc, c), true
	case syntax.WordHdoc:
		rd.Target = s.word(r.Word, c)
		cmd.Redirects = append(cmd.Redirects, rd)
		return rd.Target, true
	}
	// bash brace-expands a redirect target: one result is opened, more
	// are an "ambiguous redirect" error; every result is reported.
	var one [1]Word
	targets := one[:0]
	if hasBrace(r.Word) {
		targets, _ = s.braceWords(r.Word, c, targets)
	}
	if len(targets) == 0 {
		targets = append(targets, s.word(r.Word, c))
	}
	rd.Target = targets[0]
	t := rd.Target
	if why := zshRedirect(r, c.src); why != "" {
		s.find("parser.not_portable", rd.Pos, why)
	}
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.AppClob, syntax.RdrAll,
		syntax.RdrAllClob, syntax.AppAll, syntax.AppAllClob, syntax.RdrInOut:
		rd.Write = true
	case syntax.DplIn, syntax.DplOut:
		if len(targets) == 1 && !t.Dynamic && (t.Value == "-" || isDigits(strings.TrimSuffix(t.Value, "-"))) {
			rd.Dup = true
		} else {
			rd.Write = r.Op == syntax.DplOut
		}
	}
	cmd.Redirects = append(cmd.Redirects, rd)
	if rd.Dup {
		return Word{}, false
	}
	for _, t := range targets {
		if isNetworkPath(t.Value) {
			s.find("redirect.network", t.Pos, "redirect to "+t.Value+" opens a network connection")
			continue
		}
		s.fileRef(cmd, t, RefRedirect, useOf(rd.Write, false))
	}
	return Word{}, false
}

// heredoc returns the text of a heredoc body as the command reads it.
func (s *state) heredoc(w *syntax.Word, c *ctx) Word {
	out := Word{Pos: c.pos(w.Pos())}
	if len(w.Parts) != 1 {
		out.Dynamic = true
		out.Value = c.text(w)
		return out
	}
	l, ok := w.Parts[0].(*syntax.Lit)
	if !ok {
		out.Dynamic = true
		out.Value = c.text(w)
		return out
	}
	if c.text(l) == l.Value {
		out.Value = l.Value // quoted delimiter, or nothing to decode
		return out
	}
	var b []byte
	for i := 0; i < len(l.Value); i++ { // an unquoted body: \$ \` \\ and \newline
		ch := l.Value[i]
		if ch == '\\' && i+1 < len(l.Value) && strings.IndexByte("$`\\\n", l.Value[i+1]) >= 0 {
			i++
			if ch = l.Value[i]; ch == '\n' {
				continue
			}
		}
		b = append(b, ch)
	}
	out.Value = string(b)
	return out
}

func isDigits(v string) bool {
	if v == "" {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return true
}

func isNetworkPath(v string) bool {
	for _, p := range []string{v, path.Clean(v)} {
		if strings.HasPrefix(p, "/dev/tcp/") || strings.HasPrefix(p, "/dev/udp/") {
			return true
		}
	}
	return false
}

// notAFile reports paths that never name a file: the standard streams
// and /dev/null.
func notAFile(v string) bool {
	switch v {
	case "/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr":
		return true
	}
	if rest, ok := strings.CutPrefix(v, "/dev/fd/"); ok {
		return isDigits(rest)
	}
	return false
}

// splitShort rewrites short-option clusters as getopt reads them, one
// option a word: "-qc" is "-q" "-c", and "-cVALUE" (an option that takes
// a value, by opts, with its value attached) is "-c" "VALUE". Wrappers that look for a
// single option word ("-c", "-S") would otherwise miss the forms getopt
// accepts. It stops at "--", at a dynamic word and, unless permute is set
// (GNU getopt moves options before operands), at the first operand.
// Positions of the pieces are the cluster's.
func splitShort[V valueOpts](args []Word, opts V, permute bool) []Word {
	if !hasCluster(args) {
		return args // nothing to split: the common case, no allocation
	}
	out := make([]Word, 0, len(args))
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		switch {
		case a.Dynamic || v == "--":
			return append(out, args[i:]...)
		case len(v) < 2 || v[0] != '-':
			if !permute {
				return append(out, args[i:]...)
			}
			out = append(out, a)
			continue
		case v[1] == '-' || len(v) == 2:
			out = append(out, a)
			if len(v) == 2 && opts.shortValue(v[1]) && i+1 < len(args) {
				i++
				out = append(out, args[i]) // the option's value, never an option itself
			}
			continue
		}
		for j := 1; j < len(v); j++ {
			out = append(out, Word{Value: "-" + v[j:j+1], Pos: a.Pos})
			if !opts.shortValue(v[j]) {
				continue
			}
			if j+1 < len(v) {
				out = append(out, Word{Value: v[j+1:], Pos: a.Pos})
			} else if i+1 < len(args) {
				i++
				out = append(out, args[i])
			}
			break
		}
	}
	return out
}

// hasCluster reports a word of args that splitShort would split: a short
// option with more than one letter.
func hasCluster(args []Word) bool {
	for _, a := range args {
		if v := a.Value; !a.Dynamic && len(v) > 2 && v[0] == '-' && v[1] != '-' {
			return true
		}
	}
	return false
}

// setOptions notes set's options that change what later words name or
// which assignments reach programs' environment.
func (s *state) setOptions(args []Word) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if a.Dynamic {
			s.find("parser.unsupported", a.Pos, "set with an option not known before run time")
			return
		}
		if len(v) < 2 || v == "--" || (v[0] != '-' && v[0] != '+') {
			return // positional parameters follow
		}
		for j := 1; j < len(v); j++ {
			if v[j] != 'o' {
				s.shellOption(v[0], string(v[j]), a.Pos)
				continue
			}
			if i+1 >= len(args) {
				return // set -o alone lists the options
			}
			i++
			if args[i].Dynamic {
				s.find("parser.unsupported", args[i].Pos, "set -o with an option not known before run time")
				return
			}
			s.shellOption(v[0], args[i].Value, args[i].Pos)
		}
	}
}

// shellOption notes one shell option set (sign '-') or unset ('+') by
// set, or by a shell's command line (bash -O NAME, -o NAME, -a): options
// that only make the shell stricter or louder are known; allexport makes
// every assignment reach programs; keyword and physical are refused; any
// other may change what a glob or a word names.
func (s *state) shellOption(sign byte, name string, p Pos) {
	switch name {
	case "e", "errexit", "u", "nounset", "x", "xtrace", "v", "verbose", "C", "noclobber",
		"pipefail", "E", "errtrace", "T", "functrace", "h", "hashall", "m", "monitor",
		"b", "notify", "n", "noexec", "B", "braceexpand", "H", "histexpand":
	case "a", "allexport":
		if sign == '-' {
			s.sticky |= stickyAllexport
		}
	case "k", "keyword", "P", "physical":
		if sign == '-' {
			s.find("parser.unsupported", p, "set -"+name+" changes what later words mean (keyword: NAME=x arguments reach the environment; physical: cd resolves symlinks)")
		}
	default:
		s.sticky |= stickyGlob
		if n := zshOptionName(name); len(name) > 1 && !bashSetOptions[name] && !zshOptionsHarmless[n] && !zshOptionsReading[n] {
			// zsh's set -o and zsh -o take its own options: cdablevars,
			// autocd, pushdminus, posixcd … change what cd or a command
			// name means.
			s.find("parser.not_portable", p, "option "+name+" changes how zsh reads or runs what follows (cd, command lookup, assignments): the gate does not follow it")
		}
	}
}

// zshOptions notes the options zsh's setopt and unsetopt change: those
// that change nothing the gate reads pass, those that change what a
// word or glob names make later globs and zsh's option-dependent
// readings (extendedglob) refused, and any other is refused.
func (s *state) zshOptions(args []Word) {
	for _, a := range args {
		if a.Dynamic || strings.HasPrefix(a.Value, "-") || strings.HasPrefix(a.Value, "+") {
			s.sticky |= stickyGlob
			s.find("parser.not_portable", a.Pos, "setopt with an option the gate cannot read: it may change how zsh reads what follows")
			continue
		}
		name := zshOptionName(a.Value)
		switch {
		case zshOptionsHarmless[name]:
		case zshOptionsReading[name]:
			s.sticky |= stickyGlob
		default:
			s.sticky |= stickyGlob
			s.find("parser.not_portable", a.Pos, "zsh option "+a.Value+" changes how zsh reads or runs what follows (cd, command lookup, assignments): the gate does not follow it")
		}
	}
}

// historyRefs adds the file bash's history builtin reads or writes:
// -r, -n (read), -w, -a (write) take the file named after the options,
// else $HISTFILE.
func (s *state) historyRefs(cmd *Command) {
	args := cmd.Argv[1:]
	read, write := false, false
	i := 0
	for ; i < len(args); i++ {
		v := args[i].Value
		if args[i].Dynamic || len(v) < 2 || v[0] != '-' {
			break
		}
		if v == "--" {
			i++
			break
		}
		read = read || strings.ContainsAny(v[1:], "rn")
		write = write || strings.ContainsAny(v[1:], "wa")
	}
	if !read && !write || i < len(args) {
		return // a file operand is checked as any operand is
	}
	w := Word{Value: "$HISTFILE", Pos: cmd.Argv[0].Pos, Dynamic: true}
	if v, ok := s.varValue("HISTFILE"); ok {
		w = Word{Value: v, Pos: cmd.Argv[0].Pos}
	}
	s.fileRef(cmd, w, RefEnv, useOf(write, false))
}

// varValue returns the value of a scalar variable the script assigned
// statically (see staticAssign).
func (s *state) varValue(name string) (string, bool) {
	v, ok := s.vars[name]
	if !ok || v.array || v.glob() || len(v.elems) != 1 {
		return "", false
	}
	return v.elems[0].Value, true
}

// zshAutoCd reports a command name that zsh's auto_cd may take for a
// directory to change to (a path that does not look like a program file:
// ./secrets, src/, .., ~/x), or that zsh frameworks alias to cd (oh-my-zsh:
// 1…9 run cd -1…-9). A bare name is not reported: the gate cannot tell a
// program from a directory there.
func zshAutoCd(v string) bool {
	switch {
	case v == "":
		return false
	case len(v) == 1 && v[0] >= '1' && v[0] <= '9', strings.Trim(v, ".") == "", strings.HasSuffix(v, "/"), v[0] == '~':
		return true
	case strings.Contains(v, "/"):
		return !strings.Contains(path.Base(v), ".")
	}
	return false
}
