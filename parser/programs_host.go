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
		files:   fileSpec{fileVal: "F", longFile: []string{"file"}},
		dirSafe: true,
		options: "-A -F= -I -V -a -b -d -f -h -i -s -y --alias --all-fqdns --all-ip-addresses --boot --domain --file= --fqdn --help " +
			"--ip-address --long --nis --short --version --yp",
		guards: []optionGuard{{check: hostnameRisk, why: "sets the host name"}},
	},
	"date": {
		files: fileSpec{skipVal: "dsI", fileVal: "fr", longFile: []string{"file", "reference"},
			longSkip: []string{"date", "set"}, first: true},
		dirSafe: true,
		options: "-d= -f= -I? -R -r= -s= -u --date= --debug --file= --help --iso-8601? --reference= --resolution --rfc-3339= " +
			"--rfc-email --set= --universal --utc --version",
		guards: []optionGuard{
			{options: []string{"-s", "--set"}, why: "sets the clock"},
			{check: dateRisk, why: "sets the clock (an operand that is not +FORMAT)"},
		},
	},
	"uptime": {files: fileSpec{none: true}, options: "-V -h -p -s --help --pretty --since --version"},
	"groups": {files: fileSpec{none: true}, options: "--help --version"},
	"arch":   {files: fileSpec{none: true}, options: "--help --version"},
	"nproc":  {files: fileSpec{none: true}, options: "--all --help --ignore= --version"},
	"free": {
		files: fileSpec{none: true},
		options: "-L -V -b -c= -g -h -k -l -m -s= -t -v -w --bytes --committed --count= --giga --gibi --help --human --kibi --kilo " +
			"--line --lohi --mebi --mega --pebi --peta --seconds= --si --tebi --tera --total --version --wide",
	},
	"cal": {
		files: fileSpec{none: true},
		options: "-1 -3 -S -V -Y -h -j -m -n= -s -v -w -y --color? --help --iso --julian --monday --months= --reform= --span " +
			"--sunday --twelve --version --vertical --week? --year",
	},
	"gem": {
		files: fileSpec{none: true},
		env:   "GEM_HOME GEM_PATH RUBYOPT RUBYLIB",
		subs: map[string]*program{
			"list": {options: "-a -d -e -i -l -q -v= --all --details --exact --help --installed --local --no-details --no-installed " +
				"--no-prerelease --no-verbose --prerelease --quiet --verbose --version="},
		},
	},
}

// mergePrograms adds the ecosystem tables (programs_js.go and the
// others) to programs, once, before progs indexes it. An ecosystem
// entry replaces one of programs.go with the same name (npm, node,
// python, python3, cargo, make, gofmt, hostname, date): it keeps that
// entry's files and env and adds options and guards. A name in two
// ecosystem tables is a bug.
func mergePrograms(tables ...map[string]program) {
	seen := map[string]bool{}
	for _, t := range tables {
		for name, p := range t {
			if seen[name] {
				panic("parser: program " + name + " in two ecosystem tables")
			}
			seen[name] = true
			programs[name] = p
		}
	}
}
