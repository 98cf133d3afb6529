package parser

import "strings"

// git strips git's global options for MatchArgv, reports -c settings that
// run commands, and collects the file references of the subcommand.
func (s *state) git(cmd *Command) {
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
			s.gitConfig(next, next.Value)
			i += 2
		case v == "--config-env":
			s.gitConfig(next, next.Value)
			i += 2
		case strings.HasPrefix(v, "--config-env="):
			s.gitConfig(a, v[len("--config-env="):])
			i++
		case strings.HasPrefix(v, "--exec-path="):
			s.find("git.dangerous_config", a.Pos, "git --exec-path runs git commands from another directory")
			i++
		case v == "--git-dir" || v == "--work-tree" || v == "--namespace" || v == "--super-prefix":
			if v != "--namespace" {
				s.fileRef(cmd, next, RefOption, false, false)
			}
			i += 2
		case strings.HasPrefix(v, "--git-dir="), strings.HasPrefix(v, "--work-tree="):
			_, d, _ := strings.Cut(v, "=")
			s.fileRef(cmd, Word{Value: d, Pos: a.Pos}, RefOption, false, false)
			i++
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
		s.fileRef(cmd, d, RefOption, false, false)
	}
	if i < len(args) && args[i].Value == "config" {
		s.gitConfigCmd(args[i+1:])
	}
	first := len(cmd.Files)
	s.fileRefs(cmd, "git", args[i:])
	if dir != "" {
		for k := first; k < len(cmd.Files); k++ {
			if f := &cmd.Files[k]; !strings.HasPrefix(f.Path, "/") && f.Kind != RefRev {
				f.Path = joinDir(dir, f.Path)
			}
		}
	}
}

// gitConfigCmd reports git config setting a key that runs a command
// (git config core.pager x, git config set alias.x …): it takes effect for
// every later git command.
func (s *state) gitConfigCmd(args []Word) {
	i := skipOpts(args, "f", []string{"file", "blob", "type", "default", "comment", "value"})
	ops := args[min(i, len(args)):]
	if len(ops) > 0 && (ops[0].Value == "set" || ops[0].Value == "edit") {
		if ops[0].Value == "edit" {
			s.find("git.dangerous_config", ops[0].Pos, "git config edit can set keys that run commands")
			return
		}
		ops = ops[1:]
	}
	for _, a := range args[:min(i, len(args))] {
		if a.Value == "-e" || a.Value == "--edit" {
			s.find("git.dangerous_config", a.Pos, "git config --edit can set keys that run commands")
		}
	}
	if len(ops) >= 2 && (ops[0].Dynamic || gitDangerousKey(strings.ToLower(ops[0].Value))) {
		s.find("git.dangerous_config", ops[0].Pos, "git config "+ops[0].Value+" can make git run a command")
	}
}

// gitConfig reports git -c KEY=VALUE when KEY makes git run a command.
func (s *state) gitConfig(w Word, kv string) {
	key, _, _ := strings.Cut(kv, "=")
	if w.Dynamic && !strings.Contains(kv, "=") || gitDangerousKey(strings.ToLower(key)) {
		s.find("git.dangerous_config", w.Pos, "git -c "+key+" can make git run a command")
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
		"sendemail.smtpserver", "sendemail.tocmd", "sendemail.cccmd", "core.worktree", "ssh.variant":
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
	return false
}
