package sandboxplan

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// A probe's answer — whether this machine's kernel sets the sandbox up
// — depends on the kernel, its settings and the user, not on the
// command: one process asks the kernel (a sandbox around a command that
// does nothing, about 10 ms of CPU), and the answer is kept for the
// processes after it, until the machine boots again or anything the
// answer depends on changes.
//
// Either answer, kept wrongly, fails closed: a kept "it works" that no
// longer holds makes the run that relies on the sandbox refuse to start
// (Start requires it then); a kept "it fails" only keeps the gate's own,
// stricter answers. So the cache is a file in the person's state
// directory, which a sandboxed command cannot write (the home directory
// is read-only in the sandbox).

// probeFile is the cache's name in the state directory.
const probeFile = "sandbox-probe.json"

// probeRecord is the kept answer.
type probeRecord struct {
	Key string `json:"key"`           // what the answer depends on (probeKey)
	Err string `json:"err,omitempty"` // "" when the sandbox was set up
}

// CachedProbe returns probe's answer, kept across processes (see above):
// the kept one when its key is this machine's now, else probe's, which is
// then kept. Any trouble with the cache (no state directory, no boot id,
// an unreadable or foreign file) means probe is asked, and nothing is
// kept where it cannot be kept safely.
func CachedProbe(probe func() error) error {
	key, err := probeKey()
	if err != nil {
		return probe()
	}
	dir, err := stateDir()
	if err != nil {
		return probe()
	}
	file := filepath.Join(dir, probeFile)
	if rec, ok := readProbe(file); ok && rec.Key == key {
		if rec.Err == "" {
			return nil
		}
		return errors.New(rec.Err)
	}
	perr := probe()
	rec := probeRecord{Key: key}
	if perr != nil {
		rec.Err = perr.Error()
	}
	writeProbe(dir, file, rec)
	return perr
}

// stateDir returns cmdguard's state directory: $XDG_STATE_HOME/cmdguard
// when XDG_STATE_HOME is an absolute path, else ~/.local/state/cmdguard
// (the run records' parent).
func stateDir() (string, error) {
	runs, err := RunsDir()
	if err != nil {
		return "", err
	}
	return filepath.Dir(runs), nil
}

// probeKey names what the probe's answer depends on: this boot, the
// kernel release, the user, the kernel's settings for user namespaces
// and the security modules, and the executable that asks (another
// build may set the sandbox up differently).
func probeKey() (string, error) {
	var b bytes.Buffer
	for _, f := range []string{
		"/proc/sys/kernel/random/boot_id",
		"/proc/sys/kernel/osrelease",
	} {
		data, err := os.ReadFile(f)
		if err != nil || len(bytes.TrimSpace(data)) == 0 {
			return "", fmt.Errorf("probe key: %s: %v", f, err)
		}
		b.Write(bytes.TrimSpace(data))
		b.WriteByte('|')
	}
	// Settings that may be absent on a kernel: their absence is part of
	// the key.
	for _, f := range []string{
		"/proc/sys/user/max_user_namespaces",
		"/proc/sys/kernel/unprivileged_userns_clone",
		"/proc/sys/kernel/apparmor_restrict_unprivileged_userns",
		"/sys/kernel/security/lsm",
	} {
		data, _ := os.ReadFile(f)
		b.Write(bytes.TrimSpace(data))
		b.WriteByte('|')
	}
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	st, err := os.Stat(exe)
	if err != nil {
		return "", err
	}
	fmt.Fprintf(&b, "%d|%s|%d|%d", os.Geteuid(), exe, st.Size(), st.ModTime().UnixNano())
	return b.String(), nil
}

// readProbe reads the kept answer: a regular file of this user's, not
// writable by others, in a directory of this user's.
func readProbe(file string) (probeRecord, bool) {
	var rec probeRecord
	if !ownedDir(filepath.Dir(file)) {
		return rec, false
	}
	f, err := os.OpenFile(file, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return rec, false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() || st.Mode().Perm()&0o022 != 0 || st.Size() > 64<<10 {
		return rec, false
	}
	if s, ok := st.Sys().(*syscall.Stat_t); !ok || int(s.Uid) != os.Geteuid() {
		return rec, false
	}
	data := make([]byte, st.Size())
	if _, err := f.ReadAt(data, 0); err != nil {
		return rec, false
	}
	if json.Unmarshal(data, &rec) != nil {
		return rec, false
	}
	return rec, true
}

// writeProbe keeps rec in file, replacing it whole (a new file renamed
// over it), when dir is this user's; errors are dropped: the next
// process probes again.
func writeProbe(dir, file string, rec probeRecord) {
	if err := os.MkdirAll(dir, 0o700); err != nil || !ownedDir(dir) {
		return
	}
	data, err := json.Marshal(rec)
	if err != nil {
		return
	}
	tmp := file + ".tmp" + strconv.Itoa(os.Getpid())
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		os.Remove(tmp)
		return
	}
	if os.Rename(tmp, file) != nil {
		os.Remove(tmp)
	}
}

// ownedDir reports whether dir is a directory (not a link) of this
// user's that others cannot write.
func ownedDir(dir string) bool {
	st, err := os.Lstat(dir)
	if err != nil || !st.IsDir() || st.Mode().Perm()&0o022 != 0 {
		return false
	}
	s, ok := st.Sys().(*syscall.Stat_t)
	return ok && int(s.Uid) == os.Geteuid()
}
