package parser

import "strings"

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
		guards: []optionGuard{
			{check: psEnvironment, why: "prints the environment of processes (BSD e), which may hold secrets"},
		},
	},
	"pgrep": {
		files: fileSpec{skipVal: "dgGOPstuUr", fileVal: "F", first: true, exact: true, longFile: []string{"pidfile"},
			longSkip: []string{"delimiter", "pgroup", "group", "older", "parent", "session", "terminal", "euid", "uid", "runstates", "cgroup", "ns", "nslist", "signal"}},
		dirSafe:  true,
		readOnly: true,
		options: "-A -a -c -d= -F= -f -G= -g= -h -i -L -l -n -O= -o -P= -r= -s= -t= -U= -u= -V -v -w -x " +
			"--cgroup= --count --delimiter= --euid= --exact --full --group= --help --ignore-ancestors --ignore-case --inverse " +
			"--lightweight --list-full --list-name --logpidfile --newest --ns= --nslist= --older= --oldest --parent= --pgroup= " +
			"--pidfile= --runstates= --session= --terminal= --uid= --version",
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
		files: fileSpec{skipVal: "NfA", fileVal: "F", writeVal: "D", exact: true, longFile: []string{"filter"},
			longWrite: []string{"diag"}, longSkip: []string{"net", "family", "query", "socket"}},
		dirSafe:  true,
		readOnly: true,
		options: "-0 -4 -6 -A= -a -b -D= -d -E -e -F= -f= -H -h -i -K -l -M -m -N= -n -O -o -p -r -S -s -T -t -u -V -w -x -Z -z " +
			"--all --bpf --cgroup --context --contexts --dccp --diag= --events --extended --family= --filter= --help --inet-sockopt " +
			"--info --ipv4 --ipv6 --kill --listening --memory --mptcp --net= --no-header --numeric --oneline --options --packet " +
			"--processes --query= --raw --resolve --sctp --socket= --summary --tcp --threads --tipc --tipcinfo --tos --udp --unix " +
			"--version --vsock --xdp",
		guards: []optionGuard{
			{options: []string{"-K", "--kill"}, why: "closes the sockets it lists"},
			{options: []string{"-D", "--diag"}, why: "writes raw socket information to a file"},
		},
	},
	"netstat": {
		files:    fileSpec{none: true},
		readOnly: true,
		options: "-A= -a -C -c -e -F -g -h -i -l -M -N -n -o -p -r -s -t -U -u -V -v -W -w -x -Z -4 -6 " +
			"--all --ax25 --cache --context --continuous --extend --fib --groups --help --inet --inet6 --interfaces --ipx " +
			"--listening --masquerade --netrom --numeric --numeric-hosts --numeric-ports --numeric-users --programs --protocol= " +
			"--raw --route --sctp --statistics --symbolic --tcp --timers --udp --udplite --unix --verbose --version --wide",
	},
	"od": {
		dirSafe:  true,
		readOnly: true,
		options: "-A= -a -b -c -d -f -i -j= -l -N= -o -S= -s -t= -v -w? -x --address-radix= --endian= --format= --help " +
			"--output-duplicates --read-bytes= --skip-bytes= --strings? --traditional --version --width?",
	},
	"hexdump": {
		files:    fileSpec{skipVal: "ens", fileVal: "f", exact: true, longFile: []string{"format-file"}, longSkip: []string{"format", "length", "skip"}},
		dirSafe:  true,
		readOnly: true,
		options: "-b -C -c -d -e= -f= -h -L? -n= -o -s= -V -v -x --canonical --color? --format= --format-file= --help --length= " +
			"--no-squeezing --one-byte-char --one-byte-octal --skip= --two-bytes-decimal --two-bytes-hex --two-bytes-octal --version",
	},
	"strings": {
		dirSafe:  true,
		readOnly: true,
		options: "-a -d -e= -f -h -n= -o -s= -T= -t= -U= -V -v -w -NUM --all --bytes= --data --encoding= --help " +
			"--include-all-whitespace --output-separator= --print-file-name --radix= --target= --unicode= --version",
	},
	"nm": {
		dirSafe:  true,
		readOnly: true,
		options: "-A -a -B -C? -D -e -f= -g -h -j -l -n -o -P -p -r -S -s -t= -U -u -V -W -X= --debug-syms --defined-only " +
			"--demangle? --dynamic --extern-only --format= --help --ifunc-chars= --just-symbols --line-numbers --no-demangle " +
			"--no-recurse-limit --no-sort --no-weak --numeric-sort --plugin= --portability --print-armap --print-file-name " +
			"--print-size --quiet --radix= --recurse-limit --reverse-sort --size-sort --special-syms --synthetic --target= " +
			"--undefined-only --unicode= --version --with-symbol-versions",
		guards: []optionGuard{
			{options: []string{"--plugin"}, why: "loads a plugin (a shared library: code)"},
		},
	},
	"objdump": {
		dirSafe:  true,
		readOnly: true,
		options: "-a -b= -C? -D -d -E= -e -F -f -G -g -H -h -I= -i -j= -L -l -M= -m= -P= -p -R -r -S -s -T -t -U= -v -W? -w -x -z " +
			"--adjust-vma= --all-headers --architecture= --archive-headers --ctf-parent= --ctf? --debugging --debugging-tags " +
			"--demangle? --disassemble-all --disassemble-zeroes --disassemble? --disassembler-color= --disassembler-options= " +
			"--dwarf-check --dwarf-depth= --dwarf-start= --dwarf? --dynamic-reloc --dynamic-syms --endian= --file-headers " +
			"--file-offsets --file-start-context --full-contents --headers --help --include= --info --inlines --insn-width= " +
			"--line-numbers --no-addresses --no-recurse-limit --no-show-raw-insn --prefix-addresses --prefix-strip= --prefix= " +
			"--private-headers --private= --process-links --recurse-limit --reloc --section-headers --section= --sframe? " +
			"--show-all-symbols --show-raw-insn --source-comment? --source --special-syms --stabs --start-address= " +
			"--stop-address= --syms --target= --unicode= --version --visualize-jumps? --wide",
		guards: []optionGuard{
			{options: []string{"-S", "--source", "--source-comment", "-I", "--include", "--prefix", "--file-start-context"},
				why: "prints the source files the binary's debug information names, which the gate does not see"},
		},
	},
	"readelf": {
		dirSafe:  true,
		readOnly: true,
		options: "-A -a -C? -c -D -d -e -g -H -h -I -L -l -n -P -p= -R= -r -S -s -T -t -U= -u -V -v -W -w? -x= -z " +
			"--all --arch-specific --archive-index --ctf-parent= --ctf-strings= --ctf-symbols= --ctf= --debug-dump? " +
			"--decompress --demangle? --dwarf-depth= --dwarf-start= --dyn-syms --dynamic --enable-checks --file-header --headers " +
			"--help --hex-dump= --histogram --lint --lto-syms --no-demangle --no-recurse-limit --notes --process-links " +
			"--program-headers --recurse-limit --relocated-dump= --relocs --section-details --section-groups --section-headers " +
			"--sections --segments --sframe? --silent-truncation --string-dump= --sym-base= --symbols --syms --unicode= " +
			"--unwind --use-dynamic --version --version-info --wide",
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
