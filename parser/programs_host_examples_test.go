package parser

// hostExamples are the examples of the entries of programs_host.go, beside
// them: see programExamples.
var hostExamples = map[string][]programExample{
	"date":     {{cmd: "date -r a", reading: "a", setup: "a"}},
	"hostname": {{cmd: "hostname -f", reading: ""}},
	"nproc":    {{cmd: "nproc", reading: "", setup: "-"}},
	"arch":     {{cmd: "arch", reading: "", setup: "-"}},
	"groups":   {{cmd: "groups", reading: "", setup: "-"}},
	"uptime":   {{cmd: "uptime -p", reading: "", setup: "-"}},
	"free":     {{cmd: "free -m", reading: "", setup: "-"}},
	"cal":      {{cmd: "cal 2024", reading: ""}},
	"gem":      {{cmd: "gem --version", reading: ""}},
	"gem list": {{cmd: "gem list", reading: ""}},
}
