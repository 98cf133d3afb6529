//go:build ignore

// sandboxcost measures what the sandbox adds to start→exit of `bash -c
// true`, in a binary that links what cmdguard links (OPA and all, whose
// package initialisers the sandbox's re-executed setup must not run).
// Runs are interleaved — no sandbox, sandbox, sandbox with -hidden
// hidden files — so that load from elsewhere hits all alike; it prints
// the minimum, first quartile and median of each, and the added time;
// and the CPU time of the run's processes, which load from elsewhere
// changes less than the wall time.
//
// -mem makes the measuring process hold that many MiB of touched memory,
// as a long-lived program using the library does: the sandbox's start
// forks (not vforks) it, and the fork copies its page tables.
//
//	go run scripts/sandboxcost.go [-n 300] [-hidden 1000] [-mem 0]
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"syscall"
	"time"

	_ "github.com/cmdguard/cmdguard" // the inits of the real binary
	"github.com/cmdguard/cmdguard/exec"
)

func main() {
	n := flag.Int("n", 300, "runs of each kind")
	hidden := flag.Int("hidden", 1000, "hidden files of the third kind")
	network := flag.Bool("network", true, "let the sandboxed commands reach the network (false: a network namespace)")
	mem := flag.Int("mem", 0, "MiB of touched memory to hold while measuring")
	flag.Parse()
	ballast := make([]byte, *mem<<20)
	for i := 0; i < len(ballast); i += 4096 {
		ballast[i] = 1
	}
	dir, err := os.MkdirTemp("", "sandboxcost")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)
	dir, _ = filepath.EvalSymlinks(dir)
	many := &exec.Sandbox{Network: *network}
	for i := range *hidden {
		p := filepath.Join(dir, fmt.Sprintf("s%04d.key", i))
		if err := os.WriteFile(p, []byte("secret"), 0o600); err != nil {
			fail(err)
		}
		many.Hide = append(many.Hide, p)
	}
	kinds := []struct {
		name string
		sb   *exec.Sandbox
		ds   []time.Duration
		cpu  []time.Duration // user+system time of the run's processes
	}{
		{name: "no sandbox"},
		{name: "sandbox", sb: &exec.Sandbox{Network: *network}},
		{name: fmt.Sprintf("sandbox, %d hidden", *hidden), sb: many},
	}
	ctx := context.Background()
	for range *n {
		for i := range kinds {
			k := &kinds[i]
			c0 := childCPU()
			t := time.Now()
			r, err := exec.Run(ctx, exec.Cmd{Command: "true", Dir: dir, Sandbox: k.sb})
			if err != nil || r.ExitCode == nil || *r.ExitCode != 0 {
				fail(fmt.Errorf("%s: %v %s", k.name, err, r.Explain()))
			}
			k.ds = append(k.ds, time.Since(t))
			k.cpu = append(k.cpu, childCPU()-c0)
		}
	}
	runtime.KeepAlive(ballast)
	q := func(ds []time.Duration, f float64) time.Duration { return ds[int(f*float64(len(ds)-1))] }
	for i := range kinds {
		slices.Sort(kinds[i].ds)
		slices.Sort(kinds[i].cpu)
	}
	base, baseCPU := kinds[0].ds, kinds[0].cpu
	for _, k := range kinds {
		fmt.Printf("%-22s wall: min %6.2f p25 %6.2f median %6.2f ms", k.name,
			ms(q(k.ds, 0)), ms(q(k.ds, 0.25)), ms(q(k.ds, 0.5)))
		if k.sb != nil {
			fmt.Printf(" (+%.2f ms, ×%.1f)", ms(q(k.ds, 0.5)-q(base, 0.5)), float64(q(k.ds, 0.5))/float64(q(base, 0.5)))
		}
		fmt.Printf("; child CPU median %5.2f ms", ms(q(k.cpu, 0.5)))
		if k.sb != nil {
			fmt.Printf(" (+%.2f ms)", ms(q(k.cpu, 0.5)-q(baseCPU, 0.5)))
		}
		fmt.Println()
	}
}

// childCPU is the user and system time of the reaped child processes.
func childCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

func fail(err error) {
	fmt.Fprintln(os.Stderr, "sandboxcost:", err)
	os.Exit(1)
}
