package parser

import (
	"slices"
	"strings"
)

// opt is one option of a program, declared once in its entry: its
// spellings, what follows it, and what it does. An entry's options list
// is compiled once (see program.index) into what the readers look up by
// option name: the check of unknown options (optTable), the file reader's
// roles (roleTable) and the names deny and ask rules use (spellTable).
type opt struct {
	// names: its spellings, "-f --file": one option's aliases, or
	// options that share what follows them and their role. -NUM is
	// "a number is an option" (head -5); "+" is an operand +X (git push
	// +main), which only a rule names.
	names string
	arg   argKind
	role  role
	// listed: the option is in the program's --help, so that the check
	// of unknown options knows it (an entry with complete set). An
	// option declared for its role only, with listed unset, is unknown
	// to that check.
	listed bool
	// rule: what deny and ask rules name it, names joined by '+' when
	// it stands for several options ("archive+recursive"), "..." for an
	// option that reads more options from where the gate does not look
	// (curl -K). Empty: rules name it as written.
	rule string
	// why, when set, makes the option a guard: it makes the command
	// write, delete or run a program, which prefix rules cannot say, and
	// asking it is policy.dangerous_option with this reason (see
	// optionGuard). The entry's options with the same reason are one
	// guard.
	why string
}

// argKind is what follows an option.
type argKind uint8

const (
	argNone     argKind = iota // a flag (clusters: -rn)
	argValue                   // a value: -n5, -n 5, --lines=5, --lines 5
	argOptional                // an optional value, only attached (--color=auto, git's -M50%)
	argPair                    // two values (jq --arg NAME VALUE)
	argNumber                  // -NUM: -5 is a number (head -5, grep -3, git log -5)
)

// role is what an option's value is, or what the option does to the
// command's operands, for the file reader (fileRefs). An option without
// a role takes its value (if any) as a maybe-file.
type role uint32

const (
	notFile           role = 1 << iota // its value is no file (a pattern, a count)
	readsFile                          // its value is a file read
	writesFile                         // its value is a file written
	backupSuffix                       // its attached value is the suffix of a backup copy (sed -i.bak)
	recursive                          // it makes the command read its operands recursively
	writesOperands                     // it makes every operand written (sed -i, prettier --write)
	readsOperandsOnly                  // it makes the command only read its operands (black --check); "--emit=stdout" with that value
	firstIsFile                        // the first operand is a file, not a pattern or script (grep -e, -f)
	namesFromInput                     // it makes the command read or write files named in its input (cpio -@)
	noNamesFromInput                   // without one of these, it reads or writes files named in its input
	recursesIfValue                    // the value "recurse" (maybe abbreviated) makes it recursive (grep -d)
	runs                               // its value is a program it runs (sort --compress-program, go test -exec)
	// listsOnly: named in whole (not abbreviated, no value), it makes
	// the command list the files of its operands, which are all paths:
	// no pattern comes first (rg --files).
	listsOnly
	// makesLinks: it makes the command copy links as links or make
	// links (cp -s, -a): its written operands then change what later
	// paths name (see changeKind).
	makesLinks
	// remoteOutput: it makes the command write a file named by what
	// it fetches, which the analysis cannot list (curl -O, -J,
	// --remote-name-all), or place it (--output-dir); see WriteThenRun.
	remoteOutput
	// The roles of a wrapper's options (see wrapSpec), read by its wrap
	// reader; a wrapper's options that take a value are its options
	// before the command (arg), writesFile those whose value is a file it
	// writes (strace -o).
	noCommand // no command follows (command -v, taskset -p)
	setsEnv   // its value is VAR=VALUE, set in the command's environment (tmux new -e)
	setsDir   // its value is the command's directory (tmux new -c)
	// The roles of git's options (see gitSpec), read by the git
	// readers; a git subcommand's writesFile options are files it writes
	// (git format-patch -o), its recursive option makes it read its
	// operands recursively (git diff --no-index), its readsOperandsOnly
	// options make it only read the patch it applies (git apply
	// --check).
	runsOther    // it makes git run a program (git clone -u, git diff --ext-diff): git.dangerous_config
	shellCommand // its value is a shell command git runs (git rebase --exec)
	setsConfig   // its value is KEY=VALUE, git configuration for the command (git clone -c)
	readsInput   // it makes git read paths, revisions or objects from its input or a file (git --stdin)
	// projectPath: its value is a directory or file the command works
	// in, reads or writes, which must not leave the project (npm
	// --prefix, cargo --manifest-path; read by a runner's lead).
	projectPath
	// startsShell: a wrapper's option that, with no command after it,
	// starts an interactive shell reading its input (doas -s).
	startsShell
	// splitsArgs: a wrapper's option whose value is split into words
	// that come before the words after it (env -S STRING).
	splitsArgs
)

// flags declares options without a value.
func flags(names string) opt { return opt{names: names, listed: true} }

// does declares options without a value that have role r.
func does(r role, names string) opt { return opt{names: names, role: r, listed: true} }

// val declares options that take a value, whose role is r (0: nothing
// known about it).
func val(r role, names string) opt { return opt{names: names, arg: argValue, role: r, listed: true} }

// optional declares options with an optional value, only attached.
func optional(r role, names string) opt {
	return opt{names: names, arg: argOptional, role: r, listed: true}
}

// pair declares options that take two values.
func pair(names string) opt { return opt{names: names, arg: argPair, listed: true} }

// number declares -NUM: a number is an option (head -5).
func number() opt { return opt{names: "-NUM", arg: argNumber, listed: true} }

// plusOperand says what a rule names an operand +X (git push +main).
func plusOperand(rule string) opt { return opt{names: "+", rule: rule} }

// as sets what deny and ask rules name the option.
func (o opt) as(rule string) opt { o.rule = rule; return o }

// guard makes the options a guard with reason why (see opt.why).
func (o opt) guard(why string) opt { o.why = why; return o }

// guard declares options only for their guard (reason why): unlisted
// flags, which the check of options does not know and the file reader
// does not read.
func guard(why, names string) opt { return opt{names: names, why: why} }

// unlisted marks options the program's --help does not list: declared
// for their role, unknown to the check of options.
func (o opt) unlisted() opt { o.listed = false; return o }

// optTable is the check of an entry's options (complete set): what
// follows each option the program's --help lists.
type optTable struct {
	short [128]byte       // 0 unknown, 'f' flag, '=' value, '?' optional attached value
	long  map[string]byte // the same, and '2' for two values; a Go flag's name
	num   bool            // -NUM is known
	// goFlags: every option is a long name after one dash or two (Go's
	// flag package), never a cluster.
	goFlags bool
	// negatable: --no-NAME is known for every flag NAME (git).
	negatable bool
}

// roleTable is what follows each of an entry's declared options and its
// roles, by name, for the file reader, the wrappers' readers and the
// options that run programs.
type roleTable struct {
	short    [128]role
	shortArg [128]argKind
	long     []longRole // sorted by name; a Go flag's name without its dash
	any      role       // every role some option has
	// vals and suffix are the short options whose value the reader
	// skips or reads (notFile, reads) and those with an attached backup
	// suffix, in the form splitShort and cutOptVal take.
	vals, suffix string
}

type longRole struct {
	name string
	role role
	arg  argKind
}

// shortRole returns the roles of the short option c.
func (t *roleTable) shortRole(c byte) role {
	if t == nil || c >= 128 {
		return 0
	}
	return t.short[c]
}

// longRoles returns the roles of every long option name could
// abbreviate (itself included), joined, and those of name itself.
// Over-matching prefixes is the safe direction: getopt_long rejects an
// ambiguous one.
func (t *roleTable) longRoles(name string) (union, exact role) {
	if t == nil || name == "" {
		return 0, 0
	}
	i, _ := slices.BinarySearchFunc(t.long, name, func(l longRole, n string) int { return strings.Compare(l.name, n) })
	for ; i < len(t.long) && strings.HasPrefix(t.long[i].name, name); i++ {
		union |= t.long[i].role
		if t.long[i].name == name {
			exact = t.long[i].role
		}
	}
	return union, exact
}

// goFlag returns the roles of the Go flag name (without its dash, not
// abbreviated) and what follows it; argNone for a flag it does not
// declare.
func (t *roleTable) goFlag(name string) (role, argKind) {
	switch {
	case t == nil || name == "":
		return 0, argNone
	case len(name) == 1:
		if name[0] >= 128 {
			return 0, argNone
		}
		return t.short[name[0]], t.shortArg[name[0]]
	}
	i, ok := slices.BinarySearchFunc(t.long, name, func(l longRole, n string) int { return strings.Compare(l.name, n) })
	if !ok {
		return 0, argNone
	}
	return t.long[i].role, t.long[i].arg
}

// wordRole returns the roles of the option word v without an attached
// value: a short option alone ("-c"), or a long one, maybe abbreviated
// (the roles of every option it could abbreviate); 0 for another word.
func (t *roleTable) wordRole(v string) role {
	if len(v) == 2 && v[0] == '-' && v[1] != '-' {
		return t.shortRole(v[1])
	}
	if name, _, hasVal, ok := longOpt(v); ok && !hasVal {
		return t.union(name)
	}
	return 0
}

// union returns the roles of every long option name could abbreviate.
func (t *roleTable) union(name string) role {
	u, _ := t.longRoles(name)
	return u
}

// longRole returns the roles of the long option name, not abbreviated.
func (t *roleTable) longRole(name string) role {
	_, exact := t.longRoles(name)
	return exact
}

// longName returns the first long option with role r that name
// abbreviates (itself included), or name.
func (t *roleTable) longName(name string, r role) string {
	if t != nil {
		i, _ := slices.BinarySearchFunc(t.long, name, func(l longRole, n string) int { return strings.Compare(l.name, n) })
		for ; i < len(t.long) && strings.HasPrefix(t.long[i].name, name); i++ {
			if t.long[i].role&r != 0 {
				return t.long[i].name
			}
		}
	}
	return name
}

// valueOpts says which options take a separate value, for the readers
// that only skip options (skipOpts2, splitShort): an entry's roleTable,
// or the literal lists of a reader (literalOpts, letters).
type valueOpts interface {
	// shortValue: -c takes a value, the rest of the word or the next.
	shortValue(c byte) bool
	// longValue: --name, or an option it abbreviates, takes a value.
	longValue(name string) bool
	// longPair: --name, named in whole, takes two separate values.
	longPair(name string) bool
}

func (t *roleTable) shortValue(c byte) bool {
	return t != nil && c < 128 && (t.shortArg[c] == argValue || t.shortArg[c] == argPair)
}

func (t *roleTable) longValue(name string) bool {
	if t == nil || name == "" {
		return false
	}
	i, _ := slices.BinarySearchFunc(t.long, name, func(l longRole, n string) int { return strings.Compare(l.name, n) })
	for ; i < len(t.long) && strings.HasPrefix(t.long[i].name, name); i++ {
		if t.long[i].arg == argValue {
			return true
		}
	}
	return false
}

func (t *roleTable) longPair(name string) bool {
	if t == nil {
		return false
	}
	i, ok := slices.BinarySearchFunc(t.long, name, func(l longRole, n string) int { return strings.Compare(l.name, n) })
	return ok && t.long[i].arg == argPair
}

// literalOpts are a reader's own lists of the options that take values.
type literalOpts struct {
	short      string   // short options taking a value
	long, pair []string // long options taking one value (maybe abbreviated), two (named in whole)
}

func (l literalOpts) shortValue(c byte) bool     { return strings.IndexByte(l.short, c) >= 0 }
func (l literalOpts) longValue(name string) bool { return longMatch(name, l.long) }
func (l literalOpts) longPair(name string) bool  { return slices.Contains(l.pair, name) }

// letters are the short options taking a value, written as a string.
type letters string

func (l letters) shortValue(c byte) bool   { return strings.IndexByte(string(l), c) >= 0 }
func (letters) longValue(name string) bool { return false }
func (letters) longPair(name string) bool  { return false }

// hasRoleOpt reports whether an option word in args (before --)
// contains a short option with role r (command -v, taskset -p).
func hasRoleOpt(args []Word, t *roleTable, r role) bool {
	if t == nil || t.any&r == 0 {
		return false
	}
	for _, a := range args {
		v := a.Value
		if v == "--" {
			return false
		}
		if len(v) > 1 && (v[0] == '-' || v[0] == '+') && v[1] != '-' {
			for j := 1; j < len(v); j++ {
				if t.shortRole(v[j])&r != 0 {
					return true
				}
			}
		}
	}
	return false
}

// compileOptions compiles an entry's options (prog names it in a panic)
// into the check of its options (nil unless complete), what follows its
// options and their roles (nil when none takes a value or has a role)
// and the names rules use (nil when none is named). seen is a scratch
// map, cleared here, or nil.
func compileOptions(prog string, decls []opt, complete, goFlags, negatable bool, seen map[string]bool) (*optTable, *roleTable, *spellTable) {
	listed, long := countLong(decls)
	var t *optTable
	if complete {
		t = &optTable{long: make(map[string]byte, listed), goFlags: goFlags, negatable: negatable}
	}
	var r *roleTable
	var sp *spellTable
	if seen == nil {
		seen = map[string]bool{}
	}
	clear(seen)
	var vals, suffix []byte
	for _, o := range decls {
		var canon []string // the rule's names
		if o.rule != "" {
			canon = strings.Split(o.rule, "+")
		}
		for name := range strings.FieldsSeq(o.names) {
			if seen[name] {
				panic("parser: option " + name + " of " + prog + " declared twice")
			}
			seen[name] = true
			if o.rule != "" {
				if sp == nil {
					sp = &spellTable{names: map[string][]string{}}
				}
				switch {
				case name == "+":
					sp.plus = canon
				case len(name) < 2 || name[0] != '-':
					panic("parser: bad rule name of " + name + " for " + prog)
				default:
					sp.names[name] = canon
					if o.rule == "..." {
						sp.more = "..."
					}
				}
			}
			if name == "+" {
				continue
			}
			if t != nil && o.listed {
				t.add(prog, name, o.arg)
			}
			if o.role == 0 && o.arg == argNone || o.arg == argNumber {
				continue
			}
			if r == nil {
				r = &roleTable{long: make([]longRole, 0, long)}
			}
			r.any |= o.role
			switch {
			case goFlags && len(name) > 2 && name[0] == '-' && name[1] != '-':
				// A Go flag of several letters; one letter (gofmt -w)
				// is read as a short option by the file reader.
				r.long = append(r.long, longRole{name: name[1:], role: o.role, arg: o.arg})
			case strings.HasPrefix(name, "--"):
				r.long = append(r.long, longRole{name: name[2:], role: o.role, arg: o.arg})
			case len(name) == 2 && name[0] == '-' && name[1] < 128:
				c := name[1]
				if o.role&(notFile|readsFile) != 0 {
					vals = append(vals, c)
				}
				if o.role&backupSuffix != 0 {
					suffix = append(suffix, c)
				}
				r.short[c], r.shortArg[c] = o.role, o.arg
			default:
				panic("parser: bad option " + name + " for " + prog)
			}
		}
	}
	if r != nil {
		r.vals, r.suffix = string(vals), string(suffix)
		slices.SortFunc(r.long, func(a, b longRole) int { return strings.Compare(a.name, b.name) })
		for i := 1; i < len(r.long); i++ {
			if r.long[i].name == r.long[i-1].name {
				panic("parser: option " + r.long[i].name + " of " + prog + " declared twice")
			}
		}
		r.long = slices.Clip(r.long)
	}
	return t, r, sp
}

// withRole returns decls with role r added to the options names (a
// runner's lead that reads a shared list's -w as a project path), each
// still declared once.
func withRole(decls []opt, r role, names string) []opt {
	want := strings.Fields(names)
	out := make([]opt, 0, len(decls)+len(want))
	found := 0
	for _, o := range decls {
		var with, without []string
		for n := range strings.FieldsSeq(o.names) {
			if slices.Contains(want, n) {
				with = append(with, n)
			} else {
				without = append(without, n)
			}
		}
		if len(with) == 0 {
			out = append(out, o)
			continue
		}
		found += len(with)
		if len(without) > 0 {
			o2 := o
			o2.names = strings.Join(without, " ")
			out = append(out, o2)
		}
		o.names, o.role = strings.Join(with, " "), o.role|r
		out = append(out, o)
	}
	if found != len(want) {
		panic("parser: withRole: " + names + " not all declared")
	}
	return out
}

// countLong counts the long options of decls (and Go flags of several
// letters): those listed, and those that take a value or have a role.
func countLong(decls []opt) (listed, roles int) {
	for _, o := range decls {
		for name := range strings.FieldsSeq(o.names) {
			if len(name) <= 2 {
				continue
			}
			if o.listed {
				listed++
			}
			if !(o.role == 0 && o.arg == argNone || o.arg == argNumber) {
				roles++
			}
		}
	}
	return listed, roles
}

// add adds the option name, followed by arg, to the check.
func (t *optTable) add(prog, name string, arg argKind) {
	kind := [...]byte{argNone: 'f', argValue: '=', argOptional: '?', argPair: '2'}
	if arg == argNumber {
		t.num = true
		return
	}
	k := kind[arg]
	switch {
	case t.goFlags && len(name) > 1 && name[0] == '-' && name[1] != '-':
		name = "--" + name[1:]
	case strings.HasPrefix(name, "--") && !t.goFlags:
	case len(name) == 2 && name[0] == '-' && !t.goFlags:
		if old := t.short[name[1]]; old != 0 && old != k {
			panic("parser: option " + name + " of " + prog + " listed twice, with and without a value")
		}
		t.short[name[1]] = k
		return
	default:
		panic("parser: bad option " + name + " for " + prog)
	}
	if old := t.long[name[2:]]; old != 0 && old != k {
		panic("parser: option " + name + " of " + prog + " listed twice, with and without a value")
	}
	t.long[name[2:]] = k
}

// kind returns how the long option name (maybe abbreviated, as
// getopt_long and git accept) is read, or 0 when the table does not know
// it.
func (t *optTable) kind(name string) byte {
	if k, ok := t.long[name]; ok {
		return k
	}
	var found byte
	for l, k := range t.long {
		if strings.HasPrefix(l, name) {
			if found != 0 && found != k {
				return '=' // ambiguous: getopt refuses it; read as taking a value, the safe way
			}
			found = k
		}
	}
	if found == 0 && t.negatable {
		if n, ok := strings.CutPrefix(name, "no-"); ok && n != "" && t.kind(n) != 0 {
			return 'f' // git: --no-NAME, which takes no value
		}
	}
	return found
}

// unknownOptions reports the options of args that p's options do not
// list (nothing for a program without options). A program with
// subcommands but no options of its own (go) is read from the
// subcommand's entry, args[0] (and its own subcommand's: go mod
// download).
// Dynamic words are not reported here: they are unknown file references
// and policy.dangerous_option already.
func unknownOptions(cmd *Command, p *program, args []Word) {
	if p == nil {
		return
	}
	for p.opts == nil && p.subs != nil {
		if len(args) == 0 || args[0].Dynamic || p.subs[args[0].Value] == nil {
			return
		}
		p, args = p.subs[args[0].Value], args[1:]
	}
	t := p.opts
	if t == nil {
		return
	}
	if t.goFlags {
		unknownGoOptions(cmd, t, args)
		return
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if a.Dynamic || len(v) < 2 || v[0] != '-' {
			continue // an operand: GNU programs and git take options after operands too
		}
		if v == "--" {
			return
		}
		if v[1] == '-' {
			name, _, hasVal := strings.Cut(v[2:], "=")
			switch k := t.kind(name); {
			case k == 0 || k == 'f' && hasVal:
				cmd.UnknownOptions = append(cmd.UnknownOptions, a)
			case k == '=' && !hasVal:
				i++
			case k == '2':
				if !hasVal {
					i++
				}
				i++
			}
			continue
		}
		if t.num && isDigits(v[1:]) {
			continue
		}
		for j := 1; j < len(v); j++ {
			c := v[j]
			k := byte(0)
			if c < 128 {
				k = t.short[c]
			}
			if k == 0 {
				cmd.UnknownOptions = append(cmd.UnknownOptions, a)
				break
			}
			if k == '=' || k == '?' {
				if k == '=' && j == len(v)-1 {
					i++ // the value is the next word
				}
				break
			}
		}
	}
}
