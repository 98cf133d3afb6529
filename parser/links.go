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

// linkers are programs whose written operands become links or moved
// trees (cp only with the options below).
var linkers = map[string]bool{"ln": true, "link": true, "mv": true, "rename": true, "cp": true}

// cpLinks reports cp options that copy links as links or make links.
func cpLinks(args []string) bool {
	for _, a := range args[1:] {
		if a == "--" {
			break
		}
		if name, _, _, ok := longOpt(a); ok {
			if longIs(name, "symbolic-link", "link", "recursive", "archive", "no-dereference", "preserve") {
				return true
			}
			continue
		}
		if len(a) > 1 && a[0] == '-' && strings.ContainsAny(a[1:], "slrRadP") {
			return true
		}
	}
	return false
}

// changes returns the paths c changes (absolute when its Cwd is) and
// whether it may change any path at all.
func changes(c *Command) (paths []string, all bool) {
	if len(c.Args) == 0 {
		return nil, false
	}
	base := path.Base(c.Args[0])
	switch {
	case writesTree(c):
		return nil, true
	case base == "mount" || base == "umount" || base == "bindfs" || base == "rename" || base == "prename" || base == "file-rename":
		return nil, true
	case base == "tar" || base == "unzip" || base == "cpio" || base == "rsync" || base == "patch":
		if len(c.Unknown) > 0 || base == "rsync" {
			return nil, true
		}
		return nil, false
	case !linkers[base] || base == "cp" && !cpLinks(c.Args):
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
