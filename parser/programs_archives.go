package parser

// The reasons of guards several options share.
const (
	archiveRunsWhy = "runs a program"
)

// programsArchives: the archivers: tar, zip, unzip, cpio, and the others and the decompressors for what they write.
var programsArchives = map[string]program{
	// The other archivers and decompressors: they write what the
	// archive holds, or the file decompressed, which the analysis does
	// not list (their operands are read as a program without an entry's
	// are).
	"7z":      {writesUnlisted: true},
	"7za":     {writesUnlisted: true},
	"bsdtar":  {writesUnlisted: true},
	"gunzip":  {writesUnlisted: true},
	"bunzip2": {writesUnlisted: true},
	"unxz":    {writesUnlisted: true},
	"unzstd":  {writesUnlisted: true},
	// cpio reads or writes the files named in its input in every mode
	// (-i/--extract writes them, -o/--create archives the names on stdin,
	// -p/--pass-through copies them); -F/--file ARCHIVE is the archive,
	// read with -i, written with -o.
	"cpio": {changes: changesUnlisted, writesUnlisted: true, options: []opt{
		val(notFile, "-H -R -M -e"),
		val(readsFile, "-E -I --pattern-file"),
		val(writesFile, "-O -D -F --file"),
	},
		files: fileSpec{alwaysNamesInput: true}, dirSafe: true},
	"tar": {
		changes:        changesUnlisted,
		writesUnlisted: true,
		files:          fileSpec{reader: readTar},
		dirSafe:        true,
		// The options whose value tar's reader (tarRefs) reads, by role:
		// the archive (written when the mode writes it: c r u A, read
		// otherwise), the list of names it reads, a file of exclude
		// patterns, the directory the operands after it are in.
		options: []opt{guard(archiveRunsWhy, "-I --use-compress-program --to-command --checkpoint-action -F --info-script --new-volume-script --rmt-command --rsh-command"), flags("--checkpoint").unlisted(),
			val(writesFile, "-f --file"), val(namesFromInput, "-T --files-from"), val(readsFile, "-X --exclude-from"), val(setsDir, "-C --directory")},
		bundle: true,
	},
	"unzip": {changes: changesUnlisted, writesUnlisted: true, options: []opt{
		does(noNamesFromInput, "-l -p -t -v -Z -z"),
		val(notFile, "-x -P"),
		val(writesFile, "-d"),
	},
		files: fileSpec{}, dirSafe: true},
	"zip": {
		options: []opt{
			does(recursive, "-r -R"),
			does(namesFromInput, "-@"),
			val(notFile, "-b -n -P -t -x"),
			guard(archiveRunsWhy, "-T --test --unzip-command"),
		},
		files:   fileSpec{writeFirst: true}, // zip ARCHIVE FILES: the archive is written
		dirSafe: true,
	},
}
