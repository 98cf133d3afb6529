package cmdguard

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// A gitPlace is a file or (tree) a directory where git keeps what makes
// it run code or change what it does: configuration and hooks.
type gitPlace struct {
	path string // absolute
	tree bool   // a directory: everything below it too
}

// gitPlaces finds, as git does, where the work tree at or above root
// keeps its configuration and hooks, and returns them with the common git
// directory ("" when there is no repository):
//
//   - .git is a directory, or a file "gitdir: PATH" (git init
//     --separate-git-dir, worktrees, submodules), which is itself a place;
//   - a worktree's git directory names the shared one in commondir;
//   - in each: config, config.worktree, commondir, hooks/ and info/;
//   - core.hooksPath moves the hooks (~/ is the home directory), and
//     include.path / includeIf.*.path pull in more configuration
//     (followed up to 16 files);
//   - each submodule's git directory under modules/ has its own config
//     and hooks, which git runs too.
//
// The reading of git's INI syntax is small: what it misreads it protects
// too little of, so path.protected on .git and the sandbox stay the
// backstop.
func gitPlaces(root string) (places []gitPlace, common string) {
	top := root
	for {
		if _, err := os.Lstat(filepath.Join(top, ".git")); err == nil {
			break
		}
		if filepath.Dir(top) == top {
			return nil, ""
		}
		top = filepath.Dir(top)
	}
	add := func(p string, tree bool) { places = append(places, gitPlace{filepath.Clean(p), tree}) }
	gitDir := filepath.Join(top, ".git")
	if fi, err := os.Lstat(gitDir); err == nil && fi.Mode().IsRegular() {
		add(gitDir, false)
		if b, err := os.ReadFile(gitDir); err == nil {
			if d, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:"); ok {
				gitDir = absFrom(top, strings.TrimSpace(d))
			}
		}
	}
	common = gitDir
	if b, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		common = absFrom(gitDir, strings.TrimSpace(string(b)))
	}
	var configs []string
	for _, d := range []string{gitDir, common} {
		add(d, false)
		add(filepath.Join(d, "config"), false)
		add(filepath.Join(d, "config.worktree"), false)
		// commondir names where config and hooks are read from: a
		// written one points git at a config of the writer's choosing.
		add(filepath.Join(d, "commondir"), false)
		add(filepath.Join(d, "hooks"), true)
		add(filepath.Join(d, "info"), true)
		configs = append(configs, filepath.Join(d, "config"), filepath.Join(d, "config.worktree"))
		if d == common {
			break
		}
	}
	filepath.WalkDir(filepath.Join(common, "modules"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if fi, err := os.Stat(filepath.Join(p, "HEAD")); err == nil && fi.Mode().IsRegular() {
			add(filepath.Join(p, "config"), false)
			add(filepath.Join(p, "config.worktree"), false)
			add(filepath.Join(p, "hooks"), true)
		}
		switch d.Name() {
		case "objects", "refs", "logs", "hooks", "info", "lfs":
			return filepath.SkipDir
		}
		return nil
	})
	home, _ := os.UserHomeDir()
	for i := 0; i < len(configs) && i < 16; i++ {
		hooks, includes := readGitConfig(configs[i])
		for _, h := range hooks {
			if rest, ok := strings.CutPrefix(h, "~/"); ok && home != "" {
				h = filepath.Join(home, rest)
			}
			add(absFrom(top, h), true)
		}
		for _, inc := range includes {
			if rest, ok := strings.CutPrefix(inc, "~/"); ok && home != "" {
				inc = filepath.Join(home, rest)
			}
			inc = absFrom(filepath.Dir(configs[i]), inc)
			add(inc, false)
			configs = append(configs, inc)
		}
	}
	return places, common
}

// absFrom returns p, made absolute against dir when it is relative.
func absFrom(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}

// gitProtected returns the places of gitPlaces inside root as
// root-relative paths, a tree with a trailing /, for path.protected.
// Places outside the root are left out: writing there is
// path.outside_root.
func gitProtected(root string) []string {
	places, _ := gitPlaces(root)
	var out []string
	for _, pl := range places {
		rel, err := filepath.Rel(root, pl.path)
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") || filepath.IsAbs(rel) {
			continue
		}
		rel = filepath.ToSlash(rel)
		if pl.tree {
			rel += "/"
		}
		out = append(out, rel)
	}
	return out
}

// readGitConfig returns the core.hooksPath values and the include paths
// of a git config file.
func readGitConfig(file string) (hooks, includes []string) {
	f, err := os.Open(file)
	if err != nil {
		return nil, nil
	}
	defer f.Close()
	section := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				continue
			}
			section = strings.ToLower(strings.Fields(line[1:end] + " ")[0])
			line = strings.TrimSpace(line[end+1:])
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		k = strings.ToLower(strings.TrimSpace(k))
		v = strings.Trim(strings.TrimSpace(v), `"`)
		switch {
		case section == "core" && k == "hookspath":
			hooks = append(hooks, v)
		case (section == "include" || section == "includeif") && k == "path":
			includes = append(includes, v)
		}
	}
	return hooks, includes
}
