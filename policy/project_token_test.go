package policy_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard/policy"
)

// TestProjectToken: the prefix token {project} matches the program word
// of a command whose Command.ProjectFile is set, and nothing else; a
// longer literal prefix still wins, and a deny of the token denies.
func TestProjectToken(t *testing.T) {
	p := mustParse(t, "version: 1\ndefault: ask\nallow: [\"{project}\", \"{project} --help\"]\ndeny: [\"{project} --deploy\", ./x.sh rm]\n")
	for _, tc := range []struct {
		argv    []string
		project bool
		want    policy.Verdict
	}{
		{[]string{"./x.sh"}, true, policy.Allow},
		{[]string{"./x.sh", "arg"}, true, policy.Allow},
		{[]string{"bin/x", "--deploy"}, true, policy.Deny},
		{[]string{"./x.sh", "rm"}, true, policy.Deny},
		{[]string{"./x.sh"}, false, policy.Ask},
		{[]string{"/tmp/x"}, false, policy.Ask},
		{[]string{"{project}"}, false, policy.Ask}, // a program named so is no file of the project
		{[]string{"ls", "./x.sh"}, true, policy.Ask},
	} {
		c := policy.Command{Argv: tc.argv, MatchArgv: tc.argv, Dynamic: make([]bool, len(tc.argv)), ProjectFile: tc.project}
		if tc.argv[0] == "ls" {
			c.ProjectFile = false // only the program word: ls ./x.sh runs ls
		}
		d := p.Evaluate(context.Background(), input(c))
		if d.Verdict != tc.want {
			t.Errorf("%q (ProjectFile %v): %v, want %v (%v)", tc.argv, tc.project, d.Verdict, tc.want, d.Reasons)
		}
	}
}

// TestProjectTokenLoad: {project} is the first token only, no other
// {name} is known, and words like {} or {a,b} stay words.
func TestProjectTokenLoad(t *testing.T) {
	for _, tc := range []struct {
		yaml, err string
	}{
		{`allow: ["{project}"]`, ""},
		{`allow: [["{project}", test]]`, ""},
		{`allow: ["find . -exec cat {} ;"]`, ""},
		{`allow: ["echo {a,b}"]`, ""},
		{`allow: ["sh {project}"]`, "must be the first token"},
		{`allow: ["{projects}"]`, "unknown placeholder"},
		{`deny: ["{PROJECT} x"]`, "unknown placeholder"},
	} {
		_, err := policy.Parse("p.yaml", []byte("version: 1\n"+tc.yaml+"\n"), t.TempDir())
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v, want no error", tc.yaml, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: %v, want an error with %q", tc.yaml, err, tc.err)
		}
	}
}

// TestProjectTokenLint: allowing {project} in a policy that is not
// strict runs the project's scripts without the sandbox: lint warns; a
// strict one (the embedded default's copy) runs them under it only.
func TestProjectTokenLint(t *testing.T) {
	for _, tc := range []struct {
		yaml string
		warn bool
	}{
		{"version: 1\nallow: [\"{project}\"]\n", true},
		{"version: 1\nstrict: true\nallow: [\"{project}\"]\n", false},
	} {
		f := filepath.Join(t.TempDir(), policy.FileName)
		if err := os.WriteFile(f, []byte(tc.yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		diags, err := policy.Lint(f)
		if err != nil {
			t.Fatal(err)
		}
		got := false
		for _, d := range diags {
			if d.Severity == "warning" && strings.Contains(d.Message, "{project}") {
				got = true
			}
		}
		if got != tc.warn {
			t.Errorf("%q: warning about {project}: %v, want %v (%v)", tc.yaml, got, tc.warn, diags)
		}
	}
}
