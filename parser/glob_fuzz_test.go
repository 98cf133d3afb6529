package parser

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// bracketAlphabet is what the bracket expressions of FuzzGlobBracket are
// made of: the characters that mean something inside brackets, a few
// letters and digits, and a non-ASCII letter. No shell metacharacter
// other than the glob's own, so bash reads the word as one glob.
const bracketAlphabet = "[]!^-:.=\\aAzZe09/_*?lnumphsciboktrdgwxyé"

// bracketNames are the files of the fixture: f followed by one
// character that a bracket expression may match. All ASCII: against a
// non-ASCII name Glob refuses any bracket expression (what bash matches
// there depends on its locale; see TestGlobLocale).
var bracketNames = []string{"fa", "fA", "fz", "fZ", "fe", "f0", "f9", "f_", "f-", "f]", "f[", "f!",
	"f^", "f.", "f:", "f=", "f\\", "f*", "f?", "fab", ".fa"}

// FuzzGlobBracket builds a word f[BODY] from the fuzzer's bytes (mapped
// onto bracketAlphabet), analyses "printf '%s\0' WORD" and expands the
// word with Glob, and compares that with what bash prints in the same
// directory. Where they disagree, the gate must have failed closed: a
// parser.unsupported or parser.not_portable finding, or an error from
// Glob.
func FuzzGlobBracket(f *testing.F) {
	for _, seed := range []string{"a", "!a", "a-z", "]a", "[:alpha:]", "[=a=]", "[.a.]", "z-a", "[:foo:]",
		"\\]", "a-\\z", "[", "^-", "é", "[:alpha:][:digit:]", "!]", "-a", "a-", "/"} {
		f.Add([]byte(seed))
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		f.Fatalf("bash is required: %v", err)
	}
	dir := f.TempDir()
	for _, n := range bracketNames {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o644); err != nil {
			f.Fatal(err)
		}
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		if len(body) > 24 {
			return
		}
		var b strings.Builder
		b.WriteString("f[")
		r := []rune(bracketAlphabet)
		for _, c := range body {
			if c < 0x80 && strings.IndexByte(bracketAlphabet, c) >= 0 {
				b.WriteByte(c) // the seeds read as written
				continue
			}
			b.WriteRune(r[int(c)%len(r)])
		}
		b.WriteString("]")
		word := b.String()
		src := "printf '%s\\0' " + word
		a := Analyze(src, Options{Cwd: dir})
		for _, fd := range a.Findings {
			switch fd.Rule {
			case "parser.unsupported", "parser.not_portable", "parser.syntax":
				return // refused: nothing to compare
			}
		}
		if len(a.Commands) != 1 || len(a.Commands[0].Argv) < 3 {
			t.Fatalf("Analyze(%q): commands %v", src, a.Commands)
		}
		var got []string
		for _, w := range a.Commands[0].Argv[2:] {
			if !w.Glob {
				got = append(got, w.Value)
				continue
			}
			m, err := Glob(w.Pattern, dir, os.ReadDir)
			if err != nil {
				return // refused
			}
			if m == nil {
				m = []string{w.Value}
			}
			got = append(got, m...)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, bash, "-c", src)
		cmd.Dir = dir
		cmd.Env = []string{"LC_ALL=C.UTF-8", "PATH=/usr/bin:/bin"}
		out, err := cmd.Output()
		if err != nil {
			return // bash refused it: nothing ran
		}
		want := strings.Split(string(bytes.TrimSuffix(out, []byte{0})), "\x00")
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: the gate expands %q unlike bash and did not refuse it (-bash +gate):\n%s", src, word, diff)
		}
	})
}
