//go:build ignore

// mkrepo builds a project of N empty files for scripts/scale.sh: 100
// files per directory, directories nested three deep, a .cmdguardignore
// in the root and in every tenth directory, a .git directory and a
// .cmdguard.yaml that allows git status.
//
//	go run scripts/mkrepo.go DIR N
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: go run scripts/mkrepo.go DIR N")
		os.Exit(2)
	}
	root := os.Args[1]
	n, err := strconv.Atoi(os.Args[2])
	if err != nil || n < 0 {
		fmt.Fprintln(os.Stderr, "mkrepo: N must be a count of files")
		os.Exit(2)
	}
	must(os.MkdirAll(filepath.Join(root, ".git"), 0o755))
	must(os.WriteFile(filepath.Join(root, ".cmdguard.yaml"), []byte("version: 1\nallow: [git status, grep, cat]\n"), 0o644))
	must(os.WriteFile(filepath.Join(root, ".cmdguardignore"), []byte(".env\n*.pem\nsecrets/\n"), 0o644))
	dirs := (n + 99) / 100
	var wg sync.WaitGroup
	work := make(chan int)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for d := range work {
				dir := filepath.Join(root, fmt.Sprintf("pkg%03d/mod%03d/d%05d", d/1000, d/100%10*10+d%10, d))
				must(os.MkdirAll(dir, 0o755))
				if d%10 == 0 {
					must(os.WriteFile(filepath.Join(dir, ".cmdguardignore"), []byte("*.secret\n!keep.secret\n"), 0o644))
				}
				for f := range min(100, n-d*100) {
					must(os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.go", f)), nil, 0o644))
				}
			}
		}()
	}
	for d := range dirs {
		work <- d
	}
	close(work)
	wg.Wait()
}

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "mkrepo:", err)
		os.Exit(1)
	}
}
