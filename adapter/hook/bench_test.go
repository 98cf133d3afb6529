package hook_test

import (
	"bytes"
	"context"
	"io"
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
