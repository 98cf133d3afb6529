package parser

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
const cargoCommon = "-F= -h -j= -p= -q -r -v --all --all-features --all-targets --bench= --benches --bin= --bins --color= " +
	"--example= --examples --exclude= --features= --frozen --help --ignore-rust-version --jobs= --keep-going --lib --locked " +
	"--manifest-path= --message-format= --no-default-features --offline --package= --profile= --quiet --release --target= " +
	"--target-dir= --test= --tests --timings? --verbose --workspace"

const cargoDirs = "--manifest-path --target-dir"

var (
	cargoTop   = newLead("cargo", "-V -h -q -v --color= --frozen --help --list --locked --offline --quiet --verbose --version", "", "", true)
	cargoBuild = newLead("cargo build", cargoCommon+" --artifact-dir= --future-incompat-report --unit-graph", "", cargoDirs+" --artifact-dir", false)
	cargoTest  = newLead("cargo test", cargoCommon+" --doc --future-incompat-report --no-fail-fast --no-run", "", cargoDirs, false)
	cargoRun   = newLead("cargo run", cargoCommon, "", cargoDirs, false)
	cargoLint  = newLead("cargo clippy", cargoCommon+" --allow-dirty --allow-no-vcs --allow-staged --fix --no-deps", "", cargoDirs, false)
	cargoFmt   = newLead("cargo fmt", "-h -p= -q -v --all --check --help --manifest-path= --message-format= --package= --quiet --verbose", "", "--manifest-path", false)
	cargoTree  = newLead("cargo tree", "-d -e= -f= -h -i= -p= -q -v --all-features --charset= --depth= --duplicates --edges= --exclude= "+
		"--features= --format= --frozen --help --invert= --locked --manifest-path= --no-dedupe --no-default-features --offline "+
		"--package= --prefix= --prune= --quiet --target= --verbose --workspace", "", "--manifest-path", false)
	// cargo make (cargo-make): --makefile runs another makefile, -e sets
	// a variable of the tasks, --cwd moves the work.
	cargoMake = newLead("cargo make", "-h -l= -p= -t= -v --allow-private --disable-check-for-updates --experimental --help "+
		"--list-all-steps --loglevel= --no-color --no-on-error --no-workspace --output-format= --print-steps --profile= --quiet "+
		"--silent --skip-init-end-tasks --skip-tasks= --task= --time-summary --verbose --version --cwd=", "", "--cwd", true)
)

func cargoEntry(l *lead) *program {
	return &program{guards: []optionGuard{{check: l.check, why: cargoWhy}}}
}

var programsRust = map[string]program{
	"cargo": {
		files: fileSpec{none: true},
		env:   []envVar{{"RUSTC_WRAPPER", envCode}, {"RUSTC", envCode}, {"CARGO_*WRAPPER", envCode}, {"CARGO_*RUSTC", envCode}, {"RUST_BACKTRACE", envHarmless}, {"RUST_LOG", envHarmless}},
		guards: []optionGuard{
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
	"cargo-make": {files: fileSpec{none: true}, guards: []optionGuard{{check: cargoMakeRisk, why: cargoWhy}}},
	"makers":     {files: fileSpec{none: true}, guards: []optionGuard{{check: cargoMakeRisk, why: cargoWhy}}},
	"rustfmt": {
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
