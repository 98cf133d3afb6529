package bashapi

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard"
)

// TestPanicIsARefusal: a panic in a handler is answered as a refusal (200,
// success false, status refused, a gate.internal reason), never a 500.
func TestPanicIsARefusal(t *testing.T) {
	t.Parallel()
	g, err := cmdguard.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(Config{Guard: g})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(t.Context())
	s.mux.HandleFunc("POST /v1/bash/panic", func(http.ResponseWriter, *http.Request) { panic("boom") })
	w := httptest.NewRecorder()
	req := httptest.NewRequest("POST", "/v1/bash/panic", strings.NewReader("{}"))
	req.Host = "localhost"
	s.ServeHTTP(w, req)
	var m struct {
		Success bool
		Message string
		Data    struct {
			Status   string
			Decision string
			Reasons  []struct{ Rule, Message string }
		}
	}
	if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil {
		t.Fatalf("%d %s: %v", w.Code, w.Body, err)
	}
	if w.Code != http.StatusOK || m.Success || m.Data.Status != "refused" || m.Data.Decision != "deny" ||
		len(m.Data.Reasons) != 1 || m.Data.Reasons[0].Rule != "gate.internal" || !strings.Contains(m.Message, "boom") {
		t.Errorf("panic answered %d %s", w.Code, w.Body)
	}
}

func TestTruncateMiddle(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 0, "abc"},
		{"abc", 3, "abc"},
		{"abcdef", 4, "ab\n...[2 characters truncated]...\nef"},
		{"abcdef", 1, "\n...[5 characters truncated]...\nf"},
		{"日本語テキスト", 3, "日\n...[4 characters truncated]...\nスト"},
		{"a\xffb\xfec", 2, "a\n...[3 characters truncated]...\nc"},
	} {
		if got, _ := truncateMiddle(tc.in, tc.n); got != tc.want {
			t.Errorf("truncateMiddle(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}
