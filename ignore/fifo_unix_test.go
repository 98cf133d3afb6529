//go:build unix

package ignore_test

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/cmdguard/cmdguard/ignore"
)

// TestLoadFIFO: a FIFO under an ignore-file name is refused, not read
// (reading would block Load forever).
func TestLoadFIFO(t *testing.T) {
	t.Parallel()
	root := tree(t, nil)
	if err := syscall.Mkfifo(filepath.Join(root, ".rooignore"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := ignore.Load(root, ignore.Options{})
	if want := "ignore: .rooignore: not a regular file"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Load error = %v, want %q", err, want)
	}
}

// TestLoadDirectoryNamedLikeIgnoreFile: a directory called .rooignore is
// not an ignore file.
