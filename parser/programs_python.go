package parser

import (
	"path"
	"slices"
)

// Python: the interpreter with -m of the test, lint and compile modules,
// pytest, uv run, ruff, mypy, black, tox, and pip's listings. The
// interpreter runs whatever the working directory holds (sys.path
// starts with it, so even python -m pip may import the project's
// pip.py): the embedded default allows the runners under the sandbox
// only; pip list, freeze and show, which read the installed packages'
// metadata, run without it.

var (
	// python's options before the script, -m MODULE or -c: -c runs a
	// string the command holds, -i reads more code, -X and -W only
	// tune.
	pythonLead = newLead("python", true, []opt{flags(pythonFlags), val(0, "-W -X")})

	// uv run's options before the command: --with fetches packages,
	// --env-file reads one, --directory and --project move the work.
	uvRunLead = newLead("uv run", true, []opt{
		val(0, "-p --extra --group --package --python"),
		flags("-q -v --all-extras --all-packages --dev --exact --frozen --isolated --locked --no-dev --no-project --no-sync --offline --only-dev --quiet --verbose"),
		val(projectPath, "--directory --project"),
	})

	pipList   = newLead("pip list", false, []opt{flags("-e -i -l -v -q --disable-pip-version-check --editable --exclude-editable --include-editable --isolated --local --no-color --not-required --pre --quiet --user --verbose"), val(0, "--exclude --format --path")})
	pipFreeze = newLead("pip freeze", false, []opt{flags("-l -q -v --all --disable-pip-version-check --exclude-editable --isolated --local --no-color --quiet --user --verbose"), val(0, "--exclude --path")})
	pipShow   = newLead("pip show", false, []opt{flags("-f -q -v --disable-pip-version-check --files --isolated --no-color --quiet --verbose")})

	// pytest's options that load code or move its files: -p loads a
	// plugin (except -p no:NAME, which disables one), -o/--override-ini
	// may set addopts, --pdbcls runs a class; --rootdir, --basetemp
	// (which pytest empties), -c and --confcutdir outside the project.
	pytestLead = newLead("pytest", false, []opt{val(projectPath, "-c --basetemp --confcutdir --config-file --rootdir"), val(runsOther, "-o -p --override-ini --pdbcls")}).loosen()
)

// pythonRisk is the guard of python: an option before the script that
// it does not know (-i reads more code from standard input), the script
// read from standard input, and the module's own guards for python -m
// pytest and pip. -c STRING and -m MODULE end the options: which
// modules and strings the embedded default allows is its prefix rules'
// (python -m pytest allowed, python -m and python -c ask), so that a
// policy's own allow rules trust the interpreter.
func pythonRisk(argv []string, i int) int {
	for ; i < len(argv); i++ {
		a := argv[i]
		switch {
		case a == "-m":
			if i+1 >= len(argv) {
				return i
			}
			return moduleRisk(argv[i+1], argv, i+2)
		case a == "-c":
			return -1
		case a == "-" || a == "--":
			return i
		case len(a) < 2 || a[0] != '-':
			return -1 // the script: its arguments are its own
		}
		// -i, a cluster holding -m or -c (-Bm), -mMODULE: hits.
		if hit, _ := pythonLead.scan(argv[i:i+1], 0); hit >= 0 {
			return i
		}
		if (a == "-W" || a == "-X") && i+1 < len(argv) {
			i++
		}
	}
	return -1
}

// moduleRisk judges the arguments of a module run with python -m or a
// runner (uv run pytest) as the module's own command's.
func moduleRisk(mod string, argv []string, i int) int {
	switch mod {
	case "pytest", "py.test":
		return pytestRisk(argv, i)
	case "pip", "pip3":
		if i < len(argv) {
			switch argv[i] {
			case "list":
				return pipList.check(argv, i+1)
			case "freeze":
				return pipFreeze.check(argv, i+1)
			case "show":
				return pipShow.check(argv, i+1)
			case "install", "download": // installs.go
				return installRisk(pipInstall)(argv, i+1)
			case "--version", "-V":
				return -1
			}
		}
		return -1 // pip install, download, …: the policy's prefix rules decide
	case "python", "python3":
		return pythonRisk(argv, i)
	}
	return -1
}

// uvTools are the programs uv run runs under the guard's eye; any other
// is a hit at its name, so that a policy allows it by naming it (allow:
// [uv run myscript]).
var uvTools = map[string]bool{"pytest": true, "py.test": true, "python": true, "python3": true, "ruff": true, "mypy": true,
	"black": true, "tox": true}

// uvModules are the modules uv run python -m may run: test, lint and
// compile modules.
var uvModules = map[string]bool{"pytest": true, "unittest": true, "py_compile": true, "compileall": true, "mypy": true, "ruff": true,
	"black": true, "doctest": true}

// uvRunRisk is uv run's guard: an option before the command it does not
// know, a command other than the test and lint tools (uvTools), python
// -c or -m of another module, and the command's own guard (pytest -p).
func uvRunRisk(argv []string, i int) int {
	hit, end := uvRunLead.scan(argv, i)
	if hit >= 0 {
		return hit
	}
	if end < len(argv) && argv[end] == "--" {
		end++
	}
	if end >= len(argv) {
		return -1
	}
	tool := path.Base(argv[end])
	if !uvTools[tool] {
		return end
	}
	if tool == "python" || tool == "python3" {
		for k := end + 1; k < len(argv); k++ {
			a := argv[k]
			if a == "-c" || a == "-m" && (k+1 >= len(argv) || !uvModules[argv[k+1]]) {
				return k
			}
			if len(a) < 2 || a[0] != '-' || a == "-m" {
				break
			}
		}
	}
	return moduleRisk(tool, argv, end+1)
}

func pytestRisk(argv []string, i int) int {
	hit := pytestLead.check(argv, i)
	if hit < 0 {
		return -1
	}
	// -p no:NAME disables a plugin: no code is loaded.
	a := argv[hit]
	if (a == "-p" && hit+1 < len(argv) && len(argv[hit+1]) > 3 && argv[hit+1][:3] == "no:") || len(a) > 5 && a[:5] == "-pno:" {
		skip := hit + 1
		if a == "-p" {
			skip++
		}
		return pytestRisk(argv, skip)
	}
	return hit
}

// pytestOptions are pytest's own options and those of the plugins seen
// in everyday commands (pytest-cov, pytest-xdist, pytest-timeout,
// pytest-asyncio, pytest-randomly, pytest-rerunfailures, pytest-django).
var pytestOptions = []opt{
	flags("-V -h -l -q -s -v -x --cache-clear --co --collect-only --continue-on-collection-errors --cov-append --cov-branch --create-db --disable-pytest-warnings --disable-warnings --doctest-modules --exitfirst --failed-first --ff --fixtures --fixtures-per-test --full-trace --help --last-failed --lf --markers --new-first --nf --no-cov --no-cov-on-fail --no-header --no-migrations --no-summary --nomigrations --pdb --pyargs --quiet --reuse-db --runxfail --setup-only --setup-plan --setup-show --showlocals --strict --strict-config --strict-markers --stepwise --stepwise-skip --sw --trace --verbose --version"),
	val(0, "-W -c -k -m -n -o -p -r --asyncio-mode --basetemp --capture --code-highlight --color --confcutdir --config-file --cov-config --cov-fail-under --cov-report --deselect --dist --doctest-glob --ds --durations --durations-min --ignore --ignore-glob --import-mode --junit-prefix --junit-xml --junitxml --log-cli-level --log-level --maxfail --maxprocesses --numprocesses --override-ini --randomly-seed --reruns --reruns-delay --rootdir --tb --timeout"),
	optional(0, "--cov"),
}

var pythonEnv = []envVar{{"PYTHONSTARTUP", envCode}, {"PYTHONPATH", envCode}, {"PYTHONHOME", envCode}, {"PYTHONINSPECT", envCode}, {"PYTHONUSERBASE", envCode}, {"REQUESTS_CA_BUNDLE", envFile}, {"PYTHONUNBUFFERED", envHarmless}, {"PYTHONDONTWRITEBYTECODE", envHarmless}}

func pythonEntry() program {
	return program{
		runsModules: true,
		options:     []opt{flags(pythonFlags), val(notFile, "-c -m -W -X")},
		env:         pythonEnv, files: fileSpec{},
		checks: []guardCheck{{check: pythonRisk, why: "reads code from standard input, is an option the gate does not know, or is a guarded option of the module it runs (pytest -p)"}},
	}
}

func pipEntry() program {
	return program{
		writesUnlistedIn: []string{"install", "download"},
		env:              []envVar{{"PYTHONPATH", envCode}},
		subs: map[string]*program{
			"list":   {checks: []guardCheck{{check: pipList.check, why: "is a pip option the gate does not know (--outdated asks the network)"}}},
			"freeze": {checks: []guardCheck{{check: pipFreeze.check, why: "is a pip option the gate does not know"}}},
			"show":   {checks: []guardCheck{{check: pipShow.check, why: "is a pip option the gate does not know"}}},
			// The installs (installs.go).
			"install": installEntry(pipInstall), "download": installEntry(pipInstall),
		},
	}
}

// asModule marks p a module python -m runs (program.module).
func asModule(p program) program { p.module = true; return p }

func pytestEntry() program {
	return program{
		dirSafe: true, // collects test files and conftest.py, not every file
		options: []opt{
			flags("-V -h -l -q -s -v -x --cache-clear --co --collect-only --continue-on-collection-errors --cov-append --cov-branch --create-db --disable-pytest-warnings --disable-warnings --doctest-modules --exitfirst --failed-first --ff --fixtures --fixtures-per-test --full-trace --help --last-failed --lf --markers --new-first --nf --no-cov --no-cov-on-fail --no-header --no-migrations --no-summary --nomigrations --pdb --pyargs --quiet --reuse-db --runxfail --setup-only --setup-plan --setup-show --showlocals --strict --strict-config --strict-markers --stepwise --stepwise-skip --sw --trace --verbose --version"),
			val(notFile, "-W -k -m -n -p -r --asyncio-mode --capture --code-highlight --color --cov-fail-under --cov-report --deselect --dist --doctest-glob --ds --durations --durations-min --ignore --ignore-glob --import-mode --junit-prefix --log-cli-level --log-level --maxfail --maxprocesses --numprocesses --override-ini --randomly-seed --reruns --reruns-delay --tb --timeout"),
			val(readsFile, "-c --confcutdir --config-file --cov-config --rootdir"),
			val(0, "-o"),
			val(writesFile, "--basetemp --junit-xml --junitxml"),
			optional(0, "--cov"),
		},
		complete: true,
		env:      slices.Concat(pythonEnv, []envVar{{"PYTEST_ADDOPTS", envCode}, {"PYTEST_PLUGINS", envCode}}),
		checks:   []guardCheck{{check: pytestRisk, why: "loads a plugin or ini override (-p, -o), or puts pytest's files outside the project"}},
	}
}

var programsPython = map[string]program{
	// Python.
	"python":  runsProject(pythonEntry(), runner{except: printsOnly, what: "runs Python that imports from the working directory"}),
	"python3": runsProject(pythonEntry(), runner{except: printsOnly, what: "runs Python that imports from the working directory"}),

	// pytest loads conftest.py before it handles --version and --help.
	"pytest":  runsProject(asModule(pytestEntry()), runner{what: "runs the project's tests and conftest.py"}),
	"py.test": runsProject(pytestEntry(), runner{what: "runs the project's tests and conftest.py"}),
	"pip":     runsProject(pipEntry(), runner{subs: []string{"install"}, except: printsOnly, what: "runs setup.py of what it installs"}),
	"pip3":    runsProject(pipEntry(), runner{subs: []string{"install"}, except: printsOnly, what: "runs setup.py of what it installs"}),
	"uv": {
		project: &runner{subs: []string{"run", "build", "sync", "pip", "tool"}, except: printsOnly, what: "runs the project's code or build backend"},
		files:   fileSpec{none: true},
		env:     pythonEnv,
		subs: map[string]*program{
			"run": {checks: []guardCheck{{check: uvRunRisk, why: "is a uv run option the gate does not know (--with fetches, --env-file reads one), a program other than the test and lint tools (name it in a longer prefix), python -c or -m of another module, or the command's own guard"}}},
			"pip": {subs: map[string]*program{
				"list":   {checks: []guardCheck{{check: pipList.check, why: "is a pip option the gate does not know"}}},
				"freeze": {checks: []guardCheck{{check: pipFreeze.check, why: "is a pip option the gate does not know"}}},
				"show":   {checks: []guardCheck{{check: pipShow.check, why: "is a pip option the gate does not know"}}},
				// The installs (installs.go).
				"install": installEntry(pipInstall),
			}},
			"sync": installEntry(uvSync),
		},
	},
	"ruff": {
		project: &runner{except: printsOnly, reads: []string{"rule", "version"}, what: "lints or formats the project (and rewrites files with --fix or format)"},
		module:  true,
		dirSafe: true, // reads the files of its language in a directory operand, not every file
		// ruff format rewrites its operands in place unless --check or
		// --diff; ruff check does with --fix, --fix-only or --add-noqa
		// (a fix = true in the project's configuration the gate does not
		// read). Before the subcommand (ruff -q format), or under one
		// without an entry, every operand is written: the safe reading.
		options: []opt{
			val(writesFile, "-o --output-file --cache-dir"),
			val(notFile, "--select --ignore --extend-select --extend-ignore --fixable --unfixable --exclude --extend-exclude --line-length --target-version --output-format --stdin-filename --range"),
			val(readsFile, "--config"),
		},
		files: fileSpec{first: true, writeAll: true},
		subs: map[string]*program{
			"check": {ownFiles: true, options: []opt{
				flags("-e -h -n -q -s -v --force-exclude --help --isolated --no-cache --no-force-exclude --no-preview --no-respect-gitignore --preview --quiet --respect-gitignore --silent --verbose --diff --exit-non-zero-on-fix --exit-zero --no-fix --show-files --show-fixes --show-settings --statistics --unsafe-fixes --watch -w"),
				val(writesFile, "--cache-dir -o --output-file"),
				val(readsFile, "--config"),
				val(notFile, "--exclude --extend-exclude --line-length --stdin-filename --target-version --extend-ignore --extend-select --fixable --ignore --output-format --select --unfixable"),
				does(writesOperands, "--add-noqa --fix"),
				val(notFile, "--range").unlisted(),
				does(writesOperands, "--fix-only").unlisted(),
			},
				complete: true,
				files:    fileSpec{},
			},
			"format": {ownFiles: true, options: []opt{
				does(readsOperandsOnly, "--check --diff"),
				flags("-e -h -n -q -s -v --force-exclude --help --isolated --no-cache --no-force-exclude --no-preview --no-respect-gitignore --preview --quiet --respect-gitignore --silent --verbose --exit-non-zero-on-format"),
				val(writesFile, "--cache-dir -o --output-file"),
				val(readsFile, "--config"),
				val(notFile, "--exclude --extend-exclude --line-length --stdin-filename --target-version --range"),
				val(notFile, "--select --ignore --extend-select --extend-ignore --fixable --unfixable --output-format").unlisted(),
			},
				complete: true,
				files:    fileSpec{writeAll: true},
			},
			"rule": {ownFiles: true, files: fileSpec{none: true}, options: []opt{flags("--all -h --help"), val(0, "--output-format")}, complete: true},
		},
	},
	"mypy": {
		project: &runner{except: printsOnly, what: "type-checks the project, loading the plugins its config names"},
		module:  true,
		dirSafe: true, // reads the files of its language in a directory operand, not every file
		options: []opt{
			flags("-V -h -v --check-untyped-defs --disallow-any-generics --disallow-untyped-calls --disallow-untyped-defs --explicit-package-bases --help --ignore-missing-imports --namespace-packages --no-error-summary --no-implicit-optional --no-incremental --no-site-packages --non-interactive --pretty --show-column-numbers --show-error-codes --show-error-context --show-traceback --sqlite-cache --strict --tb --verbose --version --warn-redundant-casts --warn-return-any --warn-unreachable --warn-unused-configs --warn-unused-ignores"),
			val(notFile, "-c -m -p --always-false --always-true --exclude --follow-imports --module --package --platform --python-version"),
			val(writesFile, "--cache-dir --html-report --junit-xml --txt-report"),
			val(readsFile, "--config-file"),
		},
		complete: true,
		env:      pythonEnv,
		files:    fileSpec{},
	},
	"black": {
		project: &runner{except: printsOnly, what: "rewrites the project's files in place"},
		module:  true,
		dirSafe: true, // reads the files of its language in a directory operand, not every file
		// black rewrites its operands in place (unless --check, --diff or
		// -c): they are written files, which the ignore and protection
		// rules check.
		options: []opt{
			does(readsOperandsOnly, "--check --diff"),
			val(notFile|readsOperandsOnly, "-c"),
			flags("-C -S -h -q -v --color --fast --help --ipynb --no-color --preview --pyi --quiet --safe --skip-magic-trailing-comma --skip-string-normalization --unstable --verbose --version"),
			val(notFile, "-W -l -t --code --enable-unstable-feature --exclude --extend-exclude --force-exclude --include --line-length --line-ranges --python-cell-magics --required-version --stdin-filename --target-version --workers"),
			val(readsFile, "--config"),
		},
		complete: true,
		files:    fileSpec{writeAll: true},
	},
	"tox": {
		project: &runner{except: printsOnly, what: "runs the project's test environments"},
		options: []opt{
			flags("-a -h -l -n -q -r -v --alwayscopy --develop --help --listenvs-all --list-envs --notest --no-recreate-pkg --parallel-live --quiet --recreate --sitepackages --skip-pkg-install --verbose --version"),
			val(0, "-c -e -f -m --colored --conf --exit-and-dump-after"),
			optional(0, "-p --parallel --skip-missing-interpreters"),
		},
		complete: true,
		env:      pythonEnv,
		files:    fileSpec{none: true},
	},
	// Known only as programs that run the project's code (see runner):
	// their options are not checked, their operands read.
	"nox":     {project: &runner{except: printsOnly, what: "runs noxfile.py"}},
	"poetry":  {project: &runner{subs: []string{"run", "install", "build"}, except: printsOnly, what: "runs the project's code or build backend"}},
	"python2": {project: &runner{except: printsOnly, what: "runs Python that imports from the working directory"}},
}

// ruffSkip are ruff's long options whose separate value is not a file.
var ruffSkip = []string{"select", "ignore", "extend-select", "extend-ignore", "fixable", "unfixable", "exclude", "extend-exclude",
	"line-length", "target-version", "output-format", "stdin-filename", "range"}

var ruffCommon = []opt{
	flags("-e -h -n -q -s -v --force-exclude --help --isolated --no-cache --no-force-exclude --no-preview --no-respect-gitignore --preview --quiet --respect-gitignore --silent --verbose"),
	val(0, "--cache-dir --config --exclude --extend-exclude --line-length --stdin-filename --target-version -o --output-file"),
}

// pythonFlags are python's options without a value (python3 --help).
const pythonFlags = "-B -E -I -O -P -R -S -V -b -d -h -q -s -u -v -x --help --version"

// pythonModule returns the module of python -m MODULE (p's entry runs
// modules: python, python3) and the words after it, when the entry of
// MODULE is a module's, which reads them, and only flags without values
// (its entry's) come before -m; ok is false otherwise, and the words are read as
// python's.
func pythonModule(p *program, args []Word) (string, []Word, bool) {
	if p == nil || !p.runsModules {
		return "", nil, false
	}
	isModule := func(name string) bool { m := progs()[name]; return m != nil && m.module }
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a.Dynamic:
			return "", nil, false
		case a.Value == "-m" && i+1 < len(args) && !args[i+1].Dynamic && isModule(args[i+1].Value):
			return args[i+1].Value, args[i+2:], true
		case len(a.Value) == 2 && a.Value[0] == '-' && p.declaresFlag(a.Value):
		default:
			return "", nil, false
		}
	}
	return "", nil, false
}
