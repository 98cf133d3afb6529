package refcheck

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cmdguard/cmdguard/ignore"
	"github.com/cmdguard/cmdguard/parser"
)

// projectProgram reports whether c runs a file of the project: what the
// policy token {project} names. Either the program word holds a slash
// (./x.sh, bin/x, scripts/test.sh), or npx, pnpx or bunx runs it by its
// name from node_modules/.bin in the directory the command runs in or
// one above it inside the project (npx nx lint). The word is known
// before the command runs; the file resolves, through every symbolic
// link, to a regular file inside the project root, both as written and
// as the kernel opens it; neither path is ignored (the sandbox hides an
// ignored file), protected, or in a git directory; and no command of
// the same line before it may have written it, or a directory that
// holds it, or the file a link of it leads to
// (parser.Command.ProgramWritten, ProgramWrites). Any doubt is false.
func (x *Checker) projectProgram(c *parser.Command) bool {
	if len(c.Argv) == 0 || c.ProgramWritten || c.CwdDynamic || x.Ign == nil {
		return false
	}
	w := c.Argv[0]
	if w.Dynamic || w.Glob || w.Value == "" {
		return false
	}
	var info ignore.PathInfo
	switch {
	case strings.Contains(w.Value, "/") && len(c.Wrappers) == 0:
		i, err := x.Ign.Resolve(c.Cwd, w.Value)
		if err != nil {
			return false
		}
		info = i
	case npxWrapped(c) && !strings.Contains(w.Value, "/") && w.Value != "." && w.Value != "..":
		found := false
		for dir := c.Cwd; dir != "" && inside(x.Root, dir); dir = filepath.Dir(dir) {
			i, err := x.Ign.Resolve(dir, filepath.Join("node_modules", ".bin", w.Value))
			if err == nil && i.Exists {
				info, found = i, true
				break
			}
			if dir == x.Root || filepath.Dir(dir) == dir {
				break
			}
		}
		if !found {
			return false
		}
	default:
		return false
	}
	if !info.Exists || info.IsDir || info.Outside || info.RealOutside || gitInternal(info.Real) {
		return false
	}
	if fi, err := os.Stat(info.Real); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	for _, rel := range []string{info.Rel, info.RealRel} {
		if rel == "" || rel == "." || slices.Contains(strings.Split(rel, "/"), ".git") || x.isProtected(rel) {
			return false
		}
		r, err := match(x.Ign, rel, info)
		if err != nil || r.Ignored {
			return false
		}
	}
	for _, p := range c.ProgramWrites {
		if inside(p, info.Abs) || inside(p, info.Real) {
			return false // the line wrote it, or a directory that holds it
		}
		wi, err := x.Ign.Resolve("", p)
		if err != nil || inside(wi.Real, info.Real) {
			return false // through a link
		}
	}
	return true
}

// npxWrapped reports a command npx, pnpx or bunx runs by name.
func npxWrapped(c *parser.Command) bool {
	if n := len(c.Wrappers); n > 0 {
		switch c.Wrappers[n-1] {
		case "npx", "pnpx", "bunx":
			return true
		}
	}
	return false
}
