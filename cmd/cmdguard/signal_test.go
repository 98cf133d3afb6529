package main

import (
	"encoding/json"
	"errors"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestRunForwardsInterrupt sends cmdguard run the SIGINT a terminal sends
// on Ctrl-C: the command gets SIGINT (not SIGTERM), as under a shell, and
// run exits 128+2 with the signal in its JSON.
func TestRunForwardsInterrupt(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".cmdguard.yaml"), []byte("version: 1\nallow: [touch, sleep]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := osexec.Command(cmdguardBin(t), "run", "--format", "json", "--", "touch started && sleep 60")
	cmd.Dir = dir
	var out strings.Builder
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	deadline := time.Now().Add(promptDeadline)
	for {
		if _, err := os.Stat(filepath.Join(dir, "started")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the command never started")
		}
		time.Sleep(10 * time.Millisecond)
	}
	// bash forks sleep after touch: a SIGINT that lands between the two
	// reaches bash alone, which then waits out the sleep. Send it again
	// until the run ends (bounded), as a person pressing Ctrl-C would.
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	for i := 0; ; i++ {
		if serr := cmd.Process.Signal(os.Interrupt); serr != nil && i == 0 {
			t.Fatal(serr)
		}
		select {
		case err = <-done:
		case <-time.After(500 * time.Millisecond):
			if i < 20 {
				continue
			}
			t.Fatal("cmdguard run did not end after 20 SIGINTs")
		}
		break
	}
	var ee *osexec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Errorf("cmdguard run after SIGINT: %v, want exit status 130\n%s", err, out.String())
	}
	var res struct {
		Status string  `json:"status"`
		Signal *string `json:"signal"`
	}
	if err := json.Unmarshal([]byte(out.String()), &res); err != nil {
		t.Fatalf("JSON: %v\n%s", err, out.String())
	}
	if res.Signal == nil || *res.Signal != "SIGINT" || res.Status != "completed" {
		t.Errorf("result: status %q, signal %v; want completed, SIGINT\n%s", res.Status, res.Signal, out.String())
	}
}
