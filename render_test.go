package cmdguard_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/policy"
	"go.yaml.in/yaml/v3"
)

func TestRenderEscapes(t *testing.T) {
	t.Parallel()
	root := project(t, testPolicy)
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	cmd := "rm -rf x\x1b[2J"
	d, _ := g.Check(context.Background(), cmdguard.Request{Command: cmd, Cwd: root})
	var b strings.Builder
	if err := g.Render(&b, cmd, d); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.ContainsRune(out, 0x1b) {
		t.Errorf("Render printed a raw ESC:\n%q", out)
	}
	if !strings.Contains(out, `\x1b[2J`) || !strings.Contains(out, "deny: policy.deny") || !strings.Contains(out, "    rm -rf x?[2J\n    ^\n") {
		t.Errorf("Render = %q; want the escaped message, the rule and a caret under the command", out)
	}
	if s := d.Summary(); strings.ContainsRune(s, 0x1b) || !strings.HasPrefix(s, "deny: 1:1 policy.deny: ") {
		t.Errorf("Summary = %q", s)
	}
}

func TestRenderLongWord(t *testing.T) {
	t.Parallel()
	root := project(t, testPolicy)
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	cmd := "cat .env " + strings.Repeat("x", 10000) + " && rm -rf y"
	d, _ := g.Check(context.Background(), cmdguard.Request{Command: cmd, Cwd: root})
	var b strings.Builder
	g.Render(&b, cmd, d)
	if b.Len() > 8<<10 || !strings.Contains(b.String(), "bytes in all)") {
		t.Errorf("Render of a 1 MiB word printed %d bytes; want it cut with the count", b.Len())
	}
	// The caret still points at the denied word past the cut.
	if !strings.Contains(b.String(), "x && rm -rf y\n") || !strings.Contains(b.String(), "    …x") {
		t.Errorf("Render lost the place of rm -rf:\n%s", b.String()[:min(b.Len(), 2000)])
	}
}

func TestCommandLine(t *testing.T) {
	t.Parallel()
	args := []string{"-la", "my dir", "$(id)", "it's", "a\nb", "*", ""}
	line, err := cmdguard.CommandLine("printf", append([]string{"[%s]"}, args...))
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("bash", "-c", line).Output()
	if err != nil {
		t.Fatalf("bash -c %q: %v", line, err)
	}
	want := "[-la][my dir][$(id)][it's][a\nb][*][]"
	if string(out) != want {
		t.Errorf("bash ran %q and printed %q, want %q", line, out, want)
	}
	if got, _ := cmdguard.CommandLine("ls -la | wc -l", nil); got != "ls -la | wc -l" {
		t.Errorf("CommandLine without args = %q, want the line as it is", got)
	}
	if _, err := cmdguard.CommandLine("echo", []string{"a\x00b"}); err == nil {
		t.Errorf("CommandLine with a NUL byte: no error")
	}
}

func TestAllowPrefixes(t *testing.T) {
	t.Parallel()
	root := project(t, testPolicy)
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	d, _ := g.Check(context.Background(), cmdguard.Request{Command: "make build && ls", Cwd: root})
	prefixes, err := g.AllowPrefixes(d)
	if err != nil || len(prefixes) != 1 || strings.Join(prefixes[0], " ") != "make build" {
		t.Fatalf("AllowPrefixes = %q, %v; want [make build]", prefixes, err)
	}
	if err := g.AddAllow(prefixes); err != nil {
		t.Fatal(err)
	}
	g2, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := g2.Check(context.Background(), cmdguard.Request{Command: "make build && ls", Cwd: root}); d.Verdict != cmdguard.Allow {
		t.Errorf("after AddAllow: %s %+v", d.Verdict, d.Reasons)
	}
	d, _ = g.Check(context.Background(), cmdguard.Request{Command: "cat .env", Cwd: root})
	if _, err := g.AllowPrefixes(d); err == nil {
		t.Errorf("AllowPrefixes of an ignore.denied: no error")
	}
}

// hintPolicy is the project policy of TestHintsChangeTheVerdict.
const hintPolicy = `version: 1
default: ask
allow: [ls, cat, gofmt -l, git status]
ask: [touch]
deny: [rm -rf, git push --force]
`

// strictPolicy is what cmdguard init writes: the embedded default.
var strictPolicy = string(policy.StarterYAML())

var (
	allowHintRe = regexp.MustCompile(`add ("(?:[^"\\]|\\.)*"|\[[^\]]*\]) to allow: in `)
	ruleHintRe  = regexp.MustCompile(`rules: \{([a-z_.]+): (allow|ask|deny)\} in `)
)

// TestHintsChangeTheVerdict follows every hint given for a refused
// command — the allow: prefix added to the project's policy file, the
// rules: entry written, the command run under the sandbox — and checks
// the command is then allowed (or, for a hint "to make it ask", asks).
// Where no hint can work, the text must say what to do instead.
func TestHintsChangeTheVerdict(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, policy, cmd string
		rego              string // no_make.rego
		// want is what the hints say to do instead when none can work;
		// empty: hints are given and following them changes the verdict.
		want string
	}{
		// The case: a glob is not known before it runs, so the
		// prefix stops before it (main hinted "gofmt -w *.go").
		{name: "glob", policy: hintPolicy, cmd: "gofmt -w *.go"},
		{name: "glob in the middle", policy: hintPolicy, cmd: "gofmt -w src/*.go docs"},
		{name: "variable", policy: hintPolicy, cmd: "echo $X"},
		{name: "substitution", policy: hintPolicy, cmd: "wc -l $(echo x)"},
		{name: "plain", policy: hintPolicy, cmd: "make build"},
		// a word with a space: the hint is a list of tokens (main hinted
		// "make two words", which the policy reads as three)
		{name: "word with a space", policy: hintPolicy, cmd: `make "two words"`},
		{name: "ask rule, longer prefix", policy: hintPolicy, cmd: "touch src/new.go"},
		{name: "deny rule, longer prefix", policy: hintPolicy, cmd: "rm -rf build"},
		{name: "option that needs an explicit rule", policy: hintPolicy, cmd: "find src -delete"},
		{name: "writing option", policy: hintPolicy, cmd: "sort -o out.txt src/main.go"},
		{name: "chain", policy: hintPolicy, cmd: "make build && echo $X | wc -l"},
		{name: "ignored file", policy: hintPolicy, cmd: "cat .env"},
		{name: "strict: needs the sandbox", policy: strictPolicy, cmd: "go test ./..."},
		// main hinted "add npm install", after which it still asks: it
		// runs the project's code, so it needs the sandbox too.
		{name: "strict: allow prefix, then the sandbox", policy: strictPolicy, cmd: "npm install"},
		{name: "strict: allow prefix with a glob, then the sandbox", policy: strictPolicy, cmd: "go run *.go"},
		{name: "strict: data loss", policy: strictPolicy, cmd: "git push --force"},
		{name: "strict: unknown option", policy: strictPolicy, cmd: "ls --foo"},
		{name: "strict: dynamic script", policy: strictPolicy, cmd: `bash -c "$X"`},

		{name: "deny beyond a variable", policy: hintPolicy, cmd: "rm $X",
			want: "$X is not known before it runs (a variable, a glob or a substitution), and the rule at "},
		{name: "variable program", policy: hintPolicy, cmd: "$X foo",
			want: "its program ($X) is not known before it runs, so no allow: prefix can name it"},
		{name: "the word *", policy: hintPolicy, cmd: "touch '*'",
			want: "it has the word *, which a policy reads as any word"},
		{name: "exact deny rule", policy: hintPolicy, cmd: "git push --force",
			want: "names exactly this command: change or remove it"},
		{name: "strict: rm -rf /", policy: strictPolicy, cmd: "rm -rf /",
			want: "names exactly this command: change or remove it"},
		{name: "rego", policy: hintPolicy + "rego: [no_make.rego]\n", cmd: "make build",
			rego: "package cmdguard\n\ndeny contains \"no make\" if input.commands[_].argv[0] == \"make\"\n",
			want: "the Rego policy at "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root := project(t, tt.policy)
			if tt.rego != "" {
				if err := os.WriteFile(filepath.Join(root, "no_make.rego"), []byte(tt.rego), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			g, err := cmdguard.Open(root)
			if err != nil {
				t.Fatal(err)
			}
			req := cmdguard.Request{Command: tt.cmd, Cwd: root}
			d, _ := g.Check(context.Background(), req)
			if d.Verdict == cmdguard.Allow {
				t.Fatalf("%q is allowed: not a refused command", tt.cmd)
			}
			var b strings.Builder
			g.Render(&b, tt.cmd, d)
			out := b.String()
			var hints []string
			for _, l := range strings.Split(out, "\n") {
				if h, ok := strings.CutPrefix(strings.TrimSpace(l), "hint: "); ok {
					hints = append(hints, h)
				}
			}
			if len(hints) == 0 {
				t.Fatalf("no hint for %q:\n%s", tt.cmd, out)
			}
			if tt.want != "" {
				if !strings.Contains(out, tt.want) {
					t.Errorf("the hints for %q do not say %q:\n%s", tt.cmd, tt.want, out)
				}
				if allowHintRe.MatchString(out) || ruleHintRe.MatchString(out) {
					t.Errorf("a hint for %q proposes a change although none can work:\n%s", tt.cmd, out)
				}
				return
			}
			// Follow every hint.
			path := filepath.Join(root, ".cmdguard.yaml")
			want := cmdguard.Allow
			var rules []string
			for _, h := range hints {
				if strings.HasPrefix(h, "to make it ask") {
					want = cmdguard.Ask
				}
				followed := false
				for _, m := range allowHintRe.FindAllStringSubmatch(h, -1) {
					var tokens []string
					if strings.HasPrefix(m[1], "[") {
						// a list of tokens, as the policy reads it
						if err := yaml.Unmarshal([]byte(m[1]), &tokens); err != nil {
							t.Fatalf("hint %q: %v", h, err)
						}
					} else {
						prefix, err := strconv.Unquote(m[1])
						if err != nil {
							t.Fatal(err)
						}
						tokens = strings.Fields(prefix)
					}
					if err := policy.AppendAllow(path, tokens); err != nil {
						t.Fatalf("following %q: %v", h, err)
					}
					followed = true
				}
				for _, m := range ruleHintRe.FindAllStringSubmatch(h, -1) {
					if !strings.Contains(h, "run it under the sandbox") {
						rules = append(rules, "  "+m[1]+": "+m[2]+"\n")
						followed = true
					}
				}
				if strings.Contains(h, "run it under the sandbox: cmdguard run --sandbox -- ") {
					req.Sandboxed, followed = true, true
				}
				if !followed {
					t.Errorf("hint %q proposes nothing a person can follow", h)
				}
			}
			if len(rules) > 0 {
				f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(f, "rules:\n%s", strings.Join(rules, ""))
				f.Close()
			}
			g2, err := cmdguard.Open(root)
			if err != nil {
				t.Fatalf("the policy after following the hints does not load: %v", err)
			}
			d2, _ := g2.Check(context.Background(), req)
			if d2.Verdict != want {
				t.Errorf("%q after following the hints %q: %s, want %s %+v\nthe hints were:\n%s", tt.cmd, hints, d2.Verdict, want, d2.Reasons, out)
			}
			// "always" offers exactly the allow: prefixes when they alone
			// allow the command, and says why not otherwise.
			if d.Verdict == cmdguard.Ask {
				prefixes, err := g.AllowPrefixes(d)
				onlyPrefixes := want == cmdguard.Allow && len(rules) == 0 && !req.Sandboxed
				if onlyPrefixes != (err == nil) {
					t.Errorf("AllowPrefixes = %q, %v; the hints were %q", prefixes, err, hints)
				}
			}
		})
	}
}

// TestHintWithoutBasis: a decision the Guard did not make (built by hand,
// decoded from JSON), a nil Guard, a reason about a command that is not
// there: no panic, and no change proposed that was not checked.
func TestHintWithoutBasis(t *testing.T) {
	t.Parallel()
	root := project(t, hintPolicy)
	g, err := cmdguard.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	d := cmdguard.Decision{Verdict: cmdguard.Ask, Reasons: []cmdguard.Reason{
		{Verdict: cmdguard.Ask, Rule: "policy.no_match", Command: 1},
		{Verdict: cmdguard.Ask, Rule: "policy.no_match", Command: 7},
	}, Commands: []cmdguard.Command{{Argv: []string{"make", "x"}, MatchArgv: []string{"make", "x", "y"}, Dynamic: []bool{false}}}}
	for _, g := range []*cmdguard.Guard{g, nil} {
		var b strings.Builder
		g.Render(&b, "make x", d)
		if out := b.String(); allowHintRe.MatchString(out) || !strings.Contains(out, "no policy change can be checked") {
			t.Errorf("Render of a decision the Guard did not make:\n%s", out)
		}
		if p, err := g.AllowPrefixes(d); err == nil {
			t.Errorf("AllowPrefixes = %q without a check behind it", p)
		}
	}
	// The Guard's own decision, copied, still finds its basis.
	d, _ = g.Check(context.Background(), cmdguard.Request{Command: "make build", Cwd: root})
	copied := d
	if h := g.HowToAllow(copied.Reasons[0], copied); !strings.Contains(h, `add "make build" to allow:`) {
		t.Errorf("HowToAllow of a copied decision = %q", h)
	}
}
