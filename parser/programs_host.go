package parser

// Host facts: what machine this is, who runs, how busy it is. They read
// the kernel's and the system's state, write nothing and run nothing,
// and the embedded default allows them without the sandbox. Their
// writing forms are guard hits: hostname NAME and hostname -F FILE set
// the host name, date MMDDhhmm and date -s set the clock.

// hostnameRisk is hostname's guard: an operand (the new name) or an
// option that sets it.
func hostnameRisk(argv []string, i int) int {
	for ; i < len(argv); i++ {
		a := argv[i]
		if a == "-F" || a == "-b" || a == "--boot" || len(a) > 2 && a[:2] == "-F" || len(a) > 3 && a[:3] == "--f" {
			return i
		}
		if len(a) == 0 || a[0] != '-' || a == "--" {
			return i
		}
	}
	return -1
}

// dateRisk is date's guard on top of -s: an operand that is not a +FORMAT
// sets the clock (date MMDDhhmm[[CC]YY][.ss]).
func dateRisk(argv []string, i int) int {
	skip := false
	for ; i < len(argv); i++ {
		a := argv[i]
		switch {
		case skip:
			skip = false
		case a == "-d" || a == "-f" || a == "-r" || a == "--date" || a == "--file" || a == "--reference":
			skip = true
		case len(a) > 0 && a[0] == '-':
		case len(a) > 0 && a[0] == '+':
		default:
			return i
		}
	}
	return -1
}

var programsHost = map[string]program{
	"hostname": {
		options: []opt{
			flags("-A -I -V -a -b -d -f -h -i -s -y --alias --all-fqdns --all-ip-addresses --boot --domain --fqdn --help --ip-address --long --nis --short --version --yp"),
			val(readsFile, "-F --file"),
		},
		complete: true,
		files:    fileSpec{},
		dirSafe:  true,
		checks:   []guardCheck{{check: hostnameRisk, why: "sets the host name"}},
	},
	"date": {
		options: []opt{
			val(notFile, "-d --date"),
			val(notFile, "-s --set").guard("sets the clock"),
			val(readsFile, "-f -r --file --reference"),
			optional(notFile, "-I"),
			flags("-R -u --debug --help --resolution --rfc-email --universal --utc --version"),
			optional(0, "--iso-8601"),
			val(0, "--rfc-3339"),
		},
		complete: true,
		files:    fileSpec{first: true},
		dirSafe:  true,
		checks: []guardCheck{
			{check: dateRisk, why: "sets the clock (an operand that is not +FORMAT)"},
		},
	},
	"uptime": {files: fileSpec{none: true}, options: []opt{flags("-V -h -p -s --help --pretty --since --version")}, complete: true},
	"groups": {files: fileSpec{none: true}, options: []opt{flags("--help --version")}, complete: true},
	"arch":   {files: fileSpec{none: true}, options: []opt{flags("--help --version")}, complete: true},
	"nproc":  {files: fileSpec{none: true}, options: []opt{flags("--all --help --version"), val(0, "--ignore")}, complete: true},
	"free": {
		files: fileSpec{none: true},
		options: []opt{
			flags("-L -V -b -g -h -k -l -m -t -v -w --bytes --committed --giga --gibi --help --human --kibi --kilo --line --lohi --mebi --mega --pebi --peta --si --tebi --tera --total --version --wide"),
			val(0, "-c -s --count --seconds"),
		},
		complete: true,
	},
	"cal": {
		files: fileSpec{none: true},
		options: []opt{
			flags("-1 -3 -S -V -Y -h -j -m -s -v -w -y --help --iso --julian --monday --span --sunday --twelve --version --vertical --year"),
			val(0, "-n --months --reform"),
			optional(0, "--color --week"),
		},
		complete: true,
	},
	"gem": {
		files: fileSpec{none: true},
		env:   []envVar{{"GEM_HOME", envCode}, {"GEM_PATH", envCode}, {"RUBYOPT", envCode}, {"RUBYLIB", envCode}},
		subs: map[string]*program{
			"list": {options: []opt{
				flags("-a -d -e -i -l -q --all --details --exact --help --installed --local --no-details --no-installed --no-prerelease --no-verbose --prerelease --quiet --verbose"),
				val(0, "-v --version"),
			},
				complete: true,
			},
		},
	},
}
