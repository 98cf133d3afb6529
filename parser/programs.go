package parser

import (
	"slices"
	"strings"
	"sync"
)

// programs is what the analysis knows about each program, one entry a
// program, in one place — every reading of argv and of the environment
// the gate does:
//
//   - options: its options, each declared once with what follows it
//     and its role (see opt): opt's constructors say what follows it
//     (flags: nothing; val: a value, -n5, -n 5, --lines=5, --lines 5;
//     optional: an optional value, only attached, --color=auto, git's
//     -M50%; pair: two values, jq --arg NAME VALUE; number: -5 is a
//     number, head -5), and the role says what the value is or what the
//     option does (a file read or written, no file, a program run; it
//     makes the command recursive, write its operands, or only read
//     them; for a wrapper: no command follows, it sets the command's
//     environment or directory; for git: it runs a program, takes a
//     shell command or configuration; see role), and as says what deny
//     and ask rules name it (below). Each option is declared once: a
//     name declared twice is a panic. The list is compiled once (see
//     index) into what the readers look up by option name (optTable,
//     roleTable, spellTable). Long options may be abbreviated as
//     getopt_long and git accept it;
//
//   - complete: options lists every option the program has, as its
//     --help lists them (GNU coreutils 9, grep 3, diffutils 3, file 5, jq
//     1.6/1.7; ripgrep and tree from their manuals; git 2.39's
//     subcommands in subs). Under the embedded default policy a command
//     of such a program passes only with options listed: another is
//     policy.unknown_option (ask), since it may write a file or run a
//     program. A policy file's own allow rules trust the program. An
//     option declared only for its role is marked unlisted. Programs
//     without complete (wrappers, whose inner commands are judged on
//     their own) are not checked this way;
//
//   - files: what its operands are beyond what its options say: none is
//     a file, the first is a pattern, every one is written or removed,
//     the last is written, it is always recursive… (see fileSpec; a
//     program without files and without options' roles gets the
//     conservative default: every operand and every --opt=value is a
//     file it reads);
//
//   - dirSafe: it does not read the files inside a directory operand
//     unless an option says so (it refuses a directory, or only lists or
//     stats it). Without it, every directory operand is a recursive read
//     (diff -N src . prints every file of the directory);
//
//   - goFlags: its options (and its subcommands') are Go flags: whole
//     words after one dash or two (-race, --race=true), never clusters;
//     and after the first operand, none is the program's (go test's
//     packages, then the test binary's flags);
//
//   - negatable: every flag has a --no-NAME form (git's parse-options);
//
//   - env: the environment variables it reads, and what for (see
//     envVar and env.go, whose judging function consults every entry:
//     an exported variable reaches every child);
//
//   - lists: its operands are listed or stat'ed (names, sizes, modes,
//     a directory's entries), never read (ls, stat, du, lsof): see
//     FileRef.Listed;
//
//   - readOnly: it only reads (or lists) the files it is given; what
//     it writes or runs is behind its guards. Naming a protected path to
//     it is no write (see ReadsOnly);
//
//   - envAll: env lists every variable it reads as code, as a program
//     or as a file, and it runs no other program: any other variable is
//     harmless to it (FOO=bar ls passes; see envSeenBy). An explicit
//     marker: an entry without it may read anything;
//
//   - guards: an option's reason (opt.guard, guard) says it makes the
//     command write, delete or run a program, which prefix rules cannot
//     express (policy.dangerous_option; see optionGuard); checks are the
//     entry's other guards: a scan of its own, subcommand words, or the
//     command itself (see guardCheck);
//
//   - wrap: it runs another command, which is analysed on its own (see
//     wrapSpec): its options that take a value come before the command;
//
//   - git: it is a git subcommand, whose options the git readers read
//     (their roles: they make git run a program, write a file, run a
//     shell command, set configuration, read paths from standard input),
//     and what its operands are: read recursively, removed, or not files
//     (see gitSpec);
//
//   - subs: its subcommands (git diff, go test, git stash list), each an
//     entry of its own, read after the program's own options; a
//     subcommand with ownFiles names its operands by its own files spec
//     (ruff format), others by the program's;
//
//   - rule names (opt.as): what its options are named when a deny or
//     ask rule of the policy names them, so that the rule matches every
//     spelling (see CommandSpelling): rm's "-r -R --recursive" are
//     "recursive"; "archive+recursive" when it stands for several
//     options (cp -a), or has no long name (git branch -D is
//     "delete+force"); plusOperand says what an operand +X sets (git push
//     +main: "force"); the name "..." marks an option that reads more
//     options from a file or in a syntax of its own (curl -K, wget -e):
//     with it, the words could set any option. Options not named are
//     named as written, abbreviations included;
//
//   - changes: what it changes of the paths later commands name: its
//     written operands become links or moved trees (ln, mv, cp -s), any
//     path when it writes files the gate cannot list (tar x), or any
//     path (mount, rename) (see changeKind and linkPass);
//
//   - singleDash: its options are whole words after one dash (find
//     -delete, gcc -o), never clusters, as goFlags programs' are.
type program struct {
	// The fields every command reads first, then fileSpec, then the rest:
	// an entry spans fewer cache lines on the way.
	wrap    *wrapSpec
	opts    *optTable  // the check of options, compiled from options when complete (see index)
	roles   *roleTable // the roles of options, compiled from options (see index)
	guarded bool       // it or a subcommand has guards (see progs)
	dirSafe bool
	subs    map[string]*program
	files   fileSpec
	// ownFiles: a subcommand whose files spec, not its program's,
	// reads the words after it (ruff format rewrites its operands,
	// ruff check reads them).
	ownFiles bool

	options   []opt
	complete  bool
	goFlags   bool
	negatable bool
	env       []envVar
	envAll    bool
	lists     bool
	readOnly  bool
	checks    []guardCheck
	git       *gitSpec
	// bundle: its first operand may be a cluster of one-letter options
	// without a dash (tar xIf), which its guards read too.
	bundle bool
	// guards: its options' guards and its checks, compiled (see index).
	guards []optionGuard

	singleDash bool
	// script: its program is a sed or awk script (the first operand, or
	// -e's value), whose commands the script readers read for the
	// files they name and the programs they run (see scriptRefs).
	script scriptKind
	// writesTree: its subcommands that write files of the work tree the
	// analysis cannot list (a checkout, a merge, an applied patch) or
	// move the repository (git checkout, git worktree): after one, a
	// later path may name something else (linkPass), and a later run
	// may run what it wrote (WriteThenRun).
	writesTree []string
	// changes: what it changes of the paths later commands name (see
	// linkPass and changeKind).
	changes changeKind
	// recursiveVerb: what a recursive write of its operands does to
	// them, for Destructive ("deletes": rm; "changes the modes of":
	// chmod); with removes, a recursive delete of the project root.
	recursiveVerb string
	// writesUnlisted: it writes files the analysis cannot list (what
	// an archive or a patch names, what an install fetches), on every
	// invocation; writesUnlistedIn: only with these subcommands (the
	// word after the program: go get, npm install). Writes it can list
	// are the commands' FileRefs. See WriteThenRun.
	writesUnlisted   bool
	writesUnlistedIn []string
	// runsModules: -m MODULE runs a module (python); module: it is one
	// (pytest, ruff, mypy, black), whose entry then reads the words
	// after it as its own command's (python -m ruff check . is ruff
	// check .).
	runsModules, module bool
	// makesDirs: what it writes are new directories, which hold no
	// code a later command could run (mkdir; see WriteThenRun).
	makesDirs bool
	// makesFS: it creates a file system or wipes its signatures (mkfs,
	// wipefs): what the device held is lost (see Destructive).
	makesFS bool
	// remoteHelper: it is a git remote helper (git-remote-ext): it runs
	// or connects to what its URL names (a parser.eval finding).
	remoteHelper bool
	// project: it runs code the project holds (go test, make, npm run),
	// as the runner says (see ProjectCodeRun).
	project *runner
	spelled *spellTable // the rule names of options, compiled (see index)
}

// changeKind is what a program changes of the file system the gate
// looks at, for the commands after it (program.changes, linkPass).
type changeKind uint8

const (
	changesNothing changeKind = iota
	// changesWritten: its written operands become links or moved
	// trees (ln, mv). With options of role makesLinks declared (cp),
	// only when one of them is given.
	changesWritten
	// changesUnlisted: any path, when it writes files the gate cannot
	// list (an unknown reference: tar x, unzip, cpio, patch).
	changesUnlisted
	// changesAny: any path (mount, rsync, rename's expression).
	changesAny
)

// scriptKind is the language of a program's script (program.script).
type scriptKind uint8

const (
	noScript scriptKind = iota
	sedLang             // sed's: s///w, r, w, e
	awkLang             // awk's: system(), getline, pipes, redirections, var=value operands
)

// programs is every family's entries (programs_*.go), gathered by progs.
var programs = map[string]program{}

// progs indexes programs by pointer, with each entry's options compiled
// and its guards named: one lookup a command, no copy.
var progs = sync.OnceValue(func() map[string]*program {
	mergePrograms(programsCoreutils, programsBuiltins, programsShells, programsMultiplexers, programsGit, programsGo,
		programsArchives, programsNetwork, programsEditors, programsTools,
		programsJS, programsPython, programsRust, programsJVM, programsBuild, programsHost, inspectPrograms, programsDotnet)
	mergeReaderWriters(programs) // programs_zsh_readers.go: after the families, it adds to their entries
	m := make(map[string]*program, len(programs)+2)
	c := &optCompiler{seen: map[string]bool{}, done: map[optKey]compiledOpts{}}
	for name := range programs {
		p := programs[name]
		p.index([]string{name}, false, false, c)
		m[name] = &p
	}
	gitProg = m["git"]
	return m
})

// prefixes are the table's one rule of names: a program whose name
// starts with one of them, and has no entry of its own, is read by the
// entry named prefix+"*" (mkfs.ext4 by "mkfs.*": mkfs runs mkfs.TYPE,
// and every type has its own; git-remote-ext by "git-remote-*": git runs
// git-remote-SCHEME for a URL SCHEME::...). An entry names one program; these
// families are open, so a prefix names them.
var prefixes = []string{"mkfs.", "git-remote-"}

// entryOf returns the entry of the program named base (path.Base of its
// name): its own, else the prefix entry of its family (see prefixes), nil
// for a program the table does not know.
func entryOf(base string) *program {
	m := progs()
	if p := m[base]; p != nil {
		return p
	}
	for _, pre := range prefixes {
		if strings.HasPrefix(base, pre) {
			return m[pre+"*"]
		}
	}
	return nil
}

// declaresFlag reports whether p declares the option name ("-B") as a
// flag: an option without a value.
func (p *program) declaresFlag(name string) bool {
	for _, o := range p.options {
		if o.arg == argNone && o.listed && slices.Contains(strings.Fields(o.names), name) {
			return true
		}
	}
	return false
}

// mergePrograms adds the family tables (programs_*.go) to programs,
// once, before progs indexes it. A name in two tables is a bug.
func mergePrograms(tables ...map[string]program) {
	seen := map[string]bool{}
	for _, t := range tables {
		for name, p := range t {
			if seen[name] {
				panic("parser: program " + name + " in two tables")
			}
			seen[name] = true
			programs[name] = p
		}
	}
}

// ReadsOnly reports whether the command whose MatchArgv is argv only
// reads or lists the files it is given (the read-only mark of its entry,
// or of git's subcommand): what it writes or runs is behind its guards
// (policy.dangerous_option), so naming a protected path to it is no
// write. Any other program may write a path it names through an option
// the gate does not know (go build -o .git/hooks/x, sort --out=f).
// argv[0] is matched as written: /bin/cat is not cat.
func ReadsOnly(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	p := progs()[argv[0]]
	switch {
	case p == nil:
		return false
	case p.git != nil: // git: its subcommand's mark
		if len(argv) < 2 {
			return false
		}
		s := p.subs[argv[1]]
		return s != nil && s.readOnly
	}
	return p.readOnly
}

// gitProg is progs()["git"], set with it: git's entry is read several
// times a git command.
var gitProg *program

// gitEntry returns git's entry.
func gitEntry() *program {
	progs()
	return gitProg
}

// optCompiler compiles the entries' options once each: entries that
// share a list (the shells' shellOptions, tmux's aliases) share its
// compiled tables, which are read-only.
type optCompiler struct {
	seen map[string]bool // compileOptions' scratch
	done map[optKey]compiledOpts
}

type optKey struct {
	first                        *opt
	n                            int
	complete, goFlags, negatable bool
}

type compiledOpts struct {
	opts  *optTable
	roles *roleTable
	spell *spellTable
}

// compile compiles the options decls of the entry prefix names.
func (c *optCompiler) compile(prefix []string, decls []opt, complete, goFlags, negatable bool) (*optTable, *roleTable, *spellTable) {
	if len(decls) == 0 {
		return compileOptions("", nil, complete, goFlags, negatable, c.seen)
	}
	k := optKey{&decls[0], len(decls), complete, goFlags, negatable}
	if d, ok := c.done[k]; ok {
		return d.opts, d.roles, d.spell
	}
	var d compiledOpts
	d.opts, d.roles, d.spell = compileOptions(strings.Join(prefix, " "), decls, complete, goFlags, negatable, c.seen)
	c.done[k] = d
	return d.opts, d.roles, d.spell
}

// index compiles p's options and names its guards by prefix (the program
// and subcommands that lead to p), for p and its subcommands.
func (p *program) index(prefix []string, goFlags, negatable bool, c *optCompiler) {
	goFlags, negatable = goFlags || p.goFlags, negatable || p.negatable
	p.goFlags, p.negatable = goFlags, negatable
	p.opts, p.roles, p.spelled = c.compile(prefix, p.options, p.complete, goFlags, p.negatable)
	p.guards = compileGuards(prefix, p.options, p.checks, goFlags, p.bundle)
	p.guarded = len(p.guards) > 0
	for name, s := range p.subs {
		s.index(append(prefix[:len(prefix):len(prefix)], name), goFlags, negatable, c)
		p.guarded = p.guarded || s.guarded
	}
}

// sub returns the entry of the subcommand argv[k] and those after it
// (git stash list), and the index of the first word after them; p and k
// when argv[k] is not a subcommand of p.
func (p *program) sub(argv []string, k int) (*program, int) {
	for k < len(argv) && p.subs != nil {
		s := p.subs[argv[k]]
		if s == nil {
			break
		}
		p, k = s, k+1
	}
	return p, k
}
