package bundle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func manager(t *testing.T, pub string) *Manager {
	t.Helper()
	dir := t.TempDir()
	kp := filepath.Join(dir, "pub.pem")
	os.WriteFile(kp, []byte(pub), 0o644)
	m, err := New(Config{URL: "http://127.0.0.1:1/b.tar.gz", PublicKey: kp, Cache: filepath.Join(dir, "cache")})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

const denyCurl = "package cmdguard\n\ndeny contains \"no curl\" if { input.commands[_].argv[0] == \"curl\" }\n"

// TestActivate: what activate accepts and refuses, with the reason.
func TestActivate(t *testing.T) {
	priv, pub := key(t)
	m := manager(t, pub)
	doc := map[string]any{"cmdguard": map[string]any{"policy": map[string]any{"deny": []any{"git push --force"}}}}
	for _, tc := range []struct {
		name string
		raw  []byte
		want string // "" accepts; else in the refusal
	}{
		{"modules and a policy document", build(t, priv, "r1", doc, map[string]string{"/cmdguard/curl.rego": denyCurl}), ""},
		{"modules only", build(t, priv, "r1", nil, map[string]string{"/cmdguard/curl.rego": denyCurl}), ""},
		{"unsigned", build(t, "", "r1", doc, map[string]string{"/cmdguard/curl.rego": denyCurl}), "missing .signatures.json"},
		{"other data", build(t, priv, "r1", map[string]any{"users": []any{"x"}}, nil), `data has "users"`},
		{"other cmdguard data", build(t, priv, "r1", map[string]any{"cmdguard": map[string]any{"x": 1}}, nil), "cmdguard.x"},
		{"rego in the document", build(t, priv, "r1", map[string]any{"cmdguard": map[string]any{"policy": map[string]any{"rego": []any{"/etc/x.rego"}}}}, nil), "rego:"},
		{"bad policy document", build(t, priv, "r1", map[string]any{"cmdguard": map[string]any{"policy": map[string]any{"deny": []any{""}}}}, nil), "does not compile"},
		{"another package", build(t, priv, "r1", nil, map[string]string{"/x/p.rego": "package other\n\ndeny contains \"x\" if { true }\n"}), "does not compile"},
		{"glob in a module path", build(t, priv, "r1", nil, map[string]string{"/cmdguard/a[1].rego": denyCurl}), "glob"},
		{"not a bundle", []byte("not a tarball"), "refused"},
	} {
		a, err := m.activate(tc.raw)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: refused: %v", tc.name, err)
		case tc.want == "" && (a.Revision != "r1" || a.Policy == nil):
			t.Errorf("%s: active %+v", tc.name, a)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want one with %q", tc.name, err, tc.want)
		}
	}
}

// TestActiveSources: the bundle's rules are named by revision and path.
func TestActiveSources(t *testing.T) {
	priv, pub := key(t)
	m := manager(t, pub)
	doc := map[string]any{"cmdguard": map[string]any{"policy": map[string]any{"deny": []any{"git push --force"}}}}
	a, err := m.activate(build(t, priv, "r7", doc, map[string]string{"/cmdguard/curl.rego": denyCurl}))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range a.Policy.Prefixes() {
		got = append(got, a.Source(p.Source))
	}
	if len(got) != 1 || !strings.HasPrefix(got[0], "bundle r7:/policy.yaml:") {
		t.Errorf("prefix sources %q, want bundle r7:/policy.yaml:N", got)
	}
}

func TestReadConfig(t *testing.T) {
	for _, tc := range []struct {
		yaml string
		want string // "" ok; else in the error
	}{
		{"version: 1\n", ""},
		{"bundle:\n  url: https://p.example/b.tar.gz\n  public_key: k.pem\n  poll: 30s\n", ""},
		{"bundle:\n  url: https://p.example/b.tar.gz\n", "public_key"},
		{"bundle:\n  public_key: k.pem\n", "url"},
		{"bundle:\n  url: ftp://p.example/b\n  public_key: k.pem\n", "url"},
		{"bundle:\n  url: https://p.example/b\n  public_key: k.pem\n  poll: -1s\n", "poll"},
		{"bundle:\n  url: https://p.example/b\n  public_key: k.pem\n  timeout: soon\n", "timeout"},
		{"bundle:\n  url: https://p.example/b\n  public_key: k.pem\n  pol: 1s\n", "field pol not found"},
		{"bundle: https://p.example/b\n", "bundle"},
	} {
		c, err := ReadConfig("/etc/cmdguard/managed.yaml", []byte(tc.yaml))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%q: %v", tc.yaml, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%q: %v, want an error with %q", tc.yaml, err, tc.want)
		case tc.want == "" && c != nil && c.PublicKey != "/etc/cmdguard/k.pem":
			t.Errorf("%q: key %q, want it relative to the managed file", tc.yaml, c.PublicKey)
		}
	}
}
