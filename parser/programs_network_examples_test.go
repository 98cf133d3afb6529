package parser

// networkExamples are the examples of the entries of programs_network.go, beside
// them: see programExamples.
var networkExamples = map[string][]programExample{
	"curl": {
		{cmd: "curl -o out https://example.com", reading: "out:w"},
		// --output-dir DIR: -o and -O write inside DIR, abbreviated
		// too (curl 7.88: --output-d d -o f makes d/f); DIR was read.
		{cmd: "curl --output-d d -o f https://example.com", reading: "d:w f:w"},
	},
	"wget": {
		{cmd: "wget -O out https://example.com", reading: "out:w"},
		// --use-askpass=PROG runs PROG (wget 1.21.3: before it
		// connects), and so does use_askpass in wgetrc commands (-e,
		// --execute, --config FILE): guards (they had none).
		{cmd: "wget --use-ask=./p https://example.com", reading: "./p hit:wget_--use-ask=./p"},
		{cmd: "wget -qe use_askpass=./p https://example.com", reading: "e:maybe use_askpass=./p:maybe hit:wget_-qe"},
		{cmd: "wget --execute=use_askpass=./p https://example.com", reading: "use_askpass=./p hit:wget_--execute=use_askpass=./p"},
		{cmd: "wget --config=rc https://example.com", reading: "rc hit:wget_--config=rc"},
	},
	"ssh":   {{cmd: "ssh -i key host", reading: "key host"}},
	"scp":   {{cmd: "scp a host:b", reading: "a host:b:w"}},
	"rsync": {{cmd: "rsync -a src/ dst", reading: "src/:rec dst:w:rec"}},
	"sftp":  {{cmd: "sftp host", reading: "host:rec"}},
}
