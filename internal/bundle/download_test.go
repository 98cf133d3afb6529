package bundle

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	opabundle "github.com/open-policy-agent/opa/v1/bundle"
)

// etagServer serves one bundle at /b/bundle.tar.gz with an ETag, answers
// 304 to an If-None-Match holding it, or fails with its status; it
// records every request's headers.
type etagServer struct {
	mu     sync.Mutex
	raw    []byte
	etag   string
	status int // when not 0, every request fails with it
	notMod bool
	reqs   []http.Header
}

func (s *etagServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = append(s.reqs, r.Header.Clone())
	switch {
	case r.URL.Path != "/b/bundle.tar.gz" || r.URL.RawQuery != "v=1":
		http.NotFound(w, r)
	case s.status != 0:
		w.WriteHeader(s.status)
	case s.notMod || (s.etag != "" && r.Header.Get("If-None-Match") == s.etag):
		w.WriteHeader(http.StatusNotModified)
	default:
		if s.etag != "" {
			w.Header().Set("ETag", s.etag)
		}
		w.Write(s.raw)
	}
}

func (s *etagServer) set(raw []byte, etag string, status int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.raw, s.etag, s.status = raw, etag, status
}

// last returns the headers of the last request.
func (s *etagServer) last(t *testing.T) http.Header {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.reqs) == 0 {
		t.Fatal("the server saw no request")
	}
	return s.reqs[len(s.reqs)-1]
}

func downloadManager(t *testing.T, url, pub, cache string) *Manager {
	t.Helper()
	kp := filepath.Join(t.TempDir(), "pub.pem")
	os.WriteFile(kp, []byte(pub), 0o644)
	m, err := New(Config{URL: url, PublicKey: kp, Cache: cache, Timeout: "2s"})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestDownloadETag: the download is OPA's downloader's (its request says
// so: User-Agent Open-Policy-Agent, Prefer: modes=snapshot,delta). The
// first request carries no If-None-Match and activates the bundle; the
// next carries its ETag, the server answers 304 and the bundle stays
// active; a new Manager reading the kept bundle back sends the kept
// ETag. A tampered bundle and a server error leave it active, with the
// refusal and the error in the status.
func TestDownloadETag(t *testing.T) {
	priv, pub := key(t)
	otherPriv, _ := key(t)
	r1 := build(t, priv, "r1", nil, map[string]string{"/cmdguard/curl.rego": denyCurl})
	srv := &etagServer{}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	url := hs.URL + "/b/bundle.tar.gz?v=1"
	cache := filepath.Join(t.TempDir(), "cache")
	m := downloadManager(t, url, pub, cache)
	ctx := context.Background()

	srv.set(r1, `"e1"`, 0)
	if err := m.Refresh(ctx); err != nil {
		t.Fatalf("first download: %v", err)
	}
	h := srv.last(t)
	if h.Get("If-None-Match") != "" {
		t.Errorf("first request: If-None-Match %q, want none", h.Get("If-None-Match"))
	}
	if !strings.HasPrefix(h.Get("User-Agent"), "Open-Policy-Agent/") || !strings.Contains(h.Get("Prefer"), "modes=snapshot") {
		t.Errorf("request headers %v: not OPA's downloader's", h)
	}
	if st := m.Status(); st.Revision != "r1" || st.LastError != "" || st.Refused != "" {
		t.Fatalf("after the first download: %+v", st)
	}
	if kept, err := os.ReadFile(filepath.Join(cache, "bundle.tar.gz")); err != nil || string(kept) != string(r1) {
		t.Errorf("kept bundle: %d bytes, %v; want the %d bytes served", len(kept), err, len(r1))
	}

	// The ETag: If-None-Match, 304, the bundle stays.
	before := m.Status().LastOK
	time.Sleep(2 * time.Millisecond)
	if err := m.Refresh(ctx); err != nil {
		t.Fatalf("304: %v", err)
	}
	if got := srv.last(t).Get("If-None-Match"); got != `"e1"` {
		t.Errorf("second request: If-None-Match %q, want \"e1\"", got)
	}
	if st := m.Status(); st.Revision != "r1" || st.LastError != "" || !st.LastOK.After(before) {
		t.Errorf("after 304: %+v (last ok before %v)", st, before)
	}
	if a := m.Current(ctx); a == nil || a.Revision != "r1" || a.ETag != `"e1"` {
		t.Errorf("after 304: active %+v", a)
	}

	// A new Manager on the same cache reads r1 back and sends its ETag.
	m2 := downloadManager(t, url, pub, cache)
	if err := m2.Refresh(ctx); err != nil {
		t.Fatalf("new manager: %v", err)
	}
	if got := srv.last(t).Get("If-None-Match"); got != `"e1"` {
		t.Errorf("new manager: If-None-Match %q, want the kept \"e1\"", got)
	}
	if st := m2.Status(); st.Revision != "r1" {
		t.Errorf("new manager: %+v", st)
	}

	// Tampered: another key, unsigned, not a bundle. r1 stays.
	for _, tc := range []struct {
		name string
		raw  []byte
		want string
	}{
		{"another key", build(t, otherPriv, "r2", nil, map[string]string{"/cmdguard/curl.rego": denyCurl}), "verif"},
		{"unsigned", build(t, "", "r2", nil, map[string]string{"/cmdguard/curl.rego": denyCurl}), "missing .signatures.json"},
		{"not a bundle", []byte("not a tarball"), "refused"},
		{"a delta bundle", delta(t, priv), "delta"},
	} {
		srv.set(tc.raw, `"e2-`+tc.name+`"`, 0)
		err := m.Refresh(ctx)
		st := m.Status()
		if err == nil || st.Revision != "r1" || !strings.HasPrefix(st.Refused, "refused: ") || !strings.Contains(st.Refused, tc.want) || st.LastError != "" {
			t.Errorf("%s: error %v, status %+v; want r1 active, refused with %q", tc.name, err, st, tc.want)
		}
		if a := m.Current(ctx); a == nil || a.Revision != "r1" {
			t.Errorf("%s: active %+v, want r1", tc.name, a)
		}
	}
	if kept, _ := os.ReadFile(filepath.Join(cache, "bundle.tar.gz")); string(kept) != string(r1) {
		t.Errorf("a refused bundle replaced the kept one")
	}

	// The server fails: r1 stays, the status says why.
	srv.set(r1, `"e1"`, http.StatusServiceUnavailable)
	if err := m.Refresh(ctx); err == nil || !strings.Contains(err.Error(), "503") {
		t.Errorf("503: error %v", err)
	}
	if st := m.Status(); st.Revision != "r1" || !strings.Contains(st.LastError, "503 Service Unavailable") {
		t.Errorf("503: %+v", st)
	}

	// A second revision replaces r1, with its ETag.
	r2 := build(t, priv, "r2", nil, map[string]string{"/cmdguard/curl.rego": denyCurl})
	srv.set(r2, `"e3"`, 0)
	if err := m.Refresh(ctx); err != nil {
		t.Fatalf("r2: %v", err)
	}
	if got := srv.last(t).Get("If-None-Match"); got != `"e1"` {
		t.Errorf("r2: If-None-Match %q, want \"e1\"", got)
	}
	if st := m.Status(); st.Revision != "r2" || st.Refused != "" || st.LastError != "" {
		t.Errorf("r2: %+v", st)
	}
	if a := m.Current(ctx); a == nil || a.ETag != `"e3"` {
		t.Errorf("r2: active %+v, want ETag \"e3\"", a)
	}
}

// TestDownloadNoBundle: a fresh Manager whose server answers 304 to a
// request without If-None-Match, or cannot be reached, activates
// nothing (the caller's floor applies) and says why.
func TestDownloadNoBundle(t *testing.T) {
	_, pub := key(t)
	srv := &etagServer{notMod: true}
	hs := httptest.NewServer(srv)
	m := downloadManager(t, hs.URL+"/b/bundle.tar.gz?v=1", pub, filepath.Join(t.TempDir(), "cache"))
	ctx := context.Background()
	if err := m.Refresh(ctx); err == nil {
		t.Error("304 without a bundle: no error")
	}
	if st := m.Status(); st.Revision != "" || !strings.Contains(st.LastError, "no bundle") || m.Current(ctx) != nil {
		t.Errorf("304 without a bundle: %+v", st)
	}
	hs.Close()
	if err := m.Refresh(ctx); err == nil {
		t.Error("server down: no error")
	}
	if st := m.Status(); st.Revision != "" || !strings.Contains(st.LastError, "connection refused") || m.Current(ctx) != nil {
		t.Errorf("server down: %+v", st)
	}
}

// TestDownloadTooLarge: a download past the limit is refused, whether
// one file of the bundle (OPA's reader's limit) or the body (the REST
// client's transport) is too large; the active bundle stays.
func TestDownloadTooLarge(t *testing.T) {
	priv, pub := key(t)
	defer func(n int64) { maxBundleBytes = n }(maxBundleBytes)
	// comment returns a Rego comment of n random base64 bytes (gzip does
	// not shrink them much).
	comment := func(n int) string {
		b := make([]byte, n*3/4)
		rand.Read(b)
		return "# " + base64.StdEncoding.EncodeToString(b) + "\n"
	}
	r1 := build(t, priv, "r1", nil, map[string]string{"/cmdguard/curl.rego": denyCurl})
	oneBig := build(t, priv, "r2", nil, map[string]string{"/cmdguard/curl.rego": comment(16<<10) + denyCurl})
	many := map[string]string{}
	for i := range 40 {
		many[fmt.Sprintf("/cmdguard/m%d.rego", i)] = "package cmdguard\n\n" + comment(3<<10)
	}
	manySmall := build(t, priv, "r2", nil, many)
	srv := &etagServer{}
	hs := httptest.NewServer(srv)
	defer hs.Close()
	m := downloadManager(t, hs.URL+"/b/bundle.tar.gz?v=1", pub, filepath.Join(t.TempDir(), "cache"))
	ctx := context.Background()
	srv.set(r1, `"e1"`, 0)
	if err := m.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	maxBundleBytes = 4 << 10
	if len(r1) > int(maxBundleBytes) || len(manySmall) < 4*int(maxBundleBytes) {
		t.Fatalf("sizes: r1 %d, manySmall %d bytes", len(r1), len(manySmall))
	}
	for _, tc := range []struct {
		name string
		raw  []byte
		want string
	}{
		{"one large file", oneBig, "exceeds"},
		{"a large body", manySmall, "larger than 4096 bytes"},
	} {
		srv.set(tc.raw, `"e2"`, 0)
		err := m.Refresh(ctx)
		st := m.Status()
		t.Logf("%s: %s", tc.name, st.Refused)
		if err == nil || !strings.Contains(st.Refused, tc.want) || st.Revision != "r1" {
			t.Errorf("%s: error %v, status %+v; want r1 active, refused with %q", tc.name, err, st, tc.want)
		}
	}
}

// TestDownloadTimeout: a server that does not answer within the timeout
// leaves the active bundle, and Refresh returns within about the
// timeout with the reason.
func TestDownloadTimeout(t *testing.T) {
	priv, pub := key(t)
	r1 := build(t, priv, "r1", nil, map[string]string{"/cmdguard/curl.rego": denyCurl})
	srv := &etagServer{}
	release := make(chan struct{})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		srv.mu.Lock()
		hang := srv.status == http.StatusGatewayTimeout
		srv.mu.Unlock()
		if hang {
			select {
			case <-release:
			case <-r.Context().Done():
			}
			return
		}
		srv.ServeHTTP(w, r)
	}))
	defer hs.Close()
	defer close(release)
	kp := filepath.Join(t.TempDir(), "pub.pem")
	os.WriteFile(kp, []byte(pub), 0o644)
	m, err := New(Config{URL: hs.URL + "/b/bundle.tar.gz?v=1", PublicKey: kp, Cache: filepath.Join(t.TempDir(), "cache"), Timeout: "200ms"})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	srv.set(r1, `"e1"`, 0)
	if err := m.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	srv.set(r1, `"e1"`, http.StatusGatewayTimeout)
	start := time.Now()
	err = m.Refresh(ctx)
	took := time.Since(start)
	st := m.Status()
	if err == nil || took > 2*time.Second || st.Revision != "r1" || !strings.Contains(st.LastError, "deadline exceeded") {
		t.Errorf("hung server: error %v after %v, status %+v; want r1 active and the deadline", err, took, st)
	}
}

// delta returns a signed delta bundle: a patch of data.cmdguard.policy.
func delta(t *testing.T, priv string) []byte {
	t.Helper()
	b := opabundle.Bundle{
		Manifest: opabundle.Manifest{Revision: "d1"},
		Patch: opabundle.Patch{Data: []opabundle.PatchOperation{{
			Op: "upsert", Path: "/cmdguard/policy", Value: map[string]any{"deny": []any{"git status"}},
		}}},
	}
	if err := b.GenerateSignature(opabundle.NewSigningConfig(priv, "RS256", ""), "default", false); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := opabundle.NewWriter(&buf).Write(b); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
