package exec_test

import (
	"context"
	"encoding/json"
	"fmt"
	"syscall"

	"github.com/cmdguard/cmdguard/exec"
)

func ExampleRun() {
	r, err := exec.Run(context.Background(), exec.Cmd{
		Command: `echo "hello, $NAME"; echo oops >&2; exit 3`,
		Env:     []string{"NAME=world"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%s %s", r.Stdout.Data, r.Stderr.Data)
	fmt.Println(r.Status, *r.ExitCode, r.Explain())
	// Output:
	// hello, world
	//  oops
	// completed 3 exit code 3
}

func ExampleRun_signal() {
	r, _ := exec.Run(context.Background(), exec.Cmd{Command: "kill -SEGV $$"})
	fmt.Println(r.ExitCode == nil, r.Signal, r.ShellCode())
	// Output:
	// true SIGSEGV 139
}

func ExampleRun_combined() {
	r, _ := exec.Run(context.Background(), exec.Cmd{
		Command:  "echo one; echo two >&2; echo three",
		Combined: true,
	})
	fmt.Printf("%s", r.Stdout.Data)
	// Output:
	// one
	// two
	// three
}

func ExampleProcess_Write() {
	p, err := exec.Start(context.Background(), exec.Cmd{Command: "tr a-z A-Z", StdinPipe: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Release()
	p.Write(context.Background(), []byte("shout\n"))
	p.CloseStdin()
	r, _ := p.Wait(context.Background())
	fmt.Printf("%s%s\n", r.Stdout.Data, r.Status)
	// Output:
	// SHOUT
	// completed
}

func ExampleProcess_Kill() {
	p, err := exec.Start(context.Background(), exec.Cmd{Command: "echo ready; exec sleep 300"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Release()
	c := p.WaitOutput(context.Background(), exec.Stdout, 0)
	fmt.Printf("%s", c.Data)
	r, _ := p.Kill(syscall.SIGTERM)
	fmt.Println(r.Explain())
	// Output:
	// ready
	// killed: ended by SIGTERM (signal 15, shell code 143)
}

func ExampleBuffer() {
	// The 9 newest bytes begin inside "ï", which is left out whole.
	b := exec.NewBuffer(9)
	b.Write([]byte("naïve café"))
	c := b.Since(0)
	fmt.Printf("%q offset=%d next=%d lost=%d truncated=%v\n", c.Data, c.Offset, c.Next, c.Lost, c.Truncated)
	b.Write([]byte("!"))
	c = b.Since(c.Next)
	fmt.Printf("%q offset=%d next=%d\n", c.Data, c.Offset, c.Next)
	// Output:
	// "ve café" offset=4 next=12 lost=4 truncated=true
	// "!" offset=12 next=13
}

func ExampleStripANSI() {
	fmt.Println(exec.StripANSI("\x1b[1;32mok\x1b[0m 3 tests"))
	// Output:
	// ok 3 tests
}

func ExampleCollapseCR() {
	fmt.Printf("%q\n", exec.CollapseCR("downloading 10%\rdownloading 99%\rdownloading 100%\ndone\n"))
	// Output:
	// "downloading 100%\ndone\n"
}

func ExampleProcess_Poll() {
	ctx := context.Background()
	p, err := exec.Start(ctx, exec.Cmd{Command: "echo one; sleep 0.1; echo two >&2"})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Release()
	var stdout, stderr []byte
	var so, eo int64
	for {
		// Waits for output on either stream, or the end; a final status
		// always comes with all the output.
		r, _ := p.Poll(ctx, so, eo, 0)
		stdout, stderr = append(stdout, r.Stdout.Data...), append(stderr, r.Stderr.Data...)
		so, eo = r.Stdout.Next, r.Stderr.Next
		if r.Status != exec.StatusRunning {
			fmt.Printf("%s %q %q\n", r.Status, stdout, stderr)
			return
		}
	}
	// Output:
	// completed "one\n" "two\n"
}

func ExampleChunk_Clip() {
	c := exec.Chunk{Data: []byte("añb"), Next: 4}
	for _, n := range []int{1, 2, 3} {
		fmt.Printf("%q ", c.Clip(n).Data)
	}
	fmt.Println()
	// Output:
	// "a" "a" "añ"
}

func ExampleResult_ExitStatus() {
	r, _ := exec.Run(context.Background(), exec.Cmd{Command: "kill -TERM $$"})
	b, _ := json.Marshal(r.ExitStatus())
	fmt.Println(string(b))
	// Output:
	// {"exitCode":null,"signal":"SIGTERM"}
}
