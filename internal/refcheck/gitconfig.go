package refcheck

import (
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cmdguard/cmdguard/internal/gitdir"
	"github.com/cmdguard/cmdguard/parser"
	"github.com/cmdguard/cmdguard/policy"
)

// gitConfig vets the git directory a git command selects: --git-dir,
// --bare, -C, $GIT_DIR of the trusted environment, or discovery from the
// directory it runs in (a .git directory or file, a bare repository, a
// repository outside the project entered with cd). git reads that
// directory's configuration and runs what it names, and its hooks: a key
// that runs a program, or a hook (gitdir.Hooks), is git.config_runs; a key the gate does not know, or a
// configuration it cannot read, is git.config_unknown. The project's own
// repository (x.Git) is the person's: its configuration files are not
// vetted (they are protected paths instead).
func (x *Checker) gitConfig(c *parser.Command, findings *[]policy.Finding) {
	if len(c.Args) == 0 || path.Base(c.Args[0]) != "git" {
		return
	}
	add := func(rule, msg string) {
		*findings = append(*findings, policy.Finding{Rule: rule, Pos: pos(c.Pos), Message: msg})
	}
	call, why := x.selectGitDir(c)
	if why != "" {
		add("git.config_unknown", "cannot tell which git directory git uses: "+why)
		return
	}
	gitDir, from := call.gitDir, call.from
	own := gitDir != "" && x.Git.Dir != "" && gitdir.Real(gitDir) == x.Git.Dir
	if w := x.lateWrite(from, gitDir, own); w != "" {
		add("git.config_unknown", w)
		return
	}
	if gitDir != "" && !own {
		// No repository: git reads only the person's own configuration.
		// The project's own is the person's.
		if x.vetGitDir(gitDir, "git uses "+gitDir, add) {
			return
		}
	}
	// Other git directories the command makes git use: the one git init
	// (re)initialises keeps a configuration and hooks already there; a
	// local repository pushed to or fetched from runs its own.
	for _, o := range x.otherGitDirs(c, call) {
		if x.vetGitDir(o.dir, o.what, add) {
			return
		}
	}
}

// vetGitDir vets the configuration and hooks of the git directory
// gitDir, which what names in messages ("git uses D"), into add; true
// when it added a finding. The project's own is not vetted.
func (x *Checker) vetGitDir(gitDir, what string, add func(rule, msg string)) bool {
	n := 0
	count := func(rule, msg string) { n++; add(rule, msg) }
	x.vetGitDirInto(gitDir, what, count)
	return n > 0
}

func (x *Checker) vetGitDirInto(gitDir, what string, add func(rule, msg string)) {
	real := gitdir.Real(gitDir)
	if x.Git.Dir != "" && real == x.Git.Dir {
		return
	}
	if _, err := realDir(real); err != nil {
		add("git.config_unknown", what+", which does not exist yet: what configuration it will hold is not known before it runs")
		return
	}
	home := ""
	if hs := x.Homes(); len(hs) > 0 {
		home = hs[0]
	}
	// Its hooks run as its configuration's programs do (a linked
	// worktree of the project's own repository shares the person's).
	var hooks []string
	var herr error
	if common, err := gitdir.Common(gitDir); err != nil {
		herr = err
	} else if x.Git.Common == "" || gitdir.Real(common) != x.Git.Common {
		hooks, herr = gitdir.Hooks(common)
	}
	if len(hooks) > 0 {
		add("git.config_runs", what+", whose hook "+hooks[0]+" runs when git reaches it")
		return
	}
	entries, files, missing, err := gitdir.Configs(gitDir, home)
	if err == nil && len(files) == 0 {
		add("git.config_unknown", what+", which has no configuration yet: one written before git runs is not known")
		return
	}
	var unknown string
	for _, e := range entries {
		if slices.Contains(x.Git.Files, gitdir.Real(e.File)) {
			continue // the project's own configuration (a linked worktree shares it)
		}
		switch gitdir.Classify(e.Key, e.Value) {
		case gitdir.Runs:
			add("git.config_runs", "git reads the configuration of "+gitDir+" ("+e.File+"), whose "+e.Key+" runs a program ("+quote(e.Value)+")")
			return
		case gitdir.Unknown:
			if unknown == "" {
				unknown = e.Key + " (" + e.File + ")"
			}
		}
	}
	switch {
	case err != nil:
		add("git.config_unknown", "cannot read the configuration git reads in "+gitDir+": "+err.Error())
	case len(missing) > 0:
		add("git.config_unknown", "git reads the configuration of "+gitDir+", which includes "+missing[0]+": it does not exist yet, and one written before git runs is not known")
	case herr != nil:
		add("git.config_unknown", "cannot read the hooks of "+gitDir+": "+herr.Error())
	case unknown != "":
		add("git.config_unknown", "git reads the configuration of "+gitDir+", which sets "+unknown+": a key the gate does not know may run a program")
	}
}

// A gitCall is how a git command selects its git directory.
type gitCall struct {
	gitDir string // the git directory it uses ("" when there is none)
	from   string // where its discovery starts ("" when an option or $GIT_DIR names it)
	dir    string // the directory it runs in, after -C
	sub    int    // the index in Argv of its subcommand (len(Argv) when none)
}

// selectGitDir returns how git selects its git directory for c, or why
// it cannot be known.
func (x *Checker) selectGitDir(c *parser.Command) (call gitCall, why string) {
	gitDir, from, why := x.selectGitDirAt(c, &call)
	call.gitDir, call.from = gitDir, from
	return call, why
}

func (x *Checker) selectGitDirAt(c *parser.Command, call *gitCall) (gitDir, from, why string) {
	if c.CwdDynamic {
		return "", "", "it runs in a directory not known before it runs"
	}
	dir := c.Cwd
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(x.Root, dir)
	}
	// A remembered answer for dir holds only while dir is the directory
	// it was: it exists.
	found, known := x.Finder.Lookup(dir)
	if !known {
		if _, err := realDir(dir); err != nil {
			return "", "", "it runs in " + dir + ", which does not exist yet (" + err.Error() + ")"
		}
	}
	start := dir
	opt, bare := "", false
	argv := c.Argv
	call.sub = len(argv)
	defer func() { call.dir = dir }()
loop:
	for i := 1; i < len(argv); i++ {
		w := argv[i]
		if w.Dynamic {
			return "", "", "the option " + quote(w.Value) + " is not known before it runs"
		}
		v := w.Value
		next := func() (string, bool) {
			if i+1 >= len(argv) || argv[i+1].Dynamic {
				return "", false
			}
			i++
			return argv[i].Value, true
		}
		switch {
		case v == "-C":
			d, ok := next()
			if !ok {
				return "", "", "git -C names a directory not known before it runs"
			}
			if d == "" {
				continue // git -C "" stays
			}
			r, err := realDir(joinPhys(dir, d))
			if err != nil {
				return "", "", "git -C " + quote(d) + ": " + err.Error()
			}
			dir = r
		case v == "--git-dir":
			d, ok := next()
			if !ok {
				return "", "", "--git-dir names a directory not known before it runs"
			}
			opt = d
		case strings.HasPrefix(v, "--git-dir="):
			opt = v[len("--git-dir="):]
		case v == "--bare":
			bare = true
		case v == "-c" || v == "--config-env" || v == "--work-tree" || v == "--namespace" || v == "--super-prefix" || v == "--list-cmds":
			if _, ok := next(); !ok {
				return "", "", v + " takes a value not known before it runs"
			}
		case strings.HasPrefix(v, "-"):
		default:
			call.sub = i
			break loop
		}
	}
	switch {
	case opt != "":
		return joinPhys(dir, opt), "", ""
	case x.GitDirEnv != "":
		return joinPhys(dir, x.GitDirEnv), "", ""
	case bare:
		return dir, "", ""
	case known && dir == start:
		return found, dir, ""
	}
	d, err := x.Finder.Find(dir)
	if err != nil {
		return "", "", err.Error()
	}
	return d, dir, ""
}

// gitInternal reports a real path that is a git directory, or its
// configuration, commondir, HEAD or hooks: whatever its name (a bare
// repository, a hand-made git directory), writing it changes what a git
// command run there executes.
func gitInternal(p string) bool {
	if gitdir.IsGitDir(p) {
		return true
	}
	rest := filepath.Base(p)
	for d, n := filepath.Dir(p), 0; n < 4 && filepath.Dir(d) != d; d, n = filepath.Dir(d), n+1 {
		if gitdir.IsGitDir(d) {
			switch rest {
			case "config", "config.worktree", "commondir", "HEAD", "hooks":
				return true
			}
			return strings.HasPrefix(rest, "hooks/")
		}
		rest = filepath.Base(d) + "/" + rest
	}
	return false
}
