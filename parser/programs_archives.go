package parser

// The reasons of guards several options share.
const (
	archiveRunsWhy = "runs a program"
)

// programsArchives: the archivers: tar, zip, unzip, cpio.
var programsArchives = map[string]program{
	// cpio reads or writes the files named in its input in every mode
	// (-i/--extract writes them, -o/--create archives the names on stdin,
	// -p/--pass-through copies them); -F/--file ARCHIVE is the archive,
	// read with -i, written with -o.
	"cpio": {changes: changesUnlisted, options: []opt{
		val(notFile, "-H -R -M -e"),
		val(readsFile, "-E -I --pattern-file"),
		val(writesFile, "-O -D -F --file"),
	},
		files: fileSpec{alwaysNamesInput: true}, dirSafe: true},
	"tar": {
		changes: changesUnlisted,
		files:   fileSpec{reader: readTar},
		dirSafe: true,
		options: []opt{guard(archiveRunsWhy, "-I --use-compress-program --to-command --checkpoint-action -F --info-script --new-volume-script --rmt-command --rsh-command"), flags("--checkpoint").unlisted()},
		bundle:  true,
	},
	"unzip": {changes: changesUnlisted, options: []opt{
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
