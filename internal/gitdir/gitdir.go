package gitdir

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
)

// A Place is a file or (tree) a directory where git keeps what makes
// it run code or change what it does: configuration and hooks.
type Place struct {
	Path string // absolute
	Tree bool   // a directory: everything below it too
}

// Places finds, as git does, where the work tree at or above root
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
// ignoreCase is the last core.ignorecase value of the repository's
// configuration files in the order read ("" when none sets it).
//
// The reading of git's INI syntax is small: what it misreads it protects
// too little of, so path.protected on .git and the sandbox stay the
// backstop.
func Places(root string) (places []Place, common, ignoreCase string) {
	top := root
	for {
		if _, err := os.Lstat(filepath.Join(top, ".git")); err == nil {
			break
		}
		if filepath.Dir(top) == top {
			return nil, "", ""
		}
		top = filepath.Dir(top)
	}
	add := func(p string, tree bool) { places = append(places, Place{filepath.Clean(p), tree}) }
	gitDir := filepath.Join(top, ".git")
	if fi, err := os.Lstat(gitDir); err == nil && fi.Mode().IsRegular() {
		add(gitDir, false)
		if d, err := readGitFile(gitDir); err == nil {
			gitDir = d
		}
	}
	common = gitDir
	if c, err := Common(gitDir); err == nil {
		common = c
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
		hooks, includes, ic := readGitConfig(configs[i])
		if ic != "" {
			ignoreCase = ic
		}
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
	return places, common, ignoreCase
}

// joinPath is dir/p as git writes it before the kernel reads it: p when
// it is absolute, else dir, a slash and p, not cleaned (the kernel
// follows a symbolic link before the .. after it: lnk/../x is not x).
func joinPath(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return dir + "/" + p
}

// expandUser expands a leading ~ (home) or ~NAME (NAME's home directory
// in the user database) as git's interpolate_path does; a path without
// one is returned as it is.
func expandUser(p, home string) (string, error) {
	rest, ok := strings.CutPrefix(p, "~")
	if !ok {
		return p, nil
	}
	name, tail, _ := strings.Cut(rest, "/")
	dir := home
	if name != "" {
		u, err := user.Lookup(name)
		if err != nil {
			return "", fmt.Errorf("cannot expand %s: %w", p, err)
		}
		dir = u.HomeDir
	}
	if dir == "" {
		return "", fmt.Errorf("cannot expand %s: no home directory", p)
	}
	if tail == "" && !strings.Contains(rest, "/") {
		return dir, nil
	}
	return dir + "/" + tail, nil
}

// absFrom returns p, made absolute against dir when it is relative.
func absFrom(dir, p string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(dir, p)
}

// Protected returns the places of Places inside root as
// root-relative paths, a tree with a trailing /, for path.protected.
// Places outside the root are left out: writing there is
// path.outside_root. foldCase is FoldCase's answer, from the same
// reading of git's files.
func Protected(root string) (out []string, foldCase bool) {
	places, common, ignoreCase := Places(root)
	for _, pl := range places {
		rel, err := filepath.Rel(root, pl.Path)
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") || filepath.IsAbs(rel) {
			continue
		}
		rel = filepath.ToSlash(rel)
		if pl.Tree {
			rel += "/"
		}
		out = append(out, rel)
	}
	return out, gitFold(common, ignoreCase)
}

// FoldCase reports whether git matches ignore patterns in the work
// tree at or above root case-insensitively: core.ignorecase as git reads
// it, from the system and global configuration, then the repository's
// (git init sets it by probing the file system). Without a repository,
// or without the setting, it is false, and ignore.Load probes the file
// system itself. A false setting does not stop that probe: where the
// file system ignores case, .ENV opens .env whatever git was told.
func FoldCase(root string) bool {
	_, common, repo := Places(root)
	return gitFold(common, repo)
}

// gitFold decides FoldCase from Places' common directory and
// core.ignorecase value.
func gitFold(common, repo string) bool {
	switch {
	case common == "":
		return false
	case repo != "":
		return gitBool(repo) // the repository's own files come last
	}
	var files []string
	if os.Getenv("GIT_CONFIG_NOSYSTEM") == "" {
		files = append(files, "/etc/gitconfig")
	}
	if g := os.Getenv("GIT_CONFIG_GLOBAL"); g != "" {
		files = append(files, g)
	} else if home, err := os.UserHomeDir(); err == nil {
		xdg := os.Getenv("XDG_CONFIG_HOME")
		if xdg == "" {
			xdg = filepath.Join(home, ".config")
		}
		files = append(files, filepath.Join(xdg, "git", "config"), filepath.Join(home, ".gitconfig"))
	}
	value := ""
	for _, f := range files {
		if _, _, ic := readGitConfig(f); ic != "" {
			value = ic
		}
	}
	return gitBool(value)
}

// configValue reads a value as git does: a comment (# or ;) ends it
// outside double quotes, which are removed.
func configValue(raw string) string {
	var b strings.Builder
	quoted := false
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case c == '"':
			quoted = !quoted
		case (c == '#' || c == ';') && !quoted:
			return strings.TrimSpace(b.String())
		case c == '\\' && i+1 < len(raw):
			i++
			b.WriteByte(raw[i])
		default:
			b.WriteByte(c)
		}
	}
	return strings.TrimSpace(b.String())
}

// gitBool reads a git boolean: true, yes, on, or a non-zero number (a
// key without "=" is true too; readGitConfig gives it as "true").
func gitBool(v string) bool {
	switch strings.ToLower(v) {
	case "true", "yes", "on":
		return true
	}
	n, err := strconv.Atoi(v)
	return err == nil && n != 0
}

// readGitConfig returns the core.hooksPath values, the include paths and
// the last core.ignorecase value of a git config file.
func readGitConfig(file string) (hooks, includes []string, ignoreCase string) {
	f, err := os.Open(file)
	if err != nil {
		return nil, nil, ""
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
			if section == "core" && strings.EqualFold(strings.Fields(line + " #")[0], "ignorecase") {
				ignoreCase = "true" // a bare key is true
			}
			continue
		}
		k = strings.ToLower(strings.TrimSpace(k))
		v = configValue(v)
		switch {
		case section == "core" && k == "hookspath":
			hooks = append(hooks, v)
		case (section == "include" || section == "includeif") && k == "path":
			includes = append(includes, v)
		case section == "core" && k == "ignorecase":
			ignoreCase = v
		}
	}
	return hooks, includes, ignoreCase
}
