package gitdir

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// An Entry is one key of a git configuration file, as git reads it.
type Entry struct {
	Key   string // section[.subsection].name; section and name lower-case
	Value string // "true" for a key without "="
	File  string // the file it is in
}

// maxConfigSize bounds a configuration file the gate reads.
const maxConfigSize = 1 << 20

// ReadConfig reads one git configuration file. Its reading is strict:
// what it cannot read exactly as git does (a malformed line, an unknown
// escape, a NUL byte) is an error, so that the caller can refuse rather
// than miss a key. A missing file is fs.ErrNotExist.
func ReadConfig(file string) ([]Entry, error) {
	fi, err := os.Stat(file)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", file)
	}
	if fi.Size() > maxConfigSize {
		return nil, fmt.Errorf("%s is larger than %d bytes", file, maxConfigSize)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	es, err := parseConfig(string(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	for i := range es {
		es[i].File = file
	}
	return es, nil
}

// parseConfig reads git's configuration syntax (config.c's parser).
func parseConfig(s string) ([]Entry, error) {
	s = strings.TrimPrefix(s, "\uFEFF")
	if strings.IndexByte(s, 0) >= 0 {
		return nil, errors.New("a NUL byte")
	}
	var out []Entry
	section := ""
	line := 1
	bad := func(what string) error { return fmt.Errorf("line %d: %s", line, what) }
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case c == '#' || c == ';':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '[':
			j := i + 1
			for j < len(s) && isKeyChar(s[j]) || j < len(s) && s[j] == '.' {
				j++
			}
			name := strings.ToLower(s[i+1 : j])
			if name == "" {
				return nil, bad("an empty section name")
			}
			switch {
			case j < len(s) && s[j] == ']':
				if sec, sub, ok := strings.Cut(name, "."); ok {
					if sec == "" || sub == "" {
						return nil, bad("a malformed section name")
					}
				}
				section = name
				i = j + 1
			case j < len(s) && (s[j] == ' ' || s[j] == '\t'):
				if strings.Contains(name, ".") {
					return nil, bad("a dotted section name with a subsection")
				}
				for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
					j++
				}
				if j >= len(s) || s[j] != '"' {
					return nil, bad("a subsection not in quotes")
				}
				j++
				var sub strings.Builder
				for {
					if j >= len(s) || s[j] == '\n' {
						return nil, bad("an unterminated subsection")
					}
					if s[j] == '"' {
						j++
						break
					}
					if s[j] == '\\' {
						j++
						if j >= len(s) || s[j] == '\n' {
							return nil, bad("an unterminated subsection")
						}
					}
					sub.WriteByte(s[j])
					j++
				}
				if j >= len(s) || s[j] != ']' {
					return nil, bad("a section header without ]")
				}
				section = name + "." + sub.String()
				i = j + 1
			default:
				return nil, bad("a malformed section header")
			}
		case isAlpha(c):
			if section == "" {
				return nil, bad("a key outside a section")
			}
			j := i
			for j < len(s) && isKeyChar(s[j]) {
				j++
			}
			key := section + "." + strings.ToLower(s[i:j])
			for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
				j++
			}
			switch {
			case j >= len(s) || s[j] == '\n' || s[j] == '\r' || s[j] == '#' || s[j] == ';':
				out = append(out, Entry{Key: key, Value: "true"})
				i = j
			case s[j] == '=':
				v, n, lines, err := parseValue(s[j+1:])
				if err != nil {
					return nil, bad(err.Error())
				}
				out = append(out, Entry{Key: key, Value: v})
				line += lines
				i = j + 1 + n
			default:
				return nil, bad("a key followed by something other than =")
			}
		default:
			return nil, bad(fmt.Sprintf("an unexpected %q", c))
		}
	}
	return out, nil
}

// parseValue reads a value up to the end of its line: it returns the
// value, the bytes read (not the newline) and the lines continued.
func parseValue(s string) (string, int, int, error) {
	var b strings.Builder
	quoted := false
	lines := 0
	trail := 0 // the length of b before trailing blanks outside quotes
	i := 0
	for ; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\n':
			if quoted {
				return "", 0, 0, errors.New("a newline inside quotes")
			}
			return b.String()[:trail], i, lines, nil
		case c == '\r' && i+1 < len(s) && s[i+1] == '\n':
			continue
		case (c == ' ' || c == '\t') && !quoted:
			if b.Len() > 0 {
				b.WriteByte(c)
			}
		case (c == '#' || c == ';') && !quoted:
			for i < len(s) && s[i] != '\n' {
				i++
			}
			if quoted {
				return "", 0, 0, errors.New("a comment inside quotes")
			}
			return b.String()[:trail], i, lines, nil
		case c == '"':
			quoted = !quoted
			trail = b.Len()
			continue
		case c == '\\':
			i++
			if i >= len(s) {
				return "", 0, 0, errors.New("a backslash at the end")
			}
			switch s[i] {
			case '\n':
				lines++
				continue
			case '\r':
				if i+1 < len(s) && s[i+1] == '\n' {
					i++
					lines++
					continue
				}
				return "", 0, 0, errors.New("an unknown escape")
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'b':
				b.WriteByte('\b')
			case '\\', '"':
				b.WriteByte(s[i])
			default:
				return "", 0, 0, errors.New("an unknown escape")
			}
			trail = b.Len()
			continue
		default:
			b.WriteByte(c)
		}
		if quoted || (c != ' ' && c != '\t') {
			trail = b.Len()
		}
	}
	if quoted {
		return "", 0, 0, errors.New("unterminated quotes")
	}
	return b.String()[:trail], i, lines, nil
}

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func isKeyChar(c byte) bool { return isAlpha(c) || '0' <= c && c <= '9' || c == '-' }

// maxIncludes is git's bound on nested includes.
const maxIncludes = 10

// Configs reads the repository configuration git reads for the git
// directory gitDir: the common directory's config, then config.worktree
// (read whether extensions.worktreeConfig is set or not), each followed
// by the files include.path and includeIf.*.path name, whatever the
// condition (a relative path is taken from the including file's
// directory, ~/ from home). It returns the entries in order and the
// files read; a missing file is skipped, as git does, and anything else
// it cannot read is an error (with what was read before it). missing
// are the included files that do not exist (yet).
func Configs(gitDir, home string) (entries []Entry, files, missing []string, err error) {
	common, err := Common(gitDir)
	if err != nil {
		return nil, nil, nil, err
	}
	var read func(file string, depth int) error
	read = func(file string, depth int) error {
		if depth > maxIncludes {
			return fmt.Errorf("%s: includes nested more than %d deep", file, maxIncludes)
		}
		es, err := ReadConfig(file)
		if errors.Is(err, fs.ErrNotExist) {
			if depth > 0 {
				missing = append(missing, file)
			}
			return nil
		}
		if err != nil {
			return err
		}
		files = append(files, file)
		for _, e := range es {
			entries = append(entries, e)
			if e.Key != "include.path" && !(strings.HasPrefix(e.Key, "includeif.") && strings.HasSuffix(e.Key, ".path")) {
				continue
			}
			p, err := expandUser(e.Value, home)
			if err != nil {
				return fmt.Errorf("%s: include: %w", file, err)
			}
			// Relative to the including file's directory as named, the
			// kernel resolving the rest (git does not clean the path).
			if err := read(joinPath(file[:strings.LastIndexByte(file, '/')], p), depth+1); err != nil {
				return err
			}
		}
		return nil
	}
	for _, f := range []string{filepath.Join(common, "config"), filepath.Join(gitDir, "config.worktree")} {
		if err := read(f, 0); err != nil {
			return entries, files, missing, err
		}
		if common == gitDir {
			if err := read(filepath.Join(gitDir, "config.worktree"), 0); err != nil {
				return entries, files, missing, err
			}
			break
		}
	}
	return entries, files, missing, nil
}

// Hooks returns the hooks git can run from the common git directory
// common (a worktree's is the one its commondir names): every entry of
// its hooks/ but directories and the samples git init writes
// (NAME.sample), whatever the name (one git never runs costs nothing to
// refuse) and whether or not it is executable now: a chmod of a link's
// target, or of another name of the same file, makes it run with no
// write in the git directory. A hooks directory that cannot be read is
// an error; a missing one holds none.
func Hooks(common string) ([]string, error) {
	dir := filepath.Join(common, "hooks")
	es, err := os.ReadDir(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, err
	}
	var hooks []string
	for _, e := range es {
		if !e.IsDir() && !strings.HasSuffix(e.Name(), ".sample") {
			hooks = append(hooks, filepath.Join(dir, e.Name()))
		}
	}
	return hooks, nil
}

// Common returns the common git directory of gitDir: the one its
// commondir file names (its real path), else gitDir.
func Common(gitDir string) (string, error) {
	b, err := os.ReadFile(gitDir + "/commondir")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return gitDir, nil
	case err != nil:
		return "", err
	}
	// As git's get_common_dir_noenv: only the newlines at the end go,
	// and the path is the kernel's real path (a symbolic link resolved
	// before the .. after it).
	return Real(joinPath(gitDir, strings.TrimRight(string(b), "\n"))), nil
}

// A Repo is a repository's git directory, its common directory and the
// configuration files git reads for it (real paths where they resolve).
type Repo struct {
	Dir, Common string
	Files       []string
}

// Own returns the repository of the work tree at or above root (a zero
// Repo when there is none). Its files are those Configs reads, as far as
// it reads them. The root or a directory above it that is itself a git
// directory (a bare repository) has no work tree: it is not the
// project's own, whose configuration is the person's. Plain writes make
// one (config, HEAD, objects and refs in the root are none of a git
// directory's files until all are there), where a .git is protected by
// its name.
func Own(root, home string) Repo {
	d, err := Find(root)
	if err != nil || d == "" || d == root || strings.HasPrefix(root, d+"/") || d == "/" {
		return Repo{}
	}
	common, err := Common(d)
	if err != nil {
		return Repo{}
	}
	_, files, _, _ := Configs(d, home)
	r := Repo{Dir: Real(d), Common: Real(common)}
	for _, f := range files {
		r.Files = append(r.Files, Real(f))
	}
	return r
}

// Real returns p with symbolic links resolved, or p cleaned when it
// does not resolve.
func Real(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}
