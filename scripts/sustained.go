//go:build ignore

// sustained runs N checks in one process on one Guard and prints the
// resident set size every million, to show that memory stays flat.
// Bounded in time: it stops after -max and says how far it got.
//
// With -distinct, every check is of a command string not seen before
// (a different head count), so that the Guard's analysis memo keeps
// replacing its entries: memory must stay flat all the same.
//
//	go run scripts/sustained.go [-n 10000000] [-max 5m] [-distinct]
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/cmdguard/cmdguard"
)

var commands = []string{
	"git status && git diff --stat",
	"go test ./... 2>&1 | tail -n 50",
	"cat src/main.go src/util.go | head -n 40",
	"grep -rn 'TODO' src --include=*.go | head -20",
	"cd src && ls -la && wc -l main.go util.go",
	"find src -name '*.go' -type f | sort",
	"cat .env",
	"ls -la docs build && cat build/out.txt 2>/dev/null",
}

func main() {
	n := flag.Int("n", 10_000_000, "checks to run")
	every := flag.Int("every", 1_000_000, "sample RSS every `K` checks")
	maxTime := flag.Duration("max", 5*time.Minute, "stop after this long")
	distinct := flag.Bool("distinct", false, "check a new command string each time")
	flag.Parse()
	root, err := os.MkdirTemp("", "cmdguard-sustained")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(root)
	for name, body := range map[string]string{
		".cmdguard.yaml":  "version: 1\nallow: [git status, git diff, go test, tail, cat, head, grep, cd, ls, wc, find, sort]\n",
		".cmdguardignore": ".env\nsecrets/\n",
		".env":            "X=1\n",
		"src/main.go":     "package main\n", "src/util.go": "package main\n",
		"src/.rooignore": "*.key\n", "docs/readme.md": "", "build/out.txt": "",
	} {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			fail(err)
		}
	}
	time.Sleep(2100 * time.Millisecond) // past the racy window: a project at rest
	g, err := cmdguard.Open(root)
	if err != nil {
		fail(err)
	}
	ctx := context.Background()
	env := []string{"HOME=/home/dev", "PWD=" + root}
	start := time.Now()
	fmt.Printf("%12s %10s %10s %12s\n", "checks", "rss_kib", "heap_kib", "ns/check")
	sample := func(i int, last time.Time, lastI int) {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		var per int64
		if i > lastI {
			per = time.Since(last).Nanoseconds() / int64(i-lastI)
		}
		fmt.Printf("%12d %10d %10d %12d\n", i, rss(), ms.HeapInuse>>10, per)
	}
	sample(0, start, 0)
	last, lastI := time.Now(), 0
	for i := 1; i <= *n; i++ {
		cmd := commands[i%len(commands)]
		if *distinct {
			cmd += fmt.Sprintf(" | head -n %d", i)
		}
		d, err := g.Check(ctx, cmdguard.Request{Command: cmd, Cwd: root, BaseEnv: env})
		if err != nil || (i%len(commands) == 6) != (d.Verdict == cmdguard.Deny) {
			fail(fmt.Errorf("check %d (%q): %s %v, %v", i, cmd, d.Verdict, d.Reasons, err))
		}
		if i%*every == 0 {
			sample(i, last, lastI)
			last, lastI = time.Now(), i
		}
		if i%10_000 == 0 && time.Since(start) > *maxTime {
			fmt.Printf("stopped after %d checks: -max %v reached\n", i, *maxTime)
			return
		}
	}
	fmt.Printf("%d checks in %v\n", *n, time.Since(start).Round(time.Second))
}

// rss reads VmRSS from /proc/self/status, in KiB.
func rss() int {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return -1
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), "VmRSS:"); ok {
			var kib int
			fmt.Sscan(strings.TrimSuffix(strings.TrimSpace(v), " kB"), &kib)
			return kib
		}
	}
	return -1
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "sustained:", err)
	os.Exit(1)
}
