package ignore_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/cmdguard/cmdguard/ignore"
)

// project writes a small project and returns its root.
func project() string {
	root, _ := os.MkdirTemp("", "ignore-example")
	root, _ = filepath.EvalSymlinks(root)
	write := func(name, content string) {
		os.MkdirAll(filepath.Dir(filepath.Join(root, name)), 0o755)
		os.WriteFile(filepath.Join(root, name), []byte(content), 0o644)
	}
	write(".rooignore", "# keep these from the agent\n.env\nsecrets/\n!secrets/README.md\n")
	write("app/.rooignore", "*.sqlite\n")
	write(".env", "TOKEN=x")
	write("secrets/db.txt", "pw")
	write("app/main.go", "package main")
	write("app/data.sqlite", "")
	os.Symlink(".env", filepath.Join(root, "env-link"))
	return root
}

func Example() {
	root := project()
	defer os.RemoveAll(root)

	m, err := ignore.Load(root, ignore.Options{
		Files:    []string{".rooignore"},
		Patterns: []ignore.Pattern{{Text: "*.pem", Source: ".cmdguard.yaml:7"}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, p := range []string{".env", "app/main.go", "app/data.sqlite", "secrets/README.md", "certs/server.pem"} {
		if r := m.Match(p, false); r.Ignored {
			fmt.Printf("%-18s ignored by %s %s\n", p, r.Source, r.Pattern)
		} else {
			fmt.Printf("%-18s not ignored\n", p)
		}
	}
	fmt.Println("app contains ignored files:", m.ContainsIgnored("app"))
	// Output:
	// .env               ignored by .rooignore:2 .env
	// app/main.go        not ignored
	// app/data.sqlite    ignored by app/.rooignore:1 *.sqlite
	// secrets/README.md  ignored by .rooignore:3 secrets/
	// certs/server.pem   ignored by .cmdguard.yaml:7 *.pem
	// app contains ignored files: true
}

// The gate checks a file reference by its written and its real path; a
// path that does not exist yet is checked as a file and as a directory.
func ExampleMatcher_MatchRef() {
	root := project()
	defer os.RemoveAll(root)
	m, _ := ignore.Load(root, ignore.Options{Files: []string{".rooignore"}})

	home := root + "/app"
	for _, ref := range []string{"../env-link", "~/../secrets/new/file", "main.go", "../../etc/passwd"} {
		info, r, err := m.MatchRef("app", ignore.ExpandHome(ref, home))
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s: ignored=%v %s outside=%v\n", ref, r.Ignored, r.Pattern, info.Outside)
	}
	// Output:
	// ../env-link: ignored=true .env outside=false
	// ~/../secrets/new/file: ignored=true secrets/ outside=false
	// main.go: ignored=false  outside=false
	// ../../etc/passwd: ignored=false  outside=true
}

func ExampleResolve() {
	root := project()
	defer os.RemoveAll(root)

	info, _ := ignore.Resolve(root, "app", "../env-link/../secrets/../env-link")
	fmt.Printf("written %q, real %q, exists %v\n", info.Rel, info.RealRel, info.Exists)
	info, _ = ignore.Resolve(root, "", "secrets/not/yet")
	fmt.Printf("written %q, real %q, exists %v\n", info.Rel, info.RealRel, info.Exists)
	// Output:
	// written "env-link", real ".env", exists true
	// written "secrets/not/yet", real "secrets/not/yet", exists false
}

func ExampleMatcher_MatchPath() {
	root := project()
	defer os.RemoveAll(root)
	m, _ := ignore.Load(root, ignore.Options{Files: []string{".rooignore"}})

	// "secrets/" matches directories only: a path of unknown type is
	// ignored if it is ignored either way.
	fmt.Println(m.Match("lib/secrets", false).Ignored)
	fmt.Println(m.MatchPath("lib/secrets").Ignored)
	// Output:
	// false
	// true
}

func ExampleExpandHome() {
	fmt.Println(ignore.ExpandHome("~/notes.txt", "/home/ada"))
	fmt.Println(ignore.ExpandHome("${HOME}/.ssh/id_rsa", "/home/ada"))
	fmt.Println(ignore.ExpandHome("~bob/x", "/home/ada"))
	// Output:
	// /home/ada/notes.txt
	// /home/ada/.ssh/id_rsa
	// ~bob/x
}
