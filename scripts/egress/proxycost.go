//go:build ignore

// proxycost measures what the sandbox's egress proxy costs an install:
// the same `npm install` of a few packages (a chain of -pkgs packages,
// each depending on the next, from a registry on loopback that
// egresstest serves), run through Guard.Run with the sandbox, once with
// sandbox.network a list (the command reaches the registry through
// cmdguard's proxy, under a name the proxy resolves to 127.0.0.1) and
// once with network: true (the command reaches 127.0.0.1 itself). Each
// run starts with no node_modules and no lock file; npm's cache
// (npm_config_cache) is as the sandbox leaves it, the same for both
// kinds (on the machine measured, after the warm-up round each run
// fetched the tarballs only: one proxied connection a package). It
// prints how many requests each registry served.
// Runs are interleaved, so that load from elsewhere hits both alike; it
// prints each time, the medians and their ratio (proxy / network: true).
//
//	go run scripts/egress/proxycost.go [-n 5] [-pkgs 8]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/internal/egress/egresstest"
)

func main() {
	n := flag.Int("n", 5, "runs of each kind")
	pkgs := flag.Int("pkgs", 8, "packages the install fetches")
	flag.Parse()
	var names []string
	for i := range *pkgs {
		names = append(names, fmt.Sprintf("cg-pkg-%d", i))
	}
	viaProxy, err := egresstest.Start("registry.test", names, true, nil)
	check(err)
	defer viaProxy.Close()
	direct, err := egresstest.Start("127.0.0.1", names, true, nil)
	check(err)
	defer direct.Close()
	defer egresstest.Resolve("registry.test")()

	tmp, err := os.MkdirTemp("", "proxycost-")
	check(err)
	defer os.RemoveAll(tmp)
	tmp, err = filepath.EvalSymlinks(tmp)
	check(err)
	type kind struct {
		name  string
		g     *cmdguard.Guard
		root  string
		env   []string
		times []time.Duration
	}
	mk := func(name, network, registry string) *kind {
		root := filepath.Join(tmp, name)
		check(os.MkdirAll(filepath.Join(root, "home"), 0o755))
		check(os.WriteFile(filepath.Join(root, "package.json"), []byte(`{"name":"p","version":"1.0.0","private":true}`+"\n"), 0o644))
		check(os.WriteFile(filepath.Join(root, ".cmdguard.yaml"), []byte("version: 1\ndefault: allow\nsandbox:\n  network: "+network+"\n"), 0o644))
		g, err := cmdguard.OpenPolicy(filepath.Join(root, ".cmdguard.yaml"))
		check(err)
		return &kind{name: name, g: g, root: root, env: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(root, "home"),
			"npm_config_registry=" + registry, "npm_config_update_notifier=false", "npm_config_audit=false", "npm_config_fund=false",
			"npm_config_fetch_retries=0", "npm_config_cache=" + filepath.Join(root, ".npmcache")}}
	}
	kinds := []*kind{
		mk("proxy", fmt.Sprintf("[registry.test:%d]", viaProxy.Port), fmt.Sprintf("http://registry.test:%d/", viaProxy.Port)),
		mk("network-true", "true", fmt.Sprintf("http://127.0.0.1:%d/", direct.Port)),
	}
	const cmd = "rm -rf node_modules package-lock.json && npm install cg-pkg-0"
	fmt.Printf("npm install of %d packages (a dependency chain), %d runs each, interleaved\n", *pkgs, *n)
	for i := 0; i < *n+1; i++ { // the first round warms up and is not counted
		for _, k := range kinds {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			start := time.Now()
			d0, r, err := k.g.Run(ctx, cmdguard.RunRequest{Request: cmdguard.Request{Command: cmd, Cwd: k.root, BaseEnv: k.env}, Sandbox: true})
			d := time.Since(start)
			cancel()
			if err != nil {
				check(fmt.Errorf("%s: %v (%s)", k.name, err, d0.Summary()))
			}
			if r.ExitCode == nil || *r.ExitCode != 0 || !strings.Contains(string(r.Stdout.Data), fmt.Sprintf("added %d packages", *pkgs)) {
				check(fmt.Errorf("%s: the install failed:\n%s\n%s", k.name, r.Stdout.Data, r.Stderr.Data))
			}
			if i == 0 {
				continue
			}
			k.times = append(k.times, d)
			fmt.Printf("  %-13s run %d: %6.0f ms (%d connections)\n", k.name, i, ms(d), len(r.Sandbox.Connections))
		}
	}
	med := func(ts []time.Duration) time.Duration {
		s := slices.Clone(ts)
		slices.Sort(s)
		return s[len(s)/2]
	}
	for _, r := range []*egresstest.Registry{viaProxy, direct} {
		total := 0
		for _, c := range r.Hits() {
			total += c
		}
		fmt.Printf("registry on port %d served %d requests\n", r.Port, total)
	}
	p, t := med(kinds[0].times), med(kinds[1].times)
	fmt.Printf("median: proxy %.0f ms, network: true %.0f ms, ratio %.3f\n", ms(p), ms(t), float64(p)/float64(t))
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "proxycost:", err)
		os.Exit(1)
	}
}
