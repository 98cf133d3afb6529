package parser

import (
	"path"
	"strings"
)

// Commands that change what a path names: they create links, move or
// rename directories, or write files the gate cannot list (a checkout, an
// extraction). After one of them, the file system is no longer the one
// the gate looks at, so a later reference that passes through a changed
// path is unknown. Since loops repeat, "later" is any other command of
// the source.

// linksOpt reports an option of args (before --) with role makesLinks:
// a long one, maybe abbreviated, or a letter of a word with one dash.
func linksOpt(args []string, roles *roleTable) bool {
	for _, a := range args[1:] {
		if a == "--" {
			break
		}
		if name, _, _, ok := longOpt(a); ok {
			if roles.union(name)&makesLinks != 0 {
				return true
			}
			continue
		}
		if len(a) > 1 && a[0] == '-' {
			for j := 1; j < len(a); j++ {
				if roles.shortRole(a[j])&makesLinks != 0 {
					return true
				}
			}
		}
	}
	return false
}

// changes returns the paths c changes (absolute when its Cwd is) and
// whether it may change any path at all (its entry's changes).
func changes(c *Command) (paths []string, all bool) {
	if len(c.Args) == 0 {
		return nil, false
	}
	p := progs()[path.Base(c.Args[0])]
	switch {
	case writesTree(c):
		return nil, true
	case p == nil:
		return nil, false
	case p.changes == changesAny:
		return nil, true
	case p.changes == changesUnlisted:
		return nil, len(c.Unknown) > 0
	case p.changes != changesWritten || p.roles != nil && p.roles.any&makesLinks != 0 && !linksOpt(c.Args, p.roles):
		return nil, false
	}
	if len(c.Unknown) > 0 || c.CwdDynamic {
		return nil, true
	}
	for _, f := range c.Files {
		if !f.Write {
			continue
		}
		if f.Dynamic || f.Glob {
			return nil, true
		}
		paths = append(paths, joinDir(c.Cwd, f.Path))
	}
	return paths, false
}

// linkPass adds an UnknownRef to every reference that passes through a
// path another command changes. The references themselves stay as they
// are, so what they are denied for still holds.
func (s *state) linkPass() {
	type change struct {
		cmd   int
		paths []string
		all   bool
	}
	var chs []change
	for i := range s.res.Commands {
		if p, all := changes(&s.res.Commands[i]); all || len(p) > 0 {
			chs = append(chs, change{i, p, all})
		}
	}
	if len(chs) == 0 {
		return
	}
	for i := range s.res.Commands {
		c := &s.res.Commands[i]
		for _, ch := range chs {
			if ch.cmd == i {
				continue
			}
			by := strings.Join(s.res.Commands[ch.cmd].Args, " ")
			if len(by) > 60 {
				by = by[:60] + "…"
			}
			if ch.all && len(c.Files)+len(c.Unknown) > 0 {
				c.Unknown = append(c.Unknown, UnknownRef{Pos: c.Pos,
					Message: "`" + by + "` changes files the gate cannot list before this command runs"})
				break
			}
			if p, ok := passes(c, ch.paths); ok {
				c.Unknown = append(c.Unknown, UnknownRef{Pos: p,
					Message: "this path passes through one that `" + by + "` links or moves before it runs"})
				break
			}
		}
	}
}

// passes reports a reference of c that passes through one of changed:
// some prefix of its components (before cleaning: s2/.. goes through s2)
// is a changed path, or a recursive read holds one.
func passes(c *Command, changed []string) (Pos, bool) {
	for _, f := range c.Files {
		if f.Maybe || f.Kind == RefRev {
			continue
		}
		if f.Glob || f.Dynamic {
			return f.Pos, true // what it names is not known: it may pass through
		}
		p := f.Path
		if !path.IsAbs(p) {
			p = c.Cwd + "/" + p
		}
		full := path.Clean(p)
		for _, ch := range changed {
			if f.Recursive && strings.HasPrefix(ch, full+"/") || full == ch || strings.HasPrefix(full, ch+"/") {
				return f.Pos, true
			}
			// s2/../x passes through s2 although it does not start with it.
			for i := 0; i < len(p); i++ {
				if p[i] == '/' && i > 0 && path.Clean(p[:i]) == ch {
					return f.Pos, true
				}
			}
		}
	}
	for _, ch := range changed {
		if c.Cwd == ch || strings.HasPrefix(c.Cwd, ch+"/") {
			return c.Pos, true
		}
	}
	return Pos{}, false
}
