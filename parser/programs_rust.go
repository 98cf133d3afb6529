package parser

import "slices"

// Rust: cargo's build, check, test, clippy, fmt and run, cargo-make, and
// rustfmt. build.rs and procedural macros run at check and build time,
// so every one of them runs the project's code: the embedded default
// allows them under the sandbox only. cargo tree, which lists the
// dependency graph, runs without it.
//
// cargo's --config sets any configuration value (build.rustc-wrapper,
// target runners: programs), -Z unstable flags may too, and
// --manifest-path, --target-dir, -C and --lockfile-path outside the
// project move the work there: guard hits, with every option an entry
// does not list.

const cargoWhy = "is a cargo option the gate does not know (--config and -Z may set a program to run), or a path outside the project"

// cargoCommon are the options of cargo's build-like subcommands.
var cargoCommon = []opt{
	val(0, "-F -j -p --bench --bin --color --example --exclude --features --jobs --manifest-path --message-format --package --profile --target --target-dir --test"),
	flags("-h -q -r -v --all --all-features --all-targets --benches --bins --examples --frozen --help --ignore-rust-version --keep-going --lib --locked --no-default-features --offline --quiet --release --tests --verbose --workspace"),
	optional(0, "--timings"),
}

const cargoDirs = "--manifest-path --target-dir"

var (
	cargoTop   = newLead("cargo", true, []opt{flags("-V -h -q -v --frozen --help --list --locked --offline --quiet --verbose --version"), val(0, "--color")})
	cargoBuild = newLead("cargo build", false, withRole(slices.Concat(cargoCommon, []opt{val(projectPath, "--artifact-dir"), flags("--future-incompat-report --unit-graph")}), projectPath, cargoDirs))
	cargoTest  = newLead("cargo test", false, withRole(slices.Concat(cargoCommon, []opt{flags("--doc --future-incompat-report --no-fail-fast --no-run")}), projectPath, cargoDirs))
	cargoRun   = newLead("cargo run", false, withRole(cargoCommon, projectPath, cargoDirs))
	cargoLint  = newLead("cargo clippy", false, withRole(slices.Concat(cargoCommon, []opt{flags("--allow-dirty --allow-no-vcs --allow-staged --fix --no-deps")}), projectPath, cargoDirs))
	cargoFmt   = newLead("cargo fmt", false, []opt{
		flags("-h -q -v --all --check --help --quiet --verbose"),
		val(0, "-p --message-format --package"),
		val(projectPath, "--manifest-path"),
	})
	cargoTree = newLead("cargo tree", false, []opt{
		flags("-d -h -q -v --all-features --duplicates --frozen --help --locked --no-dedupe --no-default-features --offline --quiet --verbose --workspace"),
		val(0, "-e -f -i -p --charset --depth --edges --exclude --features --format --invert --package --prefix --prune --target"),
		val(projectPath, "--manifest-path"),
	})
	// cargo make (cargo-make): --makefile runs another makefile, -e sets
	// a variable of the tasks, --cwd moves the work.
	cargoMake = newLead("cargo make", true, []opt{
		flags("-h -v --allow-private --disable-check-for-updates --experimental --help --list-all-steps --no-color --no-on-error --no-workspace --print-steps --quiet --silent --skip-init-end-tasks --time-summary --verbose --version"),
		val(0, "-l -p -t --loglevel --output-format --profile --skip-tasks --task"),
		val(projectPath, "--cwd"),
	})
)

func cargoEntry(l *lead) *program {
	return &program{checks: []guardCheck{{check: l.check, why: cargoWhy}}}
}

var programsRust = map[string]program{
	"cargo": {
		// Rust: build.rs and proc macros run at check and build time.
		project: &runner{subs: []string{"test", "t", "run", "r", "build", "b", "check", "c", "bench", "clippy", "install", "doc", "d", "fix", "rustc", "rustdoc", "miri", "fmt", "make"}, except: printsOnly, what: "runs build scripts, proc macros and the crate's code"},
		files:   fileSpec{none: true},
		env:     []envVar{{"RUSTC_WRAPPER", envCode}, {"RUSTC", envCode}, {"CARGO_*WRAPPER", envCode}, {"CARGO_*RUSTC", envCode}, {"RUST_BACKTRACE", envHarmless}, {"RUST_LOG", envHarmless}},
		checks: []guardCheck{
			{check: cargoTop.check, why: cargoWhy},
		},
		subs: map[string]*program{
			"build": cargoEntry(cargoBuild), "b": cargoEntry(cargoBuild), "check": cargoEntry(cargoBuild), "c": cargoEntry(cargoBuild),
			"test": cargoEntry(cargoTest), "t": cargoEntry(cargoTest), "run": cargoEntry(cargoRun), "r": cargoEntry(cargoRun),
			"clippy": cargoEntry(cargoLint), "fmt": cargoEntry(cargoFmt), "tree": cargoEntry(cargoTree), "make": cargoEntry(cargoMake),
			// The installs (installs.go).
			"fetch": installEntry(cargoFetch),
		},
	},
	"cargo-make": {
		project: &runner{except: printsOnly, what: "runs the Makefile.toml's tasks"},
		files:   fileSpec{none: true}, checks: []guardCheck{{check: cargoMakeRisk, why: cargoWhy}}},
	"makers": {
		project: &runner{except: printsOnly, what: "runs the Makefile.toml's tasks"},
		files:   fileSpec{none: true}, checks: []guardCheck{{check: cargoMakeRisk, why: cargoWhy}}},
	"rustfmt": {
		// Formatters that rewrite files in place.
		project: &runner{except: printsOnly, what: "rewrites the project's files in place"},
		dirSafe: true, // reads the files of its language in a directory operand, not every file
		// rustfmt rewrites its operands in place (unless --check or
		// --emit stdout): written files, which the ignore and protection
		// rules check.
		options: []opt{
			does(readsOperandsOnly, "--check"),
			does(readsOperandsOnly, "--emit=stdout").unlisted(),
			flags("-V -h -l -q -v --backup --files-with-diff --help --quiet --verbose --version"),
			val(notFile, "--color --config --edition --emit --print-config --style-edition"),
			val(readsFile, "--config-path"),
		},
		complete: true,
		files:    fileSpec{writeAll: true},
	},
	"rustc": {options: []opt{flags("-V -h -v --help --version")}, complete: true}, // rustc FILE reads FILE (the default spec: every operand read)
}

// cargoMakeRisk is the guard of cargo-make run as its own program
// (cargo-make make TASK, makers TASK).
func cargoMakeRisk(argv []string, i int) int {
	if i < len(argv) && argv[i] == "make" {
		i++
	}
	return cargoMake.check(argv, i)
}
