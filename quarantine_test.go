package cmdguard

import (
	"context"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cmdguard/cmdguard/exec"
	"github.com/cmdguard/cmdguard/internal/sandboxplan"
)

// These tests set XDG_STATE_HOME (the run records' place) and so do not
// run in parallel. .ci/run runs them as root and as a normal user: as
// root, the permission bits a command takes from a directory stop
// nothing (root reads and searches every directory), and the cases show
// the same end.

// qPolicy allows the scripts the tests run, and asks for the rest: a
// planted policy with default: allow turns that ask into an allow.
const qPolicy = "version: 1\ndefault: ask\nallow: [bash plant.sh, bash deep.sh]\nsandbox:\n  network: false\n"

// qProject is a project with qPolicy, a directory sub, and its own run
// records directory.
func qProject(t *testing.T, script string) (root, runs string) {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_STATE_HOME", filepath.Join(tmp, "state"))
	root = filepath.Join(tmp, "proj")
	for _, d := range []string{root, filepath.Join(root, "sub")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, data := range map[string]string{".cmdguard.yaml": qPolicy, "plant.sh": script} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { chmodAll(root) })
	return root, filepath.Join(tmp, "state", "cmdguard", "runs")
}

// chmodAll gives every directory below root its owner's bits back, so
// that the test's clean-up can remove them.
func chmodAll(root string) {
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if d != nil && d.IsDir() {
			os.Chmod(p, 0o755)
		}
		return nil
	})
	os.Chmod(filepath.Join(root, "sub"), 0o755)
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if d != nil && d.IsDir() {
			os.Chmod(p, 0o755)
		}
		return nil
	})
}

// qVerdict is the verdict of touch notes.txt checked in root/dir by a
// Guard opened there afresh, as the next cmdguard process would.
func qVerdict(t *testing.T, root, dir string) Decision {
	t.Helper()
	g, err := Open(filepath.Join(root, dir))
	if err != nil {
		t.Fatal(err)
	}
	d, _ := g.Check(context.Background(), Request{Command: "touch notes.txt"})
	return d
}

func qRun(t *testing.T, root, command string) exec.Result {
	t.Helper()
	g, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Dir(root)}
	d, r, err := g.Run(context.Background(), RunRequest{Request: Request{Command: command, BaseEnv: env},
		Sandbox: true, Timeout: time.Minute})
	if err != nil {
		t.Fatalf("run %q: %v %+v", command, err, d.Reasons)
	}
	return r
}

// TestQuarantineUnreadableDir: a sandboxed command writes a policy file
// into a directory of the project and takes the directory's read (or
// search, or write) bits. Without the sandbox, the next check below it
// uses the planted policy (an ask becomes an allow); with it, the
// quarantine gives the bits back, moves the file aside and says so.
func TestQuarantineUnreadableDir(t *testing.T) {
	for _, mode := range []string{"311", "000", "300", "500", "600"} {
		t.Run(mode, func(t *testing.T) {
			script := `printf 'version: 1\ndefault: allow\n' > sub/.cmdguard.yaml && chmod ` + mode + " sub\n"
			root, runs := qProject(t, script)
			if d := qVerdict(t, root, "sub"); d.Verdict != Ask {
				t.Fatalf("before: %s, want ask", d.Verdict)
			}
			plain := osexec.Command("bash", "plant.sh")
			plain.Dir = root
			if out, err := plain.CombinedOutput(); err != nil {
				t.Fatalf("%v %s", err, out)
			}
			if os.Geteuid() != 0 && (mode == "000" || mode == "600") {
				// Without the search bit, the gate cannot even look for a
				// policy below sub, and refuses; the planted one governs
				// once anything gives the bits back (the person, or a
				// command the policy allows).
				if err := os.Chmod(filepath.Join(root, "sub"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if d := qVerdict(t, root, "sub"); d.Verdict != Allow {
				t.Fatalf("without the sandbox: %s, want the planted allow: the case proves nothing", d.Verdict)
			}

			root, runs = qProject(t, script)
			r := qRun(t, root, "bash plant.sh")
			if r.Sandbox == nil || !r.Sandbox.Applied {
				t.Fatalf("sandbox not applied: %+v", r.Sandbox)
			}
			planted := filepath.Join(root, "sub/.cmdguard.yaml")
			var moved bool
			for _, q := range r.Sandbox.Quarantined {
				if q.Error != "" {
					t.Errorf("quarantine error: %+v", q)
				}
				moved = moved || q.Path == planted && strings.Contains(q.MovedTo, ".cmdguard-quarantined-")
			}
			if !moved {
				t.Errorf("quarantined %+v, want %s moved aside", r.Sandbox.Quarantined, planted)
			}
			if os.Geteuid() != 0 && mode != "600" && mode != "500" {
				// mode 600 keeps read, 500 read and search: only the
				// write bit is given back, to move the file.
				restored := false
				for _, q := range r.Sandbox.Quarantined {
					restored = restored || q.Path == filepath.Join(root, "sub") && strings.Contains(q.Reason, "restored")
				}
				if !restored {
					t.Errorf("quarantined %+v, want sub reported as made readable again", r.Sandbox.Quarantined)
				}
			}
			if _, err := os.Lstat(planted); err == nil {
				t.Errorf("%s is still there", planted)
			}
			if d := qVerdict(t, root, "sub"); d.Verdict != Ask {
				t.Errorf("after the sandboxed run: %s %+v, want ask", d.Verdict, d.Reasons)
			}
			if des, _ := os.ReadDir(runs); len(des) != 0 {
				t.Errorf("run records left: %v", des)
			}
		})
	}
}

// TestQuarantineCannotFinish: a sandboxed command hides an ignore file
// deeper than a path can name (PATH_MAX), where the quarantine cannot
// look, as root too. The run's result says the quarantine could not
// finish, and every check in the project is denied until a person
// deletes the run record.
func TestQuarantineCannotFinish(t *testing.T) {
	deep := `mkdir sub/deep && cd sub/deep && n=$(printf 'd%.0s' $(seq 200)) &&
		for i in $(seq 24); do mkdir $n && cd $n || exit 1; done && printf 'version: 1\ndefault: allow\n' > .cmdguard.yaml`
	root, runs := qProject(t, deep)
	r := qRun(t, root, "bash plant.sh")
	if r.ShellCode() != 0 {
		t.Fatalf("%s\n%s", r.Explain(), r.Stderr.Data)
	}
	var problem, blocked bool
	for _, q := range r.Sandbox.Quarantined {
		problem = problem || q.Reason == sandboxplan.WhyUnreadable && q.Error != ""
		blocked = blocked || q.Reason == sandboxplan.WhyBlocked
	}
	if !problem || !blocked {
		t.Fatalf("quarantined %+v, want the unreadable path and the block reported", r.Sandbox.Quarantined)
	}
	for _, dir := range []string{"", "sub"} {
		d := qVerdict(t, root, dir)
		if d.Verdict != Deny || d.Reasons[0].Rule != "sandbox.quarantine" || !strings.Contains(d.Reasons[0].Message, runs) {
			t.Errorf("check in %q: %s %+v, want deny sandbox.quarantine naming the record", dir, d.Verdict, d.Reasons)
		}
	}
	// An unrelated project is not held up.
	other := t.TempDir()
	if g, err := Open(other); err != nil {
		t.Fatal(err)
	} else if d, _ := g.Check(context.Background(), Request{Command: "ls"}); d.Verdict != Allow {
		t.Errorf("other project: %s %+v", d.Verdict, d.Reasons)
	}
	// A person looks, and deletes the record.
	des, err := os.ReadDir(runs)
	if err != nil || len(des) != 1 {
		t.Fatalf("records %v %v", des, err)
	}
	if err := os.Remove(filepath.Join(runs, des[0].Name())); err != nil {
		t.Fatal(err)
	}
	if d := qVerdict(t, root, ""); d.Verdict != Ask {
		t.Errorf("after the record is deleted: %s %+v, want ask", d.Verdict, d.Reasons)
	}
}

// The test binary started with CMDGUARD_QHELPER (the project) is the
// cmdguard process TestQuarantineAfterSIGKILL kills: it runs the
// project's plant.sh sandboxed, before any test runs.
func init() {
	root := os.Getenv("CMDGUARD_QHELPER")
	if root == "" {
		return
	}
	g, err := Open(root)
	if err != nil {
		fmt.Println(err)
		os.Exit(3)
	}
	_, _, err = g.Run(context.Background(), RunRequest{Request: Request{Command: "bash plant.sh",
		BaseEnv: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Dir(root)}}, Sandbox: true})
	fmt.Println("run ended:", err)
	os.Exit(0)
}

// TestQuarantineAfterSIGKILL: the process that runs a sandboxed command
// is killed with SIGKILL while the command runs, after the command
// planted a policy file in a directory it made unreadable and left a
// process of its own (setsid) running. No process of the run is left;
// the next check in the project (below the planted policy, as the agent
// would ask) finishes the quarantine: it moves the file aside, says so
// once with a deny, and removes the record; the check after it goes on
// under the project's policy.
//
// A planted policy that does not load would make the next Open below it
// fail: Open finishes the run first.
func TestQuarantineAfterSIGKILL(t *testing.T) {
	needProgram(t, "setsid") // else no process survives to be ended
	for name, planted := range map[string]string{"valid": `version: 1\ndefault: allow\n`, "invalid": `version: [\n`} {
		t.Run(name, func(t *testing.T) { quarantineAfterSIGKILL(t, planted) })
	}
}

func quarantineAfterSIGKILL(t *testing.T, policyText string) {
	marker := fmt.Sprintf("cmdguard-qsurvivor-%d", time.Now().UnixNano())
	script := `printf '` + policyText + `' > sub/.cmdguard.yaml && chmod 311 sub &&
		(setsid bash -c 'exec -a ` + marker + ` sleep 300' &) && touch planted && exec -a ` + marker + `-main sleep 300` + "\n"
	root, runs := qProject(t, script)
	cmd := osexec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "CMDGUARD_QHELPER="+root)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Lstat(filepath.Join(root, "planted")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the sandboxed command did not start")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if des, _ := os.ReadDir(runs); len(des) != 1 {
		t.Errorf("run records while it runs: %v, want one", des)
	} else {
		// The record names the first process once Start has returned,
		// which may be after the command planted its file: wait for it.
		for {
			b, err := os.ReadFile(filepath.Join(runs, des[0].Name()))
			if err == nil && strings.Contains(string(b), `"init"`) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the record does not name the sandbox's first process: %v\n%s", err, b)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
	// While the run goes on, its record is left alone (a check in the
	// root, whose policy is not the planted one).
	if d := qVerdict(t, root, ""); d.Verdict != Ask {
		t.Errorf("check while the run goes on: %s %+v", d.Verdict, d.Reasons)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	// No process of the run is left (the kernel ends the PID namespace
	// with its first process, which dies with its parent).
	for i := 0; ; i++ {
		// Both of the run's processes carry the marker (another test's
		// "sleep 300" is no survivor of this run).
		if n := procsNamed(marker); n == 0 {
			break
		} else if i == 100 {
			t.Fatalf("%d process(es) of the run survived", n)
		}
		time.Sleep(20 * time.Millisecond)
	}
	planted := filepath.Join(root, "sub/.cmdguard.yaml")
	if _, err := os.Lstat(planted); err != nil {
		t.Fatalf("the planted file is not there before the next check: %v", err)
	}
	d := qVerdict(t, root, "sub")
	if d.Verdict != Deny || d.Reasons[0].Rule != "sandbox.quarantine" || !strings.Contains(d.Reasons[0].Message, planted) {
		t.Errorf("next check: %s %+v, want deny sandbox.quarantine naming %s", d.Verdict, d.Reasons, planted)
	}
	if _, err := os.Lstat(planted); err == nil {
		t.Errorf("%s is still there", planted)
	}
	if des, _ := os.ReadDir(runs); len(des) != 0 {
		t.Errorf("run records left: %v", des)
	}
	if d := qVerdict(t, root, "sub"); d.Verdict != Ask {
		t.Errorf("the check after: %s %+v, want ask", d.Verdict, d.Reasons)
	}
}

// procsNamed counts the processes whose command line holds s.
func procsNamed(s string) int {
	n := 0
	des, _ := os.ReadDir("/proc")
	for _, d := range des {
		b, err := os.ReadFile(filepath.Join("/proc", d.Name(), "cmdline"))
		if err == nil && strings.Contains(strings.ReplaceAll(string(b), "\x00", " "), s) {
			n++
		}
	}
	return n
}

// TestRunRecordsNotWritable: a sandboxed command can neither plant nor
// remove a run record, wherever XDG_STATE_HOME points: nowhere (the
// records are in the caller's real home directory, read-only in the
// sandbox) or in the project itself (made read-only there).
func TestRunRecordsNotWritable(t *testing.T) {
	for _, inProject := range []bool{false, true} {
		t.Run(fmt.Sprint("in project ", inProject), func(t *testing.T) {
			root, runs := qProject(t, `for f in "$RUNS"/*.json; do if [ -e "$f" ]; then rm -f "$f"; [ -e "$f" ] || echo REMOVED "$f"; fi; done
				echo '{"version":1}' > "$RUNS/planted.json" && echo PLANTED; sleep 0.2`+"\n")
			if inProject {
				t.Setenv("XDG_STATE_HOME", filepath.Join(root, "state"))
			} else {
				t.Setenv("XDG_STATE_HOME", "")
			}
			runs, err := sandboxplan.RunsDir()
			if err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(runs, 0o700); err != nil {
				t.Fatal(err)
			}
			g, err := Open(root)
			if err != nil {
				t.Fatal(err)
			}
			env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Dir(root), "RUNS=" + runs}
			_, r, err := g.Run(context.Background(), RunRequest{Request: Request{Command: "bash plant.sh", BaseEnv: env}, Sandbox: true})
			if err != nil || !r.Sandbox.Applied {
				t.Fatalf("%v %+v", err, r.Sandbox)
			}
			if out := string(r.Stdout.Data); strings.Contains(out, "PLANTED") || strings.Contains(out, "REMOVED") {
				t.Errorf("the command wrote in the run records: %s", out)
			}
			if _, err := os.Lstat(filepath.Join(runs, "planted.json")); err == nil {
				t.Errorf("a record was planted")
			}
		})
	}
}

// TestRunRecordsMalformed: a record that cannot be trusted (not JSON, a
// wrong version, a path that is not clean, a symbolic link, a FIFO, a
// directory of records others may write) makes the check deny with a
// reason; none panics or hangs. A record of a project that is gone is
// dropped.
func TestRunRecordsMalformed(t *testing.T) {
	root, runs := qProject(t, "true\n")
	good := fmt.Sprintf(`{"version":1,"root":%q,"pid":1,"started":"2026-01-01T00:00:00Z","names":[".cmdguard.yaml"],"files":[],"absent":[]}`, root)
	cases := map[string]func(p string) error{
		"garbage": func(p string) error { return os.WriteFile(p, []byte("{not json"), 0o600) },
		"empty":   func(p string) error { return os.WriteFile(p, nil, 0o600) },
		"version": func(p string) error {
			return os.WriteFile(p, []byte(strings.Replace(good, `"version":1`, `"version":7`, 1)), 0o600)
		},
		"unclean root": func(p string) error {
			return os.WriteFile(p, []byte(strings.Replace(good, root, root+"/../x", 1)), 0o600)
		},
		"bad name": func(p string) error {
			return os.WriteFile(p, []byte(strings.Replace(good, `".cmdguard.yaml"`, `"../x"`, 1)), 0o600)
		},
		"anchor": func(p string) error {
			return os.WriteFile(p, []byte(strings.Replace(good, `"absent":[]`, `"absent":[{"path":"/a/b","anchor":"/c","why":"x"}]`, 1)), 0o600)
		},
		"unknown key": func(p string) error {
			return os.WriteFile(p, []byte(strings.Replace(good, `"pid":1`, `"pid":1,"run":"rm -rf /"`, 1)), 0o600)
		},
		"symlink":   func(p string) error { return os.Symlink("/etc/passwd", p) },
		"fifo":      func(p string) error { return syscall.Mkfifo(p, 0o600) },
		"directory": func(p string) error { return os.Mkdir(p, 0o700) },
	}
	for name, plant := range cases {
		t.Run(name, func(t *testing.T) {
			if err := os.MkdirAll(runs, 0o700); err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(runs, "x.json")
			if err := plant(p); err != nil {
				t.Fatal(err)
			}
			defer os.RemoveAll(p)
			done := make(chan Decision, 1)
			go func() { done <- qVerdict(t, root, "") }()
			select {
			case d := <-done:
				if d.Verdict != Deny || d.Reasons[0].Rule != "sandbox.quarantine" || !strings.Contains(d.Reasons[0].Message, p) {
					t.Errorf("%s %+v, want deny sandbox.quarantine naming %s", d.Verdict, d.Reasons, p)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("the check hangs")
			}
		})
	}
	t.Run("others may write", func(t *testing.T) {
		if err := os.Chmod(runs, 0o777); err != nil {
			t.Fatal(err)
		}
		defer os.Chmod(runs, 0o700)
		if d := qVerdict(t, root, ""); d.Verdict != Deny || d.Reasons[0].Rule != "sandbox.quarantine" {
			t.Errorf("%s %+v, want deny", d.Verdict, d.Reasons)
		}
	})
	t.Run("project gone", func(t *testing.T) {
		p := filepath.Join(runs, "gone.json")
		gone := strings.Replace(good, root, filepath.Join(filepath.Dir(root), "gone"), 1)
		if err := os.WriteFile(p, []byte(gone), 0o600); err != nil {
			t.Fatal(err)
		}
		if d := qVerdict(t, root, ""); d.Verdict != Ask {
			t.Errorf("%s %+v, want ask", d.Verdict, d.Reasons)
		}
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("the record of a project that is gone is still there")
		}
	})
}

// TestSandboxHideAbsentWatched: a hide: entry of the home directory that
// does not exist (here ~/.npmrc, whose script-shell npm runs) is watched
// as an absent protect: one: a sandboxed command that may write the home
// (writable: ~/) and creates it has it moved aside. Without the sandbox
// it stays for the next command.
func TestSandboxHideAbsentWatched(t *testing.T) {
	t.Parallel()
	const pol = "version: 1\ndefault: allow\nsandbox:\n  network: false\n  writable: [%q]\n  hide: [\"~/.npmrc\", \"~/.tool/credentials\"]\n"
	for _, sandboxed := range []bool{false, true} {
		p := newSBProject(t, sbPolicy, false)
		if err := os.WriteFile(filepath.Join(p.root, ".cmdguard.yaml"), []byte(fmt.Sprintf(pol, p.home)), 0o644); err != nil {
			t.Fatal(err)
		}
		r := p.mustRun(`printf 'script-shell=/tmp/evil\n' > ~/.npmrc && mkdir -p ~/.tool && echo key=x > ~/.tool/credentials`, sandboxed)
		for _, f := range []string{".npmrc", ".tool/credentials"} {
			_, err := os.Lstat(filepath.Join(p.home, f))
			if !sandboxed {
				if err != nil {
					t.Fatalf("without the sandbox, ~/%s was not created: the case proves nothing\n%s", f, sbOutput(r))
				}
				continue
			}
			if !r.Sandbox.Applied {
				t.Fatalf("sandbox not applied: %+v", r.Sandbox)
			}
			if err == nil {
				t.Errorf("~/%s is still there after the sandboxed run; quarantined %+v", f, r.Sandbox.Quarantined)
			}
		}
		if sandboxed {
			found := 0
			for _, q := range r.Sandbox.Quarantined {
				if q.Reason == sandboxplan.WhyHidden && q.Error == "" && q.MovedTo != "" {
					found++
				}
			}
			if found != 2 {
				t.Errorf("quarantined %+v, want both hidden paths moved aside", r.Sandbox.Quarantined)
			}
		}
	}
}
