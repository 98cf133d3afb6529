package refcheck

import (
	"os"
	"slices"
	"strings"

	"github.com/cmdguard/cmdguard/parser"
)

// projectProgram reports whether c runs a file of the project by a path
// (./x.sh, bin/x, scripts/test.sh): what the policy token {project}
// names. The program word holds a slash and is known before the command
// runs; it resolves, from the directory the command runs in and through
// every symbolic link, to a regular file inside the project root, both
// as written and as the kernel opens it; neither path is ignored (the
// sandbox hides an ignored file), protected, or in a git directory; and
// no command of the same line before it may have written it
// (parser.Command.ProgramWritten). Any doubt is false.
func (x *Checker) projectProgram(c *parser.Command) bool {
	if len(c.Argv) == 0 || c.ProgramWritten || c.CwdDynamic || len(c.Wrappers) != 0 {
		return false
	}
	w := c.Argv[0]
	if w.Dynamic || w.Glob || !strings.Contains(w.Value, "/") || x.Ign == nil {
		return false
	}
	info, err := x.Ign.Resolve(c.Cwd, w.Value)
	if err != nil || !info.Exists || info.IsDir || info.Outside || info.RealOutside || gitInternal(info.Real) {
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
	return true
}
