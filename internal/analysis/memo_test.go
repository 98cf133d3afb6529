package analysis

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cmdguard/cmdguard/parser"
)

// parserDir is the parser package's source, from this package's.
const parserDir = "../../parser"

// TestMemoNoFileSystem: the parser never reads the file system nor the
// host's environment — the memo depends on it. It must not import a
// package that can.
func TestMemoNoFileSystem(t *testing.T) {
	t.Parallel()
	_ = parser.Analyze // the package this is about
	entries, err := os.ReadDir(parserDir)
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{"io/fs": true} // Glob's readDir parameter type; the caller reads
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(filepath.Join(parserDir, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{`"os"`, `"syscall"`, `"golang.org/x/sys/unix"`, `"os/exec"`, `"io/ioutil"`, `"time"`, `"math/rand"`, `"math/rand/v2"`, `"io/fs"`} {
			if strings.Contains(string(src), "\t"+bad+"\n") && !allowed[strings.Trim(bad, `"`)] {
				t.Errorf("parser/%s imports %s: the analysis memo (package analysis) assumes the parser reads no file, clock or environment", name, bad)
			}
		}
	}
}

// TestMemoCollision: an entry is used only for its own key, whatever the
// hash says; a key with the same hash replaces it.
func TestMemoCollision(t *testing.T) {
	t.Parallel()
	m := NewMemo()
	a, b := Key{src: "cat a"}, Key{src: "cat .env"}
	ea, eb := &Entry{key: a, weight: 1}, &Entry{key: b, weight: 1}
	const h = 42 // as if both keys hashed alike
	m.put(h, ea)
	if e, _ := m.get(&b, h); e != nil {
		t.Fatalf("get(%q) = the entry of %q", b.src, e.key.src)
	}
	if e, _ := m.get(&a, h); e != ea {
		t.Fatalf("get(%q) = %v, want its entry", a.src, e)
	}
	m.put(h, eb)
	if e, _ := m.get(&a, h); e != nil {
		t.Fatalf("after a colliding put, get(%q) = the entry of %q", a.src, e.key.src)
	}
	if e, _ := m.get(&b, h); e != eb {
		t.Fatalf("get(%q) = %v, want its entry", b.src, e)
	}
	if n, w := m.Len(); n != 1 || w != 1 {
		t.Errorf("memo holds %d entries weighing %d; want 1, 1", n, w)
	}
}
