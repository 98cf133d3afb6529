package parser

// buildExamples are the examples of the entries of programs_build.go, beside
// them: see programExamples.
var buildExamples = map[string][]programExample{
	"make":  {{cmd: "make -f m", reading: "m hit:make_-f"}},
	"gofmt": {{cmd: "gofmt -l a.go", reading: "a.go:rec"}},
	"gmake": {{cmd: "gmake -C d", reading: "d hit:gmake_-C"}},
	"just":  {{cmd: "just build", reading: ""}},
	"task":  {{cmd: "task build", reading: ""}},
}
