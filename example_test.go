package cmdguard_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/cmdguard/cmdguard"
)

func ExampleGuard_Check() {
	// A project with a policy and an ignore file.
	root, _ := os.MkdirTemp("", "cmdguard-example")
	defer os.RemoveAll(root)
	os.WriteFile(filepath.Join(root, ".cmdguard.yaml"), []byte("version: 1\nallow: [cat, git status]\n"), 0o644)
	os.WriteFile(filepath.Join(root, ".cmdguardignore"), []byte(".env\n"), 0o644)

	g, err := cmdguard.Open(root)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, cmd := range []string{"git status", "cat .env", "git push", "echo $(id)"} {
		d, _ := g.Check(context.Background(), cmdguard.Request{Command: cmd, Cwd: root})
		fmt.Printf("%-11s %-5s", cmd, d.Verdict)
		for _, r := range d.Reasons {
			if r.Verdict != cmdguard.Allow {
				fmt.Printf(" %s@%d:%d", r.Rule, r.Pos.Line, r.Pos.Col)
			}
		}
		fmt.Println()
	}
	// Output:
	// git status  allow
	// cat .env    deny  ignore.denied@1:5
	// git push    ask   policy.no_match@1:1
	// echo $(id)  deny  parser.command_substitution@1:6 policy.no_match@1:8 policy.no_match@1:1
}
