package parser

import (
	"slices"
	"strings"
)

// git strips git's global options for MatchArgv, reports -c settings that
// run commands, and collects the file references of the subcommand. It
// returns the index in cmd.Argv of the subcommand (len(cmd.Argv) if none)
// and the subcommand's entry in programs (nil if none).
func (s *state) git(cmd *Command) (int, *program) {
	args := cmd.Argv[1:]
	var dirs []Word
	i := 0
loop:
	for i < len(args) {
		a := args[i]
		v := a.Value
		if a.Dynamic {
			s.find("parser.dynamic_command", a.Pos, "git option or subcommand "+v+" is not known before run time")
			break
		}
		next := Word{}
		if i+1 < len(args) {
			next = args[i+1]
		}
		switch {
		case v == "-C":
			dirs = append(dirs, next)
			i += 2
		case v == "-c":
			s.gitConfig(cmd, next, next.Value)
			i += 2
		case v == "--config-env":
			s.gitConfig(cmd, next, next.Value)
			i += 2
		case strings.HasPrefix(v, "--config-env="):
			s.gitConfig(cmd, a, v[len("--config-env="):])
			i++
		case strings.HasPrefix(v, "--exec-path="):
			s.find("git.dangerous_config", a.Pos, "git --exec-path runs git commands from another directory")
			i++
		case v == "--git-dir" || v == "--work-tree" || v == "--namespace" || v == "--super-prefix":
			if v != "--namespace" {
				s.fileRef(cmd, next, RefOption, useRead)
			}
			i += 2
		case strings.HasPrefix(v, "--git-dir="), strings.HasPrefix(v, "--work-tree="):
			_, d, _ := strings.Cut(v, "=")
			s.fileRef(cmd, Word{Value: d, Pos: a.Pos}, RefOption, useRead)
			i++
		case strings.HasPrefix(v, "-c") && !strings.HasPrefix(v, "--"):
			// git 2.39 refuses -cKEY=VALUE; read it as -c KEY=VALUE all
			// the same, in case a git takes it (it costs nothing).
			s.gitConfig(cmd, Word{Value: v[2:], Pos: a.Pos, Dynamic: a.Dynamic}, v[2:])
			i++
		case v == "--version" || v == "-v" || v == "--help" || v == "-h":
			break loop // it prints and runs no subcommand: prefix rules name it (git --version)
		case strings.HasPrefix(v, "-"):
			i++
		default:
			break loop
		}
	}
	i = min(i, len(args))
	cmd.Args = make([]string, len(cmd.Argv))
	for k, w := range cmd.Argv {
		cmd.Args[k] = w.Value
	}
	cmd.MatchArgv = append([]string{cmd.Args[0]}, cmd.Args[1+i:]...)
	dir := ""
	for _, d := range dirs {
		if d.Dynamic {
			cmd.CwdDynamic = true
		}
		dir = joinDir(dir, d.Value)
		s.fileRef(cmd, d, RefOption, useRead)
	}
	g := gitEntry()
	unknownOptions(cmd, g, args[:i])
	var sp *program
	if i < len(args) {
		sp = g.subs[args[i].Value]
		s.gitSubcommand(cmd, args[i].Value, sp, args[i+1:])
		if sp != nil {
			p, k := sp.sub(cmd.MatchArgv, 2) // git stash list
			unknownOptions(cmd, p, cmd.Argv[i+k:])
		}
	}
	first := len(cmd.Files)
	s.fileRefs(cmd, "git", args[i:])
	if dir != "" {
		for k := first; k < len(cmd.Files); k++ {
			if f := &cmd.Files[k]; !strings.HasPrefix(f.Path, "/") && f.Kind != RefRev && !f.Top {
				f.Path = joinDir(dir, f.Path)
			}
		}
	}
	return 1 + i, sp
}

// gitSpec is what a git subcommand's entry in programs says beyond its
// options, whose roles say which run a program or install one (runsOther:
// git.dangerous_config), which take a shell command run by git
// (shellCommand, analysed as inner commands), a file written
// (writesFile) or configuration (setsConfig). An entry with a gitSpec is
// a git subcommand whose options the git readers read.
type gitSpec struct {
	// What its operands are (paths, unless REV:PATH, pathspec magic or
	// a URL): tree, each is read recursively (git add, grep; or with an
	// option of role recursive: git diff --no-index); removes, each is
	// written or removed (git clean); whole, no operand (or a first
	// operand in wholeSubs) means the whole tree ".", read or with
	// removes written (git add -A, git stash); opaque, no operand names
	// a file (git stash's are refs and messages); patch, it writes the
	// files a patch names (git apply, am), unless an option of role
	// readsOperandsOnly is given (git apply --check).
	tree, removes, whole, opaque, patch bool
	wholeSubs                           []string
	// config: it is git config, whose keys and values gitConfigCmd
	// reads.
	config bool
	// runs: the word after which the rest is a command it runs (git
	// bisect run CMD), with runsOpts options around it (git submodule
	// [opts] foreach [opts] CMD).
	runs     string
	runsOpts bool
}

// gitPathspecSubs are the git subcommands whose path operands are
// pathspecs (git help glossary: pathspec), which git matches itself:
// wildcards and magic select files (git add '.e*'). Other subcommands'
// operands with wildcards are names or patterns of refs (git branch
// --list 'feat*', git for-each-ref 'refs/tags/v*'), read as before.
var gitPathspecSubs = map[string]bool{
	"add": true, "rm": true, "mv": true, "checkout": true, "restore": true, "reset": true, "diff": true, "log": true,
	"show": true, "blame": true, "grep": true, "ls-files": true, "status": true, "clean": true, "commit": true,
	"whatchanged": true, "shortlog": true, "rev-list": true, "format-patch": true, "difftool": true, "archive": true,
	"diff-files": true, "diff-index": true, "diff-tree": true, "check-attr": true, "add--interactive": true,
	"cherry": true, "stage": true, "annotate": true,
}

// gitSub returns the entry of git's subcommand sub, or nil.
func gitSub(sub string) *program {
	return gitEntry().subs[sub]
}

// gitSubcommand reports options of subcommand sub (its entry p, args
// follow it) that make git run a program, and git config settings.
func (s *state) gitSubcommand(cmd *Command, sub string, p *program, args []Word) {
	var o *roleTable // its options
	split := args
	if p != nil && p.git != nil {
		o = p.roles
		split = splitShort(args, o, true)
	}
	if p != nil && p.git != nil && p.git.config {
		s.gitConfigCmd(cmd, args)
		return
	}
	for i, a := range split {
		v := a.Value
		if v == "--" {
			return
		}
		name, val, hasVal, long := longOpt(v)
		switch {
		case long && (longIs(name, "output") || o.union(name)&writesFile != 0), !long && len(v) == 2 && v[0] == '-' && o.shortRole(v[1])&writesFile != 0:
			// git diff/log --output=FILE, format-patch -o DIR
			w := Word{Value: val, Pos: a.Pos, Dynamic: a.Dynamic}
			if !hasVal && i+1 < len(split) {
				w = split[i+1]
			}
			s.fileRef(cmd, w, RefOption, useWrite)
		case long && o.union(name)&runsOther != 0, !long && hasRoleOpt(split[i:i+1], o, runsOther):
			s.find("git.dangerous_config", a.Pos, "git "+sub+" "+v+" makes git run a program")
		case !long && len(v) == 2 && v[0] == '-' && o.shortRole(v[1])&setsConfig != 0, long && o.union(name)&setsConfig != 0:
			kv := val
			if !long || !strings.Contains(v, "=") {
				if i+1 >= len(split) {
					continue
				}
				kv = split[i+1].Value
			}
			s.gitConfig(cmd, a, kv)
		}
	}
}

// gitRuns walks the shell commands a git subcommand (its entry p) runs
// (argv starts at the subcommand): rebase --exec, difftool --extcmd,
// filter-branch filters, bisect run and submodule foreach.
func (s *state) gitRuns(argv []Word, p *program, c *ctx, cwd cwdState) {
	if len(argv) == 0 {
		return
	}
	sub, args := argv[0].Value, argv[1:]
	var scripts []Word
	if p == nil || p.git == nil {
		return
	}
	if p.git.runs != "" { // git bisect run CMD, git submodule foreach CMD
		i := 0
		if p.git.runsOpts {
			i = skipOpts(args, "", nil)
		}
		if i < len(args) && args[i].Value == p.git.runs {
			j := i + 1
			if p.git.runsOpts {
				j += skipOpts(args[j:], "", nil)
			}
			if j < len(args) {
				s.gitInner(args[j:], "git "+sub+" "+p.git.runs, c, cwd)
			}
		}
		return
	}
	o := p.roles
	if o == nil || o.any&shellCommand == 0 {
		return
	}
	split := splitShort(args, o, true)
	for i := 0; i < len(split); i++ {
		a := split[i]
		if a.Value == "--" {
			break
		}
		name, val, hasVal, long := longOpt(a.Value)
		if !(long && o.union(name)&shellCommand != 0 || !long && len(a.Value) == 2 && a.Value[0] == '-' && o.shortRole(a.Value[1])&shellCommand != 0) {
			continue
		}
		if !hasVal {
			if i+1 >= len(split) {
				break
			}
			i++
			scripts = append(scripts, split[i])
			continue
		}
		scripts = append(scripts, Word{Value: val, Pos: a.Pos, Dynamic: a.Dynamic})
	}
	name := "git " + sub // the wrapper name: git rebase -x, git filter-branch
	for c := range byte(128) {
		if o.shortRole(c)&shellCommand != 0 {
			name += " -" + string(rune(c))
			break
		}
	}
	for _, w := range scripts {
		s.gitInner([]Word{w}, name, c, cwd)
	}
}

// gitInner walks a command git runs through the shell: one word is a
// script, several are joined as the shell would see them.
func (s *state) gitInner(ws []Word, name string, c *ctx, cwd cwdState) {
	if c.depth+1 > s.opts.MaxDepth {
		s.find("parser.too_deep", ws[0].Pos, "commands nested more than the maximum depth")
		return
	}
	if len(ws) == 1 {
		s.shellString(ws[0], name, c, cwd)
		return
	}
	s.inner(ws, name, c, cwd, false, nil)
}

// gitConfigCmd reports git config setting a key that runs a command
// (git config core.pager x, git config set alias.x …): it takes effect for
// every later git command. Editing the file or renaming a section (which
// can move keys under core.) is as dangerous. -f FILE is a file written.
func (s *state) gitConfigCmd(cmd *Command, args []Word) {
	i := skipOpts(args, "f", []string{"file", "blob", "type", "default", "comment", "value"})
	ops := args[min(i, len(args)):]
	opts := args[:min(i, len(args))]
	for j, a := range opts {
		v := a.Value
		name, val, hasVal, long := longOpt(v)
		switch {
		case long && (longIs(name, "edit") || longIs(name, "rename-section")), !long && hasShortOpt([]Word{a}, 'e'):
			s.find("git.dangerous_config", a.Pos, "git config "+v+" can set keys that run commands")
		case long && longIs(name, "file") && hasVal:
			s.fileRef(cmd, Word{Value: val, Pos: a.Pos, Dynamic: a.Dynamic}, RefOption, useWrite)
		case (v == "-f" || long && longIs(name, "file")) && j+1 < len(opts):
			s.fileRef(cmd, opts[j+1], RefOption, useWrite)
		case strings.HasPrefix(v, "-f") && len(v) > 2:
			s.fileRef(cmd, Word{Value: v[2:], Pos: a.Pos, Dynamic: a.Dynamic}, RefOption, useWrite)
		case long && longIs(name, "blob"):
			// git config --blob REV:PATH --list prints a file of the
			// object store parsed as configuration.
			w := Word{Value: val, Pos: a.Pos, Dynamic: a.Dynamic}
			if !hasVal {
				if j+1 >= len(opts) {
					continue
				}
				w = opts[j+1]
			}
			s.gitBlob(cmd, w, hasVal)
		}
	}
	if len(ops) > 0 {
		switch ops[0].Value {
		case "edit", "rename-section":
			s.find("git.dangerous_config", ops[0].Pos, "git config "+ops[0].Value+" can set keys that run commands")
			return
		case "set":
			ops = ops[1:]
		}
	}
	if len(ops) < 2 || gitConfigReading(opts) {
		return // git config --get KEY VALUE-PATTERN reads
	}
	key := strings.ToLower(ops[0].Value)
	if ops[0].Dynamic || gitDangerousKey(key) {
		s.find("git.dangerous_config", ops[0].Pos, "git config "+ops[0].Value+" can make git run a command")
	}
	if key == "blame.ignorerevsfile" {
		s.fileRef(cmd, ops[1], RefOption, useRead)
	}
}

// gitConfig reports git -c KEY=VALUE when KEY makes git run a command;
// a key that names a file to read makes VALUE a file reference.
func (s *state) gitConfig(cmd *Command, w Word, kv string) {
	key, val, _ := strings.Cut(kv, "=")
	key = strings.ToLower(key)
	if w.Dynamic && !strings.Contains(kv, "=") || gitDangerousKey(key) {
		s.find("git.dangerous_config", w.Pos, "git -c "+key+" can make git run a command")
	}
	if key == "blame.ignorerevsfile" {
		s.fileRef(cmd, Word{Value: val, Pos: w.Pos, Dynamic: w.Dynamic}, RefOption, useRead)
	}
}

// gitDangerousKey reports configuration keys (lower case) whose value is
// a command, a program, or a file of further configuration.
func gitDangerousKey(key string) bool {
	switch key {
	case "core.pager", "core.sshcommand", "core.editor", "core.fsmonitor", "core.hookspath",
		"core.gitproxy", "core.askpass", "core.alternaterefscommand", "diff.external",
		"sequence.editor", "gpg.program", "uploadpack.packobjectshook", "credential.helper",
		"include.path", "protocol.allow", "web.browser", "man.viewer", "interactive.difffilter",
		"sendemail.smtpserver", "sendemail.tocmd", "sendemail.cccmd", "core.worktree", "ssh.variant",
		"imap.tunnel", "help.autocorrect":
		return true
	}
	for _, p := range []string{"alias.", "pager.", "include", "url.", "filter.", "remote.", "protocol.",
		"credential.", "submodule.", "difftool.", "mergetool.", "browser.", "man.", "gpg.", "merge."} {
		if strings.HasPrefix(key, p) {
			switch p {
			case "alias.", "pager.", "include", "url.", "filter.":
				return true
			}
			for _, suf := range []string{".uploadpack", ".receivepack", ".vcs", ".proxy", ".allow", ".helper",
				".update", ".cmd", ".path", ".program", ".driver", ".command"} {
				if strings.HasSuffix(key, suf) {
					return true
				}
			}
		}
	}
	for _, suf := range []string{".command", ".cmd", ".textconv", ".program", ".editor", ".sshcommand"} {
		if strings.HasSuffix(key, suf) {
			return true
		}
	}
	// gpg.ssh.defaultKeyCommand and any other …Command; trace2 targets
	// name files (or sockets) git writes.
	last := key[strings.LastIndexByte(key, '.')+1:]
	return strings.Contains(last, "command") || key == "init.templatedir" ||
		strings.HasPrefix(key, "trace2.") && strings.HasSuffix(key, "target")
}

// gitConfigReading reports a git config read action among opts (--get,
// --list, …): its operands are a key and a value pattern, nothing set.
func gitConfigReading(opts []Word) bool {
	for _, a := range opts {
		name, _, _ := strings.Cut(a.Value, "=")
		if !a.Dynamic && slices.Contains(gitConfigReads, name) {
			return true
		}
	}
	return false
}

// gitBlob reports the blob git config --blob reads when an object id
// names it: a blob the gate cannot see (git ls-tree prints every one's
// id). REV:PATH is a path of the object store, reported as a RefRev.
func (s *state) gitBlob(cmd *Command, w Word, attached bool) {
	if i := strings.IndexByte(w.Value, ':'); i >= 0 && !w.Dynamic {
		if p := w.Value[i+1:]; attached && p != "" {
			// --blob=REV:PATH; a separate REV:PATH word is an operand
			// to gitOperands, which reports it.
			s.fileRef(cmd, Word{Value: p, Pos: w.Pos}, RefRev, useRead)
		}
		return
	}
	cmd.Unknown = append(cmd.Unknown, UnknownRef{Pos: w.Pos, Message: "git config --blob reads the blob " + w.Value + ", which may be an ignored file"})
}
