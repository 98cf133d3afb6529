package parser

// archivesExamples are the examples of the entries of programs_archives.go, beside
// them: see programExamples.
var archivesExamples = map[string][]programExample{
	// zip ARCHIVE FILE: the archive is written (it was read as read).
	"zip": {
		{cmd: "zip -q o.zip a", reading: "o.zip:w a", setup: "a"},
		{cmd: "zip -r -q o.zip d", reading: "o.zip:w d:rec", setup: "d/ d/a"},
	},
	// cpio is not installed here: judged from the GNU cpio 2.13 manual.
	// Every mode reads or writes the files named in its input (-o
	// archives the names on stdin: it was read as naming none); -F is
	// the archive (it was read as no file).
	"cpio": {
		{cmd: "cpio -i -F a.cpio", reading: "a.cpio:w unknown"},
		{cmd: "cpio -o -O a.cpio", reading: "a.cpio:w unknown"},
		{cmd: "cpio -p -d dest", reading: "dest unknown"},
		// The long spellings: --create names no letter, --file is -F.
		{cmd: "cpio --create --file=a.cpio", reading: "a.cpio:w unknown"},
		{cmd: "cpio --extract < a.cpio", reading: "a.cpio unknown"},
	},
	"gunzip":  {{cmd: "gunzip a.gz", reading: "a.gz:rec"}},
	"bunzip2": {{cmd: "bunzip2 a.bz2", reading: "a.bz2:rec"}},
	"unxz":    {{cmd: "unxz a.xz", reading: "a.xz:rec"}},
	"unzstd":  {{cmd: "unzstd a.zst", reading: "a.zst:rec"}},
	"7z":      {{cmd: "7z x a.7z", reading: "x:rec a.7z:rec"}},
	"7za":     {{cmd: "7za x a.7z", reading: "x:rec a.7z:rec"}},
	"bsdtar":  {{cmd: "bsdtar -xf a.tar", reading: "f:maybe a.tar:rec"}},
	"tar":     {{cmd: "tar -cf o.tar a", reading: "o.tar:w a:rec", setup: "a"}},
	"unzip":   {{cmd: "unzip -q o.zip", reading: "o.zip unknown"}},
}
