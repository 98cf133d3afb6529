package policy_test

import (
	"context"
	"fmt"

	"github.com/cmdguard/cmdguard/policy"
)

func ExamplePolicy_Evaluate() {
	p, err := policy.Parse(".cmdguard.yaml", []byte(`version: 1
allow: [git, ls]
ask: [git push]
deny: [git push --force]
`), ".")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, argv := range [][]string{
		{"git", "status"},
		{"git", "push", "origin"},
		{"git", "push", "--force"},
		{"make"},
	} {
		in := &policy.Input{Commands: []policy.Command{{Argv: argv, MatchArgv: argv}}}
		d := p.Evaluate(context.Background(), in)
		r := d.Reasons[0]
		fmt.Printf("%-20s %-5v %-16s %s\n", fmt.Sprint(argv), d.Verdict, r.Rule, r.Source)
	}
	// Output:
	// [git status]         allow policy.allow     .cmdguard.yaml:2
	// [git push origin]    ask   policy.ask       .cmdguard.yaml:3
	// [git push --force]   deny  policy.deny      .cmdguard.yaml:4
	// [make]               ask   policy.no_match  default
}

func ExamplePolicy_Evaluate_chain() {
	p, _ := policy.Default()
	// ls -la && mkdir build: one command allowed, one not named.
	in := &policy.Input{Commands: []policy.Command{
		{Argv: []string{"ls", "-la"}, Pos: policy.Pos{Line: 1, Col: 1}},
		{Argv: []string{"mkdir", "build"}, Pos: policy.Pos{Line: 1, Col: 10}},
	}}
	d := p.Evaluate(context.Background(), in)
	fmt.Println(d.Verdict)
	for _, r := range d.Reasons {
		fmt.Printf("%d:%d %s %s: %s\n", r.Pos.Line, r.Pos.Col, r.Verdict, r.Rule, r.Message)
	}
	// Output:
	// ask
	// 1:10 ask policy.no_match: no prefix rule matches `mkdir build`; default: ask
	// 1:1 allow policy.allow: `ls -la` matches allow prefix "ls"
}

func ExamplePolicy_Evaluate_dynamic() {
	p, _ := policy.Parse("p.yaml", []byte("version: 1\nallow: [rm]\ndeny: [rm -rf]\n"), ".")
	in := &policy.Input{Commands: []policy.Command{{
		Argv:    []string{"rm", "$FLAGS", "build"},
		Dynamic: []bool{false, true, false},
	}}}
	d := p.Evaluate(context.Background(), in)
	fmt.Println(d.Verdict, d.Reasons[0].Message)
	// Output:
	// deny word 2 ($FLAGS) of `rm $FLAGS build` is dynamic: it could make deny prefix "rm -rf" match
}

func ExamplePolicy_Explain() {
	p, _ := policy.Parse("p.yaml", []byte("version: 1\nallow: [git, git log]\nask: [git push]\n"), ".")
	_, trace := p.Explain(context.Background(), &policy.Input{
		Commands: []policy.Command{{Argv: []string{"git", "push"}}},
	})
	for _, s := range trace {
		fmt.Printf("%-8s %-5v matched=%-5v %s\n", s.Prefix, s.Verdict, s.Matched, s.Note)
	}
	// Output:
	// git      allow matched=true  matches, but a longer prefix wins
	// git log  allow matched=false word 2 is "push", not "log"
	// git push ask   matched=true  longest match
}

func ExampleParse_error() {
	_, err := policy.Parse(".cmdguard.yaml", []byte("version: 1\nallow: [git push, git  push]\nrules: {gate.timeout: allow}\n"), ".")
	fmt.Println(err)
	// Output:
	// .cmdguard.yaml:2:19: prefix "git push" repeated in allow (first at .cmdguard.yaml:2)
	// .cmdguard.yaml:3:9: rule "gate.timeout" cannot be re-rated
}

func ExampleLookupRule() {
	for _, id := range []string{"parser.subshell", "path.outside_root", "gate.timeout"} {
		r, _ := policy.LookupRule(id)
		fmt.Printf("%s %s fixed=%v\n", r.ID, r.Verdict, r.Fixed)
	}
	// Output:
	// parser.subshell deny fixed=false
	// path.outside_root ask fixed=false
	// gate.timeout deny fixed=true
}
