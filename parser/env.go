package parser

import "strings"

// What the gate knows about environment variables. An assignment that
// reaches a program's environment (VAR=x cmd, export, declare -x, env
// VAR=x, sudo VAR=x, and the variables a request adds) is judged by
// [AssignFindings]: a name a program reads as code is env.code_injection,
// a name a program reads as a file is a file reference, a name on the
// short harmless list (extended by Options.EnvSafe) passes, and every
// other name is env.unknown — unknown is not harmless.

// harmlessEnv are names no program reads as code or as a file, when their
// value holds no '/' (glibc reads a locale or TZ value with a slash as a
// path).
var harmlessEnv = map[string]bool{
	"LANG": true, "LANGUAGE": true, "TZ": true, "TERM": true, "COLORTERM": true,
	"NO_COLOR": true, "FORCE_COLOR": true, "CLICOLOR": true, "CLICOLOR_FORCE": true,
	"CI": true, "COLUMNS": true, "LINES": true, "DEBIAN_FRONTEND": true,
	// Build settings that choose no code and name no file.
	"CGO_ENABLED": true, "GOOS": true, "GOARCH": true, "GOARM": true, "GOAMD64": true,
	"RUST_BACKTRACE": true, "RUST_LOG": true, "NODE_ENV": true,
	"PYTHONUNBUFFERED": true, "PYTHONDONTWRITEBYTECODE": true,
	"GIT_TERMINAL_PROMPT": true, "GIT_AUTHOR_NAME": true, "GIT_AUTHOR_EMAIL": true,
	"GIT_COMMITTER_NAME": true, "GIT_COMMITTER_EMAIL": true,
	// Markers agents set on the commands they run (Claude Code and the
	// claude-code-acp agent send CLAUDECODE=1 in every terminal/create):
	// programs only test that they are set.
	"CLAUDECODE": true,
}

// codeEnv are names a program reads as code, as a program to run, as
// options that load code, or as a place it writes (refused rather than
// reported as a write).
var codeEnv = map[string]bool{
	"PATH": true, "BASH_ENV": true, "ENV": true, "PROMPT_COMMAND": true, "PS0": true, "PS1": true,
	"PS2": true, "PS3": true, "PS4": true, "IFS": true, "SHELLOPTS": true, "BASHOPTS": true,
	"CDPATH": true, "GLOBIGNORE": true, "HOME": true, "XDG_CONFIG_HOME": true, "SHELL": true,
	"GIT_SSH_COMMAND": true, "GIT_SSH": true, "GIT_PAGER": true, "PAGER": true, "MANPAGER": true,
	"SYSTEMD_PAGER": true, "LESSOPEN": true, "LESSCLOSE": true, "EDITOR": true, "VISUAL": true,
	"GIT_EDITOR": true, "GIT_SEQUENCE_EDITOR": true, "GIT_EXTERNAL_DIFF": true, "GIT_ASKPASS": true,
	"SSH_ASKPASS": true, "SUDO_ASKPASS": true, "GIT_EXEC_PATH": true, "GIT_TEMPLATE_DIR": true,
	"GIT_PROXY_COMMAND": true, "GIT_DIR": true, "GIT_WORK_TREE": true, "GIT_INDEX_FILE": true,
	"GIT_OBJECT_DIRECTORY": true, "GIT_ALTERNATE_OBJECT_DIRECTORIES": true, "GIT_COMMON_DIR": true,
	"GIT_ALLOW_PROTOCOL": true, "GIT_TEST_FSMONITOR": true, "BROWSER": true,
	"PYTHONSTARTUP": true, "PYTHONPATH": true, "PYTHONHOME": true, "PYTHONINSPECT": true,
	"PYTHONUSERBASE": true, "NODE_OPTIONS": true, "NODE_PATH": true, "PERL5OPT": true,
	"PERL5LIB": true, "PERLLIB": true, "PERL5DB": true, "RUBYOPT": true, "RUBYLIB": true,
	"JAVA_TOOL_OPTIONS": true, "_JAVA_OPTIONS": true, "JDK_JAVA_OPTIONS": true, "GCONV_PATH": true,
	"RUSTC_WRAPPER": true, "RUSTC": true, "MAKEFLAGS": true, "VIMINIT": true,
	"EXINIT": true, "TERMINAL": true, "KUBECONFIG": true,
	// Go: GOFLAGS=-toolexec=x, GOCACHEPROG and GCCGO run programs, GOENV
	// names a file of settings, GOTOOLCHAIN/GOROOT/GOPATH/GOPROXY choose
	// the code that is compiled or run.
	"GOFLAGS": true, "GOCACHEPROG": true, "GCCGO": true, "GOENV": true, "GOTOOLCHAIN": true,
	"GOROOT": true, "GOPATH": true, "GOPROXY": true, "GOBIN": true,
	// C toolchains: CC=x, CFLAGS='-wrapper x' run x.
	"CC": true, "CXX": true, "CPP": true, "LD": true, "AR": true, "FC": true,
	"CFLAGS": true, "CXXFLAGS": true, "CPPFLAGS": true, "LDFLAGS": true,
}

// codeEnvPrefixes are name prefixes read as code (GIT_TRACE*: a file git
// writes; CGO_CFLAGS='-wrapper x').
var codeEnvPrefixes = []string{"LD_", "DYLD_", "BASH_FUNC_", "GIT_CONFIG", "GIT_TRACE", "NPM_CONFIG_", "npm_config_", "CGO_"}

// fileEnv are names whose value a program opens as a file: 'r' read,
// 'w' written, ':' a colon-separated list of files read.
var fileEnv = map[string]byte{
	"GIT_GRAFT_FILE": 'r', "MAGIC": ':', "SSL_CERT_FILE": 'r', "CURL_CA_BUNDLE": 'r',
	"GIT_SSL_CAINFO": 'r', "REQUESTS_CA_BUNDLE": 'r', "NODE_EXTRA_CA_CERTS": 'r',
	"HISTFILE": 'w', "LESSHISTFILE": 'w', "NODE_REPL_HISTORY": 'w',
}

// dangerousEnv reports whether assigning name can inject code.
func dangerousEnv(name string) bool {
	if codeEnv[name] {
		return true
	}
	if harmlessEnv[name] {
		return false // CGO_ENABLED is not CGO_CFLAGS
	}
	for _, p := range codeEnvPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	if strings.HasPrefix(name, "CARGO_") {
		return strings.HasSuffix(name, "WRAPPER") || strings.HasSuffix(name, "RUSTC")
	}
	return false
}

// harmless reports whether name is on the built-in harmless list (LC_*
// included) or on safe, whose entries are names or prefixes ending in *.
func harmless(name string, safe []string) bool {
	if harmlessEnv[name] || strings.HasPrefix(name, "LC_") {
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
	if kind, ok := fileEnv[name]; ok {
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

// stateVar notes that the script may change a variable the analysis
// resolves itself ($PWD, ~+, $OLDPWD): from then on (and, since loops
// repeat, everywhere: see Analyze) it is unknown.
func (s *state) stateVar(name string) {
	switch name {
	case "PWD", "OLDPWD":
		s.sticky |= stickyPWD
	}
}
