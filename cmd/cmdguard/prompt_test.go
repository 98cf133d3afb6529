package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// promptDeadline bounds each wait on the prompted process. It is a guard
// against a hang, not a timing assertion: the machine may be loaded.
const promptDeadline = 2 * time.Minute

// promptPolicy asks for touch and head, and allows ls.
const promptPolicy = `version: 1
default: ask
allow: [ls]
ask: [touch, head]
deny: [rm]
`

// ptyRun is `cmdguard run` started with stdin, stdout and stderr on a
// pseudo-terminal, as a person at a terminal would start it.
type ptyRun struct {
	t    *testing.T
	cmd  *osexec.Cmd
	ptmx *os.File
	out  chan []byte // chunks read from the terminal; closed at EOF
	seen bytes.Buffer
	done chan error // the Wait result
}

func startPTY(t *testing.T, dir string, args ...string) *ptyRun {
	t.Helper()
	cmd := osexec.Command(cmdguardBin(t), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+dir, "TERM=dumb")
	ptmx, err := pty.Start(cmd)
	if err != nil {
		t.Fatalf("start %v on a pty: %v", args, err)
	}
	p := &ptyRun{t: t, cmd: cmd, ptmx: ptmx, out: make(chan []byte, 64), done: make(chan error, 1)}
	go func() {
		defer close(p.out)
		for {
			buf := make([]byte, 4096)
			n, err := ptmx.Read(buf)
			if n > 0 {
				p.out <- buf[:n]
			}
			if err != nil {
				return // EIO once the process and its children closed the terminal
			}
		}
	}()
	go func() { p.done <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill() // after a failed test; ErrProcessDone otherwise
		ptmx.Close()
	})
	return p
}

// waitFor reads the terminal until it has shown s.
func (p *ptyRun) waitFor(s string) {
	p.t.Helper()
	deadline := time.After(promptDeadline)
	for !strings.Contains(p.seen.String(), s) {
		select {
		case b, ok := <-p.out:
			if !ok {
				p.t.Fatalf("terminal closed before %q appeared; it showed:\n%s", s, p.seen.String())
			}
			p.seen.Write(b)
		case <-deadline:
			p.t.Fatalf("%q did not appear within %v; the terminal showed:\n%s", s, promptDeadline, p.seen.String())
		}
	}
}

// typeIn writes input to the terminal as if typed.
func (p *ptyRun) typeIn(input string) {
	p.t.Helper()
	if _, err := io.WriteString(p.ptmx, input); err != nil {
		p.t.Fatalf("write %q to the pty: %v", input, err)
	}
}

// exit waits for the process to end, reading the rest of the terminal, and
// returns its exit code and everything the terminal showed.
func (p *ptyRun) exit() (int, string) {
	p.t.Helper()
	deadline := time.After(promptDeadline)
	var err error
	for waiting := true; waiting; {
		select {
		case b, ok := <-p.out:
			if ok {
				p.seen.Write(b)
			}
		case err = <-p.done:
			waiting = false
		case <-deadline:
			p.t.Fatalf("cmdguard did not exit within %v; the terminal showed:\n%s", promptDeadline, p.seen.String())
		}
	}
	// Drain what the terminal still holds; it reports EIO (the channel
	// closes) once nothing has it open.
	for drained := false; !drained; {
		select {
		case b, ok := <-p.out:
			if !ok {
				drained = true
			} else {
				p.seen.Write(b)
			}
		case <-time.After(promptDeadline):
			p.t.Fatalf("terminal output did not end within %v; it showed:\n%s", promptDeadline, p.seen.String())
		}
	}
	var ee *osexec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode(), p.seen.String()
	case err != nil:
		p.t.Fatalf("wait: %v", err)
	}
	return 0, p.seen.String()
}

// checkCode runs `cmdguard check` (no terminal) in dir and returns its exit code.
func checkCode(t *testing.T, dir, command string) int {
	t.Helper()
	cmd := osexec.Command(cmdguardBin(t), "check", "--", command)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	var ee *osexec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode()
	case err != nil:
		t.Fatalf("cmdguard check -- %q: %v\n%s", command, err, out)
	}
	return 0
}

func writePolicy(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, ".cmdguard.yaml")
	if err := os.WriteFile(path, []byte(promptPolicy), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestPromptAnswers answers the ask prompt of `cmdguard run` on a terminal:
// yes runs the command once, no (or just Enter, or end of input) refuses it
// with 125 and it never starts, always adds the allow prefix to the policy
// file and runs it.
func TestPromptAnswers(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		answer    string
		wantCode  int
		wantMade  bool
		wantAdded bool // the policy file now allows `touch made`
	}{
		{name: "yes", answer: "y\r", wantCode: 0, wantMade: true},
		{name: "yes-word", answer: "YES\r", wantCode: 0, wantMade: true},
		{name: "no", answer: "n\r", wantCode: exitRefused},
		{name: "enter", answer: "\r", wantCode: exitRefused},
		{name: "eof", answer: "\x04", wantCode: exitRefused},
		{name: "always", answer: "a\r", wantCode: 0, wantMade: true, wantAdded: true},
		{name: "unknown-then-yes", answer: "maybe\ry\r", wantCode: 0, wantMade: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			policyPath := writePolicy(t, dir)
			p := startPTY(t, dir, "run", "--", "touch made")
			p.waitFor("Run it? [y]es once, [n]o, [a]lways: ")
			shown := p.seen.String()
			for _, want := range []string{
				"this command needs your approval",
				"1:1: ask: policy.ask: `touch made` matches ask prefix \"touch\"",
				"    touch made\r\n    ^\r\n",
			} {
				if !strings.Contains(shown, want) {
					t.Errorf("prompt does not show %q; it showed:\n%s", want, shown)
				}
			}
			if _, err := os.Stat(filepath.Join(dir, "made")); err == nil {
				t.Fatalf("the command ran before it was approved")
			}
			p.typeIn(tt.answer)
			code, out := p.exit()
			if code != tt.wantCode {
				t.Errorf("exit code %d, want %d; the terminal showed:\n%s", code, tt.wantCode, out)
			}
			_, err := os.Stat(filepath.Join(dir, "made"))
			if made := err == nil; made != tt.wantMade {
				t.Errorf("file made: %v, want %v; the terminal showed:\n%s", made, tt.wantMade, out)
			}
			data, err := os.ReadFile(policyPath)
			if err != nil {
				t.Fatal(err)
			}
			// The policy file is read back by cmdguard itself: after
			// "always", check allows the command; otherwise it still asks.
			wantCheck := exitAsk
			if tt.wantAdded {
				wantCheck = exitAllow
				if want := "adding to " + policyPath + ": allow: \"touch made\""; !strings.Contains(out, want) {
					t.Errorf("the terminal does not show %q before writing; it showed:\n%s", want, out)
				}
				if !strings.Contains(string(data), "touch made") {
					t.Errorf("policy file has no \"touch made\" after always:\n%s", data)
				}
			} else if string(data) != promptPolicy {
				t.Errorf("policy file changed without always:\n%s", data)
			}
			if got := checkCode(t, dir, "touch made"); got != wantCheck {
				t.Errorf("after %q, cmdguard check -- 'touch made' exits %d, want %d\npolicy:\n%s", tt.answer, got, wantCheck, data)
			}
			// The added prefix is the narrowest: other touches still ask.
			if got := checkCode(t, dir, "touch other"); got != exitAsk {
				t.Errorf("after %q, cmdguard check -- 'touch other' exits %d, want %d\npolicy:\n%s", tt.answer, got, exitAsk, data)
			}
		})
	}
}

// TestPromptStdinFollows: what is typed after the answer is the command's
// standard input (the prompt reads only its own line).
func TestPromptStdinFollows(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	writePolicy(t, dir)
	p := startPTY(t, dir, "run", "--", "head -n 1 > got")
	p.waitFor("Run it? ")
	p.typeIn("y\rtyped after the answer\r")
	code, out := p.exit()
	if code != 0 {
		t.Fatalf("exit code %d, want 0; the terminal showed:\n%s", code, out)
	}
	got, err := os.ReadFile(filepath.Join(dir, "got"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "typed after the answer\n"; string(got) != want {
		t.Errorf("the command read %q from stdin, want %q", got, want)
	}
}

// TestPromptNotOffered: a deny is refused without a prompt even on a
// terminal, an allow runs without one, and an ask that no prefix can lift
// (a finding) offers no [a]lways.
func TestPromptNotOffered(t *testing.T) {
	t.Parallel()
	t.Run("deny", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		writePolicy(t, dir)
		p := startPTY(t, dir, "run", "--", "touch made; rm -f x")
		code, out := p.exit()
		if code != exitRefused {
			t.Errorf("exit code %d, want %d; the terminal showed:\n%s", code, exitRefused, out)
		}
		if strings.Contains(out, "Run it?") {
			t.Errorf("a deny was prompted for:\n%s", out)
		}
		if !strings.Contains(out, "cmdguard: refused: deny") {
			t.Errorf("no refusal shown:\n%s", out)
		}
		if _, err := os.Stat(filepath.Join(dir, "made")); err == nil {
			t.Errorf("a denied command ran")
		}
	})
	t.Run("allow", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		writePolicy(t, dir)
		p := startPTY(t, dir, "run", "--", "ls -d .")
		code, out := p.exit()
		if code != 0 {
			t.Errorf("exit code %d, want 0; the terminal showed:\n%s", code, out)
		}
		if strings.Contains(out, "Run it?") {
			t.Errorf("an allow was prompted for:\n%s", out)
		}
		if !strings.Contains(out, ".\r\n") {
			t.Errorf("the command's output is not on the terminal:\n%s", out)
		}
	})
	t.Run("finding", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		writePolicy(t, dir)
		p := startPTY(t, dir, "run", "--", "ls /")
		// no [a]lways: the choices end after [n]o
		p.waitFor("Run it? [y]es once, [n]o: ")
		if !strings.Contains(p.seen.String(), "path.outside_root") {
			t.Errorf("the reason is not shown:\n%s", p.seen.String())
		}
		p.typeIn("a\rn\r")
		code, out := p.exit()
		if code != exitRefused {
			t.Errorf("exit code %d, want %d; the terminal showed:\n%s", code, exitRefused, out)
		}
		if !strings.Contains(out, "always cannot help here: an allow: prefix does not lift path.outside_root: it needs rules: {path.outside_root: allow}") {
			t.Errorf("\"a\" was not explained:\n%s", out)
		}
	})
	t.Run("wildcard word", func(t *testing.T) {
		// touch '*' must not become "allow: touch *", which would allow
		// touching any one file: no [a]lways.
		t.Parallel()
		dir := t.TempDir()
		path := writePolicy(t, dir)
		p := startPTY(t, dir, "run", "--", "touch '*'")
		p.waitFor("Run it? [y]es once, [n]o: ")
		p.typeIn("a\rn\r")
		code, out := p.exit()
		if code != exitRefused {
			t.Errorf("exit code %d, want %d; the terminal showed:\n%s", code, exitRefused, out)
		}
		if !strings.Contains(out, "always cannot help here: policy.ask: it has the word *, which a policy reads as any word") {
			t.Errorf("\"a\" was not explained:\n%s", out)
		}
		if data, _ := os.ReadFile(path); string(data) != promptPolicy {
			t.Errorf("policy file changed:\n%s", data)
		}
	})
}
