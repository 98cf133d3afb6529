package parser

import "strings"

// The reasons of guards several options share.
const (
	objdumpWhy = "prints the source files the binary's debug information names, which the gate does not see"
)

// inspectPrograms are the everyday inspection programs: process and
// socket listings (procps 4, lsof 4.95, iproute2 6 ss, net-tools 2.10
// netstat) and binary inspection (coreutils od, util-linux hexdump,
// binutils 2.40 nm, objdump, strings and readelf), with their options as
// their --help lists them. progs merges them into programs.
//
// The binary readers read the files they are given (file references:
// od .env is an ignored read like cat .env) and write nothing; their
// guards are the options that load code (nm --plugin) or print files the
// gate does not see (objdump -S prints the source files the debug
// information names). The listings read no file but a pidfile (pgrep
// -F), a filter file (ss -F), and write none but ss -D's dump.
var inspectPrograms = map[string]program{
	// ps [options]: BSD options come without a dash (ps aux); none names
	// a file. BSD e prints every process's environment.
	"ps": {
		files:    fileSpec{none: true},
		readOnly: true,
		checks: []guardCheck{
			{check: psEnvironment, why: "prints the environment of processes (BSD e), which may hold secrets"},
		},
	},
	"pgrep": {
		options: []opt{
			flags("-A -a -c -f -h -i -L -l -n -o -V -v -w -x --count --exact --full --help --ignore-ancestors --ignore-case --inverse --lightweight --list-full --list-name --logpidfile --newest --oldest --version"),
			val(notFile, "-d -G -g -O -P -r -s -t -U -u --cgroup --delimiter --euid --group --ns --nslist --older --parent --pgroup --runstates --session --terminal --uid"),
			val(readsFile, "-F --pidfile"),
			val(notFile, "--signal").unlisted(),
		},
		complete: true,
		files:    fileSpec{first: true, exact: true},
		dirSafe:  true,
		readOnly: true,
	},
	// lsof [options] [names]: names (and +D/+d DIR) are stat'ed and
	// matched against open files, never read. Its +/- syntax has no
	// table here (no unknown-option check).
	"lsof": {
		lists:    true,
		dirSafe:  true,
		readOnly: true,
	},
	"ss": {
		options: []opt{
			flags("-0 -4 -6 -a -b -d -E -e -H -h -i -l -M -m -n -O -o -p -r -S -s -T -t -u -V -w -x -Z -z --all --bpf --cgroup --context --contexts --dccp --events --extended --help --inet-sockopt --info --ipv4 --ipv6 --listening --memory --mptcp --no-header --numeric --oneline --options --packet --processes --raw --resolve --sctp --summary --tcp --threads --tipc --tipcinfo --tos --udp --unix --version --vsock --xdp"),
			flags("-K --kill").guard("closes the sockets it lists"),
			val(notFile, "-A -f -N --family --net --query --socket"),
			val(writesFile, "-D --diag").guard("writes raw socket information to a file"),
			val(readsFile, "-F --filter"),
		},
		complete: true,
		files:    fileSpec{exact: true},
		dirSafe:  true,
		readOnly: true,
	},
	"netstat": {
		files:    fileSpec{none: true},
		readOnly: true,
		options: []opt{
			val(0, "-A --protocol"),
			flags("-a -C -c -e -F -g -h -i -l -M -N -n -o -p -r -s -t -U -u -V -v -W -w -x -Z -4 -6 --all --ax25 --cache --context --continuous --extend --fib --groups --help --inet --inet6 --interfaces --ipx --listening --masquerade --netrom --numeric --numeric-hosts --numeric-ports --numeric-users --programs --raw --route --sctp --statistics --symbolic --tcp --timers --udp --udplite --unix --verbose --version --wide"),
		},
		complete: true,
	},
	"od": {
		dirSafe:  true,
		readOnly: true,
		options: []opt{
			val(0, "-A -j -N -S -t --address-radix --endian --format --read-bytes --skip-bytes"),
			flags("-a -b -c -d -f -i -l -o -s -v -x --help --output-duplicates --traditional --version"),
			optional(0, "-w --strings --width"),
		},
		complete: true,
	},
	"hexdump": {
		options: []opt{
			flags("-b -C -c -d -h -o -V -v -x --canonical --help --no-squeezing --one-byte-char --one-byte-octal --two-bytes-decimal --two-bytes-hex --two-bytes-octal --version"),
			val(notFile, "-e -n -s --format --length --skip"),
			val(readsFile, "-f --format-file"),
			optional(0, "-L --color"),
		},
		complete: true,
		files:    fileSpec{exact: true},
		dirSafe:  true,
		readOnly: true,
	},
	"strings": {
		dirSafe:  true,
		readOnly: true,
		options: []opt{
			flags("-a -d -f -h -o -V -v -w --all --data --help --include-all-whitespace --print-file-name --version"),
			val(0, "-e -n -s -T -t -U --bytes --encoding --output-separator --radix --target --unicode"),
			number(),
		},
		complete: true,
	},
	"nm": {
		dirSafe:  true,
		readOnly: true,
		options: []opt{
			flags("-A -a -B -D -e -g -h -j -l -n -o -P -p -r -S -s -U -u -V -W --debug-syms --defined-only --dynamic --extern-only --help --just-symbols --line-numbers --no-demangle --no-recurse-limit --no-sort --no-weak --numeric-sort --portability --print-armap --print-file-name --print-size --quiet --recurse-limit --reverse-sort --size-sort --special-syms --synthetic --undefined-only --version --with-symbol-versions"),
			optional(0, "-C --demangle"),
			val(0, "-f -t -X --format --ifunc-chars --radix --target --unicode"),
			val(0, "--plugin").guard("loads a plugin (a shared library: code)"),
		},
		complete: true,
	},
	"objdump": {
		dirSafe:  true,
		readOnly: true,
		options: []opt{
			flags("-a -D -d -e -F -f -G -g -H -h -i -L -l -p -R -r -s -T -t -v -w -x -z --all-headers --archive-headers --debugging --debugging-tags --disassemble-all --disassemble-zeroes --dwarf-check --dynamic-reloc --dynamic-syms --file-headers --file-offsets --full-contents --headers --help --info --inlines --line-numbers --no-addresses --no-recurse-limit --no-show-raw-insn --prefix-addresses --private-headers --process-links --recurse-limit --reloc --section-headers --show-all-symbols --show-raw-insn --special-syms --stabs --syms --version --wide"),
			flags("-S --file-start-context --source").guard(objdumpWhy),
			val(0, "-b -E -j -M -m -P -U --adjust-vma --architecture --ctf-parent --disassembler-color --disassembler-options --dwarf-depth --dwarf-start --endian --insn-width --prefix-strip --private --section --start-address --stop-address --target --unicode"),
			val(0, "-I --include --prefix").guard(objdumpWhy),
			optional(0, "-C -W --ctf --demangle --disassemble --dwarf --sframe --visualize-jumps"),
			optional(0, "--source-comment").guard(objdumpWhy),
		},
		complete: true,
	},
	"readelf": {
		dirSafe:  true,
		readOnly: true,
		options: []opt{
			flags("-A -a -c -D -d -e -g -H -h -I -L -l -n -P -r -S -s -T -t -u -V -v -W -z --all --arch-specific --archive-index --decompress --dyn-syms --dynamic --enable-checks --file-header --headers --help --histogram --lint --lto-syms --no-demangle --no-recurse-limit --notes --process-links --program-headers --recurse-limit --relocs --section-details --section-groups --section-headers --sections --segments --silent-truncation --symbols --syms --unwind --use-dynamic --version --version-info --wide"),
			optional(0, "-C -w --debug-dump --demangle --sframe"),
			val(0, "-p -R -U -x --ctf-parent --ctf-strings --ctf-symbols --ctf --dwarf-depth --dwarf-start --hex-dump --relocated-dump --string-dump --sym-base --unicode"),
		},
		complete: true,
	},
}

// psEnvironment returns the index of a BSD option word of ps (no dash)
// in argv[i:] that holds e (show the environment), or -1. Option
// values (ps -o pid,cmd, ps -p 1) are words after their option.
func psEnvironment(argv []string, i int) int {
	for k := i; k < len(argv); k++ {
		a := argv[k]
		if strings.HasPrefix(a, "-") {
			// -o FORMAT, -p PID, …: the next word is a value, unless
			// attached. --opt=VALUE or --opt VALUE alike.
			if len(a) == 2 && strings.IndexByte("CGgpqstuUoO", a[1]) >= 0 ||
				strings.HasPrefix(a, "--") && !strings.Contains(a, "=") && longIs(a[2:], "format", "pid", "ppid", "sort", "user", "User", "group", "Group", "sid", "tty", "quick-pid", "cols", "columns", "width", "rows", "lines") {
				k++
			}
			continue
		}
		if strings.IndexByte(a, 'e') >= 0 && !strings.ContainsAny(a, ",=:/0123456789") {
			return k
		}
	}
	return -1
}

// xxdRisk finds what makes xxd write: -r (-revert, in any abbreviation
// xxd accepts: -r, -re, …), or a second operand, the output file (xxd
// INFILE OUTFILE). -c, -g, -l, -n, -o, -s and -R take a value.
func xxdRisk(argv []string, i int) int {
	operands := 0
	for ; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "-" && operands < 2:
			operands++
		case len(a) > 1 && a[0] == '-':
			name := strings.TrimLeft(a, "-")
			if name == "" {
				continue // -- or -: xxd reads them as operands' end or stdin
			}
			if strings.HasPrefix("revert", name) {
				return i
			}
			if len(name) == 1 && strings.Contains("cglnosR", name) {
				i++ // the value
			}
		default:
			if operands++; operands == 2 {
				return i
			}
		}
	}
	return -1
}
