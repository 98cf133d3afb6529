package parser

import (
	"path"
	"slices"
	"strings"
	"sync"
)

// What the gate knows about environment variables. An assignment that
// reaches a program's environment (VAR=x cmd, export, declare -x, env
// VAR=x, sudo VAR=x, and the variables a request adds) is judged by
// [AssignFindings]: a name a program reads as code is env.code_injection,
// a name a program reads as a file is a file reference, a name on the
// short harmless list (extended by Options.EnvSafe) passes, and every
// other name is env.unknown — unknown is not harmless.

// envVar is an environment variable a program reads, and what for. A *
// in name stands for any run of characters (LD_*, CARGO_*WRAPPER).
type envVar struct {
	name string
	use  envUse
}

// envUse is what a program does with an environment variable.
type envUse uint8

const (
	// envCode: read as code, as a program to run, as options that load
	// code, or as a place written that the gate refuses rather than
	// checks.
	envCode     envUse = iota
	envFile            // a file read
	envWritten         // a file written
	envFileList        // a colon-separated list of files read
	envHarmless        // harmless
)

// shellEnv are the variables the shell itself, the C library or every
// program reads; the variables a program reads are in its entry in
// programs.
var shellEnv = slices.Concat(
	codeEnv("PATH BASH_ENV ENV PROMPT_COMMAND PS0 PS1 PS2 PS3 PS4 IFS SHELLOPTS BASHOPTS CDPATH GLOBIGNORE HOME XDG_CONFIG_HOME SHELL BASH_FUNC_*"),
	[]envVar{{"HISTFILE", envWritten}},
	// The dynamic loader and the C library: every program.
	codeEnv("LD_* DYLD_* GCONV_PATH GLIBC_TUNABLES NLSPATH"),
	[]envVar{{"LOCPATH", envFile}, {"HOSTALIASES", envFile}, {"TZDIR", envFile}, {"MALLOC_TRACE", envWritten}},
	harmlessEnv("RES_OPTIONS LOCALDOMAIN"),
	// Names no program reads as code or as a file, when their value holds
	// no '/' (glibc reads a locale or TZ value with a slash as a path).
	harmlessEnv("LANG LANGUAGE TZ TERM COLORTERM NO_COLOR FORCE_COLOR CLICOLOR CLICOLOR_FORCE CI COLUMNS LINES DEBIAN_FRONTEND"),
	// Markers agents set on the commands they run (Claude Code and the
	// claude-code-acp agent send CLAUDECODE=1 in every terminal/create):
	// programs only test that they are set.
	harmlessEnv("CLAUDECODE"),
)

// codeEnv lists variables read as code.
func codeEnv(names string) []envVar { return envList(names, envCode) }

// harmlessEnv lists harmless variables.
func harmlessEnv(names string) []envVar { return envList(names, envHarmless) }

func envList(names string, use envUse) []envVar {
	var l []envVar
	for _, n := range strings.Fields(names) {
		l = append(l, envVar{n, use})
	}
	return l
}

// envUses is what the gate knows about environment variables: the
// shell's (shellEnv) and those of every entry of programs (see envVar).
// A variable assigned for one command reaches every program it runs:
// what any program reads as code is code for every command.
type envUses struct {
	code     map[string]bool
	codeGlob [][2]string // prefix and suffix around the *
	file     map[string]byte
	harmless map[string]bool
}

// envTable gathers shellEnv and the env of every entry of programs.
var envTable = sync.OnceValue(func() *envUses {
	u := &envUses{code: map[string]bool{}, file: map[string]byte{}, harmless: map[string]bool{}}
	u.add("the shell", shellEnv)
	for name, p := range progs() {
		u.addProgram(name, p)
	}
	return u
})

func (u *envUses) addProgram(name string, p *program) {
	u.add(name, p.env)
	for sub, s := range p.subs {
		u.addProgram(name+" "+sub, s)
	}
}

// add adds the uses of one env list (prog names it in a panic).
func (u *envUses) add(prog string, vars []envVar) {
	for _, v := range vars {
		name := v.name
		switch v.use {
		case envCode:
			if pre, suf, ok := strings.Cut(name, "*"); ok {
				u.codeGlob = append(u.codeGlob, [2]string{pre, suf})
			} else {
				u.code[name] = true
			}
		case envHarmless:
			u.harmless[name] = true
		case envFile, envWritten, envFileList:
			kind := [...]byte{envFile: 'r', envWritten: 'w', envFileList: ':'}[v.use]
			if k, ok := u.file[name]; ok && k != kind {
				panic("parser: environment variable " + name + " of " + prog + " read as two kinds of file")
			}
			u.file[name] = kind
		default:
			panic("parser: bad environment variable " + name + " for " + prog)
		}
	}
}

// dangerousEnv reports whether assigning name can inject code: a name
// some program reads as code, unless a program names it harmless and
// none names it exactly as code (CGO_ENABLED is not CGO_CFLAGS).
func dangerousEnv(name string) bool {
	u := envTable()
	if u.code[name] {
		return true
	}
	if u.harmless[name] {
		return false
	}
	for _, g := range u.codeGlob {
		if len(name) >= len(g[0])+len(g[1]) && strings.HasPrefix(name, g[0]) && strings.HasSuffix(name, g[1]) {
			return true
		}
	}
	return false
}

// harmless reports whether name is on the built-in harmless list (LC_*
// included) or on safe, whose entries are names or prefixes ending in *.
func harmless(name string, safe []string) bool {
	if envTable().harmless[name] || strings.HasPrefix(name, "LC_") {
		return true
	}
	for _, s := range safe {
		if p, ok := strings.CutSuffix(s, "*"); ok && strings.HasPrefix(name, p) || s == name {
			return true
		}
	}
	return false
}

// AssignFindings judges one variable that reaches a program's
// environment — a VAR=value prefix assignment, export or declare -x, env
// VAR=value, or a variable a request adds to the environment — exactly
// as the analysis judges it:
//
//   - a name a program reads as code (PATH, LD_PRELOAD, GIT_SSH_COMMAND,
//     GOFLAGS, CGO_*, …) is the finding env.code_injection;
//   - a name a program reads as a file (GIT_GRAFT_FILE, MAGIC, HISTFILE,
//     …) yields FileRefs (Kind RefEnv) for the value: the gate checks
//     them as it checks any file reference;
//   - a harmless name (LANG, LC_*, TZ, TERM, NO_COLOR, CI, …, and the
//     names or NAME* prefixes of opts.EnvSafe) passes when its value is
//     known and holds no '/';
//   - any other name is the finding env.unknown.
//
// dynamic reports that value is not known before run time. Positions are
// pos. Only opts.EnvSafe is read from opts.
func AssignFindings(name, value string, dynamic bool, pos Pos, opts Options) ([]Finding, []FileRef) {
	if dangerousEnv(name) {
		return []Finding{{Rule: "env.code_injection", Pos: pos,
			Message: "assignment to " + name + " can make programs run other code"}}, nil
	}
	if kind, ok := envTable().file[name]; ok {
		var refs []FileRef
		vals := []string{value}
		if kind == ':' {
			vals = strings.Split(value, ":")
		}
		for _, v := range vals {
			if (v != "" || dynamic) && !notAFile(v) {
				refs = append(refs, FileRef{Path: v, Pos: pos, Kind: RefEnv, Write: kind == 'w', Dynamic: dynamic})
			}
		}
		return nil, refs
	}
	if harmless(name, opts.EnvSafe) && !dynamic && !strings.Contains(value, "/") &&
		!(name == "TZ" && strings.HasPrefix(value, ":")) {
		return nil, nil
	}
	msg := "assignment to " + name + " reaches programs' environment, and the gate does not know what they do with it"
	if harmless(name, opts.EnvSafe) {
		msg = "the value of " + name + " is not known or names a path"
	}
	return []Finding{{Rule: "env.unknown", Pos: pos, Message: msg}}, nil
}

// exportEnv judges an assignment that reaches cmd's environment (see
// AssignFindings) and records what it found.
func (s *state) exportEnv(cmd *Command, name string, val Word, pos Pos) {
	s.stateVar(name)
	fs, refs := AssignFindings(name, val.Value, val.Dynamic, pos, s.opts)
	for _, f := range fs {
		s.find(f.Rule, f.Pos, f.Message)
	}
	if cmd != nil {
		cmd.Files = append(cmd.Files, refs...)
	}
}

// checkEnv reports an assignment to a shell variable that makes programs
// run other programs or load code, and notes assignments to the
// variables the analysis resolves itself.
func (s *state) checkEnv(name string, p Pos) {
	s.stateVar(name)
	switch {
	case dangerousEnv(name):
		s.find("env.code_injection", p, "assignment to "+name+" can make programs run other code")
	case s.sticky&stickyAllexport != 0 && !harmless(name, s.opts.EnvSafe):
		// set -a exports what read, for, printf -v … assign too.
		s.find("env.unknown", p, "set -a exports "+name+" to programs, and the gate does not know what they do with it")
	}
}

// envSeenBy drops the env.unknown findings (since index mark) of cmd's
// prefix assignments when the one program that sees them (cmd's, run
// directly: VAR=x ls) reads no environment variable but those its entry
// lists (program.envAll): a name it does not list is nothing to it.
// Names some program reads as code or as a file, and names on the
// harmless list with a value they refuse (TZ=/x), are judged as before:
// they are in the tables, not unknown.
func (s *state) envSeenBy(cmd *Command, mark int) {
	if len(cmd.Argv) == 0 || cmd.Argv[0].Dynamic || len(cmd.Assigns) == 0 {
		return
	}
	p := progs()[path.Base(cmd.Argv[0].Value)]
	if p == nil || !p.envAll || p.wrap != nil {
		return
	}
	u := envTable()
	kept := s.res.Findings[:mark]
	for _, f := range s.res.Findings[mark:] {
		drop := false
		if f.Rule == "env.unknown" {
			for _, as := range cmd.Assigns {
				if as.Pos == f.Pos && !u.harmless[as.Name] && !strings.HasPrefix(as.Name, "LC_") && u.file[as.Name] == 0 && !dangerousEnv(as.Name) {
					drop = true
				}
			}
		}
		if !drop {
			kept = append(kept, f)
		}
	}
	s.res.Findings = kept
}

// stateVar notes that the script may change a variable the analysis
// resolves itself ($PWD, ~+, $OLDPWD): from then on (and, since loops
// repeat, everywhere: see Analyze) it is unknown.
func (s *state) stateVar(name string) {
	switch name {
	case "PWD", "OLDPWD":
		s.sticky |= stickyPWD
	}
}
