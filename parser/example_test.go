package parser_test

import (
	"fmt"
	"io/fs"
	"testing/fstest"

	"github.com/cmdguard/cmdguard/parser"
)

func ExampleAnalyze() {
	a := parser.Analyze(`sudo -u ci bash -c 'make && rm -rf $(cat dirs.txt)'`, parser.Options{Cwd: "/src"})
	for _, c := range a.Commands {
		fmt.Println(c.Wrappers, c.Args)
	}
	for _, f := range a.Findings {
		fmt.Println(f.Pos, f.Rule)
	}
	// Output:
	// [] [sudo -u ci bash -c make && rm -rf $(cat dirs.txt)]
	// [sudo] [bash -c make && rm -rf $(cat dirs.txt)]
	// [sudo bash -c] [make]
	// [sudo bash -c] [cat dirs.txt]
	// [sudo bash -c] [rm -rf $(cat dirs.txt)]
	// 1:36 parser.command_substitution
}

func ExampleAnalyze_cwd() {
	a := parser.Analyze(`cd web && cat ~/.npmrc package.json 2>/dev/null`, parser.Options{
		Cwd: "/src",
		Env: map[string]string{"HOME": "/home/dev"},
	})
	cat := a.Commands[1]
	fmt.Println(cat.Cwd)
	for _, f := range cat.Files {
		fmt.Println(f.Kind, f.Path)
	}
	// Output:
	// /src/web
	// arg /home/dev/.npmrc
	// arg package.json
}

func ExampleGlob() {
	// A fake directory listing; os.ReadDir fits in real use.
	fsys := fstest.MapFS{"a.go": {}, ".hidden.go": {}, "b.txt": {}}
	matches, err := parser.Glob("*.go", ".", func(dir string) ([]fs.DirEntry, error) {
		return fs.ReadDir(fsys, dir)
	})
	fmt.Println(matches, err)
	// Output:
	// [a.go] <nil>
}
