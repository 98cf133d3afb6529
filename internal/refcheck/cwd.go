package refcheck

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cmdguard/cmdguard/parser"
	"github.com/cmdguard/cmdguard/policy"
)

// chdir returns c with the directory it runs in as bash's cd steps lead
// there (Cwd), and reports a command that runs outside the root after a
// cd (path.outside_root, as git -C OUTSIDE). A cd that fails where the
// gate looks leaves the lexical reading when bash would agree with it
// whatever exists (no "..", no -P, no cd -), else the directory is
// dynamic. c itself is not changed (it may be the memo's).
func (x *Checker) chdir(c *parser.Command, out *policy.Command, findings *[]policy.Finding) *parser.Command {
	if len(c.Chdirs) == 0 || c.CwdDynamic || x.Start == "" {
		return c
	}
	phys, _, err := Cwd(x.Start, c.Chdirs)
	cc := *c
	switch {
	case err == nil:
		cc.Cwd = phys
		out.Cwd = phys
	case !unsure(c.Chdirs):
		return c
	default:
		cc.CwdDynamic = true
	}
	if err == nil && !inside(x.Root, phys) && !isCd(c) {
		*findings = append(*findings, policy.Finding{Rule: "path.outside_root", Pos: pos(c.Pos),
			Message: "runs in " + phys + ", outside the project root (a cd before it leads there)"})
	}
	return &cc
}

// isCd reports a cd, pushd or popd: moving through a directory outside
// the root does nothing there.
func isCd(c *parser.Command) bool {
	if len(c.Args) == 0 {
		return false
	}
	switch c.Args[0] {
	case "cd", "pushd", "popd":
		return true
	}
	return false
}

// unsure reports whether bash's reading of steps depends on the file
// system beyond following links: a "..", cd -P, cd -.
func unsure(steps []parser.CdStep) bool {
	for _, st := range steps {
		if st.Physical || st.Back || slices.Contains(strings.Split(st.Dir, "/"), "..") {
			return true
		}
	}
	return false
}

// inside reports whether the real path p is root or below it.
func inside(root, p string) bool {
	return p == root || strings.HasPrefix(p, strings.TrimSuffix(root, "/")+"/")
}

// errCdFails is a cd that fails where the gate looks: the command after
// it runs only if an earlier one changes the file system, where the gate
// cannot follow.
var errCdFails = errors.New("the directory does not exist")

// Cwd replays steps from start (the directory the command line starts
// in, absolute) as bash's cd does, with the file system, and returns the
// physical directory the command runs in (symbolic links resolved) and
// bash's $PWD there.
//
// cd -L (the default) joins the operand to $PWD and removes "." and ".."
// as text, but fails that reading when a component before a ".." is not
// a directory; it then lets the kernel resolve the joined path (a
// symbolic link is followed before the ".." after it). When the textual
// result is not a directory, bash tries the operand as given, from the
// physical directory. cd -P (and env -C, sudo -D) is the kernel's
// resolution from the physical directory. cd - goes to $OLDPWD.
func Cwd(start string, steps []parser.CdStep) (phys, pwd string, err error) {
	pwd = filepath.Clean(start)
	phys, err = realDir(pwd)
	if err != nil {
		return "", "", err
	}
	oldpwd := ""
	for _, st := range steps {
		dir := st.Dir
		if st.Back {
			if oldpwd == "" {
				return "", "", errors.New("cd -: OLDPWD is not known")
			}
			dir = oldpwd
		}
		if dir == "" {
			return "", "", errCdFails // bash: cd "" stays; the parser knew no such step
		}
		prev := pwd
		if st.Physical {
			r, err := realDir(joinPhys(phys, dir))
			if err != nil {
				return "", "", err
			}
			phys, pwd = r, r
		} else {
			t := dir
			if !filepath.IsAbs(t) {
				t = pwd + "/" + dir
			}
			if canon, ok := canonPath(t); ok {
				if r, err := realDir(canon); err == nil {
					phys, pwd = r, canon
				} else if r, err := realDir(joinPhys(phys, dir)); err == nil {
					phys, pwd = r, r // the operand as given, from the physical directory
				} else {
					return "", "", err
				}
			} else {
				r, err := realDir(t)
				if err != nil {
					return "", "", err
				}
				phys, pwd = r, r
			}
		}
		oldpwd = prev
	}
	return phys, pwd, nil
}

// joinPhys is dir taken from the physical directory phys, unclean: the
// kernel resolves it.
func joinPhys(phys, dir string) string {
	if filepath.IsAbs(dir) {
		return dir
	}
	return phys + "/" + dir
}

// realDir resolves p as the kernel does (each symbolic link before the
// ".." that follows it) and requires a directory.
func realDir(p string) (string, error) {
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", err
	}
	fi, err := os.Stat(r)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", errCdFails
	}
	return r, nil
}

// canonPath is bash's sh_canonpath with PATH_CHECKDOTDOT on the absolute
// path t: "." and empty components go, ".." removes the component before
// it as text, after checking that the path so far is a directory (a
// symbolic link to one is): when it is not, ok is false.
func canonPath(t string) (string, bool) {
	var out []string
	for _, e := range strings.Split(t, "/") {
		switch e {
		case "", ".":
		case "..":
			if len(out) > 0 {
				if fi, err := os.Stat("/" + strings.Join(out, "/")); err != nil || !fi.IsDir() {
					return "", false
				}
				out = out[:len(out)-1]
			}
		default:
			out = append(out, e)
		}
	}
	return "/" + strings.Join(out, "/"), true
}
