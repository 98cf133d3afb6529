package parser

// coreutilsExamples are the examples of the entries of programs_coreutils.go, beside
// them: see programExamples.
var coreutilsExamples = map[string][]programExample{
	// The ten entries with file semantics that no test named (issue 23),
	// each judged with the real program (GNU coreutils 9.1, cpio 2.13).
	"shred": {
		{cmd: "shred -n 1 -s 4 f", reading: "f:w", setup: "f"},
		{cmd: "shred -u f", reading: "f:w", setup: "f"},
	},
	"truncate": {
		{cmd: "truncate -s 0 f", reading: "f:w", setup: "f"},
		{cmd: "truncate -r ref new", reading: "ref new:w", setup: "ref"},
	},
	"unlink": {{cmd: "unlink f", reading: "f:w:rm", setup: "f"}},
	"rmdir": {
		{cmd: "rmdir d", reading: "d:w:rm", setup: "d/"},
		// rmdir -p removes d too, which the command does not name: a
		// guarded option (it was read as removing d/e alone).
		{cmd: "rmdir -p d/e", reading: "d/e:w:rm hit:rmdir_-p", setup: "d/ d/e/"},
		{cmd: "rmdir -vp d/e", reading: "d/e:w:rm hit:rmdir_-vp", setup: "d/ d/e/"},
		{cmd: "rmdir --pa d/e", reading: "d/e:w:rm hit:rmdir_--pa", setup: "d/ d/e/"},
		{cmd: "rmdir --ignore-fail-on-non-empty d", reading: "d:w:rm", setup: "d/"},
	},
	"mkfifo": {{cmd: "mkfifo -m 600 p", reading: "p:w", setup: "-"}},
	"chgrp": {
		{cmd: "chgrp 0 f", reading: "f:w", setup: "f"},
		{cmd: "chgrp -R 0 d", reading: "d:w:rec", setup: "d/ d/x"},
	},
	"readlink": {{cmd: "readlink -f l", reading: "l:list", setup: "l"}},
	"realpath": {{cmd: "realpath f", reading: "f:list", setup: "f"}},
	"cksum": {
		{cmd: "cksum f", reading: "f", setup: "f"},
		{cmd: "cksum -c sums", reading: "sums hit:cksum_-c"},
	},
	// patch ORIGFILE: rewritten (it was read as read).
	"patch": {{cmd: "patch -i p a", reading: "p a:w unknown"}},

	// More entries with file semantics, judged with the real program.
	"chmod": {{cmd: "chmod 600 f", reading: "f:w", setup: "f"}},
	"chown": {{cmd: "chown 0 f", reading: "f:w", setup: "f"}},
	"touch": {{cmd: "touch -r ref f", reading: "ref f:w", setup: "ref"}},
	"mkdir": {{cmd: "mkdir -m 700 d", reading: "d:w", setup: "-"}},
	"tee":   {{cmd: "tee out < in", reading: "in out:w", setup: "in"}},
	"cp":    {{cmd: "cp a b", reading: "a b:w", setup: "a"}},
	"mv":    {{cmd: "mv a b", reading: "a:w b:w", setup: "a"}},
	"ln":    {{cmd: "ln -s a b", reading: "a b:w", setup: "a"}},
	"rm":    {{cmd: "rm -f a", reading: "a:w:rm", setup: "a"}},
	// link FILE1 FILE2 makes FILE2 (coreutils 9.1; it refuses a
	// directory): it was read as reading both, recursively.
	"link": {{cmd: "link a b", reading: "a b:w", setup: "a"}},
	// Entries for the files they write that the analysis does not list
	// (writesUnlisted, for WriteThenRun), whose operands are read as a
	// program without an entry's are. Not run: this reading does not
	// name what they write (csplit's xx00, gunzip's a), which is what
	// the entry says instead.
	"csplit":      {{cmd: "csplit in 2", reading: "in:rec 2:rec"}},
	"rename":      {{cmd: "rename .txt .md a.txt", reading: ".txt:rec .md:rec a.txt:rec"}},
	"prename":     {{cmd: "prename s/a/b/ a", reading: "s/a/b/:rec a:rec"}},
	"file-rename": {{cmd: "file-rename s/a/b/ a", reading: "s/a/b/:rec a:rec"}},
	// split writes partaa, partab in ".", read as written; "part" is the
	// prefix, never a file of its own.
	"split": {
		{cmd: "split -l 1 in part", reading: "in .:w part:w", setup: "in", unjudged: "part"},
		// --filter=COMMAND runs COMMAND through the shell for each
		// piece (GNU split 9.1: split --filter='touch pwned; cat
		// >/dev/null' -n 2 f makes pwned), abbreviated too: a guard (it
		// had none).
		{cmd: "split --filter='cat >/dev/null' -n 2 in", reading: "in .:w x:w hit:split_--filter=cat_>/dev/null"},
		{cmd: "split -n 2 --fil 'sh x' in p", reading: "in .:w p:w hit:split_--fil"},
	},
	"paste":  {{cmd: "paste a b", reading: "a b", setup: "a b"}},
	"comm":   {{cmd: "comm a b", reading: "a b", setup: "a b"}},
	"join":   {{cmd: "join a b", reading: "a b", setup: "a b"}},
	"expand": {{cmd: "expand a", reading: "a", setup: "a"}},
	"base32": {{cmd: "base32 a", reading: "a", setup: "a"}},
	"column": {{cmd: "column -t a", reading: "a", setup: "a"}},
	"sort": {
		{cmd: "sort -o out in", reading: "out:w in hit:sort_-o", setup: "in"},
	},
	"uniq": {{cmd: "uniq in out", reading: "in out:w hit:uniq_out", setup: "in"}},
	"dd":   {{cmd: "dd if=in of=out status=none", reading: "in out:w", setup: "in"}},
	"install": {
		{cmd: "install -m 644 a b", reading: "a b:w", setup: "a"},
		// install -d makes each operand a directory (it was read as reading them).
		{cmd: "install -d d e", reading: "d:w e:w", setup: "-"},
		{cmd: "install --dir d", reading: "d:w", setup: "-"},
	},

	// Rows whose reading was reviewed against the program's manual; with
	// a setup, also judged with the real program under strace.
	"cat":        {{cmd: "cat a b", reading: "a b", setup: "a b"}},
	"head":       {{cmd: "head -n 1 a", reading: "a", setup: "a"}},
	"tail":       {{cmd: "tail -c 2 a", reading: "a", setup: "a"}},
	"wc":         {{cmd: "wc -l a", reading: "a", setup: "a"}},
	"cut":        {{cmd: "cut -d ' ' -f 1 a", reading: " :maybe a", setup: "a"}},
	"tr":         {{cmd: "tr a b < a", reading: "a", setup: "a"}},
	"nl":         {{cmd: "nl a", reading: "a", setup: "a"}},
	"tac":        {{cmd: "tac a", reading: "a", setup: "a"}},
	"rev":        {{cmd: "rev a", reading: "a", setup: "a"}},
	"fold":       {{cmd: "fold a", reading: "a", setup: "a"}},
	"fmt":        {{cmd: "fmt a", reading: "a", setup: "a"}},
	"unexpand":   {{cmd: "unexpand a", reading: "a", setup: "a"}},
	"base64":     {{cmd: "base64 a", reading: "a", setup: "a"}},
	"b2sum":      {{cmd: "b2sum a", reading: "a", setup: "a"}},
	"md5sum":     {{cmd: "md5sum a", reading: "a", setup: "a"}},
	"sha1sum":    {{cmd: "sha1sum a", reading: "a", setup: "a"}},
	"sha224sum":  {{cmd: "sha224sum a", reading: "a:rec", setup: "a"}},
	"sha256sum":  {{cmd: "sha256sum a", reading: "a", setup: "a"}},
	"sha384sum":  {{cmd: "sha384sum a", reading: "a:rec", setup: "a"}},
	"sha512sum":  {{cmd: "sha512sum a", reading: "a", setup: "a"}},
	"cmp":        {{cmd: "cmp a b", reading: "a b", setup: "a b"}},
	"diff":       {{cmd: "diff a b", reading: "a:rec b:rec", setup: "a b"}},
	"grep":       {{cmd: "grep -r x d", reading: "x:maybe d:rec", setup: "d/ d/a"}},
	"egrep":      {{cmd: "egrep x a", reading: "x:maybe a", setup: "a"}},
	"fgrep":      {{cmd: "fgrep x a", reading: "x:maybe a", setup: "a"}},
	"sed":        {{cmd: "sed -i s/a/b/ a", reading: "s/a/b/:maybe a:w unknown-option:-i", setup: "a"}},
	"awk":        {{cmd: "awk {print} a", reading: "{print}:maybe a", setup: "a"}},
	"gawk":       {{cmd: "gawk {print} a", reading: "{print}:maybe a", setup: "a"}},
	"mawk":       {{cmd: "mawk {print} a", reading: "{print}:maybe a", setup: "a"}},
	"nawk":       {{cmd: "nawk {print} a", reading: "{print}:maybe a", setup: "a"}},
	"ls":         {{cmd: "ls -l a", reading: "a:list", setup: "a"}},
	"stat":       {{cmd: "stat a", reading: "a:list", setup: "a"}},
	"du":         {{cmd: "du -s d", reading: "d:list", setup: "d/ d/a"}},
	"df":         {{cmd: "df .", reading: ".", setup: "-"}},
	"file":       {{cmd: "file a", reading: "a", setup: "a"}},
	"xxd":        {{cmd: "xxd a b", reading: "a b:w hit:xxd_b", setup: "a"}},
	"basename":   {{cmd: "basename a/b", reading: "", setup: "-"}},
	"dirname":    {{cmd: "dirname a/b", reading: "", setup: "-"}},
	"seq":        {{cmd: "seq 3", reading: "", setup: "-"}},
	"sleep":      {{cmd: "sleep 0", reading: "", setup: "-"}},
	"id":         {{cmd: "id -u", reading: "", setup: "-"}},
	"whoami":     {{cmd: "whoami", reading: "", setup: "-"}},
	"uname":      {{cmd: "uname -a", reading: "", setup: "-"}},
	"numfmt":     {{cmd: "numfmt --to=si 1000", reading: "", setup: "-"}},
	"jq":         {{cmd: "jq . a", reading: ".:maybe a", setup: "a"}},
	"rg":         {{cmd: "rg x d", reading: "x:maybe d:rec", setup: "d/ d/a"}},
	"find":       {{cmd: "find . -name a -delete", reading: ".:w:rec hit:find_-delete", setup: "a"}},
	"which":      {{cmd: "which ls", reading: ""}},
	"kill":       {{cmd: "kill 1", reading: ""}},
	"expr":       {{cmd: "expr 1 + 1", reading: ""}},
	"yes":        {{cmd: "yes", reading: ""}},
	"ack":        {{cmd: "ack x d", reading: "x:maybe d:rec"}},
	"ag":         {{cmd: "ag x d", reading: "x:maybe d:rec"}},
	"bat":        {{cmd: "bat a", reading: "a:rec"}},
	"gsed":       {{cmd: "gsed -n 1p a", reading: "1p:rec a:rec"}},
	"tree":       {{cmd: "tree -a d", reading: "d"}},
	"xcodebuild": {{cmd: "xcodebuild -project p", reading: "roject:maybe oject:maybe ject:maybe ect:maybe ct:maybe t:maybe p:rec"}},
}
