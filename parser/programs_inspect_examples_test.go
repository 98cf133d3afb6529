package parser

// inspectExamples are the examples of the entries of programs_inspect.go, beside
// them: see programExamples.
var inspectExamples = map[string][]programExample{
	"hexdump": {{cmd: "hexdump -C a", reading: "a", setup: "a"}},
	"lsof":    {{cmd: "lsof a", reading: "a:list", setup: "a"}},
	"netstat": {{cmd: "netstat -tn", reading: ""}},
	"nm":      {{cmd: "nm a", reading: "a", setup: "a"}},
	"objdump": {{cmd: "objdump -d a", reading: "a", setup: "a"}},
	"od":      {{cmd: "od -c a", reading: "a", setup: "a"}},
	"pgrep":   {{cmd: "pgrep -f x", reading: "x:maybe"}},
	"ps":      {{cmd: "ps aux", reading: ""}},
	"readelf": {{cmd: "readelf -h a", reading: "a", setup: "a"}},
	"ss":      {{cmd: "ss -tn", reading: ""}},
	"strings": {{cmd: "strings a", reading: "a", setup: "a"}},
}
