package bashapi_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/adapter/bashapi"
)

// FuzzRequest sends arbitrary bodies to every endpoint of a server whose
// policy allows nothing: the answer is always JSON with a 2xx/4xx status,
// never a 500, and nothing ever runs.
func FuzzRequest(f *testing.F) {
	dir := f.TempDir()
	os.WriteFile(filepath.Join(dir, ".cmdguard.yaml"), []byte("version: 1\ndefault: deny\n"), 0o644)
	g, err := cmdguard.Open(dir)
	if err != nil {
		f.Fatal(err)
	}
	api, err := bashapi.New(bashapi.Config{Guard: g, MaxBody: 1 << 16})
	if err != nil {
		f.Fatal(err)
	}
	defer api.Close(context.Background())
	for _, seed := range []string{
		`{"command": "touch ran"}`, `{"command": "ls", "env": {"BASH_ENV": "/x"}}`, `{"command": 1}`,
		`{"session_id": "x", "offset": -1}`, `{"session_id": "x", "input": "y"}`, `{"snapshot_path": "/etc/passwd"}`,
		`[]`, `null`, `{"command": "ls", "exec_dir": "/"}`, `{"command": "a\u0000b"}`, "\xff",
	} {
		for path := range 5 {
			f.Add(path, seed)
		}
	}
	paths := []string{"/v1/bash/exec", "/v1/bash/output", "/v1/bash/write", "/v1/bash/kill", "/v1/bash/sessions/create"}
	f.Fuzz(func(t *testing.T, path int, body string) {
		p := paths[(path%len(paths)+len(paths))%len(paths)]
		req := httptest.NewRequest("POST", p, strings.NewReader(body))
		req.Host = "localhost"
		w := httptest.NewRecorder()
		api.ServeHTTP(w, req)
		if w.Code >= 500 && w.Code != http.StatusServiceUnavailable || !json.Valid(w.Body.Bytes()) {
			t.Fatalf("POST %s %q: %d %s", p, body, w.Code, w.Body)
		}
		var m struct {
			Success bool
			Data    struct{ Status string }
		}
		json.Unmarshal(w.Body.Bytes(), &m)
		if m.Success && p == "/v1/bash/exec" {
			t.Fatalf("POST %s %q ran under a deny-all policy: %s", p, body, w.Body)
		}
		if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
			t.Fatalf("POST %s %q: a command ran", p, body)
		}
	})
}
