package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/cmdguard/cmdguard/policy"
	"mvdan.cc/sh/v3/shell"
)

// docProject is the directory the documentation's transcripts pretend to
// run in; the test runs them in a temporary directory and writes its path
// as docProject before comparing.
const docProject = "/home/dev/app"

// docFiles are the Markdown files whose code blocks are executed.
var docFiles = []string{"../../README.md"}

func init() {
	more, _ := filepath.Glob("../../docs/*.md")
	docFiles = append(docFiles, more...)
}

// block is one fenced code block of a Markdown file.
type block struct {
	lang string
	line int // of the opening fence
	text string
}

// TestDocs executes the code blocks of the README and of docs/*.md, as Go
// runs its examples, so that what they show stays true:
//
//   - a ```yaml block that holds a "version:" line is a policy: it becomes
//     the project's .cmdguard.yaml for the blocks after it, and must load
//     and lint without an error, exactly as written;
//   - a ```rego block must compile as a policy's module and lint without
//     an error;
//   - a ```console block is a transcript: each "$ cmdguard …" line is run
//     with the real CLI in the project (which also holds a .env file), and
//     what it prints (stdout, then stderr) must be the lines up to the
//     next "$ "; "$ echo $?" checks the exit code of the command before.
//     Output that starts with "{" is compared as JSON; output whose first
//     line is a whole JSON object (a hook's answer) compares that line as
//     JSON and the lines after it as text.
func TestDocs(t *testing.T) {
	t.Parallel()
	for _, path := range docFiles {
		t.Run(filepath.Base(path), func(t *testing.T) {
			t.Parallel()
			dir := newDocProject(t)
			ran := 0
			for _, b := range codeBlocks(t, path) {
				where := fmt.Sprintf("%s:%d", path, b.line)
				switch b.lang {
				case "yaml":
					if !isPolicy(b.text) {
						continue
					}
					if err := os.WriteFile(filepath.Join(dir, ".cmdguard.yaml"), []byte(b.text), 0o644); err != nil {
						t.Fatal(err)
					}
					if out, code := cmdguardIn(t, dir, "", "policy", "lint"); code != 0 && code != 1 {
						t.Errorf("%s: the policy does not lint (exit %d):\n%s", where, code, out)
					}
					if out, code := cmdguardIn(t, dir, "", "check", "--", "true"); code == exitError {
						t.Errorf("%s: check cannot load the policy (exit %d):\n%s", where, code, out)
					}
					ran++
				case "rego":
					rdir := t.TempDir()
					os.WriteFile(filepath.Join(rdir, "m.rego"), []byte(b.text), 0o644)
					os.WriteFile(filepath.Join(rdir, ".cmdguard.yaml"), []byte("version: 1\nrego: [m.rego]\n"), 0o644)
					if out, code := cmdguardIn(t, rdir, "", "policy", "lint"); code != 0 {
						t.Errorf("%s: the Rego module does not lint clean (exit %d):\n%s", where, code, out)
					}
					ran++
				case "console":
					runTranscript(t, where, dir, b.text)
					ran++
				}
			}
			if ran == 0 {
				t.Errorf("%s: no block tested", path)
			}
		})
	}
}

func isPolicy(yaml string) bool {
	for _, l := range strings.Split(yaml, "\n") {
		if strings.HasPrefix(l, "version:") {
			return true
		}
	}
	return false
}

// newDocProject makes the project the transcripts run in.
func newDocProject(t *testing.T) string {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte("KEY=secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return dir
}

// runTranscript runs the commands of a console block and compares.
func runTranscript(t *testing.T, where, dir, text string) {
	t.Helper()
	type step struct {
		cmd  string
		want []string
	}
	var steps []step
	for _, l := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		if c, ok := strings.CutPrefix(l, "$ "); ok {
			steps = append(steps, step{cmd: c})
			continue
		}
		if len(steps) == 0 {
			t.Fatalf("%s: console block does not start with \"$ \"", where)
		}
		steps[len(steps)-1].want = append(steps[len(steps)-1].want, l)
	}
	last := -1
	for _, s := range steps {
		want := strings.Join(s.want, "\n")
		if s.cmd == "echo $?" {
			if last < 0 {
				t.Errorf("%s: echo $? before any command", where)
			} else if want != strconv.Itoa(last) {
				t.Errorf("%s: $ %s: exit code %d, the transcript says %s", where, s.cmd, last, want)
			}
			continue
		}
		args, err := shell.Fields(s.cmd, nil)
		if err != nil || len(args) == 0 || args[0] != "cmdguard" {
			t.Errorf("%s: $ %s: only cmdguard commands can be run (%v)", where, s.cmd, err)
			continue
		}
		got, code := cmdguardIn(t, dir, "", args[1:]...)
		last = code
		got = strings.TrimSuffix(got, "\n")
		if first, rest, ok := strings.Cut(want, "\n"); ok && strings.HasPrefix(first, "{") && json.Valid([]byte(first)) {
			// One line of JSON on stdout, then text on stderr (a hook's
			// answer and its reason): the line as JSON, the rest as text.
			gotFirst, gotRest, _ := strings.Cut(got, "\n")
			var w, g any
			json.Unmarshal([]byte(first), &w)
			if err := json.Unmarshal([]byte(gotFirst), &g); err != nil {
				t.Errorf("%s: $ %s: first line is not JSON: %v\n%s", where, s.cmd, err, got)
				continue
			}
			if diff := cmp.Diff(w, g); diff != "" {
				t.Errorf("%s: $ %s: JSON mismatch (-doc +cmdguard):\n%s", where, s.cmd, diff)
			}
			if diff := cmp.Diff(rest, gotRest); diff != "" {
				t.Errorf("%s: $ %s: output mismatch (-doc +cmdguard):\n%s", where, s.cmd, diff)
			}
			continue
		}
		if strings.HasPrefix(want, "{") {
			var w, g any
			if err := json.Unmarshal([]byte(want), &w); err != nil {
				t.Errorf("%s: $ %s: the transcript's JSON is invalid: %v", where, s.cmd, err)
				continue
			}
			if err := json.Unmarshal([]byte(got), &g); err != nil {
				t.Errorf("%s: $ %s: output is not JSON: %v\n%s", where, s.cmd, err, got)
				continue
			}
			if diff := cmp.Diff(w, g); diff != "" {
				t.Errorf("%s: $ %s: JSON mismatch (-doc +cmdguard):\n%s", where, s.cmd, diff)
			}
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: $ %s: output mismatch (-doc +cmdguard):\n%s", where, s.cmd, diff)
		}
	}
}

// TestDocsRules checks the rule table of docs/contract.md against the
// registry: every id, with its default verdict and how far it may be
// re-rated, and nothing else.
func TestDocsRules(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../docs/contract.md")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Split(l, " | ")
		if len(f) != 4 || !strings.HasPrefix(f[0], "| `") {
			continue
		}
		got = append(got, strings.Join(f[:3], " | "))
	}
	var want []string
	for _, r := range policy.Rules() {
		re := "yes"
		switch {
		case r.Fixed:
			re = "no"
		case r.Loosest != policy.Allow:
			re = "down to " + r.Loosest.String()
		}
		want = append(want, fmt.Sprintf("| `%s` | %s | %s", r.ID, r.Verdict, re))
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("docs/contract.md rule table mismatch (-registry +doc):\n%s", diff)
	}
}

// TestDocsInstall checks the README's install commands: the remote form
// names this module's CLI package at @latest, the local form its
// directory, and both name a main package that exists here.
func TestDocsInstall(t *testing.T) {
	t.Parallel()
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	module := strings.TrimPrefix(strings.SplitN(string(mod), "\n", 2)[0], "module ")
	var remote, local bool
	for _, b := range codeBlocks(t, "../../README.md") {
		for _, l := range strings.Split(b.text, "\n") {
			f := strings.Fields(l)
			if len(f) < 3 || f[0] != "go" || f[1] != "install" {
				continue
			}
			pkg, ver, _ := strings.Cut(f[2], "@")
			var dir string
			switch {
			case strings.HasPrefix(pkg, "./"):
				local, dir = true, filepath.Join("../..", pkg)
			case strings.HasPrefix(pkg, module+"/") && ver == "latest":
				remote, dir = true, filepath.Join("../..", strings.TrimPrefix(pkg, module+"/"))
			default:
				t.Errorf("README: %q installs %s, not this module's CLI at @latest", l, f[2])
				continue
			}
			src, err := os.ReadFile(filepath.Join(dir, "main.go"))
			if err != nil || !strings.Contains(string(src), "\npackage main\n") {
				t.Errorf("README: %q: %s holds no main package (%v)", l, dir, err)
			}
		}
	}
	// The module is not published: go install …@latest answers 403 from
	// the proxy (issue 30), so a command block shows only the clone's form.
	if remote || !local {
		t.Errorf("README: go install of the CLI: @latest form in a command block = %v (want false: the module is not published), local form = %v (want true)", remote, local)
	}
}

// TestDocsJSONFields checks the field tables of docs/contract.md against
// what the CLI prints: every top-level key of check --format json and of
// run --format json is in its section's table, and every field the table
// names is printed (error only on failure).
func TestDocsJSONFields(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../../docs/contract.md")
	if err != nil {
		t.Fatal(err)
	}
	fields := func(section string) map[string]bool {
		_, rest, ok := strings.Cut(string(data), "\n## "+section+"\n")
		if !ok {
			t.Fatalf("docs/contract.md has no section %q", section)
		}
		rest, _, _ = strings.Cut(rest, "\n## ")
		out := map[string]bool{}
		for _, l := range strings.Split(rest, "\n") {
			cell, ok := strings.CutPrefix(l, "| `")
			if !ok {
				continue
			}
			cell, _, _ = strings.Cut("`"+cell, " |")
			for _, f := range strings.Split(cell, ",") {
				f = strings.Trim(strings.TrimSpace(f), "`")
				out[strings.TrimSuffix(f, "[]")] = true
			}
		}
		return out
	}
	dir := t.TempDir()
	for _, tt := range []struct {
		section string
		args    []string
		extra   []string // documented keys printed only elsewhere
	}{
		{"JSON of check and explain", []string{"check", "--format", "json", "--", "echo hi"}, []string{"trace"}},
		{"JSON of check and explain", []string{"explain", "--format", "json", "--", "echo hi"}, nil},
		{"JSON of run", []string{"run", "--format", "json", "--", "echo hi"}, []string{"error"}},
	} {
		out, _ := cmdguardIn(t, dir, "", tt.args...)
		var obj map[string]any
		if err := json.Unmarshal([]byte(out), &obj); err != nil {
			t.Fatalf("cmdguard %q: %v\n%s", tt.args, err, out)
		}
		doc := fields(tt.section)
		for k := range obj {
			if !doc[k] {
				t.Errorf("cmdguard %q prints %q, which docs/contract.md (%s) does not list", tt.args, k, tt.section)
			}
		}
		for k := range doc {
			if _, ok := obj[k]; !ok && !slices.Contains(tt.extra, k) && !(k == "trace" && tt.args[0] == "check") {
				t.Errorf("docs/contract.md (%s) lists %q, which cmdguard %q does not print", tt.section, k, tt.args)
			}
		}
	}
}
