package parser

// goExamples are the examples of the entries of programs_go.go, beside
// them: see programExamples.
var goExamples = map[string][]programExample{
	"go":              {{cmd: "go run .", reading: "."}},
	"go build":        {{cmd: "go build -o bin/x .", reading: "bin/x:w ."}},
	"go doc":          {{cmd: "go doc fmt", reading: "unknown"}},
	"go env":          {{cmd: "go env -w GOFLAGS=x", reading: "GOFLAGS=x hit:go_env_-w"}},
	"go generate":     {{cmd: "go generate ./...", reading: "hit:go_generate"}},
	"go get":          {{cmd: "go get example.com/m@v1", reading: "example.com/m@v1"}},
	"go list":         {{cmd: "go list ./...", reading: ".:rec"}},
	"go mod":          {{cmd: "go mod tidy", reading: "tidy"}},
	"go mod download": {{cmd: "go mod download", reading: "download"}},
	"go test":         {{cmd: "go test -exec 'cat a' ./...", reading: "hit:go_test_-exec a"}},
	"go version":      {{cmd: "go version", reading: ""}},
	"go vet":          {{cmd: "go vet ./...", reading: ""}},
}
