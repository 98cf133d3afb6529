package refcheck

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cmdguard/cmdguard/internal/gitdir"
	"github.com/cmdguard/cmdguard/parser"
)

// otherGit is a git directory a git command makes git use besides the
// one it selects, and the words that name it in a message.
type otherGit struct{ dir, what string }

// otherGitDirs returns the other git directories c makes git read the
// configuration of or run the hooks of:
//
//   - git init keeps a configuration and hooks already in the git
//     directory it (re)initialises (--bare, --separate-git-dir, DIR/.git):
//     made by plain writes, they are a repository's a later command
//     uses (as a submodule's git directory, which the own repository's
//     commands enter);
//   - a repository on this machine that push, fetch, pull, clone,
//     ls-remote or archive --remote talk to runs git there
//     (receive-pack, upload-pack, upload-archive): its configuration and
//     hooks (pre-receive, reference-transaction, …) run. A remote's name
//     is looked up in the configuration of the git directory in use;
//     with none named, every remote it lists counts.
func (x *Checker) otherGitDirs(c *parser.Command, call gitCall) []otherGit {
	argv := c.Argv
	if call.sub >= len(argv) || argv[call.sub].Dynamic {
		return nil
	}
	args := argv[call.sub+1:]
	switch sub := argv[call.sub].Value; sub {
	case "init":
		if gd := initGitDir(args, call); holdsGitFiles(gd) {
			return []otherGit{{gd, "git init keeps the configuration and hooks already in " + gd}}
		}
		return nil
	case "push", "fetch", "pull", "clone", "ls-remote", "archive":
		return x.localRemotes(sub, args, call)
	}
	return nil
}

// initGitDir is the git directory git init (args) sets up.
func initGitDir(args []parser.Word, call gitCall) string {
	bare, sep, target := call.gitDir != "" && call.from == "" && call.gitDir == call.dir, "", ""
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		switch {
		case v == "--bare":
			bare = true
		case v == "--separate-git-dir" && i+1 < len(args):
			i++
			sep = args[i].Value
		case strings.HasPrefix(v, "--separate-git-dir="):
			sep = v[len("--separate-git-dir="):]
		case v == "-b" || v == "--initial-branch" || v == "--object-format" || v == "--ref-format" || v == "--template":
			i++
		case v == "--":
			if i+1 < len(args) {
				target = args[i+1].Value
			}
			i = len(args)
		case strings.HasPrefix(v, "-"):
		case target == "":
			target = v
		}
	}
	dir := call.dir
	if target != "" {
		dir = joinPhys(call.dir, target)
	}
	gd := dir + "/.git"
	switch {
	case sep != "":
		gd = joinPhys(call.dir, sep)
	case bare:
		gd = dir
	}
	return gd
}

// madeGitDir returns the git directory a git init before the command at
// x.At on the line sets up that holds p ("" when none does): until it
// runs, writing there is writing no git directory's files.
func (x *Checker) madeGitDir(p string) string {
	for j := range x.Line {
		c := &x.Line[j]
		if j == x.At || !parser.RunsBefore(x.Line, j, x.At) || len(c.Args) == 0 || filepath.Base(c.Args[0]) != "git" ||
			!slices.Contains(c.Args, "init") {
			continue // (a word init first: selectGitDir may walk git's discovery)
		}
		call, why := x.selectGitDir(c)
		if why != "" || call.sub >= len(c.Argv) || c.Argv[call.sub].Value != "init" {
			continue
		}
		gd := initGitDir(c.Argv[call.sub+1:], call)
		if r, err := filepath.EvalSymlinks(filepath.Dir(gd)); err == nil {
			gd = filepath.Join(r, filepath.Base(gd))
		}
		if inside(gd, p) {
			return gd
		}
	}
	return ""
}

// holdsGitFiles reports a directory that holds a config file or a hooks
// directory with entries.
func holdsGitFiles(d string) bool {
	if _, err := os.Lstat(filepath.Join(d, "config")); err == nil {
		return true
	}
	es, _ := os.ReadDir(filepath.Join(d, "hooks"))
	return len(es) > 0
}

// localRemotes are the repositories on this machine that sub (push,
// fetch, …) with args talks to. Every word is taken for a repository
// (a remote's name, a URL or a path), an option's value too (-o x ./X
// names ./X, whatever options take a value): a refspec or a value is no
// repository on this machine, so it costs a look only. When no word
// names a remote, a URL or a path, every remote the configuration
// names counts (git push -o x pushes to the default one).
func (x *Checker) localRemotes(sub string, args []parser.Word, call gitCall) []otherGit {
	var named []string
	for _, a := range args {
		v := a.Value
		switch {
		case a.Dynamic:
		case strings.HasPrefix(v, "-"):
			if _, val, ok := strings.Cut(v, "="); ok {
				named = append(named, val)
			}
		default:
			named = append(named, v)
		}
	}
	remotes := x.remoteURLs(call.gitDir)
	var urls []string
	explicit := false
	for _, n := range named {
		if us, ok := remotes[n]; ok {
			urls, explicit = append(urls, us...), true
			continue
		}
		urls = append(urls, n)
		explicit = explicit || n == "." || n == ".." || strings.ContainsAny(n, "/:")
	}
	if !explicit && sub != "archive" && sub != "clone" {
		// No remote's name, URL or path among the words: the default
		// remote (origin, or the branch's), which may be any remote
		// the configuration names.
		for _, us := range remotes {
			urls = append(urls, us...)
		}
	}
	// A relative path is git's after it moved to the top of the work
	// tree (git push B from sub pushes to TOP/B); the directory the
	// command runs in and the project root are looked at too.
	bases := []string{call.dir, x.Root}
	if filepath.Base(call.gitDir) == ".git" {
		bases = append(bases, filepath.Dir(call.gitDir))
	}
	var out []otherGit
	for _, u := range urls {
		p, ok := gitdir.LocalURL(u)
		if !ok {
			continue
		}
		for _, b := range bases {
			if d := repoAt(joinPhys(b, p)); d != "" && !slices.ContainsFunc(out, func(o otherGit) bool { return o.dir == d }) {
				out = append(out, otherGit{d, "git " + sub + " runs git in " + d})
			}
		}
	}
	return out
}

// remoteURLs are the remotes the configuration of gitDir names, by name:
// remote.NAME.url and pushurl, and the URLs or paths a branch's remote,
// push remote or remote.pushDefault name (under their own value).
func (x *Checker) remoteURLs(gitDir string) map[string][]string {
	if gitDir == "" {
		return nil
	}
	home := ""
	if hs := x.Homes(); len(hs) > 0 {
		home = hs[0]
	}
	entries, _, _, _ := gitdir.Configs(gitDir, home)
	out := map[string][]string{}
	for _, e := range entries {
		if strings.HasPrefix(e.Key, "branch.") && (strings.HasSuffix(e.Key, ".remote") || strings.HasSuffix(e.Key, ".pushremote")) || e.Key == "remote.pushdefault" {
			// A branch's remote may be a URL or a path in place of a
			// name (git push -u ./X sets one): listed under its own
			// value, it counts for the default remote.
			out[e.Value] = append(out[e.Value], e.Value)
			continue
		}
		rest, ok := strings.CutPrefix(e.Key, "remote.")
		if !ok {
			continue
		}
		if name, ok := strings.CutSuffix(rest, ".url"); ok {
			out[name] = append(out[name], e.Value)
		} else if name, ok := strings.CutSuffix(rest, ".pushurl"); ok {
			out[name] = append(out[name], e.Value)
		}
	}
	return out
}

// repoAt returns the git directory git's local transport enters at p
// (enter_repo: p/.git, p, p.git), "" when there is none.
func repoAt(p string) string {
	for _, d := range []string{p + "/.git", p, p + ".git"} {
		if gitdir.IsGitDir(d) {
			return d
		}
	}
	return ""
}
