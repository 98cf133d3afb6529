package main

import (
	"errors"
	"fmt"
	"os"
	osexec "os/exec"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard/internal/testneed"
	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"cmdguard": func() { os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the end-to-end CLI scripts in testdata/script. Each
// embeds its own policy and ignore files. `status N cmd args…` runs a
// command and asserts its exact exit code.
func TestScripts(t *testing.T) {
	t.Parallel()
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("HOME", env.WorkDir+"/home")
			return os.MkdirAll(env.WorkDir+"/home", 0o755)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"status": cmdStatus,
		},
		Condition:           needCondition,
		RequireExplicitExec: true,
	})
}

// needCondition is the condition [need:PROG]: true when PROG is on PATH
// (the scripts' PATH is this process's, with cmdguard added). A script
// that needs a program beyond Go, git, bash and the basic tools starts
// with
//
//	[!need:python3] skip 'needs python3: not on PATH (CI installs it)'
//
// so that it passes on a machine without it; under CI (CI set), where
// every such program is installed, a missing one is an error, which
// fails the script: CI runs them all.
func needCondition(cond string) (bool, error) {
	prog, ok := strings.CutPrefix(cond, "need:")
	if !ok || prog == "" {
		return false, fmt.Errorf("unknown condition %q", cond)
	}
	if _, err := osexec.LookPath(prog); err != nil {
		if os.Getenv("CI") != "" {
			return false, fmt.Errorf("needs %s, and CI is set: CI must install it (%v)", prog, err)
		}
		return false, nil
	}
	return true, nil
}

func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("status does not take !")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: status N command [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("status: %v", err)
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *osexec.ExitError
	switch {
	case errors.As(err, &ee):
		got = ee.ExitCode()
	case err != nil:
		ts.Fatalf("status: %v", err)
	}
	if got != want {
		ts.Fatalf("exit status %d, want %d", got, want)
	}
}

// needSelftestClient: see package testneed (skips without the program, fails under CI).
func needSelftestClient(t testing.TB) { t.Helper(); testneed.SelftestClient(t) }

// TestCollectLess: the one-shot commands collect at GOGC=400, the servers
// keep the default, and a GOGC the person set wins.
func TestCollectLess(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for _, tc := range []struct {
		args []string
		gogc string
		want int
	}{
		{[]string{"check", "ls"}, "", 400},
		{[]string{"run", "--", "true"}, "", 400},
		{[]string{"hook"}, "", 400},
		{[]string{"explain", "ls"}, "", 400},
		{[]string{"serve"}, "", 100},
		{[]string{"mcp"}, "", 100},
		{nil, "", 100},
		{[]string{"check", "ls"}, "100", 100},
	} {
		t.Setenv("GOGC", tc.gogc)
		debug.SetGCPercent(100)
		collectLess(tc.args)
		if got := debug.SetGCPercent(100); got != tc.want {
			t.Errorf("collectLess(%q) with GOGC=%q: GC percent %d, want %d", tc.args, tc.gogc, got, tc.want)
		}
	}
}
