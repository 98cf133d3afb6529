package parser

import (
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// Typical agent commands, 30–200 characters.
var benchCommands = []string{
	`git status && go test ./... 2>&1 | tail -n 50`,
	`cd web && npm run build -- --mode=production > build.log`,
	`grep -rn "TODO" src/ --include=*.go | head -20`,
	`find . -name '*.go' -exec gofmt -l {} +`,
	`ls -la && cat README.md | head -n 40 && git log --oneline -10`,
	`go vet ./... && go test -race -count=1 ./parser/... 2>&1 | tee test.log | grep -v '^ok'`,
	`python3 -m pytest tests/ -x -q --tb=short 2>&1 | tail -30`,
	`sed -n '1,80p' internal/server/handler.go`,
}

func BenchmarkAnalyze(b *testing.B) {
	opts := Options{Cwd: "/home/dev/project", Env: map[string]string{"HOME": "/home/dev"}}
	for _, src := range benchCommands {
		b.Run(src[:min(len(src), 24)], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Analyze(src, opts)
			}
		})
	}
}

// BenchmarkAnalyzeChain is the yardstick: a ~100-character chain.
func BenchmarkAnalyzeChain(b *testing.B) {
	src := `cd web && npm ci && npm run build -- --mode=production > build.log 2>&1 && ls -la dist | head -20`
	opts := Options{Cwd: "/home/dev/project", Env: map[string]string{"HOME": "/home/dev"}}
	b.ReportAllocs()
	for b.Loop() {
		Analyze(src, opts)
	}
}

// BenchmarkParseOnly is the floor: mvdan.cc/sh/v3/syntax parsing the same
// chain with a reused parser, without any analysis.
func BenchmarkParseOnly(b *testing.B) {
	src := `cd web && npm ci && npm run build -- --mode=production > build.log 2>&1 && ls -la dist | head -20`
	p := syntax.NewParser(syntax.Variant(syntax.LangBash))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Parse(strings.NewReader(src), ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAnalyzeValues: a script of values known statically (an
// array with a glob, a loop over it, a reassigned variable).
func BenchmarkAnalyzeValues(b *testing.B) {
	src := `files=(src/*.go docs/*.md); files+=(README.md); for f in "${files[@]}"; do gofmt -l "$f"; done; F=a.txt; F=b.txt; cat $F`
	opts := Options{Cwd: "/home/dev/project", Env: map[string]string{"HOME": "/home/dev"}}
	b.ReportAllocs()
	for b.Loop() {
		Analyze(src, opts)
	}
}
