package main

import (
	"bufio"
	"bytes"
	"errors"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard/internal/testneed"
)

// Test helpers shared by the package's test files.

// cmdguardIn runs the CLI (the test binary, see TestMain) in dir and
// returns its stdout and stderr, with dir written as docProject, and its
// exit code.
func cmdguardIn(t *testing.T, dir, stdin string, args ...string) (string, int) {
	t.Helper()
	cmd := osexec.Command("cmdguard", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+filepath.Join(dir, ".home"))
	cmd.Stdin = strings.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	var ee *osexec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("cmdguard %q: %v", args, err)
	}
	out := strings.ReplaceAll(stdout.String()+stderr.String(), dir, docProject)
	return out, code
}

func codeBlocks(t *testing.T, path string) []block {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []block
	var cur *block
	var text strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil && strings.HasPrefix(line, "```"):
			cur = &block{lang: strings.TrimSpace(strings.TrimPrefix(line, "```")), line: n}
			text.Reset()
		case cur != nil && strings.TrimSpace(line) == "```":
			cur.text = text.String()
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			text.WriteString(line)
			text.WriteByte('\n')
		}
	}
	if cur != nil {
		t.Fatalf("%s:%d: code block never closed", path, cur.line)
	}
	return out
}

// needProgram: see package testneed (skips without the program, fails under CI).
func needProgram(t testing.TB, name string) { t.Helper(); testneed.Program(t, name) }

// cmdguardBin returns the cmdguard command that testscript.Main (see
// TestMain) put first in $PATH: a copy of this test binary that runs the
// CLI when it is called cmdguard.
func cmdguardBin(t *testing.T) string {
	t.Helper()
	bin, err := osexec.LookPath("cmdguard")
	if err != nil {
		t.Fatalf("cmdguard is not in $PATH (testscript.Main should have put it there): %v", err)
	}
	return bin
}
