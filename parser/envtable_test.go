package parser

import (
	"slices"
	"testing"
)

// The environment lists as they were before the variables each program
// reads moved into its entry in programs (TestEnvTableNoLooser compares).

var oldHarmlessEnv = map[string]bool{
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

var oldCodeEnv = map[string]bool{
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

var oldCodeEnvPrefixes = []string{"LD_", "DYLD_", "BASH_FUNC_", "GIT_CONFIG", "GIT_TRACE", "NPM_CONFIG_", "npm_config_", "CGO_"}

var oldFileEnv = map[string]byte{
	"GIT_GRAFT_FILE": 'r', "MAGIC": ':', "SSL_CERT_FILE": 'r', "CURL_CA_BUNDLE": 'r',
	"GIT_SSL_CAINFO": 'r', "REQUESTS_CA_BUNDLE": 'r', "NODE_EXTRA_CA_CERTS": 'r',
	"HISTFILE": 'w', "LESSHISTFILE": 'w', "NODE_REPL_HISTORY": 'w',
}

// oldDangerousEnv is dangerousEnv as it was.
func oldDangerousEnv(name string) bool {
	if oldCodeEnv[name] {
		return true
	}
	if oldHarmlessEnv[name] {
		return false
	}
	for _, p := range oldCodeEnvPrefixes {
		if len(name) >= len(p) && name[:len(p)] == p {
			return true
		}
	}
	if len(name) > 6 && name[:6] == "CARGO_" {
		return len(name) >= 7 && (name[len(name)-7:] == "WRAPPER" || len(name) >= 5 && name[len(name)-5:] == "RUSTC")
	}
	return false
}

// envVerdict sums up AssignFindings for a name and a plain value: the
// finding's rule, or "file:r", "file:w", "file::" for file references,
// or "" when it passes.
func envVerdict(name, value string) string {
	fs, refs := AssignFindings(name, value, false, Pos{}, Options{})
	switch {
	case len(fs) > 0:
		return fs[0].Rule
	case len(refs) > 0:
		k := "r"
		if refs[0].Write {
			k = "w"
		}
		if len(refs) > 1 {
			k = ":"
		}
		return "file:" + k
	}
	return ""
}

// TestEnvTableNoLooser: for every name the old lists held (and a name
// under every old prefix), the verdict now is at least as strict: code
// stays env.code_injection, a file stays the same file reference (or
// code), a harmless name passes or is stricter.
func TestEnvTableNoLooser(t *testing.T) {
	t.Parallel()
	var names []string
	for n := range oldCodeEnv {
		names = append(names, n)
	}
	for n := range oldHarmlessEnv {
		names = append(names, n)
	}
	for n := range oldFileEnv {
		names = append(names, n)
	}
	for _, p := range oldCodeEnvPrefixes {
		names = append(names, p+"X", p+"PRELOAD", p+"CFLAGS")
	}
	names = append(names, "CARGO_BUILD_RUSTC_WRAPPER", "CARGO_TARGET_X_RUSTC", "CARGO_HOME", "CGO_ENABLED", "LC_ALL", "FOO_UNKNOWN")
	slices.Sort(names)
	for _, n := range names {
		old := ""
		switch {
		case oldDangerousEnv(n):
			old = "env.code_injection"
		case oldFileEnv[n] != 0:
			old = "file:" + string(oldFileEnv[n])
		case oldHarmlessEnv[n] || len(n) > 3 && n[:3] == "LC_":
			old = ""
		default:
			old = "env.unknown"
		}
		value := "a:b"
		if old == "file:r" || old == "file:w" {
			value = "a"
		}
		got := envVerdict(n, value)
		ok := got == old || got == "env.code_injection" || old == "" || old == "env.unknown" && got != ""
		if !ok {
			t.Errorf("%s=%s: now %q, was %q: looser", n, value, got, old)
		}
		if got != old {
			t.Logf("%s: was %q, now %q", n, old, got)
		}
	}
}
