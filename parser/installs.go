package parser

import (
	"path"
	"strings"
)

// Installs: the package managers' commands that download packages from
// a registry (npm install, go mod download, pip install, cargo fetch, uv
// sync). The embedded default allows them only under the sandbox whose
// network is a list of hosts (sandbox.network: [...]): the sandbox's
// proxy then decides which registries they reach, and what they run
// (npm's lifecycle scripts, setup.py) runs sandboxed. Their entries
// below say which options the gate knows: every other one is a guard
// hit, since these options often name another index or registry
// (--registry, --index-url), run a program (--script-shell), or install
// outside the project (-g, --prefix, --target, --user); so is an operand
// that is a local path outside the project (npm install ../x, pip
// install -e ../x, file:/x).

// fetcher says what an install downloads, and which subcommands (words
// after the program name, in order) are its installs.
type fetcher struct {
	subs []string
	what string
}

// fetchers is the table of installs, by program name.
var fetchers = map[string]fetcher{
	"npm":     {subs: []string{"install", "i", "in", "isntall", "add", "ci", "clean-install"}, what: "downloads packages from the npm registry"},
	"pnpm":    {subs: []string{"install", "i", "add", "fetch"}, what: "downloads packages from the npm registry"},
	"yarn":    {subs: []string{"install", "add"}, what: "downloads packages from the npm registry"},
	"bun":     {subs: []string{"install", "i", "add", "a"}, what: "downloads packages from the npm registry"},
	"go":      {subs: []string{"mod download", "get"}, what: "downloads modules from the Go module proxy"},
	"pip":     {subs: []string{"install", "download"}, what: "downloads packages from PyPI"},
	"pip3":    {subs: []string{"install", "download"}, what: "downloads packages from PyPI"},
	"python":  {subs: []string{"-m pip install", "-m pip download"}, what: "downloads packages from PyPI"},
	"python3": {subs: []string{"-m pip install", "-m pip download"}, what: "downloads packages from PyPI"},
	"uv":      {subs: []string{"sync", "pip install", "pip sync", "lock", "add"}, what: "downloads packages from PyPI"},
	"poetry":  {subs: []string{"install", "add", "lock"}, what: "downloads packages from PyPI"},
	"cargo":   {subs: []string{"fetch", "generate-lockfile", "update"}, what: "downloads crates from crates.io"},
}

// FetchesPackages says whether c downloads packages from a registry (an
// install the parser knows of), and what: "downloads packages from the
// npm registry" for npm install. It is empty for any other command,
// including an install behind options of the program (npm --silent
// install), which no install prefix rule matches.
func FetchesPackages(c *Command) string {
	if len(c.Args) < 2 {
		return ""
	}
	f, ok := fetchers[path.Base(c.Args[0])]
	if !ok {
		return ""
	}
	for _, s := range f.subs {
		words := strings.Fields(s)
		if len(c.Args) > len(words) && equalWords(c.Args[1:1+len(words)], words) {
			return f.what
		}
	}
	return ""
}

func equalWords(a, b []string) bool {
	for i := range b {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

var (
	npmInstall = newLead("npm install", false, []opt{
		flags("-d -q -s --no-color --include-workspace-root --json --no-progress --no-workspaces --parseable --progress --quiet --silent --verbose --workspaces --ws -B -D -E -O -P --dry-run --foreground-scripts --ignore-scripts --legacy-peer-deps --no-audit --no-fund --no-package-lock --no-save --offline --package-lock-only --prefer-dedupe --prefer-offline --prefer-online --production --save-bundle --save-dev --save-exact --save-optional --save-peer --save-prod --strict-peer-deps"),
		val(0, "-w --loglevel --workspace --before --fetch-retries --fetch-timeout --include --omit"),
		optional(0, "--color --audit --fund --install-links --package-lock --save"),
	})
	pnpmInstall = newLead("pnpm install", false, []opt{flags("-D -P -r -s --dev --fix-lockfile --frozen-lockfile --ignore-scripts --lockfile-only --no-frozen-lockfile --no-optional --offline --prefer-frozen-lockfile --prefer-offline --prod --production --recursive --resolution-only --save-dev --save-exact --save-optional --save-peer --save-prod --silent"), val(0, "-F --filter --loglevel --reporter")})
	yarnInstall = newLead("yarn install", false, []opt{
		flags("-D -E -O -P -s --check-files --dev --exact --frozen-lockfile --ignore-optional --ignore-scripts --immutable --immutable-cache --json --no-lockfile --non-interactive --offline --optional --peer --prefer-offline --pure-lockfile --silent"),
		val(0, "--mode"),
		optional(0, "--production"),
	})
	bunInstall = newLead("bun install", false, []opt{flags("-D -E -d -p --dev --dry-run --exact --frozen-lockfile --ignore-scripts --no-save --optional --production --save --silent --verbose")})
	// pip install: -r and -c read a file (outside the project: a hit),
	// -e installs a directory in place.
	pipInstall = newLead("pip install", false, []opt{
		flags("-U -q -v --compile --disable-pip-version-check --dry-run --force-reinstall --ignore-installed --no-build-isolation --no-cache-dir --no-color --no-compile --no-deps --no-input --no-warn-script-location --pre --prefer-binary --quiet --require-hashes --upgrade --use-pep517 --verbose"),
		val(projectPath, "-c -e -r --constraint --editable --requirement"),
		val(0, "--only-binary --no-binary --progress-bar --upgrade-strategy"),
	})
	uvSync = newLead("uv sync", false, []opt{
		flags("-q -v --all-extras --all-groups --all-packages --dev --exact --frozen --inexact --locked --no-dev --no-editable --no-install-project --no-progress --offline --only-dev --quiet --verbose"),
		val(projectPath, "--directory --project"),
		val(0, "--extra --group --package"),
	})
	cargoFetch = newLead("cargo fetch", false, []opt{
		flags("-h -q -v --frozen --help --locked --quiet --verbose"),
		val(0, "--color --target"),
		val(projectPath, "--manifest-path"),
	})
)

var goGet = []opt{
	flags("-d -t -v -x -tool"),
	optional(0, "-u"),
}

var goModDownload = []opt{
	flags("-json -x"),
	val(0, "-reuse"),
}

const installWhy = "is an option of the install the gate does not know (another registry or index, a program to run, an install outside the project), or a local package outside the project"

// installRisk returns the guard of an install with lead options l: an
// option l does not know, or an operand that is a local path outside
// the project.
func installRisk(l *lead) func([]string, int) int {
	return func(argv []string, i int) int {
		if hit := l.check(argv, i); hit >= 0 {
			return hit
		}
		return outsidePackage(argv, i)
	}
}

// outsidePackage returns the index of the first operand of argv[i:]
// that names a local package outside the project: a path (absolute,
// under ~, climbing with "..") or a file:, link: or git+file: spec
// whose path leaves; -1 when there is none. Options' values are not
// operands here: the lead's dir options judge them.
func outsidePackage(argv []string, i int) int {
	for k := i; k < len(argv); k++ {
		a := argv[k]
		if strings.HasPrefix(a, "-") {
			continue
		}
		// npm accepts name@file:../x too.
		if _, spec, ok := strings.Cut(a, "@file:"); ok && !strings.HasPrefix(a, "@") {
			a = "file:" + spec
		}
		for _, scheme := range []string{"git+file:", "file:", "link:", "portal:"} {
			if rest, ok := strings.CutPrefix(a, scheme); ok {
				if strings.HasPrefix(rest, "//") || leaves(rest) {
					return k
				}
				a = ""
			}
		}
		if a != "" && (strings.HasPrefix(a, ".") || strings.HasPrefix(a, "/") || strings.HasPrefix(a, "~")) && leaves(a) {
			return k
		}
	}
	return -1
}

// installEntry is the program-table entry of an install with lead l.
func installEntry(l *lead) *program {
	return &program{checks: []guardCheck{{check: installRisk(l), why: installWhy}}}
}
