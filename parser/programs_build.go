package parser

import "strings"

// Build runners (make, just, task) and gofmt. A Makefile's recipes, a
// justfile's and a Taskfile's commands are the project's code: the
// embedded default allows them under the sandbox only. Options that
// read another build file, move the work out of the project, or pick
// the shell that runs the recipes are guard hits; so is a make variable
// that picks the shell (SHELL=, .SHELLFLAGS=, MAKEFLAGS=).
//
// gofmt -w rewrites the files it formats in place: the files are
// written references (the ignore and protection rules check them), not
// a guard, so that a policy that allows gofmt allows gofmt -w; the
// embedded default allows gofmt -w under the sandbox only (see runners).

var (
	justLead = newLead("just", true, []opt{
		flags("-V -h -l -n -q -u -v --check --dry-run --dump --evaluate --explain --fmt --groups --help --highlight --list --no-deps --no-dotenv --no-highlight --one --quiet --summary --timestamp --unsorted --unstable --variables --verbose --version --yes"),
		val(0, "-s --color --list-heading --list-prefix --show"),
		val(projectPath, "--working-directory -d"),
	})
	taskLead = newLead("task", false, []opt{
		val(0, "-C --concurrency --interval --output"),
		flags("-a -f -h -j -l -n -p -s -v -w -x -y --color --dry --exit-code --force --help --json --list --list-all --parallel --silent --status --summary --verbose --version --watch --yes"),
		val(projectPath, "-d --dir"),
	})
)

// makeRisk is make's guard on top of its options guard: a variable
// operand that picks the shell or make's own flags.
func makeRisk(argv []string, i int) int {
	for ; i < len(argv); i++ {
		name, _, ok := strings.Cut(argv[i], "=")
		if ok && !strings.HasPrefix(name, "-") {
			switch strings.TrimSpace(strings.TrimSuffix(strings.TrimSuffix(name, ":"), "+")) {
			case "SHELL", ".SHELLFLAGS", "MAKEFLAGS", "MFLAGS", "MAKESHELL", "MAKEFILES", "MAKE", "GNUMAKEFLAGS":
				return i
			}
		}
		if argv[i] == "--" {
			return -1
		}
	}
	return -1
}

// gofmtRisk finds -w spelled with two dashes, which the file reading
// (short options) does not see as the in-place write.
func gofmtRisk(argv []string, i int) int {
	for ; i < len(argv); i++ {
		if argv[i] == "--w" || strings.HasPrefix(argv[i], "--w=") {
			return i
		}
	}
	return -1
}

// taskRisk is task's guard: its options, and a variable operand.
func taskRisk(argv []string, i int) int {
	return taskLead.check(argv, i)
}

// makeWhy: make's options that pick the makefile, the directory or
// text it runs.
const makeWhy = "runs the recipes of a makefile or text you choose"

func makeEntry() program {
	return program{
		options: []opt{
			flags("-B -L -R -S -d -e -h -i -k -n -p -q -r -s -t -v -w --always-make --check-symlink-times --dry-run --environment-overrides --help --ignore-errors --just-print --keep-going --no-builtin-rules --no-builtin-variables --no-keep-going --no-print-directory --no-silent --print-data-base --print-directory --question --quiet --recon --silent --stop --touch --trace --version --warn-undefined-variables"),
			val(readsFile, "-C -f").guard(makeWhy),
			val(0, "-E -I --directory --eval --file --include-dir --makefile").guard(makeWhy),
			val(0, "--assume-new --assume-old --new-file --old-file --what-if"),
			optional(0, "-O --debug --jobs --load-average --output-sync --shuffle"),
			val(notFile, "-W -o"),
			optional(notFile, "-j -l"),
		},
		complete: true,
		env:      []envVar{{"MAKEFLAGS", envCode}, {"CC", envCode}, {"CXX", envCode}, {"CPP", envCode}, {"LD", envCode}, {"AR", envCode}, {"FC", envCode}, {"CFLAGS", envCode}, {"CXXFLAGS", envCode}, {"CPPFLAGS", envCode}, {"LDFLAGS", envCode}},
		files:    fileSpec{},
		dirSafe:  true,
		checks: []guardCheck{
			{check: makeRisk, why: "sets the shell that runs the recipes, or make's own flags"},
		},
	}
}

var programsBuild = map[string]program{
	// Build tools: the build file is code.
	"make":  runsProject(makeEntry(), runner{except: printsOnly, what: "runs the Makefile's recipes"}),
	"gmake": runsProject(makeEntry(), runner{except: printsOnly, what: "runs the Makefile's recipes"}),
	"just": {
		project: &runner{except: printsOnly, what: "runs the justfile's recipes"},
		files:   fileSpec{none: true},
		checks: []guardCheck{
			{check: justLead.check, why: "is a just option the gate does not know (--justfile, --shell, --command, --dotenv-path pick what runs), or a directory outside the project"},
		},
	},
	"task": {
		project: &runner{except: printsOnly, what: "runs the Taskfile's commands"},
		files:   fileSpec{none: true},
		checks: []guardCheck{
			{check: taskRisk, why: "is a task option the gate does not know (--taskfile, --global pick another Taskfile), or a directory outside the project"},
		},
	},
	"gofmt": {
		project: &runner{flags: []string{"w"}, what: "rewrites the project's files in place"},
		goFlags: true,
		options: []opt{
			val(0, "-r"),
			val(0, "-cpuprofile").guard("writes a CPU profile"),
			flags("-d -e -l -s"),
			does(writesOperands, "-w"),
		},
		complete: true,
		files:    fileSpec{},
		checks: []guardCheck{
			{check: gofmtRisk, why: "rewrites files spelled so that the gate does not see the write (write it -w)"},
		},
	},
	// Known only as programs that run the project's code (see runner):
	// their options are not checked, their operands read.
	"Rscript": {project: &runner{except: printsOnly, what: "runs R"}},
	"bazel":   {project: &runner{except: printsOnly, what: "runs the build's rules"}},
	"bundle":  {project: &runner{subs: []string{"exec", "install"}, except: printsOnly, what: "runs the project's gems"}},
	"cmake":   {project: &runner{except: printsOnly, what: "runs CMakeLists.txt (execute_process) and the build"}},
	"lua":     {project: &runner{except: printsOnly, what: "runs Lua"}},
	"mix":     {project: &runner{subs: []string{"test", "run", "compile", "deps.compile"}, except: printsOnly, what: "runs mix.exs and the project's code"}},
	"ninja":   {project: &runner{except: printsOnly, what: "runs the build's commands"}},
	"php":     {project: &runner{except: printsOnly, what: "runs PHP"}},
	"rake":    {project: &runner{except: printsOnly, what: "runs the Rakefile"}},
	"rspec":   {project: &runner{except: printsOnly, what: "runs the project's specs"}},
	"swift":   {project: &runner{subs: []string{"test", "run", "build", "package"}, except: printsOnly, what: "runs Package.swift and the project's code"}},
}
