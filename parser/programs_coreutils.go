package parser

// The reasons of guards several options share.
const (
	rgWhy   = "runs a program (--search-zip runs gzip, xz, bzip2, … on compressed files)"
	sortWhy = "writes a file or runs a compression program"
	treeWhy = "writes files (-R runs tree again through the shell)"
)

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

// programsCoreutils: coreutils, findutils, diffutils, grep, sed, awk and the other tools that read and write text and files.
// awkEntry is every awk's entry (awk, gawk, mawk, nawk): the options
// POSIX awk and gawk share, its script read by awkLang and judged by
// awkRisk.
var awkEntry = program{
	script: awkLang,
	options: []opt{
		val(readsFile|firstIsFile, "-f"),
		val(notFile, "-F -v -W --assign --field-separator"),
		val(readsFile, "--file"),
	},
	files:   awkSpec,
	dirSafe: true,
	checks: []guardCheck{
		{check: awkRisk, script: true, why: awkWhy},
	},
}

var programsCoreutils = map[string]program{
	// link FILE1 FILE2; rename (util-linux: FROM TO FILES; perl's,
	// also prename and file-rename: an expression) renames files its
	// operands do not name.
	// csplit writes xx00, xx01, … (its pieces), which the analysis
	// does not list.
	"csplit":      {writesUnlisted: true},
	"link":        {changes: changesWritten, files: fileSpec{writeLast: true, exact: true}, dirSafe: true},
	"rename":      {changes: changesAny},
	"prename":     {changes: changesAny},
	"file-rename": {changes: changesAny},
	"ack":         {options: []opt{val(notFile, "-A -B -C -m")}, files: fileSpec{first: true, alwaysRecursive: true, implicitDot: true}, dirSafe: true},
	"ag":          {readOnly: true, options: []opt{val(notFile, "-A -B -C -m -G")}, files: fileSpec{first: true, alwaysRecursive: true, implicitDot: true}, dirSafe: true},
	"awk":         awkEntry,
	"b2sum":       {readOnly: true, envAll: true, dirSafe: true, options: []opt{guard(checksumWhy, "-c --check")}},
	"base32":      {dirSafe: true},
	"base64":      {envAll: true, dirSafe: true, options: []opt{flags("-d -i --decode --help --ignore-garbage --version"), val(0, "-w --wrap")}, complete: true},
	"bat":         {readOnly: true},
	"basename": {
		envAll:  true,
		files:   fileSpec{none: true},
		dirSafe: true, readOnly: true,
		options: []opt{flags("-a -z --help --multiple --version --zero"), val(0, "-s --suffix")}, complete: true,
	},
	"cat": {
		envAll:  true,
		files:   fileSpec{exact: true},
		dirSafe: true, readOnly: true,
		options: []opt{
			flags("-A -b -E -e -n -s -T -t -u -v --help --number --number-nonblank --show-all --show-ends --show-nonprinting --show-tabs --squeeze-blank --version"),
		},
		complete: true,
	},
	"chgrp": {options: []opt{does(recursive, "-R").as("recursive"), flags("--recursive").as("recursive")}, files: fileSpec{first: true, writeAll: true, exact: true}, dirSafe: true, recursiveVerb: "changes the groups of"},
	"chmod": {options: []opt{does(recursive, "-R").as("recursive"), flags("--recursive").as("recursive")}, files: fileSpec{first: true, writeAll: true, exact: true}, dirSafe: true, recursiveVerb: "changes the modes of"},
	"chown": {options: []opt{does(recursive, "-R").as("recursive"), flags("--recursive").as("recursive")}, files: fileSpec{first: true, writeAll: true, exact: true}, dirSafe: true, recursiveVerb: "changes the owners of"},
	"cksum": {dirSafe: true, options: []opt{guard(checksumWhy, "-c --check")}},
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
	"cp": {options: []opt{
		does(recursive|makesLinks, "-r -R").as("recursive"),
		does(recursive|makesLinks, "-a").as("archive+recursive"),
		val(notFile, "-S"),
		val(writesFile, "-t --target-directory"),
		does(makesLinks, "--recursive").as("recursive"),
		flags("-f --force").as("force"),
		does(makesLinks, "--archive").as("archive+recursive"),
		does(makesLinks, "-l --link").as("link"),
		does(makesLinks, "-s --symbolic-link").as("symbolic-link"),
		does(makesLinks, "-d -P --no-dereference --preserve"),
	},
		files: fileSpec{writeLast: true, exact: true}, dirSafe: true, changes: changesWritten},
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
	"dd": {files: fileSpec{reader: readDD}, dirSafe: true, writesUnlisted: true},
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
	"egrep":  {readOnly: true, options: grepOptions, complete: true, files: grepSpec, dirSafe: true},
	"expand": {dirSafe: true},
	"expr":   {files: fileSpec{none: true}},
	"fgrep":  {readOnly: true, options: grepOptions, complete: true, files: grepSpec, dirSafe: true},
	"file": {
		files: fileSpec{reader: readFile},
		options: []opt{
			flags("-0 -b -c -d -E -h -i -k -L -l -N -n -p -r -S -s -v -Z -z --apple --brief --checking-printout --debug --dereference --extension --help --keep-going --list --mime --mime-encoding --mime-type --no-buffer --no-dereference --no-pad --no-sandbox --preserve-date --print0 --raw --special-files --uncompress --uncompress-noreport --version"),
			flags("-C --compile").guard("writes a compiled magic file"),
			val(0, "-e -F -f -m -P --exclude --exclude-quiet --files-from --magic-file --parameter --separator"),
		},
		complete: true,
		env:      []envVar{{"MAGIC", envFileList}},
		dirSafe:  true, readOnly: true,
	},
	"find": {
		singleDash: true,
		dirSafe:    true,
		wrap:       &wrapSpec{kind: wrapFind},
		options:    []opt{guard("deletes files, writes files or runs a program", "-delete -exec -execdir -ok -okdir -fprint -fprint0 -fprintf -fls")},
	},
	"fmt":  {dirSafe: true},
	"fold": {dirSafe: true},
	"gawk": awkEntry,
	"grep": {
		files:   grepSpec,
		dirSafe: true, readOnly: true,
		options:  grepOptions,
		complete: true,
	},
	"gsed": {
		script: sedLang,
		checks: []guardCheck{
			{check: sedRisk, script: true, why: sedWhy},
		},
	},
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
	"join": {dirSafe: true},
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
	"kill": {files: fileSpec{none: true}},
	"ln": {changes: changesWritten, options: []opt{
		val(notFile, "-S"),
		val(writesFile, "-t --target-directory"),
		flags("-s --symbolic").as("symbolic"),
		flags("-f --force").as("force"),
	},
		files: fileSpec{writeLast: true}, dirSafe: true},
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
	"mawk": awkEntry,
	"md5sum": {readOnly: true, envAll: true, dirSafe: true, options: []opt{
		flags("-b -t -w -z --binary --help --ignore-missing --quiet --status --strict --tag --text --version --warn --zero"),
		flags("-c --check").guard(checksumWhy),
	},
		complete: true,
	},
	"mkdir":  {options: []opt{val(notFile, "-m")}, files: fileSpec{writeAll: true, exact: true}, dirSafe: true, makesDirs: true},
	"mkfifo": {options: []opt{val(notFile, "-m")}, files: fileSpec{writeAll: true}, dirSafe: true},
	"mv": {changes: changesWritten, options: []opt{
		val(notFile, "-S"),
		val(writesFile, "-t --target-directory"),
		flags("-f --force").as("force"),
		flags("-n --no-clobber").as("no-clobber"),
	},
		files: fileSpec{writeAll: true, exact: true}, dirSafe: true},
	"nawk": awkEntry,
	"nl": {
		envAll:  true,
		dirSafe: true, readOnly: true,
		options: []opt{
			val(0, "-b -d -f -h -i -l -n -s -v -w --body-numbering --footer-numbering --header-numbering --join-blank-lines --line-increment --number-format --number-separator --number-width --section-delimiter --starting-line-number"),
			flags("-p --help --no-renumber --version"),
		},
		complete: true,
	},
	"numfmt": {
		files: fileSpec{none: true}, envAll: true,
		options: []opt{
			val(0, "-d --delimiter --field --format --from --from-unit --invalid --padding --round --suffix --to --to-unit --unit-separator"),
			flags("-z --debug --grouping --help --version --zero-terminated"),
			optional(0, "--header"),
		},
		complete: true,
	},
	"paste": {dirSafe: true},
	"patch": {changes: changesUnlisted, writesUnlisted: true, options: []opt{
		val(notFile, "-p -B -D -F -V -Y -z -g -d"),
		val(readsFile, "-i"),
		val(writesFile, "-o -r"),
	},
		files: fileSpec{alwaysNamesInput: true, writeFirst: true}, dirSafe: true}, // patch [ORIGFILE [PATCHFILE]]
	"readlink": {
		lists:   true,
		envAll:  true,
		dirSafe: true, readOnly: true,
		options: []opt{
			flags("-e -f -m -n -q -s -v -z --canonicalize --canonicalize-existing --canonicalize-missing --help --no-newline --quiet --silent --verbose --version --zero"),
		},
		complete: true,
	},
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
	"rev": {dirSafe: true, options: []opt{flags("-h -V -0 --help --version --zero")}, complete: true},
	"rg": {
		files:   rgSpec,
		dirSafe: true, readOnly: true,
		options: []opt{
			val(notFile|firstIsFile, "-e"),
			val(readsFile|firstIsFile, "-f"),
			number(),
			flags("-0 -a -c -F -H -h -I -i -L -l -N -n -o -p -q -S -s -U -u -V -v -w -x --auto-hybrid-regex --binary --block-buffered --byte-offset --case-sensitive --column --count --count-matches --crlf --debug --files-with-matches --files-without-match --fixed-strings --follow --glob-case-insensitive --heading --help --hidden --ignore-case --ignore-file-case-insensitive --include-zero --invert-match --json --line-buffered --line-number --line-regexp --max-columns-preview --mmap --multiline --multiline-dotall --no-column --no-config --no-context-separator --no-filename --no-heading --no-hidden --no-ignore --no-ignore-dot --no-ignore-exclude --no-ignore-files --no-ignore-global --no-ignore-parent --no-ignore-vcs --no-line-number --no-messages --no-mmap --no-pcre2-unicode --no-require-git --no-unicode --null --null-data --one-file-system --only-matching --passthru --pcre2 --pretty --quiet --smart-case --stats --text --trim --type-list --unrestricted --version --vimgrep --with-filename --word-regexp"),
			does(listsOnly, "--files"),
			flags("-z --search-zip").guard(rgWhy),
			val(notFile, "-A -B -C -E -g -j -M -m -r -T -t --after-context --before-context --color --colors --context --encoding --glob --iglob --max-columns --max-count --max-depth --regexp --replace --sort --sortr --threads --type --type-add --type-not"),
			val(0, "--context-separator --dfa-size-limit --engine --field-context-separator --field-match-separator --file --ignore-file --maxdepth --max-filesize --path-separator --pre-glob --regex-size-limit --type-clear"),
			val(0, "--pre --hostname-bin").guard(rgWhy),
			val(notFile, "-d").unlisted(),
		},
		complete: true,
	},
	"rm": {recursiveVerb: "deletes", options: []opt{
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
		options: []opt{guard("removes each empty parent directory too, which the command does not name", "-p --parents")},
	},
	"sed": {
		script: sedLang,
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
		files:    fileSpec{exact: true, first: true},
		dirSafe:  true,
		// Every option but -i/--in-place (which writes the files): under
		// the embedded default policy, sed -n -i asks.

		checks: []guardCheck{
			{check: sedRisk, script: true, why: sedWhy},
		},
	},
	"seq": {envAll: true, files: fileSpec{none: true}, options: []opt{val(0, "-f -s --format --separator"), flags("-w --equal-width --help --version")}, complete: true},
	"sha1sum": {readOnly: true, envAll: true, dirSafe: true, options: []opt{
		flags("-b -t -w -z --binary --help --ignore-missing --quiet --status --strict --tag --text --version --warn --zero"),
		flags("-c --check").guard(checksumWhy),
	},
		complete: true,
	},
	"sha256sum": {readOnly: true, envAll: true, dirSafe: true, options: []opt{
		flags("-b -t -w -z --binary --help --ignore-missing --quiet --status --strict --tag --text --version --warn --zero"),
		flags("-c --check").guard(checksumWhy),
	},
		complete: true,
	},
	"sha512sum": {readOnly: true, envAll: true, dirSafe: true, options: []opt{guard(checksumWhy, "-c --check")}},
	"sha224sum": {options: []opt{guard(checksumWhy, "-c --check")}},
	"sha384sum": {options: []opt{guard(checksumWhy, "-c --check")}},
	"shred":     {options: []opt{val(notFile, "-n -s")}, files: fileSpec{writeAll: true}, dirSafe: true},
	"sleep":     {envAll: true, files: fileSpec{none: true}, options: []opt{flags("--help --version")}, complete: true},
	"sort": {
		options: []opt{
			flags("-b -C -c -d -f -g -h -i -M -m -n -R -r -s -u -V -z --debug --dictionary-order --general-numeric-sort --help --human-numeric-sort --ignore-case --ignore-leading-blanks --ignore-nonprinting --merge --month-sort --numeric-sort --random-sort --reverse --stable --unique --version --version-sort --zero-terminated"),
			val(notFile, "-k -S -t --batch-size --buffer-size --field-separator --key --parallel"),
			val(writesFile, "-T --temporary-directory"),
			val(writesFile, "-o --output").guard(sortWhy),
			optional(0, "--check"),
			val(notFile|runs, "--compress-program").guard(sortWhy),
			val(readsFile, "--random-source"),
			val(readsFile, "--files0-from").guard("reads the files named in another file, which the gate cannot check"),
			val(0, "--sort"),
		},
		complete: true,
		files:    fileSpec{},
		dirSafe:  true,
	},
	"split": {
		writesUnlisted: true,
		// Its options that take a value, which its reader skips to
		// the operands (INPUT PREFIX).
		options: []opt{
			val(0, "-a -b -C -l -n --bytes --line-bytes --lines --number --suffix-length --additional-suffix --separator --numeric-suffixes --hex-suffixes"),
			// --filter=COMMAND: split runs COMMAND through $SHELL for
			// each piece (its writes are the command's own).
			val(notFile, "--filter").guard("runs a shell command for each piece"),
		},
		files: fileSpec{reader: readSplit}, dirSafe: true,
	},
	"stat": {lists: true, readOnly: true, envAll: true, dirSafe: true, options: []opt{
		val(0, "-c --cached --format --printf"),
		flags("-f -L -t --dereference --file-system --help --terse --version"),
	},
		complete: true,
	},
	"tac": {readOnly: true, envAll: true, dirSafe: true, options: []opt{flags("-b -r --before --help --regex --version"), val(0, "-s --separator")}, complete: true},
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
	"tee":   {files: fileSpec{writeAll: true, exact: true}, dirSafe: true},
	"touch": {options: []opt{val(notFile, "-d -t"), val(readsFile, "-r")}, files: fileSpec{writeAll: true}, dirSafe: true},
	"tr":    {envAll: true, files: fileSpec{none: true}, options: []opt{flags("-C -c -d -s -t --complement --delete --help --squeeze-repeats --truncate-set1 --version")}, complete: true},
	"tree": {
		dirSafe: true, readOnly: true,
		options: []opt{
			flags("-a -C -D -d -F -f -g -h -i -J -l -N -n -p -Q -q -r -S -s -t -U -u -v -X -x -c --dirsfirst --du --filesfirst --fromfile --gitignore --help --ignore-case --info --inodes --matchdirs --metafirst --noreport --nolinks --prune --si --device --version"),
			flags("-R").guard(treeWhy),
			val(0, "-H -I -L -P -T --charset --filelimit --hintro --houtro --infofile --sort --timefmt"),
			val(0, "-o").guard(treeWhy),
		},
		complete: true,
	},
	"truncate": {options: []opt{val(notFile, "-s"), val(readsFile, "-r")}, files: fileSpec{writeAll: true}, dirSafe: true},
	"uname": {
		files: fileSpec{none: true}, envAll: true,
		options: []opt{
			flags("-a -i -m -n -o -p -r -s -v --all --hardware-platform --help --kernel-name --kernel-release --kernel-version --machine --nodename --operating-system --processor --version"),
		},
		complete: true,
	},
	"unexpand": {dirSafe: true},
	"uniq": {
		writesUnlisted: true,
		envAll:         true,
		options: []opt{
			flags("-c -D -d -i -u -z --count --help --ignore-case --repeated --unique --version --zero-terminated"),
			val(notFile, "-f -s -w"),
			optional(0, "--all-repeated --group"),
			val(0, "--check-chars --skip-chars --skip-fields"),
		},
		complete: true,
		files:    fileSpec{writeLast: true},
		dirSafe:  true,
		checks: []guardCheck{
			{check: uniqOutput, why: "writes its second operand (uniq IN OUT)"},
		},
	}, // uniq IN OUT writes OUT
	"unlink": {files: fileSpec{writeAll: true, removes: true}, dirSafe: true},
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
	"which":  {files: fileSpec{none: true}, options: []opt{flags("-a -s")}, complete: true},
	"whoami": {envAll: true, files: fileSpec{none: true}, options: []opt{flags("--help --version")}, complete: true},
	"xxd": {readOnly: true, dirSafe: true, checks: []guardCheck{
		{check: xxdRisk, why: "writes a file: -r turns a dump back into bytes, and a second operand is the file it writes"}}},
	"yes":        {files: fileSpec{none: true}},
	"xcodebuild": {singleDash: true},
}
