package cmdguard_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/policy"
)

// A policy can come from anywhere — embedded in a program, generated, read
// from a database — rather than from a .cmdguard.yaml in the project:
// compile it with policy.Parse (or policy.Load for a file) and give it to
// New with the project root the file references are checked against.
func ExampleNew() {
	root, _ := os.MkdirTemp("", "cmdguard-example")
	defer os.RemoveAll(root)
	os.WriteFile(filepath.Join(root, "secrets.txt"), []byte("hunter2\n"), 0o600)

	p, err := policy.Parse("agent-policy", []byte(`
version: 1
default: deny
allow: [ls, cat, go test]
ask: [go mod tidy]
ignore: [secrets.txt]
`), "")
	if err != nil {
		fmt.Println(err) // every problem, as file:line:col
		return
	}
	g, err := cmdguard.New(p, root)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, cmd := range []string{"go test ./...", "go mod tidy", "cat secrets.txt", "make"} {
		d, _ := g.Check(context.Background(), cmdguard.Request{Command: cmd, Cwd: root})
		fmt.Printf("%-15s %s\n", cmd, d.Verdict)
	}
	// Output:
	// go test ./...   allow
	// go mod tidy     ask
	// cat secrets.txt deny
	// make            deny
}

// Every Reason says which rule fired, where in the command, and which
// policy line decided; CommandIndex names the command a reason is about,
// as an index into Decision.Commands.
func ExampleReason() {
	p, _ := policy.Parse("p.yaml", []byte("version: 1\nallow: [git status, ls]\ndeny: [git push --force]\n"), "")
	root, _ := os.MkdirTemp("", "cmdguard-example")
	defer os.RemoveAll(root)
	g, _ := cmdguard.New(p, root)

	d, _ := g.Check(context.Background(), cmdguard.Request{Command: "ls && git -C . push --force origin", Cwd: root})
	fmt.Println(d.Verdict)
	for _, r := range d.Reasons { // strictest first
		fmt.Printf("%s %s at %d:%d, from %s", r.Verdict, r.Rule, r.Pos.Line, r.Pos.Col, r.Source)
		if i, ok := r.CommandIndex(); ok {
			fmt.Printf(", about command %d %q", i, d.Commands[i].Argv)
		}
		fmt.Println()
	}
	// Output:
	// deny
	// deny policy.deny at 1:7, from p.yaml:3, about command 1 ["git" "-C" "." "push" "--force" "origin"]
	// allow policy.allow at 1:1, from p.yaml:2, about command 0 ["ls"]
}

// A Decision marshals to the JSON that cmdguard check --format json
// prints (docs/contract.md): "command" is the 0-based index into
// "commands", absent when a reason is about no single command.
func ExampleDecision_json() {
	p, _ := policy.Parse("p.yaml", []byte("version: 1\nallow: [cat]\nignore: [.env]\n"), "")
	root, _ := os.MkdirTemp("", "cmdguard-example")
	defer os.RemoveAll(root)
	g, _ := cmdguard.New(p, root)

	d, _ := g.Check(context.Background(), cmdguard.Request{Command: "cat .env", Cwd: root})
	b, _ := json.Marshal(d.Reasons)
	fmt.Println(d.Verdict)
	fmt.Println(string(b))
	// Output:
	// deny
	// [{"verdict":"deny","rule":"ignore.denied","message":"'.env' is ignored by p.yaml:3 (.env)","pos":{"line":1,"col":5},"source":"p.yaml:3"},{"verdict":"allow","rule":"policy.allow","message":"`cat .env` matches allow prefix \"cat\"","pos":{"line":1,"col":1},"source":"p.yaml:2","command":0}]
}
