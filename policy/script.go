package policy

import (
	"slices"
	"strings"
)

// The script guards look into the programs of sed and awk, which can
// read, write and run anything: sed's e, r, R, w and W commands and the
// s command's e and w flags; awk's system(), getline, pipes and output
// redirection. They are rough scans that ask too often rather than too
// rarely: a script read from a file (-f) is unseen and asks, and so does
// anything the scan does not understand.

// sedScript returns the index of the word of argv[i:] that holds (or
// names, with -f) a sed script that may run a program or read or write a
// file, or -1. The scripts are every -e/--expression value (and its
// abbreviations), else the first operand.
func sedScript(argv []string, i int) int {
	script, sawE := -1, false
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
			case longPrefix(name, "--expression"):
				sawE = true
				var ok bool
				if i, val, ok = optValue(argv, i, val, hasVal); !ok {
					return -1 // sed fails: no script
				}
				if sedDangerous(val) {
					return i
				}
			case longPrefix(name, "--file"):
				return i
			case longPrefix(name, "--line-length") && !hasVal:
				i++
			}
			continue
		}
	cluster:
		for k := 1; k < len(a); k++ {
			switch a[k] {
			case 'e':
				sawE = true
				var val string
				var ok bool
				if i, val, ok = optValue(argv, i, a[k+1:], k+1 < len(a)); !ok {
					return -1
				}
				if sedDangerous(val) {
					return i
				}
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
	if !sawE && script >= 0 && sedDangerous(argv[script]) {
		return script
	}
	return -1
}

// longPrefix reports whether name (--xyz) is an abbreviation of, or is,
// the long option opt.
func longPrefix(name, opt string) bool {
	return len(name) > 2 && strings.HasPrefix(opt, name)
}

// sedDangerous reports whether a sed script may have a command that runs
// a program or reads or writes a file (e, r, R, w, W, s///e, s///w), or
// whether it does not parse the way GNU sed parses it. It walks the
// commands: addresses, then the command letter and its arguments, so
// that the text of a, i and c, regexes, replacements and labels are not
// taken for commands.
func sedDangerous(s string) bool {
	i := 0
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == ';') {
			i++
		}
		if i >= len(s) {
			return false
		}
		if s[i] == '#' { // a comment: no backslash continues it
			for i < len(s) && s[i] != '\n' {
				i++
			}
			continue
		}
		var ok bool
		if i, ok = sedAddress(s, i); !ok {
			return true
		}
		if i = sedBlank(s, i); i < len(s) && s[i] == ',' {
			i = sedBlank(s, i+1)
			if i < len(s) && (s[i] == '+' || s[i] == '~') {
				i = sedDigits(s, i+1)
			} else if i, ok = sedAddress(s, i); !ok {
				return true
			}
			i = sedBlank(s, i)
		}
		for i < len(s) && s[i] == '!' {
			i = sedBlank(s, i+1)
		}
		if i >= len(s) {
			return true // an address without a command
		}
		c := s[i]
		i++
		switch c {
		case '{', '}', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		case 'q', 'Q', 'l', 'L':
			i = sedDigits(s, sedBlank(s, i))
		case 'a', 'i', 'c':
			i = sedLineEnd(s, i)
		case ':', 'b', 't', 'T', 'v':
			// A label: stop early rather than late, so that what follows
			// is scanned as commands.
			for i < len(s) && !strings.ContainsRune(" \t\n;}", rune(s[i])) {
				i++
			}
		case 's', 'y':
			if i, ok = sedDelimited(s, i); !ok {
				return true
			}
			for c == 's' && i < len(s) && strings.IndexByte("gpiImM0123456789ew", s[i]) >= 0 {
				if s[i] == 'e' || s[i] == 'w' {
					return true
				}
				i++
			}
		default: // e, r, R, w, W, and anything unknown
			return true
		}
	}
}

// sedAddress skips an address at s[i:], if any: a line number, first~step,
// $, /regex/ or \cregexc with I and M flags.
func sedAddress(s string, i int) (int, bool) {
	if i >= len(s) {
		return i, true
	}
	switch c := s[i]; {
	case c >= '0' && c <= '9':
		i = sedDigits(s, i)
		if i < len(s) && s[i] == '~' {
			i = sedDigits(s, i+1)
		}
	case c == '$':
		i++
	case c == '/' || c == '\\':
		if c == '\\' {
			i++
		}
		var ok bool
		if i, ok = sedUntil(s, i); !ok {
			return i, false
		}
		for i < len(s) && (s[i] == 'I' || s[i] == 'M') {
			i++
		}
	}
	return i, true
}

// sedDelimited skips the two delimited parts of s or y at s[i:] (the
// delimiter is s[i]).
func sedDelimited(s string, i int) (int, bool) {
	var ok bool
	if i, ok = sedUntil(s, i); !ok {
		return i, false
	}
	return sedUntil(s, i-1) // the closing delimiter opens the next part
}

// sedUntil skips a part that s[i] opens, up to and past the same
// delimiter unescaped. A newline or the end of s first is an error, as
// in GNU sed.
func sedUntil(s string, i int) (int, bool) {
	if i >= len(s) || s[i] == '\n' || s[i] == '\\' {
		return i, false
	}
	d := s[i]
	for i++; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '\n':
			return i, false
		case d:
			return i + 1, true
		}
	}
	return i, false
}

// sedLineEnd returns the end of the line at s[i:] (a backslash escapes
// the next byte, newline included: the text of a, i and c).
func sedLineEnd(s string, i int) int {
	for ; i < len(s) && s[i] != '\n'; i++ {
		if s[i] == '\\' {
			i++
		}
	}
	return i
}

func sedBlank(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

func sedDigits(s string, i int) int {
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// awkSafeLong are the gawk long options that neither take a program
// (file), nor load code, nor write a file. Any other long option asks.
var awkSafeLong = []string{"--characters-as-bytes", "--traditional", "--copyright", "--gen-pot", "--help", "--usage", "--csv",
	"--bignum", "--non-decimal-data", "--use-lc-numeric", "--optimize", "--no-optimize", "--posix", "--re-interval",
	"--sandbox", "--lint", "--lint-old", "--version"}

// awkProgram returns the index of the word of argv[i:] that holds an awk
// program that may run a program or read or write a file, or that loads
// or names code (-f, -i, -l, -E, -W, --include, …) or writes a file (-o,
// -p, -d), or -1. The programs are every -e/--source value, else the
// first operand; options end there, as in gawk and mawk.
func awkProgram(argv []string, i int) int {
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
// file or write one: system, getline, a pipe, an output redirection, ARGV
// (which names the files awk reads) or a gawk @ directive (@load,
// @include). A comparison with > asks too.
func awkDangerous(p string) bool {
	return strings.ContainsAny(p, "|>@") || strings.Contains(p, "system") || strings.Contains(p, "getline") || strings.Contains(p, "ARGV")
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
