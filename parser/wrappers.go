package parser

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

type wrapKind uint8

const (
	wrapExec     wrapKind = iota // options, N operands, then the command's argv
	wrapShell                    // bash -c STRING
	wrapEnv                      // env [opts] [VAR=x…] CMD
	wrapSudo                     // sudo [opts] [VAR=x…] CMD
	wrapSu                       // su … -c STRING
	wrapScript                   // script -c STRING [FILE]
	wrapWatch                    // watch [opts] WORDS… (joined, run by sh -c)
	wrapFlock                    // flock [opts] FILE (CMD… | -c STRING)
	wrapXargs                    // xargs [opts] CMD
	wrapParallel                 // parallel [opts] WORDS… [::: ARGS]
	wrapFind                     // find … -exec CMD… ;
	wrapSg                       // sg [-] GROUP [[-c] STRING]
	wrapTmux                     // tmux [opts] [-c STRING] COMMAND … [; COMMAND …]
	wrapScreen                   // screen [opts] [CMD ARGS…]
)

// wrapSpec describes a program that runs another command (the wrap
// field of its entry in programs): the wrappers docs/contract.md ("What
// is checked") lists. Its options are the entry's: those that take a
// value come before the command, and the roles noCommand, writesFile,
// setsEnv and setsDir say what the others do.
type wrapSpec struct {
	kind     wrapKind
	operands int // operands before the command (timeout DUR)
	// optsAfter: options may follow the operands too (setarch ARCH -R CMD).
	optsAfter bool
	// pipeOut: the value of an option that writes a file (role
	// writesFile: strace -o FILE) that starts with | or ! is a command
	// run by sh -c instead (strace -o '|cmd').
	pipeOut bool
	// direct: several operands are run directly, not by sh -c (tmux
	// new-session CMD ARGS…).
	direct bool
	// inCaller: it runs its command in the calling shell, as a builtin
	// does (command cd DIR changes the shell's directory).
	inCaller bool
	// ownOptions: an option where its command would be is its own
	// (busybox --list): no command follows.
	ownOptions bool
	// plain: a shell whose options the shell reader knows (-c, -l, -e,
	// -u, -x, -v, -o pipefail|errexit|nounset|xtrace, --login, --norc,
	// --noprofile), so that with only those it is transparent.
	plain bool
	// hashWord: reading its script from its input with -i, a # that
	// starts a word is no comment (zsh: interactivecomments is off).
	hashWord bool
	// edits: it edits its operands as another user (sudoedit, sudo -e).
	edits bool
}

// shellSpec and shellOptions are the shells': -c STRING, the options
// before the script.
var (
	shellSpec    = wrapSpec{kind: wrapShell}
	plainShell   = wrapSpec{kind: wrapShell, plain: true}
	zshSpec      = wrapSpec{kind: wrapShell, plain: true, hashWord: true}
	shellOptions = []opt{val(0, "-o -O --rcfile --init-file")}
	// suOptions: su's and runuser's options that take a value; -c's
	// is the shell command it runs.
	suOptions = []opt{val(shellCommand, "-c --command --session-command"), val(0, "-s -g -G -w --shell --group --supp-group --whitelist-environment")}
)

// unwrap reports a wrapper command and then the command(s) it runs. It
// returns the directory after it: only command and builtin run their
// command in the calling shell (command cd DIR).
func (s *state) unwrap(cmd *Command, base string, w wrapSpec, o *roleTable, c *ctx, cwd cwdState, inShell bool) cwdState {
	args := cmd.Argv[1:]
	if c.depth+1 > s.opts.MaxDepth {
		s.find("parser.too_deep", cmd.Pos, "commands nested more than the maximum depth")
		s.add(*cmd)
		return cwd
	}
	switch w.kind {
	case wrapShell:
		s.shellWrapper(cmd, base, w, o, c, cwd)
	case wrapEnv:
		s.envWrapper(cmd, o, c, cwd)
	case wrapSudo:
		s.sudoWrapper(cmd, base, w, o, c, cwd)
	case wrapSu, wrapScript:
		var script *Word
		var files []Word
		args = splitShort(args, o, true)
		for i := 0; i < len(args); i++ {
			v := args[i].Value
			name, val, hasVal, _ := longOpt(v)
			switch {
			case o.wordRole(v)&shellCommand != 0: // -c, --command
				if i+1 < len(args) {
					i++
					script = &args[i]
				}
			case hasVal && o.union(name)&shellCommand != 0:
				script = &Word{Value: val, Pos: args[i].Pos, Dynamic: args[i].Dynamic}
			case w.kind == wrapScript && o.wordRole(v)&writesFile != 0: // script -O, --log-out
				if i+1 < len(args) {
					i++
					files = append(files, args[i])
				}
			case w.kind == wrapSu && (len(v) == 2 && v[0] == '-' && o.shortValue(v[1]) || !hasVal && o.longValue(name)):
				i++
			case strings.HasPrefix(v, "-") && len(v) > 1:
			default:
				if w.kind == wrapScript {
					files = append(files, args[i])
				}
			}
		}
		if w.kind == wrapScript {
			if len(files) == 0 {
				files = append(files, Word{Value: "typescript", Pos: cmd.Pos})
			}
			for _, f := range files {
				s.fileRef(cmd, f, RefArg, useWrite)
			}
		}
		s.add(*cmd)
		if script != nil {
			s.shellString(*script, base+" -c", c, cwd)
		} else {
			s.stdinScript(cmd, base, c, cwd) // an interactive shell
		}
	case wrapWatch:
		i := skipOptsBy(args, o)
		s.add(*cmd)
		if i >= len(args) {
			return cwd
		}
		if hasShortOpt(args[:i], 'x') || slices.ContainsFunc(args[:i], func(a Word) bool { return isLong(a.Value, "exec") }) {
			s.inner(args[i:], base, c, cwd, false, nil)
			return cwd
		}
		s.joinedScript(args[i:], base, c, cwd)
	case wrapFlock:
		s.flockWrapper(cmd, o, c, cwd)
	case wrapXargs:
		i := skipOptsBy(args, o)
		for j := 0; j < i; j++ {
			if (args[j].Value == "-a" || isLong(args[j].Value, "arg-file")) && j+1 < i {
				s.fileRef(cmd, args[j+1], RefOption, useRead)
			} else if f, ok := longValue(args[j].Value, "arg-file"); ok {
				s.fileRef(cmd, Word{Value: f, Pos: args[j].Pos, Dynamic: args[j].Dynamic}, RefOption, useRead)
			}
		}
		s.add(*cmd)
		if i < len(args) {
			unknown := UnknownRef{Pos: cmd.Pos, Message: "xargs appends arguments read from standard input"}
			s.inner(args[i:], base, c, cwd, false, func(in *Command) { in.Unknown = append(in.Unknown, unknown) })
		}
	case wrapParallel:
		s.parallelWrapper(cmd, o, c, cwd)
	case wrapFind:
		s.findWrapper(cmd, c, cwd)
	case wrapTmux:
		s.tmuxWrapper(cmd, o, c, cwd)
	case wrapScreen:
		s.screenWrapper(cmd, o, c, cwd)
	case wrapSg:
		// sg [-] GROUP [[-c] STRING]: STRING is run by /bin/sh -c; without
		// it, a shell reads standard input.
		i := 0
		if i < len(args) && args[i].Value == "-" {
			i++
		}
		i++ // the group
		if i < len(args) && args[i].Value == "-c" {
			i++
		}
		s.add(*cmd)
		if i < len(args) {
			s.shellString(args[i], "sg -c", c, cwd)
		} else {
			s.stdinScript(cmd, base, c, cwd)
		}
	default: // wrapExec
		i := skipOptsBy(args, o)
		pipes := s.wrapWrites(cmd, w, o, args[:i])
		if hasRoleOpt(args[:i], o, noCommand) {
			s.fileRefs(cmd, base, args)
			s.add(*cmd)
			for _, p := range pipes {
				s.shellString(p, base+" -o |", c, cwd)
			}
			return cwd
		}
		i = min(i+w.operands, len(args))
		if w.optsAfter && i > 0 {
			i += skipOptsBy(args[i:], o)
			if hasRoleOpt(args[:i], o, noCommand) {
				s.fileRefs(cmd, base, args)
				s.add(*cmd)
				return cwd
			}
		}
		if w.ownOptions && i < len(args) && strings.HasPrefix(args[i].Value, "-") {
			i = len(args)
		}
		s.add(*cmd)
		for _, p := range pipes {
			s.shellString(p, base+" -o |", c, cwd)
		}
		if i == len(args) && hasRoleOpt(args, o, startsShell) {
			s.stdinScript(cmd, base, c, cwd) // doas -s: an interactive shell
		}
		if i < len(args) {
			inShell = inShell && w.inCaller
			if next := s.inner(args[i:], base, c, cwd, inShell, nil); inShell {
				return next
			}
		}
	}
	return cwd
}

// wrapWrites reports the files a wrapper's options (opts) write (strace
// -o FILE, time --output=FILE), and returns the values that are commands
// instead (strace -o '|cmd', -o '!cmd'; a dynamic value may be one).
func (s *state) wrapWrites(cmd *Command, w wrapSpec, o *roleTable, opts []Word) []Word {
	if o == nil || o.any&writesFile == 0 {
		return nil
	}
	var pipes []Word
	split := splitShort(opts, o, true)
	for j := 0; j < len(split); j++ {
		v := split[j].Value
		name, val, hasVal, long := longOpt(v)
		var f Word
		switch {
		case long && o.union(name)&writesFile != 0 && hasVal:
			f = Word{Value: val, Pos: split[j].Pos, Dynamic: split[j].Dynamic}
		case long && o.union(name)&writesFile != 0, len(v) == 2 && v[0] == '-' && o.shortRole(v[1])&writesFile != 0:
			if j+1 >= len(split) {
				continue
			}
			j++
			f = split[j]
		default:
			continue
		}
		if w.pipeOut && (f.Dynamic || strings.HasPrefix(f.Value, "|") || strings.HasPrefix(f.Value, "!")) {
			if !f.Dynamic {
				f.Value = f.Value[1:]
			}
			pipes = append(pipes, f)
			continue
		}
		s.fileRef(cmd, f, RefOption, useWrite)
	}
	return pipes
}

// hasAnyShortOpt reports whether an option word in args contains one of
// flags.
func hasAnyShortOpt(args []Word, flags string) bool {
	for i := 0; i < len(flags); i++ {
		if hasShortOpt(args, flags[i]) {
			return true
		}
	}
	return false
}

func containsWord(ws []Word, v string) bool {
	for _, w := range ws {
		if w.Value == v {
			return true
		}
	}
	return false
}

// innerCtx is the context of commands run by a wrapper named name.
func innerCtx(c *ctx, name string) *ctx {
	w := make([]string, len(c.wrappers), len(c.wrappers)+1)
	copy(w, c.wrappers)
	return &ctx{src: c.src, fr: c.fr, wrappers: append(w, name), depth: c.depth + 1}
}

// inner reports the command argv run by a wrapper, then walks it
// (it may itself be a wrapper). edit, if set, adjusts it first.
func (s *state) inner(argv []Word, name string, c *ctx, cwd cwdState, inShell bool, edit func(*Command)) cwdState {
	if repeats(name) {
		defer s.repeat()()
	}
	nc := innerCtx(c, name)
	cmd := Command{Argv: argv[:len(argv):len(argv)], Pos: argv[0].Pos, Wrappers: nc.wrappers,
		Cwd: cwd.dir, CwdDynamic: cwd.dyn, Chdirs: cwd.chain.steps()}
	if edit != nil {
		edit(&cmd)
	}
	succ, _ := s.run(cmd, nc, cwd, inShell)
	return succ
}

// shellString parses the STRING of sh -c STRING as bash source.
func (s *state) shellString(w Word, name string, c *ctx, cwd cwdState) {
	if w.Dynamic {
		s.find("parser.dynamic_command", w.Pos, name+" runs a script that is not known before run time")
		return
	}
	if sh, _, _ := strings.Cut(name, " "); sh != "bash" && sh != "rbash" && sh != "zsh" &&
		(strings.Contains(w.Value, "$'") || strings.Contains(w.Value, `$"`)) {
		// /bin/sh may be dash, where $'…' and $"…" are not quotes: the
		// words it runs are not the ones analysed here.
		s.find("parser.unsupported", w.Pos, sh+" is not bash: $'…' and $\"…\" quoting differs")
	}
	if repeats(name) {
		defer s.repeat()()
	}
	nc := innerCtx(c, name)
	nc.src = w.Value
	nc.fr = s.frameFor(w)
	nc.zsh = strings.HasPrefix(name, "zsh ")
	nc.zshTTY, s.zshTTY = s.zshTTY && nc.zsh, false
	defer s.onlyExported()() // a new shell sees only exported variables
	s.script(w.Value, nc, cwd, w.Pos)
}

// joinedScript runs words joined by spaces as a shell script (watch,
// parallel).
func (s *state) joinedScript(ws []Word, name string, c *ctx, cwd cwdState) {
	if len(ws) == 1 {
		s.shellString(ws[0], name, c, cwd)
		return
	}
	var b strings.Builder
	dyn := false
	for i, w := range ws {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w.Value)
		dyn = dyn || w.Dynamic
	}
	s.shellString(Word{Value: b.String(), Pos: ws[0].Pos, Dynamic: dyn}, name, c, cwd)
}

// frameFor maps positions inside a shell string to the top-level source:
// exactly when the string is written verbatim there, else to its start.
func (s *state) frameFor(w Word) frame {
	f := frame{nested: true, line: w.Pos.Line, col: w.Pos.Col}
	off, ok := s.offset(w.Pos)
	if !ok {
		return f
	}
	raw := s.top[off:]
	switch {
	case strings.HasPrefix(raw, "'") && strings.HasPrefix(raw[1:], w.Value+"'"),
		strings.HasPrefix(raw, "\"") && strings.HasPrefix(raw[1:], w.Value+"\""):
		f.exact = true
		f.col++
	case strings.HasPrefix(raw, "$'") && strings.HasPrefix(raw[2:], w.Value+"'"):
		f.exact = true
		f.col += 2
	case strings.HasPrefix(raw, w.Value):
		f.exact = true
	}
	return f
}

// offset converts a top-level position to a byte offset.
func (s *state) offset(p Pos) (int, bool) {
	if s.lines == nil {
		s.lines = append(s.lines, 0)
		for i := 0; i < len(s.top); i++ {
			if s.top[i] == '\n' {
				s.lines = append(s.lines, i+1)
			}
		}
	}
	if p.Line < 1 || p.Line > len(s.lines) || p.Col < 1 {
		return 0, false
	}
	off := s.lines[p.Line-1] + p.Col - 1
	return off, off <= len(s.top)
}

// shellWrapper handles bash/sh/zsh … [-c STRING].
func (s *state) shellWrapper(cmd *Command, base string, w wrapSpec, o *roleTable, c *ctx, cwd cwdState) {
	args := cmd.Argv[1:]
	hasC, hasS := false, false
	// plain: only options that change nothing the gate checks (-c, -l,
	// -e, -u, -x, -v, -o pipefail|errexit|nounset|xtrace, --login,
	// --norc, --noprofile), so that the wrapper is transparent.
	plain := w.plain
	interactive := false // -i: an interactive shell
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if a.Dynamic || len(v) < 2 || (v[0] != '-' && v[0] != '+') {
			break
		}
		if v == "--" || v == "-" {
			i++
			break
		}
		if v[0] == '+' {
			plain = false
		}
		if v[1] == '-' {
			switch v {
			case "--login", "--norc", "--noprofile":
			default:
				plain = false
			}
			if o.longValue(v[2:]) && i+1 < len(args) {
				i++
				s.fileRef(cmd, args[i], RefOption, useRead) // --rcfile FILE runs FILE
			}
			continue
		}
		for j := 1; j < len(v); j++ {
			if v[j] == 'c' {
				hasC = true
			}
			hasS = hasS || v[j] == 's'
			interactive = interactive || v[j] == 'i'
			if o.shortValue(v[j]) {
				// -O NAME, -o NAME: a shell option for the script.
				name := v[j+1:]
				if j == len(v)-1 {
					i++
					if i < len(args) {
						name = args[i].Value
						if args[i].Dynamic {
							name = "?"
						}
					}
				}
				s.shellOption(v[0], name, a.Pos)
				switch name {
				case "pipefail", "errexit", "nounset", "xtrace":
					plain = plain && v[j] == 'o'
				default:
					plain = false
				}
				break
			}
			if strings.IndexByte("cleuxv", v[j]) < 0 {
				plain = false
			}
			if v[j] != 'c' && v[j] != 's' && v[j] != 'i' && v[j] != 'l' && v[j] != 'r' && v[j] != 'p' {
				s.shellOption(v[0], string(v[j]), a.Pos)
			}
		}
	}
	if !hasC {
		if !hasS {
			s.fileRefs(cmd, base, args[min(i, len(args)):min(i+1, len(args))]) // the script file
		}
		s.add(*cmd)
		if (hasS || i >= len(args)) && !containsWord(args, "--version") && !containsWord(args, "--help") {
			// zsh -i reading its script: a # that starts a word is not a
			// comment (interactivecomments is off by default).
			s.zshTTY = w.hashWord && interactive
			s.stdinScript(cmd, base, c, cwd)
			s.zshTTY = false
		}
		return
	}
	cmd.Transparent = plain && i < len(args) && !args[i].Dynamic
	s.add(*cmd)
	if i < len(args) {
		s.shellString(args[i], base+" -c", c, cwd)
	}
}

// stdinScript handles a shell that reads its script from standard input:
// a heredoc or here-string is parsed as the script; anything else (echo …
// | bash, curl … | sh, bash < f) is code nobody saw.
func (s *state) stdinScript(cmd *Command, name string, c *ctx, cwd cwdState) {
	if s.stdin == nil {
		s.find("parser.dynamic_command", cmd.Argv[0].Pos, name+" reads its script from standard input")
		return
	}
	script := *s.stdin
	s.stdin = nil
	s.shellString(script, name+" stdin", c, cwd)
}

// envWrapper handles env [-i] [-u NAME] [-C DIR] [-S STRING] [VAR=x…] CMD.
// o is env's options (its entry's).
func (s *state) envWrapper(cmd *Command, o *roleTable, c *ctx, cwd cwdState) {
	args := splitShort(cmd.Argv[1:], o, false)
	var assigns []Assign
	inner := cwd
	splits := 0
	i := 0
loop:
	for i < len(args) {
		a := args[i]
		v := a.Value
		if a.Dynamic {
			break
		}
		isOpt := len(v) > 1 && v[0] == '-' && v != "--"
		var r role
		var takes, hasVal bool
		var val string
		if isOpt {
			// By its entry's roles: -C's value is the command's
			// directory, -S's is split into words; -u's is skipped.
			r, takes, val, hasVal = optWord(o, v)
		}
		switch {
		case v == "--":
			i++
			for i < len(args) && strings.IndexByte(args[i].Value, '=') > 0 && !args[i].Dynamic {
				assigns = append(assigns, s.envAssign(cmd, args[i]))
				i++
			}
			break loop
		case isOpt && r&setsDir != 0 && hasVal:
			inner = s.chdir(inner, Word{Value: val, Dynamic: a.Dynamic})
			i++
		case isOpt && r&setsDir != 0:
			if i+1 < len(args) {
				inner = s.chdir(inner, args[i+1])
			}
			i += 2
		case isOpt && r&splitsArgs != 0:
			str := Word{Value: val, Pos: a.Pos}
			next := i + 1
			if !hasVal {
				if i+1 >= len(args) {
					break loop
				}
				str = args[i+1]
				next = i + 2
			}
			splits++
			words, ok := s.splitString(str, c)
			if !ok || splits > s.opts.MaxDepth {
				s.find("parser.unsupported", str.Pos, "env -S string cannot be split statically")
				s.add(*cmd)
				return
			}
			args = append(words, args[next:]...)
			i = 0
		case isOpt && takes && !hasVal:
			i += 2
		case isOpt:
			i++
		case strings.IndexByte(v, '=') > 0:
			assigns = append(assigns, s.envAssign(cmd, a))
			i++
		default:
			break loop
		}
	}
	s.add(*cmd)
	if i < len(args) {
		s.inner(args[i:], "env", c, inner, false, func(in *Command) { in.Assigns = assigns })
	}
}

// envAssign decodes env's or sudo's VAR=value argument, which reaches the
// inner command's environment, and judges it (file references go to cmd).
func (s *state) envAssign(cmd *Command, a Word) Assign {
	n := strings.IndexByte(a.Value, '=') + 1
	name := a.Value[:n-1]
	as := Assign{Name: name, Pos: a.Pos, Value: Word{Value: a.Value[n:], Pos: a.Pos, Dynamic: a.Dynamic, Glob: a.Glob}}
	s.exportEnv(cmd, name, as.Value, a.Pos)
	s.zshParam(name, a.Pos) // a zsh the command runs imports some (ZDOTDIR, FPATH)
	return as
}

// chdir returns the directory after env -C / sudo -D DIR.
func (s *state) chdir(cwd cwdState, dir Word) cwdState {
	if dir.Dynamic || dir.Glob {
		return cwdState{dir: cwd.dir, dyn: true}
	}
	return cwdState{dir: joinDir(cwd.dir, dir.Value), dyn: cwd.dyn && !path.IsAbs(dir.Value),
		chain: cwd.push(CdStep{Dir: dir.Value, Physical: true})}
}

// splitString splits the STRING of env -S into words, parsing it as one
// simple shell command (env's quoting is a subset of the shell's).
func (s *state) splitString(w Word, c *ctx) ([]Word, bool) {
	if w.Dynamic || nestedAt(w.Value) >= 0 {
		return nil, false
	}
	f, err := s.p.Parse(strings.NewReader(envEscapes(w.Value)), "")
	if err != nil || len(f.Stmts) != 1 || len(f.Stmts[0].Redirs) > 0 {
		return nil, f != nil && len(f.Stmts) == 0 && err == nil
	}
	ce, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok {
		return nil, false
	}
	nc := &ctx{src: w.Value, fr: frame{nested: true, line: w.Pos.Line, col: w.Pos.Col}, wrappers: c.wrappers, depth: c.depth}
	var out []Word
	for _, a := range ce.Assigns {
		if a.Name == nil || a.Index != nil || a.Array != nil || a.Append {
			return nil, false
		}
		v := Word{Pos: w.Pos}
		if a.Value != nil {
			v = s.word(a.Value, nc)
		}
		v.Value = a.Name.Value + "=" + v.Value
		out = append(out, v)
	}
	for _, a := range ce.Args {
		out = s.words(a, nc, out)
	}
	return out, true
}

// envEscapes rewrites the escapes of an env -S string that bash reads
// otherwise, before the string is split as bash words: outside single
// quotes \_ is a separator (a space in double quotes, where a space is
// literal too) and \c ends the string. Positions stay those of the
// string: each rewrite keeps the length or cuts the end.
func envEscapes(v string) string {
	if !strings.Contains(v, `\`) {
		return v
	}
	b := []byte(v)
	single, double := false, false
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '"' && !single:
			double = !double
		case b[i] == '\'' && !single && !double:
			single = true
		case b[i] == '\'' && single:
			single = false
		case b[i] == '\\' && single:
			i++ // env: \\ and \' are escapes in single quotes too
		case b[i] == '\\' && i+1 < len(b):
			switch b[i+1] {
			case '_':
				b[i], b[i+1] = ' ', ' '
			case 'c':
				return string(b[:i])
			}
			i++
		}
	}
	return string(b)
}

// sudoWrapper handles sudo [opts] [VAR=x…] CMD and sudoedit/sudo -e FILE….
func (s *state) sudoWrapper(cmd *Command, base string, w wrapSpec, o *roleTable, c *ctx, cwd cwdState) {
	args := cmd.Argv[1:]
	i := skipOptsBy(args, o)
	inner := cwd
	edit := w.edits
	opts := splitShort(args[:min(i, len(args))], o, true)
	for j := 0; j < len(opts); j++ {
		v := opts[j].Value
		name, val, hasVal, long := longOpt(v)
		switch {
		case v == "-D" || long && !hasVal && longIs(name, "chdir"):
			if j+1 < len(opts) {
				j++
				inner = s.chdir(inner, opts[j])
			}
		case long && longIs(name, "chdir"):
			inner = s.chdir(inner, Word{Value: val, Dynamic: opts[j].Dynamic})
		case v == "-e" || long && longIs(name, "edit"):
			edit = true
		case len(v) == 2 && v[0] == '-' && o.shortValue(v[1]),
			long && !hasVal && o.longValue(name):
			j++ // the option's value
		}
	}
	if edit {
		for _, f := range args[min(i, len(args)):] {
			s.fileRef(cmd, f, RefArg, useWrite)
		}
		s.add(*cmd)
		return
	}
	var assigns []Assign
	for i < len(args) && !args[i].Dynamic && strings.IndexByte(args[i].Value, '=') > 0 {
		assigns = append(assigns, s.envAssign(cmd, args[i]))
		i++
	}
	s.add(*cmd)
	switch {
	case i < len(args):
		s.inner(args[i:], base, c, inner, false, func(in *Command) { in.Assigns = assigns })
	case hasAnyShortOpt(args, "si") || containsWord(args, "--shell") || containsWord(args, "--login"):
		s.stdinScript(cmd, base, c, cwd) // sudo -s, sudo -i: an interactive shell
	}
}

// optWord reads the option word v (a short option, its value maybe
// attached, or a long one, maybe abbreviated, maybe with =VALUE) by a
// wrapper's roleTable: its roles (of every long option it could
// abbreviate), whether it takes a value, and the value given with it.
func optWord(o *roleTable, v string) (r role, takes bool, val string, hasVal bool) {
	if name, lv, lhas, ok := longOpt(v); ok {
		return o.union(name), o.longValue(name), lv, lhas
	}
	if len(v) < 2 || v[0] != '-' || v[1] >= 128 {
		return 0, false, "", false
	}
	r, takes = o.shortRole(v[1]), o.shortValue(v[1])
	if takes && len(v) > 2 {
		return r, takes, v[2:], true
	}
	return r, takes, "", false
}

// flockWrapper handles flock [opts] FILE CMD… and flock [opts] FILE -c STRING.
// o is flock's options (its entry's).
func (s *state) flockWrapper(cmd *Command, o *roleTable, c *ctx, cwd cwdState) {
	args := splitShort(cmd.Argv[1:], o, false)
	var script *Word
	haveFile := false
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if !a.Dynamic && len(v) > 1 && v[0] == '-' {
			// An option: by its entry's roles, -c/--command's value is
			// the shell string it runs; the others' values are skipped.
			// (Real flock takes -c and --command, whole, only after
			// FILE, and no --command=STRING: reading them anywhere is
			// the wider reading.)
			if r, takes, _, hasVal := optWord(o, v); takes && !hasVal {
				i++
				if r&shellCommand != 0 && i < len(args) {
					script = &args[i]
				}
			}
			continue
		}
		if haveFile {
			break
		}
		haveFile = true
		if !isDigits(v) {
			s.fileRef(cmd, a, RefArg, useWrite)
		}
	}
	s.add(*cmd)
	switch {
	case script != nil:
		s.shellString(*script, "flock -c", c, cwd)
	case i < len(args):
		s.inner(args[i:], "flock", c, cwd, false, nil)
	}
}

// parallelWrapper handles GNU parallel: its command words are joined and
// run by a shell; ::: ARGS are its inputs, else it reads standard input.
func (s *state) parallelWrapper(cmd *Command, o *roleTable, c *ctx, cwd cwdState) {
	args := cmd.Argv[1:]
	i := skipOptsBy(args, o)
	for j := 0; j+1 < i; j++ {
		if v := args[j].Value; v == "-a" || isLong(v, "arg-file") {
			s.fileRef(cmd, args[j+1], RefOption, useRead)
		}
	}
	end := len(args)
	stdin := true
	for j := i; j < len(args); j++ {
		if v := args[j].Value; strings.HasPrefix(v, ":::") && strings.Trim(v, ":+") == "" && !args[j].Dynamic {
			if end == len(args) {
				end = j
			}
			stdin = false
			if strings.HasPrefix(v, "::::") {
				for _, f := range args[j+1:] {
					if strings.HasPrefix(f.Value, ":::") {
						break
					}
					s.fileRef(cmd, f, RefArg, useRead)
				}
			}
		} else if j > end && !strings.HasPrefix(args[j-1].Value, "::::") {
			s.argRef(cmd, args[j], useRead)
		}
	}
	s.add(*cmd)
	if i >= end {
		s.find("parser.dynamic_command", cmd.Pos, "parallel without a command runs its input as commands")
		return
	}
	first := len(s.res.Commands)
	s.joinedScript(args[i:end], "parallel", c, cwd)
	if stdin {
		for k := first; k < len(s.res.Commands); k++ {
			s.res.Commands[k].Unknown = append(s.res.Commands[k].Unknown,
				UnknownRef{Pos: cmd.Pos, Message: "parallel fills arguments read from standard input"})
		}
	}
}

// findWrapper handles find's starting points and each -exec/-execdir/
// -ok/-okdir CMD … ; or +.
func (s *state) findWrapper(cmd *Command, c *ctx, cwd cwdState) {
	args := cmd.Argv[1:]
	i := 0 // find's own options come before the starting points
opts:
	for i < len(args) {
		switch v := args[i].Value; {
		case v == "-H" || v == "-L" || v == "-P" || strings.HasPrefix(v, "-O"):
			i++
		case v == "-D":
			i += 2
		default:
			break opts
		}
	}
	i = min(i, len(args))
	var starts []string
	j := i
	for ; j < len(args); j++ {
		v := args[j].Value
		if !args[j].Dynamic && (strings.HasPrefix(v, "-") || v == "(" || v == "!" || v == ")" || v == ",") {
			break
		}
		starts = append(starts, v)
	}
	deletes := containsWord(args[j:], "-delete")
	// Listing is not reading: find prints names, and reads what is in the
	// files only through a program it runs (whose {} are unknown
	// references of their own) or deletes them. Only then is a starting
	// point a recursive read.
	reads := deletes
	for _, a := range args[j:] {
		switch a.Value {
		case "-exec", "-execdir", "-ok", "-okdir":
			reads = true
		}
		reads = reads || a.Dynamic
	}
	for _, st := range args[i:j] {
		s.argRef(cmd, st, useOf(deletes, reads))
	}
	if len(starts) == 0 {
		starts = []string{"."}
		s.fileRef(cmd, Word{Value: ".", Pos: cmd.Pos}, RefArg, useOf(deletes, reads))
	}
	type execCmd struct {
		name string
		argv []Word
	}
	var execs []execCmd
	for ; j < len(args); j++ {
		v := args[j].Value
		switch v {
		case "-exec", "-execdir", "-ok", "-okdir":
			k := j + 1
			for ; k < len(args); k++ {
				if t := args[k].Value; t == ";" || t == "+" && k > j+1 && args[k-1].Value == "{}" {
					break
				}
			}
			if k > j+1 {
				execs = append(execs, execCmd{"find " + v, args[j+1 : k]})
			}
			j = k
		case "-newer", "-anewer", "-cnewer", "-samefile", "-files0-from":
			if j+1 < len(args) {
				j++
				s.fileRef(cmd, args[j], RefArg, useRead)
			}
		case "-fprint", "-fprint0", "-fls", "-fprintf":
			if j+1 < len(args) {
				j++
				s.fileRef(cmd, args[j], RefArg, useWrite)
			}
		case "-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-type", "-xtype", "-size",
			"-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-user", "-group", "-perm",
			"-maxdepth", "-mindepth", "-printf", "-uid", "-gid", "-links", "-inum", "-used",
			"-fstype", "-context", "-wholename", "-iwholename", "-lname", "-ilname", "-regextype", "-newermt":
			j++
		}
	}
	s.add(*cmd)
	for _, e := range execs {
		s.inner(e.argv, e.name, c, cwd, false, func(in *Command) {
			for _, a := range in.Argv {
				if strings.Contains(a.Value, "{}") {
					in.Unknown = append(in.Unknown, UnknownRef{Pos: a.Pos, From: starts, Message: "{} is filled from find's traversal"})
					break
				}
			}
		})
	}
}
