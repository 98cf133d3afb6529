package parser

import (
	"slices"
	"strings"
)

// JavaScript and TypeScript: the package managers' script runners, npx
// and bunx, node, and the everyday tools (tsc, eslint, prettier, vitest,
// jest). The embedded default allows them under the sandbox only (they
// run the project's code: package.json scripts, config files that are
// JavaScript, node_modules); their entries say which options the gate
// knows, so that another asks.
//
// An npm option is a configuration setting (any key of npm config), and
// several settings run a program (--script-shell, --node-options,
// --shell, --editor, --browser) or move the work out of the project
// (--prefix, --userconfig, --globalconfig, --cache): every option npm's
// entries do not list is a guard hit, not merely unknown.

const npmWhy = "is an npm setting the gate does not know (settings may run a program: --script-shell, --node-options; or leave the project: --prefix)"

// npmCommon are the npm options that only change what npm prints or
// which workspace it works in.
var npmCommon = []opt{
	flags("-d -q -s --no-color --include-workspace-root --json --no-progress --no-workspaces --parseable --progress --quiet --silent --verbose --workspaces --ws"),
	val(0, "-w --loglevel --workspace"),
	optional(0, "--color"),
}

var (
	npmTop    = newLead("npm", true, withRole(slices.Concat(npmCommon, []opt{flags("-h -v --help --version")}), projectPath, "-w --workspace"))
	npmScript = newLead("npm run", false, withRole(slices.Concat(npmCommon, []opt{flags("--foreground-scripts --if-present --ignore-scripts")}), projectPath, "-w --workspace"))
	npmList   = newLead("npm ls", false, []opt{
		flags("-d -q -s --no-color --include-workspace-root --json --no-progress --no-workspaces --parseable --progress --quiet --silent --verbose --workspaces --ws -a -g -l -p --all --dev --global --link --long --package-lock-only --prod --production --unicode"),
		val(projectPath, "-w --workspace"),
		optional(0, "--color"),
		val(0, "--loglevel --depth --include --omit"),
	})
	npmConfigList = newLead("npm config", false, slices.Concat(npmCommon, []opt{flags("-g -l --global --long"), val(0, "--location")}))

	pnpmTop = newLead("pnpm", true, []opt{
		val(projectPath, "-C --dir"),
		val(0, "-F --filter --loglevel --reporter --resume-from --workspace-concurrency"),
		flags("-h -r -s -v -w --aggregate-output --color --fail-if-no-match --help --if-present --no-bail --no-color --parallel --recursive --report-summary --sequential --silent --stream --version --workspace-root"),
	})
	pnpmList = newLead("pnpm ls", false, []opt{flags("-D -P -g -r --dev --global --json --long --only-projects --parseable --prod --recursive"), val(0, "--depth")})

	yarnTop = newLead("yarn", true, []opt{flags("-h -s -v --help --json --no-progress --non-interactive --offline --silent --verbose --version"), val(projectPath, "--cwd")})
	// yarn list, yarn why: what is installed.
	yarnList = newLead("yarn list", false, []opt{val(0, "--depth --pattern"), flags("--json --silent")})

	bunTop = newLead("bun", true, []opt{flags("-h -v --bun --help --revision --silent --version"), val(projectPath, "--cwd")})
	// bun run's options before the script or file; --eval, --print and
	// --preload run code of their own, --env-file reads one.
	bunRun = newLead("bun run", true, []opt{
		val(0, "-F --filter"),
		flags("--bun --hot --if-present --no-clear-screen --silent --smol --watch"),
		val(runsOther, "--shell"),
	})

	// npx and bunx: options before the binary. -p/--package installs a
	// package; -c/--call runs a shell string.
	npxLead = newLead("npx", true, []opt{flags("-q -y --no --no-install --offline --prefer-offline --prefer-online --quiet --silent --yes")})

	// node's options before the script. -e/-p/-r/--import/--loader run
	// code the command names; --inspect listens; --env-file reads one.
	nodeLead = newLead("node", true, []opt{val(0, "-C -e -p --eval --print --conditions --input-type --max-old-space-size --stack-size --stack-trace-limit --test-concurrency --test-name-pattern --test-reporter --test-reporter-destination --test-skip-pattern --test-timeout --unhandled-rejections --watch-path"), flags("-c -h -v --check --enable-source-maps --experimental-strip-types --experimental-test-coverage --experimental-transform-types --experimental-vm-modules --expose-gc --help --no-deprecation --no-experimental-strip-types --no-warnings --pending-deprecation --preserve-symlinks --test --test-only --throw-deprecation --trace-deprecation --trace-uncaught --trace-warnings --version --watch")})
)

// pnpmOwn and bunOwn are the package managers' own commands that fetch,
// install, publish or run what the gate does not see; the embedded
// default asks about them by prefix rules (pnpm install), and the guards
// below catch them behind options (pnpm -r install), which prefix rules
// do not reorder.
var (
	pnpmOwn = wordSet("add i install update up upgrade remove rm uninstall un link ln unlink import rebuild rb prune fetch " +
		"install-test it patch patch-commit patch-remove audit outdated licenses create dlx init publish pack server store setup env " +
		"deploy config c set self-update exec dedupe approve-builds x")
	bunOwn = wordSet("install i add a remove rm update link unlink pm publish create c init upgrade x exec patch patch-commit " +
		"outdated audit info repl")
)

func wordSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// ownBehind returns the guard of a package manager with lead options l
// and own commands own: a lead option it does not know, or an own
// command behind lead options.
func ownBehind(l *lead, own map[string]bool) func([]string, int) int {
	return func(argv []string, i int) int {
		hit, end := l.scan(argv, i)
		if hit < 0 && end > i && end < len(argv) && own[argv[end]] {
			return end
		}
		return hit
	}
}

// tsxRisk is tsx's guard: tsx FILE and tsx watch FILE, options before
// the file as tsx knows them.
func tsxRisk(argv []string, i int) int {
	if i < len(argv) && argv[i] == "watch" {
		i++
	}
	hit, end := tsxLead.scan(argv, i)
	if hit < 0 && end < len(argv) && argv[end] == "-" {
		return end
	}
	return hit
}

// nodeRisk is node's guard: an option it does not know before the
// script (-r/--require, --import, --loader load code a file outside the
// project may hold; --inspect listens; --env-file reads one), or the
// script read from standard input ("-"). -e and -p STRING are code the
// command holds: the embedded default asks about them with prefix
// rules, and a policy's own allow rules trust the interpreter.
func nodeRisk(argv []string, i int) int {
	hit, end := nodeLead.scan(argv, i)
	if hit < 0 && end < len(argv) && argv[end] == "-" {
		return end
	}
	return hit
}

// npxRisk is the guard of npx and bunx: an option before the binary that
// the gate does not know (-p/--package fetches a package, -c/--call runs
// a shell string).
func npxRisk(argv []string, i int) int { return npxLead.check(argv, i) }

// npmScriptEntry is the entry of an npm subcommand that runs a script:
// every option before "--" is npm's (the script's arguments follow
// "--").
// npmMatchArgv is what prefix rules match for npm: its options before
// the command removed when npm's option guard passes them all (npm -w
// web run build is npm run build in the workspace web, a directory of
// the project), as git's global options are; args itself otherwise.
func npmMatchArgv(args []string) []string {
	if len(args) < 3 || args[0] != "npm" || !strings.HasPrefix(args[1], "-") {
		return args
	}
	if hit, end := npmTop.scan(args, 1); hit < 0 && end > 1 && end < len(args) {
		return append([]string{"npm"}, args[end:]...)
	}
	return args
}

func npmScriptEntry() *program {
	return &program{checks: []guardCheck{{check: npmScript.check, why: npmWhy}}}
}

func npmListEntry() *program {
	return &program{checks: []guardCheck{{check: npmList.check, why: npmWhy}}}
}

var programsJS = map[string]program{
	"npm": {
		// JavaScript: package.json scripts, lifecycle scripts of install,
		// binaries of node_modules.
		project:          &runner{subs: []string{"test", "t", "tst", "run", "run-script", "rum", "urn", "exec", "x", "start", "stop", "restart", "install", "i", "in", "isntall", "add", "ci", "install-test", "it", "install-ci-test", "cit", "rebuild", "rb", "pack", "publish", "explore"}, except: printsOnly, what: "runs the package's scripts"},
		writesUnlistedIn: []string{"install", "i", "in", "ci", "add", "update", "up"},
		files:            fileSpec{none: true}, // script names and packages, not files
		env:              []envVar{{"NPM_CONFIG_*", envCode}, {"npm_config_*", envCode}, {"NODE_OPTIONS", envCode}, {"NODE_ENV", envHarmless}},
		checks: []guardCheck{
			{check: npmTop.check, why: npmWhy},
		},
		subs: map[string]*program{
			"test": npmScriptEntry(), "t": npmScriptEntry(), "tst": npmScriptEntry(),
			"run": npmScriptEntry(), "run-script": npmScriptEntry(), "rum": npmScriptEntry(), "urn": npmScriptEntry(),
			"start": npmScriptEntry(),
			// The installs (installs.go).
			"install": installEntry(npmInstall), "i": installEntry(npmInstall), "in": installEntry(npmInstall),
			"isntall": installEntry(npmInstall), "add": installEntry(npmInstall), "ci": installEntry(npmInstall),
			"clean-install": installEntry(npmInstall),
			"ls":            npmListEntry(), "list": npmListEntry(), "ll": npmListEntry(), "la": npmListEntry(),
			"config": {subs: map[string]*program{
				"list": {checks: []guardCheck{{check: npmConfigList.check, why: npmWhy}}},
				"ls":   {checks: []guardCheck{{check: npmConfigList.check, why: npmWhy}}},
			}},
		},
	},
	"pnpm": {
		project:          &runner{except: printsOnly, reads: []string{"list", "ls", "why", "outdated", "info", "view"}, what: "runs the package's scripts (pnpm NAME runs script NAME)"},
		writesUnlistedIn: []string{"install", "i", "add", "update", "up"},
		files:            fileSpec{none: true},
		env:              []envVar{{"NPM_CONFIG_*", envCode}, {"npm_config_*", envCode}, {"NODE_OPTIONS", envCode}, {"NODE_ENV", envHarmless}},
		checks: []guardCheck{
			// pnpm's options come before the script or command; what
			// follows the script's name is the script's.
			{check: ownBehind(pnpmTop, pnpmOwn), why: "is a pnpm option the gate does not know, -C/--dir outside the project, or a pnpm command that installs or publishes behind options"},
		},
		subs: map[string]*program{
			"run":  {checks: []guardCheck{{check: pnpmTop.check, why: "is a pnpm option the gate does not know"}}},
			"ls":   {checks: []guardCheck{{check: pnpmList.check, why: "is a pnpm option the gate does not know"}}},
			"list": {checks: []guardCheck{{check: pnpmList.check, why: "is a pnpm option the gate does not know"}}},
			"why":  {checks: []guardCheck{{check: pnpmList.check, why: "is a pnpm option the gate does not know"}}},
			// The installs (installs.go).
			"install": installEntry(pnpmInstall), "i": installEntry(pnpmInstall), "add": installEntry(pnpmInstall),
			"fetch": installEntry(pnpmInstall),
		},
	},
	"yarn": {
		project:          &runner{except: printsOnly, reads: []string{"list", "why", "outdated", "info"}, what: "runs the package's scripts (yarn NAME runs script NAME)"},
		writesUnlistedIn: []string{"install", "add", "upgrade"},
		files:            fileSpec{none: true},
		env:              []envVar{{"NPM_CONFIG_*", envCode}, {"npm_config_*", envCode}, {"NODE_OPTIONS", envCode}, {"NODE_ENV", envHarmless}},
		checks: []guardCheck{
			{check: yarnTop.check, why: "is a yarn option the gate does not know, or --cwd outside the project"},
		},
		subs: map[string]*program{
			"run":  {checks: []guardCheck{{check: yarnTop.check, why: "is a yarn option the gate does not know"}}},
			"list": {checks: []guardCheck{{check: yarnList.check, why: "is a yarn option the gate does not know"}}},
			"why":  {checks: []guardCheck{{check: yarnList.check, why: "is a yarn option the gate does not know"}}},
			// The installs (installs.go).
			"install": installEntry(yarnInstall), "add": installEntry(yarnInstall),
		},
	},
	"bun": {
		project: &runner{except: printsOnly, what: "runs the project's scripts"},
		files:   fileSpec{none: true},
		env:     []envVar{{"NODE_OPTIONS", envCode}, {"NODE_ENV", envHarmless}},
		checks: []guardCheck{
			{check: ownBehind(bunTop, bunOwn), why: "is a bun option the gate does not know (-e/--eval, -r/--preload run code of their own), --cwd outside the project, or a bun command that installs or publishes behind options"},
		},
		subs: map[string]*program{
			// The installs (installs.go).
			"install": installEntry(bunInstall), "i": installEntry(bunInstall), "add": installEntry(bunInstall), "a": installEntry(bunInstall),
			"run": {checks: []guardCheck{{check: bunRun.check, why: "is a bun run option the gate does not know (--eval, --preload run code of their own; --env-file reads one)"}}},
			"test": {options: []opt{
				val(0, "-t --coverage-dir --coverage-reporter --rerun-each --reporter --reporter-outfile --test-name-pattern --timeout"),
				flags("-u --coverage --help --only --pass-with-no-tests --todo --update-snapshots --watch"),
				optional(0, "--bail"),
			},
				complete: true,
			},
		},
	},
	"npx": {
		project: &runner{except: printsOnly, what: "runs a binary of node_modules"},
		options: []opt{val(0, "-p -c -w --package --call --workspace")}, wrap: &wrapSpec{kind: wrapExec},
		env:    []envVar{{"NPM_CONFIG_*", envCode}, {"npm_config_*", envCode}, {"NODE_OPTIONS", envCode}},
		checks: []guardCheck{{check: npxRisk, why: "is an npx option the gate does not know (-p/--package fetches a package, -c/--call runs a shell string)"}},
	},
	"bunx": {
		project: &runner{except: printsOnly, what: "runs a binary of node_modules"},
		options: []opt{val(0, "-p --package")}, wrap: &wrapSpec{kind: wrapExec},
		env:    []envVar{{"NODE_OPTIONS", envCode}},
		checks: []guardCheck{{check: npxRisk, why: "is a bunx option the gate does not know (-p/--package fetches a package)"}},
	},
	"node": {
		project: &runner{except: printsOnly, what: "runs JavaScript that loads the project's modules"},
		options: []opt{val(notFile, "-e -p -r")},
		env:     []envVar{{"NODE_OPTIONS", envCode}, {"NODE_PATH", envCode}, {"NODE_EXTRA_CA_CERTS", envFile}, {"NODE_REPL_HISTORY", envWritten}, {"NODE_ENV", envHarmless}}, files: fileSpec{},
		checks: []guardCheck{
			{check: nodeRisk, why: "is a node option the gate does not know (-r/--import/--loader load code of a file, --inspect listens, --env-file reads a file), or the script comes from standard input"},
		},
	},
	"tsc": {
		project: &runner{except: printsOnly, what: "compiles the project (and writes its output unless --noEmit)"},
		dirSafe: true, // reads the files of its language in a directory operand, not every file
		options: []opt{
			flags("-b -d -h -v -w --all --allowJs --build --checkJs --clean --composite --declaration --diagnostics --dry --emitDeclarationOnly --esModuleInterop --explainFiles --extendedDiagnostics --force --help --incremental --init --isolatedModules --listEmittedFiles --listFiles --noEmit --noEmitOnError --noErrorTruncation --noImplicitAny --noUnusedLocals --noUnusedParameters --preserveWatchOutput --pretty --resolveJsonModule --showConfig --skipLibCheck --sourceMap --strict --strictNullChecks --traceResolution --verbose --version --watch"),
			val(notFile, "-m -t --jsx --lib --locale --module --moduleResolution --target --types"),
			val(readsFile, "-p --project"),
			val(0, "--baseUrl --rootDir"),
			val(writesFile, "--declarationDir --generateTrace --outDir --outFile --tsBuildInfoFile"),
			val(notFile, "--listFilesOnly").unlisted(),
		},
		complete: true,
		env:      []envVar{{"NODE_OPTIONS", envCode}},
		files:    fileSpec{},
	},
	"eslint": {
		project: &runner{except: printsOnly, what: "loads the project's eslint config, which is code"},
		dirSafe: true, // reads the files of its language in a directory operand, not every file
		options: []opt{
			val(readsFile, "-c --config --ignore-path"),
			val(notFile, "-f --cache-strategy --concurrency --env --ext --fix-type --flag --format --global --ignore-pattern --max-warnings --parser --parser-options --plugin --print-config --report-unused-disable-directives-severity --rule --stdin-filename"),
			flags("-h -v --cache --color --debug --env-info --exit-on-fatal-error --fix-dry-run --help --init --inspect-config --no-color --no-config-lookup --no-eslintrc --no-error-on-unmatched-pattern --no-ignore --no-inline-config --no-warn-ignored --pass-on-no-patterns --quiet --report-unused-disable-directives --stats --stdin --version"),
			val(writesFile, "-o --cache-file --cache-location --output-file"),
			does(writesOperands, "--fix"),
			val(0, "--resolve-plugins-relative-to --rulesdir"),
		},
		complete: true,
		env:      []envVar{{"NODE_OPTIONS", envCode}, {"ESLINT_USE_FLAT_CONFIG", envHarmless}},

		// eslint --fix rewrites its operands in place (--fix-dry-run
		// does not): they are written files.
		files: fileSpec{},
		checks: []guardCheck{
			{check: eslintLead.check, why: "loads rules or a formatter from outside the project"},
		},
	},
	"prettier": {
		project: &runner{except: printsOnly, what: "loads the project's prettier config and plugins, which may be code, and rewrites files with --write"},
		dirSafe: true, // reads the files of its language in a directory operand, not every file
		options: []opt{
			flags("-c -h -l -u -v --bracket-same-line --cache --check --debug-check --experimental-ternaries --help --ignore-unknown --insert-pragma --jsx-single-quote --list-different --no-bracket-spacing --no-config --no-editorconfig --no-error-on-unmatched-pattern --no-semi --require-pragma --single-attribute-per-line --single-quote --support-info --use-tabs --version --vue-indent-script-and-style --with-node-modules"),
			does(writesOperands, "-w --write"),
			val(notFile, "--arrow-parens --cache-strategy --config-precedence --embedded-language-formatting --end-of-line --html-whitespace-sensitivity --log-level --loglevel --object-wrap --parser --plugin --print-width --prose-wrap --quote-props --range-end --range-start --stdin-filepath --tab-width --trailing-comma"),
			val(writesFile, "--cache-location"),
			val(readsFile, "--config --ignore-path"),
			val(0, "--find-config-path"),
		},
		complete: true,
		env:      []envVar{{"NODE_OPTIONS", envCode}},

		// prettier -w/--write rewrites its operands in place: they are
		// written files, which the ignore and protection rules check;
		// --check and -l only read them.
		files: fileSpec{},
		checks: []guardCheck{
			{check: prettierLead.check, why: "loads a plugin from outside the project"},
		},
	},
	"vitest": {
		project: &runner{except: printsOnly, what: "runs the project's tests and config"},
		dirSafe: true, // reads the files of its language in a directory operand, not every file
		options: []opt{
			val(readsFile, "-c --config"),
			flags("-h -u -v -w --allowOnly --clearScreen --coverage --globals --help --logHeapUsage --no-color --no-file-parallelism --passWithNoTests --run --sequence.shuffle --silent --typecheck --update --version --watch"),
			val(0, "-r -t --dir --root"),
			val(notFile, "--bail --environment --hookTimeout --maxWorkers --minWorkers --mode --pool --project --reporter --retry --shard --testNamePattern --testTimeout --exclude"),
			optional(0, "--changed"),
			val(writesFile, "--outputFile"),
		},
		complete: true,
		env:      []envVar{{"NODE_OPTIONS", envCode}},
		files:    fileSpec{},
		subs: map[string]*program{"run": {options: vitestOptions, complete: true}, "watch": {options: vitestOptions, complete: true}, "related": {options: vitestOptions, complete: true},
			"bench": {options: vitestOptions, complete: true}, "list": {options: vitestOptions, complete: true}},
	},
	"vite": {
		project: &runner{except: printsOnly, what: "loads the project's vite config, which is code, and builds or serves the project"},
		dirSafe: true,
		options: []opt{
			val(readsFile, "-c --config"),
			val(notFile, "--mode --base --logLevel --filter --port --target --host"),
			val(writesFile, "--outDir"),
		},
		env:   []envVar{{"NODE_OPTIONS", envCode}},
		files: fileSpec{},
		subs: map[string]*program{"build": {options: viteOptions, complete: true}, "dev": {options: viteOptions, complete: true}, "serve": {options: viteOptions, complete: true},
			"preview": {options: viteOptions, complete: true}, "optimize": {options: viteOptions, complete: true}},
	},
	"playwright": {
		project: &runner{except: printsOnly, what: "runs the project's browser tests and config"},
		env:     []envVar{{"NODE_OPTIONS", envCode}, {"PLAYWRIGHT_BROWSERS_PATH", envCode}},
		// playwright install and codegen fetch or drive a browser of
		// their own; only test is listed.
		subs: map[string]*program{"test": {options: playwrightTestOptions, complete: true}},
	},
	"biome": {
		project: &runner{except: printsOnly, what: "lints or formats the project (and rewrites files with --write)"},
		dirSafe: true,
		// biome check/lint/format --write (--fix, and the older --apply,
		// --apply-unsafe) rewrite their operands in place.
		options: []opt{val(readsFile, "--config-path"), does(writesOperands, "--write --fix --apply --apply-unsafe")}, files: fileSpec{first: true},
		subs: map[string]*program{"check": {options: biomeOptions, complete: true}, "lint": {options: biomeOptions, complete: true}, "format": {options: biomeOptions, complete: true},
			"ci": {options: biomeOptions, complete: true}},
	},
	"tsx": {
		project: &runner{except: printsOnly, what: "runs the project's TypeScript"},
		env:     []envVar{{"NODE_OPTIONS", envCode}},
		checks:  []guardCheck{{check: tsxRisk, why: "is a tsx option the gate does not know (-e/-p run a string, --import/--require load code), or the script comes from standard input"}},
	},
	"jest": {
		project: &runner{except: printsOnly, what: "runs the project's tests and config"},
		dirSafe: true, // reads the files of its language in a directory operand, not every file
		options: []opt{
			flags("-b -e -h -i -o -u --ci --clearCache --colors --coverage --debug --detectOpenHandles --errorOnDeprecated --expand --findRelatedTests --forceExit --help --json --listTests --logHeapUsage --no-cache --no-colors --no-watchman --onlyChanged --passWithNoTests --randomize --runInBand --showConfig --silent --updateSnapshot --verbose --version --watch --watchAll --watchman"),
			val(readsFile, "-c --config"),
			val(notFile, "-t -w --changedSince --collectCoverageFrom --coverageReporters --maxWorkers --reporters --seed --selectProjects --shard --testEnvironment --testNamePattern --testPathIgnorePatterns --testPathPattern --testTimeout"),
			optional(0, "--bail"),
			val(writesFile, "--outputFile"),
			val(0, "--rootDir --roots"),
		},
		complete: true,
		env:      []envVar{{"NODE_OPTIONS", envCode}},
		files:    fileSpec{},
	},
	// Known only as programs that run the project's code (see runner):
	// their options are not checked, their operands read.
	"deno":    {project: &runner{except: printsOnly, what: "runs the project's code"}},
	"mocha":   {project: &runner{except: printsOnly, what: "runs the project's tests"}},
	"pnpx":    {project: &runner{except: printsOnly, what: "runs a binary of node_modules"}},
	"ts-node": {project: &runner{except: printsOnly, what: "runs the project's TypeScript"}},
}

var viteOptions = []opt{
	val(0, "-c -f -l -m --assetsDir --assetsInlineLimit --base --config --filter --logLevel --mode --outDir --port --target"),
	optional(0, "-d --debug --host --manifest --minify --open --sourcemap --ssr"),
	flags("-h -v -w --clearScreen --cors --emptyOutDir --force --help --strictPort --version --watch"),
}

var playwrightTestOptions = []opt{
	val(0, "-c -g -j --config --global-timeout --grep --grep-invert --max-failures --output --project --repeat-each --reporter --retries --shard --timeout --trace --workers"),
	flags("-h -u -x --debug --forbid-only --fully-parallel --headed --help --ignore-snapshots --last-failed --list --no-deps --pass-with-no-tests --quiet"),
	optional(0, "--update-snapshots"),
}

var biomeOptions = []opt{
	flags("-h --changed --error-on-warnings --fix --help --no-errors-on-unmatched --skip-errors --staged --unsafe --verbose --write"),
	val(0, "--colors --config-path --diagnostic-level --files-ignore-unknown --formatter-enabled --indent-style --indent-width --line-width --linter-enabled --log-level --max-diagnostics --organize-imports-enabled --reporter --since --vcs-enabled --vcs-use-ignore-file"),
}

// tsx's options before the file it runs: -e/-p run a string, --import
// and --require load code, as node's.
var tsxLead = newLead("tsx", true, []opt{flags("-h -v --clear-screen --help --no-cache --version"), val(0, "--ignore --include --tsconfig")})

var vitestOptions = []opt{
	val(0, "-c -r -t --bail --config --dir --environment --hookTimeout --maxWorkers --minWorkers --mode --outputFile --pool --project --reporter --retry --root --shard --testNamePattern --testTimeout --exclude"),
	flags("-h -u -v -w --allowOnly --clearScreen --coverage --globals --help --logHeapUsage --no-color --no-file-parallelism --passWithNoTests --run --sequence.shuffle --silent --typecheck --update --version --watch"),
	optional(0, "--changed"),
}

var (
	// eslint --rulesdir and --resolve-plugins-relative-to load code from
	// a directory; -f/--format may name a formatter file.
	eslintLead   = newLead("eslint", false, []opt{val(0, "-c -o --config --output-file"), val(projectPath, "-f --format --resolve-plugins-relative-to --rulesdir --plugin")}).loosen()
	prettierLead = newLead("prettier", false, []opt{val(projectPath, "--plugin")}).loosen()
)
