package cmdguard

import (
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/cmdguard/cmdguard/ignore"
	"github.com/cmdguard/cmdguard/parser"
	"github.com/cmdguard/cmdguard/policy"
)

// refCheck collects the findings of one command's file references.
type refCheck struct {
	g        *Guard
	c        *parser.Command
	findings *[]policy.Finding
}

func (rc refCheck) add(rule string, p parser.Pos, msg string) {
	rc.addFrom(rule, p, msg, "")
}

// addFrom adds a finding whose source is a file line (an ignore pattern).
func (rc refCheck) addFrom(rule string, p parser.Pos, msg, source string) {
	*rc.findings = append(*rc.findings, policy.Finding{Rule: rule, Message: msg, Pos: pos(p), Source: source})
}

// fileRef checks one file reference of c and appends what it found to
// files (one entry per glob match).
func (g *Guard) fileRef(c *parser.Command, fr *parser.FileRef, files []policy.File, findings *[]policy.Finding) []policy.File {
	rc := refCheck{g: g, c: c, findings: findings}
	f := policy.File{Written: fr.Path, Pos: pos(fr.Pos), Kind: string(fr.Kind), Write: fr.Write, Recursive: fr.Recursive, Dynamic: fr.Dynamic, Maybe: fr.Maybe}
	if fr.Dynamic && fr.Maybe {
		return append(files, f) // a dynamic pattern or option value: nothing to check
	}
	if fr.Dynamic {
		if g.anyIgnore {
			rc.add("ignore.unknown_ref", fr.Pos, quote(fr.Path)+" is not known before it runs: it may name an ignored file")
		}
		return append(files, f)
	}
	base := c.Cwd
	if fr.Kind == parser.RefRev {
		base = g.root // git resolves REV:PATH from the top of the work tree
	} else if c.CwdDynamic && !fr.Maybe && !filepath.IsAbs(fr.Path) {
		rc.add("path.dynamic_cwd", fr.Pos, quote(fr.Path)+" is relative to a directory that is not known before it runs")
	}
	if !fr.Glob {
		return append(files, rc.file(base, fr.Path, fr, f))
	}
	matches, err := parser.Glob(fr.Pattern, base, os.ReadDir)
	if err != nil {
		if fr.Maybe {
			return append(files, f)
		}
		rc.add("ignore.unknown_ref", fr.Pos, "cannot expand "+quote(fr.Path)+": "+err.Error())
		return append(files, f)
	}
	if len(matches) == 0 {
		return append(files, rc.file(base, fr.Path, fr, f)) // bash passes the pattern itself
	}
	for _, m := range matches {
		f.Written = m
		files = append(files, rc.file(base, m, fr, f))
	}
	return files
}

// file resolves one path against base and checks it against the ignore
// rules, the root and the protected paths.
func (rc refCheck) file(base, name string, fr *parser.FileRef, f policy.File) policy.File {
	g := rc.g
	info, err := g.ign.Resolve(base, name)
	if err != nil {
		f.Path = name
		if fr.Maybe {
			return f // probably not a path at all
		}
		rc.add("ignore.unknown_ref", fr.Pos, "cannot resolve "+quote(name)+": "+err.Error())
		return f
	}
	f.Exists, f.IsDir = info.Exists, info.IsDir
	f.OutsideRoot = info.Outside || info.RealOutside
	if info.Outside {
		f.Path = info.Abs
	} else {
		f.Path = info.Rel
	}
	rels := [2]string{info.Rel, info.RealRel}
	n := 2
	if info.RealRel == info.Rel {
		n = 1
	}
	for _, rel := range rels[:n] {
		if rel == "" {
			continue
		}
		if r := g.match(rel, info); r.Ignored && !f.Ignored {
			f.Ignored, f.IgnoredBy = true, r.Source
			by := r.Source
			if by == "builtin" {
				by = "the built-in policy"
			}
			msg := quote(name) + " is ignored by " + by + " (" + r.Pattern + ")"
			if rel != info.Rel {
				msg = quote(name) + " resolves to " + rel + ", which is ignored by " + by + " (" + r.Pattern + ")"
			}
			rc.addFrom("ignore.denied", fr.Pos, msg, r.Source)
		}
		if (fr.Write || !isReader(rc.c.MatchArgv)) && g.isProtected(rel) {
			verb := "writes "
			if !fr.Write {
				verb = "names " // a program that may write through an option the gate does not know
			}
			rc.add("path.protected", fr.Pos, verb+rel+", which steers the gate or git")
			break
		}
	}
	if f.OutsideRoot && !fr.Maybe {
		where := info.Abs
		if !info.Outside {
			where = info.Real
		}
		rc.add("path.outside_root", fr.Pos, quote(name)+" leaves the project root ("+where+")")
	}
	if fr.Recursive && !fr.Maybe && info.IsDir && !f.Ignored && !f.OutsideRoot && g.ign.ContainsIgnored(info.RealRel) {
		rc.add("ignore.contains_ignored", fr.Pos, quote(name)+" contains ignored files and is read recursively")
	}
	return f
}

// match matches a root-relative path: as what it is when it exists, else
// as both file and directory.
func (g *Guard) match(rel string, info ignore.PathInfo) ignore.Result {
	if rel == "." {
		return ignore.Result{}
	}
	if info.Exists {
		return g.ign.Match(rel, info.IsDir)
	}
	return g.ign.MatchPath(rel)
}

// isProtected reports whether a write to the root-relative path rel could
// change what the gate or git runs: .git/hooks, .git/config, the .git
// directory itself, policy files and ignore files.
func (g *Guard) isProtected(rel string) bool {
	switch {
	case rel == ".git", rel == ".git/config", rel == ".git/hooks", len(rel) > 10 && rel[:10] == ".git/hooks" && rel[10] == '/':
		return true
	case path.Base(rel) == policy.FileName, g.ign.IsIgnoreFile(rel):
		return true
	case nestedGitInternal(rel):
		return true
	}
	for _, p := range g.protected {
		if rel == p || strings.HasSuffix(p, "/") && (rel == p[:len(p)-1] || strings.HasPrefix(rel, p)) {
			return true
		}
	}
	return false
}

// gitProtected finds where git really keeps this repository's
// configuration and hooks, as git finds them, and returns them as
// root-relative paths to protect (a trailing / protects a whole tree):
// .git may be a file naming the git directory (git init
// --separate-git-dir, worktrees), a worktree's git directory names the
// shared one in commondir, core.hooksPath moves the hooks, and
// include.path / includeIf.*.path pull in more configuration. Paths
// outside the root are not returned (writing there is
// path.outside_root).
func gitProtected(root string) []string {
	var out []string
	add := func(abs string, tree bool) {
		rel, err := filepath.Rel(root, abs)
		if err != nil || rel == ".." || strings.HasPrefix(rel, "../") || filepath.IsAbs(rel) {
			return
		}
		rel = filepath.ToSlash(rel)
		if tree {
			rel += "/"
		}
		out = append(out, rel)
	}
	gitDir := filepath.Join(root, ".git")
	if b, err := os.ReadFile(gitDir); err == nil { // a file: "gitdir: PATH"
		if d, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:"); ok {
			gitDir = strings.TrimSpace(d)
			if !filepath.IsAbs(gitDir) {
				gitDir = filepath.Join(root, gitDir)
			}
		}
	}
	dirs := []string{gitDir}
	if b, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		c := strings.TrimSpace(string(b))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		dirs = append(dirs, c)
	}
	configs := []string{}
	for _, d := range dirs {
		add(d, false)
		add(filepath.Join(d, "config"), false)
		add(filepath.Join(d, "config.worktree"), false)
		add(filepath.Join(d, "hooks"), true)
		add(filepath.Join(d, "info"), true)
		configs = append(configs, filepath.Join(d, "config"), filepath.Join(d, "config.worktree"))
	}
	for i := 0; i < len(configs) && i < 16; i++ {
		hooks, includes := readGitConfig(configs[i])
		for _, h := range hooks {
			if !filepath.IsAbs(h) {
				h = filepath.Join(root, h)
			}
			add(h, true)
		}
		for _, inc := range includes {
			if !filepath.IsAbs(inc) {
				inc = filepath.Join(filepath.Dir(configs[i]), inc)
			}
			add(inc, false)
			configs = append(configs, inc)
		}
	}
	return out
}

// readGitConfig returns the core.hooksPath values and the include paths
// of a git config file (a small reading of git's INI syntax: enough to
// find these keys; what it misreads it protects too little of, so the
// sandbox and path.protected on .git stay the backstop).
func readGitConfig(file string) (hooks, includes []string) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, nil
	}
	section := ""
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
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

// unknownRef checks an argument the gate cannot see (xargs stdin, find's
// {}): it is a finding unless the place it comes from is known to hold no
// ignored file.
func (g *Guard) unknownRef(c *parser.Command, u parser.UnknownRef, findings *[]policy.Finding) {
	if !g.anyIgnore {
		return
	}
	rc := refCheck{g: g, c: c, findings: findings}
	if len(u.From) == 0 || c.CwdDynamic {
		rc.add("ignore.unknown_ref", u.Pos, u.Message)
		return
	}
	for _, from := range u.From {
		info, err := g.ign.Resolve(c.Cwd, from)
		if err != nil || info.Outside || info.RealOutside || g.ign.ContainsIgnored(info.RealRel) ||
			g.match(info.Rel, info).Ignored || g.match(info.RealRel, info).Ignored {
			rc.add("ignore.unknown_ref", u.Pos, u.Message+" ("+quote(from)+" holds ignored files)")
			return
		}
	}
}

func quote(s string) string {
	if s == "" {
		return `""`
	}
	return "'" + s + "'"
}

// readers are programs that only read the files they are given (their
// writing options, if any, are policy.dangerous_option): naming a
// protected file to one of them is not a write. Any other program that
// names a protected path may write it through an option the gate does not
// know (go build -o .git/hooks/x, sort --out=.cmdguardignore).
var readers = map[string]bool{
	"cat": true, "head": true, "tail": true, "less": true, "more": true, "wc": true,
	"grep": true, "egrep": true, "fgrep": true, "rg": true, "ag": true, "ls": true,
	"stat": true, "file": true, "diff": true, "cmp": true, "comm": true, "nl": true,
	"tac": true, "od": true, "xxd": true, "hexdump": true, "strings": true, "bat": true,
	"md5sum": true, "sha1sum": true, "sha256sum": true, "sha512sum": true, "b2sum": true,
	"realpath": true, "readlink": true, "basename": true, "dirname": true, "du": true,
	"tree": true, "test": true, "[": true, "[[": true, "cd": true, "pushd": true,
}

// gitReaders are the git subcommands that only read.
var gitReaders = map[string]bool{
	"diff": true, "show": true, "log": true, "blame": true, "status": true,
	"ls-files": true, "cat-file": true, "grep": true, "check-ignore": true, "rev-parse": true,
}

func isReader(argv []string) bool {
	switch {
	case len(argv) == 0:
		return false
	case argv[0] == "git":
		return len(argv) > 1 && gitReaders[argv[1]]
	}
	return readers[argv[0]]
}

// nestedGitInternal reports a path into the git directory of any
// repository in the tree (a nested repository or a vendored one runs its
// own hooks): .git itself, .git/config, .git/hooks and what is under it.
func nestedGitInternal(rel string) bool {
	for i := strings.Index(rel, ".git"); i >= 0; {
		if i == 0 || rel[i-1] == '/' {
			switch rest := rel[i+4:]; {
			case rest == "", rest == "/config", rest == "/hooks", strings.HasPrefix(rest, "/hooks/"):
				return true
			}
		}
		j := strings.Index(rel[i+4:], ".git")
		if j < 0 {
			break
		}
		i += 4 + j
	}
	return false
}
