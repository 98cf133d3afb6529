package bashapi_test

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/adapter/bashapi"
)

// TestDocRefusal: docs/serve.md's example of a refused command is what the
// server answers (issue 30: the doc showed a field value the server does
// not return). Strings with "…" in the doc stand for any text there.
func TestDocRefusal(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../../docs/serve.md")
	if err != nil {
		t.Fatal(err)
	}
	var example string
	for _, block := range strings.Split(string(doc), "```json\n")[1:] {
		block, _, _ = strings.Cut(block, "```")
		if strings.Contains(block, `"status": "refused"`) {
			example = block
			break
		}
	}
	if example == "" {
		t.Fatal("docs/serve.md has no refused example")
	}
	dir := t.TempDir()
	for name, body := range map[string]string{".cmdguard.yaml": "version: 1\ndefault: ask\nallow: [cat]\nignore: [.env]\n", ".env": "S=1\n"} {
		if err := os.WriteFile(dir+"/"+name, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g, err := cmdguard.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	api, err := bashapi.New(bashapi.Config{Guard: g, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	s := &testServer{t: t, dir: dir, api: api, h: api}
	_, got := s.do("POST", "/v1/bash/exec", map[string]any{"command": "cat .env"})
	var want any
	if err := json.Unmarshal([]byte(strings.ReplaceAll(example, "/home/dev/app", dir)), &want); err != nil {
		t.Fatalf("the doc's example is not JSON: %v", err)
	}
	for _, d := range docDiff("", want, any(got)) {
		t.Error(d)
	}
}

var (
	docID    = regexp.MustCompile(`^[0-9a-f]{8}-…$`)
	uuidLike = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)
)

// docDiff compares a documented JSON value with the server's: the same
// keys, the same values, a doc string with "…" matching any text there.
func docDiff(at string, want, got any) []string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s: got %v, the doc shows an object", at, got)}
		}
		var out []string
		for k := range w {
			if _, ok := g[k]; !ok {
				out = append(out, fmt.Sprintf("%s.%s: in the doc, not in the answer", at, k))
			}
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				out = append(out, fmt.Sprintf("%s.%s: in the answer (%v), not in the doc", at, k, g[k]))
				continue
			}
			out = append(out, docDiff(at+"."+k, w[k], g[k])...)
		}
		return out
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return []string{fmt.Sprintf("%s: got %v, the doc shows %v", at, got, w)}
		}
		var out []string
		for i := range w {
			out = append(out, docDiff(fmt.Sprintf("%s[%d]", at, i), w[i], g[i])...)
		}
		return out
	case string:
		g, ok := got.(string)
		if docID.MatchString(w) && uuidLike.MatchString(g) {
			return nil // an id, abbreviated in the doc
		}
		pat := "^" + strings.ReplaceAll(regexp.QuoteMeta(w), "…", ".*") + "$"
		if !ok || !regexp.MustCompile("(?s)"+pat).MatchString(g) {
			return []string{fmt.Sprintf("%s: got %q, the doc shows %q", at, got, w)}
		}
		return nil
	}
	if fmt.Sprint(want) != fmt.Sprint(got) {
		return []string{fmt.Sprintf("%s: got %v, the doc shows %v", at, got, want)}
	}
	return nil
}
