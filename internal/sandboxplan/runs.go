package sandboxplan

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// A sandboxed run leaves a record, written before it starts and removed
// once its quarantine is done, in the run records directory (RunsDir),
// outside every project and read-only inside the sandbox. A record whose
// run ended without removing it — cmdguard killed with SIGKILL, the
// machine's power lost — is finished by the next cmdguard process that
// checks a command in that project (Pending): the sandbox's processes
// died with it (its PID namespace's first process dies with cmdguard,
// and the kernel kills the rest), and the quarantine is done then, by a
// walk of the whole project. A record whose quarantine could not finish
// (a directory it cannot read, a file it cannot move) stays, marked
// blocked, and every check in that project is denied until a person
// has looked and deleted it.
//
// The record is locked (flock) by the process that runs the command for
// as long as it does: a record another process can lock is one whose
// run has no process left to end it.

// recordVersion is the format of a run record.
const recordVersion = 1

// maxRecord bounds the size of a record read back.
const maxRecord = 64 << 20

// RunsDir returns the run records directory: $XDG_STATE_HOME/cmdguard/runs
// when XDG_STATE_HOME is an absolute path, else
// ~/.local/state/cmdguard/runs.
func RunsDir() (string, error) {
	xdg, home := os.Getenv("XDG_STATE_HOME"), os.Getenv("HOME")
	if c := lastRunsDir.Load(); c != nil && c.xdg == xdg && c.home == home {
		return c.dir, c.err
	}
	c := &runsDirOf{xdg: xdg, home: home}
	c.dir, c.err = runsDir(xdg)
	lastRunsDir.Store(c)
	return c.dir, c.err
}

// lastRunsDir is RunsDir's last answer, with the environment it was
// made from: every check asks, and the environment rarely changes.
var lastRunsDir atomic.Pointer[runsDirOf]

type runsDirOf struct {
	xdg, home, dir string
	err            error
}

func runsDir(xdg string) (string, error) {
	if filepath.IsAbs(xdg) {
		return filepath.Join(filepath.Clean(xdg), "cmdguard", "runs"), nil
	}
	h, err := os.UserHomeDir()
	if err != nil || !filepath.IsAbs(h) {
		return "", fmt.Errorf("no home directory for the run records (set XDG_STATE_HOME): %v", err)
	}
	return filepath.Join(filepath.Clean(h), ".local", "state", "cmdguard", "runs"), nil
}

// record is what a run record holds: what the quarantine needs to be
// done by another process, with no other knowledge of the run.
type record struct {
	Version int       `json:"version"`
	Root    string    `json:"root"`
	PID     int       `json:"pid"` // the process that ran it
	Started time.Time `json:"started"`
	// Names are the file names the run may not create in the project,
	// and Files those that existed at the start.
	Names  []string       `json:"names"`
	Files  []string       `json:"files"`
	Absent []recordAbsent `json:"absent"`
	// Init is the sandbox's first process, once it has started: while
	// it lives, so may the run's other processes.
	Init *procID `json:"init,omitempty"`
	// Blocked, when not empty, is what the quarantine could not do:
	// checks in the project are denied until a person deletes the record.
	Blocked []Quarantined `json:"blocked,omitempty"`
}

// A procID names a process for as long as the machine runs: its pid,
// start time (clock ticks after boot) and the boot's id.
type procID struct {
	PID   int    `json:"pid"`
	Start uint64 `json:"start"`
	Boot  string `json:"boot"`
}

// procOf returns the procID of the running process pid.
func procOf(pid int) (procID, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return procID{}, false
	}
	// The fields after the command name, which ends at the last ')'.
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procID{}, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 || f[0] == "Z" || f[0] == "X" {
		return procID{}, false // a zombie has ended
	}
	var start uint64
	if _, err := fmt.Sscan(f[19], &start); err != nil {
		return procID{}, false
	}
	boot, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		return procID{}, false
	}
	return procID{PID: pid, Start: start, Boot: strings.TrimSpace(string(boot))}, true
}

// alive reports whether the process id names is still running.
func (id procID) alive() bool {
	now, ok := procOf(id.PID)
	return ok && now == id
}

type recordAbsent struct {
	Path   string `json:"path"`
	Anchor string `json:"anchor"`
	Why    string `json:"why"`
}

// check returns why rec cannot be trusted, nil when it can.
func (rec *record) check() error {
	clean := func(p string) bool { return filepath.IsAbs(p) && filepath.Clean(p) == p && p != "/" }
	switch {
	case rec.Version != recordVersion:
		return fmt.Errorf("version %d, want %d", rec.Version, recordVersion)
	case !clean(rec.Root):
		return fmt.Errorf("root %q is not a clean absolute path", rec.Root)
	case len(rec.Names) == 0:
		return errors.New("no file names")
	}
	for _, n := range rec.Names {
		if n == "" || n == "." || n == ".." || strings.ContainsRune(n, '/') {
			return fmt.Errorf("file name %q", n)
		}
	}
	for _, f := range rec.Files {
		if !clean(f) {
			return fmt.Errorf("file %q is not a clean absolute path", f)
		}
	}
	for _, a := range rec.Absent {
		if !clean(a.Path) || !clean(a.Anchor) || !within(a.Path, a.Anchor) {
			return fmt.Errorf("absent path %q (anchor %q)", a.Path, a.Anchor)
		}
	}
	return nil
}

// within reports whether p is dir or below it.
func within(p, dir string) bool {
	return p == dir || dir == "/" || strings.HasPrefix(p, dir+"/")
}

// related reports whether one of the projects a and b holds the other:
// a run in a may have planted the policy that makes b a project of its
// own, and a run in b changes a's files.
func related(a, b string) bool { return within(a, b) || within(b, a) }

// A Run is the record of one sandboxed run, held from before the run
// starts until its quarantine is done.
type Run struct {
	path string
	// mu orders Started, Abandon and End: a short run may end (End, on
	// the executor's goroutine) before Start has returned (Started).
	mu  sync.Mutex
	f   *os.File // holds the lock; nil once ended
	rec record
}

// Begin writes the record of a run of pl in the project at root into
// dir (see RunsDir) and locks it, before the run starts. A run whose
// record cannot be written must not start in the sandbox.
func (pl *Plan) Begin(dir, root string) (*Run, error) {
	if pl.w == nil {
		return nil, errors.New("no plan")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	if err := trustedDir(dir); err != nil {
		return nil, err
	}
	w := pl.w
	rec := record{Version: recordVersion, Root: root, PID: os.Getpid(), Started: time.Now().UTC(),
		Names: w.names, Files: []string{}, Absent: []recordAbsent{}}
	for f := range w.files {
		rec.Files = append(rec.Files, f)
	}
	slices.Sort(rec.Files)
	for _, a := range w.absent {
		rec.Absent = append(rec.Absent, recordAbsent{a.path, a.anchor, a.why})
	}
	if err := rec.check(); err != nil {
		return nil, fmt.Errorf("run record: %w", err)
	}
	sum := sha256.Sum256([]byte(root))
	name := fmt.Sprintf("%s-%d-%d.json", hex.EncodeToString(sum[:8]), rec.PID, time.Now().UnixNano())
	f, err := writeRecord(dir, name, &rec, true)
	if err != nil {
		return nil, err
	}
	return &Run{path: filepath.Join(dir, name), f: f, rec: rec}, nil
}

// writeRecord writes rec as dir/name in one step (a file of its own
// renamed into place, synced to disk first), locked when lock is set
// (the open file that holds the lock is returned, else closed).
func writeRecord(dir, name string, rec *record, lock bool) (*os.File, error) {
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return nil, err
	}
	tmp := filepath.Join(dir, "."+name+".tmp")
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*os.File, error) {
		f.Close()
		os.Remove(tmp)
		return nil, fmt.Errorf("run record: %w", err)
	}
	if _, err := f.Write(append(data, '\n')); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if lock {
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			return fail(err)
		}
	}
	if err := os.Rename(tmp, filepath.Join(dir, name)); err != nil {
		return fail(err)
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	if !lock {
		f.Close()
		return nil, nil
	}
	return f, nil
}

// Started notes in the record the sandbox's first process (the pid the
// executor started), so that a later process that finishes the run can
// make sure it is gone. The record stays locked: it is written in place.
func (r *Run) Started(pid int) {
	if r == nil || pid <= 0 {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f == nil {
		return // it has ended already
	}
	id, ok := procOf(pid)
	if !ok {
		return
	}
	r.rec.Init = &id
	data, err := json.MarshalIndent(&r.rec, "", "  ")
	if err != nil {
		return
	}
	if r.f.Truncate(0) == nil {
		r.f.WriteAt(append(data, '\n'), 0)
	}
}

// Abandon removes the record of a run that did not start.
func (r *Run) Abandon() {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f == nil {
		return
	}
	os.Remove(r.path)
	r.f.Close()
	r.f = nil
}

// End is called with what the run's quarantine did: the record is
// removed when it could do everything, else kept as blocked, and End
// returns one more entry for the run's report, which says that checks
// in the project are now denied and how a person clears that.
func (r *Run) End(q []Quarantined) []Quarantined {
	if r == nil {
		return q
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.f == nil {
		return q
	}
	defer func() {
		r.f.Close()
		r.f = nil
	}()
	var blocked []Quarantined
	for _, e := range q {
		if e.Error != "" {
			blocked = append(blocked, e)
		}
	}
	if len(blocked) == 0 {
		os.Remove(r.path)
		return q
	}
	r.rec.Blocked = blocked
	msg := fmt.Sprintf("checks in this project are denied until a person has looked at what is listed and deleted the run record %s", r.path)
	if _, err := writeRecord(filepath.Dir(r.path), filepath.Base(r.path), &r.rec, false); err != nil {
		// The record as it was stays: the next check finds a run
		// whose end never came, and does its quarantine again.
		msg = fmt.Sprintf("the run record %s could not be marked blocked (%v): the next check does the quarantine again", r.path, err)
	}
	return append(q, Quarantined{Path: r.rec.Root, Reason: WhyBlocked, Error: msg})
}

// WhyBlocked is the reason of the report entry that says the quarantine
// could not finish.
const WhyBlocked = "the quarantine could not finish"

// trustedDir returns an error unless dir is a real directory of the
// caller's that nobody else may write.
func trustedDir(dir string) error {
	var st syscall.Stat_t
	if err := syscall.Lstat(dir, &st); err != nil {
		return fmt.Errorf("run records directory %s: %w", dir, err)
	}
	return trusted(dir, &st)
}

// trusted is trustedDir of dir, whose lstat is st.
func trusted(dir string, st *syscall.Stat_t) error {
	switch {
	case st.Mode&syscall.S_IFMT != syscall.S_IFDIR:
		return fmt.Errorf("run records directory %s is not a directory", dir)
	case int(st.Uid) != os.Geteuid():
		return fmt.Errorf("run records directory %s belongs to uid %d, not %d", dir, st.Uid, os.Geteuid())
	case st.Mode&0o022 != 0:
		return fmt.Errorf("run records directory %s may be written by others (mode %#o)", dir, st.Mode&0o7777)
	}
	return nil
}

// Pending finishes the runs recorded in dir whose end never came, of
// the projects that hold root or that root holds, and returns why a
// check in root must be denied: a record it cannot trust or read, a
// quarantine that could not finish (now or before), or one it has just
// done that moved something aside (said once; the next check goes on).
// No record, or only records of runs still going, is nil.
func Pending(dir, root string) []string {
	var st syscall.Stat_t
	if err := syscall.Lstat(dir, &st); err != nil {
		if errors.Is(err, syscall.ENOENT) {
			return nil
		}
		return []string{fmt.Sprintf("cannot look for unfinished sandboxed runs in %s: %v", dir, err)}
	}
	if err := trusted(dir, &st); err != nil {
		return []string{err.Error() + ": its records of unfinished sandboxed runs cannot be trusted"}
	}
	snap := dirSnap{uint64(st.Dev), st.Ino, mtime(&st), false}
	if emptyRuns.is(dir, snap) {
		return nil
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		return []string{fmt.Sprintf("cannot look for unfinished sandboxed runs in %s: %v", dir, err)}
	}
	if len(des) == 0 && snap.ctime < time.Now().Add(-recentDir).UnixNano() {
		// Empty, and not changed in the last moment (the clock of the
		// change time is coarse): empty for as long as it stays so.
		emptyRuns.set(dir, snap)
	}
	var out []string
	for _, d := range des {
		if strings.HasPrefix(d.Name(), ".") {
			continue // a record being written
		}
		if msg := pending(filepath.Join(dir, d.Name()), root); msg != "" {
			out = append(out, msg)
		}
	}
	return out
}

// emptyRuns remembers a records directory found empty, by its state
// then (its modification time changes with every record written or
// removed), so that a check reads it only when it changed.
var emptyRuns emptyCache

type emptyCache struct {
	mu sync.Mutex
	m  map[string]dirSnap
}

func (c *emptyCache) is(dir string, s dirSnap) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	old, ok := c.m[dir]
	return ok && old == s
}

func (c *emptyCache) set(dir string, s dirSnap) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) > 64 {
		c.m = map[string]dirSnap{}
	}
	c.m[dir] = s
}

// pending looks at one record (see Pending).
func pending(path, root string) string {
	bad := func(err error) string {
		return fmt.Sprintf("the sandboxed run record %s cannot be used (%v): a run may have ended without its quarantine; look at the projects you ran sandboxed commands in, then delete the record", path, err)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "" // its run has just ended
		}
		return bad(err)
	}
	defer f.Close()
	switch err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); {
	case errors.Is(err, syscall.EWOULDBLOCK):
		return "" // its run is still going
	case err != nil:
		return bad(err)
	}
	// Removed while this process waited for the lock: nothing left.
	var st, now syscall.Stat_t
	if syscall.Fstat(int(f.Fd()), &st) != nil || syscall.Lstat(path, &now) != nil || st.Ino != now.Ino || st.Dev != now.Dev {
		return ""
	}
	switch {
	case st.Mode&syscall.S_IFMT != syscall.S_IFREG:
		return bad(errors.New("not a regular file"))
	case int(st.Uid) != os.Geteuid():
		return bad(fmt.Errorf("it belongs to uid %d", st.Uid))
	case st.Size > maxRecord:
		return bad(fmt.Errorf("larger than %d bytes", maxRecord))
	}
	data, err := io.ReadAll(io.LimitReader(f, maxRecord+1))
	if err != nil {
		return bad(err)
	}
	var rec record
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rec); err != nil {
		return bad(err)
	}
	if err := rec.check(); err != nil {
		return bad(err)
	}
	if !related(rec.Root, root) {
		if _, err := os.Lstat(rec.Root); errors.Is(err, fs.ErrNotExist) && len(rec.Blocked) == 0 {
			os.Remove(path) // its project is gone: nothing to finish
		}
		return ""
	}
	if len(rec.Blocked) > 0 {
		return blockedMsg(path, &rec)
	}
	// Its run's process is gone without ending it: the sandbox's
	// processes died with it (the first one has the parent-death signal;
	// the kernel ends the rest with it). Should the first one still run,
	// it is ended here, and waited for.
	if rec.Init != nil && rec.Init.alive() {
		syscall.Kill(rec.Init.PID, syscall.SIGKILL)
		for i := 0; rec.Init.alive(); i++ {
			if i == 500 {
				return fmt.Sprintf("a sandboxed run in %s (started %s by process %d) ended without its quarantine, and its processes (the first one %d) are still running after SIGKILL: check again once they are gone",
					rec.Root, rec.Started.Format(time.RFC3339), rec.PID, rec.Init.PID)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	// Do its quarantine, the whole project looked at.
	l := newLooker(rec.Root)
	known := map[string]bool{}
	for _, f := range rec.Files {
		known[f] = true
	}
	absent := make([]absentPath, len(rec.Absent))
	for i, a := range rec.Absent {
		absent[i] = absentPath{path: a.Path, anchor: a.Anchor, why: a.Why}
	}
	q := moveAll(absent, l.find(rec.Root, rec.Names, nil), known, l)
	var blocked []Quarantined
	for _, e := range q {
		if e.Error != "" {
			blocked = append(blocked, e)
		}
	}
	if len(blocked) > 0 {
		rec.Blocked = blocked
		if _, err := writeRecord(filepath.Dir(path), filepath.Base(path), &rec, false); err != nil {
			return bad(fmt.Errorf("its quarantine could not finish, and the record could not say so: %w", err))
		}
		return blockedMsg(path, &rec)
	}
	if err := os.Remove(path); err != nil {
		return bad(err)
	}
	if len(q) == 0 {
		return ""
	}
	return fmt.Sprintf("a sandboxed run in %s (started %s by process %d) ended without its quarantine; it is done now: %s. Check again to go on",
		rec.Root, rec.Started.Format(time.RFC3339), rec.PID, describe(q))
}

func blockedMsg(path string, rec *record) string {
	return fmt.Sprintf("the quarantine of a sandboxed run in %s (started %s by process %d) could not finish: %s. Look at these paths, then delete the run record %s",
		rec.Root, rec.Started.Format(time.RFC3339), rec.PID, describe(rec.Blocked), path)
}

// describe lists what a quarantine did or could not do.
func describe(q []Quarantined) string {
	parts := make([]string, 0, len(q))
	for _, e := range q {
		switch {
		case e.Error != "":
			parts = append(parts, fmt.Sprintf("%s (%s): %s", e.Path, e.Reason, e.Error))
		case e.MovedTo == e.Path:
			parts = append(parts, fmt.Sprintf("%s (%s)", e.Path, e.Reason))
		default:
			parts = append(parts, fmt.Sprintf("%s (%s) moved to %s", e.Path, e.Reason, e.MovedTo))
		}
	}
	return strings.Join(parts, "; ")
}
