package parser

// buildExamples are the examples of the entries of programs_build.go, beside
// them: see programExamples.
var buildExamples = map[string][]programExample{
	"make":  {{cmd: "make -f m", reading: "m hit:make_-f"}},
	"gofmt": {{cmd: "gofmt -l a.go", reading: "a.go:rec"}},
	"gmake": {{cmd: "gmake -C d", reading: "d hit:gmake_-C"}},
	"just":  {{cmd: "just build", reading: ""}},
	"task":  {{cmd: "task build", reading: ""}},
	// Known only as runners of the project's code: the default reading.
	"cmake":   {{cmd: "cmake -S . -B build", reading: ".:rec build:rec"}},
	"ninja":   {{cmd: "ninja -C build", reading: "build:rec"}},
	"bazel":   {{cmd: "bazel build //...", reading: "build:rec //...:rec"}},
	"rake":    {{cmd: "rake test", reading: "test:rec"}},
	"Rscript": {{cmd: "Rscript a.R", reading: "a.R:rec"}},
	"lua":     {{cmd: "lua a.lua", reading: "a.lua:rec"}},
	"php":     {{cmd: "php a.php", reading: "a.php:rec"}},
	"rspec":   {{cmd: "rspec spec", reading: "spec:rec"}},
	"bundle":  {{cmd: "bundle exec rake", reading: "exec:rec rake:rec"}},
	"mix":     {{cmd: "mix test", reading: "test:rec"}},
	"swift":   {{cmd: "swift build", reading: "build:rec"}},
}
