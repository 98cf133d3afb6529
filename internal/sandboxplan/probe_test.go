package sandboxplan

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestCachedProbe: the probe is asked once, and its answer (either) is
// kept for the next process; a kept answer under another key, a file
// others may write, or one in a directory that is not the user's is not
// trusted: the probe is asked again.
func TestCachedProbe(t *testing.T) {
	if _, err := probeKey(); err != nil {
		t.Skipf("no probe key on this machine (%v): CachedProbe always probes", err)
	}
	state := t.TempDir()
	t.Setenv("XDG_STATE_HOME", state)
	file := filepath.Join(state, "cmdguard", probeFile)
	calls := 0
	answer := error(nil)
	probe := func() error { calls++; return answer }
	ask := func(want int, wantErr bool) {
		t.Helper()
		err := CachedProbe(probe)
		if calls != want || (err != nil) != wantErr {
			t.Fatalf("after CachedProbe: %d probes, err %v; want %d, error %v", calls, err, want, wantErr)
		}
	}
	ask(1, false) // nothing kept: probed
	ask(1, false) // kept
	// Another key (another boot, kernel, build): probed again, the new
	// answer kept, an error too.
	if err := os.WriteFile(file, []byte(`{"key":"another boot"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	answer = errors.New("no user namespaces")
	ask(2, true)
	ask(2, true)
	// A file others may write is not trusted.
	key, _ := probeKey()
	if err := os.WriteFile(file, []byte(`{"key":`+strconv.Quote(key)+`}`), 0o600); err != nil {
		t.Fatal(err)
	}
	ask(2, false) // kept "works", trusted
	os.Chmod(file, 0o666)
	ask(3, true) // not trusted: probed (the answer is now the error)
	// A link is not followed.
	os.Remove(file)
	other := filepath.Join(t.TempDir(), "planted.json")
	os.WriteFile(other, []byte(`{"key":`+strconv.Quote(key)+`}`), 0o600)
	if err := os.Symlink(other, file); err != nil {
		t.Fatal(err)
	}
	answer = nil
	if _, ok := readProbe(file); ok {
		t.Error("readProbe followed a symbolic link")
	}
	// A directory others may write is not trusted, nor written.
	os.Remove(file)
	os.Chmod(filepath.Dir(file), 0o777)
	ask(4, false)
	ask(5, false)
	if _, err := os.Lstat(file); err == nil {
		t.Error("the answer was kept in a directory others may write")
	}
}
