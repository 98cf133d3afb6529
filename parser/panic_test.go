package parser

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// panicTokens are the argument words that end a reader's loop early or
// late: option clusters that want a value at the end of the line, words
// that end a sequence inside them (tmux's "a;"), "--", empty words,
// attached values and quoting.
var panicTokens = []string{`''`, `-`, `--`, `\;`, `a\;`, `';;'`, `0`, `-c`, `-e`, `-f`, `-C`, `-o`, `-x=`, `--x=`, `-=`,
	`a=`, `=`, `+`, `{}`, `-ec`, `--c`, `"$X"`, `:`, `@`}

// TestProgramReadersNeverPanic runs every program of the table and each
// of its subcommands with every tail of up to two panicTokens (and a
// fixed sample of longer tails, each with the program's own option
// letters): the analysis must never report an internal error (a
// recovered panic). tmux a\; 0 indexed past its argv (issue 26).
func TestProgramReadersNeverPanic(t *testing.T) {
	t.Parallel()
	var names []string
	for name, p := range progs() {
		names = append(names, name)
		for sub := range p.subs {
			names = append(names, name+" "+sub)
		}
	}
	slices.Sort(names)
	rng := rand.New(rand.NewPCG(26, 1))
	check := func(src string) {
		a := Analyze(src, Options{Cwd: "/repo", Env: testEnv, MaxCommands: 64})
		for _, f := range a.Findings {
			if strings.HasPrefix(f.Message, internalError) {
				t.Errorf("Analyze(%q): %s", src, f.Message)
			}
		}
	}
	check(`tmux a\; 0`)
	for _, name := range names {
		toks := slices.Clone(panicTokens)
		if p := progs()[strings.Fields(name)[0]]; p.wrap != nil {
			for c := range byte(128) {
				if p.roles.shortValue(c) {
					toks = append(toks, "-"+string(rune(c)), "-a"+string(rune(c)))
				}
			}
		}
		check(name)
		for _, a := range toks {
			check(name + " " + a)
			for _, b := range toks {
				check(name + " " + a + " " + b)
			}
		}
		for range 200 {
			n := 3 + rng.IntN(4)
			src := name
			for range n {
				src += " " + toks[rng.IntN(len(toks))]
			}
			check(src)
		}
	}
}

// TestGuardChecksInRange calls every guard's check function of the table
// (and of each subcommand) on argument lists built from panicTokens, as
// the unquoted words, and wants 0, -1 or an index of argv: optionHits
// indexes argv with it.
func TestGuardChecksInRange(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(26, 2))
	var walk func(name string, p *program)
	walk = func(name string, p *program) {
		for _, g := range p.guards {
			if g.check == nil {
				continue
			}
			n := len(g.prefix)
			for range 3000 {
				argv := slices.Clone(g.prefix)
				if len(argv) == 0 {
					argv = []string{name}
				}
				for range rng.IntN(6) {
					w := strings.Trim(panicTokens[rng.IntN(len(panicTokens))], `'"`)
					argv = append(argv, strings.ReplaceAll(w, `\;`, ";"))
				}
				if i := g.check(argv, max(n, 1)); i < -1 || i >= len(argv) {
					t.Fatalf("%s guard check(%q, %d) = %d, outside argv", name, argv, n, i)
				}
			}
		}
		for sub, sp := range p.subs {
			walk(name+" "+sub, sp)
		}
	}
	for name, p := range progs() {
		walk(name, p)
	}
}
