package parser

// readerWriters complete the entries of programs whose options or
// operands turn a reader into a writer of a file it is given. Each
// entry's files are set on the entry of programs of the same name when
// that one has none, or the entry is added (see mergeReaderWriters).
//
//	xxd [opts] [INFILE [OUTFILE]]     OUTFILE written: xxd -r x .git/config
//	less -o FILE | -O FILE | --log-file=FILE | --LOG-FILE=FILE   FILE written
//	     -k FILE | --lesskey-file=FILE   FILE read
var readerWriters = map[string]program{
	// xxd's value options (-c -g -l -n -o -s, also spelled -cols, -len,
	// -seek …, attached or not) are not skipped: a value counted as an
	// operand only moves the written operand later, never drops it.
	"xxd": {files: fileSpec{writeLast: true}, dirSafe: true},
	"less": {
		options: []opt{
			val(notFile, "-b -h -j -p -P -t -x -y -z -# --pattern --prompt --tag --tabs --window --max-back-scroll --max-forw-scroll --shift --jump-target"),
			val(readsFile, "-k -T --lesskey-file --tag-file"),
			val(writesFile, "-o -O --log-file --LOG-FILE"),
		},
		files:   fileSpec{},
		dirSafe: true,
	},
}

// checksumWhy: sha256sum -c LIST reads the files LIST names, which the
// gate cannot see (and tells whether each matches a hash of your choice).
const checksumWhy = "reads the files named in the checksum list, which the gate cannot check"

// mergeReaderWriters adds readerWriters to m (programs, before progs
// indexes it).
func mergeReaderWriters(m map[string]program) {
	for name, e := range readerWriters {
		p, ok := m[name]
		if !ok {
			m[name] = e
			continue
		}
		if p.files.isZero() && !hasFileRoles(p.options) {
			p.files = e.files
			p.options = append(p.options[:len(p.options):len(p.options)], e.options...)
		}
		p.dirSafe = p.dirSafe || e.dirSafe
		m[name] = p
	}
}

// isZero reports a fileSpec that says nothing: every operand read
// (unless its entry's options have roles).
func (f *fileSpec) isZero() bool { return *f == fileSpec{} }

// hasFileRoles reports options with a role of the file reader.
func hasFileRoles(opts []opt) bool {
	for _, o := range opts {
		if o.role&^runs != 0 {
			return true
		}
	}
	return false
}
