package parser

import "sync"

// programs is what the analysis knows about each program, one entry a
// program, in one place:
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
//     and tree from their manuals). A token is the option as written,
//     followed by what comes after it:
//
//     -n        a flag (clusters: -rn)
//     -n=       takes a value (-n5, -n 5, --lines=5, --lines 5)
//     --color?  an optional value, only attached (--color=auto)
//     --arg=2   takes two values (jq --arg NAME VALUE)
//     -NUM      -5 means a number (head -5, grep -3)
//
//     Under the embedded default policy a command of a program with
//     options passes only with options listed here: another is
//     policy.unknown_option (ask), since it may write a file or run a
//     program. A policy file's own allow rules trust the program. Programs
//     without options (wrappers, git and go, whose inner commands and
//     subcommands are judged on their own) are not checked this way.
//
// What else the analysis knows is keyed otherwise: optionGuards (options
// that make a reader write or run a program, by prefix: git diff
// --output), gitOpts (git subcommands), wrappers, and the environment
// variables of env.go.
type program struct {
	files   fileSpec
	dirSafe bool
	options string
	opts    *optTable // options, parsed once (see progs)
}

// progs indexes programs by pointer, with each entry's options parsed:
// one lookup a command, no copy.
var progs = sync.OnceValue(func() map[string]*program {
	m := make(map[string]*program, len(programs)+2)
	for name := range programs {
		p := programs[name]
		if p.options != "" {
			p.opts = parseOptions(name, p.options)
		}
		m[name] = &p
	}
	m["egrep"].opts, m["fgrep"].opts = m["grep"].opts, m["grep"].opts
	return m
})

var programs = map[string]program{
	":":        {files: fileSpec{none: true}},
	"[":        {dirSafe: true},
	"[[":       {dirSafe: true},
	"ack":      {files: fileSpec{skipVal: "ABCm", first: true, recursive: "*", implicitDot: true}, dirSafe: true},
	"ag":       {files: fileSpec{skipVal: "ABCmG", first: true, recursive: "*", implicitDot: true}, dirSafe: true},
	"alias":    {files: fileSpec{none: true}},
	"awk":      {files: awkSpec, dirSafe: true},
	"b2sum":    {dirSafe: true},
	"base32":   {dirSafe: true},
	"base64":   {dirSafe: true, options: "-d -i -w= --decode --help --ignore-garbage --version --wrap="},
	"basename": {files: fileSpec{none: true}, dirSafe: true, options: "-a -s= -z --help --multiple --suffix= --version --zero"},
	"cat":      {files: fileSpec{exact: true}, dirSafe: true, options: "-A -b -E -e -n -s -T -t -u -v --help --number --number-nonblank --show-all --show-ends --show-nonprinting --show-tabs --squeeze-blank --version"},
	"cd":       {files: fileSpec{none: true}, dirSafe: true, options: "-L -P -e -@"},
	"chgrp":    {files: fileSpec{first: true, writeAll: true, recursive: "R", exact: true}, dirSafe: true},
	"chmod":    {files: fileSpec{first: true, writeAll: true, recursive: "R", exact: true}, dirSafe: true},
	"chown":    {files: fileSpec{first: true, writeAll: true, recursive: "R", exact: true}, dirSafe: true},
	"cksum":    {dirSafe: true},
	"cmp":      {dirSafe: true, options: "-b -i= -l -n= -s -v --bytes= --help --ignore-initial= --print-bytes --quiet --silent --verbose --version"},
	"column": {dirSafe: true, options: "-c= -d -E= -e -H= -h -i= -J -L -l= -N= -n= -O= -o= -p= -R= -r= -s= -T= -t -V -W= -x --fillrows --help --json " +
		"--keep-empty-lines --output-separator= --output-width= --separator= --table --table-columns= --table-columns-limit= " +
		"--table-header-repeat --table-hide= --table-name= --table-noextreme= --table-noheadings --table-order= --table-right= " +
		"--table-truncate= --table-wrap= --tree= --tree-id= --tree-parent= --version"},
	"comm": {dirSafe: true, options: "-1 -2 -3 -z --check-order --help --nocheck-order --output-delimiter= --total --version --zero-terminated"},
	"cp":   {files: fileSpec{skipVal: "S", writeVal: "t", recursive: "rRa", writeLast: true, exact: true, longWrite: []string{"target-directory"}}, dirSafe: true},
	"cpio": {files: fileSpec{skipVal: "HRMeF", fileVal: "EI", writeVal: "OD"}, dirSafe: true},
	"curl": {files: fileSpec{skipVal: "XHuAemwxrEyYz", fileVal: "TKb", writeVal: "ocD",
		longWrite: []string{"output", "dump-header", "cookie-jar", "trace", "trace-ascii", "stderr", "libcurl", "etag-save"},
		longFile:  []string{"upload-file", "config", "cookie", "netrc-file", "etag-compare"},
		longSkip: []string{"request", "header", "user", "user-agent", "referer", "max-time", "connect-timeout",
			"write-out", "proxy", "range", "retry", "data-raw", "url"}}, dirSafe: true},
	"cut": {files: fileSpec{skipVal: "dfcb"}, dirSafe: true, options: "-b= -c= -d= -f= -n -s -z --bytes= --characters= --complement --delimiter= --fields= --help --only-delimited " +
		"--output-delimiter= --version --zero-terminated"},
	"date": {files: fileSpec{skipVal: "dsI", fileVal: "fr", longFile: []string{"file", "reference"},
		longSkip: []string{"date", "set"}, first: true}, dirSafe: true, options: "-d= -f= -I? -R -r= -s= -u --date= --debug --file= --help --iso-8601? --reference= --resolution --rfc-3339= " +
		"--rfc-email --set= --universal --utc --version"},
	"dd":      {dirSafe: true},
	"declare": {files: fileSpec{none: true}},
	"df": {dirSafe: true, options: "-a -B= -H -h -i -k -l -P -T -t= -v -x= --all --block-size= --exclude-type= --help --human-readable --inodes --local " +
		"--no-sync --output? --portability --print-type --si --sync --total --type= --version"},
	"diff": {files: fileSpec{skipVal: "xIFSLCUWD", fileVal: "X", recursive: "r", exact: true,
		longFile: []string{"exclude-from", "from-file", "to-file"},
		longSkip: []string{"exclude", "ignore-matching-lines", "show-function-line", "label", "context",
			"unified", "width", "starting-file", "ifdef", "horizon-lines", "tabsize", "color", "palette"}}, options: "-a -B -b -C= -c -D= -d -E -e -F= -I= -i -l -N -n -p -q -r -S= -s -T -t -U= -u -v -W= -w -X= -x= -y -Z --brief " +
		"--changed-group-format= --color? --context? --ed --exclude= --exclude-from= --expand-tabs --from-file= --help " +
		"--horizon-lines= --ifdef= --ignore-all-space --ignore-blank-lines --ignore-case --ignore-file-name-case " +
		"--ignore-matching-lines= --ignore-space-change --ignore-tab-expansion --ignore-trailing-space --initial-tab --label= " +
		"--left-column --line-format= --minimal --new-file --new-group-format= --new-line-format= --no-dereference " +
		"--no-ignore-file-name-case --normal --old-group-format= --old-line-format= --paginate --palette= --rcs --recursive " +
		"--report-identical-files --show-c-function --show-function-line= --side-by-side --speed-large-files --starting-file= " +
		"--strip-trailing-cr --suppress-blank-empty --suppress-common-lines --tabsize= --text --to-file= " +
		"--unchanged-group-format= --unchanged-line-format= --unidirectional-new-file --unified? --version --width="},
	"dirname": {files: fileSpec{none: true}, dirSafe: true, options: "-z --help --version --zero"},
	"dirs":    {files: fileSpec{none: true}},
	"docker":  {files: fileSpec{skipVal: "eptwu", longSkip: []string{"name", "env", "network", "user", "workdir", "entrypoint", "tag", "platform"}}},
	"du": {files: fileSpec{skipVal: "BdtX", longFile: []string{"files0-from", "exclude-from"}}, dirSafe: true, options: "-0 -a -B= -b -c -D -d= -H -h -k -L -l -m -P -S -s -t= -X= -x --all --apparent-size --block-size= --bytes " +
		"--count-links --dereference --dereference-args --exclude= --exclude-from= --files0-from= --help --human-readable " +
		"--inodes --max-depth= --no-dereference --null --one-file-system --separate-dirs --si --summarize --threshold= " +
		"--time? --time-style= --total --version"},
	"echo":   {files: fileSpec{none: true}},
	"egrep":  {files: grepSpec, dirSafe: true},
	"exit":   {files: fileSpec{none: true}},
	"expand": {dirSafe: true},
	"export": {files: fileSpec{none: true}},
	"expr":   {files: fileSpec{none: true}},
	"false":  {files: fileSpec{none: true}},
	"fgrep":  {files: grepSpec, dirSafe: true},
	"file": {dirSafe: true, options: "-0 -b -C -c -d -E -e= -F= -f= -h -i -k -L -l -m= -N -n -P= -p -r -S -s -v -Z -z --apple --brief --checking-printout " +
		"--compile --debug --dereference --exclude= --exclude-quiet= --extension --files-from= --help --keep-going --list " +
		"--magic-file= --mime --mime-encoding --mime-type --no-buffer --no-dereference --no-pad --no-sandbox --parameter= " +
		"--preserve-date --print0 --raw --separator= --special-files --uncompress --uncompress-noreport --version"},
	"find":    {dirSafe: true},
	"fmt":     {dirSafe: true},
	"fold":    {dirSafe: true},
	"gawk":    {files: awkSpec, dirSafe: true},
	"getopts": {files: fileSpec{none: true}},
	"git":     {files: fileSpec{skipVal: "mbBnU", longSkip: []string{"message", "author", "date", "format", "pretty", "grep"}}, dirSafe: true},
	"go":      {files: fileSpec{first: true, skipVal: "orpC", longSkip: []string{"run", "bench", "count", "timeout", "tags", "ldflags", "gcflags"}}, dirSafe: true},
	"grep": {files: grepSpec, dirSafe: true, options: "-NUM -A= -a -B= -b -C= -c -D= -d= -E -e= -F -f= -G -H -h -I -i -L -l -m= -n -o -P -q -R -r -s -T -U -V -v -w -x -Z -z " +
		"--after-context= --basic-regexp --before-context= --binary --binary-files= --byte-offset --color? --colour? --context= " +
		"--count --dereference-recursive --devices= --directories= --exclude= --exclude-dir= --exclude-from= --extended-regexp " +
		"--file= --files-with-matches --files-without-match --fixed-strings --group-separator= --help --ignore-case --include= " +
		"--initial-tab --invert-match --label= --line-buffered --line-number --line-regexp --max-count= --no-filename " +
		"--no-group-separator --no-ignore-case --no-messages --null --null-data --only-matching --perl-regexp --quiet " +
		"--recursive --regexp= --silent --text --version --with-filename --word-regexp"},
	"hash":     {files: fileSpec{none: true}},
	"head":     {files: fileSpec{skipVal: "nc", exact: true}, dirSafe: true, options: "-NUM -c= -n= -q -v -z --bytes= --help --lines= --quiet --silent --verbose --version --zero-terminated"},
	"hexdump":  {dirSafe: true},
	"hostname": {files: fileSpec{fileVal: "F", longFile: []string{"file"}}, dirSafe: true},
	"id":       {files: fileSpec{none: true}, options: "-a -G -g -n -r -u -Z -z --context --group --groups --help --name --real --user --version --zero"},
	"install":  {files: fileSpec{skipVal: "mgoS", writeVal: "t", writeLast: true, longWrite: []string{"target-directory"}}, dirSafe: true},
	"jobs":     {files: fileSpec{none: true}},
	"join":     {dirSafe: true},
	"jq": {files: fileSpec{skipVal: "", fileVal: "f", first: true, firstUnless: "f", longFile: []string{"from-file"}}, dirSafe: true, options: "-a -C -c -e -f= -h -j -L= -M -n -R -r -S -s -V --arg=2 --args --argjson=2 --ascii-output --build-configuration " +
		"--color-output --compact-output --exit-status --from-file= --help --indent= --join-output --jsonargs " +
		"--monochrome-output --null-input --raw-input --raw-output --raw-output0 --rawfile=2 --seq --slurp --slurpfile=2 " +
		"--sort-keys --stream --stream-errors --tab --unbuffered --version"},
	"kill":  {files: fileSpec{none: true}},
	"less":  {dirSafe: true},
	"let":   {files: fileSpec{none: true}},
	"ln":    {files: fileSpec{skipVal: "S", writeVal: "t", writeLast: true, longWrite: []string{"target-directory"}}, dirSafe: true},
	"local": {files: fileSpec{none: true}},
	"ls": {files: fileSpec{skipVal: "ITw", exact: true}, dirSafe: true, options: "-1 -A -a -B -b -C -c -D -d -F -f -G -g -H -h -I= -i -k -L -l -m -N -n -o -p -Q -q -R -r -S -s -T= -t -U -u -v -w= -X -x -Z " +
		"--all --almost-all --author --block-size= --classify? --color? --context --dereference --dereference-command-line " +
		"--dereference-command-line-symlink-to-dir --directory --dired --escape --file-type --format= --full-time " +
		"--group-directories-first --help --hide= --hide-control-chars --human-readable --hyperlink? --ignore= --ignore-backups " +
		"--indicator-style= --inode --kibibytes --literal --no-group --numeric-uid-gid --quote-name --quoting-style= --recursive " +
		"--reverse --show-control-chars --si --size --sort= --tabsize= --time= --time-style= --version --width= --zero"},
	"make":   {files: fileSpec{skipVal: "jl", fileVal: "fC"}, dirSafe: true},
	"mawk":   {files: awkSpec, dirSafe: true},
	"md5sum": {dirSafe: true, options: "-b -c -t -w -z --binary --check --help --ignore-missing --quiet --status --strict --tag --text --version --warn --zero"},
	"mkdir":  {files: fileSpec{skipVal: "m", writeAll: true, exact: true}, dirSafe: true},
	"mkfifo": {files: fileSpec{skipVal: "m", writeAll: true}, dirSafe: true},
	"more":   {dirSafe: true},
	"mv":     {files: fileSpec{skipVal: "S", writeVal: "t", writeAll: true, exact: true, longWrite: []string{"target-directory"}}, dirSafe: true},
	"nawk":   {files: awkSpec, dirSafe: true},
	"nl": {dirSafe: true, options: "-b= -d= -f= -h= -i= -l= -n= -p -s= -v= -w= --body-numbering= --footer-numbering= --header-numbering= --help " +
		"--join-blank-lines= --line-increment= --no-renumber --number-format= --number-separator= --number-width= " +
		"--section-delimiter= --starting-line-number= --version"},
	"node": {files: fileSpec{skipVal: "epr"}},
	"npm":  {files: fileSpec{first: true}},
	"numfmt": {files: fileSpec{none: true}, options: "-d= -z --debug --delimiter= --field= --format= --from= --from-unit= --grouping --header? --help " +
		"--invalid= --padding= --round= --suffix= --to= --to-unit= --unit-separator= --version --zero-terminated"},
	"od":      {dirSafe: true},
	"paste":   {dirSafe: true},
	"patch":   {files: fileSpec{skipVal: "pBDFVYzgd", fileVal: "i", writeVal: "or"}, dirSafe: true},
	"perl":    {files: fileSpec{skipVal: "eEMmIl", writeIf: "i", optVal: "i"}},
	"popd":    {files: fileSpec{none: true}, dirSafe: true},
	"printf":  {files: fileSpec{none: true}},
	"pushd":   {files: fileSpec{none: true}, dirSafe: true},
	"pwd":     {files: fileSpec{none: true}, options: "-L -P --help --version"},
	"python":  {files: fileSpec{skipVal: "cmWX"}},
	"python3": {files: fileSpec{skipVal: "cmWX"}},
	"read":    {files: fileSpec{none: true}},
	"readlink": {dirSafe: true, options: "-e -f -m -n -q -s -v -z --canonicalize --canonicalize-existing --canonicalize-missing --help --no-newline " +
		"--quiet --silent --verbose --version --zero"},
	"readonly": {files: fileSpec{none: true}},
	"realpath": {dirSafe: true, options: "-e -L -m -P -q -s -z --canonicalize-existing --canonicalize-missing --help --logical --no-symlinks --physical " +
		"--quiet --relative-base= --relative-to= --strip --version --zero"},
	"return": {files: fileSpec{none: true}},
	"rev":    {dirSafe: true, options: "-h -V -0 --help --version --zero"},
	"rg": {files: rgSpec, dirSafe: true, options: "-NUM -0 -A= -a -B= -C= -c -E= -e= -F -f= -g= -H -h -I -i -j= -L -l -M= -m= -N -n -o -p -q -r= -S -s -T= -t= -U -u -V -v -w -x -z " +
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
		"--with-filename --word-regexp"},
	"rm":    {files: fileSpec{writeAll: true, recursive: "rR", exact: true}, dirSafe: true},
	"rmdir": {files: fileSpec{writeAll: true, exact: true}, dirSafe: true},
	"rsync": {files: fileSpec{skipVal: "e", longSkip: []string{"rsh", "rsync-path"}, recursive: "ra", writeLast: true,
		longFile: []string{"files-from", "exclude-from", "include-from", "password-file"}}, dirSafe: true},
	"ruby": {files: fileSpec{skipVal: "eEIr"}},
	"scp":  {files: fileSpec{skipVal: "cJlPoDS", fileVal: "iF", recursive: "r", writeLast: true}, dirSafe: true},
	"sed": {files: fileSpec{exact: true, skipVal: "el", optVal: "i", fileVal: "f", first: true, firstUnless: "ef", writeIf: "i",
		longSkip: []string{"expression", "line-length"}, longFile: []string{"file"}}, dirSafe: true,
		// Every option but -i/--in-place (which writes the files): under
		// the embedded default policy, sed -n -i asks.
		options: "-E -e= -f= -l= -n -r -s -u -z --debug --expression= --file= --follow-symlinks --help --line-length= --null-data " +
			"--posix --quiet --regexp-extended --sandbox --separate --silent --unbuffered --version"},
	"seq":       {files: fileSpec{none: true}, options: "-f= -s= -w --equal-width --format= --help --separator= --version"},
	"set":       {files: fileSpec{none: true}},
	"sha1sum":   {dirSafe: true, options: "-b -c -t -w -z --binary --check --help --ignore-missing --quiet --status --strict --tag --text --version --warn --zero"},
	"sha256sum": {dirSafe: true, options: "-b -c -t -w -z --binary --check --help --ignore-missing --quiet --status --strict --tag --text --version --warn --zero"},
	"sha512sum": {dirSafe: true},
	"shift":     {files: fileSpec{none: true}},
	"shopt":     {files: fileSpec{none: true}},
	"shred":     {files: fileSpec{skipVal: "ns", writeAll: true}, dirSafe: true},
	"sleep":     {files: fileSpec{none: true}, options: "--help --version"},
	"sort": {files: fileSpec{skipVal: "tkS", writeVal: "oT", longFile: []string{"files0-from", "random-source"},
		longWrite: []string{"output", "temporary-directory"},
		longSkip:  []string{"key", "field-separator", "buffer-size", "parallel", "batch-size", "compress-program"}}, dirSafe: true, options: "-b -C -c -d -f -g -h -i -k= -M -m -n -o= -R -r -S= -s -T= -t= -u -V -z --batch-size= --buffer-size= --check? " +
		"--compress-program= --debug --dictionary-order --field-separator= --files0-from= --general-numeric-sort --help " +
		"--human-numeric-sort --ignore-case --ignore-leading-blanks --ignore-nonprinting --key= --merge --month-sort " +
		"--numeric-sort --output= --parallel= --random-sort --random-source= --reverse --sort= --stable --temporary-directory= " +
		"--unique --version --version-sort --zero-terminated"},
	"split":   {dirSafe: true},
	"ssh":     {files: fileSpec{fileVal: "iFESo"}, dirSafe: true},
	"stat":    {dirSafe: true, options: "-c= -f -L -t --cached= --dereference --file-system --format= --help --printf= --terse --version"},
	"strings": {dirSafe: true},
	"tac":     {dirSafe: true, options: "-b -r -s= --before --help --regex --separator= --version"},
	"tail": {files: fileSpec{skipVal: "ncs", exact: true}, dirSafe: true, options: "-NUM -c= -F -f -n= -q -s= -v -z --bytes= --follow? --help --lines= --max-unchanged-stats= --pid= --quiet --retry " +
		"--silent --sleep-interval= --verbose --version --zero-terminated"},
	"tar":   {dirSafe: true},
	"tee":   {files: fileSpec{writeAll: true, exact: true}, dirSafe: true},
	"test":  {dirSafe: true},
	"touch": {files: fileSpec{skipVal: "dt", fileVal: "r", writeAll: true}, dirSafe: true},
	"tr":    {files: fileSpec{none: true}, options: "-C -c -d -s -t --complement --delete --help --squeeze-repeats --truncate-set1 --version"},
	"trap":  {files: fileSpec{none: true}},
	"tree": {dirSafe: true, options: "-a -C -D -d -F -f -g -h -i -J -l -N -n -p -Q -q -R -r -S -s -t -U -u -v -X -x -c -H= -I= -L= -o= -P= -T= " +
		"--charset= --dirsfirst --du --filelimit= --filesfirst --fromfile --gitignore --help --hintro= --houtro= " +
		"--ignore-case --info --infofile= --inodes --matchdirs --metafirst --noreport --nolinks --prune --si --sort= " +
		"--timefmt= --device --version"},
	"true":     {files: fileSpec{none: true}},
	"truncate": {files: fileSpec{skipVal: "s", fileVal: "r", writeAll: true}, dirSafe: true},
	"type":     {files: fileSpec{none: true}, options: "-a -f -P -p -t"},
	"typeset":  {files: fileSpec{none: true}},
	"ulimit":   {files: fileSpec{none: true}},
	"umask":    {files: fileSpec{none: true}},
	"uname": {files: fileSpec{none: true}, options: "-a -i -m -n -o -p -r -s -v --all --hardware-platform --help --kernel-name --kernel-release --kernel-version " +
		"--machine --nodename --operating-system --processor --version"},
	"unexpand": {dirSafe: true},
	"uniq": {files: fileSpec{skipVal: "fsw", writeLast: true}, dirSafe: true, options: "-c -D -d -f= -i -s= -u -w= -z --all-repeated? --check-chars= --count --group? " +
		"--help --ignore-case --repeated --skip-chars= --skip-fields= --unique --version --zero-terminated"}, // uniq IN OUT writes OUT
	"unlink": {files: fileSpec{writeAll: true}, dirSafe: true},
	"unset":  {files: fileSpec{none: true}},
	"unzip":  {files: fileSpec{skipVal: "xP", writeVal: "d"}, dirSafe: true},
	"wait":   {files: fileSpec{none: true}},
	"wc":     {files: fileSpec{longFile: []string{"files0-from"}}, dirSafe: true, options: "-c -L -l -m -w --bytes --chars --files0-from= --help --lines --max-line-length --total= --version --words"},
	"wget": {files: fileSpec{skipVal: "tTUe", fileVal: "i", writeVal: "OoaP",
		longWrite: []string{"output-document", "output-file", "append-output", "directory-prefix", "save-cookies"},
		longFile:  []string{"input-file", "load-cookies", "config"},
		longSkip:  []string{"user", "password", "header", "user-agent", "tries", "timeout"}}, dirSafe: true},
	"which":  {files: fileSpec{none: true}, options: "-a -s"},
	"whoami": {files: fileSpec{none: true}, options: "--help --version"},
	"xxd":    {dirSafe: true},
	"yes":    {files: fileSpec{none: true}},
	"zip":    {files: fileSpec{skipVal: "bnPtx", first: false, writeLast: false, recursive: "rR"}, dirSafe: true},
}
