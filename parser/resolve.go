package parser

import (
	"path"
	"strings"
)

// markRecursive marks the read operands cmd.Files[from:] of a program
// that may read a directory's files as recursive reads.
func markRecursive(cmd *Command, p *program, from int) {
	if p != nil && p.dirSafe {
		return
	}
	for k := from; k < len(cmd.Files); k++ {
		if f := &cmd.Files[k]; !f.Write && !f.Maybe && f.Kind != RefEnv && f.Kind != RefRedirect {
			f.Recursive = true
		}
	}
}

// goSubRefs adds what a go subcommand resolves or writes itself: go doc
// and go list find packages by import path or name anywhere in the
// module (unknown files); go build without -o writes its binary into
// the current directory.
func (s *state) goSubRefs(cmd *Command, sub Word, ops []Word, hasOutput bool) {
	switch sub.Value {
	case "doc", "list":
		for _, op := range ops {
			v := op.Value
			if !op.Dynamic && (strings.HasPrefix(v, "./") || strings.HasPrefix(v, "../") || v == "." || v == ".." || path.IsAbs(v)) {
				dir, rec := strings.CutSuffix(v, "...")
				s.fileRef(cmd, Word{Value: strings.TrimSuffix(dir, "/"), Pos: op.Pos}, RefArg, useOf(false, rec))
				continue
			}
			cmd.Unknown = append(cmd.Unknown, UnknownRef{Pos: op.Pos,
				Message: "go " + sub.Value + " finds " + v + " itself: it may be a package in an ignored directory"})
		}
		if len(ops) == 0 {
			s.fileRef(cmd, Word{Value: ".", Pos: sub.Pos}, RefArg, useRead)
		}
	case "build":
		if hasOutput {
			return
		}
		// The binary is named after the first .go file or the package's
		// directory; go build writes it into the current directory.
		s.fileRef(cmd, Word{Value: ".", Pos: sub.Pos}, RefArg, useWrite)
		for _, op := range ops {
			if op.Dynamic {
				break
			}
			name := strings.TrimSuffix(path.Base(op.Value), ".go")
			if name != "" && name != "." && name != ".." && name != "/" && !strings.Contains(op.Value, "...") {
				s.fileRef(cmd, Word{Value: name, Pos: op.Pos}, RefArg, useWrite)
			}
			break
		}
	}
}

// splitRefs: split [OPTION]... [FILE [PREFIX]] writes PREFIXaa, PREFIXab,
// … (x by default) in PREFIX's directory: names the gate cannot list, so
// the directory itself is a write.
func (s *state) splitRefs(cmd *Command, ops []Word) {
	if len(ops) > 0 {
		s.argRef(cmd, ops[0], useRead)
	}
	prefix := Word{Value: "x", Pos: cmd.Argv[0].Pos}
	if len(ops) > 1 {
		prefix = ops[1]
	}
	dir := prefix
	dir.Value = path.Dir(prefix.Value)
	s.fileRef(cmd, dir, RefArg, useWrite)
	s.fileRef(cmd, prefix, RefArg, useWrite)
}

// isGitMagic reports a git operand with pathspec magic (:(icase)x, :!x,
// :^x, :(top)x, :/x) under mode (--literal-pathspecs turns it off).
func isGitMagic(op Word, mode pathspecMode) bool {
	v := op.Value
	return !op.Dynamic && !mode.literal && len(v) >= 2 && v[0] == ':' && strings.IndexByte("(!^/", v[1]) >= 0
}

// gitPathspecMode reads how git will match the pathspecs of cmd: its
// global options before the subcommand (the words MatchArgv drops),
// the command's assignments and env, the trusted environment.
func gitPathspecMode(cmd *Command, env map[string]string) pathspecMode {
	var m pathspecMode
	set := func(name, val string) {
		on := val != "" && val != "0" && !strings.EqualFold(val, "false") && !strings.EqualFold(val, "no") && !strings.EqualFold(val, "off")
		switch name {
		case "GIT_LITERAL_PATHSPECS":
			m.literal = on
		case "GIT_GLOB_PATHSPECS":
			m.glob = on
		case "GIT_NOGLOB_PATHSPECS":
			m.noglob = on
		case "GIT_ICASE_PATHSPECS":
			m.icase = on
		}
	}
	for _, name := range []string{"GIT_LITERAL_PATHSPECS", "GIT_GLOB_PATHSPECS", "GIT_NOGLOB_PATHSPECS", "GIT_ICASE_PATHSPECS"} {
		if v, ok := env[name]; ok {
			set(name, v)
		}
	}
	for _, a := range cmd.Assigns {
		set(a.Name, a.Value.Value)
	}
	n := len(cmd.Args) - len(cmd.MatchArgv) + 1 // git's own options end here
	for k := 1; k < n && k < len(cmd.Args); k++ {
		switch cmd.Args[k] {
		case "--literal-pathspecs":
			m.literal = true
		case "--glob-pathspecs":
			m.glob = true
		case "--noglob-pathspecs":
			m.noglob = true
		case "--icase-pathspecs":
			m.icase = true
		}
	}
	return m
}

func gitStdin(cmd *Command, args []Word) {
	for _, a := range args {
		if a.Value == "--" {
			return
		}
		if name, _, _, ok := longOpt(a.Value); ok && gitEntry().roles.union(name)&readsInput != 0 && (len(name) > 2 || name == "stdin") {
			cmd.Unknown = append(cmd.Unknown, UnknownRef{Pos: a.Pos,
				Message: "git reads the paths or objects of " + a.Value + " from input the gate does not see"})
			return
		}
	}
}

// fileCmdRefs: file [-m LIST] [-f NAMEFILE] FILE…: LIST is
// colon-separated magic files (file -m .env:/dev/null prints the lines of
// .env it cannot parse), NAMEFILE names more files to read.
func (s *state) fileCmdRefs(cmd *Command, args []Word) {
	var ops []Word
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if a.Dynamic || len(v) < 2 || v[0] != '-' {
			ops = append(ops, a)
			continue
		}
		if v == "--" {
			ops = append(ops, args[i+1:]...)
			break
		}
		kind, val, has := byte(0), "", false
		if name, lv, hv, long := longOpt(v); long {
			switch {
			case longIs(name, "magic-file"):
				kind = 'm'
			case longIs(name, "files-from"):
				kind = 'f'
			case longIs(name, "exclude", "exclude-quiet", "separator", "parameter"):
				kind = 's'
			}
			val, has = lv, hv
		} else {
			for j := 1; j < len(v); j++ {
				if c := v[j]; c == 'm' || c == 'f' || c == 'e' || c == 'F' || c == 'P' {
					kind, val, has = c, v[j+1:], j+1 < len(v)
					if c != 'm' && c != 'f' {
						kind = 's'
					}
					break
				}
			}
		}
		if kind == 0 {
			continue
		}
		w := Word{Value: val, Pos: a.Pos, Dynamic: a.Dynamic}
		if !has {
			if i+1 >= len(args) {
				break
			}
			i++
			w = args[i]
		}
		switch kind {
		case 'm':
			for _, p := range strings.Split(w.Value, ":") {
				s.fileRef(cmd, Word{Value: p, Pos: w.Pos, Dynamic: w.Dynamic, Glob: w.Glob && !strings.Contains(w.Value, ":"), Pattern: w.Pattern}, RefOption, useRead)
			}
		case 'f':
			s.fileRef(cmd, w, RefOption, useRead)
			cmd.Unknown = append(cmd.Unknown, UnknownRef{Pos: w.Pos, Message: "file reads the names of the files from " + w.Value})
		}
	}
	for _, op := range ops {
		s.argRef(cmd, op, useRead)
	}
}
