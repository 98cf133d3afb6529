package parser

import (
	"strings"
	"sync"
)

// programOptions lists, per program the embedded default policy allows,
// every option its --help documents (GNU coreutils 9, grep 3, diffutils
// 3, file 5, jq 1.6/1.7; ripgrep and tree from their manuals). A token
// is the option as written, followed by what comes after it:
//
//	-n        a flag (clusters: -rn)
//	-n=       takes a value (-n5, -n 5, --lines=5, --lines 5)
//	--color?  an optional value, only attached (--color=auto)
//	--arg=2   takes two values (jq --arg NAME VALUE)
//	-NUM      -5 means a number (head -5, grep -3)
//
// Under the embedded default policy a command of one of these programs
// passes only with options listed here: another option is the finding
// policy.unknown_option (ask), since it may write a file or run a
// program (DESIGN.md: unknown is not harmless). A policy file's own allow
// rules trust the program as the README's Limits say. Programs not listed
// (wrappers, git and go, whose inner commands and subcommands are judged
// on their own) are not checked this way.
var programOptions = map[string]string{
	"ls": "-1 -A -a -B -b -C -c -D -d -F -f -G -g -H -h -I= -i -k -L -l -m -N -n -o -p -Q -q -R -r -S -s -T= -t -U -u -v -w= -X -x -Z " +
		"--all --almost-all --author --block-size= --classify? --color? --context --dereference --dereference-command-line " +
		"--dereference-command-line-symlink-to-dir --directory --dired --escape --file-type --format= --full-time " +
		"--group-directories-first --help --hide= --hide-control-chars --human-readable --hyperlink? --ignore= --ignore-backups " +
		"--indicator-style= --inode --kibibytes --literal --no-group --numeric-uid-gid --quote-name --quoting-style= --recursive " +
		"--reverse --show-control-chars --si --size --sort= --tabsize= --time= --time-style= --version --width= --zero",
	"cat":  "-A -b -E -e -n -s -T -t -u -v --help --number --number-nonblank --show-all --show-ends --show-nonprinting --show-tabs --squeeze-blank --version",
	"head": "-NUM -c= -n= -q -v -z --bytes= --help --lines= --quiet --silent --verbose --version --zero-terminated",
	"tail": "-NUM -c= -F -f -n= -q -s= -v -z --bytes= --follow? --help --lines= --max-unchanged-stats= --pid= --quiet --retry " +
		"--silent --sleep-interval= --verbose --version --zero-terminated",
	"wc": "-c -L -l -m -w --bytes --chars --files0-from= --help --lines --max-line-length --total= --version --words",
	"grep": "-NUM -A= -a -B= -b -C= -c -D= -d= -E -e= -F -f= -G -H -h -I -i -L -l -m= -n -o -P -q -R -r -s -T -U -V -v -w -x -Z -z " +
		"--after-context= --basic-regexp --before-context= --binary --binary-files= --byte-offset --color? --colour? --context= " +
		"--count --dereference-recursive --devices= --directories= --exclude= --exclude-dir= --exclude-from= --extended-regexp " +
		"--file= --files-with-matches --files-without-match --fixed-strings --group-separator= --help --ignore-case --include= " +
		"--initial-tab --invert-match --label= --line-buffered --line-number --line-regexp --max-count= --no-filename " +
		"--no-group-separator --no-ignore-case --no-messages --null --null-data --only-matching --perl-regexp --quiet " +
		"--recursive --regexp= --silent --text --version --with-filename --word-regexp",
	"rg": "-NUM -0 -A= -a -B= -C= -c -E= -e= -F -f= -g= -H -h -I -i -j= -L -l -M= -m= -N -n -o -p -q -r= -S -s -T= -t= -U -u -V -v -w -x -z " +
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
	"sort": "-b -C -c -d -f -g -h -i -k= -M -m -n -o= -R -r -S= -s -T= -t= -u -V -z --batch-size= --buffer-size= --check? " +
		"--compress-program= --debug --dictionary-order --field-separator= --files0-from= --general-numeric-sort --help " +
		"--human-numeric-sort --ignore-case --ignore-leading-blanks --ignore-nonprinting --key= --merge --month-sort " +
		"--numeric-sort --output= --parallel= --random-sort --random-source= --reverse --sort= --stable --temporary-directory= " +
		"--unique --version --version-sort --zero-terminated",
	"cut": "-b= -c= -d= -f= -n -s -z --bytes= --characters= --complement --delimiter= --fields= --help --only-delimited " +
		"--output-delimiter= --version --zero-terminated",
	"tr": "-C -c -d -s -t --complement --delete --help --squeeze-repeats --truncate-set1 --version",
	"nl": "-b= -d= -f= -h= -i= -l= -n= -p -s= -v= -w= --body-numbering= --footer-numbering= --header-numbering= --help " +
		"--join-blank-lines= --line-increment= --no-renumber --number-format= --number-separator= --number-width= " +
		"--section-delimiter= --starting-line-number= --version",
	"tac": "-b -r -s= --before --help --regex --separator= --version",
	"rev": "-h -V -0 --help --version --zero",
	"column": "-c= -d -E= -e -H= -h -i= -J -L -l= -N= -n= -O= -o= -p= -R= -r= -s= -T= -t -V -W= -x --fillrows --help --json " +
		"--keep-empty-lines --output-separator= --output-width= --separator= --table --table-columns= --table-columns-limit= " +
		"--table-header-repeat --table-hide= --table-name= --table-noextreme= --table-noheadings --table-order= --table-right= " +
		"--table-truncate= --table-wrap= --tree= --tree-id= --tree-parent= --version",
	"diff": "-a -B -b -C= -c -D= -d -E -e -F= -I= -i -l -N -n -p -q -r -S= -s -T -t -U= -u -v -W= -w -X= -x= -y -Z --brief " +
		"--changed-group-format= --color? --context? --ed --exclude= --exclude-from= --expand-tabs --from-file= --help " +
		"--horizon-lines= --ifdef= --ignore-all-space --ignore-blank-lines --ignore-case --ignore-file-name-case " +
		"--ignore-matching-lines= --ignore-space-change --ignore-tab-expansion --ignore-trailing-space --initial-tab --label= " +
		"--left-column --line-format= --minimal --new-file --new-group-format= --new-line-format= --no-dereference " +
		"--no-ignore-file-name-case --normal --old-group-format= --old-line-format= --paginate --palette= --rcs --recursive " +
		"--report-identical-files --show-c-function --show-function-line= --side-by-side --speed-large-files --starting-file= " +
		"--strip-trailing-cr --suppress-blank-empty --suppress-common-lines --tabsize= --text --to-file= " +
		"--unchanged-group-format= --unchanged-line-format= --unidirectional-new-file --unified? --version --width=",
	"cmp":       "-b -i= -l -n= -s -v --bytes= --help --ignore-initial= --print-bytes --quiet --silent --verbose --version",
	"comm":      "-1 -2 -3 -z --check-order --help --nocheck-order --output-delimiter= --total --version --zero-terminated",
	"md5sum":    "-b -c -t -w -z --binary --check --help --ignore-missing --quiet --status --strict --tag --text --version --warn --zero",
	"sha1sum":   "-b -c -t -w -z --binary --check --help --ignore-missing --quiet --status --strict --tag --text --version --warn --zero",
	"sha256sum": "-b -c -t -w -z --binary --check --help --ignore-missing --quiet --status --strict --tag --text --version --warn --zero",
	"jq": "-a -C -c -e -f= -h -j -L= -M -n -R -r -S -s -V --arg=2 --args --argjson=2 --ascii-output --build-configuration " +
		"--color-output --compact-output --exit-status --from-file= --help --indent= --join-output --jsonargs " +
		"--monochrome-output --null-input --raw-input --raw-output --raw-output0 --rawfile=2 --seq --slurp --slurpfile=2 " +
		"--sort-keys --stream --stream-errors --tab --unbuffered --version",
	"stat": "-c= -f -L -t --cached= --dereference --file-system --format= --help --printf= --terse --version",
	"du": "-0 -a -B= -b -c -D -d= -H -h -k -L -l -m -P -S -s -t= -X= -x --all --apparent-size --block-size= --bytes " +
		"--count-links --dereference --dereference-args --exclude= --exclude-from= --files0-from= --help --human-readable " +
		"--inodes --max-depth= --no-dereference --null --one-file-system --separate-dirs --si --summarize --threshold= " +
		"--time? --time-style= --total --version",
	"df": "-a -B= -H -h -i -k -l -P -T -t= -v -x= --all --block-size= --exclude-type= --help --human-readable --inodes --local " +
		"--no-sync --output? --portability --print-type --si --sync --total --type= --version",
	"file": "-0 -b -C -c -d -E -e= -F= -f= -h -i -k -L -l -m= -N -n -P= -p -r -S -s -v -Z -z --apple --brief --checking-printout " +
		"--compile --debug --dereference --exclude= --exclude-quiet= --extension --files-from= --help --keep-going --list " +
		"--magic-file= --mime --mime-encoding --mime-type --no-buffer --no-dereference --no-pad --no-sandbox --parameter= " +
		"--preserve-date --print0 --raw --separator= --special-files --uncompress --uncompress-noreport --version",
	"realpath": "-e -L -m -P -q -s -z --canonicalize-existing --canonicalize-missing --help --logical --no-symlinks --physical " +
		"--quiet --relative-base= --relative-to= --strip --version --zero",
	"readlink": "-e -f -m -n -q -s -v -z --canonicalize --canonicalize-existing --canonicalize-missing --help --no-newline " +
		"--quiet --silent --verbose --version --zero",
	"basename": "-a -s= -z --help --multiple --suffix= --version --zero",
	"dirname":  "-z --help --version --zero",
	"tree": "-a -C -D -d -F -f -g -h -i -J -l -N -n -p -Q -q -R -r -S -s -t -U -u -v -X -x -c -H= -I= -L= -o= -P= -T= " +
		"--charset= --dirsfirst --du --filelimit= --filesfirst --fromfile --gitignore --help --hintro= --houtro= " +
		"--ignore-case --info --infofile= --inodes --matchdirs --metafirst --noreport --nolinks --prune --si --sort= " +
		"--timefmt= --device --version",
	"seq":    "-f= -s= -w --equal-width --format= --help --separator= --version",
	"sleep":  "--help --version",
	"whoami": "--help --version",
	"id":     "-a -G -g -n -r -u -Z -z --context --group --groups --help --name --real --user --version --zero",
	"uname": "-a -i -m -n -o -p -r -s -v --all --hardware-platform --help --kernel-name --kernel-release --kernel-version " +
		"--machine --nodename --operating-system --processor --version",
	"date": "-d= -f= -I? -R -r= -s= -u --date= --debug --file= --help --iso-8601? --reference= --resolution --rfc-3339= " +
		"--rfc-email --set= --universal --utc --version",
	"pwd":   "-L -P --help --version",
	"which": "-a -s",
	"type":  "-a -f -P -p -t",
	"cd":    "-L -P -e -@",
}

// optTable is one program's parsed programOptions entry.
type optTable struct {
	short [128]byte       // 0 unknown, 'f' flag, '=' value, '?' optional attached value
	long  map[string]byte // the same, and '2' for two values
	num   bool            // -NUM is known
}

var optTables = sync.OnceValue(func() map[string]*optTable {
	m := make(map[string]*optTable, len(programOptions)+2)
	for prog, spec := range programOptions {
		t := &optTable{long: map[string]byte{}}
		for _, tok := range strings.Fields(spec) {
			kind := byte('f')
			if c := tok[len(tok)-1]; c == '=' || c == '?' || c == '2' && strings.HasSuffix(tok, "=2") {
				kind = c
				tok = strings.TrimSuffix(tok[:len(tok)-1], "=")
			}
			switch {
			case tok == "-NUM":
				t.num = true
			case strings.HasPrefix(tok, "--"):
				t.long[tok[2:]] = kind
			case len(tok) == 2:
				t.short[tok[1]] = kind
			default:
				panic("parser: bad programOptions token " + tok + " for " + prog)
			}
		}
		m[prog] = t
	}
	m["egrep"], m["fgrep"] = m["grep"], m["grep"]
	return m
})

// kind returns how the long option name (maybe abbreviated, as
// getopt_long accepts) is read, or 0 when the table does not know it.
func (t *optTable) kind(name string) byte {
	if k, ok := t.long[name]; ok {
		return k
	}
	var found byte
	for l, k := range t.long {
		if strings.HasPrefix(l, name) {
			if found != 0 && found != k {
				return '=' // ambiguous: getopt refuses it; read as taking a value, the safe way
			}
			found = k
		}
	}
	return found
}

// unknownOptions reports the options of args that base's entry in
// programOptions does not list (nothing for a program without an entry).
// Dynamic words are not reported here: they are unknown file references
// and policy.dangerous_option already.
func unknownOptions(cmd *Command, base string, args []Word) {
	t := optTables()[base]
	if t == nil {
		return
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.Value
		if a.Dynamic || len(v) < 2 || v[0] != '-' {
			continue // an operand: GNU programs take options after operands too
		}
		if v == "--" {
			return
		}
		if v[1] == '-' {
			name, _, hasVal := strings.Cut(v[2:], "=")
			switch k := t.kind(name); {
			case k == 0 || k == 'f' && hasVal:
				cmd.UnknownOptions = append(cmd.UnknownOptions, a)
			case k == '=' && !hasVal:
				i++
			case k == '2':
				if !hasVal {
					i++
				}
				i++
			}
			continue
		}
		if t.num && isDigits(v[1:]) {
			continue
		}
		for j := 1; j < len(v); j++ {
			c := v[j]
			k := byte(0)
			if c < 128 {
				k = t.short[c]
			}
			if k == 0 {
				cmd.UnknownOptions = append(cmd.UnknownOptions, a)
				break
			}
			if k == '=' || k == '?' {
				if k == '=' && j == len(v)-1 {
					i++ // the value is the next word
				}
				break
			}
		}
	}
}
