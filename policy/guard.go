package policy

import "strings"

// optionGuard names options that turn a read-only command into one that
// writes, deletes or runs another program. Prefix rules cannot say "find,
// unless -delete appears anywhere", so these are checked in Go, for every
// policy: a guarded option is a policy.dangerous_option reason (ask by
// default) unless the prefix rule that matched already names it, e.g.
// allow: [find . -delete].
//
// Matching errs on the side of asking, since matching too much only asks
// while matching too little runs a program:
//   - A "--long" option matches every word whose name (before any '=') is
//     a prefix of it with at least one letter after the dashes: GNU
//     getopt_long and git accept any unambiguous abbreviation (sort --out=f
//     is sort --output=f), and an ambiguous one is an error that runs
//     nothing.
//   - A "-x" option matches every word that starts with one dash and holds
//     the letter x: a cluster (-no), a value attached (-ofile), or a
//     letter inside another option's attached value (over-matching).
//   - Other options ("-delete", "-TT") match the word itself or its
//     -opt=value form.
//   - In a goFlags guard, every option is a Go flag: "-o" matches -o, --o,
//     -o=x and --o=x, and also -test.o (what go test passes on), never a
//     cluster nor an abbreviation, which Go's flag package does not have.
//   - A word without a leading dash ("foreach") is a subcommand: it
//     matches itself.
//
// "--" ends the options unless the word before it is an option that may
// take it as its value (sort -t -- -o x writes x).
type optionGuard struct {
	prefix  []string
	options []string
	goFlags bool
	why     string
}

var optionGuards = [...]optionGuard{
	{prefix: []string{"find"}, options: []string{"-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls"}, why: "deletes files, writes files or runs a program"},
	{prefix: []string{"rg"}, options: []string{"--pre"}, why: "runs a preprocessor program"},
	{prefix: []string{"git", "branch"}, options: []string{"-d", "-D", "--delete", "-m", "-M", "--move", "-c", "-C", "--copy", "-f", "--force", "-u", "--set-upstream-to", "--unset-upstream", "--edit-description"}, why: "deletes, moves or rewrites branches"},
	{prefix: []string{"git", "diff"}, options: []string{"--output", "--ext-diff"}, why: "writes a file or runs an external diff program"},
	{prefix: []string{"git", "log"}, options: []string{"--output", "--ext-diff"}, why: "writes a file or runs an external diff program"},
	{prefix: []string{"git", "show"}, options: []string{"--output", "--ext-diff"}, why: "writes a file or runs an external diff program"},
	{prefix: []string{"git", "grep"}, options: []string{"-O", "--open-files-in-pager"}, why: "runs a pager program"},
	{prefix: []string{"go", "build"}, goFlags: true, options: []string{"-toolexec", "-exec"}, why: "runs a program of your choice"},
	{prefix: []string{"go", "test"}, goFlags: true, options: []string{"-toolexec", "-exec", "-vettool"}, why: "runs a program of your choice"},
	{prefix: []string{"go", "list"}, goFlags: true, options: []string{"-toolexec"}, why: "runs a program of your choice"},
	{prefix: []string{"go", "vet"}, goFlags: true, options: []string{"-toolexec", "-vettool"}, why: "runs a program of your choice"},
	{prefix: []string{"go", "env"}, goFlags: true, options: []string{"-w", "-u"}, why: "changes the Go configuration"},
	{prefix: []string{"sort"}, options: []string{"-o", "--output"}, why: "writes a file"},
	{prefix: []string{"tree"}, options: []string{"-o"}, why: "writes a file"},
	{prefix: []string{"date"}, options: []string{"-s", "--set"}, why: "sets the clock"},
	{prefix: []string{"file"}, options: []string{"-C", "--compile"}, why: "writes a compiled magic file"},
}

// guardHit is one guarded option found in an argv.
type guardHit struct {
	index int // argv index of the option
	guard *optionGuard
}

// what names the hit in a message: the prefix and the offending word.
func (h guardHit) what(argv []string) string {
	return strings.Join(h.guard.prefix, " ") + " " + argv[h.index]
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
		for i := len(g.prefix); i < len(argv); i++ {
			if argv[i] == "--" && !takesValue(argv[i-1], i-1 >= len(g.prefix)) {
				break
			}
			if i >= from && g.matches(argv[i]) {
				hits = append(hits, guardHit{i, g})
			}
		}
	}
	return hits
}

// takesValue reports whether the word before a "--" may be an option that
// takes "--" as its value; opt says it is past the prefix.
func takesValue(prev string, opt bool) bool {
	return opt && len(prev) > 1 && prev[0] == '-' && prev != "--" && strings.IndexByte(prev, '=') < 0
}

func (g *optionGuard) matches(arg string) bool {
	if len(arg) < 2 || arg[0] != '-' {
		for _, o := range g.options {
			if arg == o {
				return true // a subcommand
			}
		}
		return false
	}
	name, _, _ := strings.Cut(arg, "=")
	if g.goFlags {
		name = strings.TrimPrefix(strings.TrimPrefix(name[1:], "-"), "test.")
	}
	for _, o := range g.options {
		switch {
		case o[0] != '-':
			// a subcommand: only a word without a dash
		case g.goFlags:
			if name == o[1:] {
				return true
			}
		case strings.HasPrefix(o, "--"):
			if len(name) > 2 && name[1] == '-' && strings.HasPrefix(o, name) {
				return true // an abbreviation, or the option itself
			}
		case len(o) == 2:
			if arg[1] != '-' && strings.IndexByte(arg[1:], o[1]) >= 0 {
				return true // -o, -oFILE, or a cluster such as -uo
			}
		case name == o:
			return true
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
