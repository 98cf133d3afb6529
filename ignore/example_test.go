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
func ExampleResolve() {
	root := project()
	defer os.RemoveAll(root)
	m, _ := ignore.Load(root, ignore.Options{Files: []string{".rooignore"}})

	for _, ref := range []string{"../env-link", "~/../secrets/new/file", "../../etc/passwd"} {
		info, err := ignore.Resolve(root, "app", ignore.ExpandHome(ref, root+"/app"))
		if err != nil {
			fmt.Println(err)
			continue
		}
		r := m.MatchPath(info.Rel)
		if !r.Ignored {
			r = m.MatchPath(info.RealRel)
		}
		fmt.Printf("%s: rel=%q real=%q outside=%v exists=%v ignored=%v\n",
			ref, info.Rel, info.RealRel, info.Outside, info.Exists, r.Ignored)
	}
	// Output:
	// ../env-link: rel="env-link" real=".env" outside=false exists=true ignored=true
	// ~/../secrets/new/file: rel="secrets/new/file" real="secrets/new/file" outside=false exists=false ignored=true
	// ../../etc/passwd: rel="" real="" outside=true exists=false ignored=false
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
