package hook_test

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard/adapter/hook"
)

// BenchmarkRun: one hook call in process — parse, open the project's
// Guard, check, answer — as each `cmdguard hook` process does once.
func BenchmarkRun(b *testing.B) {
	root := project(b, testPolicy)
	for _, c := range []struct{ name, cmd string }{{"allow", "git status"}, {"deny", "cat .env"}} {
		in := fill(inputs["claude"], root, c.cmd)
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			var out bytes.Buffer
			for b.Loop() {
				out.Reset()
				if code := hook.Run(context.Background(), hook.Options{Agent: hook.Claude}, strings.NewReader(in), &out, io.Discard); code != 0 {
					b.Fatalf("exit %d: %s", code, out.String())
				}
			}
		})
	}
}

// BenchmarkRunSandbox: the same call for `go test ./...` under the
// embedded default, answered plainly (ask; Codex's deny) and with
// Sandbox (the allow that rewrites the command), per agent.
func BenchmarkRunSandbox(b *testing.B) {
	root := project(b, testPolicy)
	if err := os.Remove(filepath.Join(root, ".cmdguard.yaml")); err != nil {
		b.Fatal(err)
	}
	for _, agent := range []string{"claude", "codex", "gemini"} {
		in := fill(inputs[agent], root, "go test ./...")
		for _, sandbox := range []bool{false, true} {
			name := agent + "/plain"
			if sandbox {
				name = agent + "/sandbox"
			}
			b.Run(name, func(b *testing.B) {
				b.ReportAllocs()
				var out bytes.Buffer
				opts := hook.Options{Agent: hook.Agent(agent), Dir: root, Sandbox: sandbox, Bin: "/usr/local/bin/cmdguard"}
				for b.Loop() {
					out.Reset()
					if code := hook.Run(context.Background(), opts, strings.NewReader(in), &out, io.Discard); code != 0 {
						b.Fatalf("exit %d: %s", code, out.String())
					}
				}
				if sandbox != strings.Contains(out.String(), "run --sandbox --cwd") {
					b.Fatalf("sandbox %v: %s", sandbox, out.String())
				}
			})
		}
	}
}
