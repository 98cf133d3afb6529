package parser

import (
	"path"
	"slices"
	"strings"
)

// fileSpec says what a known command's operands are (the files field of
// its entry in programs), beyond what its options' roles say (see role).
// Commands without a spec and without roles get the conservative
// default: every operand and every --opt=value is a file reference.
type fileSpec struct {
	none bool // no argument names a file (echo, printf, sleep)
	// exact: the options that take a value are all declared with their
	// role, so the rest of a cluster (-rf) is never a value.
	exact           bool
	first           bool // the first operand is not a file (pattern, script, mode); see firstIsFile
	alwaysRecursive bool // always recursive; else the options with role recursive make it so
	implicitDot     bool // recursive without operands reads "."
	writeAll        bool // every operand is written or removed
	removes         bool // with writeAll: every operand is removed, none created (rm, rmdir, unlink)
	writeLast       bool // the last of several operands is written (cp, mv)
	writeFirst      bool // the first operand is written (zip ARCHIVE, patch FILE)
	// alwaysNamesInput: it reads or writes files named in its input,
	// which the gate cannot see (cpio); see namesFromInput.
	alwaysNamesInput bool
	// reader, if set, reads the arguments itself (tar's bundle, dd's
	// if=/of=, go's flags and packages; see fileRefs); a kind, not a
	// func, which would make every command escape to the heap.
	reader reader
}

// reader names the readers of programs whose arguments the fields of
// fileSpec cannot describe.
type reader uint8

const (
	readNone    reader = iota
	readDD             // if=FILE of=FILE
	readTar            // tarRefs
	readGo             // goRefs
	readFile           // fileCmdRefs: file -m LIST -f NAMEFILE
	readSplit          // splitRefs: split's prefix
	readJq             // jq -L DIR and import/include: modules jq finds itself
	readBracket        // [ … ]: the closing bracket is no operand
)

var grepSpec = fileSpec{exact: true, first: true, implicitDot: true}

var awkSpec = fileSpec{first: true}

var rgSpec = fileSpec{first: true, alwaysRecursive: true, implicitDot: true}

// noSpec is the spec of a program the table does not know.
var noSpec fileSpec

// genericRefs reports every operand of args as a file reference.
func (s *state) genericRefs(cmd *Command, args []Word) {
	for _, a := range args {
		if a.Dynamic || !strings.HasPrefix(a.Value, "-") {
			s.argRef(cmd, a, useRead)
		}
	}
}

// fileRefs collects the file references of a (non-wrapper) command.
func (s *state) fileRefs(cmd *Command, base string, args []Word) {
	spec := &noSpec
	var roles *roleTable // the roles of its options, by name
	prog := progs()[base]
	if prog != nil {
		spec, roles = &prog.files, prog.roles
		if prog.subs != nil && len(args) > 0 && !args[0].Dynamic {
			if sub := prog.subs[args[0].Value]; sub != nil && sub.ownFiles {
				spec, roles, args = &sub.files, sub.roles, args[1:] // ruff format, ruff check
			}
		}
	}
	var has role // the roles of every option it has
	if roles != nil {
		has = roles.any
	}
	if spec.none || prog != nil && prog.lists && prog.opts != nil && has&(readsFile|namesFromInput|noNamesFromInput) == 0 && !spec.alwaysNamesInput {
		// The arguments a wrapper appends (xargs, find -exec {}) name
		// no file it reads: it names none (basename), or only lists
		// the ones it is given, and no option of its known table reads
		// one (ls, stat; not du --files0-from, nor lsof, whose options
		// the table does not list). They may be any words, options
		// included.
		defer func(n int) {
			cmd.Unknown = append(cmd.Unknown[:0], cmd.Unknown[n:]...)
		}(len(cmd.Unknown))
	}
	if spec.none {
		return
	}
	listsOnly := has&listsOnly != 0 && slices.ContainsFunc(args, func(a Word) bool {
		name, _, hasVal, ok := longOpt(a.Value)
		return ok && !hasVal && !a.Dynamic && roles.longRole(name)&listsOnly != 0
	})
	lists := prog != nil && prog.lists || listsOnly
	switch spec.reader {
	case readDD:
		for _, a := range args {
			if v, ok := strings.CutPrefix(a.Value, "if="); ok {
				s.fileRef(cmd, Word{Value: v, Pos: a.Pos, Dynamic: a.Dynamic, Glob: a.Glob}, RefArg, useRead)
			} else if v, ok := strings.CutPrefix(a.Value, "of="); ok {
				s.fileRef(cmd, Word{Value: v, Pos: a.Pos, Dynamic: a.Dynamic, Glob: a.Glob}, RefArg, useWrite)
			}
		}
		return
	case readTar:
		s.tarRefs(cmd, args, roles)
		return
	case readGo:
		s.goRefs(cmd, args, roles)
		return
	case readFile:
		s.fileCmdRefs(cmd, args)
		return
	case readSplit:
		s.splitRefs(cmd, args[skipOptsBy(args, roles):])
		return
	case readJq:
		for _, a := range args {
			if a.Dynamic || strings.HasPrefix(a.Value, "-L") || isLong(a.Value, "library-path") ||
				strings.Contains(a.Value, "import") || strings.Contains(a.Value, "include") {
				cmd.Unknown = append(cmd.Unknown, UnknownRef{Pos: a.Pos, Message: "jq loads modules it finds itself"})
				break
			}
		}
	case readBracket:
		if n := len(args); n > 0 && args[n-1].Value == "]" {
			args = args[:n-1]
		}
	}
	var seen [128]bool
	var seenRoles role // the roles of the short options seen
	see := func(c byte) {
		seen[c] = true
		seenRoles |= roles.shortRole(c)
	}
	backup := "" // sed/perl -iSUFFIX: the backup copy's name
	longWrites, reads := false, false
	var opsArr [8]Word
	ops := opsArr[:0]
	endOpts := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if endOpts || len(v) < 2 || v[0] != '-' {
			if v != "-" || a.Dynamic {
				ops = append(ops, a)
			}
			continue
		}
		if v == "--" {
			endOpts = true
			continue
		}
		if v[1] == '-' {
			name, val, hasVal := strings.Cut(v[2:], "=")
			// Over-matching prefixes (--re is both --recursive and
			// --regexp) is the safe direction: getopt_long rejects an
			// ambiguous one.
			if longIs(name, "recursive", "archive", "dereference-recursive") {
				see('r')
			}
			if longIs(name, "in-place") {
				see('i')
				backup = val
				continue
			}
			if longIs(name, "regexp", "expression") {
				see('e')
			}
			if longIs(name, "file", "from-file") {
				see('e')
				see('f')
			}
			union, exact := roles.longRoles(name)
			if union&writesOperands != 0 {
				longWrites = true
				if exact&writesOperands != 0 {
					continue // the flag itself, not an abbreviation of an option with a value (ruff --fix, --fixable)
				}
			}
			write := union&writesFile != 0
			file := write || union&readsFile != 0
			skip := !file && union&notFile != 0
			if !hasVal && (skip || file) && i+1 < len(args) {
				i++
				a, val, hasVal = args[i], args[i].Value, true
			}
			if has&readsOperandsOnly != 0 && (!hasVal && exact&readsOperandsOnly != 0 || hasVal && roles.longRole(name+"="+val)&readsOperandsOnly != 0) {
				reads = true
			}
			if hasVal && has&recursesIfValue != 0 && longIs(name, "directories") && longIs(val, "recurse") {
				see('r')
			}
			switch {
			case !hasVal || val == "" || isDigits(val):
			case file:
				s.fileRef(cmd, Word{Value: val, Pos: a.Pos, Dynamic: a.Dynamic, Glob: a.Glob, Pattern: a.Pattern}, RefOption, useOf(write, false))
				if longIs(name, "files0-from") && roles.longRole("files0-from")&readsFile != 0 ||
					longIs(name, "files-from") && roles.longRole("files-from")&readsFile != 0 {
					cmd.Unknown = append(cmd.Unknown, UnknownRef{Pos: a.Pos,
						Message: "--" + name + " reads the names of the files from a file"})
				}
			case skip:
				s.maybeRef(cmd, Word{Value: val, Pos: a.Pos, Dynamic: a.Dynamic}, RefOption)
			default:
				s.optRef(cmd, Word{Value: val, Pos: a.Pos, Dynamic: a.Dynamic, Glob: a.Glob}, false)
			}
			continue
		}
		if len(v) == 2 && roles.shortRole(v[1])&readsOperandsOnly != 0 {
			reads = true
		}
		for j := 1; j < len(v); j++ {
			f := v[j]
			if f < 128 {
				see(f)
			}
			r := roles.shortRole(f)
			valWrite := r&writesFile != 0
			switch {
			case r&backupSuffix != 0:
				backup = v[j+1:]
			case r&notFile != 0:
				val := Word{Value: v[j+1:], Pos: a.Pos, Dynamic: a.Dynamic}
				if j == len(v)-1 && i+1 < len(args) {
					i++
					val = args[i]
				}
				s.maybeRef(cmd, val, RefOption)
				if r&recursesIfValue != 0 && longIs(val.Value, "recurse") {
					see('r')
				}
			case valWrite || r&readsFile != 0:
				if j < len(v)-1 {
					s.fileRef(cmd, Word{Value: v[j+1:], Pos: a.Pos, Dynamic: a.Dynamic}, RefOption, useOf(valWrite, false))
				} else if i+1 < len(args) {
					i++
					s.fileRef(cmd, args[i], RefOption, useOf(valWrite, false))
				}
			default:
				// An option the table does not know may take the rest
				// of the cluster as its value (file -m.env, -bm.env).
				if j < len(v)-1 && isAlnum(f) && !spec.exact {
					s.maybeRef(cmd, Word{Value: v[j+1:], Pos: a.Pos, Dynamic: a.Dynamic}, RefOption)
				}
				if isAlnum(f) {
					continue
				}
			}
			break
		}
	}
	if spec.alwaysNamesInput || seenRoles&namesFromInput != 0 || has&noNamesFromInput != 0 && seenRoles&noNamesFromInput == 0 {
		cmd.Unknown = append(cmd.Unknown, UnknownRef{Pos: cmd.Argv[0].Pos,
			Message: base + " reads or writes files named in its input"})
	}
	if prog != nil && prog.script != noScript {
		s.scriptRefs(cmd, prog.script, base, args, roles)
	}
	if spec.first && len(ops) > 0 && seenRoles&firstIsFile == 0 && !listsOnly { // rg --files takes no pattern
		s.maybeRef(cmd, ops[0], RefArg) // the pattern or script: an option may have shifted it
		ops = ops[1:]
	}
	rec := spec.alwaysRecursive || seenRoles&recursive != 0 || (has&recursive != 0 && seen['r'])
	write := spec.writeAll && !reads || longWrites || seenRoles&writesOperands != 0
	if prog != nil && prog.git != nil { // git's own operands (the git readers call this with git's)
		s.gitOperands(cmd, ops, args, &seen)
		return
	}
	for i, op := range ops {
		if prog != nil && prog.script == awkLang && assignPrefix(op.Value) > 0 {
			continue // var=value operand
		}
		w := write || (spec.writeLast && i == len(ops)-1 && len(ops) > 1) || spec.writeFirst && i == 0
		n := len(cmd.Files)
		s.argRef(cmd, op, useOf(w, rec && !(spec.writeFirst && i == 0))) // zip -r: the archive is one file
		for k := n; k < len(cmd.Files); k++ {
			cmd.Files[k].Removed = spec.removes && w
			cmd.Files[k].Listed = lists && !w
		}
		if w && backup != "" {
			s.fileRef(cmd, Word{Value: backupName(op.Value, backup), Pos: op.Pos, Dynamic: op.Dynamic}, RefArg, useWrite)
		}
	}
	if rec && spec.implicitDot && len(ops) == 0 {
		s.fileRef(cmd, Word{Value: ".", Pos: cmd.Argv[0].Pos}, RefArg, useTree)
		cmd.Files[len(cmd.Files)-1].Listed = lists
	}
	if rec {
		readerFilters(cmd, base, args, 0)
	}
}

// backupName is the backup copy sed -iSUFFIX (and perl) makes of file:
// file+SUFFIX, or SUFFIX with each * replaced by the file's name, in the
// file's directory unless absolute.
func backupName(file, suffix string) string {
	if !strings.Contains(suffix, "*") {
		return file + suffix
	}
	b := strings.ReplaceAll(suffix, "*", path.Base(file))
	if path.IsAbs(b) {
		return b
	}
	return path.Join(path.Dir(file), b)
}

func seenAny(seen *[128]bool, flags string) bool {
	for i := 0; i < len(flags); i++ {
		if seen[flags[i]] {
			return true
		}
	}
	return false
}

// longMatch reports whether name (a long option without "--" and
// "=value") is one of list or an abbreviation of one: GNU getopt_long,
// git and env accept any unambiguous prefix.
func longMatch(name string, list []string) bool {
	if name == "" {
		return false
	}
	for _, l := range list {
		if strings.HasPrefix(l, name) {
			return true
		}
	}
	return false
}

// isLong reports whether the word v is the long option --name, maybe
// abbreviated, without a value.
func isLong(v, name string) bool {
	n, _, hasVal, ok := longOpt(v)
	return ok && !hasVal && longIs(n, name)
}

// longValue returns the value of v when it is --name=value, name maybe
// abbreviated.
func longValue(v, name string) (string, bool) {
	n, val, hasVal, ok := longOpt(v)
	return val, ok && hasVal && longIs(n, name)
}

// longIs is longMatch for a literal list of options.
func longIs(name string, opts ...string) bool { return longMatch(name, opts) }

// longOpt splits "--name=value" into name and value; ok is false for a
// word that is not a long option.
func longOpt(v string) (name, val string, hasVal, ok bool) {
	if len(v) < 3 || v[0] != '-' || v[1] != '-' {
		return "", "", false, false
	}
	name, val, hasVal = strings.Cut(v[2:], "=")
	return name, val, hasVal, true
}

func contains(list []string, v string) bool {
	for _, l := range list {
		if l == v {
			return true
		}
	}
	return false
}

// tarRoles are the roles of tar's options whose value tarRefs reads, in
// the order an abbreviation that could name several is read as (--f is
// --file): the archive (writesFile: written when the mode writes it),
// a list of names (namesFromInput: -T), a file read (-X), the directory
// of the operands after it (setsDir: -C).
var tarRoles = [...]role{writesFile, namesFromInput, readsFile, setsDir}

// tarRole returns the first of tarRoles in r, 0 for none.
func tarRole(r role) role {
	for _, t := range tarRoles {
		if r&t != 0 {
			return t
		}
	}
	return 0
}

// tarRefs handles tar's option bundle (tar czf out.tgz dir): the values
// of its options with a role of tarRoles (declared in its entry: -f
// ARCHIVE, -T LIST, names read from LIST: unknown, -X FILE, and -C DIR,
// which moves the operands after it).
func (s *state) tarRefs(cmd *Command, args []Word, roles *roleTable) {
	// The mode first: tar reads every option before it acts, so an
	// archive named before the mode (tar -f a.tar -c b) is written too.
	var mode string
	for i, a := range args {
		v := a.Value
		switch {
		case i == 0 && !strings.HasPrefix(v, "-") && !a.Dynamic, strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && len(v) > 1:
			mode += strings.TrimPrefix(v, "-")
		case strings.HasPrefix(v, "--"):
			name, _, _, _ := longOpt(v)
			mode += longTarMode(name)
		}
	}
	var vals []role // options waiting for their value
	dir := ""
	var ops []Word
	value := func(r role, w Word) {
		switch r {
		case writesFile:
			s.fileRef(cmd, w, RefArg, useOf(strings.ContainsAny(mode, "cruA"), false))
		case namesFromInput:
			s.fileRef(cmd, w, RefOption, useRead)
			cmd.Unknown = append(cmd.Unknown, UnknownRef{Pos: w.Pos, Message: "tar reads the names of the files from a list"})
		case readsFile:
			s.fileRef(cmd, w, RefOption, useRead)
		case setsDir:
			s.fileRef(cmd, w, RefOption, useRead)
			dir = joinDir(dir, w.Value)
		}
	}
	for i, a := range args {
		v := a.Value
		switch {
		case i == 0 && !strings.HasPrefix(v, "-") && !a.Dynamic, strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && len(v) > 1:
			for k := 0; k < len(v); k++ {
				if r := tarRole(roles.shortRole(v[k])); r != 0 {
					vals = append(vals, r)
				}
			}
		case strings.HasPrefix(v, "--"):
			name, val, hasVal, _ := longOpt(v)
			if r := tarRole(roles.union(name)); r != 0 {
				if hasVal {
					value(r, Word{Value: val, Pos: a.Pos, Dynamic: a.Dynamic})
				} else {
					vals = append(vals, r)
				}
			}
		case len(vals) > 0:
			value(vals[0], a)
			vals = vals[1:]
		default:
			if dir != "" && !path.IsAbs(v) {
				a.Value = path.Join(dir, v)
			}
			ops = append(ops, a)
		}
	}
	extract := strings.ContainsRune(mode, 'x')
	if extract {
		cmd.Unknown = append(cmd.Unknown, UnknownRef{Pos: cmd.Argv[0].Pos, Message: "tar writes the files named in the archive"})
	}
	for _, op := range ops {
		s.argRef(cmd, op, useOf(extract, true))
	}
}

// longTarMode maps a long option (without "--", maybe abbreviated) to
// the letters of the modes it may select.
// goRefs handles the go command: Go flags are long names after one or
// two dashes, and package patterns (./...) are not files. roles is the
// go entry's: the flags with a value, and what the value is.
func (s *state) goRefs(cmd *Command, args []Word, roles *roleTable) {
	first := true
	var sub Word
	var ops []Word
	output := false
	defer func() {
		if !first {
			s.goSubRefs(cmd, sub, ops, output)
		}
	}()
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if a.Dynamic || len(v) < 2 || v[0] != '-' {
			switch {
			case first:
				first = false // the subcommand
				sub = a
			case sub.Value == "doc" || sub.Value == "list":
				ops = append(ops, a) // packages and symbols: goSubRefs
			case !strings.HasSuffix(v, "...") || a.Dynamic:
				if sub.Value == "build" && len(ops) == 0 {
					ops = append(ops, a) // names the binary: goSubRefs
				}
				s.argRef(cmd, a, useRead)
			}
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimPrefix(v[1:], "-"), "=")
		output = output || name == "o"
		r, arg := roles.goFlag(name)
		if arg != argValue {
			continue // a boolean flag
		}
		w := Word{Value: val, Pos: a.Pos, Dynamic: a.Dynamic}
		if !hasVal {
			if i+1 >= len(args) {
				break
			}
			i++
			w = args[i]
		}
		switch {
		case r&(writesFile|readsFile) != 0:
			s.fileRef(cmd, w, RefOption, useOf(r&writesFile != 0, false))
		case r&runs == 0:
			s.maybeRef(cmd, w, RefOption)
		}
	}
}

func longTarMode(name string) string {
	m := ""
	for _, o := range [...]struct{ long, mode string }{
		{"create", "c"}, {"extract", "x"}, {"get", "x"}, {"append", "r"}, {"update", "u"}} {
		if longIs(name, o.long) {
			m += o.mode
		}
	}
	return m
}

// gitOperands reports the operands after git's subcommand; REV:PATH names
// a file in a revision. args are all the words after git's global
// options, seen the short options among them.
func (s *state) gitOperands(cmd *Command, ops, args []Word, seen *[128]bool) {
	if len(ops) == 0 {
		return
	}
	// ops[0] is the subcommand: its entry (see gitSpec) says what its
	// operands are.
	sub := ops[0].Value
	if (sub == "log" || sub == "shortlog") && gitLogNamesOnly(args, ops[0].Pos, sub == "shortlog") {
		// Commits and the names of the files they touch, no contents: a
		// pathspec selects commits, it reads nothing (git log --oneline
		// -- ':!docs').
		defer func(n int) {
			for k := n; k < len(cmd.Files); k++ {
				if cmd.Files[k].Kind == RefArg && !cmd.Files[k].Write {
					cmd.Files[k].Listed = true
				}
			}
		}(len(cmd.Files))
	}
	ops = ops[1:]
	var g gitSpec
	var gr *roleTable // the subcommand's options
	if p := gitSub(sub); p != nil && p.git != nil {
		g, gr = *p.git, p.roles
	}
	if g.removes { // git clean deletes what it names, creates nothing
		defer func(n int) {
			for k := n; k < len(cmd.Files); k++ {
				cmd.Files[k].Removed = cmd.Files[k].Write
			}
		}(len(cmd.Files))
	}
	rec := g.tree || gr != nil && gr.any&recursive != 0 && slices.ContainsFunc(args, func(a Word) bool {
		n, _, hasVal, ok := longOpt(a.Value)
		return ok && !hasVal && gr.union(n)&recursive != 0 // git diff --no-index
	})
	mode := gitPathspecMode(cmd, s.opts.Env)
	var excs []pathspec
	incl := 0 // operands that are not excluding pathspecs
	for _, op := range ops {
		if isGitMagic(op, mode) {
			if ps := parsePathspec(op.Value, mode); ps.exclude {
				excs = append(excs, ps)
				continue
			}
		}
		incl++
	}
	if incl == 0 && len(excs) > 0 && gitPathspecSubs[sub] {
		// Excludes alone: git reads what it reads without a pathspec,
		// less what they exclude, under the cwd or the whole tree
		// (git ls-files, git status). Only excludes from the top narrow
		// a reference from the top.
		var top []pathspec
		for _, e := range excs {
			if e.top {
				top = append(top, e)
			}
		}
		all := pathspec{top: true}
		cmd.Files = append(cmd.Files, FileRef{Path: ".", Pos: ops[0].Pos, Kind: RefArg, Write: g.removes, Recursive: true, Top: true,
			Filter: &pathspecFilter{inc: all, excs: top, desc: "files no exclude pathspec of git " + sub + " removes"}})
	}
	if g.whole && (incl == 0 || slices.Contains(g.wholeSubs, ops[0].Value)) {
		s.fileRef(cmd, Word{Value: ".", Pos: cmd.Argv[0].Pos}, RefArg, useOf(g.removes, true))
		if sub == "stash" && !gitStashReadsIgnored(args) {
			// git stash saves the changes of tracked files (with -u,
			// untracked ones too), never an ignored file but with -a,
			// and prints no contents but with -p.
			cmd.Files[len(cmd.Files)-1].Filter = noIgnoredFilter{"files git stash saves without -a (tracked and untracked, no ignored one)"}
		}
	}
	if g.patch && !slices.ContainsFunc(args, func(a Word) bool {
		n, _, hasVal, ok := longOpt(a.Value)
		return ok && !hasVal && gr.union(n)&readsOperandsOnly != 0 // git apply --check
	}) {
		cmd.Unknown = append(cmd.Unknown, UnknownRef{Pos: cmd.Argv[0].Pos, Message: "git " + sub + " writes the files named in the patch"})
	}
	if g.opaque {
		return
	}
	write := g.removes
	if sub == "grep" {
		if len(ops) > 0 && !seen['e'] && !seen['f'] {
			s.maybeRef(cmd, ops[0], RefArg) // the pattern
			ops = ops[1:]
		}
		if !gitLiteralPaths(args) {
			defer s.fileRef(cmd, Word{Value: ".", Pos: cmd.Argv[0].Pos}, RefArg, useTree)
		}
	}
	gitStdin(cmd, args)
	dd := slices.IndexFunc(args, func(a Word) bool { return a.Value == "--" && !a.Dynamic })
	for _, op := range ops {
		v := op.Value
		// After --, every operand is a pathspec; before, a word with a
		// colon may be REV:PATH (git show HEAD:x) as well: read below
		// too. A colon does not end a pattern: git add '[:.]env' and
		// git add ':*.env' select .env.
		path := dd >= 0 && posAfter(op.Pos, args[dd].Pos)
		if !op.Dynamic && gitPathspecSubs[sub] && (isGitMagic(op, mode) || !mode.literal && strings.ContainsAny(v, "*?[\\")) {
			// A pathspec git matches itself: a pattern, matched as git
			// matches it. An excluding one only narrows the others.
			ps := parsePathspec(v, mode)
			if ps.exclude || s.gitPathspecRef(cmd, op, ps, excs, write) {
				if op.Glob && !ps.exclude {
					// Unquoted, bash expands it first when it matches.
					s.argRef(cmd, op, useOf(write, rec))
				}
				if path || isGitMagic(op, mode) || !strings.Contains(v, ":") {
					continue
				}
			}
		}
		if i := strings.IndexByte(v, ':'); i >= 0 && !op.Dynamic && !strings.Contains(v, "://") {
			p := v[i+1:]
			if j := strings.IndexByte(p, ':'); i == 0 && j == 1 && p[0] >= '0' && p[0] <= '3' {
				p = p[2:] // :N:path, a stage of the index
			}
			if p != "" {
				s.fileRef(cmd, Word{Value: p, Pos: op.Pos, Glob: op.Glob}, RefRev, useRead)
			}
			continue
		}
		s.argRef(cmd, op, useOf(write, rec))
	}
}

// posAfter reports whether a comes after b in the source.
func posAfter(a, b Pos) bool {
	return a.Line > b.Line || a.Line == b.Line && a.Col > b.Col
}

// gitLiteralPaths reports whether args end in "-- PATH…" where every
// PATH is static: a path or a pathspec with wildcards or magic (a
// filtered reference, see gitPathspecRef). git grep then reads only
// what those select (each a recursive reference of its own), not the
// whole tree.
func gitLiteralPaths(args []Word) bool {
	i := slices.IndexFunc(args, func(a Word) bool { return a.Value == "--" && !a.Dynamic })
	if i < 0 || i == len(args)-1 {
		return false
	}
	for _, a := range args[i+1:] {
		if a.Dynamic || a.Value == "" {
			return false
		}
	}
	return true
}

// A use is how a command uses a file it names: read (the zero value) or
// written (useWrite), the file alone or the whole tree below it
// (useTree: a recursive read, copy or removal).
type use uint8

const (
	useRead  use = 0
	useWrite use = 1
	useTree  use = 2
)

// useOf is the use that write and rec say.
func useOf(write, rec bool) use {
	u := useRead
	if write {
		u |= useWrite
	}
	if rec {
		u |= useTree
	}
	return u
}

// argRef reports an operand: @FILE, NAME=@FILE and plain paths.
func (s *state) argRef(cmd *Command, w Word, u use) {
	v := w.Value
	if strings.Contains(v, "://") && !w.Dynamic {
		return // a URL
	}
	if strings.HasPrefix(v, "@") && len(v) > 1 {
		w.Value = v[1:]
		s.fileRef(cmd, w, RefAt, useRead)
		return
	}
	s.fileRef(cmd, w, RefArg, u)
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// maybeRef reports a word that is probably not a path but could be one
// (FileRef.Maybe): a pattern operand, an option's value.
func (s *state) maybeRef(cmd *Command, w Word, kind RefKind) {
	v := strings.TrimPrefix(w.Value, "@")
	if isDigits(v) || strings.Contains(v, "://") && !w.Dynamic {
		return
	}
	w.Value = v
	n := len(cmd.Files)
	s.fileRef(cmd, w, kind, useRead)
	if len(cmd.Files) > n {
		cmd.Files[n].Maybe = true
	}
}

// optRef reports the value of --opt=value.
func (s *state) optRef(cmd *Command, w Word, write bool) {
	if strings.HasPrefix(w.Value, "@") {
		w.Value = w.Value[1:]
		s.fileRef(cmd, w, RefAt, useRead)
		return
	}
	if strings.Contains(w.Value, "://") {
		return
	}
	s.fileRef(cmd, w, RefOption, useOf(write, false))
}

// fileRef adds one file reference, unless w names no file at all.
func (s *state) fileRef(cmd *Command, w Word, kind RefKind, u use) {
	write, rec := u&useWrite != 0, u&useTree != 0
	if (w.Value == "" && !w.Dynamic) || notAFile(w.Value) {
		return
	}
	if len(cmd.Unknown) > 0 && strings.Contains(w.Value, "{}") {
		return // filled in by find -exec or xargs -I: an UnknownRef
	}
	if i := strings.Index(w.Value, "=@"); i > 0 && kind != RefAt && !w.Dynamic {
		w.Value = w.Value[i+2:] // curl -F name=@file
		kind = RefAt
	}
	if cmd.Files == nil {
		cmd.Files = make([]FileRef, 0, len(cmd.Argv)+len(cmd.Redirects)+1)
	}
	cmd.Files = append(cmd.Files, FileRef{Path: w.Value, Pos: w.Pos, Kind: kind, Write: write,
		Recursive: rec, Glob: w.Glob, Pattern: w.Pattern, Resplit: w.Resplit, Dynamic: w.Dynamic})
}

// gitLogNamesOnly reports whether the options of git log (or shortlog)
// after the subcommand at sub are all ones that print commits and the
// names of the files they touch, never a file's contents (shortlog:
// -s, -n, -e, -c): no -p, -S,
// -G, -L, --textconv, nor any option the list does not know.
func gitLogNamesOnly(args []Word, sub Pos, shortlog bool) bool {
	after := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !after {
			after = a.Pos == sub
			continue
		}
		v := a.Value
		if a.Dynamic {
			return false
		}
		if v == "--" {
			return true
		}
		if len(v) < 2 || v[0] != '-' {
			continue // a revision or a pathspec
		}
		if v[1] != '-' {
			switch {
			case isDigits(v[1:]), v == "-i":
			case v == "-n":
				i++
			case strings.HasPrefix(v, "-n") && isDigits(v[2:]):
			case shortlog && strings.Trim(v[1:], "nsec") == "": // shortlog -sn: counts, names, emails
			default:
				return false
			}
			continue
		}
		name, _, hasVal := strings.Cut(v[2:], "=")
		switch name {
		case "oneline", "graph", "decorate", "no-decorate", "all", "branches", "tags", "remotes", "reverse", "no-merges", "merges",
			"first-parent", "abbrev-commit", "no-abbrev-commit", "abbrev", "name-only", "name-status", "stat", "shortstat",
			"follow", "relative-date", "topo-order", "date-order", "author-date-order", "no-color", "color", "full-history",
			"simplify-by-decoration", "left-right", "boundary", "source", "use-mailmap", "regexp-ignore-case", "invert-grep",
			"all-match", "extended-regexp", "fixed-strings", "parents", "children", "ancestry-path", "summary", "numbered",
			"email", "format", "pretty", "date", "max-count", "skip", "since", "after", "until", "before", "author",
			"committer", "grep", "decorate-refs", "decorate-refs-exclude":
		default:
			return false
		}
		if !hasVal {
			switch name {
			case "format", "date", "max-count", "skip", "since", "after", "until", "before", "author", "committer", "grep",
				"decorate-refs", "decorate-refs-exclude":
				i++ // the value as the next word
			}
		}
	}
	return after
}

// gitStashReadsIgnored reports whether git stash's options make it read
// ignored files (-a, --all) or print the contents of the changes (-p,
// --patch), in any spelling git's parse-options takes.
func gitStashReadsIgnored(args []Word) bool {
	for _, a := range args {
		v := a.Value
		if a.Dynamic {
			return true
		}
		if v == "--" {
			return false
		}
		if name, _, _, ok := longOpt(v); ok {
			if name != "" && (longIs(name, "all") || longIs(name, "patch")) {
				return true
			}
			continue
		}
		if len(v) > 1 && v[0] == '-' && strings.ContainsAny(v[1:], "ap") {
			return true
		}
	}
	return false
}

// noIgnoredFilter passes no file: what a command reads in the directory
// is never an ignored file (git stash without -a).
type noIgnoredFilter struct{ desc string }

func (noIgnoredFilter) Match(rel string, isDir bool) bool { return false }
func (f noIgnoredFilter) String() string                  { return f.desc }
