package exec_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	cmdexec "github.com/cmdguard/cmdguard/exec"
)

// rssHelperEnv makes the test binary run the memory helper instead of the
// tests: see TestMemoryBounded.
const rssHelperEnv = "CMDGUARD_EXEC_RSS_HELPER"

const (
	rssStreamBytes = 500_000_000
	rssLimit       = 1 << 20
	rssCeiling     = 64 << 20
)

func TestMain(m *testing.M) {
	if os.Getenv(rssHelperEnv) == "1" {
		os.Exit(rssHelper())
	}
	if os.Getenv(orphanHelperEnv) == "1" {
		os.Exit(orphanHelper())
	}
	os.Exit(m.Run())
}

// rssHelper captures a 500 MB stream with a 1 MiB limit and prints the
// process's peak resident set size in bytes.
func rssHelper() int {
	r, err := cmdexec.Run(context.Background(), cmdexec.Cmd{
		Command:     fmt.Sprintf("head -c %d /dev/zero", rssStreamBytes),
		OutputLimit: rssLimit,
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	if r.Stdout.Next != rssStreamBytes || len(r.Stdout.Data) != rssLimit {
		fmt.Fprintf(os.Stderr, "captured %d bytes ending at %d, want %d ending at %d\n",
			len(r.Stdout.Data), r.Stdout.Next, rssLimit, rssStreamBytes)
		return 2
	}
	peak, err := peakRSS()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	fmt.Println(peak)
	return 0
}

// TestMemoryBounded runs the capture of a 500 MB stream in a fresh copy of
// the test binary and checks its peak RSS, which includes the runtime
// (and, under -race, the race detector).
func TestMemoryBounded(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), rssHelperEnv+"=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("helper: %v\n%s", err, stderr.Bytes())
	}
	peak, err := strconv.Atoi(strings.TrimSpace(string(out)))
	if err != nil {
		t.Fatalf("helper output %q: %v", out, err)
	}
	t.Logf("peak RSS capturing %d bytes with a %d-byte limit: %.1f MiB", rssStreamBytes, rssLimit, float64(peak)/(1<<20))
	if peak >= rssCeiling {
		t.Errorf("peak RSS %d bytes, want under %d", peak, rssCeiling)
	}
}
