package parser

import (
	"slices"
	"strings"
	"testing"
)

// guardSamples are, for entries whose guards decide with a check of their
// own, a command the check must catch and one it must let pass.
var guardSamples = map[string][2]string{
	"awk":        {"awk BEGIN{system(\"id\")}", "awk {print} f"},
	"gawk":       {"gawk BEGIN{system(\"id\")}", "gawk {print} f"},
	"mawk":       {"mawk BEGIN{system(\"id\")}", "mawk {print} f"},
	"nawk":       {"nawk BEGIN{system(\"id\")}", "nawk {print} f"},
	"sed":        {"sed 1w/tmp/x f", "sed -n 1p f"},
	"gsed":       {"gsed 1w/tmp/x f", "gsed -n 1p f"},
	"git":        {"git clone ext::sh\x00-c\x00id", "git clone https://x/y"},
	"git branch": {"git branch newb", "git branch -a"},
	"git config": {"git config core.pager x", "git config --get core.pager"},
	"time":       {"time -o out ls", "time ls"},
	"ps":         {"ps auxe", "ps aux"},
	"uniq":       {"uniq in out", "uniq in"},
	"xxd":        {"xxd in out", "xxd -c 16 in"},
	"vi":         {"vi -c x f", "vi +5 f"},
	"vim":        {"vim -c x f", "vim +5 f"},
	"view":       {"view -c x f", "view +5 f"},
	"nvim":       {"nvim -c x f", "nvim +5 f"},
	"tmux":       {"tmux send-k x", "tmux new -d ls"},
	"screen":     {"screen -X stuff x", "screen -dm ls"},
}

// wrapSamples are, per kind of wrapper, how a command that runs "eval x"
// is written (NAME is the entry's command words).
var wrapSamples = map[wrapKind]string{
	wrapShell:    "NAME -c 'eval x'",
	wrapEnv:      "NAME eval x",
	wrapSudo:     "NAME eval x",
	wrapSu:       "NAME -c 'eval x'",
	wrapScript:   "NAME -c 'eval x'",
	wrapWatch:    "NAME 'eval x'",
	wrapFlock:    "NAME f -c 'eval x'",
	wrapXargs:    "NAME eval x",
	wrapParallel: "NAME eval x",
	wrapFind:     "NAME . -exec eval x ';'",
	wrapSg:       "NAME g 'eval x'",
	wrapTmux:     "NAME new 'eval x'",
	wrapScreen:   "NAME -dm eval x",
}

// TestProgramEntries checks each entry of programs (subcommands
// included) for what it says beyond its options (TestProgramOptions):
// every guard catches what it names, every wrapper runs its command
// through the analysis, every environment variable is judged as the
// entry says.
func TestProgramEntries(t *testing.T) {
	t.Parallel()
	for name, p := range entries() {
		if p.guards == nil && p.wrap == nil && p.env == nil && runNames(p) == nil && p.git == nil {
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for _, g := range p.guards {
				checkEntryGuard(t, name, g)
			}
			if name == "sudoedit" { // runs an editor on its operands
				a := Analyze("sudoedit f", Options{Cwd: "/repo", Env: testEnv})
				if len(a.Commands) != 1 || len(a.Commands[0].Files) != 1 || !a.Commands[0].Files[0].Write {
					t.Errorf("sudoedit f: %+v, want f written", a.Commands)
				}
			} else if p.wrap != nil {
				src := wrapSamples[p.wrap.kind]
				if p.wrap.kind == wrapExec {
					src = "NAME " + strings.Repeat("x ", p.wrap.operands) + "'eval x'"
					if p.wrap.direct || !strings.HasPrefix(name, "tmux ") {
						src = "NAME " + strings.Repeat("x ", p.wrap.operands) + "eval x"
					}
				}
				src = strings.Replace(src, "NAME", name, 1)
				if !hasFinding(Analyze(src, Options{Cwd: "/repo", Env: testEnv}), "parser.eval") {
					t.Errorf("Analyze(%q): the wrapper's command eval x was not analysed", src)
				}
			}
			for _, o := range runNames(p) {
				src := name + " --" + o + "=eval a"
				if p.goFlags {
					src = name + " test -" + o + "='eval x' ./..."
				}
				if !hasFinding(Analyze(src, Options{Cwd: "/repo", Env: testEnv}), "parser.eval") {
					t.Errorf("Analyze(%q): the program --%s runs was not analysed", src, o)
				}
			}
			for _, v := range p.env {
				checkEntryEnv(t, name, v.name+[...]string{envCode: "", envFile: "=r", envWritten: "=w", envFileList: "=:", envHarmless: "=-"}[v.use])
			}
			if sub, ok := strings.CutPrefix(name, "git "); ok && p.git != nil {
				checkGitSpec(t, sub, p)
			}
			for _, o := range gitStdinL(p) {
				a := Analyze(name+" cat-file --"+o, Options{Cwd: "/repo", Env: testEnv})
				if len(a.Commands) != 1 || len(a.Commands[0].Unknown) == 0 {
					t.Errorf("%s cat-file --%s: no unknown reference for what it reads from its input", name, o)
				}
			}
		})
	}
}

func hasFinding(a *Analysis, rule string) bool {
	return slices.ContainsFunc(a.Findings, func(f Finding) bool { return f.Rule == rule })
}

// checkEntryGuard checks one guard of entry name: each option it names
// (with a value, and abbreviated when long), or the command itself, or
// its sample, is a hit; the sample's harmless command is not.
func checkEntryGuard(t *testing.T, name string, g optionGuard) {
	t.Helper()
	hits := func(line string) bool {
		argv := strings.Fields(line)
		c := Command{MatchArgv: argv}
		for _, w := range argv {
			w = strings.ReplaceAll(w, "\x00", " ")
			c.Argv = append(c.Argv, Word{Value: w})
		}
		return slices.ContainsFunc(optionHits(&c), func(h OptionHit) bool { return h.Why == g.why })
	}
	switch {
	case g.check != nil:
		s, ok := guardSamples[name]
		if !ok {
			t.Fatalf("guard %q of %s has a check and no sample in guardSamples", g.why, name)
		}
		if !hits(s[0]) {
			t.Errorf("%q: no hit for the guard %q", s[0], g.why)
		}
		if hits(s[1]) {
			t.Errorf("%q: a hit for the guard %q", s[1], g.why)
		}
	case g.options == nil:
		if !hits(name + " x") {
			t.Errorf("%q: no hit for the guard %q", name+" x", g.why)
		}
	default:
		for _, o := range g.options {
			lines := []string{name + " " + o + " v"}
			if strings.HasPrefix(o, "--") && !slices.Contains(g.whole, o[:len(o)-1]) {
				lines = append(lines, name+" "+o[:len(o)-1]+"=v")
			}
			if g.goFlags {
				lines = append(lines, name+" -"+o+"=v")
			}
			for _, l := range lines {
				if !hits(l) {
					t.Errorf("%q: no hit for the guard %q", l, g.why)
				}
			}
		}
		if hits(name + " operand") {
			t.Errorf("%q: a hit for the guard %q", name+" operand", g.why)
		}
	}
}

// checkEntryEnv checks one token of an entry's env: the variable is
// judged as the token says (a * stands for "X").
func checkEntryEnv(t *testing.T, name, tok string) {
	t.Helper()
	v, kind, _ := strings.Cut(tok, "=")
	v = strings.ReplaceAll(v, "*", "X")
	fs, refs := AssignFindings(v, "a", false, Pos{}, Options{})
	got := "harmless"
	switch {
	case len(fs) > 0:
		got = fs[0].Rule
	case len(refs) > 0 && refs[0].Write:
		got = "w"
	case len(refs) > 0:
		got = "r"
	}
	want := map[string]string{"": "env.code_injection", "r": "r", ":": "r", "w": "w", "-": "harmless"}[kind]
	if got != want && got != "env.code_injection" {
		t.Errorf("%s reads %s: %s=a is %s, want %s", name, tok, v, got, want)
	}
	if kind == "-" && got != "harmless" {
		t.Logf("%s names %s harmless, but another program reads it as code", name, v)
	}
}

// runNames returns the names of p's options whose value is a program
// it runs, without their dashes.
func runNames(p *program) []string {
	var l []string
	for _, o := range p.options {
		if o.role&runs != 0 {
			for _, n := range strings.Fields(o.names) {
				l = append(l, strings.TrimLeft(n, "-"))
			}
		}
	}
	return l
}

func gitStdinL(p *program) []string {
	_, long := roleNamesOf(p, readsInput)
	return long
}

// checkGitSpec checks what the gitSpec and the options' roles of git's
// subcommand sub (its entry p) say.
func checkGitSpec(t *testing.T, sub string, p *program) {
	t.Helper()
	g := *p.git
	danger, long := roleNamesOf(p, runsOther)
	shell, shellL := roleNamesOf(p, shellCommand)
	write, writeL := roleNamesOf(p, writesFile)
	configVal, configL := roleNamesOf(p, setsConfig)
	_, patchRead := roleNamesOf(p, readsOperandsOnly)
	_, treeIf := roleNamesOf(p, recursive)
	analyze := func(src string) (*Analysis, *Command) {
		a := Analyze(src, Options{Cwd: "/repo", Env: testEnv})
		if len(a.Commands) == 0 {
			t.Fatalf("Analyze(%q): no command", src)
		}
		return a, &a.Commands[0]
	}
	ref := func(c *Command, p string) *FileRef {
		for i := range c.Files {
			if c.Files[i].Path == p {
				return &c.Files[i]
			}
		}
		return nil
	}
	git := "git " + sub
	for _, o := range long {
		if a, _ := analyze(git + " --" + o + "=x"); !hasFinding(a, "git.dangerous_config") {
			t.Errorf("%s --%s=x: no git.dangerous_config", git, o)
		}
	}
	for _, o := range danger {
		if a, _ := analyze(git + " -" + o + " x"); !hasFinding(a, "git.dangerous_config") {
			t.Errorf("%s -%s x: no git.dangerous_config", git, o)
		}
	}
	for _, o := range shellL {
		if a, _ := analyze(git + " --" + o + "='eval x'"); !hasFinding(a, "parser.eval") {
			t.Errorf("%s --%s='eval x': the command was not analysed", git, o)
		}
	}
	for _, o := range shell {
		if a, _ := analyze(git + " -" + o + " 'eval x'"); !hasFinding(a, "parser.eval") {
			t.Errorf("%s -%s 'eval x': the command was not analysed", git, o)
		}
	}
	for _, o := range append(write, writeL...) {
		src := git + " -" + o + " out"
		if len(o) > 1 {
			src = git + " --" + o + " out"
		}
		if _, c := analyze(src); ref(c, "out") == nil || !ref(c, "out").Write {
			t.Errorf("%s: out is not written", src)
		}
	}
	if g.runs != "" {
		if a, _ := analyze(git + " " + g.runs + " eval x"); !hasFinding(a, "parser.eval") {
			t.Errorf("%s %s eval x: the command was not analysed", git, g.runs)
		}
	}
	cfg := []string{}
	if g.config {
		cfg = append(cfg, git+" core.pager x")
	}
	for _, o := range configVal {
		cfg = append(cfg, git+" -"+o+" core.pager=x u")
	}
	for _, o := range configL {
		cfg = append(cfg, git+" --"+o+"=core.pager=x u", git+" --"+o+" core.pager=x u")
	}
	for _, src := range cfg {
		if a, _ := analyze(src); !hasFinding(a, "git.dangerous_config") {
			t.Errorf("%s: no git.dangerous_config", src)
		}
	}
	switch {
	case g.patch:
		if _, c := analyze(git + " x.patch"); len(c.Unknown) == 0 {
			t.Errorf("%s x.patch: no unknown reference for the files of the patch", git)
		}
		for _, o := range patchRead {
			if _, c := analyze(git + " --" + o + " x.patch"); len(c.Unknown) != 0 {
				t.Errorf("%s --%s x.patch: %v, want no unknown reference", git, o, c.Unknown)
			}
		}
	case g.opaque:
		if _, c := analyze(git + " show x"); ref(c, "x") != nil {
			t.Errorf("%s show x: x is a file reference", git)
		}
	case g.tree || g.removes:
		src := git + " -e p x"
		if sub != "grep" {
			src = git + " x"
		}
		if _, c := analyze(src); ref(c, "x") == nil || ref(c, "x").Recursive != g.tree || ref(c, "x").Write != g.removes {
			t.Errorf("%s: x is %+v, want recursive %v, written %v", src, ref(c, "x"), g.tree, g.removes)
		}
	case len(treeIf) > 0:
		if _, c := analyze(git + " --" + treeIf[0] + " x y"); ref(c, "x") == nil || !ref(c, "x").Recursive {
			t.Errorf("%s --%s x y: x is not read recursively", git, treeIf[0])
		}
	}
	if g.whole {
		for _, s := range append([]string{""}, g.wholeSubs...) {
			if _, c := analyze(strings.TrimSpace(git + " " + s)); ref(c, ".") == nil || !ref(c, ".").Recursive || ref(c, ".").Write != g.removes {
				t.Errorf("%s %s: the whole tree is not a reference", git, s)
			}
		}
	}
}

// TestScriptEntries: the programs whose entry says their script language
// have it read for the programs it runs (parser.eval), gsed as sed.
func TestScriptEntries(t *testing.T) {
	for _, src := range []string{"sed '1e id' f", "gsed '1e id' f", "awk 'BEGIN{system(\"id\")}' f", "gawk 'BEGIN{system(\"id\")}' f",
		"mawk 'BEGIN{system(\"id\")}'", "nawk 'BEGIN{system(\"id\")}'"} {
		a := Analyze(src, Options{})
		if !slices.ContainsFunc(a.Findings, func(f Finding) bool { return f.Rule == "parser.eval" }) {
			t.Errorf("%s: no parser.eval finding: %+v", src, a.Findings)
		}
	}
}
