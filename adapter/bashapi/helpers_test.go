package bashapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"os"
	osexec "os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/adapter/bashapi"
)

// Test helpers shared by the package's test files.

// bareHandler runs {"command"} with os/exec and bash, as a /v1/bash server
// without the gate would: the baseline of BenchmarkLatencyRatio.
func bareHandler(w http.ResponseWriter, r *http.Request) {
	var req struct{ Command string }
	json.NewDecoder(r.Body).Decode(&req)
	cmd := osexec.Command("bash", "-c", req.Command)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.TempDir()} // as small as the gated commands'
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	status, code := "completed", 0
	if err := cmd.Run(); err != nil {
		code = cmd.ProcessState.ExitCode()
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"success": true, "data": map[string]any{
		"status": status, "exit_code": code, "stdout": out.String(), "stderr": errOut.String()}})
}

// postJSON posts body to url and decodes the answer.
func postJSON(ctx context.Context, c *http.Client, url string, body any) (int, map[string]any, error) {
	j, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(ctx, "POST", url, bytes.NewReader(j))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	var m map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&m); err != nil {
		return resp.StatusCode, nil, err
	}
	return resp.StatusCode, m, nil
}

func num(v any) int64 {
	f, _ := v.(float64)
	return int64(f)
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// newServer serves a fresh project; cfg's Guard and Dir are filled in.
func newServer(t *testing.T, cfg bashapi.Config) *testServer {
	t.Helper()
	dir := project(t)
	g, err := cmdguard.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	cfg.Guard, cfg.Dir = g, dir
	cfg.BaseEnv = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}
	cfg.Logger = slog.New(slog.NewJSONHandler(logs, nil))
	api, err := bashapi.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		api.Close(ctx)
		g.Close(ctx)
	})
	return &testServer{t: t, dir: dir, api: api, h: api, log: logs}
}

// project makes a project directory with the test policy, a .env secret
// and a sub directory.
func project(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	dir, _ = filepath.EvalSymlinks(dir)
	for name, body := range map[string]string{".cmdguard.yaml": testPolicy, ".env": "SECRET=hunter2\n", "sub/file": "x\n"} {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
