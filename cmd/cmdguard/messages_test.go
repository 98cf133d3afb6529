package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLongWordCut checks that a 1 MB word is not echoed in full in the
// reasons' messages (text and JSON): it is cut, with its length. The
// command itself (commands[].argv in JSON) keeps every byte.
func TestLongWordCut(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ".cmdguard.yaml"), []byte("version: 1\nallow: [cat]\nignore: [.env]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	word := strings.Repeat("a", 1_000_000)
	for _, src := range []string{"cat " + word, word, "cat x > " + word} {
		out, code := cmdguardIn(t, dir, src, "check", "--format", "json", "-")
		if code == exitError {
			t.Fatalf("check: exit %d: %.300s", code, out)
		}
		var d struct {
			Reasons  []struct{ Message string }
			Commands []struct{ Argv []string }
		}
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatalf("check --format json: %v", err)
		}
		for _, r := range d.Reasons {
			if len(r.Message) > 2000 {
				t.Errorf("check %.20q…: a reason's message is %d bytes: %.200s", src, len(r.Message), r.Message)
			}
			if strings.Contains(r.Message, strings.Repeat("a", 300)) && !strings.Contains(r.Message, " bytes]") {
				t.Errorf("check %.20q…: message cut without the count: %.200s", src, r.Message)
			}
		}
		if !strings.Contains(out, `"`+word+`"`) {
			t.Errorf("check %.20q…: commands lost the word", src)
		}
	}
	text, _ := cmdguardIn(t, dir, "cat "+word, "check", "-")
	for _, l := range strings.Split(text, "\n") {
		if len(l) > 2000 {
			t.Errorf("check 'cat aaa…': a line of %d bytes: %.200s", len(l), l)
		}
	}
}
