package parser

import (
	"path"
	"slices"
	"strings"
)

// runner says when a program runs code the project holds: its tests, its
// build scripts, its Makefile, a script file of it: the project field of
// the program's entry (programs_*.go), as its synopsis reads. A command
// whose program name holds a slash (./build.sh, bin/tool) runs a file
// that may be the project's too (see ProjectCodeRun).
//
//   - subs: the subcommands that run project code (go test); any other
//     subcommand does not. An option before the subcommand (npm --prefix
//     x test) is not looked through: the invocation runs project code.
//     Nil subs: every invocation does, but those of except.
//   - except: whole invocations (after the program name) that only print
//     (--version, help).
//   - reads: subcommands that only read, whatever follows (yarn why X),
//     for programs without subs.
//   - shell: a shell, which runs its FILE operand or the script on its
//     standard input; with -c it runs the STRING, whose commands are
//     judged on their own (see wrappers).
//   - flags: it runs (or writes) only with one of these options, written
//     as Go flags (-w, --w, -w=true): gofmt -w.
//   - what: what it runs, for messages.
type runner struct {
	subs   []string
	except []string
	reads  []string
	flags  []string
	shell  bool
	what   string
}

var printsOnly = []string{"--version", "-version", "-v", "-V", "--help", "-h", "help", "version"}

// runsProject is entry p (one a function builds: makeEntry()) whose
// program runs the project's code as r says (program.project).
func runsProject(p program, r runner) program {
	p.project = &r
	return p
}

// projectRunner is the runner of the program c runs (its entry's
// project), nil for one that runs no project code.
func projectRunner(c *Command) *runner {
	if p := progs()[path.Base(c.Args[0])]; p != nil {
		return p.project
	}
	return nil
}

// ProjectCodeRun says whether c runs code the project holds, and what,
// from what the parser knows of the program: "builds and runs the
// package's code" for go test. It is empty for a command that does not.
// The text is shared (no allocation): callers name the command
// themselves.
func ProjectCodeRun(c *Command) string {
	args := c.Args
	if len(args) == 0 {
		return ""
	}
	name := args[0]
	r := projectRunner(c)
	if r == nil {
		if strings.Contains(name, "/") && !systemDir(name) {
			return "runs a file that may be the project's"
		}
		return ""
	}
	rest := args[1:]
	if len(rest) == 1 && slices.Contains(r.except, rest[0]) || len(rest) > 0 && slices.Contains(r.reads, rest[0]) {
		return ""
	}
	switch {
	case r.flags != nil:
		for _, a := range rest {
			if a == "--" {
				break
			}
			name, _, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
			if strings.HasPrefix(a, "-") && slices.Contains(r.flags, name) {
				return r.what
			}
		}
		return ""
	case r.shell:
		for _, a := range rest {
			if !strings.HasPrefix(a, "-") || a == "-" || a == "--" {
				break // the FILE operand
			}
			if !strings.HasPrefix(a, "--") && strings.ContainsRune(a, 'c') {
				return "" // -c STRING: its commands are judged themselves
			}
			if a == "--version" || a == "--help" {
				return ""
			}
		}
		return r.what
	case r.subs == nil:
		return r.what
	case len(rest) == 0:
		return ""
	case strings.HasPrefix(rest[0], "-") || slices.Contains(r.subs, rest[0]):
		return r.what
	}
	return ""
}

// runName names a runner command for messages: its program, and the
// subcommand for programs with subcommands ("go test").
func runName(c *Command) string {
	if r := projectRunner(c); r != nil && r.subs != nil && len(c.Args) > 1 {
		return c.Args[0] + " " + c.Args[1]
	}
	return c.Args[0]
}

// systemDir reports an absolute program path in a system directory
// (/usr/bin/ls): not a file of the project.
func systemDir(name string) bool {
	for _, d := range []string{"/usr/", "/bin/", "/sbin/", "/opt/homebrew/"} {
		if strings.HasPrefix(name, d) {
			return true
		}
	}
	return false
}

// writesUnlisted reports a command that writes files the analysis
// cannot list: its entry's writesUnlisted, or writesUnlistedIn naming its
// subcommand.
func writesUnlisted(c *Command) bool {
	if len(c.Args) == 0 {
		return false
	}
	p := progs()[path.Base(c.Args[0])]
	return p != nil && (p.writesUnlisted || len(c.MatchArgv) > 1 && slices.Contains(p.writesUnlistedIn, c.MatchArgv[1]))
}

// writesTree reports a command whose subcommand writes files of the work
// tree it cannot list (program.writesTree: git checkout).
func writesTree(c *Command) bool {
	if len(c.Args) == 0 || len(c.MatchArgv) < 2 {
		return false
	}
	p := progs()[path.Base(c.Args[0])]
	return p != nil && slices.Contains(p.writesTree, c.MatchArgv[1])
}

// writesRemoteNames reports an option of c with role remoteOutput (curl -O,
// -J in a cluster, --remote-name-all, --output-dir; a long one maybe
// abbreviated, a letter anywhere in a word with one dash).
func writesRemoteNames(c *Command) bool {
	if len(c.Args) == 0 {
		return false
	}
	p := progs()[path.Base(c.Args[0])]
	if p == nil || p.roles == nil || p.roles.any&remoteOutput == 0 {
		return false
	}
	for _, a := range c.Args[1:] {
		if name, _, _, ok := longOpt(a); ok {
			if p.roles.union(name)&remoteOutput != 0 {
				return true
			}
			continue
		}
		if len(a) > 1 && a[0] == '-' && a[1] != '-' {
			for j := 1; j < len(a); j++ {
				if p.roles.shortRole(a[j])&remoteOutput != 0 {
					return true
				}
			}
		}
	}
	return false
}

// writes returns the position of what c writes inside root (anywhere
// when root is empty) or the directory run runs in (anywhere when that is
// unknown), or of a write the analysis cannot place; ok is false when it
// writes nothing there. A write to a file among run's own file operands
// counts wherever it is.
func writes(c *Command, root string, run *Command) (Pos, string, bool) {
	for _, f := range c.Files {
		if !f.Write || f.Maybe {
			continue
		}
		if len(c.Args) > 0 {
			if p := progs()[path.Base(c.Args[0])]; p != nil && p.makesDirs {
				continue // a directory holds no code yet
			}
		}
		p := f.Path
		if !path.IsAbs(p) {
			if c.CwdDynamic || c.Cwd == "" {
				return f.Pos, f.Path, true
			}
			p = path.Join(c.Cwd, p)
		}
		if f.Dynamic || f.Glob || root == "" || within(p, root) || run.CwdDynamic || run.Cwd == "" || within(p, run.Cwd) || names(run, p) {
			return f.Pos, f.Path, true
		}
	}
	if len(c.Args) > 0 {
		if writesUnlisted(c) || writesTree(c) {
			return c.Pos, strings.Join(c.MatchArgv[:min(2, len(c.MatchArgv))], " "), true
		}
	}
	if writesRemoteNames(c) {
		return c.Pos, path.Base(c.Args[0]) + " -O", true
	}
	for _, h := range c.OptionHits {
		return c.Pos, h.What, true
	}
	return Pos{}, "", false
}

// within reports whether p is dir or below it, lexically.
func within(p, dir string) bool {
	return p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// names reports whether run has p among its file operands.
func names(run *Command, p string) bool {
	for _, f := range run.Files {
		q := f.Path
		if !path.IsAbs(q) {
			q = path.Join(run.Cwd, q)
		}
		if q == p {
			return true
		}
	}
	return false
}

// WriteThenRun finds the commands of cmds (an Analysis's, in order) that
// run the project's code (ProjectCodeRun) after a command of the same
// source wrote a file inside root, or inside the directory the run runs
// in, or the very file it runs: the run may run what was just written,
// which no check of the source saw (printf … > x_test.go && go test).
// "After" is any earlier command — whatever joins them (&&, ||, ;, |, &,
// a wrapper's string) — or any command of the same loop (Command.Loop),
// since a loop's next round comes after its every command. A write after
// the run, outside a loop, does not count. An empty root counts every
// write. The finding is policy.write_then_run at the run, naming the
// write's place.
func WriteThenRun(cmds []Command, root string) []Finding {
	var out []Finding
	for i := range cmds {
		run := &cmds[i]
		what := ProjectCodeRun(run)
		if what == "" {
			continue
		}
		for j := range cmds {
			if !mayFollow(cmds, j, i) {
				continue
			}
			p, name, ok := writes(&cmds[j], root, run)
			if !ok {
				continue
			}
			when := "after"
			switch {
			case j > i && alongside(run, &cmds[j]):
				when = "alongside"
			case j > i:
				when = "in the loop that repeats it with"
			}
			out = append(out, Finding{Rule: "policy.write_then_run", Pos: run.Pos,
				Message: runName(run) + " " + what + " " + when + " the write of " + name + " at " + p.String() +
					": it may run what the command just wrote, which the gate never saw"})
			break
		}
	}
	return out
}

// mayFollow reports whether cmds[j] may run before cmds[i] runs, or
// while it runs: it comes first in the source, runs alongside it, or
// repeats with it in a loop.
func mayFollow(cmds []Command, j, i int) bool {
	run := &cmds[i]
	return j < i || j > i && (alongside(run, &cmds[j]) || run.Loop != 0 && cmds[j].Loop == run.Loop)
}

// RunsBefore reports whether cmds[j] may run before cmds[i] runs, or
// while it runs: it comes first in the source, runs alongside it, or
// repeats with it in a loop.
func RunsBefore(cmds []Command, j, i int) bool { return mayFollow(cmds, j, i) }

// WritesGitTree reports a git command whose subcommand writes files of
// the work tree it cannot list (git checkout, git mv, git stash pop).
func WritesGitTree(c *Command) bool { return writesTree(c) }

// WritePaths returns the places c writes (absolute, lexical), and false
// when it may write a place it cannot name: a dynamic name, a glob, a
// relative one in an unknown directory, or what a program writes that
// the analysis cannot list (tar, git checkout, curl -O, a guarded
// option). A runner of the project's code is not counted (see
// earlierWrites).
func WritePaths(c *Command) ([]string, bool) {
	var w Command
	ok := earlierWrites(c, &w)
	return w.ProgramWrites, ok
}

// alongside reports whether c, which comes after run in the source, runs
// while run does: after a background job, or later in run's pipeline.
func alongside(run, c *Command) bool {
	return run.Async && (run.background || run.pipe != 0 && c.pipe == run.pipe)
}

// programsWritten fills, for the commands of cmds that run a file by a
// path (./x.sh, bin/x) or a binary npx or bunx finds in node_modules/.bin,
// what another command of cmds before it (or alongside it, or in its
// loop) may have written: ProgramWrites, the places it wrote (a caller
// with the file system compares them with the file the program resolves
// to, links followed), and ProgramWritten, a write that cannot be placed
// or listed.
func programsWritten(cmds []Command) {
	for i := range cmds {
		run := &cmds[i]
		if len(run.Args) == 0 || !strings.Contains(run.Args[0], "/") && !npxBinary(run) {
			continue
		}
		for j := range cmds {
			if !mayFollow(cmds, j, i) {
				continue
			}
			if !earlierWrites(&cmds[j], run) {
				run.ProgramWritten = true
				break
			}
		}
	}
}

// npxBinary reports a command that npx, pnpx or bunx runs by its name:
// a binary of the project's node_modules/.bin when it has one.
func npxBinary(c *Command) bool {
	if n := len(c.Wrappers); n > 0 && len(c.Args) > 0 && !strings.Contains(c.Args[0], "/") {
		switch c.Wrappers[n-1] {
		case "npx", "pnpx", "bunx":
			return true
		}
	}
	return false
}

// earlierWrites adds the places c writes to run.ProgramWrites; false
// when c may write a place it cannot name: a dynamic name, a glob, a
// relative one in an unknown directory, or what a program writes that
// the analysis cannot list (tar, git checkout, curl -O, a guarded
// option). A redirect's target is among c.Files. A runner of the
// project's code before it (make && ./x.sh) does not count: whatever it
// writes, it could run itself, under the same sandbox.
func earlierWrites(c *Command, run *Command) bool {
	for _, f := range c.Files {
		if !f.Write || f.Maybe && !f.Dynamic {
			continue
		}
		q := f.Path
		if f.Dynamic || f.Glob || !path.IsAbs(q) && (c.CwdDynamic || c.Cwd == "") {
			return false
		}
		if !path.IsAbs(q) {
			q = path.Join(c.Cwd, q)
		}
		run.ProgramWrites = append(run.ProgramWrites, path.Clean(q))
	}
	if len(c.Args) > 0 {
		if writesUnlisted(c) || writesTree(c) {
			return false
		}
		if writesRemoteNames(c) {
			return false
		}
	}
	return len(c.OptionHits) == 0
}

// async marks the commands from first on as Async.
func (s *state) async(first int) {
	for k := first; k < len(s.res.Commands); k++ {
		s.res.Commands[k].Async = true
	}
}

// repeats reports a wrapper that runs its command again and again.
func repeats(wrapper string) bool {
	name, _, _ := strings.Cut(wrapper, " ")
	switch name {
	case "xargs", "parallel", "watch", "find", "fd", "fdfind":
		return true
	}
	return false
}

// repeat marks the commands walked until the returned function is called
// as repeating together (Command.Loop): a new number, unless an outer
// repetition already holds them.
func (s *state) repeat() func() {
	if s.loop != 0 {
		return func() {}
	}
	s.loops++
	s.loop = s.loops
	return func() { s.loop = 0 }
}

// lead reads the options a runner takes before, or among, what it runs
// (npm's configuration options, node's before the script, npx's before
// the binary), for the guards of the ecosystem entries (programs_js.go
// and the others): every option it does not know is a hit, since for
// these programs an option is often a setting that runs a program
// (npm --script-shell, --node-options) or moves the work out of the
// project (npm --prefix). Its options are declared as an entry's are
// (see opt): those of role runsOther are hits whatever their value, those
// of role projectPath when their value leaves the project (see leaves).
type lead struct {
	t *optTable  // every option it knows
	r *roleTable // their roles
	// stop: the first operand ends the options (the script, the
	// binary, the recipe): what follows is its own.
	stop bool
	// loose: an option the table does not know is no hit (the program's
	// options table judges it); only guard and dir options are looked at.
	loose bool
}

// loosen makes l loose (see lead.loose).
func (l *lead) loosen() *lead {
	l.loose = true
	return l
}

// newLead compiles the lead of prog (which names it in a panic): stop,
// its options.
func newLead(prog string, stop bool, opts []opt) *lead {
	t, r, _ := compileOptions(prog, opts, true, false, false, nil)
	return &lead{t: t, r: r, stop: stop}
}

// full returns the long option name (maybe abbreviated) as the table
// lists it, or name when it lists none or several.
func (l *lead) full(name string) string {
	if _, ok := l.t.long[name]; ok {
		return name
	}
	found := ""
	for n := range l.t.long {
		if strings.HasPrefix(n, name) {
			if found != "" {
				return name
			}
			found = n
		}
	}
	if found == "" {
		return name
	}
	return found
}

// scan returns the index of the first word of argv[i:] that is an
// option l does not know, a guarded one, or a directory option whose
// value leaves the project; -1 when there is none. It ends at "--",
// and at the first operand when l.stop. end is where it ended.
func (l *lead) scan(argv []string, i int) (hit, end int) {
	for ; i < len(argv); i++ {
		a := argv[i]
		if a == "--" {
			return -1, i
		}
		if len(a) < 2 || a[0] != '-' {
			if l.stop {
				return -1, i
			}
			continue
		}
		if a[1] == '-' {
			name, val, hasVal := strings.Cut(a[2:], "=")
			k := l.t.kind(name)
			if l.loose && k == 0 {
				continue
			}
			if k == 0 || k == 'f' && hasVal {
				return i, i
			}
			full := l.r.longRole(l.full(name))
			if full&runsOther != 0 {
				return i, i
			}
			at := i
			if (k == '=' || k == '2') && !hasVal {
				if i+1 >= len(argv) {
					return -1, len(argv)
				}
				i++
				val = argv[i]
			}
			if k == '2' {
				i++
			}
			if full&projectPath != 0 && leaves(val) {
				return at, at
			}
			continue
		}
		if l.t.num && isDigits(a[1:]) {
			continue
		}
		for j := 1; j < len(a); j++ {
			c := a[j]
			k := byte(0)
			if c < 128 {
				k = l.t.short[c]
			}
			if l.loose && k == 0 {
				continue
			}
			if k == 0 || l.r.shortRole(c)&runsOther != 0 {
				return i, i
			}
			if k == '=' || k == '?' {
				at, val := i, a[j+1:]
				if val == "" && k == '=' {
					if i+1 >= len(argv) {
						return -1, len(argv)
					}
					i++
					val = argv[i]
				}
				if l.r.shortRole(c)&projectPath != 0 && leaves(val) {
					return at, at
				}
				break
			}
		}
	}
	return -1, len(argv)
}

// check is scan as an optionGuard's check.
func (l *lead) check(argv []string, i int) int {
	hit, _ := l.scan(argv, i)
	return hit
}

// leaves reports a directory or file option value that may be outside
// the project: absolute, under the home directory, climbing with "..",
// or a word the gate cannot read (a variable, a command substitution).
// A relative path without ".." stays below the directory the command
// runs in.
func leaves(v string) bool {
	if v == "" || path.IsAbs(v) || v[0] == '~' || strings.ContainsAny(v, "$`\\") {
		return true
	}
	for _, part := range strings.Split(v, "/") {
		if part == ".." {
			return true
		}
	}
	return false
}

// Destructive finds what no one wants an agent to run unasked (issue 30):
// a recursive deletion (rm -r) or a recursive chmod, chown or chgrp of
// the file-system root, the home directory, a directory that holds the
// project, or anything else outside the project root; a write to a
// block device (dd of=/dev/sda, > /dev/nvme0n1); and the creation of a
// file system (mkfs and its kin). Each is a policy.destructive finding
// whose message names what is lost and the project's real root
// ("outside the project /work/app"), never a bare "/". cmds are an
// Analysis's commands, root the project root and home the home
// directory (either may be empty: unknown). A path the analysis cannot
// resolve (dynamic, or relative to an unknown directory) is not judged
// here; the gate asks about it anyway.
//
// The rule id is not yet in policy's registry: the root package
// registers policy.destructive (deny) and calls Destructive next to
// WriteThenRun.
func Destructive(cmds []Command, root, home string) []Finding {
	var out []Finding
	for i := range cmds {
		c := &cmds[i]
		if len(c.Args) == 0 {
			continue
		}
		base := path.Base(c.Args[0])
		if p := entryOf(base); p != nil && p.makesFS {
			out = append(out, Finding{Rule: "policy.destructive", Pos: c.Pos,
				Message: base + " creates a file system, erasing what the device held"})
			continue
		}
		verb, removes := "", false
		if p := progs()[base]; p != nil {
			verb, removes = p.recursiveVerb, p.files.removes
		}
		for _, f := range c.Files {
			if !f.Write || f.Maybe || f.Dynamic {
				continue
			}
			p, ok := absRef(c, f)
			if !ok {
				continue
			}
			if device(p) {
				out = append(out, Finding{Rule: "policy.destructive", Pos: f.Pos,
					Message: c.Args[0] + " writes to the device " + p + ", overwriting what it holds"})
				continue
			}
			if verb == "" || !f.Recursive {
				continue
			}
			if r := path.Clean(root); root != "" && p == r && !f.Glob && removes {
				out = append(out, Finding{Rule: "policy.destructive", Pos: f.Pos,
					Message: c.Args[0] + " deletes " + f.Path + " recursively: the project " + r + " itself, its git history included"})
				continue
			}
			if what := lost(p, root, home); what != "" {
				out = append(out, Finding{Rule: "policy.destructive", Pos: f.Pos,
					Message: c.Args[0] + " " + verb + " " + f.Path + " recursively: " + what})
			}
		}
	}
	return out
}

// absRef returns f's path made absolute against c's directory, with a
// glob cut to the directory before its first pattern character (rm -rf
// /* is rm -rf of /'s entries); false when that cannot be known.
func absRef(c *Command, f FileRef) (string, bool) {
	p := f.Path
	if f.Glob {
		if k := strings.IndexAny(p, "*?["); k >= 0 {
			p = p[:k]
			if j := strings.LastIndexByte(p, '/'); j >= 0 {
				p = p[:j+1]
			} else {
				p = "."
			}
		}
	}
	if !path.IsAbs(p) {
		if c.CwdDynamic || c.Cwd == "" {
			return "", false
		}
		p = path.Join(c.Cwd, p)
	}
	return path.Clean(p), true
}

// lost says what a recursive change of p reaches beyond the project, or
// "" when p is inside it.
func lost(p, root, home string) string {
	root, home = path.Clean(root), path.Clean(home)
	outside := ""
	if root != "." && root != "" {
		if within(p, root) {
			return ""
		}
		outside = ", outside the project " + root
	}
	switch {
	case p == "/":
		return "the whole file system" + outside
	case home != "." && home != "" && p == home:
		return "the home directory " + home + outside
	case root != "." && root != "" && within(root, p):
		return "a directory that holds the project " + root
	case home != "." && home != "" && within(home, p):
		return "a directory that holds the home directory " + home + outside
	case outside != "":
		return p + " is outside the project " + root
	}
	return ""
}

// device reports a block device or raw disk node (not /dev/null,
// /dev/tty, /dev/stdout, /dev/fd/N, /dev/shm, …).
func device(p string) bool {
	d, ok := strings.CutPrefix(p, "/dev/")
	if !ok {
		return false
	}
	for _, pre := range []string{"sd", "hd", "vd", "xvd", "nvme", "mmcblk", "md", "dm-", "loop", "mapper/", "disk/", "nbd", "sr", "mtd"} {
		if strings.HasPrefix(d, pre) {
			return true
		}
	}
	return false
}

// DataLoss finds the git commands that throw work away (issue 30): git
// push --force (or -f, or a +REFSPEC) replaces the remote branch,
// dropping the commits others pushed; git reset --hard discards the
// uncommitted changes of the work tree and index; git clean -f deletes
// untracked files, with -x the ignored ones too (.env, build output).
// Each is a git.data_loss finding whose message names the loss; the
// embedded default asks about them already (no rule allows them), and
// the message says why. --force-with-lease and --force-if-includes are
// not findings: they refuse to drop what was not seen. Not yet wired:
// the root registers git.data_loss (ask) and calls DataLoss next to
// WriteThenRun.
func DataLoss(cmds []Command) []Finding {
	var out []Finding
	for i := range cmds {
		c := &cmds[i]
		argv := c.MatchArgv
		if len(argv) < 2 || path.Base(argv[0]) != "git" {
			continue
		}
		msg := ""
		args := argv[2:]
		switch argv[1] {
		case "push":
			for _, a := range args {
				if a == "--" {
					break
				}
				if a == "--force" || a == "--forc" || a == "--for" || a == "--fo" || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'f') ||
					len(a) > 1 && a[0] == '+' {
					msg = "git push --force replaces the remote branch: commits pushed there since your last fetch are lost (--force-with-lease keeps them)"
					break
				}
			}
		case "reset":
			if slices.Contains(args, "--hard") {
				msg = "git reset --hard discards every uncommitted change of the work tree and the index; they cannot be recovered"
			}
		case "clean":
			force, ignored, dirs := false, false, false
			for _, a := range args {
				if a == "--" {
					break
				}
				switch {
				case a == "--force":
					force = true
				case len(a) > 1 && a[0] == '-' && a[1] != '-':
					force = force || strings.ContainsRune(a, 'f')
					ignored = ignored || strings.ContainsAny(a, "xX")
					dirs = dirs || strings.ContainsRune(a, 'd')
				}
			}
			if force {
				msg = "git clean -f deletes the untracked files"
				if dirs {
					msg += " and directories"
				}
				if ignored {
					msg += ", ignored ones included (.env, local config, build output)"
				}
				msg += "; they are in no commit and cannot be recovered"
			}
		}
		if msg != "" {
			out = append(out, Finding{Rule: "git.data_loss", Pos: c.Pos, Message: msg})
		}
	}
	return out
}
