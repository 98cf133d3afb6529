package parser

import (
	"slices"
	"strings"
)

// optionGuard (the guards of a program's entry in programs, compiled by
// compileGuards from its options' reasons and its checks) names options
// that turn a read-only command into one that writes, deletes or runs
// another program. Prefix rules cannot say "find,
// unless -delete appears anywhere", so the analysis finds them and
// reports them as Command.OptionHits; a policy makes each a
// policy.dangerous_option reason (ask by default) unless the prefix rule
// that matched already names it, e.g. allow: [find . -delete].
//
// Matching errs on the side of asking, since matching too much only asks
// while matching too little runs a program:
//   - A "--long" option matches every word whose name (before any '=') is
//     a prefix of it with at least one letter after the dashes: GNU
//     getopt_long and git accept any unambiguous abbreviation (sort --out=f
//     is sort --output=f), and an ambiguous one is an error that runs
//     nothing. The entry's declared options that abbreviate a guarded
//     one are options in their own right (git diff --text is not
//     --textconv).
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
//   - A guard without options (go generate) catches the command itself; a
//     guard with a check (git config) decides with its own scan.
//
// "--" ends the options unless the word before it is an option that may
// take it as its value (sort -t -- -o x writes x).
type optionGuard struct {
	// prefix: the program and subcommands of the entry (set by progs).
	prefix  []string
	options []string
	goFlags bool
	// bundle: the first word after the prefix may be a cluster of
	// one-letter options without a dash (tar xIf).
	bundle bool
	// whole are options in their own right that abbreviate a guarded
	// one (git diff --text, not --textconv): the entry's declared ones.
	whole []string
	// check, if set, replaces options: it returns the index of the first
	// word of argv[i:] that makes the command dangerous, or -1.
	check func(argv []string, i int) int
	// script: the guard reads a script, which any dynamic word may change.
	script bool
	why    string
}

// guardCheck is a guard of an entry that is not one of its options (see
// opt.why): a scan of its own (check), subcommand words (git bisect
// run), or, with neither, the command itself (go generate).
type guardCheck struct {
	// check returns the index of the first word of argv[i:] that makes
	// the command dangerous, or -1.
	check func(argv []string, i int) int
	// words: subcommands that make it dangerous, matched as written.
	words []string
	// script: the check reads a script, which any dynamic word may change.
	script bool
	// first: it is looked at before the options' guards (its hits come
	// first: git branch's new branch name before -d).
	first bool
	why   string
}

// compileGuards returns an entry's guards, prefix the program and
// subcommands that lead to it: its first checks, then one guard a
// reason of its options (in the order the reasons first appear in
// decls), then its other checks. A declared long option that abbreviates
// a guarded one is an option in its own right (git diff --text, not
// --textconv): the guard does not match it. goFlags and bundle are the
// entry's (see program).
func compileGuards(prefix []string, decls []opt, checks []guardCheck, goFlags, bundle bool) []optionGuard {
	// Count first: one allocation for the guards, one for their options.
	n, names := len(checks), 0
	for k, o := range decls {
		if o.why == "" {
			continue
		}
		names += strings.Count(o.names, " ") + 1
		if !slices.ContainsFunc(decls[:k], func(p opt) bool { return p.why == o.why }) {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]optionGuard, 0, n)
	add := func(first bool) {
		for _, c := range checks {
			if c.first == first {
				out = append(out, optionGuard{prefix: prefix, options: c.words, check: c.check, script: c.script, why: c.why})
			}
		}
	}
	add(true)
	start := len(out)
	all := make([]string, 0, names)
	for k, o := range decls {
		if o.why == "" || slices.ContainsFunc(decls[:k], func(p opt) bool { return p.why == o.why }) {
			continue
		}
		from := len(all)
		for _, p := range decls[k:] {
			if p.why == o.why {
				all = slices.AppendSeq(all, strings.FieldsSeq(p.names))
			}
		}
		out = append(out, optionGuard{prefix: prefix, options: all[from:len(all):len(all)], goFlags: goFlags, bundle: bundle, why: o.why})
	}
	for i := start; i < len(out); i++ {
		g := &out[i]
		for _, o := range decls {
			for n := range strings.FieldsSeq(o.names) {
				if !strings.HasPrefix(n, "--") || slices.Contains(g.options, n) || slices.Contains(g.whole, n) {
					continue
				}
				for _, gn := range g.options {
					if strings.HasPrefix(gn, n) {
						g.whole = append(g.whole, n)
						break
					}
				}
			}
		}
	}
	add(false)
	return out
}

const (
	sedWhy = "script may run a program or read or write a file (e, r, R, w, W, s///e, s///w), or is read from a file"
	awkWhy = "program may run a program or read or write a file (system, getline, |, >, ARGV, @load), or is read from a file"
)

// guardHit is one guarded option found in an argv.
type guardHit struct {
	index int // argv index of the option
	guard *optionGuard
}

// guardWords is the argv the guards read (MatchArgv) and the command
// whose Argv says which of its words are dynamic.
type guardWords struct {
	argv []string
	c    *Command
	off  int
}

// dynamic reports whether word i is dynamic. MatchArgv is Argv with git's
// global options removed, so the two are aligned from the end; any doubt
// makes a word dynamic.
func (w guardWords) dynamic(i int) bool {
	j := i
	if i > 0 {
		j = i + w.off
	}
	if j < 0 || j >= len(w.c.Argv) || w.c.Argv[j].Value != w.argv[i] {
		return true
	}
	return w.c.Argv[j].Dynamic
}

// optionHits returns every guarded option of c (indexes into MatchArgv):
// the policy keeps those its matched prefix rule does not name.
func optionHits(c *Command) []OptionHit {
	argv := c.MatchArgv
	p := progs()[argv[0]]
	if p == nil || !p.guarded {
		return nil // the common case: no guard for this program
	}
	w := guardWords{argv: argv, c: c, off: len(c.Argv) - len(argv)}
	var buf [4]guardHit
	hits := guardOptions(w, p, 0, buf[:0])
	if len(hits) == 0 {
		return nil
	}
	out := make([]OptionHit, len(hits))
	for i, h := range hits {
		out[i] = OptionHit{Index: h.index, What: h.what(argv), Why: h.guard.why}
	}
	return out
}

// what names the hit in a message: the prefix and the offending word.
func (h guardHit) what(argv []string) string {
	p := strings.Join(h.guard.prefix, " ")
	if h.index < len(h.guard.prefix) {
		return p
	}
	return p + " " + argv[h.index]
}

// guardOptions returns the guarded options of w at indexes >= from (the
// words the matched prefix rule did not name). A dynamic word there may
// be any option, or change a script: it is a hit too, unless it cannot
// start with a dash and the guard scans no script.
func guardOptions(w guardWords, p *program, from int, hits []guardHit) []guardHit {
	argv := w.argv
	for k := 1; p != nil; k++ {
		hits = p.guardHits(w, from, hits)
		if k >= len(argv) || p.subs == nil {
			break
		}
		p = p.subs[argv[k]]
	}
	return hits
}

// guardHits appends the hits of p's own guards (see guardOptions).
func (p *program) guardHits(w guardWords, from int, hits []guardHit) []guardHit {
	argv := w.argv
	for gi := range p.guards {
		g := &p.guards[gi]
		n := len(g.prefix)
		if i := dynamicOption(w, max(from, n), g.script); i >= 0 {
			hits = append(hits, guardHit{i, g})
			continue
		}
		switch {
		case g.check != nil:
			if i := g.check(argv, n); i >= from {
				hits = append(hits, guardHit{i, g})
			}
			continue
		case g.options == nil: // the command itself
			if n-1 >= from {
				hits = append(hits, guardHit{n - 1, g})
			}
			continue
		case g.bundle && n < len(argv) && n >= from && argv[n] != "" && argv[n][0] != '-' && g.matchesLetters(argv[n]):
			hits = append(hits, guardHit{n, g})
		}
		for i := n; i < len(argv); i++ {
			if argv[i] == "--" && !takesValue(argv[i-1], i-1 >= n) {
				break
			}
			if i >= from && g.matches(argv[i]) {
				hits = append(hits, guardHit{i, g})
			}
		}
	}
	return hits
}

// dynamicOption returns the index of the first dynamic word of w at or
// after from that may be an option (its static rendering does not start
// with a letter, digit, '.', '/' or '_'), or any dynamic word when script
// is set; else -1.
func dynamicOption(w guardWords, from int, script bool) int {
	for i := from; i < len(w.argv); i++ {
		if !w.dynamic(i) {
			continue
		}
		a := w.argv[i]
		if script || a == "" || !(a[0] >= 'a' && a[0] <= 'z' || a[0] >= 'A' && a[0] <= 'Z' || a[0] >= '0' && a[0] <= '9' || a[0] == '.' || a[0] == '/' || a[0] == '_') {
			return i
		}
	}
	return -1
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
			if len(name) > 2 && name[1] == '-' && strings.HasPrefix(o, name) && !slices.Contains(g.whole, name) {
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

// matchesLetters reports whether a cluster of one-letter options written
// without a dash holds a guarded one.
func (g *optionGuard) matchesLetters(letters string) bool {
	for _, o := range g.options {
		if len(o) == 2 && o[0] == '-' && strings.IndexByte(letters, o[1]) >= 0 {
			return true
		}
	}
	return false
}

// gitConfigReads are the git config options that make it read; the
// subcommands get and list do too.
var gitConfigReads = []string{"--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool", "--list", "-l"}

// gitConfigModifiers are the git config options that neither read nor
// write by themselves. Any other option (--unset, --add, -e, an
// abbreviation) counts as a write.
var gitConfigModifiers = []string{"--global", "--system", "--local", "--worktree", "--file", "-f", "--blob", "--show-origin", "--show-scope",
	"--name-only", "-z", "--null", "--type", "--bool", "--int", "--bool-or-int", "--path", "--expiry-date", "--includes", "--no-includes",
	"--default", "--fixed-value", "--all", "--regexp", "--url", "--value"}

// gitConfigWrite returns the index of the word of argv[i:] that makes a
// git config command something other than a read, or -1 for a read: a
// read option (--get, --list), the get or list subcommand, or a single
// key. An option it does not know, a write subcommand, and a second
// operand (a value: git config key value) are writes; so is no operand
// at all. Option values given as separate words (-f FILE) count as
// operands, which only makes it ask more.
func gitConfigWrite(argv []string, i int) int {
	read, operands, second := false, 0, -1
	for ; i < len(argv); i++ {
		a := argv[i]
		if len(a) > 1 && a[0] == '-' && a != "--" {
			name, _, _ := strings.Cut(a, "=")
			switch {
			case slices.Contains(gitConfigReads, name):
				read = true
			case !slices.Contains(gitConfigModifiers, name):
				return i
			}
			continue
		}
		operands++
		switch {
		case operands == 1 && (a == "get" || a == "list"):
			read = true
		case operands == 1 && (a == "set" || a == "unset" || a == "rename-section" || a == "remove-section" || a == "edit"):
			return i
		case operands == 2:
			second = i
		}
	}
	switch {
	case read || operands == 1:
		return -1
	case second >= 0:
		return second
	}
	return len(argv) - 1
}

// gitBranchCreate returns the index of the first operand of git branch
// in argv[i:] (a new branch's name), or -1: with none, or in a listing
// mode (--list, -a, -r, --contains, --merged, …), where operands are
// patterns or commits, it only lists. -d, -m, -c, … are guarded by name.
func gitBranchCreate(argv []string, i int) int {
	first := -1
	for ; i < len(argv); i++ {
		a := argv[i]
		if a == "--" {
			if i+1 < len(argv) && first < 0 {
				first = i + 1
			}
			break
		}
		if len(a) > 1 && a[0] == '-' {
			name, _, _ := strings.Cut(a, "=")
			switch {
			case name == "-l" || name == "-a" || name == "-r" || name == "--show-current" || strings.HasPrefix(name, "--") && len(name) > 3 &&
				(strings.HasPrefix("--list", name) || strings.HasPrefix("--all", name) || strings.HasPrefix("--remotes", name) ||
					strings.HasPrefix("--contains", name) || strings.HasPrefix("--no-contains", name) || strings.HasPrefix("--merged", name) ||
					strings.HasPrefix("--no-merged", name) || strings.HasPrefix("--points-at", name)):
				return -1
			case len(a) > 2 && a[1] != '-' && strings.ContainsAny(a[1:], "lar"):
				return -1 // a cluster holding -l, -a or -r
			}
			continue
		}
		if first < 0 {
			first = i
		}
	}
	return first
}

// uniqOutput returns the index of uniq's second operand in argv[i:], the
// file it writes, or -1.
func uniqOutput(argv []string, i int) int {
	n, opts := 0, true
	for ; i < len(argv); i++ {
		a := argv[i]
		switch {
		case opts && a == "--":
			opts = false
		case opts && len(a) > 1 && a[0] == '-':
			if a == "-f" || a == "-s" || a == "-w" || a == "--skip-fields" || a == "--skip-chars" || a == "--check-chars" {
				i++
			}
		default:
			if n++; n == 2 {
				return i
			}
		}
	}
	return -1
}

// vimRisk returns the index of the first vim option in argv[i:] that
// runs editor commands (+cmd, -c, --cmd, -S, -s, -u, -U) or writes a file
// (-w, -W), or -1. +N and +/pattern only move the cursor.
func vimRisk(argv []string, i int) int {
	for ; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "--":
			return -1
		case len(a) > 1 && a[0] == '+':
			if c := a[1]; c != '/' && (c < '0' || c > '9') {
				return i
			}
		case a == "-c" || a == "--cmd" || a == "-S" || a == "-s" || a == "-u" || a == "-U" || a == "-w" || a == "-W":
			return i
		}
	}
	return -1
}

// gitExtURL returns the index of the first ext:: URL in argv[i:], or -1:
// git's remote-ext helper runs the rest of the URL as a command.
func gitExtURL(argv []string, i int) int {
	for ; i < len(argv); i++ {
		if strings.HasPrefix(strings.ToLower(argv[i]), "ext::") || strings.Contains(argv[i], "=ext::") {
			return i
		}
	}
	return -1
}

// timeOutput returns the index of GNU time's -o/--output option in
// argv[i:], or -1. Its options end at the command it runs, whose options
// are not time's.
func timeOutput(argv []string, i int) int {
	for ; i < len(argv); i++ {
		a := argv[i]
		if a == "--" || len(a) < 2 || a[0] != '-' {
			return -1
		}
		if a[1] == '-' {
			name, _, hasVal := strings.Cut(a, "=")
			switch {
			case dashPrefix(name, "--output"):
				return i
			case dashPrefix(name, "--format") && !hasVal:
				i++
			}
			continue
		}
		for k := 1; k < len(a); k++ {
			if a[k] == 'o' {
				return i
			}
			if a[k] == 'f' {
				if k+1 == len(a) {
					i++
				}
				break
			}
		}
	}
	return -1
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
