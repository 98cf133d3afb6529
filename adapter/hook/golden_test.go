package hook_test

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard/adapter/hook"
)

var update = flag.Bool("update", false, "rewrite testdata/fixtures/*.golden")

// TestFixtures runs the recorded inputs in testdata/fixtures — Claude
// Code 2.1.330, Codex 0.169.0 and Gemini CLI 0.61.0 as they sent them
// here, Cursor and Cline from their documented schemas — through the hook
// of the agent named by the file's prefix, and compares the exit code and
// stdout with NAME.golden ($ROOT stands for the project). The JSON is the
// contract; go test -update rewrites the goldens after a deliberate change.
func TestFixtures(t *testing.T) {
	t.Parallel()
	root := project(t, testPolicy)
	files, err := filepath.Glob("testdata/fixtures/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			in, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			agent, _, _ := strings.Cut(name, "-")
			in = bytes.ReplaceAll(in, []byte("$ROOT"), []byte(root))
			var out, errb bytes.Buffer
			code := hook.Run(context.Background(), hook.Options{Agent: hook.Agent(agent), Env: []string{"HOME=/nonexistent"}}, bytes.NewReader(in), &out, &errb)
			got := fmt.Sprintf("exit %d\n%s", code, strings.ReplaceAll(out.String(), root, "$ROOT"))
			golden := strings.TrimSuffix(file, ".json") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("hook --agent %s < %s mismatch:\n--- want\n%s--- got\n%s", agent, file, want, got)
			}
		})
	}
}
