package parser

import (
	"path"
	"strings"
	"sync"
)

// The PathFilters of recursive readers: grep -r's --include, --exclude
// and --exclude-dir, ripgrep's -g/--glob, --iglob, -t/--type and
// -T/--type-not. Each is written from the program's manual and checked
// against the real program (misread_filter_test.go).

// grepFilter: GNU grep 3 reads a subfile only when its base name passes
// the --include/--exclude globs (fnmatch; "the last matching one wins;
// if none matches, a file is included unless the first such option is
// --include") and no directory on the way matches an --exclude-dir glob.
type grepFilter struct {
	globs     []grepGlob // --include and --exclude, in order
	dirs      []string   // --exclude-dir
	firstIncl bool
}

type grepGlob struct {
	pat     string
	include bool
}

func (f *grepFilter) String() string {
	var b strings.Builder
	b.WriteString("files grep reads with")
	for _, g := range f.globs {
		if g.include {
			b.WriteString(" --include=")
		} else {
			b.WriteString(" --exclude=")
		}
		b.WriteString(g.pat)
	}
	for _, d := range f.dirs {
		b.WriteString(" --exclude-dir=" + d)
	}
	return b.String()
}

func (f *grepFilter) Match(rel string, isDir bool) bool {
	parts := strings.Split(rel, "/")
	last := len(parts)
	if !isDir {
		last--
	}
	for _, d := range parts[:last] {
		for _, g := range f.dirs {
			if m, ok := fnmatch(g, d); m && ok {
				return false
			}
		}
	}
	if isDir {
		return true
	}
	base := parts[len(parts)-1]
	in := !f.firstIncl
	for _, g := range f.globs {
		m, ok := fnmatch(g.pat, base)
		if !ok {
			return true // cannot decide: it may be read
		}
		if m {
			in = g.include
		}
	}
	return in
}

// grepFilterOf reads grep's filter options in args; nil when there is
// none, or when one cannot be read (a dynamic value, --exclude-from).
func grepFilterOf(args []Word) PathFilter {
	f := &grepFilter{}
	first := true
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.Value == "--" {
			break
		}
		name, val, hasVal, ok := longOpt(a.Value)
		if !ok {
			continue
		}
		kind := ""
		switch {
		case name == "include" || name != "" && strings.HasPrefix("include", name) && len(name) >= 3:
			kind = "include"
		case name == "exclude":
			kind = "exclude"
		case len(name) > len("exclude") && strings.HasPrefix("exclude-dir", name):
			kind = "exclude-dir"
		case len(name) > len("exclude") && strings.HasPrefix("exclude-from", name):
			return nil // globs from a file the gate does not read here
		default:
			continue
		}
		if a.Dynamic {
			return nil
		}
		if !hasVal {
			if i+1 >= len(args) || args[i+1].Dynamic {
				return nil
			}
			i++
			val = args[i].Value
		}
		switch kind {
		case "exclude-dir":
			f.dirs = append(f.dirs, val)
		default:
			if first {
				f.firstIncl = kind == "include"
				first = false
			}
			f.globs = append(f.globs, grepGlob{pat: val, include: kind == "include"})
		}
	}
	if len(f.globs) == 0 && len(f.dirs) == 0 {
		return nil
	}
	return f
}

// rgFilter: ripgrep reads a file when its overrides (-g/--glob, --iglob:
// gitignore globs, ! for an exclusion, the last matching one wins; with
// any non-! glob, a file no glob matches is skipped; a directory an
// exclusion matches is not entered) let it through, or, when none
// matches it, when its type selection does (-t: its base name matches a
// glob of a selected type; -T: of none of the excluded types).
type rgFilter struct {
	globs      []rgGlob
	whitelists int
	prefix     string // the searched directory relative to the cwd ("" for the cwd); known is false when it is not one
	known      bool
	sel, neg   []string // type globs
	desc       string
}

type rgGlob struct {
	pat     string   // without ! and a leading /
	alts    []string // pat with its {a,b} alternatives expanded (ripgrep's globs have them)
	wild    bool     // alts could not be expanded: it may match anything
	neg     bool
	dirOnly bool // a trailing /
	slash   bool // anchored: it holds a /
	fold    bool
}

func (f *rgFilter) String() string { return f.desc }

// override returns +1 (whitelisted), -1 (ignored) or 0 for path p
// (relative to the cwd when known, else the path below the searched
// directory) by the last matching glob.
func (f *rgFilter) override(p string, isDir bool) int {
	base := p[strings.LastIndexByte(p, '/')+1:]
	res := 0
	for _, g := range f.globs {
		if g.dirOnly && !isDir {
			continue
		}
		flags := wmPathname
		if g.fold {
			flags |= wmCasefold
		}
		var m, ok bool
		switch {
		case g.wild:
			m, ok = !g.neg, true
		case !g.slash:
			m, ok = matchAny(g.alts, base, flags)
		case f.known:
			m, ok = matchAny(g.alts, p, flags)
		default:
			// Anchored at a place the gate cannot relate to this path:
			// a selecting glob may select it, an excluding one never
			// surely excludes it.
			m, ok = !g.neg, true
		}
		if !ok {
			m = !g.neg
		}
		if m {
			res = 1
			if g.neg {
				res = -1
			}
		}
	}
	return res
}

func (f *rgFilter) Match(rel string, isDir bool) bool {
	p := rel
	if f.known && f.prefix != "" {
		p = f.prefix + "/" + rel
	}
	// A directory on the way that an exclusion matches is not entered.
	start := 0
	if f.known && f.prefix != "" {
		start = len(f.prefix) + 1 // the searched directory itself is searched
	}
	for i := start; i < len(p); i++ {
		if p[i] == '/' {
			if f.override(p[:i], true) < 0 {
				return false
			}
		}
	}
	o := f.override(p, isDir)
	switch {
	case o < 0:
		return false
	case isDir:
		return true
	case o > 0:
		return true
	case f.whitelists > 0:
		return false
	}
	base := rel[strings.LastIndexByte(rel, '/')+1:]
	for _, g := range f.neg {
		if m, ok := wildmatch(g, base, wmPathname); m && ok {
			return false
		}
	}
	if len(f.sel) == 0 {
		return true
	}
	for _, g := range f.sel {
		if m, ok := wildmatch(g, base, wmPathname); m || !ok {
			return true
		}
	}
	return false
}

// rgTypes is rgTypeList parsed: type name → globs.
var rgTypes = sync.OnceValue(func() map[string][]string {
	m := map[string][]string{}
	for _, line := range strings.Split(rgTypeList, "\n") {
		name, globs, ok := strings.Cut(line, ": ")
		if !ok {
			continue
		}
		m[name] = strings.Split(globs, ", ")
	}
	return m
})

// rgFilterOf reads ripgrep's filter options in args for the searched
// directory dir (as written, relative to the cwd); nil when there is
// none or one cannot be read (a dynamic value, an unknown type).
func rgFilterOf(args []Word, dir string) PathFilter {
	f := &rgFilter{}
	types := rgTypes()
	added := map[string][]string{}
	typeGlobs := func(name string) ([]string, bool) {
		if g, ok := added[name]; ok {
			return g, true
		}
		if name == "all" {
			var all []string
			for _, g := range types {
				all = append(all, g...)
			}
			return all, true
		}
		g, ok := types[name]
		return g, ok
	}
	foldAll := false
	any := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if v == "--" {
			break
		}
		var opt, val string
		has, ok := false, false
		if name, lv, hv, ok := longOpt(v); ok {
			switch name {
			case "glob", "iglob", "type", "type-not", "type-add", "type-clear":
				opt, val, has = name, lv, hv
			case "glob-case-insensitive":
				foldAll = true
				continue
			case "no-glob-case-insensitive":
				foldAll = false
				continue
			default:
				continue
			}
		} else if len(v) >= 2 && v[0] == '-' {
			// Short options: -g GLOB, -t TYPE, -T TYPE, maybe in a
			// cluster after flags (-ig '*.md').
			k := strings.IndexAny(v[1:], "gtT")
			if k < 0 {
				continue
			}
			c := v[1+k]
			// Letters before it must be flags: a value-taking option
			// before it takes the rest as its value.
			if strings.ContainsAny(v[1:1+k], "eABCmdjMErfE") {
				continue
			}
			opt = map[byte]string{'g': "glob", 't': "type", 'T': "type-not"}[c]
			val, has = v[2+k:], len(v) > 2+k
		} else {
			continue
		}
		if a.Dynamic {
			return nil
		}
		if !has {
			if i+1 >= len(args) || args[i+1].Dynamic {
				return nil
			}
			i++
			val = args[i].Value
		}
		any = true
		f.desc += " --" + opt + "=" + val
		switch opt {
		case "glob", "iglob":
			g := rgGlob{pat: val, fold: opt == "iglob"}
			if strings.HasPrefix(g.pat, "!") {
				g.neg, g.pat = true, g.pat[1:]
			} else {
				f.whitelists++
			}
			if strings.HasSuffix(g.pat, "/") {
				g.dirOnly, g.pat = true, strings.TrimSuffix(g.pat, "/")
			}
			g.slash = strings.Contains(g.pat, "/")
			g.pat = strings.TrimPrefix(g.pat, "/")
			g.alts, ok = expandBraces(g.pat, 64)
			g.wild = !ok
			f.globs = append(f.globs, g)
		case "type", "type-not":
			g, ok := typeGlobs(val)
			if !ok {
				if opt == "type" {
					return nil // a type the table does not know: anything
				}
				continue // an exclusion it cannot read excludes nothing here
			}
			if opt == "type" {
				f.sel = append(f.sel, g...)
			} else {
				f.neg = append(f.neg, g...)
			}
		case "type-add":
			name, def, ok := strings.Cut(val, ":")
			if !ok {
				return nil
			}
			if inc, ok := strings.CutPrefix(def, "include:"); ok {
				for _, t := range strings.Split(inc, ",") {
					g, ok := typeGlobs(t)
					if !ok {
						return nil
					}
					added[name] = append(added[name], g...)
				}
				continue
			}
			if cur, ok := typeGlobs(name); ok {
				added[name] = append(append([]string(nil), cur...), strings.Split(def, ",")...)
			} else {
				added[name] = strings.Split(def, ",")
			}
		case "type-clear":
			added[val] = nil
		}
	}
	if !any {
		return nil
	}
	if foldAll {
		for i := range f.globs {
			f.globs[i].fold = true
		}
	}
	d := path.Clean(dir)
	if !path.IsAbs(d) && d != ".." && !strings.HasPrefix(d, "../") {
		f.known = true
		if d != "." {
			f.prefix = d
		}
	}
	f.desc = "files ripgrep reads with" + f.desc
	return f
}

// readerFilters sets the Filter of the recursive references of a grep
// or rg command (cmd.Files[from:]) from its filter options.
func readerFilters(cmd *Command, base string, args []Word, from int) {
	switch base {
	case "grep", "egrep", "fgrep":
		f := grepFilterOf(args)
		if f == nil {
			return
		}
		for k := from; k < len(cmd.Files); k++ {
			if fr := &cmd.Files[k]; fr.Recursive && !fr.Maybe && fr.Kind == RefArg {
				fr.Filter = f
			}
		}
	case "rg":
		for k := from; k < len(cmd.Files); k++ {
			if fr := &cmd.Files[k]; fr.Recursive && !fr.Maybe && fr.Kind == RefArg && !fr.Dynamic && !fr.Glob {
				if f := rgFilterOf(args, fr.Path); f != nil {
					fr.Filter = f
				}
			}
		}
	}
}

// matchAny reports whether any of pats matches text; ok is false when
// one could not be decided and none matched.
func matchAny(pats []string, text string, flags int) (match, ok bool) {
	ok = true
	for _, p := range pats {
		m, decided := wildmatch(p, text, flags)
		if m {
			return true, true
		}
		ok = ok && decided
	}
	return false, ok
}

// expandBraces expands the {a,b} alternatives of a ripgrep glob (nested
// ones too; a brace inside […] or after \ is literal) into at most max
// patterns; ok is false beyond, or for an unbalanced brace.
func expandBraces(p string, max int) ([]string, bool) {
	open, depth, inClass := -1, 0, false
	var commas []int
	for i := 0; i < len(p); i++ {
		switch c := p[i]; {
		case c == '\\':
			i++
		case inClass:
			if c == ']' {
				inClass = false
			}
		case c == '[':
			inClass = true
			if i+1 < len(p) && (p[i+1] == '!' || p[i+1] == '^') {
				i++
			}
			if i+1 < len(p) && p[i+1] == ']' {
				i++ // a leading ] is a member
			}
		case c == '{':
			if depth == 0 {
				open = i
				commas = commas[:0]
			}
			depth++
		case c == ',' && depth == 1:
			commas = append(commas, i)
		case c == '}' && depth > 0:
			depth--
			if depth > 0 {
				continue
			}
			pre, post := p[:open], p[i+1:]
			var out []string
			start := open + 1
			for _, end := range append(commas, i) {
				alts, ok := expandBraces(pre+p[start:end]+post, max)
				if !ok {
					return nil, false
				}
				out = append(out, alts...)
				if len(out) > max {
					return nil, false
				}
				start = end + 1
			}
			return out, true
		case c == '}':
			return nil, false
		}
	}
	if depth > 0 {
		return nil, false
	}
	return []string{p}, true
}

// langFilter passes the files a program reads when it walks a directory
// operand for the files of its language only: a name with one of the
// suffixes, and (skipDot) not starting with ".". Directories all pass:
// the walk enters every one.
type langFilter struct {
	prog     string
	suffixes []string
	skipDot  bool
}

func (f *langFilter) Match(rel string, isDir bool) bool {
	if isDir {
		return true
	}
	base := rel[strings.LastIndexByte(rel, '/')+1:]
	if f.skipDot && strings.HasPrefix(base, ".") {
		return false
	}
	for _, s := range f.suffixes {
		if strings.HasSuffix(base, s) {
			return true
		}
	}
	return false
}

func (f *langFilter) String() string {
	return "files " + f.prog + " reads in a directory (" + strings.Join(f.suffixes, ", ") + ")"
}

// langFilters are the programs that walk a directory operand for the
// files of their language alone: gofmt (cmd/gofmt's isGoFile: a name
// ending in .go that does not start with a dot, in every directory).
var langFilters = map[string]*langFilter{
	"gofmt": {prog: "gofmt", suffixes: []string{".go"}, skipDot: true},
}

// languageFilters sets the filter of the recursive directory operands
// cmd.Files[from:] of a program that reads only the files of its
// language in them (see langFilters).
func languageFilters(cmd *Command, base string, from int) {
	f := langFilters[base]
	if f == nil {
		return
	}
	for k := from; k < len(cmd.Files); k++ {
		if fr := &cmd.Files[k]; fr.Recursive && !fr.Maybe && fr.Kind == RefArg && fr.Filter == nil {
			fr.Filter = f
		}
	}
}
