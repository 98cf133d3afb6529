package parser

import (
	"flag"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
)

var updateGolden = flag.Bool("update", false, "rewrite parser/testdata/programs.golden from the program table")

const programsGolden = "testdata/programs.golden"

// TestProgramTableGolden compares the behaviour every entry of the program
// table derives (dumpPrograms, read from the indexed entries of progs(),
// subcommands included) with testdata/programs.golden.
//
// The dump states behaviour, not notation: for each option whether it
// takes a value and what the value is (a file read, written, no file, a
// command), which options make the program recursive, write its operands
// or make it only read them, what its operands are, its guards, how it
// wraps a command, the environment it reads, git's spec, the spellings a
// rule matches. A refactor of the table's notation (issue 23: "one
// program, one entry, one notation") must leave this file byte-identical;
// a change of behaviour shows here as a diff and is rewritten on purpose
// with
//
//	go test ./parser -run TestProgramTableGolden -update
func TestProgramTableGolden(t *testing.T) {
	got := dumpPrograms()
	if *updateGolden {
		if err := os.WriteFile(programsGolden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	b, err := os.ReadFile(programsGolden)
	if err != nil {
		t.Fatalf("%v (write it with -update)", err)
	}
	if want := string(b); got != want {
		t.Errorf("the program table's behaviour differs from %s (-want +got):\n%s\nIf the change is meant, rewrite it with -update.",
			programsGolden, lineDiff(want, got))
	}
}

// TestProgramDumpCoversFields fails when a field is added to an entry's
// structs without dumpPrograms reading it: the golden file would not see
// a change of its behaviour.
func TestProgramDumpCoversFields(t *testing.T) {
	for typ, fields := range map[reflect.Type][]string{
		reflect.TypeFor[program](): {"wrap", "opts", "roles", "guarded", "dirSafe", "subs", "files", "ownFiles",
			"options", "complete", "goFlags", "negatable", "env", "envAll", "lists", "readOnly", "checks", "bundle", "guards", "git", "singleDash", "spelled", "changes", "recursiveVerb", "makesDirs", "writesUnlisted", "writesUnlistedIn", "runsModules", "module", "project", "makesFS", "remoteHelper"},
		reflect.TypeFor[runner](): {"subs", "except", "reads", "flags", "shell", "what"},
		reflect.TypeFor[fileSpec](): {"none", "exact", "first", "alwaysRecursive", "implicitDot", "writeAll", "removes", "writeLast",
			"writeFirst", "alwaysNamesInput", "reader"},
		reflect.TypeFor[opt](): {"names", "arg", "role", "listed", "rule", "why"},
		// An entry's guards are dumped as compiled (optionGuard) from its
		// options' reasons (opt.why), its checks and bundle; first only
		// orders the hits (TestGuardHitOrder).
		reflect.TypeFor[guardCheck]():  {"check", "words", "script", "first", "why"},
		reflect.TypeFor[roleTable]():   {"short", "shortArg", "long", "any", "vals", "suffix"},
		reflect.TypeFor[longRole]():    {"name", "role", "arg"},
		reflect.TypeFor[envVar]():      {"name", "use"},
		reflect.TypeFor[wrapSpec]():    {"kind", "operands", "optsAfter", "pipeOut", "direct"},
		reflect.TypeFor[gitSpec]():     {"tree", "removes", "whole", "opaque", "patch", "wholeSubs", "config", "runs", "runsOpts"},
		reflect.TypeFor[optionGuard](): {"prefix", "options", "goFlags", "bundle", "whole", "check", "script", "why"},
		reflect.TypeFor[optTable]():    {"short", "long", "num", "goFlags", "negatable"},
		reflect.TypeFor[spellTable]():  {"names", "plus", "more"},
	} {
		for i := range typ.NumField() {
			if name := typ.Field(i).Name; !slices.Contains(fields, name) && notDumped[typ.Name()+"."+name] == "" {
				t.Errorf("%s.%s is not read by dumpPrograms: dump its behaviour and rewrite the golden file", typ.Name(), name)
			}
		}
	}
}

// notDumped are the fields whose behaviour the golden file does not
// show: they moved into the entries from the readers after the file was
// written (issue 23), and dumping them would change it. Each names the
// tests that read it.
var notDumped = map[string]string{
	"program.script":      "sed_diff_test.go, awk_diff_test.go, scriptrisk_test.go, TestProgramExamples (sed, gsed, awk, gawk, mawk, nawk)",
	"program.writesTree":  "TestGitWritesTree, TestWriteThenRun",
	"wrapSpec.inCaller":   "TestWrapperEntryFields (command, builtin), TestCwd",
	"wrapSpec.ownOptions": "TestWrapperEntryFields (busybox)",
	"wrapSpec.plain":      "TestWrapperEntryFields (bash, sh, dash, zsh)",
	"wrapSpec.hashWord":   "TestWrapperEntryFields (zsh -i), zsh_test.go",
	"wrapSpec.edits":      "TestWrapperEntryFields (sudoedit), TestProgramExamples",
}

// lineDiff is a small diff of two dumps, block by block: for each entry
// whose block differs, its lines only in want (-) and only in got (+).
func lineDiff(want, got string) string {
	blocks := func(s string) (map[string][]string, []string) {
		m, name := map[string][]string{}, ""
		var order []string
		for _, l := range strings.Split(s, "\n") {
			if n, ok := strings.CutPrefix(l, "== "); ok {
				name = n
				order = append(order, n)
			}
			m[name] = append(m[name], l)
		}
		return m, order
	}
	wb, wo := blocks(want)
	gb, go_ := blocks(got)
	names := append([]string{""}, wo...)
	for _, n := range go_ {
		if _, ok := wb[n]; !ok {
			names = append(names, n)
		}
	}
	var b strings.Builder
	for _, n := range names {
		w, g := wb[n], gb[n]
		if slices.Equal(w, g) {
			continue
		}
		fmt.Fprintf(&b, "== %s\n", n)
		for _, l := range w {
			if !slices.Contains(g, l) {
				fmt.Fprintf(&b, "-%s\n", l)
			}
		}
		for _, l := range g {
			if !slices.Contains(w, l) {
				fmt.Fprintf(&b, "+%s\n", l)
			}
		}
		if len(w) == len(g) && slices.Equal(sortedCopy(w), sortedCopy(g)) {
			b.WriteString(" (the same lines in another order)\n")
		}
	}
	return b.String()
}

// dumpPrograms writes what every entry of progs() (and its subcommands)
// does, one block an entry, sorted by name.
func dumpPrograms() string {
	ents := map[string]*program{}
	var walk func(name string, p *program)
	walk = func(name string, p *program) {
		ents[name] = p
		for sub, s := range p.subs {
			walk(name+" "+sub, s)
		}
	}
	for name, p := range progs() {
		walk(name, p)
	}
	names := make([]string, 0, len(ents))
	for n := range ents {
		names = append(names, n)
	}
	slices.Sort(names)
	var b strings.Builder
	fmt.Fprintf(&b, "# %d entries (programs and subcommands), from progs(); see TestProgramTableGolden\n", len(names))
	for _, n := range names {
		b.WriteString("\n== " + n + "\n")
		for _, l := range dumpEntry(ents[n]) {
			b.WriteString("  " + l + "\n")
		}
	}
	return b.String()
}

var readerNames = map[reader]string{
	readNone: "", readDD: "dd (if=FILE read, of=FILE written)", readTar: "tar", readGo: "go (flags and packages)",
	readFile: "file (-m LIST, -f NAMEFILE)", readSplit: "split (input read, prefix written)",
	readJq: "jq (-L and import/include: modules it finds itself)", readBracket: "[ (the closing ] is no operand)",
}

var wrapKindNames = map[wrapKind]string{
	wrapExec: "exec (options, operands, then the command's argv)", wrapShell: "shell (-c STRING)", wrapEnv: "env",
	wrapSudo: "sudo", wrapSu: "su (-c STRING)", wrapScript: "script (-c STRING)", wrapWatch: "watch (words joined, sh -c)",
	wrapFlock: "flock", wrapXargs: "xargs", wrapParallel: "parallel", wrapFind: "find (-exec CMD ;)", wrapSg: "sg",
	wrapTmux: "tmux", wrapScreen: "screen",
}

func funcName(f any) string {
	n := runtime.FuncForPC(reflect.ValueOf(f).Pointer()).Name()
	return n[strings.LastIndexByte(n, '.')+1:]
}

func longs(names []string) string {
	l := make([]string, len(names))
	for i, n := range names {
		l[i] = "--" + n
	}
	slices.Sort(l)
	return strings.Join(l, " ")
}

// dumpEntry lists one entry's behaviour: entry-wide lines first, then one
// line an option (short ones, then long ones, sorted), then guards.
func dumpEntry(p *program) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }

	var marks []string
	for _, m := range []struct {
		on   bool
		name string
	}{
		{p.readOnly, "read-only"}, {p.lists, "lists-operands"}, {p.envAll, "env-all-known"},
		{p.dirSafe, "directory-operand-not-read"}, {p.goFlags, "go-flags"}, {p.negatable, "negatable"},
		{p.singleDash, "single-dash-options"}, {p.ownFiles, "own-files-spec"}, {p.guarded, "guarded"},
		{p.makesDirs, "writes-new-directories"}, {p.runsModules, "runs-modules"}, {p.module, "a-module-python-m-runs"},
		{p.makesFS, "makes-file-system"}, {p.remoteHelper, "git-remote-helper"},
	} {
		if m.on {
			marks = append(marks, m.name)
		}
	}
	if len(marks) > 0 {
		add("marks: %s", strings.Join(marks, " "))
	}
	if p.writesUnlisted {
		add("writes files it cannot list")
	}
	if len(p.writesUnlistedIn) > 0 {
		add("writes files it cannot list with: %s", strings.Join(p.writesUnlistedIn, " "))
	}
	if r := p.project; r != nil {
		add("runs project code: %s", r.what)
		for _, l := range []struct {
			name  string
			words []string
		}{{"with the subcommands", r.subs}, {"not when the whole invocation is", r.except}, {"not with the subcommands that read", r.reads}, {"only with the Go flags", r.flags}} {
			if len(l.words) > 0 {
				add("runs project code: %s %s", l.name, strings.Join(l.words, " "))
			}
		}
		if r.shell {
			add("runs project code: a script FILE or its input, unless -c")
		}
	}
	if p.recursiveVerb != "" {
		add("a recursive write of its operands %s them", p.recursiveVerb)
	}
	if p.changes != changesNothing {
		add("changes for later commands: %s", [...]string{changesWritten: "its written operands (links, moved trees)",
			changesUnlisted: "any path, when it writes files it cannot list", changesAny: "any path"}[p.changes])
	}
	if p.opts == nil {
		add("options: not checked (no table)")
	} else if p.opts.num {
		add("options: table; -NUM is a number")
	} else {
		add("options: table")
	}

	f := &p.files
	rt := p.roles
	if rt == nil {
		rt = &roleTable{}
	}
	// A git subcommand's options are read by the git readers, a
	// wrapper's by its wrap reader, not by the file reader.
	gitSub := p.git != nil && p != gitEntry()
	switch {
	case f.none:
		add("operands: no file")
	case f.isZero() && (p.wrap != nil || gitSub || rt.any&^(runs|readsInput) == 0):
		add("operands: read (default: every operand and --opt=value)")
	default:
		switch {
		case f.writeAll && f.removes:
			add("operands: removed")
		case f.writeAll:
			add("operands: written")
		case f.writeLast:
			add("operands: read; the last of several written")
		default:
			add("operands: read")
		}
		if f.writeFirst {
			add("operands: the first written")
		}
		if f.removes && !f.writeAll {
			add("operands: removed (without writeAll: no effect)")
		}
		if f.reader != readNone {
			add("operands: read by the %s reader", readerNames[f.reader])
		}
		if r := roleNames(rt, readsOperandsOnly); len(r) > 0 {
			slices.Sort(r)
			add("operands: only read with %s", strings.Join(r, " "))
		}
		firstUnless := declared(p, firstIsFile)
		if f.first {
			if firstUnless != "" {
				add("first operand: not a file, unless %s", firstUnless)
			} else {
				add("first operand: not a file")
			}
		} else if firstUnless != "" {
			add("first operand: a file (firstIsFile %s without first: no effect)", firstUnless)
		}
		switch rec := declared(p, recursive); {
		case f.alwaysRecursive:
			add("recursive: always")
		case rec != "":
			add("recursive: with %s, or a long --recursive --archive --dereference-recursive", rec)
		}
		if f.implicitDot {
			add("recursive without operands: reads .")
		}
		switch n := declared(p, namesFromInput); {
		case f.alwaysNamesInput:
			add("names files in its input: always")
		case n != "":
			add("names files in its input: with %s", n)
		}
		if n := declared(p, noNamesFromInput); n != "" {
			add("names files in its input: unless %s", n)
		}
		if f.exact {
			add("clusters: only the listed short options take a value")
		} else {
			add("clusters: an unknown letter may take the rest as a value (maybe a file)")
		}
	}
	if r := roleNames(rt, runs); len(r) > 0 {
		slices.Sort(r)
		add("runs the value of: %s", strings.Join(r, " "))
	}
	if w := p.wrap; w != nil {
		add("wraps: %s", wrapKindNames[w.kind])
		if w.operands > 0 {
			add("wraps: %d operand(s) before the command", w.operands)
		}
		if w.optsAfter {
			add("wraps: options may follow the operands")
		}
		if w.pipeOut {
			add("wraps: a written value starting with | or ! is a command run by sh -c")
		}
		if w.direct {
			add("wraps: several operands run directly, not by sh -c")
		}
	}
	if g := p.git; g != nil {
		var gm []string
		for _, m := range []struct {
			on   bool
			name string
		}{
			{g.tree, "operands-read-recursively"}, {g.removes, "operands-removed"}, {g.whole, "no-operand-means-whole-tree"},
			{g.opaque, "operands-not-files"}, {g.patch, "writes-files-a-patch-names"}, {g.config, "git-config"},
			{g.runsOpts, "options-around-the-command"},
		} {
			if m.on {
				gm = append(gm, m.name)
			}
		}
		if len(gm) > 0 {
			add("git: %s", strings.Join(gm, " "))
		}
		if _, treeIf := roleNamesOf(p, recursive); gitSub && len(treeIf) > 0 {
			add("git: operands read recursively with --%s", treeIf[0])
		}
		if len(g.wholeSubs) > 0 {
			add("git: first operands meaning the whole tree: %s", strings.Join(sortedCopy(g.wholeSubs), " "))
		}
		if _, patchRead := roleNamesOf(p, readsOperandsOnly); gitSub && len(patchRead) > 0 {
			add("git: patch only read with %s", longs(patchRead))
		}
		if g.runs != "" {
			add("git: the words after %q are a command it runs", g.runs)
		}
	}
	var envToks []string
	for _, v := range p.env {
		envToks = append(envToks, v.name+[...]string{envCode: "", envFile: "=r", envWritten: "=w", envFileList: "=:", envHarmless: "=-"}[v.use])
	}
	for _, tok := range sortedCopy(envToks) {
		name, kind, _ := strings.Cut(tok, "=")
		what := map[string]string{"": "code", "-": "harmless", "r": "file-read", "w": "file-written", ":": "files-read-list"}[kind]
		if what == "" {
			what = "?" + kind
		}
		add("env %s: %s", name, what)
	}

	// Options: every short letter and long name any field names.
	short := map[byte][]string{}
	long := map[string][]string{}
	kinds := map[byte]string{'f': "flag", '=': "value", '?': "optional-attached-value", '2': "two-values"}
	if t := p.opts; t != nil {
		for c := range 128 {
			if k := t.short[c]; k != 0 {
				short[byte(c)] = append(short[byte(c)], "takes="+kinds[k])
			}
		}
		for n, k := range t.long {
			long[n] = append(long[n], "takes="+kinds[k])
		}
	}
	shortNames, longNames := shortRoleNames, longRoleNames
	switch {
	case p.wrap != nil:
		shortNames, longNames = wrapShortRoleNames, wrapLongRoleNames
	case gitSub:
		shortNames, longNames = nil, nil
	}
	for c := range 128 {
		if p.wrap != nil && rt.shortValue(byte(c)) {
			short[byte(c)] = append(short[byte(c)], "wrap:value")
		}
		for _, r := range shortNames {
			if rt.short[c]&r.role != 0 {
				short[byte(c)] = append(short[byte(c)], r.name)
			}
		}
	}
	for _, l := range rt.long {
		if p.wrap != nil && l.arg == argValue {
			long[l.name] = append(long[l.name], "wrap:value")
		}
		if p.wrap != nil && l.arg == argPair {
			long[l.name] = append(long[l.name], "wrap:two-values")
		}
		for _, r := range longNames {
			if l.role&r.role != 0 {
				long[l.name] = append(long[l.name], r.name)
			}
		}
	}
	if gitSub {
		// The git readers split clusters at the options that take a
		// value when they read options: those of these roles.
		reads := rt.any&(runsOther|shellCommand|writesFile|setsConfig) != 0
		for c := range 128 {
			if reads && rt.shortValue(byte(c)) {
				short[byte(c)] = append(short[byte(c)], "git:value")
			}
			for _, r := range gitRoleNames {
				if rt.short[c]&r.role != 0 {
					short[byte(c)] = append(short[byte(c)], r.name)
				}
			}
		}
	}
	for _, l := range rt.long {
		for _, r := range gitRoleNames {
			if gitSub && l.role&r.role != 0 {
				long[l.name] = append(long[l.name], r.name)
			}
		}
		if l.role&readsInput != 0 {
			long[l.name] = append(long[l.name], "git:reads-stdin-or-file")
		}
	}
	for _, l := range rt.long {
		if l.role&runs != 0 {
			long[l.name] = append(long[l.name], "value=command-run")
		}
	}
	for c := range 128 {
		if rt.short[c]&runs != 0 {
			short[byte(c)] = append(short[byte(c)], "?"+fmt.Sprint(rt.short[c]&runs))
		}
	}
	for _, l := range rt.long {
		if o := l.role &^ (notFile | readsFile | writesFile | writesOperands | listsOnly | makesLinks | remoteOutput | runs | readsOperandsOnly | readsInput | namesFromInput | setsDir); o != 0 && p.wrap == nil && !gitSub {
			long[l.name] = append(long[l.name], "?"+fmt.Sprint(o))
		}
	}
	for c := range 128 {
		if a := short[byte(c)]; a != nil {
			add("-%c  %s", c, strings.Join(a, " "))
		}
	}
	for _, n := range sortedKeys(long) {
		add("--%s  %s", n, strings.Join(long[n], " "))
	}

	var guards []string
	for _, g := range p.guards {
		var parts []string
		if g.check != nil {
			parts = append(parts, "check="+funcName(g.check))
		}
		if len(g.options) > 0 {
			parts = append(parts, "options="+strings.Join(sortedCopy(g.options), ","))
		} else if g.check == nil {
			parts = append(parts, "the command itself")
		}
		if len(g.whole) > 0 {
			parts = append(parts, "not="+strings.Join(sortedCopy(g.whole), ","))
		}
		if g.bundle {
			parts = append(parts, "bundled-letters")
		}
		if g.goFlags {
			parts = append(parts, "go-flags")
		}
		if g.script {
			parts = append(parts, "reads-a-script")
		}
		if len(g.prefix) == 0 {
			parts = append(parts, "no-prefix")
		}
		guards = append(guards, fmt.Sprintf("guard %s: %s", strings.Join(parts, " "), g.why))
	}
	slices.Sort(guards)
	out = append(out, guards...)
	if s := p.spelled; s != nil {
		for _, sp := range sortedKeys(s.names) {
			add("spell %s = %s", sp, strings.Join(s.names[sp], "+"))
		}
		if s.plus != nil {
			add("spell +OPERAND = %s", strings.Join(s.plus, "+"))
		}
		if s.more != "" {
			add("spell: an option reads more options (%s)", s.more)
		}
	}
	if len(p.subs) > 0 {
		add("subcommands: %s", strings.Join(sortedKeys(p.subs), " "))
	}
	return out
}

// shortRoleNames and longRoleNames are the roles a dump line names,
// in order, for short and long options (readsOperandsOnly is a line of
// its own, runs comes last).
var shortRoleNames = []struct {
	role role
	name string
}{
	{notFile, "value=not-file"}, {readsFile, "value=file-read"}, {writesFile, "value=file-written"},
	{backupSuffix, "attached-value=backup-suffix"}, {recursive, "recursive"}, {writesOperands, "writes-operands"},
	{firstIsFile, "first-operand-is-a-file"}, {namesFromInput, "names-files-in-input"}, {noNamesFromInput, "no-names-in-input"},
	{recursesIfValue, "recursive-if-value=recurse"}, {makesLinks, "makes-links"},
	{remoteOutput, "writes-what-it-fetches-under-its-name"}, {setsDir, "value=directory-of-later-operands"},
}

var wrapShortRoleNames = []struct {
	role role
	name string
}{
	{noCommand, "wrap:no-command"}, {writesFile, "wrap:value=file-written"}, {setsEnv, "wrap:value=env-assignment"},
	{setsDir, "wrap:value=directory"}, {shellCommand, "wrap:value=shell-command"}, {splitsArgs, "wrap:value=split-into-words"},
}

var wrapLongRoleNames = []struct {
	role role
	name string
}{{writesFile, "wrap:value=file-written"}, {shellCommand, "wrap:value=shell-command"}, {splitsArgs, "wrap:value=split-into-words"}}

var gitRoleNames = []struct {
	role role
	name string
}{
	{runsOther, "git:runs-a-program"}, {shellCommand, "git:value=shell-command"}, {writesFile, "git:value=file-written"},
	{setsConfig, "git:value=config"},
}

var longRoleNames = []struct {
	role role
	name string
}{
	{notFile, "value=not-file"}, {readsFile, "value=file-read"}, {writesFile, "value=file-written"}, {writesOperands, "writes-operands"},
	{listsOnly, "lists-only"}, {makesLinks, "makes-links"}, {remoteOutput, "writes-what-it-fetches-under-its-name"},
	{namesFromInput, "names-files-in-input"}, {setsDir, "value=directory-of-later-operands"},
}

// declared lists the names of p's options with role r, in the order
// they are declared.
func declared(p *program, r role) string {
	var l []string
	for _, o := range p.options {
		if o.role&r != 0 {
			l = append(l, strings.Fields(o.names)...)
		}
	}
	return strings.Join(l, " ")
}

// roleNames lists the options of t with role r, with their dashes.
func roleNames(t *roleTable, r role) []string {
	var l []string
	for c := range 128 {
		if t.short[c]&r != 0 {
			l = append(l, "-"+string(rune(c)))
		}
	}
	for _, o := range t.long {
		if o.role&r != 0 {
			l = append(l, "--"+o.name)
		}
	}
	return l
}

func sortedCopy(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}
