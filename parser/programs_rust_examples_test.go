package parser

// rustExamples are the examples of the entries of programs_rust.go, beside
// them: see programExamples.
var rustExamples = map[string][]programExample{
	"cargo":        {{cmd: "cargo --version", reading: ""}},
	"cargo b":      {{cmd: "cargo b", reading: ""}},
	"cargo build":  {{cmd: "cargo build --release", reading: ""}},
	"cargo c":      {{cmd: "cargo c", reading: ""}},
	"cargo check":  {{cmd: "cargo check", reading: ""}},
	"cargo clippy": {{cmd: "cargo clippy", reading: ""}},
	"cargo fetch":  {{cmd: "cargo fetch", reading: ""}},
	"cargo fmt":    {{cmd: "cargo fmt", reading: ""}},
	"cargo make":   {{cmd: "cargo make build", reading: ""}},
	"cargo r":      {{cmd: "cargo r", reading: ""}},
	"cargo run":    {{cmd: "cargo run", reading: ""}},
	"cargo t":      {{cmd: "cargo t", reading: ""}},
	"cargo test":   {{cmd: "cargo test", reading: ""}},
	"cargo tree":   {{cmd: "cargo tree", reading: ""}},
	"cargo-make":   {{cmd: "cargo-make make build", reading: ""}},
	"makers":       {{cmd: "makers build", reading: ""}},
	"rustc":        {{cmd: "rustc -o x a.rs", reading: "x:rec a.rs:rec unknown-option:-o"}, {cmd: "rustc a.rs", reading: "a.rs:rec", setup: "a.rs"}},
	"rustfmt":      {{cmd: "rustfmt a.rs", reading: "a.rs:w"}},
}
