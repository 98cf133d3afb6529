package policy

import "strings"

// Deny wide, allow exact (DESIGN.md §4). An allow rule matches the tokens
// as written, through the trie. A deny or ask rule also matches every
// spelling that could be the same command: the program path-qualified
// (/bin/rm), options clustered, split or reordered (rm -fr, rm -r -f, rm
// -v -rf), long or short or abbreviated (rm --recursive --force, rm
// --rec), after the operands (rm x -rf), --opt=v as --opt v; and a word
// the gate cannot see (a dynamic word, what xargs reads from stdin)
// completing it.

// wideIndex indexes the deny and ask rules by program name.
func wideIndex(prefixes []Prefix) map[string][]*Prefix {
	m := map[string][]*Prefix{}
	for i := range prefixes {
		pr := &prefixes[i]
		if pr.Verdict == Allow || pr.Tokens[0] == wildcard {
			continue
		}
		m[pr.Tokens[0]] = append(m[pr.Tokens[0]], pr)
	}
	return m
}

// widen replaces the trie's match by a stricter deny or ask rule that
// matches a spelling of the command. A longer rule that the wide rule
// matches itself keeps its verdict: allow: [rm -rf build] with deny: [rm
// -rf] allows rm -rf build (and only that spelling).
func (p *Policy) widen(c *Command, w words, m match) match {
	if len(p.wide) == 0 || len(w.argv) == 0 || w.dynamic(0) {
		return m
	}
	rules := p.wide[baseName(w.argv[0])]
	if len(rules) == 0 {
		return m
	}
	for _, pr := range rules {
		if pr == m.rule || m.rule != nil && pr.Verdict >= m.rule.Verdict || m.worst != nil && m.worst.Verdict <= pr.Verdict ||
			m.rule == nil && pr.Verdict >= p.def {
			// The trie's match, its dynamic word, or (no rule matched)
			// the default says as much: another spelling of a rule only
			// ever makes the verdict stricter.
			continue
		}
		k := commandWords(pr.Tokens)
		if !leadMatches(pr.Tokens[:k], w, c.Open) {
			continue
		}
		if len(w.argv) >= k {
			have := readSpelling(pr.Tokens[:k], w.argv[k:], w, k)
			if !have.covers(readSpelling(pr.Tokens[:k], pr.Tokens[k:], words{}, 0)) && !c.Open {
				continue
			}
		}
		if m.rule != nil && len(m.rule.Tokens) > len(pr.Tokens) && refines(pr, m.rule) {
			continue
		}
		m.rule, m.depth, m.spelled = pr, len(pr.Tokens), true
	}
	return m
}

// refines reports whether rule r is a longer spelling of the wide rule
// pr (pr matches r's own tokens).
func refines(pr, r *Prefix) bool {
	k := commandWords(pr.Tokens)
	if len(r.Tokens) < k || baseName(r.Tokens[0]) != pr.Tokens[0] {
		return false
	}
	for i := 1; i < k; i++ {
		if pr.Tokens[i] != wildcard && pr.Tokens[i] != r.Tokens[i] {
			return false
		}
	}
	lead := pr.Tokens[:k]
	return readSpelling(lead, r.Tokens[k:], words{}, 0).covers(readSpelling(lead, pr.Tokens[k:], words{}, 0))
}

// commandWords returns how many leading tokens of a rule name the
// program and its subcommands (git push): the tokens before the first
// option. They must be the command's own leading words.
func commandWords(tokens []string) int {
	k := 1
	for k < len(tokens) && !isOption(tokens[k]) {
		k++
	}
	return k
}

// leadMatches reports whether the command's leading words are lead (the
// program by its base name). A command shorter than lead matches when
// arguments the gate cannot see follow.
func leadMatches(lead []string, w words, open bool) bool {
	for i, t := range lead {
		if i >= len(w.argv) {
			return open
		}
		if w.dynamic(i) {
			return false // the trie's dynamic rule covers it
		}
		a := w.argv[i]
		if i == 0 {
			a = baseName(a)
		}
		if t != wildcard && t != a {
			return false
		}
	}
	return true
}

func isOption(s string) bool { return len(s) > 1 && s[0] == '-' }

// baseName returns the program name of a path-qualified command word
// (/bin/rm → rm).
func baseName(s string) string {
	if i := strings.LastIndexByte(s, '/'); i >= 0 && i < len(s)-1 {
		return s[i+1:]
	}
	return s
}

// spelling is what a command's words say once spelling is set aside: the
// options it sets, by canonical name, and its operands in order.
type spelling struct {
	k        int
	opts     []string // canonical names ("recursive") or options as written ("-x", "--name")
	operands []string
	dynamic  bool // a word the gate cannot see: it could be any option or operand
}

// readSpelling reads args, the words after the command words lead. When
// w has an argv, args are a command's (word i of args is word k+i of w,
// for dynamic flags, and a long option may be abbreviated); else they
// are a rule's, read as written.
func readSpelling(lead, args []string, w words, k int) *spelling {
	s := &spelling{k: k}
	key := strings.Join(lead, " ")
	aliases := optionAliases[key]
	whole := singleDash[baseName(lead[0])]
	opts := true
	for i, a := range args {
		if w.argv != nil && w.dynamic(k+i) {
			s.dynamic = true
			continue
		}
		if !opts || !isOption(a) {
			s.operands = append(s.operands, a)
			if key == "git push" && len(a) > 1 && a[0] == '+' { // +ref is a forced update
				s.opts = append(s.opts, "force")
				s.operands = append(s.operands, a[1:])
			}
			continue
		}
		if a == "--" {
			opts = false
			continue
		}
		name, val, hasVal := strings.Cut(a, "=")
		switch {
		case whole:
			if strings.HasPrefix(name, "--") {
				name = name[1:] // go: --o is -o
			}
			s.addOption(aliases, name)
		case strings.HasPrefix(a, "--") && w.argv != nil:
			s.addLong(aliases, name)
		case strings.HasPrefix(a, "--"):
			s.addOption(aliases, name)
		default:
			hasVal = false // -n=5 is a cluster: n, =, 5 (over-reading is safe here)
			for _, c := range a[1:] {
				s.addOption(aliases, "-"+string(c))
			}
		}
		if hasVal {
			s.operands = append(s.operands, val)
		}
	}
	return s
}

func (s *spelling) addOption(aliases map[string]string, name string) {
	if canon, ok := aliases[name]; ok {
		s.opts = append(s.opts, strings.Fields(canon)...)
		return
	}
	s.opts = append(s.opts, name)
}

// addLong adds a long option, maybe abbreviated as getopt_long and git
// accept it: every option it could abbreviate is set (an ambiguous one is
// an error that runs nothing, so reading it wide costs nothing).
func (s *spelling) addLong(aliases map[string]string, name string) {
	s.opts = append(s.opts, name)
	for long, canon := range aliases {
		if strings.HasPrefix(long, "--") && strings.HasPrefix(long, name) {
			s.opts = append(s.opts, strings.Fields(canon)...)
		}
	}
}

// covers reports whether the command s could be the rule need: it sets
// every option need names and holds need's operands in order.
func (s *spelling) covers(need *spelling) bool {
	if s.dynamic {
		return true
	}
	for _, o := range need.opts {
		if !s.hasOption(o) {
			return false
		}
	}
	j := 0
	for _, op := range s.operands {
		if j < len(need.operands) && (need.operands[j] == wildcard || need.operands[j] == op) {
			j++
		}
	}
	return j == len(need.operands)
}

func (s *spelling) hasOption(o string) bool {
	for _, h := range s.opts {
		if h == o || strings.HasPrefix(o, "--") && strings.HasPrefix(h, "--") && len(h) > 2 && strings.HasPrefix(o, h) {
			return true
		}
	}
	return false
}

// singleDash are programs whose options are whole words after one dash
// (find -delete, go -o): never clusters.
var singleDash = map[string]bool{
	"find": true, "go": true, "java": true, "javac": true, "gcc": true, "g++": true, "cc": true,
	"clang": true, "ffmpeg": true, "terraform": true, "xcodebuild": true,
}

// optionAliases gives, per command (program and subcommand, as a rule's
// leading words), the canonical names of options with more than one
// spelling, from the programs' manuals (GNU coreutils 9, git 2.4x, curl
// 8). An option may stand for several (git branch -D is --delete
// --force). Options not listed match as written, abbreviations included.
var optionAliases = map[string]map[string]string{
	"rm": {"-r": "recursive", "-R": "recursive", "--recursive": "recursive", "-f": "force", "--force": "force",
		"-d": "dir", "--dir": "dir", "-v": "verbose", "--verbose": "verbose", "-i": "interactive"},
	"cp": {"-r": "recursive", "-R": "recursive", "--recursive": "recursive", "-f": "force", "--force": "force",
		"-a": "archive recursive", "--archive": "archive recursive", "-l": "link", "--link": "link", "-s": "symbolic-link", "--symbolic-link": "symbolic-link"},
	"mv":    {"-f": "force", "--force": "force", "-n": "no-clobber", "--no-clobber": "no-clobber"},
	"chmod": {"-R": "recursive", "--recursive": "recursive"},
	"chown": {"-R": "recursive", "--recursive": "recursive"},
	"chgrp": {"-R": "recursive", "--recursive": "recursive"},
	"ln":    {"-s": "symbolic", "--symbolic": "symbolic", "-f": "force", "--force": "force"},
	"sed":   {"-i": "in-place", "--in-place": "in-place"},
	"curl": {"-o": "output", "--output": "output", "-O": "remote-name", "--remote-name": "remote-name", "-X": "request", "--request": "request",
		"-d": "data", "--data": "data", "-k": "insecure", "--insecure": "insecure", "-T": "upload-file", "--upload-file": "upload-file",
		"-F": "form", "--form": "form", "-L": "location", "--location": "location"},
	"wget":         {"-O": "output-document", "--output-document": "output-document"},
	"git push":     {"-f": "force", "--force": "force", "-d": "delete", "--delete": "delete", "-u": "set-upstream", "--set-upstream": "set-upstream", "-n": "dry-run", "--dry-run": "dry-run"},
	"git add":      {"-A": "all", "--all": "all", "-f": "force", "--force": "force", "-u": "update", "--update": "update", "-p": "patch", "--patch": "patch"},
	"git clean":    {"-f": "force", "--force": "force", "-n": "dry-run", "--dry-run": "dry-run", "-i": "interactive", "--interactive": "interactive"},
	"git checkout": {"-f": "force", "--force": "force"},
	"git switch":   {"-f": "force", "--force": "force", "--discard-changes": "force", "-c": "create", "--create": "create", "-C": "create force"},
	"git commit":   {"-a": "all", "--all": "all", "-n": "no-verify", "--no-verify": "no-verify", "-m": "message", "--message": "message"},
	"git branch":   {"-d": "delete", "--delete": "delete", "-D": "delete force", "-f": "force", "--force": "force", "-m": "move", "--move": "move", "-M": "move force"},
	"git tag":      {"-d": "delete", "--delete": "delete", "-f": "force", "--force": "force"},
	"git rebase":   {"-i": "interactive", "--interactive": "interactive", "-x": "exec", "--exec": "exec"},
	"git stash":    {},
}

// runsDenied reports whether the first operand of a command no rule
// matched is the name of a program a deny or ask rule names: a program
// the gate does not know may run its operands as a command.
func (p *Policy) runsDenied(w words) (string, bool) {
	for i := 1; i < len(w.argv); i++ {
		a := w.argv[i]
		if w.dynamic(i) {
			return "", false
		}
		if isOption(a) {
			continue
		}
		name := baseName(a)
		return name, len(p.wide[name]) > 0
	}
	return "", false
}
