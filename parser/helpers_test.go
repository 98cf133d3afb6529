package parser

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard/internal/testneed"
	"github.com/google/go-cmp/cmp"
)

// needProgram: see package testneed (skips without the program, fails under CI).
func needProgram(t testing.TB, name string) { t.Helper(); testneed.Program(t, name) }

func refLines(a *Analysis) []string {
	var out []string
	for _, c := range a.Commands {
		name := ""
		if len(c.Args) > 0 {
			name = c.Args[0]
		}
		for _, f := range c.Files {
			flags := ""
			for _, fl := range []struct {
				on bool
				s  string
			}{{f.Write, "w"}, {f.Recursive, "r"}, {f.Glob, "g"}, {f.Dynamic, "d"}, {f.Maybe, "m"}, {f.Filter != nil, "f"}, {f.Top, "t"}, {f.Listed, "l"}} {
				if fl.on {
					flags += fl.s
				}
			}
			out = append(out, fmt.Sprintf("%s: %s %s %s", name, f.Kind, f.Path, flags))
		}
		for _, u := range c.Unknown {
			out = append(out, fmt.Sprintf("%s: unknown %v", name, u.From))
		}
	}
	return out
}

// runRefTests checks each row's file references, in parallel subtests.
func runRefTests(t *testing.T, tests []refTest) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			t.Parallel()
			got := refLines(Analyze(tc.src, Options{Cwd: "/repo", Env: testEnv}))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Analyze(%q) file refs mismatch (-want +got):\n%s", tc.src, diff)
			}
		})
	}
}

// findings renders an analysis's findings as "line:col rule", sorted.
func findings(a *Analysis) []string {
	var out []string
	for _, f := range a.Findings {
		out = append(out, f.Pos.String()+" "+f.Rule)
	}
	slices.Sort(out)
	return out
}

func checkGuards(t *testing.T, tests []guardCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.argv, func(t *testing.T) {
			t.Parallel()
			words := strings.Fields(tt.argv)
			c := Command{}
			for _, w := range words {
				w = strings.NewReplacer("\x00", " ", "\x01", "\n").Replace(w)
				c.Argv = append(c.Argv, Word{Value: w, Dynamic: strings.HasPrefix(w, "$") || strings.Contains(w, "${")})
				c.MatchArgv = append(c.MatchArgv, w)
			}
			hits := optionHits(&c)
			if got := len(hits) > 0; got != tt.ask {
				t.Errorf("optionHits(%q) = %v, want a hit: %v", c.MatchArgv, hits, tt.ask)
			}
			for _, h := range hits {
				if h.Index < 0 || h.Index >= len(c.MatchArgv) || h.What == "" || h.Why == "" {
					t.Errorf("optionHits(%q): bad hit %+v", c.MatchArgv, h)
				}
			}
		})
	}
}

// entries returns every entry of programs, subcommands included, by the
// command words that lead to it ("git diff", "go test"), indexed.
func entries() map[string]*program {
	m := map[string]*program{}
	var walk func(name string, p *program)
	walk = func(name string, p *program) {
		m[name] = p
		for sub, s := range p.subs {
			walk(name+" "+sub, s)
		}
	}
	for name, p := range progs() {
		walk(name, p)
	}
	return m
}

func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// roleNamesOf returns the names of p's options with role r, without
// their dashes: short ones, then long ones.
func roleNamesOf(p *program, r role) (short, long []string) {
	for _, o := range p.options {
		if o.role&r == 0 {
			continue
		}
		for _, n := range strings.Fields(o.names) {
			if strings.HasPrefix(n, "--") {
				long = append(long, n[2:])
			} else {
				short = append(short, n[1:])
			}
		}
	}
	return short, long
}

func sortedKeys[V any](m map[string]V) []string {
	k := make([]string, 0, len(m))
	for n := range m {
		k = append(k, n)
	}
	slices.Sort(k)
	return k
}

// commandLines renders each command as "wrappers|args".
func commandLines(a *Analysis) []string {
	var out []string
	for _, c := range a.Commands {
		out = append(out, strings.Join(c.Wrappers, ",")+"|"+strings.Join(c.Args, " "))
	}
	return out
}
