package parser

import "strings"

// PathFilter says which entries under the directory of a recursive
// FileRef the command can reach (FileRef.Filter): the files of a git
// pathspec with wildcards or magic (git add '.e*', git diff
// ':(glob)**/*.go'), the files grep -r --include and ripgrep's -g and
// -t let through. A file it rejects is never opened by the command, so
// an ignored file the filter rejects is no reason to refuse it.
//
// Implementations are immutable and safe for concurrent use; they never
// touch the file system.
type PathFilter interface {
	// Match reports, for rel (a slash-separated path relative to the
	// FileRef's directory, neither empty nor "."):
	//
	//   - isDir false: whether the command may reach the file rel;
	//   - isDir true: whether it may reach anything at or below the
	//     directory rel; false lets a walk skip the directory.
	//
	// It errs on the side of true: a filter may pass more than the
	// program reads, never less. A file's answer does not depend on
	// its directories' answers (a caller need not prune).
	Match(rel string, isDir bool) bool
	// String says which files pass, for messages: "files matching
	// git's pathspec '*.go'".
	String() string
}

// Selects reports whether the command of fr may reach rel under fr's
// directory (see PathFilter.Match): true for every entry when fr has no
// Filter.
func (fr *FileRef) Selects(rel string, isDir bool) bool {
	return fr.Filter == nil || fr.Filter.Match(rel, isDir)
}

// pathspecMode is how git reads every pathspec of a command: git's
// global options --literal-pathspecs, --glob-pathspecs,
// --noglob-pathspecs and --icase-pathspecs, or the environment
// variables GIT_*_PATHSPECS.
type pathspecMode struct {
	literal, glob, noglob, icase bool
}

// pathspec is one pathspec as git parses it: its magic and its pattern.
type pathspec struct {
	pattern string // cleaned, relative to the base (cwd, or the top with top)
	up      int    // leading ../ components removed from pattern
	top     bool   // :(top), :/
	exclude bool   // :(exclude), :!, :^
	literal bool   // :(literal), or --literal-pathspecs: no wildcard
	glob    bool   // :(glob): * stops at /, ** spans directories
	icase   bool   // :(icase)
	attr    bool   // :(attr:…): selects by attributes the gate does not read
	bad     bool   // magic git rejects (the command fails) or the gate cannot read
}

// parsePathspec reads v as git reads a pathspec under mode.
func parsePathspec(v string, mode pathspecMode) pathspec {
	ps := pathspec{literal: mode.literal, glob: mode.glob, icase: mode.icase}
	rest := v
	if !mode.literal && strings.HasPrefix(v, ":") {
		rest = v[1:]
		if strings.HasPrefix(rest, "(") {
			end := strings.IndexByte(rest, ')')
			if end < 0 {
				ps.bad = true // git: Missing ')' at the end of pathspec magic
				return ps
			}
			for _, m := range strings.Split(rest[1:end], ",") {
				m = strings.TrimSpace(m)
				switch {
				case m == "top":
					ps.top = true
				case m == "exclude":
					ps.exclude = true
				case m == "literal":
					ps.literal = true
				case m == "glob":
					ps.glob = true
				case m == "icase":
					ps.icase = true
				case strings.HasPrefix(m, "attr:"):
					ps.attr = true
				case m == "":
				default:
					ps.bad = true // unknown or internal (prefix:N) magic
				}
			}
			rest = rest[end+1:]
		} else {
			// Short magic: / (top), ! and ^ (exclude), up to an
			// optional ':' or the first other character.
		short:
			for rest != "" {
				switch rest[0] {
				case '/':
					ps.top = true
				case '!', '^':
					ps.exclude = true
				case ':':
					rest = rest[1:]
					break short
				default:
					break short
				}
				rest = rest[1:]
			}
		}
	}
	if ps.glob && ps.literal {
		ps.bad = true // git: 'literal' and 'glob' are incompatible
	}
	if mode.noglob && !ps.glob {
		ps.literal = true
	}
	ps.pattern, ps.up = cleanPattern(rest)
	return ps
}

// cleanPattern removes ./ and dir/.. from p as git's prefix_path does,
// and returns how many ../ lead it (they leave the base).
func cleanPattern(p string) (string, int) {
	var kept []string
	up := 0
	for _, part := range strings.Split(p, "/") {
		switch {
		case part == "" || part == ".":
		case part == ".." && len(kept) > 0:
			kept = kept[:len(kept)-1]
		case part == "..":
			up++
		default:
			kept = append(kept, part)
		}
	}
	c := strings.Join(kept, "/")
	if strings.HasSuffix(p, "/") && c != "" {
		c += "/"
	}
	return c, up
}

// wild reports whether git matches ps by wildcards (not only literally).
func (ps *pathspec) wild() bool {
	return !ps.literal && strings.ContainsAny(ps.pattern, "*?[\\")
}

// literalDir is the longest directory prefix of the pattern that git
// compares literally (case-sensitively): the directory every match lies
// under, "" for the base itself.
func (ps *pathspec) literalDir() string {
	if ps.icase {
		return ""
	}
	p := ps.pattern
	if !ps.literal {
		if i := strings.IndexAny(p, "*?[\\"); i >= 0 {
			p = p[:i]
		}
	}
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return ""
	}
	return p[:i]
}

// match reports whether git's pathspec ps selects the file name
// (relative to ps's base): the pattern equals name or a leading
// directory of it, or matches it by wildcards (a wildcard match of a
// leading directory alone selects nothing: git add 'sr?' adds no file
// of src, as git ls-files lists none). ok is false when it cannot tell
// (too long an input).
func (ps *pathspec) match(name string) (match, ok bool) {
	p := ps.pattern
	if p == "" {
		return true, true
	}
	// Literal: equal, or a leading directory.
	if len(name) >= len(p) && equalFold(name[:len(p)], p, ps.icase) {
		if len(name) == len(p) || p[len(p)-1] == '/' || name[len(p)] == '/' {
			return true, true
		}
	}
	if !ps.wild() {
		return false, true
	}
	flags := 0
	if ps.icase {
		flags |= wmCasefold
	}
	toks, valid := wmCompile(p, flags)
	var gtoks []wmToken
	gvalid := false
	if !ps.glob {
		// git's default (a star spans /) and :(glob) (it does not; **
		// spans directories) select different files: ps may be read
		// either way (GIT_GLOB_PATHSPECS in an environment the gate
		// does not see), so either selects.
		gtoks, gvalid = wmCompile(p, flags|wmPathname)
	} else {
		toks, valid = wmCompile(p, flags|wmPathname)
	}
	try := func(text string) (bool, bool) {
		all := true
		for _, c := range [2]struct {
			toks  []wmToken
			valid bool
			flags int
		}{{toks, valid, flags}, {gtoks, gvalid, flags | wmPathname}} {
			if !c.valid {
				continue
			}
			m, ok := wmTokens(c.toks, text, c.flags)
			if m {
				return true, true
			}
			all = all && ok
		}
		return false, all
	}
	return try(name)
}

func equalFold(a, b string, fold bool) bool {
	if !fold {
		return a == b
	}
	return strings.EqualFold(a, b)
}

// pathspecFilter is the PathFilter of one selecting pathspec and the
// excluding ones of the same base: the files under dir (relative to the
// base) that inc selects and no exclude removes.
type pathspecFilter struct {
	dir  string // the FileRef's directory relative to the base, "" for the base
	inc  pathspec
	excs []pathspec
	desc string
}

func (f *pathspecFilter) String() string { return f.desc }

func (f *pathspecFilter) Match(rel string, isDir bool) bool {
	name := rel
	if f.dir != "" {
		name = f.dir + "/" + rel
	}
	if isDir {
		return f.dirMay(name)
	}
	if m, ok := f.inc.match(name); !m && ok {
		return false
	}
	for k := range f.excs {
		// An exclude removes only what it surely matches: strictly (as
		// git ls-files reads it), and only when the match could be
		// decided.
		if m, ok := f.excs[k].match(name); m && ok {
			return false
		}
	}
	return true
}

// dirMay reports whether a file under the directory name may be
// selected: false only when the literal part of the pattern rules the
// directory out.
func (f *pathspecFilter) dirMay(name string) bool {
	p := f.inc.pattern
	if f.inc.icase {
		return true
	}
	lit := p
	if f.inc.wild() {
		lit = p[:strings.IndexAny(p, "*?[\\")]
	}
	// The directory must agree with the literal part as far as both go.
	n := min(len(lit), len(name))
	return lit[:n] == name[:n]
}

// gitPathspecRef reports a pathspec operand that git matches itself
// (wildcards or magic) as a recursive reference filtered by the
// pathspec, with excs, the excluding pathspecs of the command. It
// reports false for a literal pathspec without magic, which the caller
// reports as a path.
func (s *state) gitPathspecRef(cmd *Command, op Word, ps pathspec, excs []pathspec, write bool) bool {
	if ps.bad {
		// git refuses the pathspec; the gate cannot tell what it
		// selects: the whole tree, unfiltered.
		cmd.Files = append(cmd.Files, FileRef{Path: ".", Pos: op.Pos, Kind: RefArg, Write: write, Recursive: true, Top: true})
		return true
	}
	if !ps.wild() && !ps.icase && !ps.attr {
		if !ps.top && ps.up == 0 && !strings.HasPrefix(op.Value, ":") {
			return false // a plain path
		}
		// :(top)x, :/x, :(literal)x: x is a path (from the top).
		p := strings.TrimSuffix(ps.pattern, "/")
		if p == "" {
			p = "."
		}
		p = upPath(ps.up, p)
		cmd.Files = append(cmd.Files, FileRef{Path: p, Pos: op.Pos, Kind: RefArg, Write: write, Recursive: true, Top: ps.top})
		return true
	}
	dir := ps.literalDir()
	f := &pathspecFilter{dir: dir, inc: ps, desc: "files matching git's pathspec " + quoteWord(op.Value)}
	for _, e := range excs {
		if e.top == ps.top && e.up == ps.up && !e.bad && !e.attr {
			f.excs = append(f.excs, e)
		}
	}
	p := dir
	if p == "" {
		p = "."
	}
	cmd.Files = append(cmd.Files, FileRef{Path: upPath(ps.up, p), Pos: op.Pos, Kind: RefArg, Write: write,
		Recursive: true, Top: ps.top, Filter: f})
	return true
}

// upPath prefixes p with n ../ components.
func upPath(n int, p string) string {
	if n == 0 {
		return p
	}
	up := strings.Repeat("../", n)
	if p == "." {
		return strings.TrimSuffix(up, "/")
	}
	return up + p
}

func quoteWord(s string) string {
	return "'" + s + "'"
}
