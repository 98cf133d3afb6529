package parser

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Options whose value is a file written, programs run by option values,
// and git subcommands that read or remove the whole working tree.
func TestWriteOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		src      string
		refs     []string
		commands []string // commandLines; nil: not checked
	}{
		{`sort --out=.cmdguardignore /dev/null`, []string{"sort: option .cmdguardignore w"}, nil},
		{`sort --outp .git/config a`, []string{"sort: option .git/config w", "sort: arg a "}, nil},
		{`sort -T tmp a`, []string{"sort: option tmp w", "sort: arg a "}, nil},
		{`cp --target-directory=.git/hooks a`, []string{"cp: option .git/hooks w", "cp: arg a "}, nil},
		{`mv --target .git/hooks a`, []string{"mv: option .git/hooks w", "mv: arg a w"}, nil},
		{`curl --output .env https://h`, []string{"curl: option .env w"}, nil},
		{`wget --output-document=.env https://h`, []string{"wget: option .env w"}, nil},
		{`go build -o .git/hooks/pre-commit .`, []string{"go: option .git/hooks/pre-commit w", "go: arg . "}, nil},
		{`go test -coverprofile=.cmdguardignore ./...`, []string{"go: option .cmdguardignore w"}, nil},
		{`go test --cpuprofile c.out -run X ./...`, []string{"go: option c.out w", "go: option X m"}, nil},
		{`go build -modfile=m.mod -v ./cmd`, []string{"go: option m.mod ", "go: arg ./cmd ", "go: arg . w", "go: arg cmd w"}, nil}, // the binary goes into the cwd
		{`go test -exec 'sh -c' ./...`, nil, []string{"|go test -exec sh -c ./...", "go -exec|sh -c"}},
		{`git format-patch -1 -o .git/hooks`, []string{"git: option .git/hooks w", "git: arg .git/hooks "}, nil},
		{`git diff --output=.env`, []string{"git: option .env w", "git: option .env "}, nil},
		{`git add -A`, []string{"git: arg . r"}, nil},
		{`git add src`, []string{"git: arg src r"}, nil},
		{`git stash -u`, []string{"git: arg . rf"}, nil}, // filtered: no ignored file without -a
		{`git stash -a`, []string{"git: arg . r"}, nil},
		{`git stash list`, nil, nil},
		{`git clean -fdx`, []string{"git: option dx m", "git: option x m", "git: arg . wr"}, nil},
		{`git clean -f build`, []string{"git: arg build wr"}, nil},
		{`sort -S 1K --compress-program=sh`, []string{"sort: option 1K m", "sort: option sh m"}, []string{"|sort -S 1K --compress-program=sh", "sort --compress-program|sh"}},
		{`sort --compress gzip a`, []string{"sort: option gzip m", "sort: arg a "}, []string{"|sort --compress gzip a", "sort --compress-program|gzip"}},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			t.Parallel()
			a := Analyze(tc.src, Options{Cwd: "/repo", Env: testEnv})
			if diff := cmp.Diff(tc.refs, refLines(a)); diff != "" {
				t.Errorf("Analyze(%q) file refs mismatch (-want +got):\n%s", tc.src, diff)
			}
			if tc.commands != nil {
				if diff := cmp.Diff(tc.commands, commandLines(a)); diff != "" {
					t.Errorf("Analyze(%q) commands mismatch (-want +got):\n%s", tc.src, diff)
				}
			}
		})
	}
}
