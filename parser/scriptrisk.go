package parser

import (
	"slices"
	"strings"
)

// The programs of sed and awk can read, write and run anything: sed's e,
// r, R, w and W commands and the s command's e and w flags; awk's
// system(), getline, pipes and output redirection. scriptRisk finds the
// word that holds (or names, with -f) such a program, for the policy's
// option guard (Command.OptionHits): a rough scan that asks too
// often rather than too rarely. The sed script itself is read by
// sedScript, the one sed parser of the gate.

// scriptRisk returns the index in argv of the word that holds or names a
// sed or awk program that may run a program or read or write a file, or
// that loads code or writes a file through an option; 0 when there is
// none. argv[0] is the program as written, whose entry says its script
// (sed, gsed, awk, gawk, mawk, nawk); any other program is 0.
func scriptRisk(argv []string) int {
	i := -1
	if p := progs()[argv[0]]; p != nil {
		switch p.script {
		case sedLang:
			i = sedRisk(argv, 1)
		case awkLang:
			i = awkRisk(argv, 1)
		}
	}
	return max(i, 0)
}

// sedDangerous reports whether a sed script may run a program or read or
// write a file (e, r, R, w, W, s///e, s///w) or is not read the way GNU
// sed reads it.
func sedDangerous(s string) bool {
	eval, reads, writes, bad := sedScript(s)
	return eval || bad || len(reads) > 0 || len(writes) > 0
}

// dashPrefix reports whether name (--xyz) is an abbreviation of, or is,
// the long option opt.
func dashPrefix(name, opt string) bool {
	return len(name) > 2 && strings.HasPrefix(opt, name)
}

// sedRisk returns the index of the word of argv[i:] that holds (or
// names, with -f) a sed script that may run a program or read or write a
// file, or -1. The scripts are every -e/--expression value (and its
// abbreviations), read as one program as GNU sed joins them, else the
// first operand; --posix (another reading) asks.
func sedRisk(argv []string, i int) int {
	script := -1
	var es []int    // the indexes of the words that hold the -e values
	var vs []string // the values
	for ; i < len(argv); i++ {
		a := argv[i]
		if a == "--" {
			if script < 0 && i+1 < len(argv) {
				script = i + 1
			}
			break
		}
		if len(a) < 2 || a[0] != '-' {
			if script < 0 {
				script = i
			}
			continue
		}
		if a[1] == '-' {
			name, val, hasVal := strings.Cut(a, "=")
			switch {
			case dashPrefix(name, "--expression"):
				var ok bool
				if i, val, ok = optValue(argv, i, val, hasVal); !ok {
					return -1 // sed fails: no script
				}
				es, vs = append(es, i), append(vs, val)
			case dashPrefix(name, "--file"), dashPrefix(name, "--posix"):
				return i
			case dashPrefix(name, "--line-length") && !hasVal:
				i++
			}
			continue
		}
	cluster:
		for k := 1; k < len(a); k++ {
			switch a[k] {
			case 'e':
				var val string
				var ok bool
				if i, val, ok = optValue(argv, i, a[k+1:], k+1 < len(a)); !ok {
					return -1
				}
				es, vs = append(es, i), append(vs, val)
				break cluster
			case 'f':
				return i
			case 'l':
				if k+1 == len(a) {
					i++
				}
				break cluster
			case 'i': // -i[SUFFIX]
				break cluster
			}
		}
	}
	if len(es) == 0 {
		if script >= 0 && sedDangerous(argv[script]) {
			return script
		}
		return -1
	}
	sp := newSedParser(vs)
	sp.program()
	if sp.eval || sp.bad || len(sp.reads) > 0 || len(sp.writes) > 0 {
		return es[sedChunk(vs, sp.at)]
	}
	return -1
}

// awkSafeLong are the gawk long options that neither take a program
// (file), nor load code, nor write a file. Any other long option asks.
var awkSafeLong = []string{"--characters-as-bytes", "--traditional", "--copyright", "--gen-pot", "--help", "--usage", "--csv",
	"--bignum", "--non-decimal-data", "--use-lc-numeric", "--optimize", "--no-optimize", "--posix", "--re-interval",
	"--sandbox", "--lint", "--lint-old", "--version"}

// awkRisk returns the index of the word of argv[i:] that holds an awk
// program that may run a program or read or write a file, or that loads
// or names code (-f, -i, -l, -E, -W, --include, …) or writes a file (-o,
// -p, -d), or -1. The programs are every -e/--source value, else the
// first operand; options end there, as in gawk and mawk.
func awkRisk(argv []string, i int) int {
	for sawE := false; i < len(argv); i++ {
		a := argv[i]
		if a == "--" || len(a) < 2 || a[0] != '-' { // the program or, after -e, the first file
			if a == "--" {
				if i++; i >= len(argv) {
					return -1
				}
			}
			if !sawE && awkDangerous(argv[i]) {
				return i
			}
			return -1
		}
		if a[1] == '-' {
			name, val, hasVal := strings.Cut(a, "=")
			switch {
			case name == "--source":
				sawE = true
				var ok bool
				if i, val, ok = optValue(argv, i, val, hasVal); !ok {
					return -1
				}
				if awkDangerous(val) {
					return i
				}
			case name == "--field-separator" || name == "--assign":
				if !hasVal {
					i++
				}
			case !slices.Contains(awkSafeLong, name):
				return i // --file, --include, --load, --exec, an abbreviation, …
			}
			continue
		}
	cluster:
		for k := 1; k < len(a); k++ {
			switch c := a[k]; {
			case c == 'v' || c == 'F':
				if k+1 == len(a) {
					i++
				}
				break cluster
			case c == 'e':
				sawE = true
				var val string
				var ok bool
				if i, val, ok = optValue(argv, i, a[k+1:], k+1 < len(a)); !ok {
					return -1
				}
				if awkDangerous(val) {
					return i
				}
				break cluster
			case c == 'L': // --lint[=fatal|invalid|no-ext]
				break cluster
			case strings.IndexByte("bcCghkMnNOPrsStV", c) < 0:
				return i // -f, -i, -l, -E, -W, -o, -p, -d, -D, …
			}
		}
	}
	return -1
}

// awkDangerous reports whether an awk program may run a program, read a
// file or write one (see awkLex): system, a pipe, an output redirection
// in print or printf, getline < FILE, ARGV or SYMTAB (which name the files
// awk reads), a gawk @ (an indirect call, @load, @include), or a program
// awk refuses.
func awkDangerous(p string) bool {
	a := awkLex(p)
	return a.eval || a.reads || a.writes || a.bad
}

// optValue returns the value of the option in argv[i]: attached (has),
// else the next word. next is the index of the word that holds the value;
// ok is false when there is none (the program fails and runs nothing).
func optValue(argv []string, i int, attached string, has bool) (next int, val string, ok bool) {
	switch {
	case has:
		return i, attached, true
	case i+1 < len(argv):
		return i + 1, argv[i+1], true
	}
	return i, "", false
}
