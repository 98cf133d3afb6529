package parser

import (
	"errors"
	"regexp"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/pattern"
	"mvdan.cc/sh/v3/syntax"
)

// posixClasses are the character classes bash knows in [[:name:]].
var posixClasses = map[string]bool{
	"alnum": true, "alpha": true, "ascii": true, "blank": true, "cntrl": true, "digit": true,
	"graph": true, "lower": true, "print": true, "punct": true, "space": true, "upper": true,
	"word": true, "xdigit": true,
}

// globUnsupported returns why Glob cannot expand pat (a Word.Pattern:
// quoted characters escaped by a backslash) exactly as bash does, or "".
// Only a plain subset of bracket expressions is supported: single ASCII
// characters, ASCII ranges low to high, and the POSIX classes. Collating
// symbols [[.x.]], equivalence classes [[=x=]], unknown classes, reversed
// ranges, a / or a non-ASCII byte inside brackets, and anything mvdan's
// translator rejects are refused: the gate would otherwise take the word
// for a literal that names nothing while bash expands it.
func globUnsupported(pat string) string {
	for i := 0; i < len(pat); i++ {
		switch pat[i] {
		case '\\':
			i++
		case '[':
			end, why := bracket(pat, i)
			if why != "" {
				return why
			}
			if end > i {
				i = end
			}
		}
	}
	if !strings.ContainsAny(pat, "[\\") {
		return "" // only * and ?: nothing the translator rejects (Glob still checks)
	}
	expr, err := pattern.Regexp(pat, pattern.EntireString|pattern.Filenames|pattern.NoGlobStar)
	if err != nil {
		return "the glob " + pat + " cannot be translated: " + err.Error()
	}
	if _, err := regexp.Compile(expr); err != nil {
		return "the glob " + pat + " cannot be translated: " + err.Error()
	}
	return ""
}

// bracket checks the bracket expression opening at pat[i]. It returns
// the index of its closing ']' (or i when the '[' is a literal: no
// closing bracket) and why it is unsupported.
func bracket(pat string, i int) (int, string) {
	j := i + 1
	if j < len(pat) && (pat[j] == '!' || pat[j] == '^') {
		j++
	}
	first := true
	prev := -1 // the last single character, for a range
	for ; j < len(pat); j++ {
		ch := pat[j]
		switch {
		case ch == ']' && !first:
			return j, ""
		case ch >= 0x80 || ch < 0x20:
			return 0, "a bracket expression with a non-ASCII or control character matches by locale"
		case ch == '/':
			return 0, "a bracket expression holds a /"
		case ch == '[' && j+1 < len(pat) && pat[j+1] == ':':
			end := strings.Index(pat[j+2:], ":]")
			if end < 0 || !posixClasses[pat[j+2:j+2+end]] {
				return 0, "unknown character class in " + pat
			}
			j += 2 + end + 1
			prev = -1
		case ch == '[' && j+1 < len(pat) && (pat[j+1] == '.' || pat[j+1] == '='):
			return 0, "collating symbols [[.x.]] and equivalence classes [[=x=]] are not supported"
		case ch == '-' && prev >= 0 && j+1 < len(pat) && pat[j+1] != ']':
			k := j + 1
			if pat[k] == '\\' {
				k++
			}
			if k >= len(pat) || pat[k] >= 0x80 || pat[k] < 0x20 || pat[k] == '[' || pat[k] == '/' {
				return 0, "unsupported range end in " + pat
			}
			if int(pat[k]) < prev {
				return 0, "a reversed range in " + pat + " (bash and the gate disagree on what it matches)"
			}
			j = k
			prev = -1
		case ch == '\\':
			if j+1 >= len(pat) {
				return i, ""
			}
			j++
			prev = int(pat[j])
			if pat[j] >= 0x80 || pat[j] < 0x20 || pat[j] == '/' {
				return 0, "a bracket expression with an unusual quoted character"
			}
		default:
			prev = int(ch)
		}
		first = false
	}
	return i, "" // no closing ]: the [ is literal
}

// zshLit returns why an unquoted literal of a word reads differently
// under zsh, or "": =cmd (a program's path), $~x $=x $^x $+x (expansion
// flags), and, when ext is set (the line may turn extendedglob on:
// setopt, set -o, zsh -o), extendedglob's ^x and x#. zsh's defaults read
// ^ and # as plain characters (a branch task#27 is a name). start reports
// that v starts the word, last that nothing follows it in the word.
func zshLit(v string, start, last, ext bool) string {
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '\\':
			i++
		case '=':
			if i == 0 && start && (len(v) > 1 || !last) {
				return "zsh expands =" + v[1:] + "… to the path of a program"
			}
		case '$':
			if i+1 < len(v) && strings.IndexByte("~=^+", v[i+1]) >= 0 {
				return "zsh reads $" + v[i+1:i+2] + " as a parameter expansion flag (bash as a literal $)"
			}
		case '^':
			if ext && (i == 0 && start || i > 0 && v[i-1] == '/') {
				return "with extendedglob, zsh reads ^ as a negated glob"
			}
		case '#':
			if ext && (i > 0 || !start) {
				return "with extendedglob, zsh reads # as a glob repetition"
			}
		}
	}
	return ""
}

// zshOptionsHarmless are zsh options (as zsh spells them: lower case,
// no underscores) that change nothing the gate reads: errors, tracing,
// history and completion behaviour, job control, prompts.
var zshOptionsHarmless = setOf("errexit errreturn pipefail nounset xtrace verbose noexec localoptions localtraps " +
	"localpatterns printexitvalue warncreateglobal warnnestedvar checkjobs checkrunningjobs hup notify bgnice monitor " +
	"beep listbeep histbeep extendedhistory histignoredups histignorealldups histignorespace histverify " +
	"sharehistory incappendhistory incappendhistorytime appendhistory histexpiredupsfirst histreduceblanks " +
	"histsavenodups histfindnodups histnostore histnofunctions histallowclobber histfcntllock histlexwords " +
	"histsavebycopy hashlistall banghist longlistjobs autolist automenu autoparamkeys autoparamslash autoremoveslash " +
	"completeinword completealiases alwaystoend alwayslastprompt menucomplete flowcontrol promptsubst promptbang " +
	"promptpercent promptcr promptsp transientrprompt correct correctall interactivecomments clobber multios " +
	"listambiguous listpacked listrowsfirst listtypes recexact globcomplete zle vi emacs singlelinezle " +
	"combiningchars overstrike mailwarning ignoreeof " +
	// bash's shopt names (bash -O NAME) that change nothing the gate reads.
	"lastpipe checkwinsize histappend cmdhist lithist inheriterrexit huponexit progcomp promptvars checkhash")

// zshOptionsReading are zsh options that change what a word, a glob or
// a parameter expansion names: after one is set anywhere in the line,
// globs are no longer expanded statically and zsh's option-dependent
// readings (extendedglob's ^ # ~) are refused.
var zshOptionsReading = setOf("extendedglob kshglob shglob globsubst globdots nullglob nomatch cshnullglob " +
	"caseglob casematch casepaths numericglobsort globstarshort braceccl rcexpandparam magicequalsubst " +
	"shwordsplit equals globassign markdirs bareglobqual glob badpattern ignorebraces ignoreclosebraces " +
	"rematchpcre kshzerosubscript ksharrays shfileexpansion histsubstpattern multibyte octalzeroes cbases " +
	"posixidentifiers posixstrings rcquotes cshjunkiequotes cshjunkieloops shnullcmd kshtypeset typesetsilent " +
	"extglob globstar dotglob nocaseglob nocasematch failglob globskipdots")

// bashSetOptions are the names bash's set -o takes.
var bashSetOptions = setOf("allexport braceexpand emacs errexit errtrace functrace hashall histexpand history " +
	"ignoreeof interactive-comments keyword monitor noclobber noexec noglob nolog notify nounset onecmd physical " +
	"pipefail posix privileged verbose vi xtrace")

func setOf(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// zshOptionName returns a zsh option name as zsh compares it: case and
// underscores ignored, and a leading "no" negating the option.
func zshOptionName(name string) string {
	n := strings.ToLower(strings.ReplaceAll(name, "_", ""))
	if rest, ok := strings.CutPrefix(n, "no"); ok && !zshOptionsHarmless[n] && !zshOptionsReading[n] {
		return rest
	}
	return n
}

// zshParams are the parameters zsh gives a meaning that bash does not:
// assigned in any form (name=x, name=(…), name[k]=v, name+=…, typeset,
// read -A, set -A, for name in …), they change what programs, functions,
// aliases, options or directories later words name, or run code. Names
// bash also reads (PATH, CDPATH, IFS, PS1, HOME, …) are judged by the
// environment table already. From zshparam(1), PARAMETERS USED BY THE
// SHELL, and zshmodules(1), THE ZSH/PARAMETER MODULE and others.
var zshParams = map[string]string{
	"path": "the command search path", "cdpath": "cd's search path", "fpath": "the function search path",
	"FPATH": "the function search path", "module_path": "the module search path (loaded as code)",
	"MODULE_PATH": "the module search path (loaded as code)", "manpath": "man's search path", "MANPATH": "man's search path",
	"functions": "the shell functions (their bodies run as code)", "dis_functions": "the disabled shell functions",
	"functions_source": "where functions are loaded from", "aliases": "the aliases (expanded as code)",
	"galiases": "the global aliases", "saliases": "the suffix aliases (a file name runs a program)",
	"dis_aliases": "the disabled aliases", "dis_galiases": "the disabled global aliases",
	"dis_saliases": "the disabled suffix aliases", "commands": "the command hash table (a name runs another program)",
	"builtins": "the builtins", "dis_builtins": "the disabled builtins", "reswords": "the reserved words",
	"dis_reswords": "the disabled reserved words", "patchars": "the pattern characters",
	"dis_patchars": "the disabled pattern characters", "options": "the shell options", "parameters": "the parameters",
	"modules": "the loaded modules", "nameddirs": "the named directories (~name)", "userdirs": "the user directories (~user)",
	"dirstack": "the directory stack (cd +N, ~N)", "histchars": "the history and comment characters",
	"HISTCHARS": "the history and comment characters", "NULLCMD": "the program a redirection alone runs",
	"READNULLCMD": "the program a redirection alone runs", "FCEDIT": "the editor fc runs", "ZDOTDIR": "where zsh reads its startup files (code)",
	"STTY": "the stty command run before each program", "TMPPREFIX": "where zsh writes temporary files",
	"mapfile": "files, read and written through the parameter (zsh/mapfile)", "ARGV0": "the argv[0] programs run with",
	"chpwd_functions": "functions run on each cd", "precmd_functions": "functions run before each prompt",
	"preexec_functions": "functions run before each command", "periodic_functions": "functions run periodically",
	"zshaddhistory_functions": "functions run on each history line", "zshexit_functions": "functions run on exit",
	"PROMPT": "the prompt (code under promptsubst)", "PROMPT2": "the prompt (code under promptsubst)",
	"PROMPT3": "the prompt (code under promptsubst)", "PROMPT4": "the prompt (code under promptsubst)",
	"RPROMPT": "the prompt (code under promptsubst)", "RPROMPT2": "the prompt (code under promptsubst)",
	"RPS1": "the prompt (code under promptsubst)", "RPS2": "the prompt (code under promptsubst)",
	"SPROMPT": "the prompt (code under promptsubst)", "zle_highlight": "the line editor",
	"KEYBOARD_HACK": "how zsh reads quotes at the end of a line", "termcap": "the terminal capabilities",
	"terminfo": "the terminal capabilities", "sysparams": "the shell's own parameters", "argv": "the positional parameters",
	"mailpath": "the mail files an interactive shell checks (their messages are expanded, $(…) included)",
	"MAILPATH": "the mail files an interactive shell checks (their messages are expanded, $(…) included)",
}

// zshParamWhy returns why assigning name changes what zsh runs, or "".
func zshParamWhy(name string) string {
	if why, ok := zshParams[name]; ok {
		return "zsh reads " + name + " as " + why + ": assigning it changes what later commands run or name"
	}
	return ""
}

// zshCommands are command names zsh reads as something bash does not:
// reserved words and precommand modifiers that run the rest of the line
// (bash: a command not found), and builtins that load or run code.
var zshCommands = map[string]struct{ rule, why string }{
	"noglob":     {"parser.not_portable", "zsh runs the rest of the line as a command (precommand modifier noglob)"},
	"nocorrect":  {"parser.not_portable", "zsh runs the rest of the line as a command (precommand modifier nocorrect)"},
	"-":          {"parser.not_portable", "zsh runs the rest of the line as a command (precommand modifier -)"},
	"repeat":     {"parser.not_portable", "zsh's repeat runs the rest of the line several times"},
	"foreach":    {"parser.not_portable", "zsh's foreach loop"},
	"emulate":    {"parser.eval", "emulate changes every option (and with -c runs text as shell code)"},
	"zmodload":   {"parser.eval", "zmodload loads a module into zsh (code; zsh/net/tcp, zsh/mapfile, zsh/files, …)"},
	"autoload":   {"parser.eval", "autoload loads shell functions from files (code)"},
	"zcompile":   {"parser.eval", "zcompile writes compiled functions zsh loads in place of their source"},
	"sched":      {"parser.eval", "sched runs a command later"},
	"zpty":       {"parser.eval", "zpty runs a command in a pseudo-terminal"},
	"zle":        {"parser.eval", "zle runs or defines line-editor widgets (code)"},
	"bindkey":    {"parser.eval", "bindkey -s makes keys type text into the shell"},
	"zstyle":     {"parser.eval", "zstyle -e stores code that completion runs"},
	"r":          {"parser.eval", "zsh's r runs a command again from the history"},
	"functions":  {"parser.eval", "zsh's functions builtin defines and changes shell functions"},
	"ttyctl":     {"parser.not_portable", "zsh's ttyctl"},
	"vared":      {"parser.eval", "vared edits a variable interactively"},
	"zparseopts": {"parser.not_portable", "zparseopts assigns the arrays it is given (-A, -a)"},
}

// zshRedirect returns why zsh reads a redirection (parsed as bash
// parses it, from src) differently, or "": >! >>! &>! (zsh: a clobbering
// write to the next word; bash: a write to a file named !…), and x<1-5>y
// or <-> (zsh: a numeric glob; bash: two redirections).
func zshRedirect(r *syntax.Redirect, src string) string {
	if r.Word == nil || len(r.Word.Parts) == 0 {
		return ""
	}
	l, ok := r.Word.Parts[0].(*syntax.Lit)
	if !ok {
		return ""
	}
	start, end := int(r.Word.Pos().Offset()), int(r.Word.End().Offset())
	adjacent := int(r.OpPos.Offset())+len(r.Op.String()) == start
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll:
		if adjacent && strings.HasPrefix(l.Value, "!") {
			return "zsh reads " + r.Op.String() + "! as a redirection to the word after it (bash: to a file named " + l.Value + ")"
		}
	case syntax.RdrIn:
		if adjacent && len(r.Word.Parts) == 1 && end < len(src) && src[end] == '>' && numRange(l.Value) {
			return "zsh reads <" + l.Value + "> as a numeric glob (bash as two redirections)"
		}
	}
	return ""
}

// numRange reports N-M with optional numbers: the inside of zsh's <N-M>.
func numRange(v string) bool {
	a, b, ok := strings.Cut(v, "-")
	return ok && (a == "" || isDigits(a)) && (b == "" || isDigits(b))
}

// maxDecomment bounds the rounds of interactiveZsh's rewriting (each
// round may uncover a # that now starts a word).
const maxDecomment = 8

// interactiveZsh adds to res what an interactive zsh without the
// interactivecomments option (zsh's default; a person's terminal, where
// agents' commands are often typed) reads in src: a # that starts a word
// is a character there, not a comment, so `ls # ; cat .env` runs cat.
// src is analysed again with every comment's # escaped, and the findings
// and commands of that reading that the bash reading lacks are added; a
// command named #… is not (zsh finds no such program).
func (a *Analyzer) interactiveZsh(src string, opts Options, res *Analysis) {
	if a.cp == nil {
		a.cp = syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.KeepComments(true))
	}
	alt := src
	changed := false
	for round := 0; ; round++ {
		var hashes []int
		f, err := a.cp.Parse(strings.NewReader(alt), "")
		if err != nil {
			zp := syntax.NewParser(syntax.Variant(syntax.LangZsh))
			if _, zerr := zp.Parse(strings.NewReader(alt), ""); changed && zerr == nil {
				res.Findings = append(res.Findings, Finding{Rule: "parser.not_portable", Pos: Pos{Line: 1, Col: 1},
					Message: "an interactive zsh reads the comments as words, and the line it reads then does not parse: " + err.Error()})
			}
			return // zsh does not parse that line either: it runs nothing
		}
		syntax.Walk(f, func(n syntax.Node) bool {
			if c, ok := n.(*syntax.Comment); ok {
				hashes = append(hashes, int(c.Hash.Offset()))
			}
			return true
		})
		if len(hashes) == 0 {
			break
		}
		if round == maxDecomment {
			res.Findings = append(res.Findings, Finding{Rule: "parser.not_portable", Pos: Pos{Line: 1, Col: 1},
				Message: "too many comments that an interactive zsh reads as words"})
			return
		}
		var b strings.Builder
		last := 0
		for _, h := range hashes {
			if h < last || h >= len(alt) || alt[h] != '#' {
				continue
			}
			b.WriteString(alt[last:h])
			b.WriteString(`\#`)
			last = h + 1
		}
		b.WriteString(alt[last:])
		alt, changed = b.String(), true
	}
	if !changed {
		return
	}
	other := analyzerPool.Get().(*Analyzer)
	defer analyzerPool.Put(other)
	if other.p == nil {
		other.p = syntax.NewParser(syntax.Variant(syntax.LangBash))
	}
	alt2 := other.analyze(alt, opts)
	if alt2 == nil {
		return
	}
	const prefix = "an interactive zsh reads the comments as words: "
	for _, f := range alt2.Findings {
		dup := false
		for _, g := range res.Findings {
			if g.Rule == f.Rule && strings.TrimPrefix(g.Message, prefix) == f.Message {
				dup = true
				break
			}
		}
		if !dup && len(res.Findings) < maxFindings {
			f.Message = prefix + f.Message
			res.Findings = append(res.Findings, f)
		}
	}
	loops, pipes := 0, 0
	for _, c := range res.Commands {
		loops, pipes = max(loops, c.Loop), max(pipes, c.pipe)
	}
	for _, c := range alt2.Commands {
		if len(c.Args) > 0 && strings.HasPrefix(c.Args[0], "#") || hasCommand(res.Commands, c) {
			continue
		}
		if c.Loop != 0 {
			c.Loop += loops
		}
		if c.pipe != 0 {
			c.pipe += pipes
		}
		c.Wrappers = append([]string{interactiveZshWrapper}, c.Wrappers...)
		res.Commands = append(res.Commands, c)
	}
}

// interactiveZshWrapper is the first of Command.Wrappers of a command
// that only an interactive zsh reading comments as words runs.
const interactiveZshWrapper = "interactive zsh"

// hasCommand reports whether cmds holds a command with c's argv, cwd,
// redirects and wrappers.
func hasCommand(cmds []Command, c Command) bool {
	for _, d := range cmds {
		if slices.Equal(d.Args, c.Args) && d.Cwd == c.Cwd && d.CwdDynamic == c.CwdDynamic &&
			slices.Equal(d.Wrappers, c.Wrappers) && len(d.Redirects) == len(c.Redirects) && len(d.Files) == len(c.Files) {
			return true
		}
	}
	return false
}

// zshScript parses src, a script zsh runs (zsh -c STRING), as zsh
// parses it (mvdan.cc/sh's LangZsh) and refuses what only zsh reads
// there: the walker judged src as bash reads it, which holds only where
// both read the same. A script LangZsh cannot parse is refused too.
func (s *state) zshScript(src string, c *ctx) {
	zp := syntax.NewParser(syntax.Variant(syntax.LangZsh), syntax.KeepComments(c.zshTTY))
	f, err := zp.Parse(strings.NewReader(src), "")
	if err != nil {
		p := Pos{Line: 1, Col: 1}
		var pe syntax.ParseError
		if errors.As(err, &pe) {
			p = c.pos(pe.Pos)
		}
		s.find("parser.not_portable", p, "the gate cannot read this script as zsh does: "+err.Error())
		return
	}
	cc := *c // a copy for the closure: c itself stays on its caller's stack
	syntax.Walk(f, func(n syntax.Node) bool {
		why := ""
		var at syntax.Pos
		switch n := n.(type) {
		case *syntax.ParamExp:
			at = n.Pos()
			switch {
			case n.Flags != nil:
				why = "zsh's parameter expansion flags ${(…)x}"
			case n.IsSet, n.Split != 0, n.GlobSubst != 0, n.RcExpand != 0:
				why = "zsh's ${+x} ${=x} ${~x} ${^x}"
			case n.NestedParam != nil:
				why = "zsh's nested parameter expansion"
			case len(n.Modifiers) > 0:
				why = "zsh's modifiers ${x:h}"
			case n.Short && (n.Index != nil || n.Length):
				why = "zsh's unbraced subscript or length $x[…] $#x"
			}
		case *syntax.FuncDecl:
			if n.Name == nil || len(n.Names) > 0 {
				at, why = n.Pos(), "zsh's anonymous or multiple-name function"
			}
		case *syntax.Stmt:
			if n.Disown {
				at, why = n.Pos(), "zsh's &| or &!"
			}
		case *syntax.FlagsArithm:
			at, why = n.Pos(), "zsh's subscript flags"
		}
		if c, ok := n.(*syntax.Comment); ok {
			at, why = c.Pos(), "a # comment (an interactive zsh reads it as words)"
		}
		if why != "" {
			s.find("parser.not_portable", cc.pos(at), why+" reads differently from bash: the gate does not follow it")
		}
		return true
	})
}
