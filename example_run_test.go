package cmdguard_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"

	"github.com/cmdguard/cmdguard"
)

// exampleProject writes a project with a policy and an ignore file, as the
// README's snippet expects one.
func exampleProject() string {
	root, _ := os.MkdirTemp("", "cmdguard-example")
	os.WriteFile(filepath.Join(root, ".cmdguard.yaml"), []byte("version: 1\nallow: [echo, cat, printf]\nenv_safe: [GREETING]\n"), 0o644)
	os.WriteFile(filepath.Join(root, ".cmdguardignore"), []byte(".env\n"), 0o644)
	return root
}

// This is the README's library snippet, as written there.
func Example_readme() {
	projectDir := exampleProject()
	defer os.RemoveAll(projectDir)
	ctx, cmd, dir := context.Background(), "echo hello", projectDir
	agentEnv := []string{"GREETING=hi"} // what the agent asked for

	err := func() error {
		g, err := cmdguard.Open(projectDir) // finds .cmdguard.yaml, reads the ignore files
		if err != nil {
			return err // an invalid policy is an error, never a silent default
		}
		req := cmdguard.Request{Command: cmd, Cwd: dir, Env: agentEnv} // Env: judged; BaseEnv: trusted (nil: the host's)
		d, err := g.Check(ctx, req)
		if d.Verdict != cmdguard.Allow { // on any error d is a Deny
			return fmt.Errorf("refused: %s (%v)", d.Summary(), err)
		}
		_, res, err := g.Run(ctx, cmdguard.RunRequest{Request: req}) // or run exactly cmd with bash -c yourself
		fmt.Print(res.Stdout.String())
		return err
	}()
	fmt.Println(err)
	// Output:
	// hello
	// <nil>
}

// An agent's environment is judged like VAR=value written before the
// command: a variable that makes bash run code refuses the command, one
// the gate does not know to be harmless (and env_safe: does not list)
// asks, and a file a variable names is checked as a file.
func ExampleRequest_env() {
	root := exampleProject()
	defer os.RemoveAll(root)
	g, _ := cmdguard.Open(root)
	for _, env := range [][]string{{"GREETING=hi"}, {"NAME=world"}, {"BASH_ENV=evil.sh"}, {"GIT_GRAFT_FILE=.env"}} {
		d, _ := g.Check(context.Background(), cmdguard.Request{Command: "echo $GREETING $NAME", Cwd: root, Env: env})
		fmt.Printf("%-19s %s\n", env[0], d.Summary())
	}
	// Output:
	// GREETING=hi         allow: 1:1 policy.allow: `echo hi $NAME` matches allow prefix "echo"
	// NAME=world          ask: env.unknown: the request's environment adds NAME: assignment to NAME reaches programs' environment, and the gate does not know what they do with it
	// BASH_ENV=evil.sh    deny: env.code_injection: the request's environment adds BASH_ENV: assignment to BASH_ENV can make programs run other code
	// GIT_GRAFT_FILE=.env deny: ignore.denied: '.env' is ignored by .cmdguardignore:1 (.env)
}

// Start runs a command in the background, as a /v1/bash or ACP adapter
// does; Poll reads both streams and the state in one call.
func ExampleGuard_Start() {
	root := exampleProject()
	defer os.RemoveAll(root)
	g, _ := cmdguard.Open(root)
	defer g.Close(context.Background()) // ends whatever is still running

	ctx := context.Background()
	_, p, err := g.Start(ctx, cmdguard.RunRequest{Request: cmdguard.Request{Command: "printf 'a\\n'; printf 'b\\n' >&2", Cwd: root}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Release()
	var stdout, stderr []byte
	var out, errOut int64
	for {
		r, _ := p.Poll(ctx, out, errOut, 4096) // waits for output or the end
		stdout, stderr = append(stdout, r.Stdout.Data...), append(stderr, r.Stderr.Data...)
		out, errOut = r.Stdout.Next, r.Stderr.Next
		if s := r.ExitStatus(); s != nil {
			fmt.Printf("%q %q exit %d\n", stdout, stderr, *s.ExitCode)
			break
		}
	}
	// Output:
	// "a\n" "b\n" exit 0
}

// A refused command never starts; Kill with a signal that does not end a
// process only delivers it.
func ExampleGuard_Run() {
	root := exampleProject()
	defer os.RemoveAll(root)
	g, _ := cmdguard.Open(root)
	ctx := context.Background()

	d, _, err := g.Run(ctx, cmdguard.RunRequest{Request: cmdguard.Request{Command: "cat .env", Cwd: root}})
	fmt.Println(errors.Is(err, cmdguard.ErrRefused), d.Summary())

	_, p, err := g.Start(ctx, cmdguard.RunRequest{Request: cmdguard.Request{Command: "echo ready; cat", Cwd: root}, StdinPipe: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Release()
	p.WaitOutput(ctx, 1, 0) // "ready"
	r, _ := p.Kill(syscall.SIGWINCH)
	fmt.Println(r.Status)
	p.Write(ctx, []byte("typed\n"))
	p.CloseStdin() // cat ends
	r, _ = p.Wait(ctx)
	fmt.Printf("%s %q\n", r.Status, r.Stdout.String())
	// Output:
	// true deny: 1:5 ignore.denied: '.env' is ignored by .cmdguardignore:1 (.env)
	// running
	// completed "ready\ntyped\n"
}
