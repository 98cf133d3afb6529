package settings

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/cmdguard/cmdguard"
)

// A Rule is one imported prefix rule.
type Rule struct {
	Tokens  []string // "*" is any one word
	Verdict cmdguard.Verdict
	Source  string // file:line of the native rule
	Native  string // the native rule as written
	// rank orders rules for the source's own precedence: its meaning
	// depends on the format (a priority, a position).
	rank int
}

// An IgnorePattern is an imported file rule (Claude Code's Read/Edit deny).
type IgnorePattern struct {
	Pattern, Source, Native string
}

// A Warning is a native rule that cmdguard cannot express exactly.
type Warning struct {
	Source string // file:line
	Native string
	Why    string
}

func (w Warning) String() string { return w.Source + ": " + w.Native + ": " + w.Why }

// An Import is the result of converting one native rule file.
type Import struct {
	Format   string
	File     string
	Default  cmdguard.Verdict
	Rules    []Rule
	Ignore   []IgnorePattern
	Warnings []Warning
}

// ImportFormats lists the formats Import reads.
var ImportFormats = []string{"claude", "gemini", "codex", "roo", "kilo", "opencode", "cline"}

// ImportRules converts a native rule file of the given format (claude,
// gemini, codex, roo, kilo, cline) into cmdguard prefix rules, keeping the
// source's precedence: a rule that the source's own order makes
// unreachable where a cmdguard rule would win instead (a Claude allow
// under a shorter deny, a Gemini rule under a shorter one of higher
// priority, an opencode rule under a later, wider one) is left out and
// listed. Every rule that cannot be expressed exactly is listed in
// Warnings with its file:line.
func ImportRules(format, file string, data []byte) (*Import, error) {
	im := &Import{Format: format, File: file, Default: cmdguard.Ask}
	var err error
	switch format {
	case "claude":
		err = im.claude(data)
	case "gemini":
		err = im.gemini(data)
	case "codex":
		err = im.codex(data)
	case "roo":
		err = im.roo(data, false)
	case "kilo":
		err = im.roo(data, true)
	case "opencode":
		err = im.opencodeConfig(data)
	case "cline":
		err = im.cline(data)
	default:
		return nil, fmt.Errorf("unknown format %q (want %s)", format, strings.Join(ImportFormats, ", "))
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return im, nil
}

func (im *Import) warn(source, native, why string) {
	w := Warning{Source: source, Native: native, Why: why}
	if !slices.Contains(im.Warnings, w) {
		im.Warnings = append(im.Warnings, w)
	}
}

func (im *Import) at(data []byte, off int) string {
	return im.File + ":" + strconv.Itoa(bytes.Count(data[:off], []byte("\n"))+1)
}

// stricter orders verdicts: deny beats ask beats allow.
func stricter(a, b cmdguard.Verdict) bool { return a < b }

// covers reports whether prefix a matches every command prefix b matches.
func covers(a, b []string) bool {
	if len(a) > len(b) {
		return false
	}
	for i := range a {
		if a[i] != "*" && a[i] != b[i] {
			return false
		}
	}
	return true
}

// resolve keeps the source's precedence under cmdguard's (the longest
// prefix wins, the stricter on a tie). beats(a, b) says whether the
// source lets rule a decide a command that b matches too. A rule that a
// wider rule beats is unreachable in the source and would win in cmdguard:
// it is dropped and listed.
func (im *Import) resolve(beats func(a, b Rule) bool) {
	var keep []Rule
	for i, b := range im.Rules {
		dead := ""
		for j, a := range im.Rules {
			if i == j || a.Verdict == b.Verdict || !covers(a.Tokens, b.Tokens) {
				continue
			}
			if len(a.Tokens) == len(b.Tokens) && !covers(b.Tokens, a.Tokens) {
				continue
			}
			if beats(a, b) {
				dead = fmt.Sprintf("never decides in the source: %s (%s, %s) wins wherever it matches; left out", a.Native, a.Source, a.Verdict)
				break
			}
		}
		if dead != "" {
			im.warn(b.Source, b.Native, dead)
			continue
		}
		keep = append(keep, b)
	}
	// The same prefix twice: keep the one the source lets win.
	var out []Rule
	for _, r := range keep {
		k := slices.IndexFunc(out, func(o Rule) bool { return slices.Equal(o.Tokens, r.Tokens) })
		switch {
		case k < 0:
			out = append(out, r)
		case out[k].Verdict == r.Verdict:
		case beats(r, out[k]):
			im.warn(out[k].Source, out[k].Native, "the same prefix as "+r.Native+" ("+r.Source+"), which wins in the source; left out")
			out[k] = r
		default:
			im.warn(r.Source, r.Native, "the same prefix as "+out[k].Native+" ("+out[k].Source+"), which wins in the source; left out")
		}
	}
	// Partial overlaps through "*" words: cmdguard's longest match may
	// pick another rule than the source would.
	for i, a := range out {
		for _, b := range out[i+1:] {
			if a.Verdict != b.Verdict && overlap(a.Tokens, b.Tokens) && !covers(a.Tokens, b.Tokens) && !covers(b.Tokens, a.Tokens) {
				im.warn(b.Source, b.Native, "overlaps "+a.Native+" ("+a.Source+") through a * word: where both match, cmdguard's longest-prefix order decides")
			}
		}
	}
	im.Rules = out
}

// overlap reports whether some command could match both prefixes.
func overlap(a, b []string) bool {
	for i := 0; i < min(len(a), len(b)); i++ {
		if a[i] != "*" && b[i] != "*" && a[i] != b[i] {
			return false
		}
	}
	return true
}

func strictest(a, b Rule) bool { return stricter(a.Verdict, b.Verdict) }

// --- Claude Code: permissions.{allow,ask,deny}, "Bash(…)" ---------------

func (im *Import) claude(data []byte) error {
	root, err := parseJSON(data)
	if err != nil {
		return err
	}
	if root.kind != '{' {
		return errNotObject([]string{"the top level"})
	}
	perms := root.get("permissions")
	if perms == nil || perms.kind != '{' {
		return nil
	}
	for _, list := range []struct {
		key string
		v   cmdguard.Verdict
	}{{"deny", cmdguard.Deny}, {"ask", cmdguard.Ask}, {"allow", cmdguard.Allow}} {
		n := perms.get(list.key)
		if n == nil {
			continue
		}
		if n.kind != '[' {
			return fmt.Errorf("permissions.%s is not an array", list.key)
		}
		for _, e := range n.vals {
			var s string
			if err := json.Unmarshal(data[e.start:e.end], &s); err != nil {
				return fmt.Errorf("%s: permissions.%s holds a non-string", im.at(data, e.start), list.key)
			}
			im.claudeRule(s, list.v, im.at(data, e.start))
		}
	}
	if dm := perms.get("defaultMode"); dm != nil {
		var mode string
		_ = json.Unmarshal(data[dm.start:dm.end], &mode)
		if mode == "bypassPermissions" || mode == "acceptEdits" {
			im.warn(im.at(data, dm.start), "defaultMode: "+mode, "not imported: cmdguard's default stays ask")
		}
	}
	im.resolve(strictest) // deny, then ask, then allow: the first kind that matches decides
	return nil
}

var claudeRuleRE = regexp.MustCompile(`^([A-Za-z_][\w-]*)(?:\((.*)\))?$`)

func (im *Import) claudeRule(s string, v cmdguard.Verdict, src string) {
	m := claudeRuleRE.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		im.warn(src, s, "not a Claude Code permission rule; left out")
		return
	}
	tool, spec := m[1], m[2]
	hasSpec := strings.Contains(s, "(")
	switch tool {
	case "Bash":
	case "Read", "Edit", "Write", "MultiEdit", "NotebookEdit":
		if v == cmdguard.Deny && hasSpec {
			if p, ok := claudePath(spec); ok {
				im.Ignore = append(im.Ignore, IgnorePattern{Pattern: p, Source: src, Native: s})
				if tool != "Read" {
					im.warn(src, s, "imported as the ignore pattern "+p+", which also denies reading it")
				}
				return
			}
		}
		im.warn(src, s, "a file-tool rule that is not a deny of a path; cmdguard's file rules are ignore patterns: left out")
		return
	default:
		im.warn(src, s, "not a shell rule; left out")
		return
	}
	if !hasSpec || spec == "*" || spec == "" {
		if v == cmdguard.Allow {
			im.warn(src, s, "allows every command: imported as default: allow (cmdguard's file and parser checks still apply)")
			im.Default = cmdguard.Allow
			return
		}
		im.Rules = append(im.Rules, Rule{Tokens: []string{"*"}, Verdict: v, Source: src, Native: s})
		return
	}
	var tokens []string
	exact := true
	switch {
	case strings.HasSuffix(spec, ":*"):
		tokens, exact = strings.Fields(strings.TrimSuffix(spec, ":*")), false
	case strings.HasSuffix(spec, " *"):
		tokens, exact = strings.Fields(strings.TrimSuffix(spec, " *")), false
	default:
		tokens = strings.Fields(spec)
	}
	for i, t := range tokens {
		if t == "*" {
			continue
		}
		if strings.ContainsAny(t, "*?[") {
			// A glob inside a word (npm run test*): no token prefix says it.
			cut := tokens[:i]
			if v == cmdguard.Allow || len(cut) == 0 {
				im.warn(src, s, "a * inside a word matches by characters; cmdguard's prefixes match whole words: left out")
				return
			}
			im.warn(src, s, fmt.Sprintf("a * inside a word matches by characters: imported as the wider %s prefix %q", v, strings.Join(cut, " ")))
			tokens, exact = cut, false
			break
		}
	}
	if slices.Contains(tokens, "*") {
		im.warn(src, s, "a * between words matches any text in Claude Code, one word in cmdguard")
	}
	if exact && len(tokens) > 0 {
		if v == cmdguard.Allow {
			im.warn(src, s, "allows exactly this command line; a cmdguard prefix would also allow it with more arguments: left out (add it by hand if that is what you mean)")
			return
		}
		im.warn(src, s, "matches exactly this command line; imported as a prefix, which also "+v.String()+"s it with more arguments")
	}
	if len(tokens) == 0 {
		im.warn(src, s, "empty pattern; left out")
		return
	}
	im.Rules = append(im.Rules, Rule{Tokens: tokens, Verdict: v, Source: src, Native: s})
}

// claudePath converts a Claude Code path specifier to a gitignore pattern
// relative to the project: ./x and /x (the settings file's project) are
// anchored, **/x and bare x match at any depth; ~/ and // (absolute) are
// outside the project.
func claudePath(spec string) (string, bool) {
	switch {
	case strings.HasPrefix(spec, "//"), strings.HasPrefix(spec, "~"):
		return "", false
	case strings.HasPrefix(spec, "./"):
		return "/" + strings.TrimPrefix(spec, "./"), true
	case strings.HasPrefix(spec, "/"):
		return spec, true
	case spec == "":
		return "", false
	}
	return spec, true
}

// --- Gemini CLI: policy TOML [[rule]] ------------------------------------

func (im *Import) gemini(data []byte) error {
	tables, err := parseTOMLRules(data)
	if err != nil {
		return err
	}
	for _, t := range tables {
		src := im.File + ":" + strconv.Itoa(t.line)
		native := t.text()
		var v cmdguard.Verdict
		switch d, _ := t.str("decision"); d {
		case "allow":
			v = cmdguard.Allow
		case "deny":
			v = cmdguard.Deny
		case "ask_user":
			v = cmdguard.Ask
		default:
			im.warn(src, native, fmt.Sprintf("decision %q is not allow, deny or ask_user; left out", d))
			continue
		}
		tool, _ := t.str("toolName")
		prefixes := t.strs("commandPrefix")
		_, hasRegex := t.vals["commandRegex"]
		if tool != "" && tool != "run_shell_command" {
			im.warn(src, native, "not a shell rule; left out")
			continue
		}
		if hasRegex {
			im.warn(src, native, "commandRegex is a regular expression over the JSON-escaped command; cmdguard has prefixes (or Rego): left out")
			continue
		}
		for _, k := range []string{"modes", "interactive", "argsPattern"} {
			if _, ok := t.vals[k]; ok {
				im.warn(src, native, k+" has no cmdguard equivalent: imported for every mode")
			}
		}
		if a, ok := t.vals["allowRedirection"]; ok && a == "true" && v == cmdguard.Allow {
			im.warn(src, native, "allowRedirection: cmdguard still checks every redirect target against the ignore files")
		}
		prio, _ := strconv.Atoi(t.vals["priority"])
		if len(prefixes) == 0 {
			prefixes = []string{"*"}
		}
		for _, p := range prefixes {
			tokens := strings.Fields(p)
			if len(tokens) == 0 {
				continue
			}
			if slices.Equal(tokens, []string{"*"}) && v == cmdguard.Allow && len(t.strs("commandPrefix")) == 0 {
				im.warn(src, native, "allows every shell command; left out (cmdguard's default stays ask)")
				continue
			}
			im.Rules = append(im.Rules, Rule{Tokens: tokens, Verdict: v, Source: src, Native: native, rank: prio})
		}
	}
	im.resolve(func(a, b Rule) bool {
		if a.rank == b.rank {
			return stricter(a.Verdict, b.Verdict) // Gemini does not document ties: take the stricter
		}
		return a.rank > b.rank
	})
	return nil
}

// A tomlTable is one [[rule]] table: its line and raw values.
type tomlTable struct {
	line  int
	vals  map[string]string // key → raw TOML value
	order []string
}

func (t tomlTable) text() string {
	var parts []string
	for _, k := range t.order {
		parts = append(parts, k+" = "+t.vals[k])
	}
	return "[[rule]] " + strings.Join(parts, ", ")
}

func (t tomlTable) str(k string) (string, bool) {
	raw, ok := t.vals[k]
	if !ok {
		return "", false
	}
	s, err := tomlString(raw)
	return s, err == nil
}

// strs reads a string or an array of strings.
func (t tomlTable) strs(k string) []string {
	raw, ok := t.vals[k]
	if !ok {
		return nil
	}
	if s, err := tomlString(raw); err == nil {
		return []string{s}
	}
	var out []string
	for _, item := range splitTOMLArray(raw) {
		if s, err := tomlString(item); err == nil {
			out = append(out, s)
		}
	}
	return out
}

// parseTOMLRules reads the [[rule]] tables of a Gemini policy file: the
// subset of TOML those files use (key = string, number, bool, or array of
// strings, possibly over several lines; # comments).
func parseTOMLRules(data []byte) ([]tomlTable, error) {
	var tables []tomlTable
	var cur *tomlTable
	lines := strings.Split(string(data), "\n")
	for i := 0; i < len(lines); i++ {
		line := strings.TrimSpace(stripTOMLComment(lines[i]))
		switch {
		case line == "":
			continue
		case line == "[[rule]]":
			tables = append(tables, tomlTable{line: i + 1, vals: map[string]string{}})
			cur = &tables[len(tables)-1]
			continue
		case strings.HasPrefix(line, "["):
			cur = nil // another table: not a rule
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if !ok {
			return nil, fmt.Errorf("line %d: not key = value", i+1)
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		for strings.HasPrefix(v, "[") && strings.Count(v, "[") > strings.Count(v, "]") && i+1 < len(lines) {
			i++
			v += " " + strings.TrimSpace(stripTOMLComment(lines[i]))
		}
		if cur != nil {
			cur.vals[k] = v
			cur.order = append(cur.order, k)
		}
	}
	return tables, nil
}

// stripTOMLComment cuts a # comment outside quotes.
func stripTOMLComment(s string) string {
	var q byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case q != 0 && c == '\\' && q == '"':
			i++
		case q != 0 && c == q:
			q = 0
		case q == 0 && (c == '"' || c == '\''):
			q = c
		case q == 0 && c == '#':
			return s[:i]
		}
	}
	return s
}

func tomlString(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	switch {
	case len(raw) >= 2 && raw[0] == '\'' && raw[len(raw)-1] == '\'':
		return raw[1 : len(raw)-1], nil
	case len(raw) >= 2 && raw[0] == '"':
		return strconv.Unquote(raw)
	}
	return "", fmt.Errorf("not a string: %s", raw)
}

// splitTOMLArray splits [a, b, …] at top-level commas.
func splitTOMLArray(raw string) []string {
	raw = strings.TrimSpace(raw)
	if !strings.HasPrefix(raw, "[") || !strings.HasSuffix(raw, "]") {
		return nil
	}
	return splitTop(raw[1:len(raw)-1], ',')
}

// splitTop splits s at sep outside quotes and brackets.
func splitTop(s string, sep byte) []string {
	var out []string
	start := 0
	scanTop(s, 0, false, func(i int, c byte, depth int) bool {
		if c == sep && depth == 0 {
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
		return true
	})
	if last := strings.TrimSpace(s[start:]); last != "" {
		out = append(out, last)
	}
	return out
}

// scanTop calls visit for each byte of s from start that stands outside
// quotes (a backslash escapes inside them) and, with comments, outside #
// comments, with the bracket depth after it: ( and [ raise it, ) and ]
// lower it. visit returns false to stop.
func scanTop(s string, start int, comments bool, visit func(i int, c byte, depth int) bool) {
	depth := 0
	var q byte
	for i := start; i < len(s); i++ {
		c := s[i]
		switch {
		case q != 0 && c == '\\':
			i++
			continue
		case q != 0:
			if c == q {
				q = 0
			}
			continue
		case c == '"' || c == '\'':
			q = c
			continue
		case comments && c == '#':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			continue
		case c == '(' || c == '[':
			depth++
		case c == ')' || c == ']':
			depth--
		}
		if !visit(i, c, depth) {
			return
		}
	}
}

// --- Codex: .rules, prefix_rule(…) ---------------------------------------

func (im *Import) codex(data []byte) error {
	src := string(data)
	for i := 0; i < len(src); {
		// Skip comments and strings at the top level.
		switch c := src[i]; {
		case c == '#':
			if j := strings.IndexByte(src[i:], '\n'); j >= 0 {
				i += j
			} else {
				i = len(src)
			}
			continue
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
			continue
		}
		name := regexp.MustCompile(`^[A-Za-z_]\w*`).FindString(src[i:])
		if name == "" {
			return fmt.Errorf("%s: cannot read %q", im.at(data, i), firstLine(src[i:]))
		}
		open := i + len(name)
		for open < len(src) && (src[open] == ' ' || src[open] == '\t') {
			open++
		}
		if open >= len(src) || src[open] != '(' {
			return fmt.Errorf("%s: %s is not a call", im.at(data, i), name)
		}
		end, err := closing(src, open)
		if err != nil {
			return fmt.Errorf("%s: %v", im.at(data, i), err)
		}
		at := im.at(data, i)
		native := strings.Join(strings.Fields(src[i:end+1]), " ")
		switch name {
		case "prefix_rule":
			if err := im.prefixRule(src[open+1:end], at, native); err != nil {
				return fmt.Errorf("%s: %v", at, err)
			}
		default:
			im.warn(at, native, name+" has no cmdguard equivalent; left out")
		}
		i = end + 1
	}
	im.resolve(strictest) // forbidden > prompt > allow: the strictest matching rule wins
	return nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// closing returns the index of the ) matching the ( at open.
func closing(s string, open int) (int, error) {
	at := -1
	scanTop(s, open, true, func(i int, c byte, depth int) bool {
		if (c == ')' || c == ']') && depth == 0 {
			at = i
			return false
		}
		return true
	})
	if at < 0 {
		return 0, fmt.Errorf("unclosed (")
	}
	return at, nil
}

// pyList reads a Starlark list of strings and lists of strings.
func pyList(s string) ([][]string, error) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]") {
		return nil, fmt.Errorf("not a list: %s", s)
	}
	var out [][]string
	for _, item := range splitTop(s[1:len(s)-1], ',') {
		if strings.HasPrefix(item, "[") {
			alts, err := pyList(item)
			if err != nil {
				return nil, err
			}
			var flat []string
			for _, a := range alts {
				if len(a) != 1 {
					return nil, fmt.Errorf("nested alternatives: %s", item)
				}
				flat = append(flat, a[0])
			}
			out = append(out, flat)
			continue
		}
		str, err := pyString(item)
		if err != nil {
			return nil, err
		}
		out = append(out, []string{str})
	}
	return out, nil
}

func pyString(s string) (string, error) {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		s = `"` + strings.ReplaceAll(s[1:len(s)-1], `"`, `\"`) + `"`
	}
	if len(s) >= 2 && s[0] == '"' {
		return strconv.Unquote(s)
	}
	return "", fmt.Errorf("not a string: %s", s)
}

func (im *Import) prefixRule(args, at, native string) error {
	var pattern [][]string
	v := cmdguard.Allow
	for _, arg := range splitTop(args, ',') {
		k, val, ok := strings.Cut(arg, "=")
		if !ok {
			return fmt.Errorf("prefix_rule takes keyword arguments: %s", arg)
		}
		k, val = strings.TrimSpace(k), strings.TrimSpace(val)
		switch k {
		case "pattern":
			p, err := pyList(val)
			if err != nil {
				return err
			}
			pattern = p
		case "decision":
			d, err := pyString(val)
			if err != nil {
				return err
			}
			switch d {
			case "allow":
				v = cmdguard.Allow
			case "prompt":
				v = cmdguard.Ask
			case "forbidden":
				v = cmdguard.Deny
			default:
				return fmt.Errorf("decision %q", d)
			}
		case "justification", "match", "not_match":
		default:
			im.warn(at, native, "argument "+k+" has no cmdguard equivalent; ignored")
		}
	}
	if len(pattern) == 0 {
		return fmt.Errorf("prefix_rule without a pattern")
	}
	// Expand the alternatives into one prefix each.
	prefixes := [][]string{{}}
	for _, alts := range pattern {
		var next [][]string
		for _, p := range prefixes {
			for _, a := range alts {
				next = append(next, append(slices.Clone(p), a))
			}
		}
		prefixes = next
	}
	for _, p := range prefixes {
		im.Rules = append(im.Rules, Rule{Tokens: p, Verdict: v, Source: at, Native: native})
	}
	return nil
}

// --- Roo Code / Kilo Code: allowed and denied command lists ---------------

func (im *Import) roo(data []byte, kilo bool) error {
	clean := stripJSONC(data)
	root, err := parseJSON(clean)
	if err != nil {
		return err
	}
	if root.kind != '{' {
		return errNotObject([]string{"the top level"})
	}
	if kilo {
		if p := root.get("permission"); p != nil && p.kind == '{' {
			return im.opencode(clean, p)
		}
	}
	found := false
	for i, key := range root.keys {
		var v cmdguard.Verdict
		switch {
		case strings.HasSuffix(key, ".allowedCommands") || key == "allowedCommands":
			v = cmdguard.Allow
		case strings.HasSuffix(key, ".deniedCommands") || key == "deniedCommands":
			v = cmdguard.Deny
		default:
			continue
		}
		n := root.vals[i]
		if n.kind != '[' {
			return fmt.Errorf("%s is not an array", key)
		}
		found = true
		for _, e := range n.vals {
			var s string
			src := im.at(clean, e.start)
			if err := json.Unmarshal(clean[e.start:e.end], &s); err != nil {
				return fmt.Errorf("%s: %s holds a non-string", src, key)
			}
			tokens := strings.Fields(s)
			if s == "*" {
				if v == cmdguard.Allow {
					im.warn(src, s, "allows every command; left out (cmdguard's default stays ask)")
					continue
				}
				tokens = []string{"*"}
			}
			if len(tokens) == 0 {
				continue
			}
			why := "matches by characters, case-insensitively"
			if v == cmdguard.Deny {
				why += fmt.Sprintf(": %q also denies %q; cmdguard denies the whole words only", s, s+"x")
			} else {
				why += fmt.Sprintf(": %q also allows %q; cmdguard allows the whole words only (narrower)", s, s+"x")
			}
			im.warn(src, s, why)
			im.Rules = append(im.Rules, Rule{Tokens: tokens, Verdict: v, Source: src, Native: s})
		}
	}
	if !found {
		im.warn(im.File+":1", "(no command lists)", "no *.allowedCommands or *.deniedCommands found")
	}
	// The longest prefix wins, a tie is denied: cmdguard's own order.
	im.resolve(func(a, b Rule) bool { return false })
	return nil
}

// opencodeConfig reads an opencode.json (or kilo.json): its permission
// map, a string for every tool or an object with bash.
func (im *Import) opencodeConfig(data []byte) error {
	clean := stripJSONC(data)
	root, err := parseJSON(clean)
	if err != nil {
		return err
	}
	if root.kind != '{' {
		return errNotObject([]string{"the top level"})
	}
	p := root.get("permission")
	switch {
	case p == nil:
		im.warn(im.File+":1", "(no permission)", "no permission map found")
		return nil
	case p.kind == '{':
		return im.opencode(clean, p)
	}
	var s string
	if err := json.Unmarshal(clean[p.start:p.end], &s); err != nil {
		return fmt.Errorf("%s: permission is neither an object nor a string", im.at(clean, p.start))
	}
	return im.opencodeAll(clean, p.start, s)
}

// opencodeAll is a permission (or permission.bash) that is one word for
// every command.
func (im *Import) opencodeAll(data []byte, off int, s string) error {
	v := verdictWord(s, 99)
	native := fmt.Sprintf("%q", s)
	switch v {
	case 99:
		return fmt.Errorf("%s: permission %s is not allow, ask or deny", im.at(data, off), native)
	case cmdguard.Allow:
		im.warn(im.at(data, off), native, "allows every command; cmdguard's default stays ask")
	default:
		im.Default = v
	}
	return nil
}

// opencode reads Kilo ≥ 1.0's and opencode's permission.bash map: globs
// matched against the whole command line (a trailing " *" also matches
// the command without arguments), the last matching rule wins.
func (im *Import) opencode(data []byte, perm *jnode) error {
	bash := perm.get("bash")
	if bash == nil {
		return nil
	}
	if bash.kind != '{' {
		var s string
		if err := json.Unmarshal(data[bash.start:bash.end], &s); err != nil {
			return fmt.Errorf("%s: permission.bash is neither an object nor a string", im.at(data, bash.start))
		}
		return im.opencodeAll(data, bash.start, s)
	}
	for i, pat := range bash.keys {
		e := bash.vals[i]
		src := im.at(data, bash.keyStart[i])
		var s string
		if err := json.Unmarshal(data[e.start:e.end], &s); err != nil {
			return fmt.Errorf("%s: permission.bash[%q] is not a string", src, pat)
		}
		v := verdictWord(s, 99)
		native := fmt.Sprintf("%q: %q", pat, s)
		if v == 99 {
			im.warn(src, native, "not allow, ask or deny; left out")
			continue
		}
		if pat == "*" {
			// The last match wins: every rule before "*" never decides.
			for _, r := range im.Rules {
				im.warn(r.Source, r.Native, fmt.Sprintf("never decides in the source: the later %s (%s) matches every command; left out", native, src))
			}
			im.Rules = nil
			if v == cmdguard.Allow {
				im.warn(src, native, "allows every command; cmdguard's default stays ask")
				im.Default = cmdguard.Ask
				continue
			}
			im.Default = v
			continue
		}
		tokens := strings.Fields(strings.TrimSuffix(strings.TrimSpace(pat), " *"))
		if len(tokens) == 0 {
			continue
		}
		// "git push*" (a deny or ask): narrowed to the whole words "git
		// push", so that a wider allow before it does not decide git push.
		if lit := strings.TrimSuffix(pat, "*"); v != cmdguard.Allow && lit != pat && !strings.HasSuffix(lit, " ") &&
			!strings.ContainsAny(lit, "*?") && len(strings.Fields(lit)) > 0 {
			im.warn(src, native, fmt.Sprintf("a glob inside a word: imported as the prefix %q, whole words only (%q is not %s)", lit, lit+"x", v))
			im.Rules = append(im.Rules, Rule{Tokens: strings.Fields(lit), Verdict: v, Source: src, Native: native, rank: i})
			continue
		}
		if strings.ContainsAny(strings.Join(tokens, " "), "*?") {
			im.warn(src, native, "a glob inside the pattern; cmdguard's prefixes match whole words: left out")
			continue
		}
		if !strings.HasSuffix(pat, " *") {
			im.warn(src, native, "matches exactly this command line; imported as a prefix")
			if v == cmdguard.Allow {
				im.Warnings[len(im.Warnings)-1].Why = "allows exactly this command line; a prefix would allow more: left out"
				continue
			}
		}
		if strings.ContainsAny(strings.Join(tokens, " "), "*?") {
			im.warn(src, native, "a glob inside the pattern; cmdguard's prefixes match whole words: left out")
			continue
		}
		im.Rules = append(im.Rules, Rule{Tokens: tokens, Verdict: v, Source: src, Native: native, rank: i})
	}
	im.resolve(func(a, b Rule) bool { return a.rank > b.rank }) // the last match wins
	return nil
}

func verdictWord(s string, otherwise cmdguard.Verdict) cmdguard.Verdict {
	switch s {
	case "allow":
		return cmdguard.Allow
	case "ask":
		return cmdguard.Ask
	case "deny":
		return cmdguard.Deny
	}
	return otherwise
}

// stripJSONC blanks // and /* */ comments and trailing commas (VS Code
// settings files), keeping every offset and line.
func stripJSONC(data []byte) []byte {
	out := bytes.Clone(data)
	inStr := false
	for i := 0; i < len(out); i++ {
		c := out[i]
		switch {
		case inStr && c == '\\':
			i++
		case c == '"':
			inStr = !inStr
		case inStr:
		case c == '/' && i+1 < len(out) && out[i+1] == '/':
			for i < len(out) && out[i] != '\n' {
				out[i] = ' '
				i++
			}
		case c == '/' && i+1 < len(out) && out[i+1] == '*':
			for i < len(out) && !(out[i] == '*' && i+1 < len(out) && out[i+1] == '/') {
				if out[i] != '\n' {
					out[i] = ' '
				}
				i++
			}
			if i+1 < len(out) {
				out[i], out[i+1] = ' ', ' '
				i++
			}
		case c == ',':
			j := i + 1
			for j < len(out) && strings.IndexByte(" \t\r\n", out[j]) >= 0 {
				j++
			}
			if j < len(out) && (out[j] == '}' || out[j] == ']') {
				out[i] = ' '
			}
		}
	}
	return out
}

// --- Cline: CLINE_COMMAND_PERMISSIONS ------------------------------------

func (im *Import) cline(data []byte) error {
	root, err := parseJSON(data)
	if err != nil {
		return fmt.Errorf("not JSON: %v (Cline itself would allow everything)", err)
	}
	if root.kind != '{' {
		return errNotObject([]string{"the top level"})
	}
	for _, list := range []struct {
		key string
		v   cmdguard.Verdict
	}{{"deny", cmdguard.Deny}, {"allow", cmdguard.Allow}} {
		n := root.get(list.key)
		if n == nil {
			continue
		}
		if n.kind != '[' {
			return fmt.Errorf("%s is not an array", list.key)
		}
		if list.v == cmdguard.Allow && len(n.vals) > 0 {
			im.Default = cmdguard.Deny // with allow rules, no match is denied
		}
		for _, e := range n.vals {
			var s string
			src := im.at(data, e.start)
			if err := json.Unmarshal(data[e.start:e.end], &s); err != nil {
				return fmt.Errorf("%s: %s holds a non-string", src, list.key)
			}
			im.clineRule(s, list.v, src)
		}
	}
	if n := root.get("allowRedirects"); n != nil || root.get("allowOperators") != nil {
		im.warn(im.at(data, root.start), "allowRedirects/allowOperators", "cmdguard does not block operators; it checks every redirect target against the ignore files")
	}
	if root.get("allow") == nil {
		im.warn(im.at(data, root.start), "(no allow list)", "Cline allows everything without allow rules; cmdguard's default stays ask")
	}
	im.resolve(strictest) // deny first, then allow
	return nil
}

func (im *Import) clineRule(s string, v cmdguard.Verdict, src string) {
	if s == "*" {
		if v == cmdguard.Allow {
			im.warn(src, s, "allows every command; cmdguard's default stays ask")
			im.Default = cmdguard.Ask
			return
		}
		im.Rules = append(im.Rules, Rule{Tokens: []string{"*"}, Verdict: v, Source: src, Native: s})
		return
	}
	trimmed := strings.TrimSuffix(s, " *")
	tokens := strings.Fields(trimmed)
	if strings.ContainsAny(trimmed, "*?") || len(tokens) == 0 {
		im.warn(src, s, "a glob inside the pattern matches by characters; cmdguard's prefixes match whole words: left out")
		return
	}
	if trimmed == s {
		if v == cmdguard.Allow {
			im.warn(src, s, "allows exactly this command line; a prefix would allow more: left out")
			return
		}
		im.warn(src, s, "matches exactly this command line; imported as a prefix, which also denies it with more arguments")
	} else {
		im.warn(src, s, fmt.Sprintf("Cline's glob needs a word after %q; the cmdguard prefix also matches %q alone", trimmed, trimmed))
	}
	im.Rules = append(im.Rules, Rule{Tokens: tokens, Verdict: v, Source: src, Native: s})
}

// --- output --------------------------------------------------------------

// YAML renders the import as a .cmdguard.yaml, each rule with its source,
// and the rules that could not be expressed exactly at the end.
func (im *Import) YAML(command string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# Imported by `%s`.\n", command)
	fmt.Fprintf(&b, "# %s's order is kept: rules it would never let decide are left out (listed below).\n", im.Format)
	b.WriteString("version: 1\n")
	fmt.Fprintf(&b, "default: %s\n", im.Default)
	for _, v := range []cmdguard.Verdict{cmdguard.Allow, cmdguard.Ask, cmdguard.Deny} {
		var lines []string
		for _, r := range im.Rules {
			if r.Verdict == v {
				lines = append(lines, fmt.Sprintf("  - %s  # %s %s", yamlPrefix(r.Tokens), r.Source, oneLine(r.Native)))
			}
		}
		if len(lines) == 0 {
			continue
		}
		fmt.Fprintf(&b, "%s:\n%s\n", v, strings.Join(lines, "\n"))
	}
	if len(im.Ignore) > 0 {
		b.WriteString("ignore:\n")
		for _, p := range im.Ignore {
			q, _ := json.Marshal(p.Pattern)
			fmt.Fprintf(&b, "  - %s  # %s %s\n", q, p.Source, oneLine(p.Native))
		}
	}
	if len(im.Warnings) > 0 {
		b.WriteString("# Not expressed exactly:\n")
		for _, w := range im.Warnings {
			fmt.Fprintf(&b, "#   %s\n", oneLine(w.String()))
		}
	}
	return b.Bytes()
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(cmdguard.TerminalSafe(s)), " ")
}

var plainToken = regexp.MustCompile(`^[A-Za-z0-9_./=+%@-][A-Za-z0-9_./:=+%@,-]*$`)

// yamlPrefix writes a prefix as a plain string when every token is plain,
// else as a list of quoted tokens.
func yamlPrefix(tokens []string) string {
	plain := true
	for _, t := range tokens {
		if !plainToken.MatchString(t) || t == "-" {
			plain = false
		}
	}
	if plain && len(tokens) > 0 && !strings.ContainsAny(tokens[0][:1], "-@%") {
		return strings.Join(tokens, " ")
	}
	q, _ := json.Marshal(tokens)
	return string(q)
}
