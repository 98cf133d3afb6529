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
//   - files: which operands and option values name files, read or
//     written, and which options make it recursive (see fileSpec; a
//     program without files gets the conservative default: every operand
//     and every --opt=value is a file it reads);
//
//   - dirSafe: it does not read the files inside a directory operand
//     unless an option says so (it refuses a directory, or only lists or
//     stats it). Without it, every directory operand is a recursive read
//     (diff -N src . prints every file of the directory);
//
//   - options: every option the program has, as its --help lists them
//     (GNU coreutils 9, grep 3, diffutils 3, file 5, jq 1.6/1.7; ripgrep
//     and tree from their manuals; git 2.39's subcommands in subs). A
//     token is the option as written, followed by what comes after it:
//
//     -n        a flag (clusters: -rn)
//     -n=       takes a value (-n5, -n 5, --lines=5, --lines 5)
//     -n?       an optional value, only attached (--color=auto, git's -M50%)
//     --arg=2   takes two values (jq --arg NAME VALUE)
//     -NUM      -5 means a number (head -5, grep -3, git log -5)
//
//     Long options may be abbreviated as getopt_long and git accept it.
//     Under the embedded default policy a command of a program with
//     options passes only with options listed here: another is
//     policy.unknown_option (ask), since it may write a file or run a
//     program. A policy file's own allow rules trust the program. Programs
//     without options (wrappers, whose inner commands are judged on their
//     own) are not checked this way;
//
//   - goFlags: its options (and its subcommands') are Go flags: whole
//     words after one dash or two (-race, --race=true), never clusters;
//     and after the first operand, none is the program's (go test's
//     packages, then the test binary's flags);
//
//   - negatable: every flag has a --no-NAME form (git's parse-options);
//
//   - env: the environment variables it reads, and what for (see
//     envUses and env.go, whose judging function consults every entry:
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
//   - runVal: long options whose value is a program it runs, analysed as
//     a command (sort --compress-program=PROG); for goFlags programs a
//     command line run through the shell (go test -exec 'PROG ARGS');
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
//   - spell: what its options are named when a deny or ask rule of the
//     policy names them, so that the rule matches every spelling (see
//     CommandSpelling): groups separated by spaces, each an option's spellings
//     separated by commas (-r,-R,--recursive), named by the first long
//     one without its dashes ("recursive"), or by the names after ':'
//     joined by '+' when it stands for several options or has no long
//     name (git branch -D:delete+force); "+:force" says an operand +X
//     sets force (git push +main); the name "..." marks an option that
//     reads more options from a file or in a syntax of its own (curl -K,
//     wget -e): with it, the words could set any option. Options not
//     listed are named as written, abbreviations included;
//
//   - singleDash: its options are whole words after one dash (find
//     -delete, gcc -o), never clusters, as goFlags programs' are.
type program struct {
	// The fields every command reads first, then fileSpec, then the rest:
	// an entry spans fewer cache lines on the way.
	wrap    *wrapSpec
	opts    *optTable // options, parsed once (see progs)
	guarded bool      // it or a subcommand has guards (see progs)
	dirSafe bool
	runVal  []string
	subs    map[string]*program
	files   fileSpec
	// ownFiles: a subcommand whose files spec, not its program's,
	// reads the words after it (ruff format rewrites its operands,
	// ruff check reads them).
	ownFiles bool

	options   string
	goFlags   bool
	negatable bool
	env       string
	envAll    bool
	lists     bool
	readOnly  bool
	guards    []optionGuard
	git       *gitSpec

	spell      string
	singleDash bool
	spelled    *spellTable // spell, parsed (see progs)
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
	m["egrep"].opts, m["fgrep"].opts = m["grep"].opts, m["grep"].opts
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
	if p.options != "" {
		p.opts = parseOptions(strings.Join(prefix, " "), p.options, goFlags, p.negatable)
	}
	p.spelled = parseSpell(strings.Join(prefix, " "), p.spell)
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

var programs = map[string]program{
	":":     {files: fileSpec{none: true}},
	"[":     {readOnly: true, files: fileSpec{reader: readBracket}, dirSafe: true},
	"[[":    {readOnly: true, dirSafe: true},
	"ack":   {files: fileSpec{skipVal: "ABCm", first: true, recursive: "*", implicitDot: true}, dirSafe: true},
	"ag":    {readOnly: true, files: fileSpec{skipVal: "ABCmG", first: true, recursive: "*", implicitDot: true}, dirSafe: true},
	"alias": {files: fileSpec{none: true}},
	"ash":   {wrap: &shellSpec},
	"awk": {
		files:   awkSpec,
		dirSafe: true,
		guards: []optionGuard{
			{check: awkRisk, script: true, why: awkWhy},
		},
	},
	"b2sum":  {readOnly: true, envAll: true, dirSafe: true},
	"base32": {dirSafe: true},
	"base64": {envAll: true, dirSafe: true, options: "-d -i -w= --decode --help --ignore-garbage --version --wrap="},
	"bat":    {readOnly: true},
	"basename": {
		envAll:  true,
		files:   fileSpec{none: true},
		dirSafe: true, readOnly: true,
		options: "-a -s= -z --help --multiple --suffix= --version --zero",
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
	"cargo": {env: "RUSTC_WRAPPER RUSTC CARGO_*WRAPPER CARGO_*RUSTC RUST_BACKTRACE=- RUST_LOG=-"},
	"cat": {
		envAll:  true,
		files:   fileSpec{exact: true},
		dirSafe: true, readOnly: true,
		options: "-A -b -E -e -n -s -T -t -u -v --help --number --number-nonblank --show-all --show-ends --show-nonprinting --show-tabs --squeeze-blank --version",
	},
	"cd": {
		files:   fileSpec{none: true},
		dirSafe: true, readOnly: true,
		options: "-L -P -e -@",
	},
	"chgrp":  {files: fileSpec{first: true, writeAll: true, recursive: "R", exact: true}, dirSafe: true, spell: "-R,--recursive"},
	"chmod":  {files: fileSpec{first: true, writeAll: true, recursive: "R", exact: true}, dirSafe: true, spell: "-R,--recursive"},
	"chown":  {files: fileSpec{first: true, writeAll: true, recursive: "R", exact: true}, dirSafe: true, spell: "-R,--recursive"},
	"chroot": {wrap: &wrapSpec{kind: wrapExec, longVal: []string{"userspec", "groups"}, operands: 1}},
	"chrt":   {wrap: &wrapSpec{kind: wrapExec, shortVal: "TPD", longVal: []string{"sched-runtime", "sched-period", "sched-deadline"}, operands: 1, noCmd: "pm"}},
	"cksum":  {dirSafe: true},
	"cmp":    {readOnly: true, envAll: true, dirSafe: true, options: "-b -i= -l -n= -s -v --bytes= --help --ignore-initial= --print-bytes --quiet --silent --verbose --version"},
	"column": {
		dirSafe: true,
		options: "-c= -d -E= -e -H= -h -i= -J -L -l= -N= -n= -O= -o= -p= -R= -r= -s= -T= -t -V -W= -x --fillrows --help --json " +
			"--keep-empty-lines --output-separator= --output-width= --separator= --table --table-columns= --table-columns-limit= " +
			"--table-header-repeat --table-hide= --table-name= --table-noextreme= --table-noheadings --table-order= --table-right= " +
			"--table-truncate= --table-wrap= --tree= --tree-id= --tree-parent= --version",
	},
	"comm":    {readOnly: true, envAll: true, dirSafe: true, options: "-1 -2 -3 -z --check-order --help --nocheck-order --output-delimiter= --total --version --zero-terminated"},
	"command": {wrap: &wrapSpec{kind: wrapExec, noCmd: "vV"}},
	"cp":      {files: fileSpec{skipVal: "S", writeVal: "t", recursive: "rRa", writeLast: true, exact: true, longWrite: []string{"target-directory"}}, dirSafe: true, spell: "-r,-R,--recursive -f,--force -a,--archive:archive+recursive -l,--link -s,--symbolic-link"},
	// cpio reads or writes the files named in its input in every mode
	// (-i/--extract writes them, -o/--create archives the names on stdin,
	// -p/--pass-through copies them); -F/--file ARCHIVE is the archive,
	// read with -i, written with -o.
	"cpio": {files: fileSpec{namesIf: "*", skipVal: "HRMe", fileVal: "EI", writeVal: "ODF",
		longWrite: []string{"file"}, longFile: []string{"pattern-file"}}, dirSafe: true},
	"curl": {
		spell: "-o,--output -O,--remote-name -X,--request -d,--data -k,--insecure -T,--upload-file -F,--form -L,--location -K,--config:...",
		env:   "CURL_CA_BUNDLE=r SSL_CERT_FILE=r",
		files: fileSpec{skipVal: "XHuAemwxrEyYz", fileVal: "TKb", writeVal: "ocD",
			longWrite: []string{"output", "dump-header", "cookie-jar", "trace", "trace-ascii", "stderr", "libcurl", "etag-save"},
			longFile:  []string{"upload-file", "config", "cookie", "netrc-file", "etag-compare"},
			longSkip: []string{"request", "header", "user", "user-agent", "referer", "max-time", "connect-timeout",
				"write-out", "proxy", "range", "retry", "data-raw", "url"}},
		dirSafe: true,
	},
	"cut": {
		envAll:  true,
		files:   fileSpec{skipVal: "dfcb"},
		dirSafe: true,
		options: "-b= -c= -d= -f= -n -s -z --bytes= --characters= --complement --delimiter= --fields= --help --only-delimited " +
			"--output-delimiter= --version --zero-terminated",
	},
	"dash": {wrap: &shellSpec},
	"date": {
		files: fileSpec{skipVal: "dsI", fileVal: "fr", longFile: []string{"file", "reference"},
			longSkip: []string{"date", "set"}, first: true},
		dirSafe: true,
		options: "-d= -f= -I? -R -r= -s= -u --date= --debug --file= --help --iso-8601? --reference= --resolution --rfc-3339= " +
			"--rfc-email --set= --universal --utc --version",
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
		options: "-a -B= -H -h -i -k -l -P -T -t= -v -x= --all --block-size= --exclude-type= --help --human-readable --inodes --local " +
			"--no-sync --output? --portability --print-type --si --sync --total --type= --version",
	},
	"diff": {
		readOnly: true,
		files: fileSpec{skipVal: "xIFSLCUWD", fileVal: "X", recursive: "r", exact: true,
			longFile: []string{"exclude-from", "from-file", "to-file"},
			longSkip: []string{"exclude", "ignore-matching-lines", "show-function-line", "label", "context",
				"unified", "width", "starting-file", "ifdef", "horizon-lines", "tabsize", "color", "palette"}},
		options: "-a -B -b -C= -c -D= -d -E -e -F= -I= -i -l -N -n -p -q -r -S= -s -T -t -U= -u -v -W= -w -X= -x= -y -Z --brief " +
			"--changed-group-format= --color? --context? --ed --exclude= --exclude-from= --expand-tabs --from-file= --help " +
			"--horizon-lines= --ifdef= --ignore-all-space --ignore-blank-lines --ignore-case --ignore-file-name-case " +
			"--ignore-matching-lines= --ignore-space-change --ignore-tab-expansion --ignore-trailing-space --initial-tab --label= " +
			"--left-column --line-format= --minimal --new-file --new-group-format= --new-line-format= --no-dereference " +
			"--no-ignore-file-name-case --normal --old-group-format= --old-line-format= --paginate --palette= --rcs --recursive " +
			"--report-identical-files --show-c-function --show-function-line= --side-by-side --speed-large-files --starting-file= " +
			"--strip-trailing-cr --suppress-blank-empty --suppress-common-lines --tabsize= --text --to-file= " +
			"--unchanged-group-format= --unchanged-line-format= --unidirectional-new-file --unified? --version --width=",
	},
	"dirname": {
		envAll:  true,
		files:   fileSpec{none: true},
		dirSafe: true, readOnly: true,
		options: "-z --help --version --zero",
	},
	"dirs":   {files: fileSpec{none: true}},
	"doas":   {wrap: &wrapSpec{kind: wrapExec, shortVal: "uC", noCmd: "C"}},
	"docker": {files: fileSpec{skipVal: "eptwu", longSkip: []string{"name", "env", "network", "user", "workdir", "entrypoint", "tag", "platform"}}},
	"du": {
		lists:   true,
		envAll:  true,
		files:   fileSpec{skipVal: "BdtX", longFile: []string{"files0-from", "exclude-from"}},
		dirSafe: true, readOnly: true,
		options: "-0 -a -B= -b -c -D -d= -H -h -k -L -l -m -P -S -s -t= -X= -x --all --apparent-size --block-size= --bytes " +
			"--count-links --dereference --dereference-args --exclude= --exclude-from= --files0-from= --help --human-readable " +
			"--inodes --max-depth= --no-dereference --null --one-file-system --separate-dirs --si --summarize --threshold= " +
			"--time? --time-style= --total --version",
	},
	"echo":  {envAll: true, files: fileSpec{none: true}},
	"egrep": {readOnly: true, files: grepSpec, dirSafe: true},
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
	"fgrep":    {readOnly: true, files: grepSpec, dirSafe: true},
	"file": {
		files:   fileSpec{reader: readFile},
		env:     "MAGIC=:",
		dirSafe: true, readOnly: true,
		options: "-0 -b -C -c -d -E -e= -F= -f= -h -i -k -L -l -m= -N -n -P= -p -r -S -s -v -Z -z --apple --brief --checking-printout " +
			"--compile --debug --dereference --exclude= --exclude-quiet= --extension --files-from= --help --keep-going --list " +
			"--magic-file= --mime --mime-encoding --mime-type --no-buffer --no-dereference --no-pad --no-sandbox --parameter= " +
			"--preserve-date --print0 --raw --separator= --special-files --uncompress --uncompress-noreport --version",
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
		env: "GIT_SSH_COMMAND GIT_SSH GIT_PAGER PAGER EDITOR VISUAL GIT_EDITOR GIT_SEQUENCE_EDITOR GIT_EXTERNAL_DIFF GIT_ASKPASS SSH_ASKPASS " +
			"GIT_EXEC_PATH GIT_TEMPLATE_DIR GIT_PROXY_COMMAND GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY " +
			"GIT_ALTERNATE_OBJECT_DIRECTORIES GIT_COMMON_DIR GIT_ALLOW_PROTOCOL GIT_TEST_FSMONITOR BROWSER GIT_CONFIG* GIT_TRACE* " +
			"GIT_GRAFT_FILE=r GIT_SSL_CAINFO=r SSL_CERT_FILE=r " +
			"GIT_TERMINAL_PROMPT=- GIT_AUTHOR_NAME=- GIT_AUTHOR_EMAIL=- GIT_COMMITTER_NAME=- GIT_COMMITTER_EMAIL=-",
		// git's own options, before the subcommand; its subcommands'
		// options are in subs.
		options: "-C= -c= --bare --config-env= --exec-path? --git-dir= --glob-pathspecs -h --help --html-path --icase-pathspecs " +
			"--info-path --list-cmds= --literal-pathspecs --man-path --namespace= --no-optional-locks --no-pager " +
			"--no-replace-objects --noglob-pathspecs -P -p --paginate --super-prefix= -v --version --work-tree=",
		negatable: true,
		files:     fileSpec{skipVal: "mbBnU", longSkip: []string{"message", "author", "date", "format", "pretty", "grep"}},
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
				options: "--abbrev? -b -C? -c --color-by-age --color-lines --contents= --date= -e --encoding= -f --first-parent --ignore-rev= " +
					"--ignore-revs-file= --incremental -L= -l --line-porcelain -M? --minimal -n -p --porcelain --progress --reverse --root -S= -s " +
					"--score-debug --show-email --show-name --show-number --show-stats --since= -t --textconv -w",
				guards: []optionGuard{
					{options: []string{"--textconv"}, why: "runs a textconv program"},
				},
			},
			"branch": {
				spell: "-d,--delete -D:delete+force -f,--force -m,--move -M:move+force",
				options: "-a --abbrev? --all -C -c --color? --column? --contains= --copy --create-reflog -D -d --delete --edit-description -f " +
					"--force --format= -i --ignore-case -l --list -M -m --merged= --move --no-contains= --no-merged= --points-at= -q --quiet -r " +
					"--recurse-submodules --remotes --set-upstream-to= --show-current --sort= -t? --track? -u= --unset-upstream -v --verbose",
				guards: []optionGuard{
					{check: gitBranchCreate, why: "creates a branch (a ref)"},
					{options: []string{"-d", "-D", "--delete", "-m", "-M", "--move", "-c", "-C", "--copy", "-f", "--force", "-u", "--set-upstream-to", "--unset-upstream", "--edit-description", "-t", "--track", "--set-upstream"}, why: "deletes, moves or rewrites branches, or writes their upstream into .git/config"},
				},
			},
			"cat-file": {
				readOnly: true,
				options: "--allow-unknown-type --batch-all-objects --batch-check? --batch-command? --batch? --buffer -e --filters " +
					"--follow-symlinks --mailmap -p --path= -s -t --textconv --unordered --use-mailmap -z",
				guards: []optionGuard{
					{options: []string{"--textconv", "--filters"}, why: "runs a textconv or filter program"},
				},
			},
			"clean": {git: &gitSpec{tree: true, removes: true, whole: true}, spell: "-f,--force -n,--dry-run -i,--interactive"},
			"add":   {git: &gitSpec{tree: true, whole: true}, spell: "-A,--all -f,--force -u,--update -p,--patch"},
			// Entries only for the policy's rules, which name their options.
			"checkout": {spell: "-f,--force"},
			"switch":   {spell: "-f,--force,--discard-changes -c,--create -C:create+force"},
			"commit":   {spell: "-a,--all -n,--no-verify -m,--message"},
			"tag":      {spell: "-d,--delete -f,--force"},
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
			"count-objects": {options: "-H -v --human-readable --verbose"},
			"for-each-ref": {
				git: &gitSpec{opaque: true},
				options: "--color? --contains? --count= --format= --ignore-case --merged? --no-contains? --no-merged? -p --perl " +
					"--points-at= --python -s --shell --sort= --stdin --tcl",
			},
			"notes": {
				git:     &gitSpec{opaque: true},
				options: "--ref=",
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
				options: "-v --verbose",
				subs: map[string]*program{
					"get-url": {options: "--all --push"},
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
					"list": {options: "--expire= --porcelain -v --verbose -z"},
				},
				guards: []optionGuard{
					{options: []string{"add", "move", "remove", "prune", "repair", "lock", "unlock"}, why: "creates, moves or removes working trees"},
				},
			},
			"describe": {options: "--abbrev? --all --always --broken? --candidates= --contains --debug --dirty? --exact-match --exclude= --first-parent " +
				"--long --match= --tags"},
			"diff": {
				readOnly: true,
				git:      &gitSpec{treeIf: "no-index"},
				options:  gitDiffOpts + " -0 -1 -2 -3 --base --cached --exit-code --merge-base --no-index --ours --quiet --staged --theirs",
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
				options: "-NUM -A= -a --after-context= --all-match --and -B= --basic-regexp --before-context= --break -C= -c --cached --color? " +
					"--column --context= --count -E -e= --exclude-standard --ext-grep --extended-regexp -F -f= --files-with-matches " +
					"--files-without-match --fixed-strings --full-name --function-context -G -H -h --heading -I -i --ignore-case " +
					"--invert-match -L -l --line-number -m= --max-count= --max-depth= --name-only -n --no-index --not --null -O? -o " +
					"--only-matching --open-files-in-pager? --or -P -p --perl-regexp -q --quiet -r --recursive --recurse-submodules " +
					"--show-function --text --textconv --threads= --untracked -v -W -w --word-regexp -z",
				git: &gitSpec{tree: true, shortVal: "efABCm", danger: "O", long: []string{"open-files-in-pager"}},
				guards: []optionGuard{
					{options: []string{"-O", "--open-files-in-pager", "--textconv"}, whole: []string{"--text"}, why: "runs a pager or textconv program"},
				},
			},
			"init": {git: &gitSpec{long: []string{"template"}}},
			"log": {
				readOnly: true,
				options:  gitLogOpts,
				guards: []optionGuard{
					{options: diffFlags, whole: []string{"--text"}, why: "writes a file or runs an external diff or textconv program"},
				},
			},
			"ls-files": {readOnly: true, options: "--abbrev? -c --cached -d --debug --deduplicate --deleted --directory --empty-directory --eol --error-unmatch " +
				"--exclude-from= --exclude-per-directory= --exclude-standard --exclude= -f --format= --full-name -i --ignored -k --killed -m " +
				"--modified -o --others --recurse-submodules --resolve-undo -s --sparse --stage -t -u --unmerged -v --with-tree= -X= -x= -z"},
			"ls-remote": {
				git: &gitSpec{danger: "u", long: []string{"upload-pack", "exec"}},
				guards: []optionGuard{
					{options: []string{"--upload-pack", "--exec"}, why: "runs a program as the remote git-upload-pack"},
				},
			},
			"merge-base": {options: "-a --all --fork-point --independent --is-ancestor --octopus"},
			"ls-tree":    {options: "--abbrev? -d --format= --full-name --full-tree -l --long --name-only --name-status --object-only -r -t -z"},
			"pull": {
				git: &gitSpec{long: []string{"upload-pack"}},
				guards: []optionGuard{
					{options: []string{"--upload-pack"}, why: "runs a program as the remote git-upload-pack"},
				},
			},
			"push": {
				spell: "-f,--force --force-with-lease:force-with-lease+force --mirror:mirror+force -d,--delete -u,--set-upstream " +
					"-n,--dry-run +:force",
				git: &gitSpec{shortVal: "o", long: []string{"receive-pack", "exec"}},
				guards: []optionGuard{
					{options: []string{"--receive-pack", "--exec"}, why: "runs a program as the remote git-receive-pack"},
				},
			},
			"rebase": {
				spell: "-i,--interactive -x,--exec",
				git:   &gitSpec{shortVal: "sXxC", shell: "x", shellL: []string{"exec"}},
				guards: []optionGuard{
					{options: []string{"-x", "--exec"}, why: "runs a command after each commit"},
				},
			},
			"rev-parse": {readOnly: true, options: "--abbrev-ref? --absolute-git-dir --after= --all --before= --branches? --default= --disambiguate= --exclude-hidden= --exclude= " +
				"--flags --git-common-dir --git-dir --git-path= --glob= --is-bare-repository --is-inside-git-dir --is-inside-work-tree " +
				"--is-shallow-repository --keep-dashdash --local-env-vars --no-flags --no-revs --not --parseopt --path-format= --prefix= -q " +
				"--quiet --remotes? --resolve-git-dir= --revs-only --shared-index-path --short? --show-cdup --show-object-format? " +
				"--show-prefix --show-superproject-working-tree --show-toplevel --since= --sq --sq-quote --stop-at-non-option --stuck-long " +
				"--symbolic --symbolic-full-name --tags? --until= --verify"},
			"send-email": {git: &gitSpec{long: []string{"to-cmd", "cc-cmd", "header-cmd", "sendmail-cmd", "smtp-server"}}},
			"send-pack": {
				guards: []optionGuard{
					{options: []string{"--receive-pack", "--exec"}, why: "runs a program as the remote git-receive-pack"},
				},
			},
			"shortlog": {
				options: "-c --committer -e --email --format= --group= -n --numbered -s --summary -w? --all --no-merges --merges --since= " +
					"--until= --after= --before= --author= --grep= --first-parent --branches? --tags? --remotes? --reverse --max-count= " +
					"--skip= --date= -i -E -F --regexp-ignore-case --not --glob= --exclude=",
				guards: []optionGuard{
					{options: diffFlags, whole: []string{"--text"}, why: "writes a file or runs an external diff or textconv program"},
				},
			},
			"show": {
				readOnly: true,
				options:  gitLogOpts,
				guards: []optionGuard{
					{options: diffFlags, whole: []string{"--text"}, why: "writes a file or runs an external diff or textconv program"},
				},
			},
			"stash": {
				git: &gitSpec{whole: true, wholeSubs: []string{"push", "save"}, opaque: true},
				subs: map[string]*program{
					"list": {
						options: gitLogOpts,
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
			"status": {readOnly: true, options: "-b --ahead-behind --branch --column? --find-renames? --ignore-submodules? --ignored? --long -M? --null --porcelain? --renames " +
				"--short --show-stash -s -u? --untracked-files? -v --verbose -z"},
			"submodule": {
				git: &gitSpec{runs: "foreach", runsOpts: true},
				guards: []optionGuard{
					{options: []string{"foreach"}, why: "runs a command in every submodule"},
				},
			},
		},
	},
	"go": {
		env: "GOFLAGS GOCACHEPROG GCCGO GOENV GOTOOLCHAIN GOROOT GOPATH GOPROXY GOBIN CGO_* CC CXX FC AR PKG_CONFIG " +
			"CGO_ENABLED=- GOOS=- GOARCH=- GOARM=- GOAMD64=-",
		goFlags: true,
		runVal:  []string{"exec", "toolexec"},
		files:   fileSpec{reader: readGo}, // see goFlags (files.go)
		dirSafe: true,
		subs: map[string]*program{
			"build": {
				options: goBuildOpts + "-o= -json",
				guards: []optionGuard{
					{goFlags: true, options: goBuildFlags, why: "runs a program, passes flags to the compiler or linker, or writes where you choose"},
				},
			},
			"doc": {options: "-all -c -cmd -short -src -u -http?"},
			// The installs (installs.go).
			"mod": {subs: map[string]*program{"download": {options: goModDownload}}},
			"get": {options: goGet},
			"env": {
				options: "-json -u -w -changed",
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
				options: goBuildOpts + "-compiled -deps -e -export -f= -find -json? -m -retracted -reuse= -test -u -versions",
				guards: []optionGuard{
					{goFlags: true, options: goBuildFlags, why: "runs a program, passes flags to the compiler or linker, or writes where you choose"},
				},
			},
			"test": {
				options: goBuildOpts + "-args -c -exec= -json -o= -bench= -benchmem -benchtime= -blockprofile= -blockprofilerate= " +
					"-count= -coverprofile= -cpu= -cpuprofile= -failfast -fullpath -fuzz= -fuzzcachedir= -fuzzminimizetime= " +
					"-fuzztime= -list= -memprofile= -memprofilerate= -mutexprofile= -mutexprofilefraction= -outputdir= " +
					"-parallel= -run= -short -shuffle= -skip= -timeout= -trace= -vet= -artifacts -gocoverdir=",
				guards: []optionGuard{
					{goFlags: true, options: goBuildFlags, why: "runs a program, passes flags to the compiler or linker, or writes where you choose"},
					{goFlags: true, options: []string{"-coverprofile", "-cpuprofile", "-memprofile", "-blockprofile", "-mutexprofile", "-trace", "-outputdir", "-gocoverdir", "-fuzzcachedir"}, why: "writes a profile where you choose"},
				},
			},
			"version": {options: "-m -v -json"},
			"vet": {
				options: goBuildOpts + "-vettool= -V -all -appends -asmdecl -assign -atomic -bool -bools -buildtag -buildtags " +
					"-c= -cgocall -composites -composites.whitelist -compositewhitelist -copylocks -defers -diff -directive " +
					"-errorsas -flags -framepointer -hostport -httpresponse -ifaceassert -json -loopclosure -lostcancel " +
					"-methods -nilfunc -printf -printf.funcs= -printfuncs= -rangeloops -shift -sigchanyzer -slog -source " +
					"-stdmethods -stdversion -stringintconv -structtag -testinggoroutine -testinggoroutine.subtest -tests " +
					"-timeformat -unmarshal -unreachable -unsafeptr -unusedfuncs= -unusedresult -unusedresult.funcs= " +
					"-unusedresult.stringmethods= -unusedstringmethods= -waitgroup",
				guards: []optionGuard{
					{goFlags: true, options: goBuildFlags, why: "runs a program, passes flags to the compiler or linker, or writes where you choose"},
				},
			},
		},
	},
	"gofmt": {
		goFlags: true,
		options: "-cpuprofile= -d -e -l -r= -s -w",
		guards: []optionGuard{
			{goFlags: true, options: []string{"-w", "-cpuprofile"}, why: "rewrites the files it formats, or writes a CPU profile"},
		},
	},
	"grep": {
		files:   grepSpec,
		dirSafe: true, readOnly: true,
		options: "-NUM -A= -a -B= -b -C= -c -D= -d= -E -e= -F -f= -G -H -h -I -i -L -l -m= -n -o -P -q -R -r -s -T -U -V -v -w -x -Z -z " +
			"--after-context= --basic-regexp --before-context= --binary --binary-files= --byte-offset --color? --colour? --context= " +
			"--count --dereference-recursive --devices= --directories= --exclude= --exclude-dir= --exclude-from= --extended-regexp " +
			"--file= --files-with-matches --files-without-match --fixed-strings --group-separator= --help --ignore-case --include= " +
			"--initial-tab --invert-match --label= --line-buffered --line-number --line-regexp --max-count= --no-filename " +
			"--no-group-separator --no-ignore-case --no-messages --null --null-data --only-matching --perl-regexp --quiet " +
			"--recursive --regexp= --silent --text --version --with-filename --word-regexp",
	},
	"gsed": {
		guards: []optionGuard{
			{check: sedRisk, script: true, why: sedWhy},
		},
	},
	"hash": {files: fileSpec{none: true}},
	"head": {
		envAll:  true,
		files:   fileSpec{skipVal: "nc", exact: true},
		dirSafe: true, readOnly: true,
		options: "-NUM -c= -n= -q -v -z --bytes= --help --lines= --quiet --silent --verbose --version --zero-terminated",
	},
	"hostname":             {files: fileSpec{fileVal: "F", longFile: []string{"file"}}, dirSafe: true},
	"i3-sensible-terminal": {env: "TERMINAL"},
	"id":                   {envAll: true, files: fileSpec{none: true}, options: "-a -G -g -n -r -u -Z -z --context --group --groups --help --name --real --user --version --zero"},
	"install":              {files: fileSpec{skipVal: "mgoS", writeVal: "t", writeLast: true, writeIf: "d", longWriteIf: []string{"directory"}, longWrite: []string{"target-directory"}}, dirSafe: true}, // install -d DIR… creates each
	"ionice":               {wrap: &wrapSpec{kind: wrapExec, shortVal: "cnpPu", longVal: []string{"class", "classdata", "pid", "pgid", "uid"}, noCmd: "pPu"}},
	"java":                 {env: "JAVA_TOOL_OPTIONS _JAVA_OPTIONS JDK_JAVA_OPTIONS", singleDash: true},
	"jobs":                 {files: fileSpec{none: true}},
	"join":                 {dirSafe: true},
	"jq": {
		files:   fileSpec{reader: readJq, skipVal: "", fileVal: "f", first: true, firstUnless: "f", longFile: []string{"from-file"}},
		dirSafe: true,
		options: "-a -C -c -e -f= -h -j -L= -M -n -R -r -S -s -V --arg=2 --args --argjson=2 --ascii-output --build-configuration " +
			"--color-output --compact-output --exit-status --from-file= --help --indent= --join-output --jsonargs " +
			"--monochrome-output --null-input --raw-input --raw-output --raw-output0 --rawfile=2 --seq --slurp --slurpfile=2 " +
			"--sort-keys --stream --stream-errors --tab --unbuffered --version",
	},
	"kill":    {files: fileSpec{none: true}},
	"ksh":     {wrap: &shellSpec},
	"kubectl": {env: "KUBECONFIG"},
	"less":    {readOnly: true, dirSafe: true, env: "LESSOPEN LESSCLOSE LESSHISTFILE=w"},
	"let":     {files: fileSpec{none: true}},
	"linux32": {wrap: &wrapSpec{kind: wrapExec}},
	"linux64": {wrap: &wrapSpec{kind: wrapExec}},
	"ln":      {files: fileSpec{skipVal: "S", writeVal: "t", writeLast: true, longWrite: []string{"target-directory"}}, dirSafe: true, spell: "-s,--symbolic -f,--force"},
	"local":   {files: fileSpec{none: true}},
	"ls": {
		lists:   true,
		envAll:  true,
		files:   fileSpec{skipVal: "ITw", exact: true},
		dirSafe: true, readOnly: true,
		options: "-1 -A -a -B -b -C -c -D -d -F -f -G -g -H -h -I= -i -k -L -l -m -N -n -o -p -Q -q -R -r -S -s -T= -t -U -u -v -w= -X -x -Z " +
			"--all --almost-all --author --block-size= --classify? --color? --context --dereference --dereference-command-line " +
			"--dereference-command-line-symlink-to-dir --directory --dired --escape --file-type --format= --full-time " +
			"--group-directories-first --help --hide= --hide-control-chars --human-readable --hyperlink? --ignore= --ignore-backups " +
			"--indicator-style= --inode --kibibytes --literal --no-group --numeric-uid-gid --quote-name --quoting-style= --recursive " +
			"--reverse --show-control-chars --si --size --sort= --tabsize= --time= --time-style= --version --width= --zero",
	},
	"ltrace": {wrap: &wrapSpec{kind: wrapExec, shortVal: "aADeFlnopsuwx", longVal: []string{"output", "align", "indent", "library"}, writeVal: "o", longWrite: []string{"output"}}},
	"make": {
		env:     "MAKEFLAGS CC CXX CPP LD AR FC CFLAGS CXXFLAGS CPPFLAGS LDFLAGS",
		files:   fileSpec{skipVal: "jl", fileVal: "fC"},
		dirSafe: true,
		guards: []optionGuard{
			{options: []string{"-f", "--file", "--makefile", "-C", "--directory", "-E", "--eval", "-I", "--include-dir"}, why: "runs the recipes of a makefile or text you choose"},
		},
	},
	"man": {
		env: "MANPAGER PAGER BROWSER",
		guards: []optionGuard{
			{options: []string{"-P", "--pager", "-H", "--html", "-C", "--config-file"}, why: "runs a pager or browser of your choice"},
		},
	},
	"mawk": {
		files:   awkSpec,
		dirSafe: true,
		guards: []optionGuard{
			{check: awkRisk, script: true, why: awkWhy},
		},
	},
	"md5sum": {readOnly: true, envAll: true, dirSafe: true, options: "-b -c -t -w -z --binary --check --help --ignore-missing --quiet --status --strict --tag --text --version --warn --zero"},
	"mkdir":  {files: fileSpec{skipVal: "m", writeAll: true, exact: true}, dirSafe: true},
	"mkfifo": {files: fileSpec{skipVal: "m", writeAll: true}, dirSafe: true},
	"mksh":   {wrap: &shellSpec},
	"more":   {readOnly: true, dirSafe: true},
	"mv":     {files: fileSpec{skipVal: "S", writeVal: "t", writeAll: true, exact: true, longWrite: []string{"target-directory"}}, dirSafe: true, spell: "-f,--force -n,--no-clobber"},
	"nawk": {
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
		options: "-b= -d= -f= -h= -i= -l= -n= -p -s= -v= -w= --body-numbering= --footer-numbering= --header-numbering= --help " +
			"--join-blank-lines= --line-increment= --no-renumber --number-format= --number-separator= --number-width= " +
			"--section-delimiter= --starting-line-number= --version",
	},
	"node":    {files: fileSpec{skipVal: "epr"}, env: "NODE_OPTIONS NODE_PATH NODE_EXTRA_CA_CERTS=r NODE_REPL_HISTORY=w NODE_ENV=-"},
	"nohup":   {wrap: &wrapSpec{kind: wrapExec}},
	"npm":     {files: fileSpec{first: true}, env: "NPM_CONFIG_* npm_config_* NODE_OPTIONS NODE_ENV=-"},
	"nsenter": {wrap: &wrapSpec{kind: wrapExec, shortVal: "tSGN", longVal: []string{"target", "setuid", "setgid", "net-socket"}}},
	"numfmt": {
		files: fileSpec{none: true}, envAll: true,
		options: "-d= -z --debug --delimiter= --field= --format= --from= --from-unit= --grouping --header? --help " +
			"--invalid= --padding= --round= --suffix= --to= --to-unit= --unit-separator= --version --zero-terminated",
	},
	"nvim": {
		env: "VIMINIT EXINIT",
		guards: []optionGuard{
			{check: vimRisk, why: "runs editor commands (which may run a program) you choose"},
		},
	},
	"parallel": {
		wrap: &wrapSpec{kind: wrapParallel, shortVal: "adEIjnNLPsS", longVal: []string{"arg-file", "delimiter", "jobs", "max-args", "sshlogin", "max-chars", "colsep", "tag-string", "joblog", "results", "tmpdir", "workdir", "wd", "basefile", "bf", "transfer-file", "return", "sshloginfile", "slf", "timeout", "delay", "retries", "halt", "memfree", "load", "env", "nice", "block", "block-size", "recstart", "recend", "max-lines", "max-replace-args"}},
	},
	"paste":   {dirSafe: true},
	"patch":   {files: fileSpec{namesIf: "*", skipVal: "pBDFVYzgd", fileVal: "i", writeVal: "or", writeFirst: true}, dirSafe: true}, // patch [ORIGFILE [PATCHFILE]]
	"perl":    {files: fileSpec{skipVal: "eEMmIl", writeIf: "i", optVal: "i"}, env: "PERL5OPT PERL5LIB PERLLIB PERL5DB"},
	"popd":    {files: fileSpec{none: true}, dirSafe: true},
	"printf":  {envAll: true, files: fileSpec{none: true}},
	"prlimit": {wrap: &wrapSpec{kind: wrapExec, shortVal: "po", longVal: []string{"pid", "output"}, noCmd: "p"}},
	"pushd":   {readOnly: true, files: fileSpec{none: true}, dirSafe: true},
	"pwd":     {envAll: true, files: fileSpec{none: true}, options: "-L -P --help --version"},
	"python":  {files: fileSpec{skipVal: "cmWX"}, env: "PYTHONSTARTUP PYTHONPATH PYTHONHOME PYTHONINSPECT PYTHONUSERBASE REQUESTS_CA_BUNDLE=r PYTHONUNBUFFERED=- PYTHONDONTWRITEBYTECODE=-"},
	"python3": {
		files: fileSpec{skipVal: "cmWX"},
		env:   "PYTHONSTARTUP PYTHONPATH PYTHONHOME PYTHONINSPECT PYTHONUSERBASE REQUESTS_CA_BUNDLE=r PYTHONUNBUFFERED=- PYTHONDONTWRITEBYTECODE=-",
	},
	"rbash": {wrap: &shellSpec},
	"read":  {files: fileSpec{none: true}},
	"readlink": {
		lists:   true,
		envAll:  true,
		dirSafe: true, readOnly: true,
		options: "-e -f -m -n -q -s -v -z --canonicalize --canonicalize-existing --canonicalize-missing --help --no-newline " +
			"--quiet --silent --verbose --version --zero",
	},
	"readonly": {files: fileSpec{none: true}},
	"realpath": {
		lists:   true,
		envAll:  true,
		dirSafe: true, readOnly: true,
		options: "-e -L -m -P -q -s -z --canonicalize-existing --canonicalize-missing --help --logical --no-symlinks --physical " +
			"--quiet --relative-base= --relative-to= --strip --version --zero",
	},
	"return": {files: fileSpec{none: true}},
	"rev":    {dirSafe: true, options: "-h -V -0 --help --version --zero"},
	"rg": {
		files:   rgSpec,
		dirSafe: true, readOnly: true,
		options: "-NUM -0 -A= -a -B= -C= -c -E= -e= -F -f= -g= -H -h -I -i -j= -L -l -M= -m= -N -n -o -p -q -r= -S -s -T= -t= -U -u -V -v -w -x -z " +
			"--after-context= --auto-hybrid-regex --before-context= --binary --block-buffered --byte-offset --case-sensitive " +
			"--color= --colors= --column --context= --context-separator= --count --count-matches --crlf --debug --dfa-size-limit= " +
			"--encoding= --engine= --field-context-separator= --field-match-separator= --file= --files --files-with-matches " +
			"--files-without-match --fixed-strings --follow --glob= --glob-case-insensitive --heading --help --hidden --iglob= " +
			"--ignore-case --ignore-file= --ignore-file-case-insensitive --include-zero --invert-match --json --line-buffered " +
			"--line-number --line-regexp --max-columns= --max-columns-preview --max-count= --max-depth= --maxdepth= --max-filesize= " +
			"--mmap --multiline --multiline-dotall --no-column --no-config --no-context-separator --no-filename --no-heading " +
			"--no-hidden --no-ignore --no-ignore-dot --no-ignore-exclude --no-ignore-files --no-ignore-global --no-ignore-parent " +
			"--no-ignore-vcs --no-line-number --no-messages --no-mmap --no-pcre2-unicode --no-require-git --no-unicode --null " +
			"--null-data --one-file-system --only-matching --passthru --path-separator= --pcre2 --pre= --pre-glob= --hostname-bin= " +
			"--pretty --quiet --regex-size-limit= --regexp= --replace= --search-zip --smart-case --sort= --sortr= --stats --text " +
			"--threads= --trim --type= --type-add= --type-clear= --type-list --type-not= --unrestricted --version --vimgrep " +
			"--with-filename --word-regexp",
		guards: []optionGuard{
			{options: []string{"--pre", "--hostname-bin", "-z", "--search-zip"}, why: "runs a program (--search-zip runs gzip, xz, bzip2, … on compressed files)"},
		},
	},
	"rm": {files: fileSpec{writeAll: true, removes: true, recursive: "rR", exact: true}, dirSafe: true, spell: "-r,-R,--recursive -f,--force -d,--dir -v,--verbose -i:interactive"},
	"rmdir": {
		files: fileSpec{writeAll: true, removes: true, exact: true}, dirSafe: true,
		guards: []optionGuard{
			{options: []string{"-p", "--parents"}, why: "removes each empty parent directory too, which the command does not name"},
		},
	},
	"rsync": {
		files: fileSpec{skipVal: "e", longSkip: []string{"rsh", "rsync-path"}, recursive: "ra", writeLast: true,
			longFile: []string{"files-from", "exclude-from", "include-from", "password-file"}},
		dirSafe: true,
		guards: []optionGuard{
			{options: []string{"-e", "--rsh", "--rsync-path"}, why: "runs a program"},
		},
	},
	"ruby":    {files: fileSpec{skipVal: "eEIr"}, env: "RUBYOPT RUBYLIB"},
	"runuser": {wrap: &wrapSpec{kind: wrapSu}},
	"scp": {
		files:   fileSpec{skipVal: "cJlPoDS", fileVal: "iF", recursive: "r", writeLast: true},
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
		env:  "SCREENRC SYSSCREENRC", // files of screen commands, which run programs
		guards: []optionGuard{
			{check: screenRisk, why: "runs screen commands the gate does not read (-c FILE, -X stuff types into a shell, -X screen/exec run programs)"},
		},
	},
	"sed": {
		spell: "-i,--in-place",
		files: fileSpec{exact: true, skipVal: "el", optVal: "i", fileVal: "f", first: true, firstUnless: "ef", writeIf: "i",
			longSkip: []string{"expression", "line-length"}, longFile: []string{"file"}},
		dirSafe: true,
		// Every option but -i/--in-place (which writes the files): under
		// the embedded default policy, sed -n -i asks.
		options: "-E -e= -f= -l= -n -r -s -u -z --debug --expression= --file= --follow-symlinks --help --line-length= --null-data " +
			"--posix --quiet --regexp-extended --sandbox --separate --silent --unbuffered --version",
		guards: []optionGuard{
			{check: sedRisk, script: true, why: sedWhy},
		},
	},
	"seq":     {envAll: true, files: fileSpec{none: true}, options: "-f= -s= -w --equal-width --format= --help --separator= --version"},
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
	"sg":        {wrap: &wrapSpec{kind: wrapSg}},
	"sh":        {wrap: &shellSpec},
	"sha1sum":   {readOnly: true, envAll: true, dirSafe: true, options: "-b -c -t -w -z --binary --check --help --ignore-missing --quiet --status --strict --tag --text --version --warn --zero"},
	"sha256sum": {readOnly: true, envAll: true, dirSafe: true, options: "-b -c -t -w -z --binary --check --help --ignore-missing --quiet --status --strict --tag --text --version --warn --zero"},
	"sha512sum": {readOnly: true, envAll: true, dirSafe: true},
	"shift":     {files: fileSpec{none: true}},
	"shopt":     {files: fileSpec{none: true}},
	"shred":     {files: fileSpec{skipVal: "ns", writeAll: true}, dirSafe: true},
	"sleep":     {envAll: true, files: fileSpec{none: true}, options: "--help --version"},
	"sort": {
		runVal: []string{"compress-program"},
		files: fileSpec{skipVal: "tkS", writeVal: "oT", longFile: []string{"files0-from", "random-source"},
			longWrite: []string{"output", "temporary-directory"},
			longSkip:  []string{"key", "field-separator", "buffer-size", "parallel", "batch-size", "compress-program"}},
		dirSafe: true,
		options: "-b -C -c -d -f -g -h -i -k= -M -m -n -o= -R -r -S= -s -T= -t= -u -V -z --batch-size= --buffer-size= --check? " +
			"--compress-program= --debug --dictionary-order --field-separator= --files0-from= --general-numeric-sort --help " +
			"--human-numeric-sort --ignore-case --ignore-leading-blanks --ignore-nonprinting --key= --merge --month-sort " +
			"--numeric-sort --output= --parallel= --random-sort --random-source= --reverse --sort= --stable --temporary-directory= " +
			"--unique --version --version-sort --zero-terminated",
		guards: []optionGuard{
			{options: []string{"-o", "--output", "--compress-program"}, why: "writes a file or runs a compression program"},
			{options: []string{"--files0-from"}, why: "reads the files named in another file, which the gate cannot check"},
		},
	},
	"split": {files: fileSpec{reader: readSplit}, dirSafe: true},
	"ssh": {
		env:     "SSH_ASKPASS",
		files:   fileSpec{fileVal: "iFESo"},
		dirSafe: true,
		guards: []optionGuard{
			{options: []string{"-o", "-F"}, why: "sets ssh options (ProxyCommand, LocalCommand, KnownHostsCommand, Match exec) that run a program"},
		},
	},
	"ssh-agent": {wrap: &wrapSpec{kind: wrapExec, shortVal: "aEOPt", noCmd: "k"}},
	"stat":      {lists: true, readOnly: true, envAll: true, dirSafe: true, options: "-c= -f -L -t --cached= --dereference --file-system --format= --help --printf= --terse --version"},
	"stdbuf":    {wrap: &wrapSpec{kind: wrapExec, shortVal: "ioe", longVal: []string{"input", "output", "error"}}},
	"strace": {
		wrap: &wrapSpec{kind: wrapExec, shortVal: "abeEIoOpPsSuUX", longVal: []string{"output", "attach", "string-limit", "user", "env",
			"trace", "signal", "status", "expr", "trace-path", "summary-sort-by", "columns", "decode-fds", "seccomp-bpf", "quiet", "silence", "secontext", "inject", "fault"},
			writeVal: "o", longWrite: []string{"output"}, pipeOut: true},
	},
	"su": {wrap: &wrapSpec{kind: wrapSu}},
	"sudo": {
		env:  "SUDO_ASKPASS SUDO_EDITOR EDITOR VISUAL",
		wrap: &wrapSpec{kind: wrapSudo, shortVal: "CDghpRrtTUu", longVal: []string{"user", "group", "host", "prompt", "chdir", "chroot", "close-from", "role", "type", "command-timeout", "other-user"}},
	},
	"sudoedit": {
		wrap: &wrapSpec{kind: wrapSudo, shortVal: "CDghpRrtTUu"},
		env:  "SUDO_EDITOR EDITOR VISUAL",
	},
	"systemctl": {env: "SYSTEMD_PAGER"},
	"tac":       {readOnly: true, envAll: true, dirSafe: true, options: "-b -r -s= --before --help --regex --separator= --version"},
	"tail": {
		envAll:  true,
		files:   fileSpec{skipVal: "ncs", exact: true},
		dirSafe: true, readOnly: true,
		options: "-NUM -c= -F -f -n= -q -s= -v -z --bytes= --follow? --help --lines= --max-unchanged-stats= --pid= --quiet --retry " +
			"--silent --sleep-interval= --verbose --version --zero-terminated",
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
	"touch": {files: fileSpec{skipVal: "dt", fileVal: "r", writeAll: true}, dirSafe: true},
	"tr":    {envAll: true, files: fileSpec{none: true}, options: "-C -c -d -s -t --complement --delete --help --squeeze-repeats --truncate-set1 --version"},
	"trap":  {files: fileSpec{none: true}},
	"tree": {
		dirSafe: true, readOnly: true,
		options: "-a -C -D -d -F -f -g -h -i -J -l -N -n -p -Q -q -R -r -S -s -t -U -u -v -X -x -c -H= -I= -L= -o= -P= -T= " +
			"--charset= --dirsfirst --du --filelimit= --filesfirst --fromfile --gitignore --help --hintro= --houtro= " +
			"--ignore-case --info --infofile= --inodes --matchdirs --metafirst --noreport --nolinks --prune --si --sort= " +
			"--timefmt= --device --version",
		guards: []optionGuard{
			{options: []string{"-o", "-R"}, why: "writes files (-R runs tree again through the shell)"},
		},
	},
	"true":     {envAll: true, files: fileSpec{none: true}},
	"truncate": {files: fileSpec{skipVal: "s", fileVal: "r", writeAll: true}, dirSafe: true},
	"type":     {files: fileSpec{none: true}, options: "-a -f -P -p -t"},
	"typeset":  {files: fileSpec{none: true}},
	"ulimit":   {files: fileSpec{none: true}},
	"umask":    {files: fileSpec{none: true}},
	"uname": {
		files: fileSpec{none: true}, envAll: true,
		options: "-a -i -m -n -o -p -r -s -v --all --hardware-platform --help --kernel-name --kernel-release --kernel-version " +
			"--machine --nodename --operating-system --processor --version",
	},
	"unbuffer": {wrap: &wrapSpec{kind: wrapExec}},
	"unexpand": {dirSafe: true},
	"uniq": {
		envAll:  true,
		files:   fileSpec{skipVal: "fsw", writeLast: true},
		dirSafe: true,
		options: "-c -D -d -f= -i -s= -u -w= -z --all-repeated? --check-chars= --count --group? " +
			"--help --ignore-case --repeated --skip-chars= --skip-fields= --unique --version --zero-terminated",
		guards: []optionGuard{
			{check: uniqOutput, why: "writes its second operand (uniq IN OUT)"},
		},
	}, // uniq IN OUT writes OUT
	"unlink": {files: fileSpec{writeAll: true, removes: true}, dirSafe: true},
	"unset":  {files: fileSpec{none: true}},
	"unshare": {
		wrap: &wrapSpec{kind: wrapExec, shortVal: "SGRw", longVal: []string{"setuid", "setgid", "root", "wd", "map-user", "map-group", "map-users", "map-groups", "propagation", "setgroups", "load-interp"}},
	},
	"unzip":    {files: fileSpec{namesUnless: "lptvZz", skipVal: "xP", writeVal: "d"}, dirSafe: true},
	"valgrind": {wrap: &wrapSpec{kind: wrapExec}},
	"vi": {
		env: "VIMINIT EXINIT",
		guards: []optionGuard{
			{check: vimRisk, why: "runs editor commands (which may run a program) you choose"},
		},
	},
	"view": {
		env: "VIMINIT EXINIT",
		guards: []optionGuard{
			{check: vimRisk, why: "runs editor commands (which may run a program) you choose"},
		},
	},
	"vim": {
		env: "VIMINIT EXINIT",
		guards: []optionGuard{
			{check: vimRisk, why: "runs editor commands (which may run a program) you choose"},
		},
	},
	"wait":  {files: fileSpec{none: true}},
	"watch": {wrap: &wrapSpec{kind: wrapWatch, shortVal: "nq", longVal: []string{"interval"}}},
	"wc": {
		envAll:  true,
		files:   fileSpec{longFile: []string{"files0-from"}},
		dirSafe: true, readOnly: true,
		options: "-c -L -l -m -w --bytes --chars --files0-from= --help --lines --max-line-length --total= --version --words",
	},
	"wget": {
		spell: "-O,--output-document -e,--execute:... --config:...",
		files: fileSpec{skipVal: "tTUe", fileVal: "i", writeVal: "OoaP",
			longWrite: []string{"output-document", "output-file", "append-output", "directory-prefix", "save-cookies"},
			longFile:  []string{"input-file", "load-cookies", "config"},
			longSkip:  []string{"user", "password", "header", "user-agent", "tries", "timeout"}},
		dirSafe: true,
	},
	"which":  {files: fileSpec{none: true}, options: "-a -s"},
	"whoami": {envAll: true, files: fileSpec{none: true}, options: "--help --version"},
	"xargs": {
		wrap: &wrapSpec{kind: wrapXargs, shortVal: "adEILnPs",
			longVal: []string{"arg-file", "delimiter", "max-args", "max-procs", "max-chars", "process-slot-var"}},
	},
	"xdg-open": {env: "BROWSER"},
	"xxd": {readOnly: true, dirSafe: true, guards: []optionGuard{
		{check: xxdRisk, why: "writes a file: -r turns a dump back into bytes, and a second operand is the file it writes"}}},
	"yes": {files: fileSpec{none: true}},
	"zip": {
		files:   fileSpec{namesIf: "@", skipVal: "bnPtx", writeFirst: true, recursive: "rR"}, // zip ARCHIVE FILES: the archive is written
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
