package cmdguard_test

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cmdguard/cmdguard"
)

// needOPA returns the opa CLI built from the OPA module version in
// go.mod: $CMDGUARD_OPA (.ci/run builds it there), else opa on PATH. It
// skips with a reason without one, and fails under CI.
func needOPA(t *testing.T) string {
	t.Helper()
	p := os.Getenv("CMDGUARD_OPA")
	if p == "" {
		var err error
		if p, err = exec.LookPath("opa"); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatal("needs the opa CLI, and CI is set: .ci/run builds it and sets CMDGUARD_OPA")
			}
			t.Skip("needs the opa CLI: set CMDGUARD_OPA to one built with `go install github.com/open-policy-agent/opa@VERSION` (the version in go.mod), as .ci/run does")
		}
	}
	out, err := exec.Command(p, "version").Output()
	if err != nil {
		t.Fatalf("%s version: %v", p, err)
	}
	have := strings.TrimSpace(strings.TrimPrefix(strings.SplitN(string(out), "\n", 2)[0], "Version:"))
	want := ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, d := range bi.Deps {
			if d.Path == "github.com/open-policy-agent/opa" {
				want = strings.TrimPrefix(d.Version, "v")
			}
		}
	}
	if want != "" && have != want {
		msg := fmt.Sprintf("%s is opa %s; go.mod has %s: build that one (as .ci/run does)", p, have, want)
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	t.Logf("opa %s (%s)", have, p)
	return p
}

// rsaKeys writes an RSA key pair into dir as name.pem (private) and
// name.pub.pem (public) and returns their paths.
func rsaKeys(t *testing.T, dir, name string) (priv, pub string) {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	pubDER, err := x509.MarshalPKIXPublicKey(&k.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	priv, pub = filepath.Join(dir, name+".pem"), filepath.Join(dir, name+".pub.pem")
	os.WriteFile(priv, pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)}), 0o600)
	os.WriteFile(pub, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pubDER}), 0o644)
	return priv, pub
}

// opaBuild writes files into a fresh bundle directory and runs opa build
// on it with args (the signing flags); it returns the bundle's bytes.
func opaBuild(t *testing.T, opa string, files map[string]string, args ...string) []byte {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	for name, text := range files {
		p := filepath.Join(src, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "bundle.tar.gz")
	cmd := exec.Command(opa, append([]string{"build", "--bundle", src, "-o", out}, args...)...)
	cmd.Dir = src
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("opa build %v: %v\n%s", args, err, b)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// retar rewrites the files of a bundle with edit (which returns the new
// content, or nil to leave a file out).
func retar(t *testing.T, raw []byte, edit func(name string, data []byte) []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		data, _ := io.ReadAll(tr)
		data = edit(h.Name, data)
		if data == nil {
			continue
		}
		h.Size = int64(len(data))
		tw.WriteHeader(h)
		tw.Write(data)
	}
	tw.Close()
	zw.Close()
	return buf.Bytes()
}

// bundleServer is an HTTP file server for one bundle, with an ETag, that
// can be taken down (every request fails with 503).
type bundleServer struct {
	mu       sync.Mutex
	body     []byte
	down     bool
	requests int
	notMod   int
}

func (s *bundleServer) set(b []byte) { s.mu.Lock(); s.body, s.down = b, false; s.mu.Unlock() }
func (s *bundleServer) setDown()     { s.mu.Lock(); s.down = true; s.mu.Unlock() }

func (s *bundleServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	body, down := s.body, s.down
	s.requests++
	s.mu.Unlock()
	if down || body == nil {
		http.Error(w, "down", http.StatusServiceUnavailable)
		return
	}
	h := sha256.Sum256(body)
	etag := `"` + hex.EncodeToString(h[:8]) + `"`
	if r.Header.Get("If-None-Match") == etag {
		s.mu.Lock()
		s.notMod++
		s.mu.Unlock()
	}
	w.Header().Set("ETag", etag)
	http.ServeContent(w, r, "bundle.tar.gz", time.Time{}, bytes.NewReader(body))
}

// bundlePolicy is the project policy of the bundle tests: it allows
// what the bundle and the floor must stop.
const bundlePolicy = `version: 1
default: ask
allow: [git, curl, find, wipefs, echo]
`

// bundleRevision returns the files of a bundle revision: a Rego module
// that denies curl (the revision in its message), and a policy document
// in data.cmdguard.policy that denies the prefixes in deny.
func bundleRevision(rev string, deny ...string) map[string]string {
	doc := "deny:\n"
	for _, d := range deny {
		doc += "  - " + d + "\n"
	}
	return map[string]string{
		".manifest": fmt.Sprintf(`{"revision": %q, "roots": ["cmdguard"]}`, rev),
		"cmdguard/curl.rego": `package cmdguard

deny contains {"msg": "curl is not allowed on this fleet (` + rev + `)"} if {
	some c in input.commands
	c.argv[0] == "curl"
}
`,
		"cmdguard/policy/data.yaml": doc,
	}
}

// TestManagedBundle: a managed file names a signed bundle served over
// HTTP on 127.0.0.1, built and signed by the real opa CLI. A fresh
// machine with the server unreachable gets the floor; the first bundle
// then applies over the project's allow; a second revision replaces it;
// the server going down keeps it (in this Guard, and in a new one that
// reads it back from disk); tampered bundles — another key, a changed
// file, another key id, no .signatures.json — are refused with their
// reason, the good one staying active; a kept bundle changed on disk is
// refused on reading and the floor applies again.
func TestManagedBundle(t *testing.T) {
	opa := needOPA(t)
	keys := t.TempDir()
	priv, pub := rsaKeys(t, keys, "fleet")
	otherPriv, _ := rsaKeys(t, keys, "other")
	sign := []string{"--signing-key", priv}
	r1 := opaBuild(t, opa, bundleRevision("r1", "git push --force"), sign...)
	r2 := opaBuild(t, opa, bundleRevision("r2", "git push --force", "find . -delete"), sign...)
	r3files := bundleRevision("r3", "git push --force", "find . -delete", "git status")
	tampered := map[string]struct {
		raw  []byte
		want string // in the refusal
	}{
		"another key": {opaBuild(t, opa, r3files, "--signing-key", otherPriv), "verif"},
		"changed file": {retar(t, opaBuild(t, opa, r3files, sign...), func(name string, data []byte) []byte {
			if strings.HasSuffix(name, "curl.rego") {
				return bytes.ReplaceAll(data, []byte(`"curl"`), []byte(`"nothing"`))
			}
			return data
		}), "digest mismatch"},
		"another key id":     {opaBuild(t, opa, r3files, "--signing-key", priv, "--verification-key-id", "other"), "other"},
		"no signatures file": {opaBuild(t, opa, r3files), "missing .signatures.json"},
		"signatures file removed": {retar(t, opaBuild(t, opa, r3files, sign...), func(name string, data []byte) []byte {
			if strings.HasSuffix(name, ".signatures.json") {
				return nil
			}
			return data
		}), "missing .signatures.json"},
	}

	t.Setenv("XDG_STATE_HOME", t.TempDir())
	srv := &bundleServer{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewUnstartedServer(srv)
	hs.Listener.Close()
	hs.Listener = ln
	hs.Start()
	defer hs.Close()
	// poll: 1ns makes every check a poll (with If-None-Match).
	managedFile(t, fmt.Sprintf("version: 1\nbundle:\n  url: %s/bundles/cmdguard.tar.gz\n  public_key: %s\n  poll: 1ns\n", hs.URL, pub))
	root := project(t, bundlePolicy)
	open := func() *cmdguard.Guard {
		g, err := cmdguard.Open(root)
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	type want struct {
		cmd     string
		verdict cmdguard.Verdict
		source  string // in the deciding reason's source
	}
	expect := func(step string, g *cmdguard.Guard, ws ...want) {
		t.Helper()
		for _, w := range ws {
			d := checkIn(t, g, w.cmd)
			if d.Verdict != w.verdict || len(d.Reasons) == 0 || !strings.Contains(d.Reasons[0].Source, w.source) {
				t.Errorf("%s: %q: %s, reasons %+v; want %s by a reason from %q", step, w.cmd, d.Verdict, d.Reasons, w.verdict, w.source)
			}
		}
	}
	revision := func(g *cmdguard.Guard) string {
		m := g.Managed()
		if m.Bundle == nil {
			t.Fatalf("Managed().Bundle is nil: %+v", m)
		}
		return m.Bundle.Revision
	}

	// A fresh machine, the server down: the floor.
	srv.setDown()
	g := open()
	expect("floor", g,
		want{"git status", cmdguard.Ask, cmdguard.FloorSource},
		want{"wipefs -a /dev/sda", cmdguard.Deny, cmdguard.FloorSource},
		want{"curl https://example.com", cmdguard.Ask, cmdguard.FloorSource},
	)
	if rev, st := revision(g), g.Managed().Bundle; rev != "" || !strings.Contains(st.LastError, "503") {
		t.Errorf("floor: status %+v; want no revision and the 503", st)
	}

	// The first bundle arrives: it applies over the project's allow.
	srv.set(r1)
	expect("r1", g,
		want{"curl https://example.com", cmdguard.Deny, "bundle r1:/"},
		want{"git push --force origin main", cmdguard.Deny, "bundle r1:/policy.yaml"},
		want{"git status", cmdguard.Allow, root},
		want{"find . -delete", cmdguard.Ask, "builtin"}, // dangerous_option, as the project rates it
	)
	if d := checkIn(t, g, "curl x"); d.Layer != cmdguard.LayerManaged || !strings.Contains(d.Reasons[0].Message, "(r1)") {
		t.Errorf("r1: curl decided by layer %q, %+v", d.Layer, d.Reasons[0])
	}
	srv.mu.Lock()
	notMod := srv.notMod
	srv.mu.Unlock()
	if notMod == 0 {
		t.Errorf("no request carried the ETag of the active bundle (If-None-Match)")
	}

	// A second revision.
	srv.set(r2)
	expect("r2", g, want{"find . -delete", cmdguard.Deny, "bundle r2:/policy.yaml"})
	if rev := revision(g); rev != "r2" {
		t.Errorf("r2: active revision %q", rev)
	}

	// The server goes down: r2 stays, here and in a Guard that reads it
	// back from disk.
	srv.setDown()
	expect("down", g, want{"find . -delete", cmdguard.Deny, "bundle r2:"}, want{"git status", cmdguard.Allow, root})
	g2 := open()
	expect("down, new guard", g2, want{"find . -delete", cmdguard.Deny, "bundle r2:"}, want{"curl x", cmdguard.Deny, "bundle r2:"})
	if st := g2.Managed().Bundle; st.Revision != "r2" || st.LastError == "" {
		t.Errorf("down: status %+v; want r2 with the fetch error", st)
	}

	// Tampered bundles are refused; r2 stays.
	for name, tb := range tampered {
		srv.set(tb.raw)
		expect("tampered: "+name, g,
			want{"git status", cmdguard.Allow, root}, // r3 would deny it
			want{"find . -delete", cmdguard.Deny, "bundle r2:"},
		)
		st := g.Managed().Bundle
		if st.Revision != "r2" || !strings.Contains(st.Refused, tb.want) {
			t.Errorf("tampered: %s: status %+v; want r2 active and a refusal with %q", name, st, tb.want)
		}
	}

	// The kept bundle changed on disk: refused when read back; with the
	// server down, the floor.
	srv.setDown()
	kept, err := filepath.Glob(filepath.Join(os.Getenv("XDG_STATE_HOME"), "cmdguard", "bundles", "*", "bundle.tar.gz"))
	if err != nil || len(kept) != 1 {
		t.Fatalf("kept bundles %v %v", kept, err)
	}
	raw, _ := os.ReadFile(kept[0])
	os.WriteFile(kept[0], retar(t, raw, func(name string, data []byte) []byte {
		if strings.HasSuffix(name, "curl.rego") {
			return bytes.ReplaceAll(data, []byte(`"curl"`), []byte(`"nothing"`))
		}
		return data
	}), 0o600)
	g3 := open()
	expect("kept bundle changed", g3, want{"git status", cmdguard.Ask, cmdguard.FloorSource})
	if st := g3.Managed().Bundle; st.Revision != "" || !strings.Contains(st.Refused, "the kept bundle") {
		t.Errorf("kept bundle changed: status %+v", st)
	}
}

// TestManagedBundleConfigFailsClosed: a bundle: section that cannot be
// used (no key, a key file that is missing, a URL that is not http) makes
// every check deny, as a managed file that does not load does.
func TestManagedBundleConfigFailsClosed(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	for _, section := range []string{
		"bundle:\n  url: http://127.0.0.1:1/b.tar.gz\n",
		"bundle:\n  url: http://127.0.0.1:1/b.tar.gz\n  public_key: nothere.pem\n",
		"bundle:\n  url: file:///etc/passwd\n  public_key: k.pem\n",
		"bundle:\n  url: http://127.0.0.1:1/b.tar.gz\n  public_key: k.pem\n  poll: often\n",
	} {
		managedFile(t, "version: 1\n"+section)
		g, err := cmdguard.Open(project(t, bundlePolicy))
		if err != nil {
			t.Fatal(err)
		}
		d := checkIn(t, g, "git status")
		if d.Verdict != cmdguard.Deny || d.Reasons[0].Rule != "policy.invalid" || g.Managed().BundleErr == nil {
			t.Errorf("%q: %s %+v (bundle error %v); want a policy.invalid deny", section, d.Verdict, d.Reasons, g.Managed().BundleErr)
		}
	}
}
