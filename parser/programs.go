package parser

import (
	"slices"
	"strings"
	"sync"
)

// programs is what the analysis knows about each program, one entry a
// program, in one place — every reading of argv and of the environment
// the gate does:
//
//   - options: its options, each declared once with what follows it
//     and its role (see opt): opt's constructors say what follows it
//     (flags: nothing; val: a value, -n5, -n 5, --lines=5, --lines 5;
//     optional: an optional value, only attached, --color=auto, git's
//     -M50%; pair: two values, jq --arg NAME VALUE; number: -5 is a
//     number, head -5), and the role says what the value is or what the
//     option does (a file read or written, no file, a program run; it
//     makes the command recursive, write its operands, or only read
//     them; see role), and as says what deny and ask rules name it
//     (below). The list is compiled once (see index) into what the
//     readers look up by option name. Long options may be abbreviated as
//     getopt_long and git accept it;
//
//   - complete: options lists every option the program has, as its
//     --help lists them (GNU coreutils 9, grep 3, diffutils 3, file 5, jq
//     1.6/1.7; ripgrep and tree from their manuals; git 2.39's
//     subcommands in subs). Under the embedded default policy a command
//     of such a program passes only with options listed: another is
//     policy.unknown_option (ask), since it may write a file or run a
//     program. A policy file's own allow rules trust the program. An
//     option declared only for its role is marked unlisted. Programs
//     without complete (wrappers, whose inner commands are judged on
//     their own) are not checked this way;
//
//   - files: what its operands are beyond what its options say: none is
//     a file, the first is a pattern, every one is written or removed,
//     the last is written, it is always recursive… (see fileSpec; a
//     program without files and without options' roles gets the
//     conservative default: every operand and every --opt=value is a
//     file it reads);
//
//   - dirSafe: it does not read the files inside a directory operand
//     unless an option says so (it refuses a directory, or only lists or
//     stats it). Without it, every directory operand is a recursive read
//     (diff -N src . prints every file of the directory);
//
//   - goFlags: its options (and its subcommands') are Go flags: whole
//     words after one dash or two (-race, --race=true), never clusters;
//     and after the first operand, none is the program's (go test's
//     packages, then the test binary's flags);
//
//   - negatable: every flag has a --no-NAME form (git's parse-options);
//
//   - env: the environment variables it reads, and what for (see
//     envVar and env.go, whose judging function consults every entry:
//     an exported variable reaches every child);
//
//   - lists: its operands are listed or stat'ed (names, sizes, modes,
//     a directory's entries), never read (ls, stat, du, lsof): see
//     FileRef.Listed;
//
//   - readOnly: it only reads (or lists) the files it is given; what
//     it writes or runs is behind its guards. Naming a protected path to
//     it is no write (see ReadsOnly);
//
//   - envAll: env lists every variable it reads as code, as a program
//     or as a file, and it runs no other program: any other variable is
//     harmless to it (FOO=bar ls passes; see envSeenBy). An explicit
//     marker: an entry without it may read anything;
//
//   - guards: options that make it write, delete or run a program, which
//     prefix rules cannot express (policy.dangerous_option; see
//     optionGuard);
//
//   - wrap: it runs another command, which is analysed on its own (see
//     wrapSpec);
//
//   - git: what a git subcommand's options and operands do beyond its
//     options' syntax: options that make git run a program, write a
//     file, run a shell command, set configuration or read paths from
//     standard input; operands read recursively, removed, or not files
//     (see gitSpec);
//
//   - subs: its subcommands (git diff, go test, git stash list), each an
//     entry of its own, read after the program's own options; a
//     subcommand with ownFiles names its operands by its own files spec
//     (ruff format), others by the program's;
//
//   - rule names (opt.as): what its options are named when a deny or
//     ask rule of the policy names them, so that the rule matches every
//     spelling (see CommandSpelling): rm's "-r -R --recursive" are
//     "recursive"; "archive+recursive" when it stands for several
//     options (cp -a), or has no long name (git branch -D is
//     "delete+force"); plusOperand says what an operand +X sets (git push
//     +main: "force"); the name "..." marks an option that reads more
//     options from a file or in a syntax of its own (curl -K, wget -e):
//     with it, the words could set any option. Options not named are
//     named as written, abbreviations included;
//
//   - singleDash: its options are whole words after one dash (find
//     -delete, gcc -o), never clusters, as goFlags programs' are.
type program struct {
	// The fields every command reads first, then fileSpec, then the rest:
	// an entry spans fewer cache lines on the way.
	wrap    *wrapSpec
	opts    *optTable  // the check of options, compiled from options when complete (see index)
	roles   *roleTable // the roles of options, compiled from options (see index)
	guarded bool       // it or a subcommand has guards (see progs)
	dirSafe bool
	subs    map[string]*program
	files   fileSpec
	// ownFiles: a subcommand whose files spec, not its program's,
	// reads the words after it (ruff format rewrites its operands,
	// ruff check reads them).
	ownFiles bool

	options   []opt
	complete  bool
	goFlags   bool
	negatable bool
	env       []envVar
	envAll    bool
	lists     bool
	readOnly  bool
	guards    []optionGuard
	git       *gitSpec

	singleDash bool
	spelled    *spellTable // the rule names of options, compiled (see index)
}

// progs indexes programs by pointer, with each entry's options parsed and
// its guards named: one lookup a command, no copy.
var progs = sync.OnceValue(func() map[string]*program {
	mergePrograms(programsJS, programsPython, programsRust, programsJVM, programsBuild, programsHost, inspectPrograms, programsDotnet)
	mergeReaderWriters(programs) // programs_zsh_readers.go: after the families, it adds to their entries
	m := make(map[string]*program, len(programs)+2)
	for name := range programs {
		p := programs[name]
		p.index([]string{name}, false, false)
		m[name] = &p
	}
	gitProg = m["git"]
	return m
})

// ReadsOnly reports whether the command whose MatchArgv is argv only
// reads or lists the files it is given (the readOnly mark of its entry,
// or of git's subcommand): what it writes or runs is behind its guards
// (policy.dangerous_option), so naming a protected path to it is no
// write. Any other program may write a path it names through an option
// the gate does not know (go build -o .git/hooks/x, sort --out=f).
// argv[0] is matched as written: /bin/cat is not cat.
func ReadsOnly(argv []string) bool {
	if len(argv) == 0 {
		return false
	}
	p := progs()[argv[0]]
	switch {
	case p == nil:
		return false
	case argv[0] == "git":
		if len(argv) < 2 {
			return false
		}
		s := p.subs[argv[1]]
		return s != nil && s.readOnly
	}
	return p.readOnly
}

// gitProg is progs()["git"], set with it: git's entry is read several
// times a git command.
var gitProg *program

// gitEntry returns git's entry.
func gitEntry() *program {
	progs()
	return gitProg
}

// index parses p's options and names its guards by prefix (the program
// and subcommands that lead to p), for p and its subcommands.
func (p *program) index(prefix []string, goFlags, negatable bool) {
	goFlags, negatable = goFlags || p.goFlags, negatable || p.negatable
	p.goFlags, p.negatable = goFlags, negatable
	p.opts, p.roles, p.spelled = compileOptions(strings.Join(prefix, " "), p.options, p.complete, goFlags, p.negatable)
	p.guards = slices.Clone(p.guards) // entries may share a list (tmux's aliases)
	for i := range p.guards {
		p.guards[i].prefix = prefix
	}
	p.guarded = len(p.guards) > 0
	for name, s := range p.subs {
		s.index(append(prefix[:len(prefix):len(prefix)], name), goFlags, negatable)
		p.guarded = p.guarded || s.guarded
	}
}

// sub returns the entry of the subcommand argv[k] and those after it
// (git stash list), and the index of the first word after them; p and k
// when argv[k] is not a subcommand of p.
func (p *program) sub(argv []string, k int) (*program, int) {
	for k < len(argv) && p.subs != nil {
		s := p.subs[argv[k]]
		if s == nil {
			break
		}
		p, k = s, k+1
	}
	return p, k
}

// grepOptions are the options of grep, egrep and fgrep.
var grepOptions = []opt{
	does(recursive, "-r -R"),
	val(notFile|firstIsFile, "-e"),
	val(readsFile|firstIsFile, "-f"),
	number(),
	val(notFile, "-A -B -C -D -m --after-context --before-context --binary-files --context --devices --directories --exclude --exclude-dir --include --label --max-count --regexp"),
	flags("-a -b -c -E -F -G -H -h -I -i -L -l -n -o -P -q -s -T -U -V -v -w -x -Z -z --basic-regexp --binary --byte-offset --count --dereference-recursive --extended-regexp --files-with-matches --files-without-match --fixed-strings --help --ignore-case --initial-tab --invert-match --line-buffered --line-number --line-regexp --no-filename --no-group-separator --no-ignore-case --no-messages --null --null-data --only-matching --perl-regexp --quiet --recursive --silent --text --version --with-filename --word-regexp"),
	val(notFile|recursesIfValue, "-d"),
	optional(notFile, "--color --colour"),
	val(0, "--exclude-from --group-separator"),
	val(readsFile, "--file"),
}

var programs = map[string]program{
	":":     {files: fileSpec{none: true}},
	"[":     {readOnly: true, files: fileSpec{reader: readBracket}, dirSafe: true},
	"[[":    {readOnly: true, dirSafe: true},
	"ack":   {options: []opt{val(notFile, "-A -B -C -m")}, files: fileSpec{first: true, alwaysRecursive: true, implicitDot: true}, dirSafe: true},
	"ag":    {readOnly: true, options: []opt{val(notFile, "-A -B -C -m -G")}, files: fileSpec{first: true, alwaysRecursive: true, implicitDot: true}, dirSafe: true},
	"alias": {files: fileSpec{none: true}},
	"ash":   {wrap: &shellSpec},
	"awk": {
		options: []opt{
			val(readsFile|firstIsFile, "-f"),
			val(notFile, "-F -v -W --assign --field-separator"),
			val(readsFile, "--file"),
		},
		files:   awkSpec,
		dirSafe: true,
		guards: []optionGuard{
			{check: awkRisk, script: true, why: awkWhy},
		},
	},
	"b2sum":  {readOnly: true, envAll: true, dirSafe: true},
	"base32": {dirSafe: true},
	"base64": {envAll: true, dirSafe: true, options: []opt{flags("-d -i --decode --help --ignore-garbage --version"), val(0, "-w --wrap")}, complete: true},
	"bat":    {readOnly: true},
	"basename": {
		envAll:  true,
		files:   fileSpec{none: true},
		dirSafe: true, readOnly: true,
		options: []opt{flags("-a -z --help --multiple --version --zero"), val(0, "-s --suffix")}, complete: true,
	},
	"bash":    {wrap: &shellSpec},
	"builtin": {wrap: &wrapSpec{kind: wrapExec}},
	"busybox": {wrap: &wrapSpec{kind: wrapExec}},
	"bwrap": {
		wrap: &wrapSpec{kind: wrapExec, longVal: []string{"args", "argv0", "userns", "userns2", "pidns", "uid", "gid", "hostname", "chdir", "unsetenv",
			"lock-file", "sync-fd", "remount-ro", "exec-label", "file-label", "dev", "proc", "mqueue", "tmpfs", "dir", "seccomp",
			"add-seccomp-fd", "block-fd", "userns-block-fd", "info-fd", "json-status-fd", "cap-add", "cap-drop", "perms", "size"},
			longVal2: []string{"setenv", "bind", "bind-try", "dev-bind", "dev-bind-try", "ro-bind", "ro-bind-try", "bind-fd", "ro-bind-fd",
				"file", "bind-data", "ro-bind-data", "symlink", "chmod", "overlay-src", "tmp-overlay", "ro-overlay"}},
	},
	"cargo": {env: []envVar{{"RUSTC_WRAPPER", envCode}, {"RUSTC", envCode}, {"CARGO_*WRAPPER", envCode}, {"CARGO_*RUSTC", envCode}, {"RUST_BACKTRACE", envHarmless}, {"RUST_LOG", envHarmless}}},
	"cat": {
		envAll:  true,
		files:   fileSpec{exact: true},
		dirSafe: true, readOnly: true,
		options: []opt{
			flags("-A -b -E -e -n -s -T -t -u -v --help --number --number-nonblank --show-all --show-ends --show-nonprinting --show-tabs --squeeze-blank --version"),
		},
		complete: true,
	},
	"cd": {
		files:   fileSpec{none: true},
		dirSafe: true, readOnly: true,
		options: []opt{flags("-L -P -e -@")}, complete: true,
	},
	"chgrp":  {options: []opt{does(recursive, "-R").as("recursive"), flags("--recursive").as("recursive")}, files: fileSpec{first: true, writeAll: true, exact: true}, dirSafe: true},
	"chmod":  {options: []opt{does(recursive, "-R").as("recursive"), flags("--recursive").as("recursive")}, files: fileSpec{first: true, writeAll: true, exact: true}, dirSafe: true},
	"chown":  {options: []opt{does(recursive, "-R").as("recursive"), flags("--recursive").as("recursive")}, files: fileSpec{first: true, writeAll: true, exact: true}, dirSafe: true},
	"chroot": {wrap: &wrapSpec{kind: wrapExec, longVal: []string{"userspec", "groups"}, operands: 1}},
	"chrt":   {wrap: &wrapSpec{kind: wrapExec, shortVal: "TPD", longVal: []string{"sched-runtime", "sched-period", "sched-deadline"}, operands: 1, noCmd: "pm"}},
	"cksum":  {dirSafe: true},
	"cmp": {readOnly: true, envAll: true, dirSafe: true, options: []opt{
		flags("-b -l -s -v --help --print-bytes --quiet --silent --verbose --version"),
		val(0, "-i -n --bytes --ignore-initial"),
	},
		complete: true,
	},
	"column": {
		dirSafe: true,
		options: []opt{
			val(0, "-c -E -H -i -l -N -n -O -o -p -R -r -s -T -W --output-separator --output-width --separator --table-columns --table-columns-limit --table-hide --table-name --table-noextreme --table-order --table-right --table-truncate --table-wrap --tree --tree-id --tree-parent"),
			flags("-d -e -h -J -L -t -V -x --fillrows --help --json --keep-empty-lines --table --table-header-repeat --table-noheadings --version"),
		},
		complete: true,
	},
	"comm": {readOnly: true, envAll: true, dirSafe: true, options: []opt{
		flags("-1 -2 -3 -z --check-order --help --nocheck-order --total --version --zero-terminated"),
		val(0, "--output-delimiter"),
	},
		complete: true,
	},
	"command": {wrap: &wrapSpec{kind: wrapExec, noCmd: "vV"}},
	"cp": {options: []opt{
		does(recursive, "-r -R").as("recursive"),
		does(recursive, "-a").as("archive+recursive"),
		val(notFile, "-S"),
		val(writesFile, "-t --target-directory"),
		flags("--recursive").as("recursive"),
		flags("-f --force").as("force"),
		flags("--archive").as("archive+recursive"),
		flags("-l --link").as("link"),
		flags("-s --symbolic-link").as("symbolic-link"),
	},
		files: fileSpec{writeLast: true, exact: true}, dirSafe: true},
	// cpio reads or writes the files named in its input in every mode
	// (-i/--extract writes them, -o/--create archives the names on stdin,
	// -p/--pass-through copies them); -F/--file ARCHIVE is the archive,
	// read with -i, written with -o.
	"cpio": {options: []opt{
		val(notFile, "-H -R -M -e"),
		val(readsFile, "-E -I --pattern-file"),
		val(writesFile, "-O -D -F --file"),
	},
		files: fileSpec{alwaysNamesInput: true}, dirSafe: true},
	"curl": {
		options: []opt{
			val(notFile, "-X --request").as("request"),
			val(notFile, "-H -u -A -e -m -w -x -r -E -y -Y -z --header --user --user-agent --referer --max-time --connect-timeout --write-out --proxy --range --retry --data-raw --url"),
			val(readsFile, "-T --upload-file").as("upload-file"),
			val(readsFile, "-K --config").as("..."),
			val(readsFile, "-b --cookie --netrc-file --etag-compare"),
			val(writesFile, "-o --output").as("output"),
			val(writesFile, "-c -D --dump-header --cookie-jar --trace --trace-ascii --stderr --libcurl --etag-save"),
			flags("-O --remote-name").as("remote-name"),
			flags("-d --data").as("data"),
			flags("-k --insecure").as("insecure"),
			flags("-F --form").as("form"),
			flags("-L --location").as("location"),
		},
		env: []envVar{{"CURL_CA_BUNDLE", envFile}, {"SSL_CERT_FILE", envFile}},

		files:   fileSpec{},
		dirSafe: true,
	},
	"cut": {
		envAll: true,
		options: []opt{
			val(notFile, "-b -c -d -f"),
			flags("-n -s -z --complement --help --only-delimited --version --zero-terminated"),
			val(0, "--bytes --characters --delimiter --fields --output-delimiter"),
		},
		complete: true,
		files:    fileSpec{},
		dirSafe:  true,
	},
	"dash": {wrap: &shellSpec},
	"date": {
		options: []opt{
			val(notFile, "-d -s --date --set"),
			val(readsFile, "-f -r --file --reference"),
			optional(notFile, "-I"),
			flags("-R -u --debug --help --resolution --rfc-email --universal --utc --version"),
			optional(0, "--iso-8601"),
			val(0, "--rfc-3339"),
		},
		complete: true,
		files:    fileSpec{first: true},
		dirSafe:  true,

		guards: []optionGuard{
			{options: []string{"-s", "--set"}, why: "sets the clock"},
		},
	},
	"dbus-run-session": {wrap: &wrapSpec{kind: wrapExec, longVal: []string{"config-file", "dbus-daemon"}}},
	"dd":               {files: fileSpec{reader: readDD}, dirSafe: true},
	"declare":          {files: fileSpec{none: true}},
	"df": {
		envAll:  true,
		dirSafe: true,
		options: []opt{
			flags("-a -H -h -i -k -l -P -T -v --all --help --human-readable --inodes --local --no-sync --portability --print-type --si --sync --total --version"),
			val(0, "-B -t -x --block-size --exclude-type --type"),
			optional(0, "--output"),
		},
		complete: true,
	},
	"diff": {
		readOnly: true,
		options: []opt{
			does(recursive, "-r"),
			flags("-a -B -b -c -d -E -e -i -l -N -n -p -q -s -T -t -u -v -w -y -Z --brief --ed --expand-tabs --help --ignore-all-space --ignore-blank-lines --ignore-case --ignore-file-name-case --ignore-space-change --ignore-tab-expansion --ignore-trailing-space --initial-tab --left-column --minimal --new-file --no-dereference --no-ignore-file-name-case --normal --paginate --rcs --recursive --report-identical-files --show-c-function --side-by-side --speed-large-files --strip-trailing-cr --suppress-blank-empty --suppress-common-lines --text --unidirectional-new-file --version"),
			val(notFile, "-C -D -F -I -S -U -W -x --exclude --horizon-lines --ifdef --ignore-matching-lines --label --palette --show-function-line --starting-file --tabsize --width"),
			val(readsFile, "-X --exclude-from --from-file --to-file"),
			val(0, "--changed-group-format --line-format --new-group-format --new-line-format --old-group-format --old-line-format --unchanged-group-format --unchanged-line-format"),
			optional(notFile, "--color --context --unified"),
			val(notFile, "-L").unlisted(),
		},
		complete: true,
		files:    fileSpec{exact: true},
	},
	"dirname": {
		envAll:  true,
		files:   fileSpec{none: true},
		dirSafe: true, readOnly: true,
		options: []opt{flags("-z --help --version --zero")}, complete: true,
	},
	"dirs": {files: fileSpec{none: true}},
	"doas": {wrap: &wrapSpec{kind: wrapExec, shortVal: "uC", noCmd: "C"}},
	"docker": {options: []opt{
		val(notFile, "-e -p -t -w -u --name --env --network --user --workdir --entrypoint --tag --platform"),
	},
		files: fileSpec{}},
	"du": {
		lists:  true,
		envAll: true,
		options: []opt{
			flags("-0 -a -b -c -D -H -h -k -L -l -m -P -S -s -x --all --apparent-size --bytes --count-links --dereference --dereference-args --help --human-readable --inodes --no-dereference --null --one-file-system --separate-dirs --si --summarize --total --version"),
			val(notFile, "-B -d -t -X"),
			val(0, "--block-size --exclude --max-depth --threshold --time-style"),
			val(readsFile, "--exclude-from --files0-from"),
			optional(0, "--time"),
		},
		complete: true,
		files:    fileSpec{},
		dirSafe:  true, readOnly: true,
	},
	"echo":  {envAll: true, files: fileSpec{none: true}},
	"egrep": {readOnly: true, options: grepOptions, complete: true, files: grepSpec, dirSafe: true},
	"emacs": {
		guards: []optionGuard{
			{options: []string{"--eval", "--execute", "--load", "--funcall", "--script", "-l", "-f", "-x"}, why: "runs Lisp code you choose"},
		},
	},
	"env":      {wrap: &wrapSpec{kind: wrapEnv}},
	"exec":     {wrap: &wrapSpec{kind: wrapExec, shortVal: "a"}},
	"exit":     {files: fileSpec{none: true}},
	"expand":   {dirSafe: true},
	"export":   {files: fileSpec{none: true}},
	"expr":     {files: fileSpec{none: true}},
	"fakeroot": {wrap: &wrapSpec{kind: wrapExec, shortVal: "lsib", longVal: []string{"lib", "faked"}}},
	"false":    {envAll: true, files: fileSpec{none: true}},
	"fgrep":    {readOnly: true, options: grepOptions, complete: true, files: grepSpec, dirSafe: true},
	"file": {
		files: fileSpec{reader: readFile},
		options: []opt{
			flags("-0 -b -C -c -d -E -h -i -k -L -l -N -n -p -r -S -s -v -Z -z --apple --brief --checking-printout --compile --debug --dereference --extension --help --keep-going --list --mime --mime-encoding --mime-type --no-buffer --no-dereference --no-pad --no-sandbox --preserve-date --print0 --raw --special-files --uncompress --uncompress-noreport --version"),
			val(0, "-e -F -f -m -P --exclude --exclude-quiet --files-from --magic-file --parameter --separator"),
		},
		complete: true,
		env:      []envVar{{"MAGIC", envFileList}},

		dirSafe: true, readOnly: true,

		guards: []optionGuard{
			{options: []string{"-C", "--compile"}, why: "writes a compiled magic file"},
		},
	},
	"find": {
		singleDash: true,
		dirSafe:    true,
		wrap:       &wrapSpec{kind: wrapFind},
		guards: []optionGuard{
			{options: []string{"-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls"}, why: "deletes files, writes files or runs a program"},
		},
	},
	"firejail": {wrap: &wrapSpec{kind: wrapExec}},
	"fish":     {wrap: &shellSpec},
	"flock":    {wrap: &wrapSpec{kind: wrapFlock}},
	"fmt":      {dirSafe: true},
	"fold":     {dirSafe: true},
	"gawk": {
		options: []opt{
			val(readsFile|firstIsFile, "-f"),
			val(notFile, "-F -v -W --assign --field-separator"),
			val(readsFile, "--file"),
		},
		files:   awkSpec,
		dirSafe: true,
		guards: []optionGuard{
			{check: awkRisk, script: true, why: awkWhy},
		},
	},
	"gdb": {
		guards: []optionGuard{
			{options: []string{"-ex", "--ex", "-x", "--command", "-eval-command", "--eval-command", "-iex", "-ix", "-init-command", "--init-command", "-init-eval-command", "--init-eval-command"}, why: "runs gdb commands (shell, python) you choose"},
		},
	},
	"getopts": {files: fileSpec{none: true}},
	"git": {
		options: []opt{
			val(0, "-C -c --config-env --git-dir --list-cmds --namespace --super-prefix --work-tree"),
			flags("--bare --glob-pathspecs -h --help --html-path --icase-pathspecs --info-path --literal-pathspecs --man-path --no-optional-locks --no-pager --no-replace-objects --noglob-pathspecs -P -p --paginate -v --version"),
			optional(0, "--exec-path"),
			val(notFile, "-m -b -B -n -U --message --author --date --format --pretty --grep").unlisted(),
		},
		complete: true,
		env:      []envVar{{"GIT_SSH_COMMAND", envCode}, {"GIT_SSH", envCode}, {"GIT_PAGER", envCode}, {"PAGER", envCode}, {"EDITOR", envCode}, {"VISUAL", envCode}, {"GIT_EDITOR", envCode}, {"GIT_SEQUENCE_EDITOR", envCode}, {"GIT_EXTERNAL_DIFF", envCode}, {"GIT_ASKPASS", envCode}, {"SSH_ASKPASS", envCode}, {"GIT_EXEC_PATH", envCode}, {"GIT_TEMPLATE_DIR", envCode}, {"GIT_PROXY_COMMAND", envCode}, {"GIT_DIR", envCode}, {"GIT_WORK_TREE", envCode}, {"GIT_INDEX_FILE", envCode}, {"GIT_OBJECT_DIRECTORY", envCode}, {"GIT_ALTERNATE_OBJECT_DIRECTORIES", envCode}, {"GIT_COMMON_DIR", envCode}, {"GIT_ALLOW_PROTOCOL", envCode}, {"GIT_TEST_FSMONITOR", envCode}, {"BROWSER", envCode}, {"GIT_CONFIG*", envCode}, {"GIT_TRACE*", envCode}, {"GIT_GRAFT_FILE", envFile}, {"GIT_SSL_CAINFO", envFile}, {"SSL_CERT_FILE", envFile}, {"GIT_TERMINAL_PROMPT", envHarmless}, {"GIT_AUTHOR_NAME", envHarmless}, {"GIT_AUTHOR_EMAIL", envHarmless}, {"GIT_COMMITTER_NAME", envHarmless}, {"GIT_COMMITTER_EMAIL", envHarmless}},

		// git's own options, before the subcommand; its subcommands'
		// options are in subs.

		negatable: true,
		files:     fileSpec{},
		dirSafe:   true,
		git:       &gitSpec{stdinL: []string{"pathspec-from-file", "stdin-paths", "stdin", "batch", "batch-check", "batch-command", "batch-all-objects"}},
		guards: []optionGuard{
			{check: gitExtURL, why: "an ext:: URL runs a command as the remote (git remote-ext)"},
		},
		subs: map[string]*program{
			"am":    {git: &gitSpec{patch: true}},
			"apply": {git: &gitSpec{patch: true, patchRead: []string{"check", "stat", "numstat", "summary"}}},
			"archive": {
				git: &gitSpec{tree: true, shortVal: "o", long: []string{"exec"}, write: "o"},
				guards: []optionGuard{
					{options: []string{"--exec"}, why: "runs a program as the remote git-upload-archive"},
				},
			},
			"bisect": {
				git: &gitSpec{runs: "run"},
				guards: []optionGuard{
					{options: []string{"run"}, why: "runs a program"},
				},
			},
			"blame": {
				readOnly: true,
				options: []opt{
					optional(0, "--abbrev -C -M"),
					flags("-b -c --color-by-age --color-lines -e -f --first-parent --incremental -l --line-porcelain --minimal -n -p --porcelain --progress --reverse --root -s --score-debug --show-email --show-name --show-number --show-stats -t --textconv -w"),
					val(0, "--contents --date --encoding --ignore-rev --ignore-revs-file -L -S --since"),
				},
				complete: true,

				guards: []optionGuard{
					{options: []string{"--textconv"}, why: "runs a textconv program"},
				},
			},
			"branch": {
				options: []opt{
					flags("-a --all -C -c --copy --create-reflog --edit-description -i --ignore-case -l --list -q --quiet -r --recurse-submodules --remotes --show-current --unset-upstream -v --verbose"),
					optional(0, "--abbrev --color --column -t --track"),
					val(0, "--contains --format --merged --no-contains --no-merged --points-at --set-upstream-to --sort -u"),
					flags("-D").as("delete+force"),
					flags("-d --delete").as("delete"),
					flags("-f --force").as("force"),
					flags("-M").as("move+force"),
					flags("-m --move").as("move"),
				},
				complete: true,

				guards: []optionGuard{
					{check: gitBranchCreate, why: "creates a branch (a ref)"},
					{options: []string{"-d", "-D", "--delete", "-m", "-M", "--move", "-c", "-C", "--copy", "-f", "--force", "-u", "--set-upstream-to", "--unset-upstream", "--edit-description", "-t", "--track", "--set-upstream"}, why: "deletes, moves or rewrites branches, or writes their upstream into .git/config"},
				},
			},
			"cat-file": {
				readOnly: true,
				options: []opt{
					flags("--allow-unknown-type --batch-all-objects --buffer -e --filters --follow-symlinks --mailmap -p -s -t --textconv --unordered --use-mailmap -z"),
					optional(0, "--batch-check --batch-command --batch"),
					val(0, "--path"),
				},
				complete: true,

				guards: []optionGuard{
					{options: []string{"--textconv", "--filters"}, why: "runs a textconv or filter program"},
				},
			},
			"clean": {git: &gitSpec{tree: true, removes: true, whole: true}, options: []opt{
				flags("-f --force").as("force"),
				flags("-n --dry-run").as("dry-run"),
				flags("-i --interactive").as("interactive"),
			},
			},
			"add": {git: &gitSpec{tree: true, whole: true}, options: []opt{
				flags("-A --all").as("all"),
				flags("-f --force").as("force"),
				flags("-u --update").as("update"),
				flags("-p --patch").as("patch"),
			},
			},
			// Entries only for the policy's rules, which name their options.
			"checkout": {options: []opt{flags("-f --force").as("force")}},
			"switch": {options: []opt{
				flags("-f --force --discard-changes").as("force"),
				flags("-c --create").as("create"),
				flags("-C").as("create+force"),
			},
			},
			"commit": {options: []opt{
				flags("-a --all").as("all"),
				flags("-n --no-verify").as("no-verify"),
				flags("-m --message").as("message"),
			},
			},
			"tag": {options: []opt{flags("-d --delete").as("delete"), flags("-f --force").as("force")}},
			"clone": {
				git: &gitSpec{configVal: "c", configL: []string{"config"}, shortVal: "ubocj", danger: "u", long: []string{"upload-pack", "template"}},
				guards: []optionGuard{
					{options: []string{"-u", "--upload-pack", "--template"}, why: "runs a program as the remote git-upload-pack, or copies hooks from a template"},
				},
			},
			"config": {
				git: &gitSpec{config: true},
				guards: []optionGuard{
					{check: gitConfigWrite, script: true, why: "changes the git configuration, which can make git run programs"},
				},
			},
			"check-ignore":  {readOnly: true},
			"count-objects": {options: []opt{flags("-H -v --human-readable --verbose")}, complete: true},
			"for-each-ref": {
				git: &gitSpec{opaque: true},
				options: []opt{
					optional(0, "--color --contains --merged --no-contains --no-merged"),
					val(0, "--count --format --points-at --sort"),
					flags("--ignore-case -p --perl --python -s --shell --stdin --tcl"),
				},
				complete: true,
			},
			"notes": {
				git:     &gitSpec{opaque: true},
				options: []opt{val(0, "--ref")}, complete: true,
				guards: []optionGuard{
					{options: []string{"add", "copy", "append", "edit", "merge", "remove", "prune"}, why: "writes notes (refs), or runs an editor"},
				},
			},
			"reflog": {
				git: &gitSpec{opaque: true},
				guards: []optionGuard{
					{options: []string{"expire", "delete"}, why: "deletes reflog entries"},
					{options: diffFlags, whole: []string{"--text"}, why: "writes a file or runs an external diff or textconv program"},
				},
			},
			// git remote [-v] lists; get-url prints; show asks the remote
			// (network) unless -n; the others write .git/config or fetch.
			"remote": {
				git:     &gitSpec{opaque: true},
				options: []opt{flags("-v --verbose")}, complete: true,
				subs: map[string]*program{
					"get-url": {options: []opt{flags("--all --push")}, complete: true},
				},
				guards: []optionGuard{
					{options: []string{"add", "rename", "remove", "rm", "set-head", "set-branches", "set-url", "prune", "update", "show"},
						why: "changes the remotes in .git/config, or contacts a remote"},
				},
			},
			"rev-list": {
				guards: []optionGuard{
					{options: diffFlags, whole: []string{"--text"}, why: "writes a file or runs an external diff or textconv program"},
				},
			},
			"worktree": {
				git: &gitSpec{opaque: true},
				subs: map[string]*program{
					"list": {options: []opt{val(0, "--expire"), flags("--porcelain -v --verbose -z")}, complete: true},
				},
				guards: []optionGuard{
					{options: []string{"add", "move", "remove", "prune", "repair", "lock", "unlock"}, why: "creates, moves or removes working trees"},
				},
			},
			"describe": {options: []opt{
				optional(0, "--abbrev --broken --dirty"),
				flags("--all --always --contains --debug --exact-match --first-parent --long --tags"),
				val(0, "--candidates --exclude --match"),
			},
				complete: true,
			},
			"diff": {
				readOnly: true,
				git:      &gitSpec{treeIf: "no-index"},
				options:  slices.Concat(gitDiffOpts, []opt{flags("-0 -1 -2 -3 --base --cached --exit-code --merge-base --no-index --ours --quiet --staged --theirs")}), complete: true,
				guards: []optionGuard{
					{options: diffFlags, whole: []string{"--text"}, why: "writes a file or runs an external diff or textconv program"},
				},
			},
			"difftool": {git: &gitSpec{shortVal: "txy", shell: "x", shellL: []string{"extcmd"}}},
			"fetch": {
				git: &gitSpec{long: []string{"upload-pack"}},
				guards: []optionGuard{
					{options: []string{"--upload-pack"}, why: "runs a program as the remote git-upload-pack"},
				},
			},
			"fetch-pack": {
				guards: []optionGuard{
					{options: []string{"--upload-pack", "--exec"}, why: "runs a program as the remote git-upload-pack"},
				},
			},
			"filter-branch": {git: &gitSpec{shellL: []string{"env-filter", "tree-filter", "index-filter", "parent-filter", "msg-filter", "commit-filter", "tag-name-filter", "setup"}}},
			"format-patch":  {git: &gitSpec{shortVal: "ov", write: "o", writeL: []string{"output-directory"}}},
			"grep": {
				readOnly: true,
				options: []opt{
					number(),
					val(0, "-A --after-context -B --before-context -C --context -e -f -m --max-count --max-depth --threads"),
					flags("-a --all-match --and --basic-regexp --break -c --cached --column --count -E --exclude-standard --ext-grep --extended-regexp -F --files-with-matches --files-without-match --fixed-strings --full-name --function-context -G -H -h --heading -I -i --ignore-case --invert-match -L -l --line-number --name-only -n --no-index --not --null -o --only-matching --or -P -p --perl-regexp -q --quiet -r --recursive --recurse-submodules --show-function --text --textconv --untracked -v -W -w --word-regexp -z"),
					optional(0, "--color -O --open-files-in-pager"),
				},
				complete: true,

				git: &gitSpec{tree: true, shortVal: "efABCm", danger: "O", long: []string{"open-files-in-pager"}},
				guards: []optionGuard{
					{options: []string{"-O", "--open-files-in-pager", "--textconv"}, whole: []string{"--text"}, why: "runs a pager or textconv program"},
				},
			},
			"init": {git: &gitSpec{long: []string{"template"}}},
			"log": {
				readOnly: true,
				options:  gitLogOpts, complete: true,
				guards: []optionGuard{
					{options: diffFlags, whole: []string{"--text"}, why: "writes a file or runs an external diff or textconv program"},
				},
			},
			"ls-files": {readOnly: true, options: []opt{
				optional(0, "--abbrev"),
				flags("-c --cached -d --debug --deduplicate --deleted --directory --empty-directory --eol --error-unmatch --exclude-standard -f --full-name -i --ignored -k --killed -m --modified -o --others --recurse-submodules --resolve-undo -s --sparse --stage -t -u --unmerged -v -z"),
				val(0, "--exclude-from --exclude-per-directory --exclude --format --with-tree -X -x"),
			},
				complete: true,
			},
			"ls-remote": {
				git: &gitSpec{danger: "u", long: []string{"upload-pack", "exec"}},
				guards: []optionGuard{
					{options: []string{"--upload-pack", "--exec"}, why: "runs a program as the remote git-upload-pack"},
				},
			},
			"merge-base": {options: []opt{flags("-a --all --fork-point --independent --is-ancestor --octopus")}, complete: true},
			"ls-tree": {options: []opt{
				optional(0, "--abbrev"),
				flags("-d --full-name --full-tree -l --long --name-only --name-status --object-only -r -t -z"),
				val(0, "--format"),
			},
				complete: true,
			},
			"pull": {
				git: &gitSpec{long: []string{"upload-pack"}},
				guards: []optionGuard{
					{options: []string{"--upload-pack"}, why: "runs a program as the remote git-upload-pack"},
				},
			},
			"push": {
				options: []opt{
					flags("-f --force").as("force"),
					flags("--force-with-lease").as("force-with-lease+force"),
					flags("--mirror").as("mirror+force"),
					flags("-d --delete").as("delete"),
					flags("-u --set-upstream").as("set-upstream"),
					flags("-n --dry-run").as("dry-run"),
					plusOperand("force"),
				},

				git: &gitSpec{shortVal: "o", long: []string{"receive-pack", "exec"}},
				guards: []optionGuard{
					{options: []string{"--receive-pack", "--exec"}, why: "runs a program as the remote git-receive-pack"},
				},
			},
			"rebase": {
				options: []opt{flags("-i --interactive").as("interactive"), flags("-x --exec").as("exec")},
				git:     &gitSpec{shortVal: "sXxC", shell: "x", shellL: []string{"exec"}},
				guards: []optionGuard{
					{options: []string{"-x", "--exec"}, why: "runs a command after each commit"},
				},
			},
			"rev-parse": {readOnly: true, options: []opt{
				optional(0, "--abbrev-ref --branches --remotes --short --show-object-format --tags"),
				flags("--absolute-git-dir --all --flags --git-common-dir --git-dir --is-bare-repository --is-inside-git-dir --is-inside-work-tree --is-shallow-repository --keep-dashdash --local-env-vars --no-flags --no-revs --not --parseopt -q --quiet --revs-only --shared-index-path --show-cdup --show-prefix --show-superproject-working-tree --show-toplevel --sq --sq-quote --stop-at-non-option --stuck-long --symbolic --symbolic-full-name --verify"),
				val(0, "--after --before --default --disambiguate --exclude-hidden --exclude --git-path --glob --path-format --prefix --resolve-git-dir --since --until"),
			},
				complete: true,
			},
			"send-email": {git: &gitSpec{long: []string{"to-cmd", "cc-cmd", "header-cmd", "sendmail-cmd", "smtp-server"}}},
			"send-pack": {
				guards: []optionGuard{
					{options: []string{"--receive-pack", "--exec"}, why: "runs a program as the remote git-receive-pack"},
				},
			},
			"shortlog": {
				options: []opt{
					flags("-c --committer -e --email -n --numbered -s --summary --all --no-merges --merges --first-parent --reverse -i -E -F --regexp-ignore-case --not"),
					val(0, "--format --group --since --until --after --before --author --grep --max-count --skip --date --glob --exclude"),
					optional(0, "-w --branches --tags --remotes"),
				},
				complete: true,

				guards: []optionGuard{
					{options: diffFlags, whole: []string{"--text"}, why: "writes a file or runs an external diff or textconv program"},
				},
			},
			"show": {
				readOnly: true,
				options:  gitLogOpts, complete: true,
				guards: []optionGuard{
					{options: diffFlags, whole: []string{"--text"}, why: "writes a file or runs an external diff or textconv program"},
				},
			},
			"stash": {
				git: &gitSpec{whole: true, wholeSubs: []string{"push", "save"}, opaque: true},
				subs: map[string]*program{
					"list": {
						options: gitLogOpts, complete: true,
						guards: []optionGuard{
							{options: diffFlags, whole: []string{"--text"}, why: "writes a file or runs an external diff or textconv program"},
						},
					},
					"show": {
						guards: []optionGuard{
							{options: diffFlags, whole: []string{"--text"}, why: "writes a file or runs an external diff or textconv program"},
						},
					},
				},
			},
			"status": {readOnly: true, options: []opt{
				flags("-b --ahead-behind --branch --long --null --renames --short --show-stash -s -v --verbose -z"),
				optional(0, "--column --find-renames --ignore-submodules --ignored -M --porcelain -u --untracked-files"),
			},
				complete: true,
			},
			"submodule": {
				git: &gitSpec{runs: "foreach", runsOpts: true},
				guards: []optionGuard{
					{options: []string{"foreach"}, why: "runs a command in every submodule"},
				},
			},
		},
	},
	"go": {
		options: []opt{val(runs, "-exec -toolexec")}, env: []envVar{{"GOFLAGS", envCode}, {"GOCACHEPROG", envCode}, {"GCCGO", envCode}, {"GOENV", envCode}, {"GOTOOLCHAIN", envCode}, {"GOROOT", envCode}, {"GOPATH", envCode}, {"GOPROXY", envCode}, {"GOBIN", envCode}, {"CGO_*", envCode}, {"CC", envCode}, {"CXX", envCode}, {"FC", envCode}, {"AR", envCode}, {"PKG_CONFIG", envCode}, {"CGO_ENABLED", envHarmless}, {"GOOS", envHarmless}, {"GOARCH", envHarmless}, {"GOARM", envHarmless}, {"GOAMD64", envHarmless}},
		goFlags: true,

		files:   fileSpec{reader: readGo}, // see goFlags (files.go)
		dirSafe: true,
		subs: map[string]*program{
			"build": {
				options: slices.Concat(goBuildOpts, []opt{val(0, "-o"), flags("-json")}), complete: true,
				guards: []optionGuard{
					{goFlags: true, options: goBuildFlags, why: "runs a program, passes flags to the compiler or linker, or writes where you choose"},
				},
			},
			"doc": {options: []opt{flags("-all -c -cmd -short -src -u"), optional(0, "-http")}, complete: true},
			// The installs (installs.go).
			"mod": {subs: map[string]*program{"download": {options: goModDownload, complete: true}}},
			"get": {options: goGet, complete: true},
			"env": {
				options: []opt{flags("-json -u -w -changed")}, complete: true,
				guards: []optionGuard{
					{goFlags: true, options: []string{"-w", "-u"}, why: "changes the Go configuration"},
				},
			},
			"generate": {
				guards: []optionGuard{
					{why: "runs the programs named by //go:generate lines"},
				},
			},
			"list": {
				options: slices.Concat(goBuildOpts, []opt{flags("-compiled -deps -e -export -find -m -retracted -test -u -versions"), val(0, "-f -reuse"), optional(0, "-json")}), complete: true,
				guards: []optionGuard{
					{goFlags: true, options: goBuildFlags, why: "runs a program, passes flags to the compiler or linker, or writes where you choose"},
				},
			},
			"test": {
				options: []opt{
					val(0, "-C -p -covermode -coverpkg -asmflags -buildmode -compiler -gccgoflags -gcflags -installsuffix -ldflags -mod -modfile -overlay -pgo -pkgdir -tags -toolexec -debug-actiongraph -debug-runtime-trace -debug-trace -exec -o -bench -benchtime -blockprofile -blockprofilerate -count -coverprofile -cpu -cpuprofile -fuzz -fuzzcachedir -fuzzminimizetime -fuzztime -list -memprofile -memprofilerate -mutexprofile -mutexprofilefraction -outputdir -parallel -run -shuffle -skip -timeout -trace -vet -gocoverdir"),
					flags("-a -n -race -msan -asan -cover -v -work -x -linkshared -modcacherw -trimpath -args -c -json -benchmem -failfast -fullpath -short -artifacts"),
					optional(0, "-buildvcs"),
				},
				complete: true,

				guards: []optionGuard{
					{goFlags: true, options: goBuildFlags, why: "runs a program, passes flags to the compiler or linker, or writes where you choose"},
					{goFlags: true, options: []string{"-coverprofile", "-cpuprofile", "-memprofile", "-blockprofile", "-mutexprofile", "-trace", "-outputdir", "-gocoverdir", "-fuzzcachedir"}, why: "writes a profile where you choose"},
				},
			},
			"version": {options: []opt{flags("-m -v -json")}, complete: true},
			"vet": {
				options: []opt{
					val(0, "-C -p -covermode -coverpkg -asmflags -buildmode -compiler -gccgoflags -gcflags -installsuffix -ldflags -mod -modfile -overlay -pgo -pkgdir -tags -toolexec -debug-actiongraph -debug-runtime-trace -debug-trace -vettool -c -printf.funcs -printfuncs -unusedfuncs -unusedresult.funcs -unusedresult.stringmethods -unusedstringmethods"),
					flags("-a -n -race -msan -asan -cover -v -work -x -linkshared -modcacherw -trimpath -V -all -appends -asmdecl -assign -atomic -bool -bools -buildtag -buildtags -cgocall -composites -composites.whitelist -compositewhitelist -copylocks -defers -diff -directive -errorsas -flags -framepointer -hostport -httpresponse -ifaceassert -json -loopclosure -lostcancel -methods -nilfunc -printf -rangeloops -shift -sigchanyzer -slog -source -stdmethods -stdversion -stringintconv -structtag -testinggoroutine -testinggoroutine.subtest -tests -timeformat -unmarshal -unreachable -unsafeptr -unusedresult -waitgroup"),
					optional(0, "-buildvcs"),
				},
				complete: true,

				guards: []optionGuard{
					{goFlags: true, options: goBuildFlags, why: "runs a program, passes flags to the compiler or linker, or writes where you choose"},
				},
			},
		},
	},
	"gofmt": {
		goFlags: true,
		options: []opt{val(0, "-cpuprofile -r"), flags("-d -e -l -s -w")}, complete: true,
		guards: []optionGuard{
			{goFlags: true, options: []string{"-w", "-cpuprofile"}, why: "rewrites the files it formats, or writes a CPU profile"},
		},
	},
	"grep": {
		files:   grepSpec,
		dirSafe: true, readOnly: true,
		options:  grepOptions,
		complete: true,
	},
	"gsed": {
		guards: []optionGuard{
			{check: sedRisk, script: true, why: sedWhy},
		},
	},
	"hash": {files: fileSpec{none: true}},
	"head": {
		envAll: true,
		options: []opt{
			number(),
			val(notFile, "-c -n"),
			flags("-q -v -z --help --quiet --silent --verbose --version --zero-terminated"),
			val(0, "--bytes --lines"),
		},
		complete: true,
		files:    fileSpec{exact: true},
		dirSafe:  true, readOnly: true,
	},
	"hostname":             {options: []opt{val(readsFile, "-F --file")}, files: fileSpec{}, dirSafe: true},
	"i3-sensible-terminal": {env: []envVar{{"TERMINAL", envCode}}},
	"id": {envAll: true, files: fileSpec{none: true}, options: []opt{
		flags("-a -G -g -n -r -u -Z -z --context --group --groups --help --name --real --user --version --zero"),
	},
		complete: true,
	},
	"install": {options: []opt{
		val(notFile, "-m -g -o -S"),
		val(writesFile, "-t --target-directory"),
		does(writesOperands, "-d --directory"),
	},
		files: fileSpec{writeLast: true}, dirSafe: true}, // install -d DIR… creates each
	"ionice": {wrap: &wrapSpec{kind: wrapExec, shortVal: "cnpPu", longVal: []string{"class", "classdata", "pid", "pgid", "uid"}, noCmd: "pPu"}},
	"java":   {env: []envVar{{"JAVA_TOOL_OPTIONS", envCode}, {"_JAVA_OPTIONS", envCode}, {"JDK_JAVA_OPTIONS", envCode}}, singleDash: true},
	"jobs":   {files: fileSpec{none: true}},
	"join":   {dirSafe: true},
	"jq": {
		options: []opt{
			val(readsFile|firstIsFile, "-f"),
			flags("-a -C -c -e -h -j -M -n -R -r -S -s -V --args --ascii-output --build-configuration --color-output --compact-output --exit-status --help --join-output --jsonargs --monochrome-output --null-input --raw-input --raw-output --raw-output0 --seq --slurp --sort-keys --stream --stream-errors --tab --unbuffered --version"),
			val(0, "-L --indent"),
			pair("--arg --argjson --rawfile --slurpfile"),
			val(readsFile, "--from-file"),
		},
		complete: true,
		files:    fileSpec{reader: readJq, first: true},
		dirSafe:  true,
	},
	"kill":    {files: fileSpec{none: true}},
	"ksh":     {wrap: &shellSpec},
	"kubectl": {env: []envVar{{"KUBECONFIG", envCode}}},
	"less":    {readOnly: true, dirSafe: true, env: []envVar{{"LESSOPEN", envCode}, {"LESSCLOSE", envCode}, {"LESSHISTFILE", envWritten}}},
	"let":     {files: fileSpec{none: true}},
	"linux32": {wrap: &wrapSpec{kind: wrapExec}},
	"linux64": {wrap: &wrapSpec{kind: wrapExec}},
	"ln": {options: []opt{
		val(notFile, "-S"),
		val(writesFile, "-t --target-directory"),
		flags("-s --symbolic").as("symbolic"),
		flags("-f --force").as("force"),
	},
		files: fileSpec{writeLast: true}, dirSafe: true},
	"local": {files: fileSpec{none: true}},
	"ls": {
		lists:  true,
		envAll: true,
		options: []opt{
			flags("-1 -A -a -B -b -C -c -D -d -F -f -G -g -H -h -i -k -L -l -m -N -n -o -p -Q -q -R -r -S -s -t -U -u -v -X -x -Z --all --almost-all --author --context --dereference --dereference-command-line --dereference-command-line-symlink-to-dir --directory --dired --escape --file-type --full-time --group-directories-first --help --hide-control-chars --human-readable --ignore-backups --inode --kibibytes --literal --no-group --numeric-uid-gid --quote-name --recursive --reverse --show-control-chars --si --size --version --zero"),
			val(notFile, "-I -T -w"),
			val(0, "--block-size --format --hide --ignore --indicator-style --quoting-style --sort --tabsize --time --time-style --width"),
			optional(0, "--classify --color --hyperlink"),
		},
		complete: true,
		files:    fileSpec{exact: true},
		dirSafe:  true, readOnly: true,
	},
	"ltrace": {wrap: &wrapSpec{kind: wrapExec, shortVal: "aADeFlnopsuwx", longVal: []string{"output", "align", "indent", "library"}, writeVal: "o", longWrite: []string{"output"}}},
	"make": {
		options: []opt{val(notFile, "-j -l"), val(readsFile, "-f -C")}, env: []envVar{{"MAKEFLAGS", envCode}, {"CC", envCode}, {"CXX", envCode}, {"CPP", envCode}, {"LD", envCode}, {"AR", envCode}, {"FC", envCode}, {"CFLAGS", envCode}, {"CXXFLAGS", envCode}, {"CPPFLAGS", envCode}, {"LDFLAGS", envCode}},
		files:   fileSpec{},
		dirSafe: true,
		guards: []optionGuard{
			{options: []string{"-f", "--file", "--makefile", "-C", "--directory", "-E", "--eval", "-I", "--include-dir"}, why: "runs the recipes of a makefile or text you choose"},
		},
	},
	"man": {
		env: []envVar{{"MANPAGER", envCode}, {"PAGER", envCode}, {"BROWSER", envCode}},
		guards: []optionGuard{
			{options: []string{"-P", "--pager", "-H", "--html", "-C", "--config-file"}, why: "runs a pager or browser of your choice"},
		},
	},
	"mawk": {
		options: []opt{
			val(readsFile|firstIsFile, "-f"),
			val(notFile, "-F -v -W --assign --field-separator"),
			val(readsFile, "--file"),
		},
		files:   awkSpec,
		dirSafe: true,
		guards: []optionGuard{
			{check: awkRisk, script: true, why: awkWhy},
		},
	},
	"md5sum": {readOnly: true, envAll: true, dirSafe: true, options: []opt{
		flags("-b -c -t -w -z --binary --check --help --ignore-missing --quiet --status --strict --tag --text --version --warn --zero"),
	},
		complete: true,
	},
	"mkdir":  {options: []opt{val(notFile, "-m")}, files: fileSpec{writeAll: true, exact: true}, dirSafe: true},
	"mkfifo": {options: []opt{val(notFile, "-m")}, files: fileSpec{writeAll: true}, dirSafe: true},
	"mksh":   {wrap: &shellSpec},
	"more":   {readOnly: true, dirSafe: true},
	"mv": {options: []opt{
		val(notFile, "-S"),
		val(writesFile, "-t --target-directory"),
		flags("-f --force").as("force"),
		flags("-n --no-clobber").as("no-clobber"),
	},
		files: fileSpec{writeAll: true, exact: true}, dirSafe: true},
	"nawk": {
		options: []opt{
			val(readsFile|firstIsFile, "-f"),
			val(notFile, "-F -v -W --assign --field-separator"),
			val(readsFile, "--file"),
		},
		files:   awkSpec,
		dirSafe: true,
		guards: []optionGuard{
			{check: awkRisk, script: true, why: awkWhy},
		},
	},
	"nice": {wrap: &wrapSpec{kind: wrapExec, shortVal: "n", longVal: []string{"adjustment"}}},
	"nl": {
		envAll:  true,
		dirSafe: true, readOnly: true,
		options: []opt{
			val(0, "-b -d -f -h -i -l -n -s -v -w --body-numbering --footer-numbering --header-numbering --join-blank-lines --line-increment --number-format --number-separator --number-width --section-delimiter --starting-line-number"),
			flags("-p --help --no-renumber --version"),
		},
		complete: true,
	},
	"node":    {options: []opt{val(notFile, "-e -p -r")}, env: []envVar{{"NODE_OPTIONS", envCode}, {"NODE_PATH", envCode}, {"NODE_EXTRA_CA_CERTS", envFile}, {"NODE_REPL_HISTORY", envWritten}, {"NODE_ENV", envHarmless}}, files: fileSpec{}},
	"nohup":   {wrap: &wrapSpec{kind: wrapExec}},
	"npm":     {files: fileSpec{first: true}, env: []envVar{{"NPM_CONFIG_*", envCode}, {"npm_config_*", envCode}, {"NODE_OPTIONS", envCode}, {"NODE_ENV", envHarmless}}},
	"nsenter": {wrap: &wrapSpec{kind: wrapExec, shortVal: "tSGN", longVal: []string{"target", "setuid", "setgid", "net-socket"}}},
	"numfmt": {
		files: fileSpec{none: true}, envAll: true,
		options: []opt{
			val(0, "-d --delimiter --field --format --from --from-unit --invalid --padding --round --suffix --to --to-unit --unit-separator"),
			flags("-z --debug --grouping --help --version --zero-terminated"),
			optional(0, "--header"),
		},
		complete: true,
	},
	"nvim": {
		env: []envVar{{"VIMINIT", envCode}, {"EXINIT", envCode}},
		guards: []optionGuard{
			{check: vimRisk, why: "runs editor commands (which may run a program) you choose"},
		},
	},
	"parallel": {
		wrap: &wrapSpec{kind: wrapParallel, shortVal: "adEIjnNLPsS", longVal: []string{"arg-file", "delimiter", "jobs", "max-args", "sshlogin", "max-chars", "colsep", "tag-string", "joblog", "results", "tmpdir", "workdir", "wd", "basefile", "bf", "transfer-file", "return", "sshloginfile", "slf", "timeout", "delay", "retries", "halt", "memfree", "load", "env", "nice", "block", "block-size", "recstart", "recend", "max-lines", "max-replace-args"}},
	},
	"paste": {dirSafe: true},
	"patch": {options: []opt{
		val(notFile, "-p -B -D -F -V -Y -z -g -d"),
		val(readsFile, "-i"),
		val(writesFile, "-o -r"),
	},
		files: fileSpec{alwaysNamesInput: true, writeFirst: true}, dirSafe: true}, // patch [ORIGFILE [PATCHFILE]]
	"perl":    {options: []opt{val(notFile, "-e -E -M -m -I -l"), optional(backupSuffix|writesOperands, "-i")}, env: []envVar{{"PERL5OPT", envCode}, {"PERL5LIB", envCode}, {"PERLLIB", envCode}, {"PERL5DB", envCode}}, files: fileSpec{}},
	"popd":    {files: fileSpec{none: true}, dirSafe: true},
	"printf":  {envAll: true, files: fileSpec{none: true}},
	"prlimit": {wrap: &wrapSpec{kind: wrapExec, shortVal: "po", longVal: []string{"pid", "output"}, noCmd: "p"}},
	"pushd":   {readOnly: true, files: fileSpec{none: true}, dirSafe: true},
	"pwd":     {envAll: true, files: fileSpec{none: true}, options: []opt{flags("-L -P --help --version")}, complete: true},
	"python":  {options: []opt{val(notFile, "-c -m -W -X")}, env: []envVar{{"PYTHONSTARTUP", envCode}, {"PYTHONPATH", envCode}, {"PYTHONHOME", envCode}, {"PYTHONINSPECT", envCode}, {"PYTHONUSERBASE", envCode}, {"REQUESTS_CA_BUNDLE", envFile}, {"PYTHONUNBUFFERED", envHarmless}, {"PYTHONDONTWRITEBYTECODE", envHarmless}}, files: fileSpec{}},
	"python3": {
		options: []opt{val(notFile, "-c -m -W -X")}, env: []envVar{{"PYTHONSTARTUP", envCode}, {"PYTHONPATH", envCode}, {"PYTHONHOME", envCode}, {"PYTHONINSPECT", envCode}, {"PYTHONUSERBASE", envCode}, {"REQUESTS_CA_BUNDLE", envFile}, {"PYTHONUNBUFFERED", envHarmless}, {"PYTHONDONTWRITEBYTECODE", envHarmless}}, files: fileSpec{},
	},
	"rbash": {wrap: &shellSpec},
	"read":  {files: fileSpec{none: true}},
	"readlink": {
		lists:   true,
		envAll:  true,
		dirSafe: true, readOnly: true,
		options: []opt{
			flags("-e -f -m -n -q -s -v -z --canonicalize --canonicalize-existing --canonicalize-missing --help --no-newline --quiet --silent --verbose --version --zero"),
		},
		complete: true,
	},
	"readonly": {files: fileSpec{none: true}},
	"realpath": {
		lists:   true,
		envAll:  true,
		dirSafe: true, readOnly: true,
		options: []opt{
			flags("-e -L -m -P -q -s -z --canonicalize-existing --canonicalize-missing --help --logical --no-symlinks --physical --quiet --strip --version --zero"),
			val(0, "--relative-base --relative-to"),
		},
		complete: true,
	},
	"return": {files: fileSpec{none: true}},
	"rev":    {dirSafe: true, options: []opt{flags("-h -V -0 --help --version --zero")}, complete: true},
	"rg": {
		files:   rgSpec,
		dirSafe: true, readOnly: true,
		options: []opt{
			val(notFile|firstIsFile, "-e"),
			val(readsFile|firstIsFile, "-f"),
			number(),
			flags("-0 -a -c -F -H -h -I -i -L -l -N -n -o -p -q -S -s -U -u -V -v -w -x -z --auto-hybrid-regex --binary --block-buffered --byte-offset --case-sensitive --column --count --count-matches --crlf --debug --files --files-with-matches --files-without-match --fixed-strings --follow --glob-case-insensitive --heading --help --hidden --ignore-case --ignore-file-case-insensitive --include-zero --invert-match --json --line-buffered --line-number --line-regexp --max-columns-preview --mmap --multiline --multiline-dotall --no-column --no-config --no-context-separator --no-filename --no-heading --no-hidden --no-ignore --no-ignore-dot --no-ignore-exclude --no-ignore-files --no-ignore-global --no-ignore-parent --no-ignore-vcs --no-line-number --no-messages --no-mmap --no-pcre2-unicode --no-require-git --no-unicode --null --null-data --one-file-system --only-matching --passthru --pcre2 --pretty --quiet --search-zip --smart-case --stats --text --trim --type-list --unrestricted --version --vimgrep --with-filename --word-regexp"),
			val(notFile, "-A -B -C -E -g -j -M -m -r -T -t --after-context --before-context --color --colors --context --encoding --glob --iglob --max-columns --max-count --max-depth --regexp --replace --sort --sortr --threads --type --type-add --type-not"),
			val(0, "--context-separator --dfa-size-limit --engine --field-context-separator --field-match-separator --file --ignore-file --maxdepth --max-filesize --path-separator --pre --pre-glob --hostname-bin --regex-size-limit --type-clear"),
			val(notFile, "-d").unlisted(),
		},
		complete: true,

		guards: []optionGuard{
			{options: []string{"--pre", "--hostname-bin", "-z", "--search-zip"}, why: "runs a program (--search-zip runs gzip, xz, bzip2, … on compressed files)"},
		},
	},
	"rm": {options: []opt{
		does(recursive, "-r -R").as("recursive"),
		flags("--recursive").as("recursive"),
		flags("-f --force").as("force"),
		flags("-d --dir").as("dir"),
		flags("-v --verbose").as("verbose"),
		flags("-i").as("interactive"),
	},
		files: fileSpec{writeAll: true, removes: true, exact: true}, dirSafe: true},
	"rmdir": {
		files: fileSpec{writeAll: true, removes: true, exact: true}, dirSafe: true,
		guards: []optionGuard{
			{options: []string{"-p", "--parents"}, why: "removes each empty parent directory too, which the command does not name"},
		},
	},
	"rsync": {
		options: []opt{
			does(recursive, "-r -a"),
			val(notFile, "-e --rsh --rsync-path"),
			val(readsFile, "--files-from --exclude-from --include-from --password-file"),
		},
		files:   fileSpec{writeLast: true},
		dirSafe: true,
		guards: []optionGuard{
			{options: []string{"-e", "--rsh", "--rsync-path"}, why: "runs a program"},
		},
	},
	"ruby":    {options: []opt{val(notFile, "-e -E -I -r")}, env: []envVar{{"RUBYOPT", envCode}, {"RUBYLIB", envCode}}, files: fileSpec{}},
	"runuser": {wrap: &wrapSpec{kind: wrapSu}},
	"scp": {
		options: []opt{
			does(recursive, "-r"),
			val(notFile, "-c -J -l -P -o -D -S"),
			val(readsFile, "-i -F"),
		},
		files:   fileSpec{writeLast: true},
		dirSafe: true,
		guards: []optionGuard{
			{options: []string{"-S", "-o", "-F"}, why: "runs a program as ssh, or sets ssh options (ProxyCommand, LocalCommand) that run one"},
		},
	},
	"script": {wrap: &wrapSpec{kind: wrapScript}},
	"screen": {
		// GNU screen 4: options (clusters; c e h p s S t T X take a
		// value), then the command it runs directly in a new window.
		wrap: &wrapSpec{kind: wrapScreen, shortVal: "cehpsStTX"},
		env:  []envVar{{"SCREENRC", envCode}, {"SYSSCREENRC", envCode}}, // files of screen commands, which run programs
		guards: []optionGuard{
			{check: screenRisk, why: "runs screen commands the gate does not read (-c FILE, -X stuff types into a shell, -X screen/exec run programs)"},
		},
	},
	"sed": {
		options: []opt{
			val(notFile|firstIsFile, "-e"),
			val(readsFile|firstIsFile, "-f"),
			flags("-E -n -r -s -u -z --debug --follow-symlinks --help --null-data --posix --quiet --regexp-extended --sandbox --separate --silent --unbuffered --version"),
			val(notFile, "-l --expression --line-length"),
			val(readsFile, "--file"),
			optional(backupSuffix|writesOperands, "-i").unlisted().as("in-place"),
			flags("--in-place").unlisted().as("in-place"),
		},
		complete: true,

		files:   fileSpec{exact: true, first: true},
		dirSafe: true,
		// Every option but -i/--in-place (which writes the files): under
		// the embedded default policy, sed -n -i asks.

		guards: []optionGuard{
			{check: sedRisk, script: true, why: sedWhy},
		},
	},
	"seq":     {envAll: true, files: fileSpec{none: true}, options: []opt{val(0, "-f -s --format --separator"), flags("-w --equal-width --help --version")}, complete: true},
	"set":     {files: fileSpec{none: true}},
	"setarch": {wrap: &wrapSpec{kind: wrapExec, operands: 1, optsAfter: true, noCmd: "l"}},
	"setpriv": {
		wrap: &wrapSpec{kind: wrapExec, longVal: []string{"ruid", "euid", "rgid", "egid", "reuid", "regid", "groups", "inh-caps", "ambient-caps", "bounding-set", "securebits", "pdeathsig", "selinux-label", "apparmor-profile", "landlock-access", "landlock-rule", "seccomp-filter"}},
	},
	"setsid": {wrap: &wrapSpec{kind: wrapExec}},
	"sftp": {
		guards: []optionGuard{
			{options: []string{"-S", "-o", "-F", "-D"}, why: "runs a program as ssh or sftp-server, or sets ssh options that run one"},
		},
	},
	"sg": {wrap: &wrapSpec{kind: wrapSg}},
	"sh": {wrap: &shellSpec},
	"sha1sum": {readOnly: true, envAll: true, dirSafe: true, options: []opt{
		flags("-b -c -t -w -z --binary --check --help --ignore-missing --quiet --status --strict --tag --text --version --warn --zero"),
	},
		complete: true,
	},
	"sha256sum": {readOnly: true, envAll: true, dirSafe: true, options: []opt{
		flags("-b -c -t -w -z --binary --check --help --ignore-missing --quiet --status --strict --tag --text --version --warn --zero"),
	},
		complete: true,
	},
	"sha512sum": {readOnly: true, envAll: true, dirSafe: true},
	"shift":     {files: fileSpec{none: true}},
	"shopt":     {files: fileSpec{none: true}},
	"shred":     {options: []opt{val(notFile, "-n -s")}, files: fileSpec{writeAll: true}, dirSafe: true},
	"sleep":     {envAll: true, files: fileSpec{none: true}, options: []opt{flags("--help --version")}, complete: true},
	"sort": {
		options: []opt{
			flags("-b -C -c -d -f -g -h -i -M -m -n -R -r -s -u -V -z --debug --dictionary-order --general-numeric-sort --help --human-numeric-sort --ignore-case --ignore-leading-blanks --ignore-nonprinting --merge --month-sort --numeric-sort --random-sort --reverse --stable --unique --version --version-sort --zero-terminated"),
			val(notFile, "-k -S -t --batch-size --buffer-size --field-separator --key --parallel"),
			val(writesFile, "-o -T --output --temporary-directory"),
			optional(0, "--check"),
			val(notFile|runs, "--compress-program"),
			val(readsFile, "--files0-from --random-source"),
			val(0, "--sort"),
		},
		complete: true,

		files:   fileSpec{},
		dirSafe: true,

		guards: []optionGuard{
			{options: []string{"-o", "--output", "--compress-program"}, why: "writes a file or runs a compression program"},
			{options: []string{"--files0-from"}, why: "reads the files named in another file, which the gate cannot check"},
		},
	},
	"split": {files: fileSpec{reader: readSplit}, dirSafe: true},
	"ssh": {
		options: []opt{val(readsFile, "-i -F -E -S -o")}, env: []envVar{{"SSH_ASKPASS", envCode}},
		files:   fileSpec{},
		dirSafe: true,
		guards: []optionGuard{
			{options: []string{"-o", "-F"}, why: "sets ssh options (ProxyCommand, LocalCommand, KnownHostsCommand, Match exec) that run a program"},
		},
	},
	"ssh-agent": {wrap: &wrapSpec{kind: wrapExec, shortVal: "aEOPt", noCmd: "k"}},
	"stat": {lists: true, readOnly: true, envAll: true, dirSafe: true, options: []opt{
		val(0, "-c --cached --format --printf"),
		flags("-f -L -t --dereference --file-system --help --terse --version"),
	},
		complete: true,
	},
	"stdbuf": {wrap: &wrapSpec{kind: wrapExec, shortVal: "ioe", longVal: []string{"input", "output", "error"}}},
	"strace": {
		wrap: &wrapSpec{kind: wrapExec, shortVal: "abeEIoOpPsSuUX", longVal: []string{"output", "attach", "string-limit", "user", "env",
			"trace", "signal", "status", "expr", "trace-path", "summary-sort-by", "columns", "decode-fds", "seccomp-bpf", "quiet", "silence", "secontext", "inject", "fault"},
			writeVal: "o", longWrite: []string{"output"}, pipeOut: true},
	},
	"su": {wrap: &wrapSpec{kind: wrapSu}},
	"sudo": {
		env:  []envVar{{"SUDO_ASKPASS", envCode}, {"SUDO_EDITOR", envCode}, {"EDITOR", envCode}, {"VISUAL", envCode}},
		wrap: &wrapSpec{kind: wrapSudo, shortVal: "CDghpRrtTUu", longVal: []string{"user", "group", "host", "prompt", "chdir", "chroot", "close-from", "role", "type", "command-timeout", "other-user"}},
	},
	"sudoedit": {
		wrap: &wrapSpec{kind: wrapSudo, shortVal: "CDghpRrtTUu"},
		env:  []envVar{{"SUDO_EDITOR", envCode}, {"EDITOR", envCode}, {"VISUAL", envCode}},
	},
	"systemctl": {env: []envVar{{"SYSTEMD_PAGER", envCode}}},
	"tac":       {readOnly: true, envAll: true, dirSafe: true, options: []opt{flags("-b -r --before --help --regex --version"), val(0, "-s --separator")}, complete: true},
	"tail": {
		envAll: true,
		options: []opt{
			number(),
			val(notFile, "-c -n -s"),
			flags("-F -f -q -v -z --help --quiet --retry --silent --verbose --version --zero-terminated"),
			val(0, "--bytes --lines --max-unchanged-stats --pid --sleep-interval"),
			optional(0, "--follow"),
		},
		complete: true,
		files:    fileSpec{exact: true},
		dirSafe:  true, readOnly: true,
	},
	"tar": {
		files:   fileSpec{reader: readTar},
		dirSafe: true,
		guards: []optionGuard{
			{bundle: true, options: []string{"-I", "--use-compress-program", "--to-command", "--checkpoint-action", "-F", "--info-script", "--new-volume-script", "--rmt-command", "--rsh-command"}, whole: []string{"--checkpoint"}, why: "runs a program"},
		},
	},
	"taskset": {wrap: &wrapSpec{kind: wrapExec, operands: 1, noCmd: "p"}},
	"tee":     {files: fileSpec{writeAll: true, exact: true}, dirSafe: true},
	"test":    {readOnly: true, dirSafe: true},
	"time": {
		wrap: &wrapSpec{kind: wrapExec, shortVal: "fo", longVal: []string{"format", "output"}, writeVal: "o", longWrite: []string{"output"}},
		guards: []optionGuard{
			{check: timeOutput, why: "writes a file"},
		},
	},
	"timeout": {wrap: &wrapSpec{kind: wrapExec, shortVal: "sk", longVal: []string{"signal", "kill-after"}, operands: 1}},
	"tmux": {
		// tmux 3.x: its own options, -c STRING run by the shell, and a
		// sequence of tmux commands separated by ";" (\;).
		wrap: &wrapSpec{kind: wrapTmux, shortVal: "cfLST"},
		guards: []optionGuard{
			{check: tmuxRisk, why: "runs tmux commands the gate does not read (-f FILE, -C, send-keys, source-file, bind-key, set-hook, set-option, if-shell's commands, run-shell -C, #(…) formats), which may run programs"},
		},
		// tmux's commands (names and aliases): those that run a shell
		// command are wrappers; guarded ones run commands by other
		// means; the rest run nothing. A command not listed is guarded
		// (tmuxRisk).
		subs: map[string]*program{
			"new-session":       {wrap: &tmuxNewSession},
			"new":               {wrap: &tmuxNewSession},
			"new-window":        {wrap: &tmuxNewWindow},
			"neww":              {wrap: &tmuxNewWindow},
			"split-window":      {wrap: &tmuxSplitWindow},
			"splitw":            {wrap: &tmuxSplitWindow},
			"respawn-pane":      {wrap: &tmuxRespawn},
			"respawnp":          {wrap: &tmuxRespawn},
			"respawn-window":    {wrap: &tmuxRespawn},
			"respawnw":          {wrap: &tmuxRespawn},
			"display-popup":     {wrap: &tmuxPopup},
			"popup":             {wrap: &tmuxPopup},
			"run-shell":         {wrap: &tmuxRunShell},
			"run":               {wrap: &tmuxRunShell},
			"pipe-pane":         {wrap: &tmuxPipePane},
			"pipep":             {wrap: &tmuxPipePane},
			"if-shell":          {wrap: &tmuxIfShell, guards: tmuxCommands},
			"if":                {wrap: &tmuxIfShell, guards: tmuxCommands},
			"send-keys":         {guards: tmuxTypes},
			"send":              {guards: tmuxTypes},
			"send-prefix":       {guards: tmuxTypes},
			"paste-buffer":      {guards: tmuxTypes},
			"pasteb":            {guards: tmuxTypes},
			"load-buffer":       {guards: tmuxTypes},
			"loadb":             {guards: tmuxTypes},
			"save-buffer":       {guards: []optionGuard{{why: "writes a file"}}},
			"saveb":             {guards: []optionGuard{{why: "writes a file"}}},
			"source-file":       {guards: tmuxCommands},
			"source":            {guards: tmuxCommands},
			"bind-key":          {guards: tmuxCommands},
			"bind":              {guards: tmuxCommands},
			"set-hook":          {guards: tmuxCommands},
			"confirm-before":    {guards: tmuxCommands},
			"confirm":           {guards: tmuxCommands},
			"command-prompt":    {guards: tmuxCommands},
			"display-menu":      {guards: tmuxCommands},
			"menu":              {guards: tmuxCommands},
			"display-panes":     {guards: tmuxCommands},
			"displayp":          {guards: tmuxCommands},
			"choose-tree":       {guards: tmuxCommands},
			"choose-client":     {guards: tmuxCommands},
			"choose-buffer":     {guards: tmuxCommands},
			"set-option":        {guards: tmuxSettings},
			"set":               {guards: tmuxSettings},
			"set-window-option": {guards: tmuxSettings},
			"setw":              {guards: tmuxSettings},
			"set-environment":   {guards: tmuxSettings},
			"setenv":            {guards: tmuxSettings},
			"attach-session":    {}, "attach": {}, "detach-client": {}, "detach": {}, "has-session": {}, "has": {},
			"kill-server": {}, "kill-session": {}, "kill-window": {}, "killw": {}, "kill-pane": {}, "killp": {},
			"list-sessions": {}, "ls": {}, "list-windows": {}, "lsw": {}, "list-panes": {}, "lsp": {},
			"list-clients": {}, "lsc": {}, "list-commands": {}, "lscm": {}, "list-keys": {}, "lsk": {},
			"list-buffers": {}, "lsb": {}, "rename-session": {}, "rename": {}, "rename-window": {}, "renamew": {},
			"select-window": {}, "selectw": {}, "select-pane": {}, "selectp": {}, "capture-pane": {}, "capturep": {},
			"display-message": {}, "display": {}, "show-options": {}, "show": {}, "show-environment": {}, "showenv": {},
			"resize-pane": {}, "resizep": {}, "switch-client": {}, "switchc": {}, "last-window": {}, "last": {},
			"next-window": {}, "next": {}, "previous-window": {}, "prev": {}, "start-server": {}, "start": {},
			"wait-for": {}, "wait": {}, "clear-history": {}, "clearhist": {}, "show-buffer": {}, "showb": {},
			"delete-buffer": {}, "deleteb": {}, "select-layout": {}, "selectl": {}, "refresh-client": {}, "refresh": {},
		},
	},
	"touch": {options: []opt{val(notFile, "-d -t"), val(readsFile, "-r")}, files: fileSpec{writeAll: true}, dirSafe: true},
	"tr":    {envAll: true, files: fileSpec{none: true}, options: []opt{flags("-C -c -d -s -t --complement --delete --help --squeeze-repeats --truncate-set1 --version")}, complete: true},
	"trap":  {files: fileSpec{none: true}},
	"tree": {
		dirSafe: true, readOnly: true,
		options: []opt{
			flags("-a -C -D -d -F -f -g -h -i -J -l -N -n -p -Q -q -R -r -S -s -t -U -u -v -X -x -c --dirsfirst --du --filesfirst --fromfile --gitignore --help --ignore-case --info --inodes --matchdirs --metafirst --noreport --nolinks --prune --si --device --version"),
			val(0, "-H -I -L -o -P -T --charset --filelimit --hintro --houtro --infofile --sort --timefmt"),
		},
		complete: true,

		guards: []optionGuard{
			{options: []string{"-o", "-R"}, why: "writes files (-R runs tree again through the shell)"},
		},
	},
	"true":     {envAll: true, files: fileSpec{none: true}},
	"truncate": {options: []opt{val(notFile, "-s"), val(readsFile, "-r")}, files: fileSpec{writeAll: true}, dirSafe: true},
	"type":     {files: fileSpec{none: true}, options: []opt{flags("-a -f -P -p -t")}, complete: true},
	"typeset":  {files: fileSpec{none: true}},
	"ulimit":   {files: fileSpec{none: true}},
	"umask":    {files: fileSpec{none: true}},
	"uname": {
		files: fileSpec{none: true}, envAll: true,
		options: []opt{
			flags("-a -i -m -n -o -p -r -s -v --all --hardware-platform --help --kernel-name --kernel-release --kernel-version --machine --nodename --operating-system --processor --version"),
		},
		complete: true,
	},
	"unbuffer": {wrap: &wrapSpec{kind: wrapExec}},
	"unexpand": {dirSafe: true},
	"uniq": {
		envAll: true,
		options: []opt{
			flags("-c -D -d -i -u -z --count --help --ignore-case --repeated --unique --version --zero-terminated"),
			val(notFile, "-f -s -w"),
			optional(0, "--all-repeated --group"),
			val(0, "--check-chars --skip-chars --skip-fields"),
		},
		complete: true,
		files:    fileSpec{writeLast: true},
		dirSafe:  true,

		guards: []optionGuard{
			{check: uniqOutput, why: "writes its second operand (uniq IN OUT)"},
		},
	}, // uniq IN OUT writes OUT
	"unlink": {files: fileSpec{writeAll: true, removes: true}, dirSafe: true},
	"unset":  {files: fileSpec{none: true}},
	"unshare": {
		wrap: &wrapSpec{kind: wrapExec, shortVal: "SGRw", longVal: []string{"setuid", "setgid", "root", "wd", "map-user", "map-group", "map-users", "map-groups", "propagation", "setgroups", "load-interp"}},
	},
	"unzip": {options: []opt{
		does(noNamesFromInput, "-l -p -t -v -Z -z"),
		val(notFile, "-x -P"),
		val(writesFile, "-d"),
	},
		files: fileSpec{}, dirSafe: true},
	"valgrind": {wrap: &wrapSpec{kind: wrapExec}},
	"vi": {
		env: []envVar{{"VIMINIT", envCode}, {"EXINIT", envCode}},
		guards: []optionGuard{
			{check: vimRisk, why: "runs editor commands (which may run a program) you choose"},
		},
	},
	"view": {
		env: []envVar{{"VIMINIT", envCode}, {"EXINIT", envCode}},
		guards: []optionGuard{
			{check: vimRisk, why: "runs editor commands (which may run a program) you choose"},
		},
	},
	"vim": {
		env: []envVar{{"VIMINIT", envCode}, {"EXINIT", envCode}},
		guards: []optionGuard{
			{check: vimRisk, why: "runs editor commands (which may run a program) you choose"},
		},
	},
	"wait":  {files: fileSpec{none: true}},
	"watch": {wrap: &wrapSpec{kind: wrapWatch, shortVal: "nq", longVal: []string{"interval"}}},
	"wc": {
		envAll: true,
		options: []opt{
			flags("-c -L -l -m -w --bytes --chars --help --lines --max-line-length --version --words"),
			val(readsFile, "--files0-from"),
			val(0, "--total"),
		},
		complete: true,
		files:    fileSpec{},
		dirSafe:  true, readOnly: true,
	},
	"wget": {
		options: []opt{
			val(notFile, "-t -T -U --user --password --header --user-agent --tries --timeout"),
			val(notFile, "-e").as("..."),
			val(readsFile, "-i --input-file --load-cookies"),
			val(writesFile, "-O --output-document").as("output-document"),
			val(writesFile, "-o -a -P --output-file --append-output --directory-prefix --save-cookies"),
			val(readsFile, "--config").as("..."),
			flags("--execute").as("..."),
		},

		files:   fileSpec{},
		dirSafe: true,
	},
	"which":  {files: fileSpec{none: true}, options: []opt{flags("-a -s")}, complete: true},
	"whoami": {envAll: true, files: fileSpec{none: true}, options: []opt{flags("--help --version")}, complete: true},
	"xargs": {
		wrap: &wrapSpec{kind: wrapXargs, shortVal: "adEILnPs",
			longVal: []string{"arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var"}},
	},
	"xdg-open": {env: []envVar{{"BROWSER", envCode}}},
	"xxd": {readOnly: true, dirSafe: true, guards: []optionGuard{
		{check: xxdRisk, why: "writes a file: -r turns a dump back into bytes, and a second operand is the file it writes"}}},
	"yes": {files: fileSpec{none: true}},
	"zip": {
		options: []opt{
			does(recursive, "-r -R"),
			does(namesFromInput, "-@"),
			val(notFile, "-b -n -P -t -x"),
		},
		files:   fileSpec{writeFirst: true}, // zip ARCHIVE FILES: the archive is written
		dirSafe: true,
		guards: []optionGuard{
			{options: []string{"-T", "--test", "--unzip-command"}, why: "runs a program"},
		},
	},
	"zsh": {wrap: &shellSpec},

	// Entries only for the policy's rules: their options are whole words.
	"cc":         {singleDash: true},
	"clang":      {singleDash: true},
	"ffmpeg":     {singleDash: true},
	"g++":        {singleDash: true},
	"gcc":        {singleDash: true},
	"javac":      {singleDash: true},
	"terraform":  {singleDash: true},
	"xcodebuild": {singleDash: true},
}
