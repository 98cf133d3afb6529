package policy_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/cmdguard/cmdguard/policy"
)

// wantError reads the "# want: [FILE:]LINE:COL: MSG" header of an invalid
// fixture. FILE is relative to testdata/ and defaults to the fixture.
func wantError(t *testing.T, path string) policy.Error {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(string(data), "\n")
	spec, ok := strings.CutPrefix(first, "# want: ")
	if !ok {
		t.Fatalf("%s: no # want: header", path)
	}
	want := policy.Error{File: path}
	parts := strings.SplitN(spec, ":", 4)
	if _, err := strconv.Atoi(parts[0]); err != nil {
		want.File = filepath.Join("testdata", parts[0])
		parts = parts[1:]
	} else {
		parts = strings.SplitN(spec, ":", 3)
	}
	want.Line, _ = strconv.Atoi(parts[0])
	want.Col, _ = strconv.Atoi(parts[1])
	want.Msg = strings.TrimSpace(parts[2])
	return want
}

func TestLoadInvalid(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("testdata/invalid/*.yaml")
	if len(files) < 30 {
		t.Fatalf("found %d invalid fixtures, want at least 30", len(files))
	}
	for _, path := range files {
		t.Run(filepath.Base(path), func(t *testing.T) {
			t.Parallel()
			want := wantError(t, path)
			p, err := policy.Load(path)
			if err == nil {
				t.Fatalf("Load(%q) = nil error, want %v", path, &want)
			}
			if p != nil {
				t.Errorf("Load(%q) returned a policy with its error", path)
			}
			var errs policy.Errors
			if !errors.As(err, &errs) || len(errs) == 0 {
				t.Fatalf("Load(%q) error %v is not a policy.Errors", path, err)
			}
			got := *errs[0]
			if !strings.Contains(got.Msg, want.Msg) {
				got.Msg = want.Msg + " ≠ " + got.Msg
			} else {
				got.Msg = want.Msg
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Load(%q) first error mismatch (-want +got):\n%s", path, diff)
			}
			// A broken policy never allows: the nil policy denies.
			d := p.Evaluate(context.Background(), input(cmd("ls")))
			if d.Verdict != policy.Deny || d.Reasons[0].Rule != "policy.invalid" {
				t.Errorf("nil policy decided %v %v, want deny policy.invalid", d.Verdict, d.Reasons)
			}
		})
	}
}

func TestLoadValid(t *testing.T) {
	t.Parallel()
	defaultIgnore := []string{".cmdguardignore", ".kilocodeignore", ".rooignore", ".clineignore", ".geminiignore", ".cursorignore", ".aiexclude"}
	type summary struct {
		Prefixes    []string // "verdict tokens… @line"
		Default     string
		IgnoreFiles []string
		Ignore      []policy.Pattern
		Exec        policy.Exec
		Rego        bool
		Ratings     map[string]string
	}
	tests := []struct {
		file string
		want summary
	}{
		{"minimal.yaml", summary{Default: "ask default", IgnoreFiles: defaultIgnore,
			Ratings: map[string]string{"path.outside_root": "ask builtin", "parser.subshell": "deny builtin"}}},
		{"full.yaml", summary{
			Prefixes: []string{
				"allow [git|status] :4", "allow [git|diff] :4", "allow [npm|test] :4", "allow [go|test] :4",
				"deny [rm|-rf] :5", "deny [git|push|--force] :5", "deny [curl] :5", "ask [git|push] :6",
			},
			Default:     "ask testdata/valid/full.yaml:3",
			IgnoreFiles: []string{".cmdguardignore", ".kilocodeignore"},
			Ignore: []policy.Pattern{
				{Pattern: ".env", Source: "testdata/valid/full.yaml:8"},
				{Pattern: "*.pem", Source: "testdata/valid/full.yaml:8"},
				{Pattern: "secrets/", Source: "testdata/valid/full.yaml:8"},
			},
			Exec: policy.Exec{Timeout: 30 * time.Second, HardTimeout: 5 * time.Minute, OutputLimit: 1 << 20, EnvAllow: []string{"PATH", "HOME", "LANG"}},
			Rego: true,
			Ratings: map[string]string{
				"path.outside_root": "deny testdata/valid/full.yaml:9",
				"parser.subshell":   "ask testdata/valid/full.yaml:9",
			},
		}},
		{"tokens.yaml", summary{
			Prefixes: []string{
				`allow [true] :4`, `allow [false] :5`, `allow [sleep|1] :6`, `allow [grep|foo bar] :7`, `allow [printf|] :8`, `ask [*] :10`,
			},
			Default: "deny testdata/valid/tokens.yaml:2", IgnoreFiles: defaultIgnore,
			Ratings: map[string]string{"path.outside_root": "ask builtin", "parser.subshell": "deny builtin"},
		}},
		{"nulls.yaml", summary{Default: "ask default", IgnoreFiles: defaultIgnore,
			Ratings: map[string]string{"path.outside_root": "ask builtin", "parser.subshell": "deny builtin"}}},
		{"ignore_files_only_other.yaml", summary{Default: "ask default", IgnoreFiles: []string{".cmdguardignore", ".aiexclude"},
			Exec:    policy.Exec{OutputLimit: 65536, EnvAllow: []string{}},
			Ratings: map[string]string{"path.outside_root": "ask builtin", "parser.subshell": "deny builtin"}}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join("testdata/valid", tt.file)
			p, err := policy.Load(path)
			if err != nil {
				t.Fatalf("Load(%q): %v", path, err)
			}
			var got summary
			for _, pr := range p.Prefixes() {
				_, line, _ := strings.Cut(pr.Source, ".yaml")
				got.Prefixes = append(got.Prefixes, pr.Verdict.String()+" ["+strings.Join(pr.Tokens, "|")+"] "+line)
			}
			v, src := p.DefaultVerdict()
			got.Default = v.String() + " " + src
			got.IgnoreFiles = p.IgnoreFiles()
			got.Ignore = p.IgnorePatterns()
			got.Exec = p.Exec()
			got.Rego = p.HasRego()
			got.Ratings = map[string]string{}
			for _, id := range []string{"path.outside_root", "parser.subshell"} {
				v, src := p.RuleVerdict(id)
				got.Ratings[id] = v.String() + " " + src
			}
			if p.Path() != path {
				t.Errorf("Path() = %q, want %q", p.Path(), path)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Load(%q) mismatch (-want +got):\n%s", path, diff)
			}
		})
	}
}

func TestFind(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	mk := func(rel string) string {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	top := mk(".cmdguard.yaml")
	nested := mk("a/sub/.cmdguard.yaml")
	for _, f := range []string{top, nested} {
		if err := os.WriteFile(f, []byte("version: 1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mk("a/sub/deep/x")
	mk("b/c/x")
	if err := os.MkdirAll(filepath.Join(root, "d/.cmdguard.yaml"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		cwd     string
		want    string
		wantOK  bool
		wantErr bool
	}{
		{root, top, true, false},
		{filepath.Join(root, "b/c"), top, true, false},
		{filepath.Join(root, "a"), top, true, false},
		{filepath.Join(root, "a/sub"), nested, true, false},
		{filepath.Join(root, "a/sub/deep"), nested, true, false},
		{filepath.Join(root, "d"), "", false, true}, // a directory named .cmdguard.yaml: fail closed
	}
	for _, tt := range tests {
		t.Run(strings.TrimPrefix(tt.cwd, root), func(t *testing.T) {
			t.Parallel()
			got, ok, err := policy.Find(tt.cwd)
			if got != tt.want || ok != tt.wantOK || (err != nil) != tt.wantErr {
				t.Errorf("Find(%q) = %q, %v, %v; want %q, %v, error %v", tt.cwd, got, ok, err, tt.want, tt.wantOK, tt.wantErr)
			}
		})
	}
}

func TestFindNone(t *testing.T) {
	t.Parallel()
	// Nothing above a fresh temporary directory is expected to hold a
	// policy, but the machine could: only check consistency then.
	dir := t.TempDir()
	path, ok, err := policy.Find(dir)
	if err != nil {
		t.Fatalf("Find(%q): %v", dir, err)
	}
	if ok != (path != "") {
		t.Errorf("Find(%q) = %q, %v: ok and path disagree", dir, path, ok)
	}
	if ok && strings.HasPrefix(path, dir) {
		t.Errorf("Find(%q) = %q inside an empty directory", dir, path)
	}
}

func TestDefault(t *testing.T) {
	t.Parallel()
	p, err := policy.Default()
	if err != nil {
		t.Fatalf("Default(): %v", err)
	}
	if p.HasRego() || !p.IsDefault() || p.Path() != "" {
		t.Errorf("Default(): HasRego %v IsDefault %v Path %q", p.HasRego(), p.IsDefault(), p.Path())
	}
	if v, src := p.DefaultVerdict(); v != policy.Ask || src != "builtin" {
		t.Errorf("Default().DefaultVerdict() = %v %q, want ask builtin", v, src)
	}
	var patterns []string
	for _, pt := range p.IgnorePatterns() {
		patterns = append(patterns, pt.Pattern)
		if pt.Source != "builtin" {
			t.Errorf("default ignore pattern %q source %q, want builtin", pt.Pattern, pt.Source)
		}
	}
	for _, want := range []string{".env", "*.pem", "id_rsa*", "!.env.example"} {
		if !slices.Contains(patterns, want) {
			t.Errorf("default ignore patterns %q lack %q", patterns, want)
		}
	}
	if _, err := policy.Parse("starter.yaml", policy.StarterYAML(), "."); err != nil {
		t.Errorf("starter policy: %v", err)
	}
}

// TestStarterIgnoreFiles checks that the starter policy's commented
// ignore_files: line, uncommented, is the default list: what a user sees
// there is what applies when the key is unset.
func TestStarterIgnoreFiles(t *testing.T) {
	t.Parallel()
	var line string
	for _, l := range strings.Split(string(policy.StarterYAML()), "\n") {
		if strings.HasPrefix(l, "# ignore_files:") {
			line = strings.TrimPrefix(l, "# ")
		}
	}
	if line == "" {
		t.Fatal("the starter policy has no commented ignore_files: line")
	}
	with := mustParse(t, "version: 1\n"+line+"\n")
	without := mustParse(t, "version: 1\n")
	if diff := cmp.Diff(without.IgnoreFiles(), with.IgnoreFiles()); diff != "" {
		t.Errorf("starter's %q is not the default list (-default +starter):\n%s", line, diff)
	}
}
