package policy

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// FileName is the name of a policy file, found by [Find].
const FileName = ".cmdguard.yaml"

//go:embed default.yaml
var defaultPolicy []byte

//go:embed starter.yaml
var starterPolicy []byte

// DefaultIgnoreFiles are the ignore files read when a policy has no
// ignore_files: key (docs/contract.md, "Policy file").
var defaultIgnoreFiles = [...]string{".cmdguardignore", ".kilocodeignore", ".rooignore", ".clineignore", ".geminiignore", ".cursorignore", ".aiexclude"}

// Policy is a compiled policy file. Build one with [Load], [Parse] or
// [Default]; it is immutable afterwards and safe for concurrent use by
// many goroutines (the Rego query is prepared once, at load). A nil or
// zero Policy is usable and denies everything with reason policy.invalid.
type Policy struct {
	name    string // file name used in positions and sources
	path    string // file path, "" for the embedded default
	builtin bool
	// strict: allowed programs pass only with the options the gate knows
	// (policy.unknown_option), and an allowed command that runs the
	// project's code needs the sandbox (policy.needs_sandbox). The
	// embedded default is strict; a file says strict: true.
	strict bool

	def       Verdict
	defSource string
	defNode   *yaml.Node // the default: value, for Lint

	prefixes []Prefix
	trie     *node
	ties     []tie                // the same prefix in two lists, for Lint
	wide     map[string][]*Prefix // deny and ask rules by program, for spelled matching
	spell    Spelling             // reads their spellings (see WithSpelling); zero: every spelling
	ratings  map[string]rating

	ignoreFiles []string
	ignore      []Pattern
	envSafe     []string
	exec        Exec
	sandbox     Sandbox
	rego        *regoPolicy
	// skip holds top-level keys another reader owns (see WithSkipKeys).
	skip []string
}

// tie is a prefix listed in two of allow:, ask: and deny:.
type tie struct{ pr, first Prefix }

// Prefix is one rule of an allow:, ask: or deny: list.
type Prefix struct {
	Verdict Verdict  `json:"verdict"`
	Tokens  []string `json:"tokens"`
	Source  string   `json:"source"` // "file:line", or "builtin"
	quoted  string   // strconv.Quote(String()), for messages
	need    *need    // a deny or ask rule's options and operands (see wideIndex)
	index   int      // position in the file, for stable tie-breaking
	line    int      // position of the item, for Lint
	col     int
}

// String renders the prefix as written in the policy (tokens joined by
// one space).
func (p Prefix) String() string { return strings.Join(p.Tokens, " ") }

// Pattern is one inline ignore: pattern with its source.
type Pattern struct {
	Pattern string `json:"pattern"`
	Source  string `json:"source"` // "file:line", or "builtin"
}

// rating is the verdict a policy gives a rule id, and where it says so.
type rating struct {
	Verdict Verdict `json:"verdict"`
	Source  string  `json:"source"` // "file:line", or "builtin" for the registry default
	line    int
	col     int
}

// Exec holds the exec: settings of a policy. A zero field means the
// policy does not set it, and the gate's default applies.
type Exec struct {
	Timeout     time.Duration `json:"timeout"`
	HardTimeout time.Duration `json:"hard_timeout"`
	OutputLimit int64         `json:"output_limit"` // bytes
	EnvAllow    []string      `json:"env_allow"`    // nil when unset
	// ModelOutputLimit is the bytes of each stream a model is shown (the
	// MCP server's tool results).
	ModelOutputLimit int64 `json:"model_output_limit"`
}

// Find walks up from cwd to the first directory holding a FileName and
// returns its path. ok is false when there is none up to the file system
// root. An error (other than a missing file) stops the walk: the gate
// must fail closed rather than skip an unreadable policy.
func Find(cwd string) (path string, ok bool, err error) {
	dir, err := filepath.Abs(cwd)
	if err != nil {
		return "", false, fmt.Errorf("find policy: %w", err)
	}
	for {
		p := filepath.Join(dir, FileName)
		fi, err := os.Stat(p)
		switch {
		case err == nil && fi.Mode().IsRegular():
			return p, true, nil
		case err == nil:
			return "", false, fmt.Errorf("find policy: %s is not a regular file", p)
		case !errors.Is(err, fs.ErrNotExist):
			return "", false, fmt.Errorf("find policy: %w", err)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false, nil
		}
		dir = parent
	}
}

// Load reads and compiles the policy file at path. Rego globs resolve
// relative to the file's directory.
func Load(path string, opts ...LoadOption) (*Policy, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load policy: %w", err)
	}
	p, err := Parse(path, data, filepath.Dir(path), opts...)
	if err != nil {
		return nil, fmt.Errorf("load policy: %w", err) // each error names the file
	}
	p.path = path
	return p, nil
}

// Parse compiles a policy from data. name is used in error positions and
// rule sources; dir is the directory rego: globs are relative to. A
// policy with any problem is an error (of type [Errors], every problem
// with file:line:col), never a partial policy.
func Parse(name string, data []byte, dir string, opts ...LoadOption) (*Policy, error) {
	return parse(name, data, dir, false, opts)
}

// Default returns the embedded default policy: the read-only commands a
// developer runs all day are allowed, everything else asks. It never uses
// Rego.
func Default(opts ...LoadOption) (*Policy, error) {
	return parse("builtin", defaultPolicy, "", true, opts)
}

// DefaultYAML returns the text of the embedded default policy.
func DefaultYAML() []byte { return bytes.Clone(defaultPolicy) }

// StarterYAML returns a commented starter policy file, as cmdguard init
// writes it: the embedded default policy (from its version: line on; it
// says strict: true, so the file decides every command as the embedded
// default does), after a head that explains the schema and lists the
// keys the default leaves unset, commented out.
func StarterYAML() []byte {
	body := defaultPolicy
	if i := bytes.Index(body, []byte("\nversion: 1\n")); i >= 0 {
		body = body[i+1:]
	}
	return append(bytes.Clone(starterPolicy), body...)
}

// Path returns the file the policy was loaded from, or "" for a policy
// from [Parse] or [Default].
func (p *Policy) Path() string {
	if p == nil {
		return ""
	}
	return p.path
}

// IsDefault reports whether p is the embedded default policy.
func (p *Policy) IsDefault() bool { return p != nil && p.builtin }

// Strict reports whether the policy is strict, as the embedded default
// is (strict: true in a file): an allowed program passes only with the
// options the gate knows (policy.unknown_option), and an allowed command
// that runs the project's code only under the sandbox
// (policy.needs_sandbox).
func (p *Policy) Strict() bool { return p != nil && p.strict }

// HasRego reports whether the policy evaluates Rego modules.
func (p *Policy) HasRego() bool { return p != nil && p.rego != nil }

// Prefixes returns every allow/ask/deny rule in file order.
func (p *Policy) Prefixes() []Prefix {
	if p == nil {
		return nil
	}
	return append([]Prefix(nil), p.prefixes...)
}

// DefaultVerdict returns the verdict when no prefix rule matches, and its
// source.
func (p *Policy) DefaultVerdict() (Verdict, string) {
	if p == nil || p.trie == nil {
		return Deny, "builtin"
	}
	return p.def, p.defSource
}

// EnvSafe returns the env_safe: list: names, or prefixes ending in "*",
// of environment variables the policy declares harmless in addition to
// the gate's own short list. Variables that programs read as code stay
// env.code_injection whatever this list says.
func (p *Policy) EnvSafe() []string {
	if p == nil {
		return nil
	}
	return append([]string(nil), p.envSafe...)
}

// IgnoreFiles returns the names of the ignore files to read: the
// ignore_files: list, or the default list when unset. .cmdguardignore is
// always first.
func (p *Policy) IgnoreFiles() []string {
	if p == nil || p.ignoreFiles == nil {
		return append([]string(nil), defaultIgnoreFiles[:]...)
	}
	return append([]string(nil), p.ignoreFiles...)
}

// IgnorePatterns returns the inline ignore: patterns with their sources.
func (p *Policy) IgnorePatterns() []Pattern {
	if p == nil {
		return nil
	}
	return append([]Pattern(nil), p.ignore...)
}

// Exec returns the exec: settings.
func (p *Policy) Exec() Exec {
	if p == nil {
		return Exec{}
	}
	e := p.exec
	if e.EnvAllow != nil {
		e.EnvAllow = append(make([]string, 0, len(e.EnvAllow)), e.EnvAllow...)
	}
	return e
}

// RuleVerdict returns the verdict of a rule id under this policy: the
// rules: entry, else the registry default ("builtin"). policy.no_match
// gives the default: verdict. An unknown id, or a nil policy, is Deny.
func (p *Policy) RuleVerdict(id string) (Verdict, string) {
	if p == nil || p.trie == nil {
		return Deny, "builtin"
	}
	if id == "policy.no_match" {
		return p.def, p.defSource
	}
	if r, ok := p.ratings[id]; ok {
		return r.Verdict, r.Source
	}
	if info, ok := LookupRule(id); ok {
		return info.Verdict, "builtin"
	}
	return Deny, "builtin"
}

// rerated reports whether the policy's rules: re-rates id.
func (p *Policy) rerated(id string) bool {
	_, ok := p.ratings[id]
	return ok
}

// decoder walks the YAML node tree, collecting every error.
type decoder struct {
	p          *Policy
	dir        string
	errs       Errors
	seen       map[string]Prefix // joined tokens → first rule
	rego       []string          // module files, in order
	regoSource string
}

func parse(name string, data []byte, dir string, builtin bool, opts []LoadOption) (*Policy, error) {
	if name == "" {
		name = "<policy>"
	}
	p := &Policy{name: name, builtin: builtin, strict: builtin, def: Ask, defSource: "default"}
	for _, o := range opts {
		o(p)
	}
	d := &decoder{p: p, dir: dir, seen: map[string]Prefix{}}
	d.decode(data)
	if len(d.errs) == 0 && len(d.rego) > 0 {
		rp, errs := compileRego(d.rego, d.regoSource)
		d.errs = append(d.errs, explainRefused(errs)...)
		p.rego = rp
	}
	if len(d.errs) > 0 {
		return nil, d.errs
	}
	p.trie = buildTrie(p.prefixes)
	p.wide = wideIndex(p.prefixes, p.spell)
	return p, nil
}

var yamlLine = regexp.MustCompile(`^(?:yaml: )?line (\d+): `)

func (d *decoder) decode(data []byte) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		if err == io.EOF {
			d.errorf(nil, "empty policy: want at least \"version: 1\"")
			return
		}
		line, msg := 1, err.Error()
		if m := yamlLine.FindStringSubmatch(msg); m != nil {
			line, _ = strconv.Atoi(m[1])
			msg = msg[len(m[0]):]
		}
		msg = strings.TrimPrefix(msg, "yaml: ")
		if strings.HasPrefix(msg, "did not find expected") {
			line++ // yaml.v3 reports the 0-based line of the construct for parser errors
		}
		d.errs = append(d.errs, &Error{File: d.p.name, Line: line, Col: 1, Msg: "invalid YAML: " + msg})
		return
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err != io.EOF {
		d.errorf(&extra, "more than one YAML document")
		return
	}
	if d.noAliases(&doc); len(d.errs) > 0 {
		return
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 0 {
		d.errorf(nil, "empty policy: want at least \"version: 1\"")
		return
	}
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind != yaml.MappingNode {
		d.errorf(root, "a policy must be a mapping with \"version: 1\"")
		return
	}
	haveVersion := false
	keys := map[string]int{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		if line, dup := keys[k.Value]; dup {
			d.errorf(k, "key %q repeated (first at line %d)", k.Value, line)
			continue
		}
		keys[k.Value] = k.Line
		switch k.Value {
		case "version":
			haveVersion = true
			if v.Kind != yaml.ScalarNode || v.Tag != "!!int" || v.Value != "1" {
				d.errorf(v, "unsupported version %q: want 1", v.Value)
			}
		case "strict":
			d.p.strict = d.boolean(v) || d.p.builtin
		case "default":
			if vd, ok := d.verdict(v); ok {
				d.p.def, d.p.defSource, d.p.defNode = vd, d.source(v), v
			}
		case "allow":
			d.prefixList(v, Allow, k.Value)
		case "ask":
			d.prefixList(v, Ask, k.Value)
		case "deny":
			d.prefixList(v, Deny, k.Value)
		case "ignore_files":
			d.ignoreFiles(v)
		case "ignore":
			for _, n := range d.seq(v, k.Value) {
				if s, ok := d.str(n); ok {
					if strings.ContainsAny(s, "\r\n") {
						d.errorf(n, "ignore pattern %q holds a line break", s)
						continue
					}
					d.p.ignore = append(d.p.ignore, Pattern{Pattern: s, Source: d.source(n)})
				}
			}
		case "rules":
			d.rules(v)
		case "rego":
			d.regoGlobs(k, v)
		case "exec":
			d.execSettings(v)
		case "sandbox":
			d.sandboxSettings(v)
		case "env_safe":
			d.envSafe(v)
		default:
			if !slices.Contains(d.p.skip, k.Value) {
				d.errorf(k, "unknown key %q", k.Value)
			}
		}
	}
	if !haveVersion {
		d.errorf(root, "missing \"version: 1\"")
	}
	if len(d.errs) == 0 && !d.p.builtin {
		d.sandboxDefaults()
	}
}

func (d *decoder) noAliases(n *yaml.Node) {
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		d.errorf(n, "YAML anchors and aliases are not supported in a policy")
		return
	}
	for _, c := range n.Content {
		d.noAliases(c)
	}
}

func (d *decoder) errorf(n *yaml.Node, format string, args ...any) {
	line, col := 1, 1
	if n != nil && n.Line > 0 {
		line, col = n.Line, n.Column
	}
	d.errs = append(d.errs, &Error{File: d.p.name, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)})
}

func (d *decoder) source(n *yaml.Node) string {
	if d.p.builtin {
		return "builtin"
	}
	return fmt.Sprintf("%s:%d", d.p.name, n.Line)
}

// seq returns the items of a list; null is an empty list.
func (d *decoder) seq(n *yaml.Node, key string) []*yaml.Node {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		d.errorf(n, "%s must be a list", key)
		return nil
	}
	return n.Content
}

// str returns a non-empty scalar. Numbers and booleans are taken as
// written (allow: [true] is the command true).
func (d *decoder) str(n *yaml.Node) (string, bool) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		d.errorf(n, "want a non-empty string")
		return "", false
	}
	if n.Value == "" {
		d.errorf(n, "empty string")
		return "", false
	}
	return n.Value, true
}

func (d *decoder) verdict(n *yaml.Node) (Verdict, bool) {
	if n.Kind == yaml.ScalarNode {
		if v, err := ParseVerdict(n.Value); err == nil {
			return v, true
		}
	}
	d.errorf(n, "invalid verdict %q: want allow, ask or deny", n.Value)
	return Deny, false
}

func (d *decoder) prefixList(n *yaml.Node, v Verdict, key string) {
	for _, item := range d.seq(n, key) {
		var toks []string
		switch item.Kind {
		case yaml.ScalarNode:
			if item.Tag == "!!null" {
				d.errorf(item, "empty prefix in %s", key)
				continue
			}
			toks = strings.Fields(item.Value)
		case yaml.SequenceNode:
			for _, t := range item.Content {
				if t.Kind != yaml.ScalarNode || t.Tag == "!!null" {
					d.errorf(t, "a prefix token must be a string")
					toks = nil
					break
				}
				toks = append(toks, t.Value)
			}
		default:
			d.errorf(item, "a prefix must be a string or a list of tokens")
			continue
		}
		if len(toks) == 0 {
			d.errorf(item, "empty prefix in %s", key)
			continue
		}
		if bad := placeholder(toks); bad != "" {
			d.errorf(item, "%s", bad)
			continue
		}
		pr := Prefix{Verdict: v, Tokens: toks, Source: d.source(item), index: len(d.p.prefixes), line: item.Line, col: item.Column}
		k := strings.Join(toks, "\x00")
		if first, dup := d.seen[k]; dup {
			if first.Verdict == v {
				d.errorf(item, "prefix %q repeated in %s (first at %s)", pr, key, first.Source)
				continue
			}
			// The same prefix in two lists is a tie that the stricter
			// wins (docs/contract.md, "Policy file"): imported lists overlap. Lint warns.
			d.p.ties = append(d.p.ties, tie{pr: pr, first: first})
		}
		d.seen[k] = pr
		pr.quoted = strconv.Quote(pr.String())
		d.p.prefixes = append(d.p.prefixes, pr)
	}
}

// placeholder checks the {name} tokens of a prefix: {project} (see
// projectToken) stands for the program word only, and no other name is
// known. It returns what is wrong, or "".
func placeholder(toks []string) string {
	for i, t := range toks {
		if len(t) < 3 || t[0] != '{' || t[len(t)-1] != '}' || strings.ContainsAny(t[1:len(t)-1], "{},. ") {
			continue // {}, {a,b} and the like are words
		}
		switch {
		case t != projectToken:
			return fmt.Sprintf("unknown placeholder %q in prefix %q: the only one is %s (a file of the project run by its path)", t, strings.Join(toks, " "), projectToken)
		case i != 0:
			return fmt.Sprintf("%s in prefix %q names the program: it must be the first token", projectToken, strings.Join(toks, " "))
		}
	}
	return ""
}

// envSafe reads env_safe: names (or NAME* prefixes) of environment
// variables that no program reads as code or as a file.
func (d *decoder) envSafe(n *yaml.Node) {
	for _, item := range d.seq(n, "env_safe") {
		s, ok := d.str(item)
		if !ok {
			continue
		}
		if !envName.MatchString(strings.TrimSuffix(s, "*")) {
			d.errorf(item, "env_safe entry %q must be a variable name or a NAME* prefix", s)
			continue
		}
		d.p.envSafe = append(d.p.envSafe, s)
	}
}

func (d *decoder) ignoreFiles(n *yaml.Node) {
	files := []string{".cmdguardignore"}
	for _, item := range d.seq(n, "ignore_files") {
		s, ok := d.str(item)
		if !ok {
			continue
		}
		if strings.ContainsRune(s, '/') || s == "." || s == ".." {
			d.errorf(item, "ignore file %q must be a file name, not a path", s)
			continue
		}
		if s == ".cmdguardignore" {
			continue // always read, and always first
		}
		for _, f := range files[1:] {
			if f == s {
				d.errorf(item, "ignore file %q repeated", s)
			}
		}
		files = append(files, s)
	}
	d.p.ignoreFiles = files
}

func (d *decoder) rules(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return
	}
	if n.Kind != yaml.MappingNode {
		d.errorf(n, "rules must be a mapping of rule id to verdict")
		return
	}
	d.p.ratings = map[string]rating{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		info, ok := LookupRule(k.Value)
		switch {
		case !ok:
			d.errorf(k, "unknown rule id %q", k.Value)
			continue
		case info.Fixed:
			d.errorf(k, "rule %q cannot be re-rated", k.Value)
			continue
		}
		if _, dup := d.p.ratings[k.Value]; dup {
			d.errorf(k, "rule %q repeated", k.Value)
			continue
		}
		vd, ok := d.verdict(v)
		if !ok {
			continue
		}
		if vd > info.Loosest {
			d.errorf(v, "rule %q cannot be rated looser than %s", k.Value, info.Loosest)
			continue
		}
		d.p.ratings[k.Value] = rating{Verdict: vd, Source: d.source(k), line: k.Line, col: k.Column}
	}
}

func (d *decoder) regoGlobs(k, n *yaml.Node) {
	d.regoSource = d.source(k)
	seen := map[string]bool{}
	for _, item := range d.seq(n, "rego") {
		glob, ok := d.str(item)
		if !ok {
			continue
		}
		pat := glob
		if !filepath.IsAbs(pat) {
			pat = filepath.Join(d.dir, pat)
		}
		matches, err := filepath.Glob(pat)
		if err != nil {
			d.errorf(item, "bad rego glob %q: %v", glob, err)
			continue
		}
		n := 0
		for _, m := range matches {
			if strings.HasSuffix(m, "_test.rego") || !strings.HasSuffix(m, ".rego") {
				continue // tests run with policy test, not at every check
			}
			if fi, err := os.Stat(m); err != nil || !fi.Mode().IsRegular() {
				continue
			}
			n++
			if !seen[m] {
				seen[m] = true
				d.rego = append(d.rego, m)
			}
		}
		if n == 0 {
			d.errorf(item, "rego glob %q matches no .rego module (tests ending in _test.rego do not count)", glob)
		}
	}
}

var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

func (d *decoder) execSettings(n *yaml.Node) {
	if n.Kind != yaml.MappingNode {
		d.errorf(n, "exec must be a mapping")
		return
	}
	e := &d.p.exec
	var timeoutNode *yaml.Node
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if seen[k.Value] {
			d.errorf(k, "key %q repeated in exec", k.Value)
			continue
		}
		seen[k.Value] = true
		switch k.Value {
		case "timeout":
			e.Timeout = d.duration(v)
			timeoutNode = v
		case "hard_timeout":
			e.HardTimeout = d.duration(v)
		case "output_limit":
			e.OutputLimit = d.size(v)
		case "model_output_limit":
			e.ModelOutputLimit = d.size(v)
		case "env_allow":
			e.EnvAllow = make([]string, 0)
			for _, item := range d.seq(v, "env_allow") {
				if s, ok := d.str(item); ok {
					if !envName.MatchString(s) {
						d.errorf(item, "invalid environment variable name %q", s)
						continue
					}
					e.EnvAllow = append(e.EnvAllow, s)
				}
			}
		default:
			d.errorf(k, "unknown key %q in exec", k.Value)
		}
	}
	if e.Timeout > 0 && e.HardTimeout > 0 && e.HardTimeout < e.Timeout {
		d.errorf(timeoutNode, "timeout %v is longer than hard_timeout %v", e.Timeout, e.HardTimeout)
	}
}

func (d *decoder) duration(n *yaml.Node) time.Duration {
	if n.Kind == yaml.ScalarNode {
		if v, err := time.ParseDuration(n.Value); err == nil && v > 0 {
			return v
		}
	}
	d.errorf(n, "invalid duration %q: want a positive Go duration such as 30s or 5m", n.Value)
	return 0
}

var sizeRE = regexp.MustCompile(`^([0-9]+)\s*(B|KB|KiB|MB|MiB|GB|GiB)?$`)

var sizeUnits = map[string]int64{"": 1, "B": 1, "KB": 1e3, "KiB": 1 << 10, "MB": 1e6, "MiB": 1 << 20, "GB": 1e9, "GiB": 1 << 30}

func (d *decoder) size(n *yaml.Node) int64 {
	if n.Kind == yaml.ScalarNode {
		if m := sizeRE.FindStringSubmatch(n.Value); m != nil {
			v, err := strconv.ParseInt(m[1], 10, 64)
			u := sizeUnits[m[2]]
			if err == nil && v > 0 && v <= (1<<62)/u {
				return v * u
			}
		}
	}
	d.errorf(n, "invalid size %q: want a positive number of bytes such as 65536, 512KiB or 1MiB", n.Value)
	return 0
}
