package policy

import "strings"

// optionGuard names options that turn a read-only command into one that
// writes, deletes or runs another program. Prefix rules cannot say "find,
// unless -delete appears anywhere", so these are checked in Go, for every
// policy: a guarded option is a policy.dangerous_option reason (ask by
// default) unless the prefix rule that matched already names it, e.g.
// allow: [find . -delete]. A long option also matches in its --opt=value
// form; a one-letter option also matches inside a cluster or with its
// value attached (-uo, -oFILE): matching too much only asks.
type optionGuard struct {
	prefix  []string
	options []string
	why     string
}

var optionGuards = [...]optionGuard{
	{[]string{"find"}, []string{"-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls"}, "deletes files, writes files or runs a program"},
	{[]string{"rg"}, []string{"--pre"}, "runs a preprocessor program"},
	{[]string{"git", "branch"}, []string{"-d", "-D", "--delete", "-m", "-M", "--move", "-c", "-C", "--copy", "-f", "--force", "-u", "--set-upstream-to", "--unset-upstream", "--edit-description"}, "deletes, moves or rewrites branches"},
	{[]string{"git", "diff"}, []string{"--output", "--ext-diff"}, "writes a file or runs an external diff program"},
	{[]string{"git", "log"}, []string{"--output", "--ext-diff"}, "writes a file or runs an external diff program"},
	{[]string{"git", "show"}, []string{"--output", "--ext-diff"}, "writes a file or runs an external diff program"},
	{[]string{"git", "grep"}, []string{"-O", "--open-files-in-pager"}, "runs a pager program"},
	{[]string{"go", "build"}, []string{"-toolexec", "--toolexec", "-exec", "--exec"}, "runs a program of your choice"},
	{[]string{"go", "test"}, []string{"-toolexec", "--toolexec", "-exec", "--exec", "-vettool", "--vettool"}, "runs a program of your choice"},
	{[]string{"go", "list"}, []string{"-toolexec", "--toolexec"}, "runs a program of your choice"},
	{[]string{"go", "vet"}, []string{"-toolexec", "--toolexec", "-vettool", "--vettool"}, "runs a program of your choice"},
	{[]string{"go", "env"}, []string{"-w", "-u"}, "changes the Go configuration"},
	{[]string{"sort"}, []string{"-o", "--output"}, "writes a file"},
	{[]string{"tree"}, []string{"-o"}, "writes a file"},
	{[]string{"date"}, []string{"-s", "--set"}, "sets the clock"},
	{[]string{"file"}, []string{"-C", "--compile"}, "writes a compiled magic file"},
}

// guardHit is one guarded option found in an argv.
type guardHit struct {
	index int // argv index of the option
	guard *optionGuard
}

// guardOptions returns the guarded options of argv at indexes >= from
// (the words the matched prefix rule did not name).
func guardOptions(argv []string, from int, hits []guardHit) []guardHit {
	if len(argv) == 0 {
		return hits
	}
	for gi := range optionGuards {
		g := &optionGuards[gi]
		if !hasPrefix(argv, g.prefix) {
			continue
		}
		for i := max(from, len(g.prefix)); i < len(argv); i++ {
			if argv[i] == "--" {
				break
			}
			if guardedOption(argv[i], g.options) {
				hits = append(hits, guardHit{i, g})
			}
		}
	}
	return hits
}

func guardedOption(arg string, options []string) bool {
	for _, o := range options {
		switch {
		case arg == o:
			return true
		case strings.HasPrefix(o, "--") && strings.HasPrefix(arg, o+"="):
			return true
		case len(o) == 2 && len(arg) > 2 && arg[0] == '-' && arg[1] != '-' && strings.IndexByte(arg[1:], o[1]) >= 0:
			return true // -oFILE, or a cluster such as -uo (over-matching only asks)
		}
	}
	return false
}

func hasPrefix(argv, prefix []string) bool {
	if len(argv) < len(prefix) {
		return false
	}
	for i, t := range prefix {
		if argv[i] != t {
			return false
		}
	}
	return true
}
