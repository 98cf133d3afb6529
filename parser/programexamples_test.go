package parser

import (
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// programExample is one example of an entry of the program table: a
// command and how the analysis reads it.
type programExample struct {
	cmd string
	// reading is what Analyze(cmd) finds, in order, space separated (see
	// exampleReading): each file reference as path[:w][:rm][:rec][:list]
	// [:maybe], "unknown" for a reference the gate cannot see, "hit:WHAT"
	// for a guarded option (spaces as _), "unknown-option:OPT",
	// "finding:RULE".
	reading string
	// setup, for a row judged against the real program
	// (TestProgramExamplesReal): the files made in an empty directory
	// before cmd runs there under strace, space separated, "d/" a
	// directory, "-" nothing, "@git" a git repository (git init; what git
	// does under .git/ is git's own store, not judged here). Empty: the
	// row is not run.
	setup string
	// unjudged: paths of the reading the real program need not touch,
	// each with its reason in a comment on the row (split's prefix).
	unjudged string
}

// programExamples names, for each entry of the program table (programs
// and subcommands, as entries() names them), at least one command and its
// reading. TestProgramExamples checks every row against Analyze;
// TestProgramExamplesReal runs the rows with a setup in a throwaway
// directory under strace and checks the reading against what the real
// program opened, wrote and removed; TestEveryProgramHasARow fails for an
// entry without a row.
var programExamples = map[string][]programExample{
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
	// cpio is not installed here: judged from the GNU cpio 2.13 manual.
	// Every mode reads or writes the files named in its input (-o
	// archives the names on stdin: it was read as naming none); -F is
	// the archive (it was read as no file).
	// zip ARCHIVE FILE: the archive is written (it was read as read).
	"zip": {
		{cmd: "zip -q o.zip a", reading: "o.zip:w a", setup: "a"},
		{cmd: "zip -r -q o.zip d", reading: "o.zip:w d:rec", setup: "d/ d/a"},
	},
	// patch ORIGFILE: rewritten (it was read as read).
	"patch": {{cmd: "patch -i p a", reading: "p a:w unknown"}},
	"cpio": {
		{cmd: "cpio -i -F a.cpio", reading: "a.cpio:w unknown"},
		{cmd: "cpio -o -O a.cpio", reading: "a.cpio:w unknown"},
		{cmd: "cpio -p -d dest", reading: "dest unknown"},
		// The long spellings: --create names no letter, --file is -F.
		{cmd: "cpio --create --file=a.cpio", reading: "a.cpio:w unknown"},
		{cmd: "cpio --extract < a.cpio", reading: "a.cpio unknown"},
	},

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
	// Entries for what they change of later paths (changes), whose
	// operands are read as a program without an entry's are: every one,
	// recursively. Not run: mount and umount need a mount namespace,
	// bindfs and the renames are not installed here.
	"mount": {{cmd: "mount --bind a b", reading: "a:rec b:rec"}},
	// Entries for the files they write that the analysis does not list
	// (writesUnlisted, for WriteThenRun), whose operands are read as a
	// program without an entry's are. Not run: this reading does not
	// name what they write (csplit's xx00, gunzip's a), which is what
	// the entry says instead.
	"csplit":      {{cmd: "csplit in 2", reading: "in:rec 2:rec"}},
	"gunzip":      {{cmd: "gunzip a.gz", reading: "a.gz:rec"}},
	"bunzip2":     {{cmd: "bunzip2 a.bz2", reading: "a.bz2:rec"}},
	"unxz":        {{cmd: "unxz a.xz", reading: "a.xz:rec"}},
	"unzstd":      {{cmd: "unzstd a.zst", reading: "a.zst:rec"}},
	"7z":          {{cmd: "7z x a.7z", reading: "x:rec a.7z:rec"}},
	"7za":         {{cmd: "7za x a.7z", reading: "x:rec a.7z:rec"}},
	"bsdtar":      {{cmd: "bsdtar -xf a.tar", reading: "f:maybe a.tar:rec"}},
	"umount":      {{cmd: "umount b", reading: "b:rec"}},
	"bindfs":      {{cmd: "bindfs a b", reading: "a:rec b:rec"}},
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
	"cat":       {{cmd: "cat a b", reading: "a b", setup: "a b"}},
	"head":      {{cmd: "head -n 1 a", reading: "a", setup: "a"}},
	"tail":      {{cmd: "tail -c 2 a", reading: "a", setup: "a"}},
	"wc":        {{cmd: "wc -l a", reading: "a", setup: "a"}},
	"cut":       {{cmd: "cut -d ' ' -f 1 a", reading: " :maybe a", setup: "a"}},
	"tr":        {{cmd: "tr a b < a", reading: "a", setup: "a"}},
	"nl":        {{cmd: "nl a", reading: "a", setup: "a"}},
	"tac":       {{cmd: "tac a", reading: "a", setup: "a"}},
	"rev":       {{cmd: "rev a", reading: "a", setup: "a"}},
	"fold":      {{cmd: "fold a", reading: "a", setup: "a"}},
	"fmt":       {{cmd: "fmt a", reading: "a", setup: "a"}},
	"unexpand":  {{cmd: "unexpand a", reading: "a", setup: "a"}},
	"base64":    {{cmd: "base64 a", reading: "a", setup: "a"}},
	"b2sum":     {{cmd: "b2sum a", reading: "a", setup: "a"}},
	"md5sum":    {{cmd: "md5sum a", reading: "a", setup: "a"}},
	"sha1sum":   {{cmd: "sha1sum a", reading: "a", setup: "a"}},
	"sha224sum": {{cmd: "sha224sum a", reading: "a:rec", setup: "a"}},
	"sha256sum": {{cmd: "sha256sum a", reading: "a", setup: "a"}},
	"sha384sum": {{cmd: "sha384sum a", reading: "a:rec", setup: "a"}},
	"sha512sum": {{cmd: "sha512sum a", reading: "a", setup: "a"}},
	"cmp":       {{cmd: "cmp a b", reading: "a b", setup: "a b"}},
	"diff":      {{cmd: "diff a b", reading: "a:rec b:rec", setup: "a b"}},
	"grep":      {{cmd: "grep -r x d", reading: "x:maybe d:rec", setup: "d/ d/a"}},
	"egrep":     {{cmd: "egrep x a", reading: "x:maybe a", setup: "a"}},
	"fgrep":     {{cmd: "fgrep x a", reading: "x:maybe a", setup: "a"}},
	"sed":       {{cmd: "sed -i s/a/b/ a", reading: "s/a/b/:maybe a:w unknown-option:-i", setup: "a"}},
	"awk":       {{cmd: "awk {print} a", reading: "{print}:maybe a", setup: "a"}},
	"gawk":      {{cmd: "gawk {print} a", reading: "{print}:maybe a", setup: "a"}},
	"mawk":      {{cmd: "mawk {print} a", reading: "{print}:maybe a", setup: "a"}},
	"nawk":      {{cmd: "nawk {print} a", reading: "{print}:maybe a", setup: "a"}},
	"ls":        {{cmd: "ls -l a", reading: "a:list", setup: "a"}},
	"stat":      {{cmd: "stat a", reading: "a:list", setup: "a"}},
	"du":        {{cmd: "du -s d", reading: "d:list", setup: "d/ d/a"}},
	"df":        {{cmd: "df .", reading: ".", setup: "-"}},
	"file":      {{cmd: "file a", reading: "a", setup: "a"}},
	"xxd":       {{cmd: "xxd a b", reading: "a b:w hit:xxd_b", setup: "a"}},
	"less":      {{cmd: "less a", reading: "a", setup: "a"}},
	"more":      {{cmd: "more a", reading: "a", setup: "a"}},
	"basename":  {{cmd: "basename a/b", reading: "", setup: "-"}},
	"dirname":   {{cmd: "dirname a/b", reading: "", setup: "-"}},
	"echo":      {{cmd: "echo a > b", reading: "b:w", setup: "-"}},
	"printf":    {{cmd: "printf x > b", reading: "b:w", setup: "-"}},
	"true":      {{cmd: "true", reading: "", setup: "-"}},
	"false":     {{cmd: "false", reading: ""}},
	"seq":       {{cmd: "seq 3", reading: "", setup: "-"}},
	"sleep":     {{cmd: "sleep 0", reading: "", setup: "-"}},
	"pwd":       {{cmd: "pwd", reading: "", setup: "-"}},
	"id":        {{cmd: "id -u", reading: "", setup: "-"}},
	"whoami":    {{cmd: "whoami", reading: "", setup: "-"}},
	"uname":     {{cmd: "uname -a", reading: "", setup: "-"}},
	"numfmt":    {{cmd: "numfmt --to=si 1000", reading: "", setup: "-"}},
	"date":      {{cmd: "date -r a", reading: "a", setup: "a"}},
	"hostname":  {{cmd: "hostname -f", reading: ""}},
	"nproc":     {{cmd: "nproc", reading: "", setup: "-"}},
	"arch":      {{cmd: "arch", reading: "", setup: "-"}},
	"groups":    {{cmd: "groups", reading: "", setup: "-"}},
	"uptime":    {{cmd: "uptime -p", reading: "", setup: "-"}},
	"free":      {{cmd: "free -m", reading: "", setup: "-"}},
	"jq":        {{cmd: "jq . a", reading: ".:maybe a", setup: "a"}},
	"rg":        {{cmd: "rg x d", reading: "x:maybe d:rec", setup: "d/ d/a"}},
	"tar":       {{cmd: "tar -cf o.tar a", reading: "o.tar:w a:rec", setup: "a"}},
	"unzip":     {{cmd: "unzip -q o.zip", reading: "o.zip unknown"}},
	"test":      {{cmd: "test -f a", reading: "a", setup: "a"}},
	"[":         {{cmd: "[ -f a ]", reading: "a", setup: "a"}},
	"[[":        {{cmd: "[[ -f a ]]", reading: "a"}},
	"perl":      {{cmd: "perl -pi -e s/a/b/ a", reading: "i:maybe s/a/b/:maybe a:w", setup: "a"}},
	"python3":   {{cmd: "python3 a.py", reading: "a.py:rec", setup: "a.py"}},
	"python":    {{cmd: "python a.py", reading: "a.py:rec"}},
	"node":      {{cmd: "node a.js", reading: "a.js:rec"}},
	"make":      {{cmd: "make -f m", reading: "m hit:make_-f"}},
	"curl": {
		{cmd: "curl -o out https://example.com", reading: "out:w"},
		// --output-dir DIR: -o and -O write inside DIR, abbreviated
		// too (curl 7.88: --output-d d -o f makes d/f); DIR was read.
		{cmd: "curl --output-d d -o f https://example.com", reading: "d:w f:w"},
	},
	"wget": {
		{cmd: "wget -O out https://example.com", reading: "out:w"},
		// --use-askpass=PROG runs PROG (wget 1.21.3: before it
		// connects), and so does use_askpass in wgetrc commands (-e,
		// --execute, --config FILE): guards (they had none).
		{cmd: "wget --use-ask=./p https://example.com", reading: "./p hit:wget_--use-ask=./p"},
		{cmd: "wget -qe use_askpass=./p https://example.com", reading: "e:maybe use_askpass=./p:maybe hit:wget_-qe"},
		{cmd: "wget --execute=use_askpass=./p https://example.com", reading: "use_askpass=./p hit:wget_--execute=use_askpass=./p"},
		{cmd: "wget --config=rc https://example.com", reading: "rc hit:wget_--config=rc"},
	},
	"ssh":              {{cmd: "ssh -i key host", reading: "key host"}},
	"scp":              {{cmd: "scp a host:b", reading: "a host:b:w"}},
	"timeout":          {{cmd: "timeout 5 cat a", reading: "a", setup: "a"}},
	"nice":             {{cmd: "nice -n 5 cat a", reading: "a", setup: "a"}},
	"nohup":            {{cmd: "nohup cat a", reading: "a", setup: "a"}},
	"env":              {{cmd: "env X=1 cat a", reading: "a finding:env.unknown", setup: "a"}},
	"stdbuf":           {{cmd: "stdbuf -o0 cat a", reading: "a", setup: "a"}},
	"setsid":           {{cmd: "setsid cat a", reading: "a", setup: "a"}},
	"xargs":            {{cmd: "xargs cat < a", reading: "a unknown", setup: "a"}},
	"find":             {{cmd: "find . -name a -delete", reading: ".:w:rec hit:find_-delete", setup: "a"}},
	"flock":            {{cmd: "flock l cat a", reading: "l:w a", setup: "a"}},
	"chrt":             {{cmd: "chrt 0 cat a", reading: "a"}},
	"taskset":          {{cmd: "taskset 1 cat a", reading: "a", setup: "a"}},
	"ionice":           {{cmd: "ionice -c 3 cat a", reading: "a", setup: "a"}},
	"unshare":          {{cmd: "unshare cat a", reading: "a"}},
	"setpriv":          {{cmd: "setpriv cat a", reading: "a", setup: "a"}},
	"su":               {{cmd: "su -c 'cat a'", reading: "a"}},
	"runuser":          {{cmd: "runuser -u nobody cat a", reading: "finding:parser.dynamic_command"}},
	"script":           {{cmd: "script -q -c 'cat a' log", reading: "log:w a"}},
	"watch":            {{cmd: "watch -n 1 cat a", reading: "a"}},
	"strace":           {{cmd: "strace -o t cat a", reading: "t:w a"}},
	"fakeroot":         {{cmd: "fakeroot cat a", reading: "a", setup: "a"}},
	"valgrind":         {{cmd: "valgrind cat a", reading: "a"}},
	"prlimit":          {{cmd: "prlimit --nofile=100 cat a", reading: "a", setup: "a"}},
	"sg":               {{cmd: "sg root 'cat a'", reading: "a"}},
	"dbus-run-session": {{cmd: "dbus-run-session cat a", reading: "a"}},
	"linux32":          {{cmd: "linux32 cat a", reading: "a", setup: "a"}},
	"linux64":          {{cmd: "linux64 cat a", reading: "a", setup: "a"}},
	"setarch":          {{cmd: "setarch x86_64 cat a", reading: "a", setup: "a"}},
	"chroot":           {{cmd: "chroot / cat a", reading: "a"}},
	"nsenter":          {{cmd: "nsenter -t 1 cat a", reading: "a"}},
	"bash":             {{cmd: "bash -c 'cat a'", reading: "a", setup: "a"}},
	"sh":               {{cmd: "sh -c 'cat a'", reading: "a", setup: "a"}},
	"dash":             {{cmd: "dash -c 'cat a'", reading: "a", setup: "a"}},
	"zsh":              {{cmd: "zsh -c 'cat a'", reading: "a", setup: "a"}},
	"ash":              {{cmd: "ash -c 'cat a'", reading: "a"}},
	"ksh":              {{cmd: "ksh -c 'cat a'", reading: "a"}},
	"mksh":             {{cmd: "mksh -c 'cat a'", reading: "a"}},
	"rbash":            {{cmd: "rbash -c 'cat a'", reading: "a"}},
	"fish":             {{cmd: "fish -c 'cat a'", reading: "a"}},
	"exec":             {{cmd: "exec cat a", reading: "a"}},
	"command":          {{cmd: "command cat a", reading: "a"}},
	"builtin":          {{cmd: "builtin cd d", reading: ""}},
	"busybox":          {{cmd: "busybox cat a", reading: "a"}},
	"parallel":         {{cmd: "parallel cat ::: a", reading: "a"}},
	"cd":               {{cmd: "cd d", reading: ""}},
	"pushd":            {{cmd: "pushd d", reading: ""}},
	"popd":             {{cmd: "popd", reading: ""}},
	"dirs":             {{cmd: "dirs", reading: ""}},
	"alias":            {{cmd: "alias x=y", reading: "finding:parser.eval"}},
	"declare":          {{cmd: "declare x=1", reading: ""}},
	"export":           {{cmd: "export X=1", reading: "finding:env.unknown"}},
	"set":              {{cmd: "set -e", reading: ""}},
	"unset":            {{cmd: "unset X", reading: ""}},
	"local":            {{cmd: "local x", reading: ""}},
	"readonly":         {{cmd: "readonly x", reading: ""}},
	"typeset":          {{cmd: "typeset x", reading: ""}},
	"read":             {{cmd: "read x", reading: ""}},
	"shift":            {{cmd: "shift", reading: ""}},
	"shopt":            {{cmd: "shopt -s globstar", reading: ""}},
	"trap":             {{cmd: "trap x EXIT", reading: "finding:parser.eval"}},
	"type":             {{cmd: "type ls", reading: ""}},
	"which":            {{cmd: "which ls", reading: ""}},
	"hash":             {{cmd: "hash", reading: ""}},
	"jobs":             {{cmd: "jobs", reading: ""}},
	"kill":             {{cmd: "kill 1", reading: ""}},
	"let":              {{cmd: "let x=1", reading: "finding:parser.arithmetic_variable"}},
	"return":           {{cmd: "return", reading: ""}},
	"exit":             {{cmd: "exit", reading: ""}},
	"wait":             {{cmd: "wait", reading: ""}},
	"ulimit":           {{cmd: "ulimit -n", reading: ""}},
	"umask":            {{cmd: "umask", reading: ""}},
	"getopts":          {{cmd: "getopts a x", reading: ""}},
	"expr":             {{cmd: "expr 1 + 1", reading: ""}},
	"yes":              {{cmd: "yes", reading: ""}},
	":":                {{cmd: ": a", reading: ""}},

	// tmux's commands (readings as TestMultiplexers, judged with real tmux 3.3): those that run a shell command are wrappers, guarded ones run commands by other means, the rest run nothing.
	"tmux attach":            {{cmd: "tmux attach", reading: ""}},
	"tmux attach-session":    {{cmd: "tmux attach-session", reading: ""}},
	"tmux bind":              {{cmd: "tmux bind", reading: "hit:tmux_bind"}},
	"tmux bind-key":          {{cmd: "tmux bind-key", reading: "hit:tmux_bind-key"}},
	"tmux capture-pane":      {{cmd: "tmux capture-pane", reading: ""}},
	"tmux capturep":          {{cmd: "tmux capturep", reading: ""}},
	"tmux choose-buffer":     {{cmd: "tmux choose-buffer", reading: "hit:tmux_choose-buffer"}},
	"tmux choose-client":     {{cmd: "tmux choose-client", reading: "hit:tmux_choose-client"}},
	"tmux choose-tree":       {{cmd: "tmux choose-tree", reading: "hit:tmux_choose-tree"}},
	"tmux clear-history":     {{cmd: "tmux clear-history", reading: ""}},
	"tmux clearhist":         {{cmd: "tmux clearhist", reading: ""}},
	"tmux command-prompt":    {{cmd: "tmux command-prompt", reading: "hit:tmux_command-prompt"}},
	"tmux confirm":           {{cmd: "tmux confirm", reading: "hit:tmux_confirm"}},
	"tmux confirm-before":    {{cmd: "tmux confirm-before", reading: "hit:tmux_confirm-before"}},
	"tmux delete-buffer":     {{cmd: "tmux delete-buffer", reading: ""}},
	"tmux deleteb":           {{cmd: "tmux deleteb", reading: ""}},
	"tmux detach":            {{cmd: "tmux detach", reading: ""}},
	"tmux detach-client":     {{cmd: "tmux detach-client", reading: ""}},
	"tmux display":           {{cmd: "tmux display", reading: ""}},
	"tmux display-menu":      {{cmd: "tmux display-menu", reading: "hit:tmux_display-menu"}},
	"tmux display-message":   {{cmd: "tmux display-message", reading: ""}},
	"tmux display-panes":     {{cmd: "tmux display-panes", reading: "hit:tmux_display-panes"}},
	"tmux display-popup":     {{cmd: "tmux display-popup 'cat a'", reading: "a"}},
	"tmux displayp":          {{cmd: "tmux displayp", reading: "hit:tmux_displayp"}},
	"tmux has":               {{cmd: "tmux has", reading: ""}},
	"tmux has-session":       {{cmd: "tmux has-session", reading: ""}},
	"tmux if":                {{cmd: "tmux if 'cat a'", reading: "hit:tmux_if a"}},
	"tmux if-shell":          {{cmd: "tmux if-shell 'cat a'", reading: "hit:tmux_if-shell a"}},
	"tmux kill-pane":         {{cmd: "tmux kill-pane", reading: ""}},
	"tmux kill-server":       {{cmd: "tmux kill-server", reading: ""}},
	"tmux kill-session":      {{cmd: "tmux kill-session", reading: ""}},
	"tmux kill-window":       {{cmd: "tmux kill-window", reading: ""}},
	"tmux killp":             {{cmd: "tmux killp", reading: ""}},
	"tmux killw":             {{cmd: "tmux killw", reading: ""}},
	"tmux last":              {{cmd: "tmux last", reading: ""}},
	"tmux last-window":       {{cmd: "tmux last-window", reading: ""}},
	"tmux list-buffers":      {{cmd: "tmux list-buffers", reading: ""}},
	"tmux list-clients":      {{cmd: "tmux list-clients", reading: ""}},
	"tmux list-commands":     {{cmd: "tmux list-commands", reading: ""}},
	"tmux list-keys":         {{cmd: "tmux list-keys", reading: ""}},
	"tmux list-panes":        {{cmd: "tmux list-panes", reading: ""}},
	"tmux list-sessions":     {{cmd: "tmux list-sessions", reading: ""}},
	"tmux list-windows":      {{cmd: "tmux list-windows", reading: ""}},
	"tmux load-buffer":       {{cmd: "tmux load-buffer", reading: "hit:tmux_load-buffer"}},
	"tmux loadb":             {{cmd: "tmux loadb", reading: "hit:tmux_loadb"}},
	"tmux ls":                {{cmd: "tmux ls", reading: ""}},
	"tmux lsb":               {{cmd: "tmux lsb", reading: ""}},
	"tmux lsc":               {{cmd: "tmux lsc", reading: ""}},
	"tmux lscm":              {{cmd: "tmux lscm", reading: ""}},
	"tmux lsk":               {{cmd: "tmux lsk", reading: ""}},
	"tmux lsp":               {{cmd: "tmux lsp", reading: ""}},
	"tmux lsw":               {{cmd: "tmux lsw", reading: ""}},
	"tmux menu":              {{cmd: "tmux menu", reading: "hit:tmux_menu"}},
	"tmux new":               {{cmd: "tmux new 'cat a'", reading: "a"}},
	"tmux new-session":       {{cmd: "tmux new-session 'cat a'", reading: "a"}},
	"tmux new-window":        {{cmd: "tmux new-window 'cat a'", reading: "a"}},
	"tmux neww":              {{cmd: "tmux neww 'cat a'", reading: "a"}},
	"tmux next":              {{cmd: "tmux next", reading: ""}},
	"tmux next-window":       {{cmd: "tmux next-window", reading: ""}},
	"tmux paste-buffer":      {{cmd: "tmux paste-buffer", reading: "hit:tmux_paste-buffer"}},
	"tmux pasteb":            {{cmd: "tmux pasteb", reading: "hit:tmux_pasteb"}},
	"tmux pipe-pane":         {{cmd: "tmux pipe-pane 'cat a'", reading: "a"}},
	"tmux pipep":             {{cmd: "tmux pipep 'cat a'", reading: "a"}},
	"tmux popup":             {{cmd: "tmux popup 'cat a'", reading: "a"}},
	"tmux prev":              {{cmd: "tmux prev", reading: ""}},
	"tmux previous-window":   {{cmd: "tmux previous-window", reading: ""}},
	"tmux refresh":           {{cmd: "tmux refresh", reading: ""}},
	"tmux refresh-client":    {{cmd: "tmux refresh-client", reading: ""}},
	"tmux rename":            {{cmd: "tmux rename", reading: ""}},
	"tmux rename-session":    {{cmd: "tmux rename-session", reading: ""}},
	"tmux rename-window":     {{cmd: "tmux rename-window", reading: ""}},
	"tmux renamew":           {{cmd: "tmux renamew", reading: ""}},
	"tmux resize-pane":       {{cmd: "tmux resize-pane", reading: ""}},
	"tmux resizep":           {{cmd: "tmux resizep", reading: ""}},
	"tmux respawn-pane":      {{cmd: "tmux respawn-pane 'cat a'", reading: "a"}},
	"tmux respawn-window":    {{cmd: "tmux respawn-window 'cat a'", reading: "a"}},
	"tmux respawnp":          {{cmd: "tmux respawnp 'cat a'", reading: "a"}},
	"tmux respawnw":          {{cmd: "tmux respawnw 'cat a'", reading: "a"}},
	"tmux run":               {{cmd: "tmux run 'cat a'", reading: "a"}},
	"tmux run-shell":         {{cmd: "tmux run-shell 'cat a'", reading: "a"}},
	"tmux save-buffer":       {{cmd: "tmux save-buffer", reading: "hit:tmux_save-buffer"}},
	"tmux saveb":             {{cmd: "tmux saveb", reading: "hit:tmux_saveb"}},
	"tmux select-layout":     {{cmd: "tmux select-layout", reading: ""}},
	"tmux select-pane":       {{cmd: "tmux select-pane", reading: ""}},
	"tmux select-window":     {{cmd: "tmux select-window", reading: ""}},
	"tmux selectl":           {{cmd: "tmux selectl", reading: ""}},
	"tmux selectp":           {{cmd: "tmux selectp", reading: ""}},
	"tmux selectw":           {{cmd: "tmux selectw", reading: ""}},
	"tmux send":              {{cmd: "tmux send", reading: "hit:tmux_send"}},
	"tmux send-keys":         {{cmd: "tmux send-keys", reading: "hit:tmux_send-keys"}},
	"tmux send-prefix":       {{cmd: "tmux send-prefix", reading: "hit:tmux_send-prefix"}},
	"tmux set":               {{cmd: "tmux set", reading: "hit:tmux_set"}},
	"tmux set-environment":   {{cmd: "tmux set-environment", reading: "hit:tmux_set-environment"}},
	"tmux set-hook":          {{cmd: "tmux set-hook", reading: "hit:tmux_set-hook"}},
	"tmux set-option":        {{cmd: "tmux set-option", reading: "hit:tmux_set-option"}},
	"tmux set-window-option": {{cmd: "tmux set-window-option", reading: "hit:tmux_set-window-option"}},
	"tmux setenv":            {{cmd: "tmux setenv", reading: "hit:tmux_setenv"}},
	"tmux setw":              {{cmd: "tmux setw", reading: "hit:tmux_setw"}},
	"tmux show":              {{cmd: "tmux show", reading: ""}},
	"tmux show-buffer":       {{cmd: "tmux show-buffer", reading: ""}},
	"tmux show-environment":  {{cmd: "tmux show-environment", reading: ""}},
	"tmux show-options":      {{cmd: "tmux show-options", reading: ""}},
	"tmux showb":             {{cmd: "tmux showb", reading: ""}},
	"tmux showenv":           {{cmd: "tmux showenv", reading: ""}},
	"tmux source":            {{cmd: "tmux source", reading: "hit:tmux_source"}},
	"tmux source-file":       {{cmd: "tmux source-file", reading: "hit:tmux_source-file"}},
	"tmux split-window":      {{cmd: "tmux split-window 'cat a'", reading: "a"}},
	"tmux splitw":            {{cmd: "tmux splitw 'cat a'", reading: "a"}},
	"tmux start":             {{cmd: "tmux start", reading: ""}},
	"tmux start-server":      {{cmd: "tmux start-server", reading: ""}},
	"tmux switch-client":     {{cmd: "tmux switch-client", reading: ""}},
	"tmux switchc":           {{cmd: "tmux switchc", reading: ""}},
	"tmux wait":              {{cmd: "tmux wait", reading: ""}},
	"tmux wait-for":          {{cmd: "tmux wait-for", reading: ""}},

	// git's subcommands and go's: readings reviewed against git 2.39's and go's manuals; git's tree writes (checkout, stash) are the root package's git places, not file references. With @git, judged with real git in a new repository.
	"git":          {{cmd: "git -C d status", reading: "d"}},
	"git add":      {{cmd: "git add a", reading: "a:rec", setup: "@git a"}},
	"git am":       {{cmd: "git am p.mbox", reading: "p.mbox unknown"}},
	"git apply":    {{cmd: "git apply --check p.diff", reading: "p.diff"}},
	"git archive":  {{cmd: "git archive -o o.tar HEAD", reading: "o.tar:w o.tar:rec HEAD:rec"}},
	"git bisect":   {{cmd: "git bisect run make", reading: "run make hit:git_bisect_run"}},
	"git blame":    {{cmd: "git blame a", reading: "a"}},
	"git branch":   {{cmd: "git branch -d x", reading: "x hit:git_branch_x hit:git_branch_-d"}},
	"git cat-file": {{cmd: "git cat-file -p HEAD:a", reading: "a"}},
	// check-ignore matches the name against the ignore files and never
	// opens it: the gate names it, the real program does not touch it.
	"git check-ignore":   {{cmd: "git check-ignore a", reading: "a", setup: "@git a", unjudged: "a"}},
	"git checkout":       {{cmd: "git checkout -- a", reading: "a"}},
	"git clean":          {{cmd: "git clean -f a", reading: "a:w:rm:rec", setup: "@git a"}},
	"git clone":          {{cmd: "git clone -u x https://x/y", reading: "x hit:git_clone_-u finding:git.dangerous_config"}},
	"git commit":         {{cmd: "git commit -m m", reading: "m:maybe"}},
	"git config":         {{cmd: "git config core.pager less", reading: "core.pager less hit:git_config_less finding:git.dangerous_config"}},
	"git count-objects":  {{cmd: "git count-objects -v", reading: ""}},
	"git describe":       {{cmd: "git describe --tags", reading: ""}},
	"git diff":           {{cmd: "git diff --no-index a b", reading: "a:rec b:rec", setup: "@git a b"}},
	"git difftool":       {{cmd: "git difftool -x 'cat a'", reading: "cat a a"}},
	"git fetch":          {{cmd: "git fetch --upload-pack=x origin", reading: "x origin hit:git_fetch_--upload-pack=x finding:git.dangerous_config"}},
	"git fetch-pack":     {{cmd: "git fetch-pack --exec=x origin", reading: "x origin hit:git_fetch-pack_--exec=x"}},
	"git filter-branch":  {{cmd: "git filter-branch --tree-filter 'rm a' HEAD", reading: "rm a HEAD a:w:rm"}},
	"git for-each-ref":   {{cmd: "git for-each-ref refs/tags", reading: ""}},
	"git format-patch":   {{cmd: "git format-patch -o out HEAD~1", reading: "out:w out HEAD~1"}},
	"git grep":           {{cmd: "git grep x d", reading: "x:maybe d:rec .:rec"}},
	"git init":           {{cmd: "git init --template=t", reading: "t finding:git.dangerous_config"}},
	"git log":            {{cmd: "git log -p -- a", reading: "a"}},
	"git ls-files":       {{cmd: "git ls-files -z", reading: ""}},
	"git ls-remote":      {{cmd: "git ls-remote --upload-pack=x origin", reading: "x origin hit:git_ls-remote_--upload-pack=x finding:git.dangerous_config"}},
	"git ls-tree":        {{cmd: "git ls-tree HEAD", reading: "HEAD"}},
	"git merge-base":     {{cmd: "git merge-base a b", reading: "a b"}},
	"git notes":          {{cmd: "git notes add", reading: "hit:git_notes_add"}},
	"git pull":           {{cmd: "git pull --upload-pack=x", reading: "x hit:git_pull_--upload-pack=x finding:git.dangerous_config"}},
	"git push":           {{cmd: "git push --force origin main", reading: "origin main"}},
	"git rebase":         {{cmd: "git rebase -x 'cat a' main", reading: "cat a main hit:git_rebase_-x a unknown"}},
	"git reflog":         {{cmd: "git reflog expire", reading: "hit:git_reflog_expire"}},
	"git remote":         {{cmd: "git remote add o https://x/y", reading: "hit:git_remote_add"}},
	"git remote get-url": {{cmd: "git remote get-url origin", reading: ""}},
	"git rev-list":       {{cmd: "git rev-list --all", reading: ""}},
	"git rev-parse":      {{cmd: "git rev-parse --show-toplevel", reading: ""}},
	"git send-email":     {{cmd: "git send-email --to-cmd=x p", reading: "x p finding:git.dangerous_config"}},
	"git send-pack":      {{cmd: "git send-pack --receive-pack=x origin", reading: "x origin hit:git_send-pack_--receive-pack=x"}},
	"git shortlog":       {{cmd: "git shortlog -s", reading: ""}},
	"git show":           {{cmd: "git show HEAD:a", reading: "a"}},
	"git stash":          {{cmd: "git stash", reading: ".:rec"}},
	"git stash list":     {{cmd: "git stash list", reading: ""}},
	"git stash show":     {{cmd: "git stash show --ext-diff", reading: "hit:git_stash_show_--ext-diff"}},
	"git status":         {{cmd: "git status --short", reading: "", setup: "@git a"}},
	"git submodule":      {{cmd: "git submodule foreach 'cat a'", reading: "foreach cat a hit:git_submodule_foreach a unknown"}},
	"git switch":         {{cmd: "git switch -c x", reading: "x"}},
	"git tag":            {{cmd: "git tag -d v1", reading: "v1"}},
	"git worktree":       {{cmd: "git worktree add ../w", reading: "hit:git_worktree_add"}},
	"git worktree list":  {{cmd: "git worktree list", reading: ""}},
	"go":                 {{cmd: "go run .", reading: "."}},
	"go build":           {{cmd: "go build -o bin/x .", reading: "bin/x:w ."}},
	"go doc":             {{cmd: "go doc fmt", reading: "unknown"}},
	"go env":             {{cmd: "go env -w GOFLAGS=x", reading: "GOFLAGS=x hit:go_env_-w"}},
	"go generate":        {{cmd: "go generate ./...", reading: "hit:go_generate"}},
	"go get":             {{cmd: "go get example.com/m@v1", reading: "example.com/m@v1"}},
	"go list":            {{cmd: "go list ./...", reading: ".:rec"}},
	"go mod":             {{cmd: "go mod tidy", reading: "tidy"}},
	"go mod download":    {{cmd: "go mod download", reading: "download"}},
	"go test":            {{cmd: "go test -exec 'cat a' ./...", reading: "hit:go_test_-exec a"}},
	"go version":         {{cmd: "go version", reading: ""}},
	"go vet":             {{cmd: "go vet ./...", reading: ""}},
	"gofmt":              {{cmd: "gofmt -l a.go", reading: "a.go:rec"}},

	// The ecosystems (js, python, rust, jvm, build tools), inspectors and editors: readings reviewed against their manuals (a project's build runs its code: runners.go, not file references here); with a setup, judged with the real program.
	"./gradlew":            {{cmd: "./gradlew build", reading: ""}},
	"./mvnw":               {{cmd: "./mvnw test", reading: ""}},
	"ack":                  {{cmd: "ack x d", reading: "x:maybe d:rec"}},
	"ag":                   {{cmd: "ag x d", reading: "x:maybe d:rec"}},
	"bat":                  {{cmd: "bat a", reading: "a:rec"}},
	"biome":                {{cmd: "biome check a.js", reading: "check:maybe a.js"}},
	"biome check":          {{cmd: "biome check a.js", reading: "check:maybe a.js"}},
	"biome ci":             {{cmd: "biome ci a.js", reading: "ci:maybe a.js"}},
	"biome format":         {{cmd: "biome format --write a.js", reading: "format:maybe a.js:w"}},
	"biome lint":           {{cmd: "biome lint a.js", reading: "lint:maybe a.js"}},
	"black":                {{cmd: "black a.py", reading: "a.py:w"}},
	"bun":                  {{cmd: "bun x.ts", reading: ""}},
	"bun a":                {{cmd: "bun a left-pad", reading: ""}},
	"bun add":              {{cmd: "bun add left-pad", reading: ""}},
	"bun i":                {{cmd: "bun i", reading: ""}},
	"bun install":          {{cmd: "bun install", reading: ""}},
	"bun run":              {{cmd: "bun run build", reading: ""}},
	"bun test":             {{cmd: "bun test", reading: ""}},
	"bunx":                 {{cmd: "bunx cowsay", reading: ""}},
	"bwrap":                {{cmd: "bwrap --ro-bind / / cat a", reading: "a"}},
	"cal":                  {{cmd: "cal 2024", reading: ""}},
	"cargo":                {{cmd: "cargo --version", reading: ""}},
	"cargo b":              {{cmd: "cargo b", reading: ""}},
	"cargo build":          {{cmd: "cargo build --release", reading: ""}},
	"cargo c":              {{cmd: "cargo c", reading: ""}},
	"cargo check":          {{cmd: "cargo check", reading: ""}},
	"cargo clippy":         {{cmd: "cargo clippy", reading: ""}},
	"cargo fetch":          {{cmd: "cargo fetch", reading: ""}},
	"cargo fmt":            {{cmd: "cargo fmt", reading: ""}},
	"cargo make":           {{cmd: "cargo make build", reading: ""}},
	"cargo r":              {{cmd: "cargo r", reading: ""}},
	"cargo run":            {{cmd: "cargo run", reading: ""}},
	"cargo t":              {{cmd: "cargo t", reading: ""}},
	"cargo test":           {{cmd: "cargo test", reading: ""}},
	"cargo tree":           {{cmd: "cargo tree", reading: ""}},
	"cargo-make":           {{cmd: "cargo-make make build", reading: ""}},
	"cc":                   {{cmd: "cc -o x a.c", reading: "x:rec a.c:rec"}},
	"clang":                {{cmd: "clang -o x a.c", reading: "x:rec a.c:rec"}},
	"doas":                 {{cmd: "doas cat a", reading: "a"}},
	"docker":               {{cmd: "docker run -v x:y img", reading: "run:rec x:y:rec img:rec"}},
	"dotnet":               {{cmd: "dotnet --info", reading: ""}},
	"dotnet build":         {{cmd: "dotnet build", reading: ""}},
	"dotnet test":          {{cmd: "dotnet test", reading: ""}},
	"emacs":                {{cmd: "emacs --eval x a", reading: "x:rec a:rec hit:emacs_--eval"}},
	"eslint":               {{cmd: "eslint --fix a.js", reading: "a.js:w"}},
	"ffmpeg":               {{cmd: "ffmpeg -i a.mp4 b.mp4", reading: "a.mp4:rec b.mp4:rec"}},
	"firejail":             {{cmd: "firejail cat a", reading: "a"}},
	"g++":                  {{cmd: "g++ -o x a.cc", reading: "x:rec a.cc:rec"}},
	"gcc":                  {{cmd: "gcc -o x a.c", reading: "x:rec a.c:rec"}},
	"gdb":                  {{cmd: "gdb -ex run ./x", reading: "x:maybe run:rec ./x:rec hit:gdb_-ex"}},
	"gem":                  {{cmd: "gem --version", reading: ""}},
	"gem list":             {{cmd: "gem list", reading: ""}},
	"gmake":                {{cmd: "gmake -C d", reading: "d hit:gmake_-C"}},
	"gradle":               {{cmd: "gradle build", reading: ""}},
	"gradlew":              {{cmd: "gradlew build", reading: ""}},
	"gsed":                 {{cmd: "gsed -n 1p a", reading: "1p:rec a:rec"}},
	"hexdump":              {{cmd: "hexdump -C a", reading: "a", setup: "a"}},
	"i3-sensible-terminal": {{cmd: "i3-sensible-terminal", reading: ""}},
	"java":                 {{cmd: "java -jar a.jar", reading: "ar:maybe r:maybe a.jar:rec"}},
	"javac":                {{cmd: "javac -d out A.java", reading: "out:rec A.java:rec"}},
	"jest":                 {{cmd: "jest", reading: ""}},
	"just":                 {{cmd: "just build", reading: ""}},
	"kubectl":              {{cmd: "kubectl get pods", reading: "get:rec pods:rec"}},
	"lsof":                 {{cmd: "lsof a", reading: "a:list", setup: "a"}},
	"ltrace":               {{cmd: "ltrace -o t cat a", reading: "t:w a"}},
	"makers":               {{cmd: "makers build", reading: ""}},
	"man":                  {{cmd: "man -P cat ls", reading: "cat:rec ls:rec hit:man_-P"}},
	"mvn":                  {{cmd: "mvn test", reading: ""}},
	"mvnw":                 {{cmd: "mvnw test", reading: ""}},
	"mypy":                 {{cmd: "mypy a.py", reading: "a.py"}},
	"netstat":              {{cmd: "netstat -tn", reading: ""}},
	"nm":                   {{cmd: "nm a", reading: "a", setup: "a"}},
	"npm":                  {{cmd: "npm --version", reading: ""}},
	"npm add":              {{cmd: "npm add left-pad", reading: ""}},
	"npm ci":               {{cmd: "npm ci", reading: ""}},
	"npm clean-install":    {{cmd: "npm clean-install", reading: ""}},
	"npm config":           {{cmd: "npm config get registry", reading: ""}},
	"npm config list":      {{cmd: "npm config list", reading: ""}},
	"npm config ls":        {{cmd: "npm config ls", reading: ""}},
	"npm i":                {{cmd: "npm i", reading: ""}},
	"npm in":               {{cmd: "npm in", reading: ""}},
	"npm install":          {{cmd: "npm install left-pad", reading: ""}},
	"npm isntall":          {{cmd: "npm isntall", reading: ""}},
	"npm la":               {{cmd: "npm la", reading: ""}},
	"npm list":             {{cmd: "npm list", reading: ""}},
	"npm ll":               {{cmd: "npm ll", reading: ""}},
	"npm ls":               {{cmd: "npm ls", reading: ""}},
	"npm rum":              {{cmd: "npm rum build", reading: ""}},
	"npm run":              {{cmd: "npm run build", reading: ""}},
	"npm run-script":       {{cmd: "npm run-script build", reading: ""}},
	"npm start":            {{cmd: "npm start", reading: ""}},
	"npm t":                {{cmd: "npm t", reading: ""}},
	"npm test":             {{cmd: "npm test", reading: ""}},
	"npm tst":              {{cmd: "npm tst", reading: ""}},
	"npm urn":              {{cmd: "npm urn build", reading: ""}},
	"npx":                  {{cmd: "npx cowsay", reading: ""}},
	"nvim":                 {{cmd: "nvim a", reading: "a:rec"}},
	"objdump":              {{cmd: "objdump -d a", reading: "a", setup: "a"}},
	"od":                   {{cmd: "od -c a", reading: "a", setup: "a"}},
	"pgrep":                {{cmd: "pgrep -f x", reading: "x:maybe"}},
	"pip":                  {{cmd: "pip --version", reading: ""}},
	"pip download":         {{cmd: "pip download x", reading: "download:rec x:rec"}},
	"pip freeze":           {{cmd: "pip freeze", reading: "freeze:rec"}},
	"pip install":          {{cmd: "pip install -r req.txt", reading: "install:rec req.txt:rec"}},
	"pip list":             {{cmd: "pip list", reading: "list:rec"}},
	"pip show":             {{cmd: "pip show x", reading: "show:rec x:rec"}},
	"pip3":                 {{cmd: "pip3 --version", reading: ""}},
	"pip3 download":        {{cmd: "pip3 download x", reading: "download:rec x:rec"}},
	"pip3 freeze":          {{cmd: "pip3 freeze", reading: "freeze:rec"}},
	"pip3 install":         {{cmd: "pip3 install x", reading: "install:rec x:rec"}},
	"pip3 list":            {{cmd: "pip3 list", reading: "list:rec"}},
	"pip3 show":            {{cmd: "pip3 show x", reading: "show:rec x:rec"}},
	"playwright":           {{cmd: "playwright --version", reading: ""}},
	"playwright test":      {{cmd: "playwright test", reading: "test:rec"}},
	"pnpm":                 {{cmd: "pnpm --version", reading: ""}},
	"pnpm add":             {{cmd: "pnpm add x", reading: ""}},
	"pnpm fetch":           {{cmd: "pnpm fetch", reading: ""}},
	"pnpm i":               {{cmd: "pnpm i", reading: ""}},
	"pnpm install":         {{cmd: "pnpm install", reading: ""}},
	"pnpm list":            {{cmd: "pnpm list", reading: ""}},
	"pnpm ls":              {{cmd: "pnpm ls", reading: ""}},
	"pnpm run":             {{cmd: "pnpm run build", reading: ""}},
	"pnpm why":             {{cmd: "pnpm why x", reading: ""}},
	"prettier":             {{cmd: "prettier --write a.js", reading: "a.js:w"}},
	"ps":                   {{cmd: "ps aux", reading: ""}},
	"py.test":              {{cmd: "py.test", reading: ""}},
	"pytest":               {{cmd: "pytest -x", reading: ""}},
	"readelf":              {{cmd: "readelf -h a", reading: "a", setup: "a"}},
	"rsync":                {{cmd: "rsync -a src/ dst", reading: "src/:rec dst:w:rec"}},
	"ruby":                 {{cmd: "ruby a.rb", reading: "a.rb:rec"}},
	"ruff":                 {{cmd: "ruff --version", reading: ""}},
	"ruff check":           {{cmd: "ruff check a.py", reading: "a.py"}},
	"ruff format":          {{cmd: "ruff format a.py", reading: "a.py:w"}},
	"ruff rule":            {{cmd: "ruff rule E501", reading: ""}},
	"rustc":                {{cmd: "rustc -o x a.rs", reading: "x:rec a.rs:rec unknown-option:-o"}, {cmd: "rustc a.rs", reading: "a.rs:rec", setup: "a.rs"}},
	"rustfmt":              {{cmd: "rustfmt a.rs", reading: "a.rs:w"}},
	"screen":               {{cmd: "screen -dm cat a", reading: "a"}},
	"sftp":                 {{cmd: "sftp host", reading: "host:rec"}},
	"ss":                   {{cmd: "ss -tn", reading: ""}},
	"ssh-agent":            {{cmd: "ssh-agent cat a", reading: "a"}},
	"strings":              {{cmd: "strings a", reading: "a", setup: "a"}},
	"sudo":                 {{cmd: "sudo cat a", reading: "a"}},
	"sudoedit":             {{cmd: "sudoedit a", reading: "a:w"}},
	"systemctl":            {{cmd: "systemctl status x", reading: "status:rec x:rec"}},
	"task":                 {{cmd: "task build", reading: ""}},
	"terraform":            {{cmd: "terraform plan", reading: "plan:rec"}},
	"time":                 {{cmd: "command time -o t cat a", reading: "t:w hit:time_-o a"}},
	"tmux":                 {{cmd: "tmux new -d 'cat a'", reading: "a"}},
	"tox":                  {{cmd: "tox -e py", reading: ""}},
	"tree":                 {{cmd: "tree -a d", reading: "d"}},
	"tsc":                  {{cmd: "tsc -p .", reading: "."}},
	"tsx":                  {{cmd: "tsx a.ts", reading: "a.ts:rec"}},
	"unbuffer":             {{cmd: "unbuffer cat a", reading: "a"}},
	"uv":                   {{cmd: "uv --version", reading: ""}},
	"uv pip":               {{cmd: "uv pip --help", reading: ""}},
	"uv pip freeze":        {{cmd: "uv pip freeze", reading: ""}},
	"uv pip install":       {{cmd: "uv pip install x", reading: ""}},
	"uv pip list":          {{cmd: "uv pip list", reading: ""}},
	"uv pip show":          {{cmd: "uv pip show x", reading: ""}},
	"uv run":               {{cmd: "uv run a.py", reading: "hit:uv_run_a.py"}},
	"uv sync":              {{cmd: "uv sync", reading: ""}},
	"vi":                   {{cmd: "vi a", reading: "a:rec"}},
	"view":                 {{cmd: "view a", reading: "a:rec"}},
	"vim":                  {{cmd: "vim a", reading: "a:rec"}},
	"vite":                 {{cmd: "vite", reading: ""}},
	"vite build":           {{cmd: "vite build", reading: "build"}},
	"vite dev":             {{cmd: "vite dev", reading: "dev"}},
	"vite optimize":        {{cmd: "vite optimize", reading: "optimize"}},
	"vite preview":         {{cmd: "vite preview", reading: "preview"}},
	"vite serve":           {{cmd: "vite serve", reading: "serve"}},
	"vitest":               {{cmd: "vitest", reading: ""}},
	"vitest bench":         {{cmd: "vitest bench", reading: "bench"}},
	"vitest list":          {{cmd: "vitest list", reading: "list"}},
	"vitest related":       {{cmd: "vitest related a.ts", reading: "related a.ts"}},
	"vitest run":           {{cmd: "vitest run", reading: "run"}},
	"vitest watch":         {{cmd: "vitest watch", reading: "watch"}},
	"xcodebuild":           {{cmd: "xcodebuild -project p", reading: "roject:maybe oject:maybe ject:maybe ect:maybe ct:maybe t:maybe p:rec"}},
	"xdg-open":             {{cmd: "xdg-open a", reading: "a:rec"}},
	"yarn":                 {{cmd: "yarn --version", reading: ""}},
	"yarn add":             {{cmd: "yarn add x", reading: ""}},
	"yarn install":         {{cmd: "yarn install", reading: ""}},
	"yarn list":            {{cmd: "yarn list", reading: ""}},
	"yarn run":             {{cmd: "yarn run build", reading: ""}},
	"yarn why":             {{cmd: "yarn why x", reading: ""}},
}

// exampleReading is the reading of an analysis as programExample.reading
// writes it.
func exampleReading(a *Analysis) string {
	var r []string
	for _, c := range a.Commands {
		for _, f := range c.Files {
			s := f.Path
			for _, m := range []struct {
				on   bool
				mark string
			}{{f.Write, ":w"}, {f.Removed, ":rm"}, {f.Recursive, ":rec"}, {f.Listed, ":list"}, {f.Maybe, ":maybe"}} {
				if m.on {
					s += m.mark
				}
			}
			r = append(r, s)
		}
		for range c.Unknown {
			r = append(r, "unknown")
		}
		for _, h := range c.OptionHits {
			r = append(r, "hit:"+strings.ReplaceAll(h.What, " ", "_"))
		}
		for _, o := range c.UnknownOptions {
			r = append(r, "unknown-option:"+o.Value)
		}
	}
	for _, f := range a.Findings {
		r = append(r, "finding:"+f.Rule)
	}
	return strings.Join(r, " ")
}

// TestProgramExamples reads every row of programExamples with Analyze: the
// command names its entry, and the reading is the row's.
func TestProgramExamples(t *testing.T) {
	t.Parallel()
	for name, rows := range programExamples {
		for _, row := range rows {
			a := Analyze(row.cmd, Options{Cwd: "/repo", Env: testEnv})
			if !namesEntry(a, name) {
				t.Errorf("%s: the example %q runs no command of that entry", name, row.cmd)
			}
			if got := exampleReading(a); got != row.reading {
				t.Errorf("%s: Analyze(%q) reads %q, want %q", name, row.cmd, got, row.reading)
			}
		}
	}
}

// namesEntry reports whether a command of a is the entry name (the
// program and its subcommands, as entries() names them).
func namesEntry(a *Analysis, name string) bool {
	words := strings.Fields(name)
	for _, c := range a.Commands {
		if len(c.MatchArgv) >= len(words) && slices.Equal(c.MatchArgv[:len(words)], words) {
			return true
		}
	}
	return false
}

// TestEveryProgramHasARow: every entry of the program table (subcommands
// included) has an example in programExamples, and the table names only
// entries that exist: no entry is added without its example.
func TestEveryProgramHasARow(t *testing.T) {
	t.Parallel()
	ents := entries()
	var missing []string
	for name := range ents {
		if len(programExamples[name]) == 0 {
			missing = append(missing, name)
		}
	}
	slices.Sort(missing)
	if len(missing) > 0 {
		t.Errorf("%d entries of the program table have no example in programExamples: %q", len(missing), missing)
	}
	for name := range programExamples {
		if ents[name] == nil {
			t.Errorf("programExamples names %q, which is no entry of the program table", name)
		}
	}
	t.Logf("%d entries, %d with an example", len(ents), len(programExamples))
}

// TestProgramExamplesReal runs each row of programExamples with a setup
// in a throwaway directory under strace -f, and checks the reading
// against what the real program did: each file it wrote, created,
// renamed, changed the mode or owner of, or removed is read as written
// (:w), and as removed (:rm) when it only removed it; each file it read
// is named; each file the row reads as written was written or removed;
// each file the row reads was touched. Values read as :maybe are not
// judged. A file it made and removed again (shred -u's renames) is none
// of the project's.
func TestProgramExamplesReal(t *testing.T) {
	t.Parallel()
	needProgram(t, "strace")
	for name, rows := range programExamples {
		for _, row := range rows {
			if row.setup == "" {
				continue
			}
			t.Run(name+"/"+row.cmd, func(t *testing.T) {
				t.Parallel()
				needProgram(t, strings.Fields(name)[0])
				judgeReal(t, row)
			})
		}
	}
}

// realOp is what a program did to a path: read, wrote, removed, or only
// looked (stat, listed).
type realOp struct{ read, wrote, removed, looked bool }

var (
	straceCall = regexp.MustCompile(`^\d+ +(\w+)\((.*)\) += (-?\d+)`)
	straceArg  = regexp.MustCompile(`(?:(\d+|AT_FDCWD)<([^>]*)>, )?"((?:[^"\\]|\\.)*)"`)
)

func judgeReal(t *testing.T, row programExample) {
	dir := t.TempDir()
	dir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	made := map[string]bool{}
	repo := false
	for _, f := range strings.Fields(row.setup) {
		if f == "@git" {
			repo = true
			c := exec.Command("git", "init", "-q", ".")
			c.Dir = dir
			if out, err := c.CombinedOutput(); err != nil {
				t.Fatalf("git init: %v\n%s", err, out)
			}
			continue
		}
		if f == "-" {
			continue
		}
		p := filepath.Join(dir, f)
		if strings.HasSuffix(f, "/") {
			err = os.MkdirAll(p, 0o755)
		} else {
			err = os.WriteFile(p, []byte("b 2\na 1\n"), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
		made[path.Clean(f)] = true
	}
	trace := filepath.Join(t.TempDir(), "trace")
	c := exec.Command("strace", "-f", "-qq", "-y", "-e", "trace=%file", "-o", trace, "sh", "-c", row.cmd)
	c.Dir = dir
	if out, err := c.CombinedOutput(); err != nil {
		if _, exited := err.(*exec.ExitError); !exited {
			t.Fatalf("sh -c %q under strace: %v\n%s", row.cmd, err, out)
		}
		t.Logf("sh -c %q: %v\n%s", row.cmd, err, out) // cmp, diff, false: what it touched still counts
	}
	b, err := os.ReadFile(trace)
	if err != nil {
		t.Fatal(err)
	}
	ops := map[string]*realOp{}
	op := func(p string) *realOp {
		if ops[p] == nil {
			ops[p] = &realOp{}
		}
		return ops[p]
	}
	for _, l := range strings.Split(string(b), "\n") {
		m := straceCall.FindStringSubmatch(l)
		if m == nil || m[1] == "execve" {
			continue
		}
		call, args, ok := m[1], m[2], !strings.HasPrefix(m[3], "-")
		var paths []string
		for _, a := range straceArg.FindAllStringSubmatch(args, -1) {
			p := a[3]
			if p == "" {
				continue // an fd's own file (AT_EMPTY_PATH)
			}
			if !strings.HasPrefix(p, "/") && a[2] != "" {
				p = a[2] + "/" + p
			} else if !strings.HasPrefix(p, "/") {
				p = dir + "/" + p
			}
			p = path.Clean(p)
			rel, in := strings.CutPrefix(p, dir+"/")
			if p == dir {
				rel, in = ".", true
			}
			if !in || repo && (rel == ".git" || strings.HasPrefix(rel, ".git/")) {
				paths = append(paths, "") // outside the directory (the loader, locales), or git's store
				continue
			}
			paths = append(paths, rel)
		}
		if len(paths) == 0 || paths[0] == "" && len(paths) == 1 {
			continue
		}
		switch call {
		case "open", "openat", "openat2", "creat":
			if paths[0] == "" {
				continue
			}
			w := call == "creat" || strings.Contains(args, "O_WRONLY") || strings.Contains(args, "O_RDWR") ||
				strings.Contains(args, "O_CREAT") || strings.Contains(args, "O_TRUNC")
			switch {
			case w:
				op(paths[0]).wrote = true
			case strings.Contains(args, "O_DIRECTORY") && ok:
				op(paths[0]).looked = true
			case ok:
				op(paths[0]).read = true
			}
		case "unlink", "unlinkat", "rmdir":
			if paths[0] != "" {
				op(paths[0]).removed = true
			}
		case "rename", "renameat", "renameat2":
			if paths[0] != "" {
				op(paths[0]).removed = true
			}
			if len(paths) > 1 && paths[1] != "" {
				op(paths[1]).wrote = true
			}
		case "link", "linkat", "symlink", "symlinkat":
			if p := paths[len(paths)-1]; p != "" {
				op(p).wrote = true
			}
			if len(paths) > 1 && paths[0] != "" {
				op(paths[0]).looked = true
			}
		case "mkdir", "mkdirat", "mknod", "mknodat", "truncate", "chmod", "fchmodat", "chown", "lchown", "fchownat",
			"utime", "utimes", "utimensat", "futimesat", "setxattr", "lsetxattr", "removexattr", "lremovexattr":
			if paths[0] != "" {
				op(paths[0]).wrote = true
			}
		default: // stat, access, readlink, getxattr, statfs, chdir, …
			if paths[0] != "" {
				op(paths[0]).looked = true
			}
		}
	}
	// The row's reading, by path (maybe values are not judged).
	type ref struct{ write, removed, rec bool }
	refs := map[string]ref{}
	for _, tok := range strings.Fields(row.reading) {
		p, marks, _ := strings.Cut(tok, ":")
		if strings.Contains(tok, ":maybe") || p == "unknown" || p == "hit" || p == "finding" || p == "unknown-option" {
			continue
		}
		r := refs[path.Clean(p)]
		r.write = r.write || strings.Contains(":"+marks, ":w")
		r.removed = r.removed || strings.Contains(":"+marks, ":rm")
		r.rec = r.rec || strings.Contains(":"+marks, ":rec")
		refs[path.Clean(p)] = r
	}
	guarded := strings.Contains(row.reading, "hit:")
	// writtenDir: p is a new entry of a directory the row reads as
	// written (split's output files in ".").
	writtenDir := func(p string) bool {
		r, ok := refs[path.Dir(p)]
		return ok && r.write
	}
	covered := func(p string) (ref, bool) {
		for q := p; ; q = path.Dir(q) {
			if r, ok := refs[q]; ok && (q == p || r.rec) {
				return r, true
			}
			if q == "." || q == "/" {
				return ref{}, false
			}
		}
	}
	for p, o := range ops {
		if p == "." && !o.wrote && !o.removed {
			continue // the directory itself, looked at (fsync, getcwd)
		}
		if _, err := os.Lstat(filepath.Join(dir, p)); err != nil && !made[p] && (o.wrote || o.removed) {
			continue // made and removed again: a temporary name
		}
		r, named := covered(p)
		switch {
		case (o.wrote || o.removed) && !r.write && !writtenDir(p):
			if guarded {
				t.Logf("%q: the real program writes or removes %s, behind the guarded option the row names", row.cmd, p)
				continue
			}
			t.Errorf("%q: the real program writes or removes %s (%+v), the row reads %q", row.cmd, p, *o, row.reading)
		case o.read && !named:
			t.Errorf("%q: the real program reads %s, the row does not name it: %q", row.cmd, p, row.reading)
		}
	}
	for p, r := range refs {
		o := ops[p]
		if slices.Contains(strings.Fields(row.unjudged), p) {
			continue
		}
		if r.write && o != nil && !o.wrote && !o.removed && slices.ContainsFunc(sortedKeys(ops), func(q string) bool {
			return path.Dir(q) == p && (ops[q].wrote || ops[q].removed)
		}) {
			continue // a directory the program writes a new entry into (split's ".")
		}
		switch {
		case o == nil:
			t.Errorf("%q: the row names %s, the real program did not touch it (trace: %v)", row.cmd, p, sortedKeys(ops))
		case r.write && !o.wrote && !o.removed:
			t.Errorf("%q: the row reads %s as written, the real program only %+v it", row.cmd, p, *o)
		case r.removed && o.wrote:
			t.Errorf("%q: the row reads %s as removed, the real program writes it", row.cmd, p)
		}
	}
}
