package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// mdLink is a Markdown inline link or image: [text](target) or
// [text](target "title").
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)

// TestDocLinks: every relative link in the README and docs/ resolves to a
// file or directory inside the repository (issue 30: a link to a research
// file that is not in the repo).
func TestDocLinks(t *testing.T) {
	t.Parallel()
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, file := range docFiles {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		inFence := false
		for n, line := range strings.Split(string(data), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "```") {
				inFence = !inFence
			}
			if inFence {
				continue
			}
			for _, m := range mdLink.FindAllStringSubmatch(line, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") || strings.HasPrefix(target, "#") {
					continue
				}
				target, _, _ = strings.Cut(target, "#")
				p := filepath.Join(filepath.Dir(file), target)
				abs, err := filepath.Abs(p)
				if err != nil {
					t.Fatal(err)
				}
				rel, err := filepath.Rel(repo, abs)
				if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
					t.Errorf("%s:%d: link %q leaves the repository", file, n+1, m[1])
					continue
				}
				if _, err := os.Stat(abs); err != nil {
					t.Errorf("%s:%d: link %q does not resolve: %v", file, n+1, m[1], err)
				}
				checked++
			}
		}
	}
	if checked < 10 {
		t.Errorf("only %d relative links checked: the link pattern is broken", checked)
	}
}

// TestDocJSON: every ```json block in the README and docs/ is JSON (one
// value, or one value per line for JSON-lines examples).
func TestDocJSON(t *testing.T) {
	t.Parallel()
	n := 0
	for _, file := range docFiles {
		for _, b := range codeBlocks(t, file) {
			if b.lang != "json" && b.lang != "jsonl" {
				continue
			}
			n++
			if json.Valid([]byte(b.text)) {
				continue
			}
			for i, line := range strings.Split(strings.TrimSpace(b.text), "\n") {
				if !json.Valid([]byte(line)) {
					t.Errorf("%s:%d: the json block is not JSON (line %d: %.80s)", file, b.line, i+1, line)
					break
				}
			}
		}
	}
	if n == 0 {
		t.Error("no json blocks found: the block reader is broken")
	}
}
