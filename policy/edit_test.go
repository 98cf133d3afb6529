package policy_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/rogpeppe/go-internal/txtar"

	"github.com/cmdguard/cmdguard/policy"
)

var update = flag.Bool("update", false, "rewrite the golden files of TestAppendAllowGolden")

// TestAppendAllowGolden runs AppendAllow (the CLI's "always" answer) on
// each testdata/edit/*.txtar: in.yaml with prefix (tokens split on
// white space, or on "|" when one holds a space) must become want.yaml,
// and the edit must be a pure insertion — every byte of in.yaml kept, in
// order — except where the file said "allow: ~". The new prefix must
// then allow its command.
func TestAppendAllowGolden(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob("testdata/edit/*.txtar")
	if len(files) < 10 {
		t.Fatalf("found %d golden files, want at least 10", len(files))
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			get := func(name string) []byte {
				for _, f := range ar.Files {
					if f.Name == name {
						return f.Data
					}
				}
				t.Fatalf("%s: no %s", file, name)
				return nil
			}
			line := strings.TrimSpace(string(get("prefix")))
			prefix := strings.Fields(line)
			if strings.Contains(line, "|") {
				prefix = strings.Split(line, "|")
			}
			in := get("in.yaml")
			path := filepath.Join(t.TempDir(), policy.FileName)
			writeFile(t, path, string(in))
			if err := policy.AppendAllow(path, prefix); err != nil {
				t.Fatalf("AppendAllow(%q): %v", prefix, err)
			}
			got, _ := os.ReadFile(path)
			if *update {
				for i := range ar.Files {
					if ar.Files[i].Name == "want.yaml" {
						ar.Files[i].Data = got
					}
				}
				if err := os.WriteFile(file, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if diff := cmp.Diff(string(get("want.yaml")), string(got)); diff != "" {
				t.Errorf("AppendAllow(%q) mismatch (-want +got):\n%s", prefix, diff)
			}
			if !strings.Contains(file, "tilde") && !isInsertion(in, got) {
				t.Errorf("AppendAllow(%q) changed bytes of the file, not only inserted:\n%s", prefix, got)
			}
			c := cmd(append(prefix, "x")...)
			if d := mustLoad(t, path).Evaluate(context.Background(), input(c)); d.Verdict != policy.Allow {
				t.Errorf("after AppendAllow(%q): %v %v, want allow", prefix, d.Verdict, d.Reasons)
			}
		})
	}
}

// isInsertion reports whether out is in with one run of bytes inserted.
func isInsertion(in, out []byte) bool {
	n := 0
	for n < len(in) && n < len(out) && in[n] == out[n] {
		n++
	}
	return len(out) > len(in) && bytes.HasSuffix(out, in[n:])
}

// TestAppendAllowNoFinalNewline: a file without a final line break gets
// one before the new key, and nothing else changes.
func TestAppendAllowNoFinalNewline(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), policy.FileName)
	writeFile(t, path, "version: 1\ndeny: [rm -rf]")
	if err := policy.AppendAllow(path, []string{"ls"}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(path)
	if want := "version: 1\ndeny: [rm -rf]\nallow: [ls]\n"; string(got) != want {
		t.Errorf("AppendAllow: got %q, want %q", got, want)
	}
}

// TestAppendAllowHostileTokens appends prefixes whose tokens try to break
// out of the list item (line breaks, quotes, brackets, comments, YAML
// indicators, invalid UTF-8) to files of every list shape. Each append
// must either fail and leave the file alone, or add exactly that allow
// prefix — the tokens byte for byte — and nothing else: the default and
// the other lists stay as they were.
func TestAppendAllowHostileTokens(t *testing.T) {
	t.Parallel()
	shapes := map[string]string{
		"block": "version: 1\ndefault: ask\nallow:\n  - ls\ndeny: [rm -rf]\n",
		"flow":  "version: 1\ndefault: ask\nallow: [ls]  # c\ndeny: [rm -rf]\n",
		"empty": "version: 1\ndefault: ask\nallow: []\ndeny: [rm -rf]\n",
		"null":  "version: 1\ndefault: ask\nallow:\ndeny: [rm -rf]\n",
		"none":  "version: 1\ndefault: ask\ndeny: [rm -rf]\n",
	}
	tokens := []string{
		"a\ndefault: allow", "x\n- '*'", "]", "a]\ndefault: allow\n#", "[", "{", "}", "#x", "x #y", "'", `"`,
		`", "*`, "- z", "*", "&a", "*a", "!tag", "!!str", "{a: b}", "?", "|", ">", "%", "@", "`", ":", "a: b",
		"\u2028", "\x85", "\r", "\t", "\xff\xfe", "\\", "\\n", "null", "~", "true", "0x10", "-", "--", "a,b", "a, b",
		"\x00", "é", "  lead", "trail  ", "",
	}
	for name, src := range shapes {
		for _, tok := range tokens {
			prefix := []string{"echo", tok}
			path := filepath.Join(t.TempDir(), policy.FileName)
			writeFile(t, path, src)
			err := policy.AppendAllow(path, prefix)
			got, _ := os.ReadFile(path)
			if tok == "*" && err == nil {
				t.Errorf("%s: AppendAllow(%q) = nil: a literal * became the wildcard:\n%s", name, prefix, got)
			}
			if err != nil {
				if string(got) != src {
					t.Errorf("%s: AppendAllow(%q) failed (%v) but changed the file:\n%s", name, prefix, err, got)
				}
				continue
			}
			p, perr := policy.Parse(path, got, filepath.Dir(path))
			if perr != nil {
				t.Errorf("%s: AppendAllow(%q) wrote an invalid policy: %v\n%s", name, prefix, perr, got)
				continue
			}
			var allow, other []string
			for _, pr := range p.Prefixes() {
				if pr.Verdict == policy.Allow {
					allow = append(allow, strings.Join(pr.Tokens, "\x00"))
				} else {
					other = append(other, pr.Verdict.String()+":"+strings.Join(pr.Tokens, "\x00"))
				}
			}
			want := []string{strings.Join(prefix, "\x00")}
			if name != "null" && name != "none" && name != "empty" {
				want = append([]string{"ls"}, want...)
			}
			if diff := cmp.Diff(want, allow); diff != "" {
				t.Errorf("%s: AppendAllow(%q) allow list mismatch (-want +got):\n%s\n%s", name, prefix, diff, got)
			}
			if v, _ := p.DefaultVerdict(); v != policy.Ask || !cmp.Equal(other, []string{"deny:rm\x00-rf"}) {
				t.Errorf("%s: AppendAllow(%q) changed more than allow: default %v, others %q\n%s", name, prefix, v, other, got)
			}
		}
	}
}
