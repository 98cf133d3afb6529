package parser

import (
	"math"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Values known statically.
//
// A variable's value is known when every place the source names it is
// either a plain reference ($F, ${F}, "${a[@]}", ${#a[@]}) or a top-level
// assignment statement that runs unconditionally (staticAssign), or when
// it is the variable of a for loop over words the analysis can read
// (loopValues). Anything else that names it (read, mapfile, unset,
// declare, a[i]=…, ${F:=…}, an assignment in a pipeline, a subshell, a
// loop or after &&) leaves every reference unknown: Dynamic, never a
// wrong literal.
//
// Elements are literal plain words (plainValue) or globs. A glob is what
// bash expanded against the file system where it was bound (value.dir):
// it stands for one name it matches (a for loop's variable) or for all of
// them (an array element), and is reported as the glob itself, so the
// file checks expand it and check every match. It resolves only as a
// whole word ("$f", "${a[@]}", $f) in the directory where it was
// expanded: inside a longer word ("$f.bak") the result need not exist for
// the glob to match it. Unquoted, bash splits and globs the matched name
// again: the word is marked Resplit, and the file checks ask when a match
// is not a plain name — when no command of the script ran before the glob
// was expanded (one could have created "a .env"), else it is unknown.

// value is what the analysis knows of a variable: a scalar (one element)
// or an array.
type value struct {
	elems []Word
	array bool
	// dir is the cwd where the glob elements were expanded; a reference
	// from any other cwd is unknown.
	dir cwdState
	// late: a glob element was expanded after a command of the script
	// ran, which may have created names the file checks cannot see: an
	// unquoted reference (Resplit) is unknown then.
	late bool
	// env: from Options.AddEnv, exported, so a nested shell sees it too.
	env bool
}

// glob reports whether some element is a glob.
func (v value) glob() bool {
	for _, e := range v.elems {
		if e.Glob {
			return true
		}
	}
	return false
}

// Bounds on what is tracked: a loop body is checked once per value.
const (
	maxLoopValues = 16
	maxArrayElems = 64
)

func (s *state) setVar(name string, v value) {
	if s.vars == nil {
		s.vars = map[string]value{}
	}
	s.vars[name] = v
}

// plainValue reports whether an unquoted $NAME with this value stays one
// word that names exactly this text: no field splitting, no globbing, not
// empty.
func plainValue(v string) bool {
	return v != "" && !strings.ContainsAny(v, " \t\n*?[]\\()")
}

// countNamed counts the places src names the variable other than in a
// plain reference: $NAME, ${NAME}, ${NAME[@]}, ${NAME[*]}, ${NAME[N]},
// ${#NAME}, ${#NAME[@]}, ${#NAME[*]}. An assignment, read, for, printf
// -v, declare, unset, ${NAME:=…} and the like could change it. It reads
// the text, not the syntax tree: a name inside quotes or a nested script
// counts too, which only makes fewer values known.
func countNamed(src, name string) int {
	n := 0
	for i := 0; ; {
		j := strings.Index(src[i:], name)
		if j < 0 {
			return n
		}
		at, end := i+j, i+j+len(name)
		i = at + 1
		if end < len(src) && isNameByte(src[end]) {
			continue // part of a longer word
		}
		if at > 0 && isNameByte(src[at-1]) {
			// Part of a longer word, unless the word is an option
			// cluster that ends in the name (printf -vF, read -aarr).
			k := at
			for k > 0 && isNameByte(src[k-1]) {
				k--
			}
			if k == 0 || src[k-1] != '-' {
				continue
			}
			n++
			continue
		}
		if at > 0 && src[at-1] == '-' && (at == 1 || !isNameByte(src[at-2])) {
			continue // an option (test -f "$f"): no builtin reads -NAME as a name to assign
		}
		if !plainRef(src, at, end) {
			n++
		}
	}
}

// plainRef reports whether the name at src[at:end] is read by a plain
// reference.
func plainRef(src string, at, end int) bool {
	if at > 0 && src[at-1] == '$' {
		return true
	}
	open := at - 1
	if open > 0 && src[open] == '#' {
		open-- // ${#NAME…}
	}
	if open < 1 || src[open] != '{' || src[open-1] != '$' {
		return false
	}
	rest := src[end:]
	if strings.HasPrefix(rest, "}") {
		return true
	}
	sub, ok := strings.CutPrefix(rest, "[")
	if !ok {
		return false
	}
	k := strings.IndexByte(sub, ']')
	if k < 0 || !strings.HasPrefix(sub[k:], "]}") {
		return false
	}
	switch idx := sub[:k]; {
	case idx == "@", idx == "*":
		return true
	default:
		_, err := strconv.Atoi(idx)
		return err == nil && idx[0] != '-' && idx[0] != '+'
	}
}

// cleanAssign returns the assignments of a top-level statement made only
// of assignments that runs in this shell, unconditionally: no command, no
// redirect, not in the background, not negated.
func cleanAssign(st *syntax.Stmt) []*syntax.Assign {
	ce, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Background || st.Negated || st.Coprocess || len(st.Redirs) > 0 || len(ce.Args) > 0 {
		return nil
	}
	return ce.Assigns
}

// countAssigns counts, per variable, the top-level statements of
// cleanAssign that assign it (staticAssign tracks a variable only when
// they are all the places that name it).
func (s *state) countAssigns(stmts []*syntax.Stmt) {
	clear(s.assigns)
	for _, st := range stmts {
		for _, a := range cleanAssign(st) {
			if a.Name == nil {
				continue
			}
			if s.assigns == nil {
				s.assigns = map[string]int{}
			}
			s.assigns[a.Name.Value]++
		}
	}
}

// staticAssign records the values of a top-level statement made only of
// assignments (cleanAssign), for the variables that the source names
// nowhere else than in these statements and in plain references:
// F=.env (a plain literal, no blank, no glob character), a=(x src/*.go)
// (literal plain words and globs, expanded in cwd), a+=(y) (appending to
// a known array). Every later $F is then that value (F=.env; cat $F reads
// .env) until the next such statement. An assignment whose value is not
// known forgets the variable. Bash's special variables are left out.
func (s *state) staticAssign(st *syntax.Stmt, c *ctx, cwd cwdState) {
	if s.stopped {
		return
	}
	for _, a := range cleanAssign(st) {
		if a.Name == nil {
			continue
		}
		name := a.Name.Value
		if !validName(name) || specialVar(name) || s.assigns[name] == 0 || countNamed(s.top, name) != s.assigns[name] {
			continue
		}
		v, ok := s.assignValue(a, c, cwd)
		if !ok {
			delete(s.vars, name)
			continue
		}
		s.setVar(name, v)
	}
}

// assignValue returns the value a makes known, if any.
func (s *state) assignValue(a *syntax.Assign, c *ctx, cwd cwdState) (value, bool) {
	if a.Index != nil || a.Naked {
		return value{}, false
	}
	s.quiet++
	defer func() { s.quiet-- }()
	if a.Array == nil {
		if a.Append || a.Value == nil {
			return value{}, false
		}
		w := s.word(a.Value, c)
		if w.Dynamic || w.Glob || !plainValue(w.Value) {
			return value{}, false
		}
		return value{elems: []Word{{Value: w.Value}}}, true
	}
	v := value{array: true, dir: cwd}
	if a.Append {
		old, ok := s.vars[a.Name.Value]
		if !ok || !old.array || old.glob() && old.dir != cwd {
			return value{}, false
		}
		v.elems = append(v.elems, old.elems...)
		v.late = old.late
	}
	s.cwd = cwd
	for _, e := range a.Array.Elems {
		if e.Index != nil || e.Value == nil {
			return value{}, false
		}
		for _, w := range s.words(e.Value, c, nil) {
			if w.Dynamic || !w.Glob && !plainValue(w.Value) {
				return value{}, false
			}
			v.elems = append(v.elems, Word{Value: w.Value, Glob: w.Glob, Pattern: w.Pattern})
		}
		if len(v.elems) > maxArrayElems {
			return value{}, false
		}
	}
	if v.glob() && cwd.dyn {
		return value{}, false
	}
	v.late = v.late || v.glob() && s.ranBefore()
	return v, true
}

// loopValues returns the values of a for loop's variable when they are
// known statically: literal plain words (brace expansion included), globs
// (each stands for the names it matches, expanded in the loop's cwd), the
// elements of a known array ("${a[@]}"), at most maxLoopValues of them,
// and a variable the source names nowhere else (countNamed: only the for
// itself). The caller sets them in s.vars one at a time. A select loop
// reads its value from the person (or stdin): it may be empty.
func (s *state) loopValues(x *syntax.ForClause, c *ctx) ([]Word, string, bool) {
	l, ok := x.Loop.(*syntax.WordIter)
	if !ok || x.Select || !l.InPos.IsValid() || len(l.Items) == 0 {
		return nil, "", false
	}
	name := l.Name.Value
	if !validName(name) || specialVar(name) || countNamed(s.top, name) != 1 {
		return nil, "", false
	}
	if _, had := s.vars[name]; had {
		return nil, "", false
	}
	var vals []Word
	s.quiet++
	defer func() { s.quiet-- }()
	for _, it := range l.Items {
		for _, w := range s.words(it, c, nil) {
			if w.Dynamic || !w.Glob && !plainValue(w.Value) || w.Glob && s.cwd.dyn {
				return nil, "", false
			}
			vals = append(vals, Word{Value: w.Value, Glob: w.Glob, Pattern: w.Pattern})
		}
		if len(vals) > maxLoopValues {
			return nil, "", false
		}
	}
	return vals, name, true
}

// soleParam returns the parameter expansion that is all of w, and
// whether it is double-quoted.
func soleParam(w *syntax.Word) (*syntax.ParamExp, bool) {
	if len(w.Parts) != 1 {
		return nil, false
	}
	switch p := w.Parts[0].(type) {
	case *syntax.ParamExp:
		return p, false
	case *syntax.DblQuoted:
		if len(p.Parts) == 1 {
			if pe, ok := p.Parts[0].(*syntax.ParamExp); ok && !p.Dollar {
				return pe, true
			}
		}
	}
	return nil, false
}

// refKind is the shape of a parameter expansion that values can resolve.
type refKind uint8

const (
	refNone  refKind = iota
	refPlain         // $F, ${F}
	refAll           // ${a[@]}
	refCount         // ${#a[@]}, ${#a[*]}
)

func kindOf(p *syntax.ParamExp) refKind {
	if p.Param == nil || p.Excl || p.Width || p.Slice != nil || p.Repl != nil || p.Names != 0 ||
		p.Exp != nil || p.NestedParam != nil || p.Flags != nil || len(p.Modifiers) > 0 {
		return refNone
	}
	if p.Index == nil {
		if p.Length {
			return refNone // ${#F}: not needed
		}
		return refPlain
	}
	idx, ok := p.Index.(*syntax.Word)
	if !ok {
		return refNone
	}
	switch lit := idx.Lit(); {
	case lit == "@" && !p.Length:
		return refAll
	case (lit == "@" || lit == "*") && p.Length:
		return refCount
	}
	// ${a[N]}: bash counts from 0, zsh from 1, and ${a[*]} joins with
	// IFS: not resolved.
	return refNone
}

// wholeWords expands a word that is one parameter expansion p, appending
// the words bash makes of it to dst; ok is false when the value is not
// known that way (the caller decodes the word as dynamic). "${a[@]}"
// makes one word per element, none for an empty array.
func (s *state) wholeWords(p *syntax.ParamExp, quoted bool, c *ctx, pos Pos, dst []Word) ([]Word, bool) {
	if p.Param == nil || specialVar(p.Param.Value) {
		return dst, false // $HOME, $PWD: resolve reads them as before
	}
	v, ok := s.vars[p.Param.Value]
	if !ok {
		return dst, false
	}
	var elems []Word
	switch kindOf(p) {
	case refPlain:
		if v.array {
			return dst, false // bash reads ${a[0]}, zsh every element
		}
		elems = v.elems
	case refAll:
		if !v.array {
			return dst, false
		}
		elems = v.elems
	case refCount:
		n, ok := s.count(v)
		if !ok {
			return dst, false
		}
		return append(dst, Word{Value: n, Pos: pos}), true
	default:
		return dst, false
	}
	for _, e := range elems {
		if e.Glob && (s.cwd != v.dir || s.sticky&stickyGlob != 0 || !quoted && v.late) {
			return dst, false
		}
	}
	if s.quiet == 0 {
		s.paramExp(p, c)
	}
	for _, e := range elems {
		e.Pos = pos
		e.Resplit = e.Glob && !quoted
		dst = append(dst, e)
	}
	return dst, true
}

// count returns ${#a[@]} when it is known: no element is a glob.
func (s *state) count(v value) (string, bool) {
	if !v.array || v.glob() {
		return "", false
	}
	return strconv.Itoa(len(v.elems)), true
}

// varText returns the text of p inside a longer word ("$F.bak",
// x${#a[@]}): a scalar that is a literal, or an array's length.
func (s *state) varText(p *syntax.ParamExp) (string, bool) {
	if p.Param == nil {
		return "", false
	}
	v, ok := s.vars[p.Param.Value]
	if !ok {
		return "", false
	}
	switch kindOf(p) {
	case refPlain:
		if v.array || v.glob() {
			return "", false
		}
		return v.elems[0].Value, true
	case refCount:
		return s.count(v)
	}
	return "", false
}

// ranBefore reports whether a command of the script has been seen
// (one that runs a program or opens a redirect, not an assignment): it
// may have created names that a glob expanded now matches. A loop, a
// pipeline or a background job runs other commands before or alongside,
// which the callers check themselves.
func (s *state) ranBefore() bool {
	for i := range s.res.Commands {
		if c := &s.res.Commands[i]; len(c.Argv) > 0 || len(c.Redirects) > 0 {
			return true
		}
	}
	return false
}

// onlyExported hides the variables a nested shell (bash -c '…') does not
// see: all but the request's environment (Options.AddEnv). It returns the
// function that shows them again.
func (s *state) onlyExported() func() {
	saved := s.vars
	var env map[string]value
	for name, v := range saved {
		if v.env {
			if env == nil {
				env = map[string]value{}
			}
			env[name] = v
		}
	}
	s.vars = env
	return func() { s.vars = saved }
}

// arithValue evaluates $((…)) over literals only: decimal and 0x
// constants, + - * / % and parentheses, where bash and zsh agree (zsh
// reads 010 as ten, bash as eight; other operators and bases are left
// unknown). Overflow and division by zero are unknown.
func arithValue(p *syntax.ArithmExp) (int64, bool) {
	if p.Bracket || p.Unsigned {
		return 0, false
	}
	return arith(p.X, 0)
}

func arith(x syntax.ArithmExpr, depth int) (int64, bool) {
	if depth > 32 {
		return 0, false
	}
	switch x := x.(type) {
	case *syntax.Word:
		lit := x.Lit()
		if len(x.Parts) != 1 || lit == "" {
			return 0, false
		}
		if h, ok := strings.CutPrefix(strings.ToLower(lit), "0x"); ok {
			n, err := strconv.ParseInt(h, 16, 64)
			return n, err == nil && h != "" && h[0] != '+' && h[0] != '-'
		}
		if lit != "0" && lit[0] == '0' {
			return 0, false
		}
		for i := 0; i < len(lit); i++ {
			if lit[i] < '0' || lit[i] > '9' {
				return 0, false
			}
		}
		n, err := strconv.ParseInt(lit, 10, 64)
		return n, err == nil
	case *syntax.ParenArithm:
		return arith(x.X, depth+1)
	case *syntax.UnaryArithm:
		n, ok := arith(x.X, depth+1)
		switch {
		case !ok || x.Post:
			return 0, false
		case x.Op == syntax.Plus:
			return n, true
		case x.Op == syntax.Minus && n != math.MinInt64:
			return -n, true
		}
		return 0, false
	case *syntax.BinaryArithm:
		a, ok1 := arith(x.X, depth+1)
		b, ok2 := arith(x.Y, depth+1)
		if !ok1 || !ok2 {
			return 0, false
		}
		switch x.Op {
		case syntax.Add:
			r := a + b
			return r, (r > a) == (b > 0) || b == 0
		case syntax.Sub:
			r := a - b
			return r, (r < a) == (b > 0) || b == 0
		case syntax.Mul:
			if a == 0 || b == 0 {
				return 0, true
			}
			r := a * b
			return r, r/b == a && !(a == -1 && b == math.MinInt64) && !(b == -1 && a == math.MinInt64)
		case syntax.Quo, syntax.Rem:
			if b == 0 || b == -1 && a == math.MinInt64 {
				return 0, false
			}
			if x.Op == syntax.Quo {
				return a / b, true
			}
			return a % b, true
		}
	}
	return 0, false
}

// aliasDefines reports whether alias's arguments define an alias (a word
// with '=', or one not known before it runs): alias NAME, alias -p and
// alias alone only print.
func aliasDefines(args []Word) bool {
	for _, a := range args {
		if a.Dynamic || strings.Contains(a.Value, "=") {
			return true
		}
	}
	return false
}
