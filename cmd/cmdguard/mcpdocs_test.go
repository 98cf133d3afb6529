package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// mcpDocProject is the project docs/mcp.md's session pretends to run in.
const mcpDocProject = "/p"

// markedBlocks returns the code blocks of a Markdown file that follow a
// "<!-- mcp-session: NAME -->" line, by NAME.
func markedBlocks(t *testing.T, path string) map[string]block {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	marks := map[int]string{} // line of the fence → name
	for i, l := range lines {
		if name, ok := strings.CutPrefix(strings.TrimSpace(l), "<!-- mcp-session: "); ok && i+1 < len(lines) {
			marks[i+2] = strings.TrimSuffix(name, " -->")
		}
	}
	out := map[string]block{}
	for _, b := range codeBlocks(t, path) {
		if name, ok := marks[b.line]; ok {
			out[name] = b
		}
	}
	if len(out) != len(marks) {
		t.Fatalf("%s: %d mcp-session marks, %d of them right above a code block", path, len(marks), len(out))
	}
	return out
}

// TestDocsMCP runs the stdio session of docs/mcp.md ("A session by hand")
// against the real `cmdguard mcp` in a project made as the doc says, and
// compares every answer with the doc's, by id. "…" in the doc stands for
// any value; duration_ms may differ. It also checks the doc's Results
// example (the structuredContent of call 2) and its Refusals text (the
// text of call 3) against the same answers, and that an allowed call's
// text content is its structuredContent as JSON.
func TestDocsMCP(t *testing.T) {
	t.Parallel()
	const doc = "../../docs/mcp.md"
	blocks := markedBlocks(t, doc)
	for _, name := range []string{"policy", "requests", "responses", "structuredContent of id 2", "text of id 3"} {
		if _, ok := blocks[name]; !ok {
			t.Fatalf("%s: no block marked %q", doc, name)
		}
	}
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{".cmdguard.yaml": blocks["policy"].text, ".env": "KEY=secret\n", "hello.txt": "hi\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}

	// Every request line, then wait for one answer per request with an id.
	requests := strings.Split(strings.TrimSpace(blocks["requests"].text), "\n")
	wantIDs := 0
	for i, l := range requests {
		var m map[string]any
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%s:%d: request %d is not JSON: %v", doc, blocks["requests"].line, i+1, err)
		}
		if _, ok := m["id"]; ok {
			wantIDs++
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := osexec.CommandContext(ctx, cmdguardBin(t), "mcp")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+filepath.Join(dir, ".home"))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	io.WriteString(stdin, strings.Join(requests, "\n")+"\n")
	got := map[string]any{} // by id
	sc := bufio.NewScanner(stdout)
	sc.Buffer(nil, 1<<20)
	for len(got) < wantIDs && sc.Scan() {
		line := strings.ReplaceAll(sc.Text(), dir, mcpDocProject)
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("cmdguard mcp wrote a line that is not JSON: %v\n%s", err, line)
		}
		got[fmt.Sprint(m["id"])] = m
	}
	if len(got) < wantIDs {
		t.Fatalf("cmdguard mcp answered %d of %d requests (%v); stderr:\n%s", len(got), wantIDs, sc.Err(), stderr.String())
	}
	stdin.Close()

	// The text content of each call, and its structuredContent.
	text := func(id string) string {
		res, _ := got[id].(map[string]any)["result"].(map[string]any)
		content, _ := res["content"].([]any)
		if len(content) != 1 {
			t.Fatalf("answer %s: want one content item: %v", id, res)
		}
		s, _ := content[0].(map[string]any)["text"].(string)
		return s
	}
	structured := func(id string) any {
		res, _ := got[id].(map[string]any)["result"].(map[string]any)
		return res["structuredContent"]
	}

	responses := strings.Split(strings.TrimSpace(blocks["responses"].text), "\n")
	if len(responses) != wantIDs {
		t.Errorf("%s: %d responses for %d requests with an id", doc, len(responses), wantIDs)
	}
	for i, l := range responses {
		var want map[string]any
		if err := json.Unmarshal([]byte(l), &want); err != nil {
			t.Fatalf("%s:%d: response %d is not JSON: %v", doc, blocks["responses"].line, i+1, err)
		}
		id := fmt.Sprint(want["id"])
		g, ok := got[id]
		if !ok {
			t.Errorf("%s: response with id %s: cmdguard mcp sent none", doc, id)
			continue
		}
		if diff := cmp.Diff(want, docMatch(want, g)); diff != "" {
			t.Errorf("%s:%d: answer %s mismatch (-doc +cmdguard mcp):\n%s", doc, blocks["responses"].line, id, diff)
		}
	}

	// The Results example is call 2's structuredContent; an allowed
	// call's text is the same object as JSON.
	var want any
	b := blocks["structuredContent of id 2"]
	if err := json.Unmarshal([]byte(b.text), &want); err != nil {
		t.Fatalf("%s:%d: %v", doc, b.line, err)
	}
	if diff := cmp.Diff(want, docMatch(want, structured("2"))); diff != "" {
		t.Errorf("%s:%d: the Results example is not what run_command returned (-doc +cmdguard mcp):\n%s", doc, b.line, diff)
	}
	var fromText any
	if err := json.Unmarshal([]byte(text("2")), &fromText); err != nil || !cmp.Equal(fromText, structured("2")) {
		t.Errorf("call 2's text content is not its structuredContent as JSON (%v):\n%s", err, text("2"))
	}
	// The Refusals text is call 3's.
	b = blocks["text of id 3"]
	if diff := cmp.Diff(strings.TrimSuffix(b.text, "\n"), text("3")); diff != "" {
		t.Errorf("%s:%d: the refusal text is not what run_command returned (-doc +cmdguard mcp):\n%s", doc, b.line, diff)
	}
}

// docMatch returns got with every value the doc leaves open taken from
// want: where want holds "…", and a duration_ms that is a number in both.
func docMatch(want, got any) any {
	if want == "…" {
		return want
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return got
		}
		out := make(map[string]any, len(g))
		for k, v := range g {
			out[k] = v
			wv, ok := w[k]
			switch {
			case !ok:
			case k == "duration_ms" && isNumber(wv) && isNumber(v):
				out[k] = wv
			default:
				out[k] = docMatch(wv, v)
			}
		}
		return out
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return got
		}
		out := make([]any, len(g))
		for i := range g {
			out[i] = docMatch(w[i], g[i])
		}
		return out
	}
	return got
}

func isNumber(v any) bool {
	_, ok := v.(float64)
	if s, isStr := v.(json.Number); isStr {
		_, err := strconv.ParseFloat(string(s), 64)
		ok = err == nil
	}
	return ok
}
