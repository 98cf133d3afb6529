package exec_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/cmdguard/cmdguard/exec"
	"github.com/cmdguard/cmdguard/exec/internal/sandboxinit"
)

// These tests run the same command with and without the sandbox: without
// it, the command must reach the secret or change the protected file, so
// that each case proves something. They pass as root and as a normal user
// (.ci/run runs them as both).

const secret = "TOPSECRET-7f3a"

func projectSandbox(dir string) *exec.Sandbox {
	return &exec.Sandbox{
		Hide:    []string{filepath.Join(dir, ".env"), filepath.Join(dir, "secrets")},
		Protect: []string{filepath.Join(dir, ".git/config"), filepath.Join(dir, ".git/hooks")},
	}
}

func output(r exec.Result) string { return string(r.Stdout.Data) + string(r.Stderr.Data) }

func TestSandboxHides(t *testing.T) {
	t.Parallel()
	// need: the programs a case runs beyond bash and the basic tools; a
	// case whose program is missing reaches nothing, in or out of the
	// sandbox, and proves nothing.
	cases := []struct {
		name, command string
		need          []string
	}{
		{"cat", `cat .env`, nil},
		{"cat dir", `cat secrets/db.txt`, nil},
		{"python", `python3 -c "print(open('.env').read())"`, []string{"python3"}},
		{"grep -r", `grep -r ` + secret + ` .`, nil},
		{"symlink made inside", `ln -s .env l && cat l`, nil},
		{"symlink to dir made inside", `ln -s secrets s && cat s/db.txt`, nil},
		{"hard link made inside", `ln .env h; cat h`, nil},
		{"proc self root", `cat /proc/self/root$DIR/.env`, nil},
		{"proc self cwd", `cat /proc/self/cwd/.env`, nil},
		{"proc of the caller", `cat /proc/$PPID/root$DIR/.env`, nil},
		{"cd", `cd secrets && cat db.txt`, nil},
		{"cd up and back", `cd .. && cd "$DIR/./secrets/../secrets" && cat ./db.txt`, nil},
		{"rename", `mv .env x; cat x; mv secrets s2; cat s2/db.txt`, nil},
		{"rename project", `cd .. && mv "$DIR" "$DIR.x"; cat "$DIR.x/.env"; mv "$DIR.x" "$DIR"`, nil},
		{"umount", `umount .env; umount secrets; cat .env secrets/db.txt`, []string{"umount"}},
		{"nested user namespace", `unshare -Urm sh -c 'umount -l .env; umount -l secrets; cat .env secrets/db.txt'`, []string{"unshare", "umount"}},
		{"copy out", `cp .env /tmp/cg-copy-$$ && cat /tmp/cg-copy-$$; rm -f /tmp/cg-copy-$$`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for _, p := range c.need {
				needProgram(t, p)
			}
			without := sandboxRun(t, sandboxProject(t), c.command, nil)
			if !strings.Contains(output(without), secret) {
				t.Fatalf("without the sandbox, %q does not reach the secret, so this case proves nothing:\n%s", c.command, output(without))
			}
			dir := sandboxProject(t)
			r := sandboxRun(t, dir, c.command, projectSandbox(dir))
			if strings.Contains(output(r), secret) {
				t.Errorf("in the sandbox, %q read the secret:\n%s", c.command, output(r))
			}
			if r.Sandbox == nil || !r.Sandbox.Applied || r.Sandbox.Hidden != 2 {
				t.Errorf("report = %+v, want applied with 2 hidden", r.Sandbox)
			}
		})
	}
}

func TestSandboxProtects(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, command string
		need          []string
	}{
		{"append config", `echo '[core] hooksPath = /tmp' >> .git/config`, nil},
		{"write hook", `printf '#!/bin/sh\necho pwned\n' > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit`, nil},
		{"python", `python3 -c "open('.git/config','a').write('[alias]\n')"`, []string{"python3"}},
		{"replace config", `echo evil > c && mv -f c .git/config`, nil},
		{"remove config", `rm -f .git/config; echo evil > .git/config`, nil},
		{"remove hooks", `rm -rf .git/hooks; mkdir .git/hooks; echo evil > .git/hooks/pre-commit`, nil},
		{"rename git dir", `mv .git .git.old && mkdir -p .git/hooks && echo evil > .git/config && echo evil > .git/hooks/pre-commit`, nil},
		{"rename project", `cd .. && mv "$DIR" "$DIR.old" && mkdir -p "$DIR/.git/hooks" && echo evil > "$DIR/.git/config" && echo evil > "$DIR/.git/hooks/pre-commit"`, nil},
		{"symlink swap", `rm -rf .git/hooks && ln -s /tmp .git/hooks; echo evil > .git/hooks/pre-commit`, nil},
	}
	changed := func(dir string) string {
		var why []string
		if data, err := os.ReadFile(filepath.Join(dir, ".git/config")); err != nil || !bytes.Equal(data, []byte("[core]\n\tbare = false\n")) {
			why = append(why, fmt.Sprintf("config now %q (%v)", data, err))
		}
		if _, err := os.Lstat(filepath.Join(dir, ".git/hooks/pre-commit")); err == nil {
			why = append(why, "hooks/pre-commit exists")
		}
		if fi, err := os.Lstat(filepath.Join(dir, ".git/hooks")); err != nil || !fi.IsDir() {
			why = append(why, "hooks is no longer a directory")
		}
		return strings.Join(why, "; ")
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			for _, p := range c.need {
				needProgram(t, p)
			}
			dir := sandboxProject(t)
			sandboxRun(t, dir, c.command, nil)
			if changed(dir) == "" {
				t.Fatalf("without the sandbox, %q changes nothing, so this case proves nothing", c.command)
			}
			dir = sandboxProject(t)
			r := sandboxRun(t, dir, c.command, projectSandbox(dir))
			if why := changed(dir); why != "" {
				t.Errorf("in the sandbox, %q: %s\n%s", c.command, why, output(r))
			}
			if r.Sandbox == nil || r.Sandbox.Protected != 2 {
				t.Errorf("report = %+v, want 2 protected", r.Sandbox)
			}
		})
	}
}

// TestSandboxOrdinaryWork checks that what is neither hidden nor
// protected works as usual: reading, writing, the git directory's other
// files, the loopback interface.
func TestSandboxOrdinaryWork(t *testing.T) {
	t.Parallel()
	dir := sandboxProject(t)
	cmd := `set -e; cat main.txt; echo more >> main.txt; mkdir -p build && echo x > build/out;
		echo ref > .git/HEAD; rm build/out; ls secrets | wc -l; test ! -s .env; echo done`
	r := sandboxRun(t, dir, cmd, projectSandbox(dir))
	if r.ExitCode == nil || *r.ExitCode != 0 || !strings.Contains(string(r.Stdout.Data), "done") {
		t.Fatalf("%s\n%s", r.Explain(), output(r))
	}
	if data, _ := os.ReadFile(filepath.Join(dir, "main.txt")); string(data) != "hello\nmore\n" {
		t.Errorf("main.txt = %q", data)
	}
}

func TestSandboxNetwork(t *testing.T) {
	t.Parallel()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	cmd := fmt.Sprintf(`exec 3<>/dev/tcp/127.0.0.1/%d && echo connected`, port)
	dir := sandboxProject(t)
	for _, network := range []bool{true, false} {
		r := sandboxRun(t, dir, cmd, &exec.Sandbox{Network: network})
		if got := strings.Contains(string(r.Stdout.Data), "connected"); got != network {
			t.Errorf("Network %v: connected = %v, want %v\n%s", network, got, network, output(r))
		}
		if r.Sandbox == nil || r.Sandbox.Network != network || slices.Contains(r.Sandbox.Layers, "net") == network {
			t.Errorf("Network %v: report %+v", network, r.Sandbox)
		}
	}
	// Without a network, the command still has its own loopback (bash
	// cannot listen: python3 can).
	t.Run("own loopback", func(t *testing.T) {
		needProgram(t, "python3")
		r := sandboxRun(t, dir, `python3 -c "
import socket
s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen()
c = socket.create_connection(s.getsockname()); print('loopback ok')"`, &exec.Sandbox{})
		if !strings.Contains(string(r.Stdout.Data), "loopback ok") {
			t.Errorf("own loopback: %s", output(r))
		}
	})
}

// TestSandboxOutside checks the Landlock layer: the command cannot signal
// or inspect processes outside the sandbox.
func TestSandboxOutside(t *testing.T) {
	t.Parallel()
	dir := sandboxProject(t)
	// Another process of the person's, with a password on its command
	// line.
	other := osexec.Command("bash", "-c", "sleep 30; :", "password="+secret)
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { other.Process.Kill(); other.Wait() }()
	cmd := fmt.Sprintf(`kill -0 %[1]d && echo signalled; tr "\\0" "\\n" < /proc/%[1]d/environ | grep -q ^PATH= && echo inspected
		cat /proc/[0-9]*/cmdline | tr "\\0" " " | grep -q "password=[%[2]c]%[3]s" && echo cmdline
		echo procs $(ls -d /proc/[0-9]* | wc -l)`, os.Getpid(), secret[0], secret[1:])
	if r := sandboxRun(t, dir, cmd, nil); !strings.Contains(string(r.Stdout.Data), "signalled\ninspected\ncmdline\n") {
		t.Fatalf("without the sandbox: %s", output(r))
	}
	r := sandboxRun(t, dir, cmd, &exec.Sandbox{})
	out := string(r.Stdout.Data)
	if strings.Contains(out, "signalled") || strings.Contains(out, "inspected") || strings.Contains(out, "cmdline") {
		t.Errorf("in the sandbox: %s", output(r))
	}
	// The setup, bash, the subshell of $(…), its ls and wc: nothing else.
	if n := 0; !strings.Contains(out, "procs ") || func() bool { fmt.Sscanf(out[strings.Index(out, "procs "):], "procs %d", &n); return n > 5 || n < 2 }() {
		t.Errorf("in the sandbox, /proc lists more than the run's processes: %s", output(r))
	}
	if !slices.Contains(r.Sandbox.Layers, "landlock") || r.Sandbox.LandlockABI < 6 || !slices.Contains(r.Sandbox.Layers, "pid") {
		t.Errorf("report %+v, want the pid and landlock layers with ABI ≥ 6 on this kernel", r.Sandbox)
	}
}

// TestSandboxLifecycle checks that the executor drives a sandboxed
// command as any other: exit status, death by signal, timeout, kill,
// stdin, a relative directory.
func TestSandboxLifecycle(t *testing.T) {
	t.Parallel()
	dir := sandboxProject(t)
	sb := projectSandbox(dir)
	if r := sandboxRun(t, dir, "exit 7", sb); r.Status != exec.StatusCompleted || r.ExitCode == nil || *r.ExitCode != 7 {
		t.Errorf("exit 7: %+v", exitOf(r))
	}
	if r := sandboxRun(t, dir, "kill -USR1 $$", sb); r.Signal != "SIGUSR1" || r.ShellCode() != 128+10 {
		t.Errorf("kill -USR1 $$: %+v", exitOf(r))
	}
	r := run(t, exec.Cmd{Command: "trap '' TERM; sleep 60", Dir: dir, HardTimeout: 100 * time.Millisecond, Grace: 100 * time.Millisecond, Sandbox: sb})
	if r.Status != exec.StatusTimedOut || r.Signal != "SIGKILL" {
		t.Errorf("timeout: %+v", exitOf(r))
	}
	p, err := exec.Start(testContext(t), exec.Cmd{Command: "cat; echo end", Dir: dir, StdinPipe: true, Sandbox: sb})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Release()
	p.Write(testContext(t), []byte("typed\n"))
	p.CloseStdin()
	if r, _ := p.Wait(testContext(t)); string(r.Stdout.Data) != "typed\nend\n" {
		t.Errorf("stdin: %q", r.Stdout.Data)
	}
	p, err = exec.Start(testContext(t), exec.Cmd{Command: "sleep 60", Dir: dir, Sandbox: sb})
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := p.Kill(0); r.Status != exec.StatusKilled || r.Signal != "SIGTERM" {
		t.Errorf("Kill: %+v", exitOf(r))
	}
	p.Release()
	wd, _ := os.Getwd()
	rel, err := filepath.Rel(wd, filepath.Join(dir, "secrets"))
	if err != nil {
		t.Fatal(err)
	}
	if r := run(t, exec.Cmd{Command: "pwd; ls", Dir: rel, Sandbox: sb}); string(r.Stdout.Data) != filepath.Join(dir, "secrets")+"\n" {
		t.Errorf("relative Dir %s (a hidden directory): %q", rel, output(r))
	}
}

func TestSandboxSetupFails(t *testing.T) {
	t.Parallel()
	dir := sandboxProject(t)
	marker := filepath.Join(dir, "ran")
	bad := []*exec.Sandbox{
		{Hide: []string{"relative/.env"}},
		{Hide: []string{dir + "/./.env"}},
		{Err: errors.New("hidden file .env has 1 other hard link(s)")},
		{Hide: []string{filepath.Join(dir, "link")}}, // a symbolic link, made below
	}
	if err := os.Symlink(".env", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	for _, sb := range bad {
		_, err := exec.Start(testContext(t), exec.Cmd{Command: "touch " + marker, Dir: dir, Sandbox: sb})
		if err == nil || !strings.Contains(err.Error(), "sandbox") {
			t.Errorf("Start with %+v: err = %v, want a sandbox error", sb, err)
		}
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("Start with %+v: the command ran", sb)
		}
		opt := *sb
		opt.Optional = true
		r := run(t, exec.Cmd{Command: "touch " + marker, Dir: dir, Sandbox: &opt})
		if r.Sandbox == nil || r.Sandbox.Applied || r.Sandbox.Error == "" {
			t.Errorf("Optional %+v: report %+v, want not applied, with the error", sb, r.Sandbox)
		}
		if err := os.Remove(marker); err != nil {
			t.Errorf("Optional %+v: the command did not run: %v", sb, err)
		}
	}
}

func TestSandboxMissingPaths(t *testing.T) {
	t.Parallel()
	dir := sandboxProject(t)
	sb := &exec.Sandbox{Hide: []string{filepath.Join(dir, "none")}, Protect: []string{filepath.Join(dir, "none/x")}}
	r := sandboxRun(t, dir, "echo ok", sb)
	if string(r.Stdout.Data) != "ok\n" || r.Sandbox.Hidden != 0 || r.Sandbox.Protected != 0 {
		t.Errorf("%s %+v", output(r), r.Sandbox)
	}
}

// BenchmarkSandboxTrue measures start to exit of `bash -c true` in the
// sandbox; compare with BenchmarkStartTrue. The hidden paths are made
// with -bench's first iteration.
func BenchmarkSandboxTrue(b *testing.B) {
	for _, n := range []int{0, 1000} {
		for _, network := range []bool{true, false} {
			b.Run(fmt.Sprintf("hidden=%d/network=%v", n, network), func(b *testing.B) {
				dir, err := filepath.EvalSymlinks(b.TempDir())
				if err != nil {
					b.Fatal(err)
				}
				sb := &exec.Sandbox{Network: network}
				for i := range n {
					p := filepath.Join(dir, fmt.Sprintf("s%04d.key", i))
					if err := os.WriteFile(p, []byte(secret), 0o600); err != nil {
						b.Fatal(err)
					}
					sb.Hide = append(sb.Hide, p)
				}
				b.ReportAllocs()
				ctx := context.Background()
				for b.Loop() {
					r, err := exec.Run(ctx, exec.Cmd{Command: "true", Dir: dir, Sandbox: sb})
					if err != nil || r.ExitCode == nil || *r.ExitCode != 0 || r.Sandbox.Hidden != n {
						b.Fatalf("Run(true) = %s, %v, %+v", r.Explain(), err, r.Sandbox)
					}
				}
			})
		}
	}
}

// BenchmarkBareNamespacesTrue is the kernel's share of BenchmarkSandboxTrue:
// /bin/true started directly in new user and mount namespaces (no setup,
// no re-exec), started and reaped.
func BenchmarkBareNamespacesTrue(b *testing.B) {
	for _, flags := range []uintptr{0, syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS, syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWNET} {
		b.Run(fmt.Sprintf("flags=%#x", flags), func(b *testing.B) {
			uid, gid := os.Geteuid(), os.Getegid()
			attr := &syscall.ProcAttr{Sys: &syscall.SysProcAttr{Cloneflags: flags}}
			if flags != 0 {
				attr.Sys.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
				attr.Sys.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
			}
			for b.Loop() {
				pid, _, err := syscall.StartProcess("/bin/true", []string{"true"}, attr)
				if err != nil {
					b.Fatal(err)
				}
				var ws syscall.WaitStatus
				if _, err := syscall.Wait4(pid, &ws, 0, nil); err != nil || ws.ExitStatus() != 0 {
					b.Fatal(err, ws)
				}
			}
		})
	}
}

// TestSandboxSetupSkipsInits checks that the re-executed setup runs
// before the program's other package initialisers: with inittrace, the
// setup's run (which ends in exec and never prints its own line) shows
// the runtime's and syscall's initialisers but not those of os or
// encoding/json, which every program using this package links.
func TestSandboxSetupSkipsInits(t *testing.T) {
	t.Parallel()
	cfg := sandboxinit.Config{Shell: "/bin/true", Argv: []string{"true"}, Dir: "/", Network: true}
	conf, err := os.CreateTemp(t.TempDir(), "conf")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conf.Write(cfg.Encode()); err != nil {
		t.Fatal(err)
	}
	conf.Seek(0, 0)
	status, err := os.CreateTemp(t.TempDir(), "status")
	if err != nil {
		t.Fatal(err)
	}
	cmd := osexec.Command("/proc/self/exe")
	cmd.Env = append(slices.Clone(sandboxinit.Env), "GODEBUG=inittrace=1")
	cmd.ExtraFiles = []*os.File{conf, status}
	uid, gid := os.Geteuid(), os.Getegid()
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}},
		AmbientCaps: []uintptr{21, 8, 12}, // CAP_SYS_ADMIN, CAP_SETPCAP, CAP_NET_ADMIN
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("setup: %v\n%s", err, stderr.String())
	}
	st, _ := os.ReadFile(status.Name())
	if !strings.HasPrefix(string(st), "ok ") {
		t.Fatalf("status %q\n%s", st, stderr.String())
	}
	trace := stderr.String()
	if !strings.Contains(trace, "init syscall @") {
		t.Fatalf("no init trace:\n%s", trace)
	}
	for _, pkg := range []string{"os", "encoding/json", "github.com/cmdguard/cmdguard/exec"} {
		if strings.Contains(trace, "init "+pkg+" @") {
			t.Errorf("package %s was initialised before the setup ran:\n%s", pkg, trace)
		}
	}
}

// TestSandboxEndsEscapees: processes that left the command's session
// (setsid, and one in a user namespace nested in the sandbox's) are
// killed when the command ends, before After runs; without the sandbox
// they outlive the run and write their file.
func TestSandboxEndsEscapees(t *testing.T) {
	t.Parallel()
	needProgram(t, "setsid")
	needProgram(t, "unshare")
	const cmd = `setsid sh -c 'sleep 0.4; echo late > late1' </dev/null >/dev/null 2>&1 &
		unshare -Ur setsid sh -c 'sleep 0.4; echo late > late2' </dev/null >/dev/null 2>&1 &
		sleep 0.1`
	for _, sandboxed := range []bool{false, true} {
		dir := sandboxProject(t)
		var sb *exec.Sandbox
		afterSaw := -1
		if sandboxed {
			sb = projectSandbox(dir)
			sb.After = func() []exec.Quarantined {
				afterSaw = 0
				for _, pid := range pgrepLate(t) {
					if pid != "" {
						afterSaw++
					}
				}
				return []exec.Quarantined{{Path: filepath.Join(dir, "x"), Reason: "test"}}
			}
		}
		r := sandboxRun(t, dir, cmd, sb)
		time.Sleep(800 * time.Millisecond)
		var wrote []string
		for _, f := range []string{"late1", "late2"} {
			if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
				wrote = append(wrote, f)
			}
		}
		if r.Reaper != exec.ExpectedReaper() {
			t.Errorf("Reaper = %q, want %q", r.Reaper, exec.ExpectedReaper())
		}
		if !sandboxed {
			// A cgroup ends them without the sandbox too; the sweep does
			// not, which shows that the case escapes the session.
			if r.Reaper == exec.ReaperCgroup && len(wrote) != 0 {
				t.Errorf("without the sandbox, in a cgroup: the escapees wrote %v, want none\n%s", wrote, output(r))
			}
			if r.Reaper == exec.ReaperSweep && len(wrote) != 2 {
				t.Fatalf("without the sandbox, swept: the escapees wrote %v, want both: the case proves nothing\n%s", wrote, output(r))
			}
			continue
		}
		if len(wrote) != 0 || r.Sandbox.Survivors < 2 {
			t.Errorf("in the sandbox: escapees wrote %v, survivors killed %d, want none and ≥ 2\n%s", wrote, r.Sandbox.Survivors, output(r))
		}
		if afterSaw != 0 || len(r.Sandbox.Quarantined) != 1 || r.Sandbox.Quarantined[0].Reason != "test" {
			t.Errorf("After saw %d sleepers (want 0, after the kill), report %+v", afterSaw, r.Sandbox)
		}
	}
}

// pgrepLate lists the processes whose command line writes a "late" file
// (read from /proc: pgrep may not be installed).
func pgrepLate(t *testing.T) []string {
	var pids []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && bytes.Contains(b, []byte("echo late > late")) {
			pids = append(pids, e.Name())
		}
	}
	return pids
}

// chain is a process that left the command's session and keeps forking
// and exiting (each generation appends to $DIR/chain, starts the next
// and ends), so that no pass over /proc catches it; it stops when
// $DIR/stop exists.
const chain = `setsid bash -c 'c() { [ -e "$DIR/stop" ] || [ "$1" -gt 3000 ] && exit; sleep 0.02; echo x >> "$DIR/chain"; c $(($1 + 1)) & }; c 0' </dev/null >/dev/null 2>&1 &
sleep 0.05`

// chain (above) ends by itself after 3,000 links (about a minute), so
// that a test killed before it writes the stop file leaves no chain
// forking for ever (one did, on a shared machine, for 40 minutes).

// grows reports whether the file keeps growing for a while.
func grows(p string) bool {
	size := func() int64 {
		fi, err := os.Stat(p)
		if err != nil {
			return -1
		}
		return fi.Size()
	}
	before := size()
	time.Sleep(300 * time.Millisecond)
	return size() > before
}

// TestSandboxForkChain: a fork-and-exit chain after setsid outlives an
// unsandboxed run; in the sandbox, 100 runs leave no survivor: the
// kernel ends the PID namespace with its first process.
func TestSandboxForkChain(t *testing.T) {
	t.Parallel()
	needProgram(t, "setsid") // chain's
	dir := sandboxProject(t)
	// Without cmdguard (a bare bash: the executor's own cgroup, where it
	// has one, ends such a chain too), the chain outlives its shell.
	bare := osexec.Command("bash", "-c", chain)
	bare.Dir, bare.Env = dir, []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "DIR=" + dir}
	if out, err := bare.CombinedOutput(); err != nil {
		t.Fatalf("bash -c chain: %v\n%s", err, out)
	}
	lives := grows(filepath.Join(dir, "chain"))
	os.WriteFile(filepath.Join(dir, "stop"), nil, 0o644)
	if !lives {
		t.Fatal("without the sandbox, the chain did not outlive the run: the case proves nothing")
	}
	time.Sleep(100 * time.Millisecond)
	os.Remove(filepath.Join(dir, "stop"))
	os.Remove(filepath.Join(dir, "chain"))
	sb := projectSandbox(dir)
	for i := range 100 {
		r := sandboxRun(t, dir, chain, sb)
		if !r.Sandbox.Applied || r.ExitCode == nil || *r.ExitCode != 0 {
			t.Fatalf("run %d: %+v %s", i, r.Sandbox, output(r))
		}
	}
	if grows(filepath.Join(dir, "chain")) {
		os.WriteFile(filepath.Join(dir, "stop"), nil, 0o644)
		t.Fatal("in the sandbox: a chain survived its run")
	}
	if _, err := os.Stat(filepath.Join(dir, "chain")); err != nil {
		t.Fatalf("in the sandbox, the chain never ran: the case proves nothing: %v", err)
	}
}

// sandboxKillHelperEnv makes the test binary a program that runs the
// chain in the sandbox (or not) and waits, to be SIGKILLed.
const sandboxKillHelperEnv = "CMDGUARD_TEST_SANDBOX_KILL"

func init() {
	dir, ok := os.LookupEnv(sandboxKillHelperEnv)
	if !ok {
		return
	}
	var sb *exec.Sandbox
	if os.Getenv("SANDBOXED") == "1" {
		sb = projectSandbox(dir)
	}
	exec.Run(context.Background(), exec.Cmd{
		Command: chain + "\nsleep 60",
		Dir:     dir,
		Env:     []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "DIR=" + dir},
		Sandbox: sb,
	})
	os.Exit(0)
}

// TestSandboxCallerKilled: SIGKILL of the program running a sandboxed
// command leaves no process of the run (without the sandbox, the chain
// that left the session lives on).
func TestSandboxCallerKilled(t *testing.T) {
	t.Parallel()
	needProgram(t, "setsid") // chain's
	for _, sandboxed := range []string{"0", "1"} {
		dir := sandboxProject(t)
		cmd := osexec.Command("/proc/self/exe", "-test.run", "^$")
		cmd.Env = append(os.Environ(), sandboxKillHelperEnv+"="+dir, "SANDBOXED="+sandboxed)
		if sandboxed == "0" {
			// The control: the executor's fallback (no cgroup to end the
			// run with), whose end-of-run sweep a SIGKILL skips.
			cmd.Env = append(cmd.Env, "CMDGUARD_EXEC_REAPER=sweep")
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(20 * time.Second)
		for {
			if _, err := os.Stat(filepath.Join(dir, "chain")); err == nil || time.Now().After(deadline) {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
		cmd.Process.Kill()
		cmd.Wait()
		lives := grows(filepath.Join(dir, "chain"))
		os.WriteFile(filepath.Join(dir, "stop"), nil, 0o644)
		if sandboxed == "0" && !lives {
			t.Fatal("without the sandbox, the chain did not outlive its caller: the case proves nothing")
		}
		if sandboxed == "1" && lives {
			t.Error("in the sandbox: the chain outlived the SIGKILLed caller")
		}
		if _, err := os.Stat(filepath.Join(dir, "chain")); err != nil {
			t.Errorf("sandboxed=%s: the chain never ran: %v", sandboxed, err)
		}
	}
}

// TestSandboxWritesOnlyWhereWorkHappens: configuration in the home
// directory that becomes code at a later unsandboxed command (a file
// ~/.gitconfig includes, ~/.bash_aliases, ~/.local/bin/git, Go's env
// file, ~/.npmrc, ~/.ssh/config) is written without the sandbox; with a
// read-only sandbox, every write fails, and what it writes to /tmp and a
// cache is gone after the run, while the project stays writable.
func TestSandboxWritesOnlyWhereWorkHappens(t *testing.T) {
	t.Parallel()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(base, "home")
	proj := filepath.Join(base, "proj")
	cache := filepath.Join(home, ".cache/go-build")
	for _, d := range []string{home + "/.ssh", home + "/.local/bin", home + "/.config/go", proj, cache} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	plants := []string{".gitconfig.d", ".bash_aliases", ".local/bin/git", ".config/go/env", ".npmrc", ".ssh/config"}
	var cmd strings.Builder
	for _, p := range plants {
		fmt.Fprintf(&cmd, "echo planted > %q 2>/dev/null && echo wrote %s\n", filepath.Join(home, p), p)
	}
	fmt.Fprintf(&cmd, "echo x > %q && echo wrote cache\n", filepath.Join(cache, "entry"))
	fmt.Fprintf(&cmd, "echo x > /tmp/cmdguard-sandbox-%d && echo wrote tmp\n", os.Getpid())
	cmd.WriteString("echo x > out && echo wrote project\n")
	cmd.WriteString("test -d ~/.ssh && echo home in view\n") // /tmp is a layer over the real one
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home}
	r := run(t, exec.Cmd{Command: cmd.String(), Dir: proj, Env: env})
	for _, p := range plants {
		if !strings.Contains(string(r.Stdout.Data), "wrote "+p) {
			t.Fatalf("without the sandbox, %s was not written: the case proves nothing\n%s", p, output(r))
		}
		os.Remove(filepath.Join(home, p))
	}
	os.Remove(filepath.Join(cache, "entry"))
	tmpFile := fmt.Sprintf("/tmp/cmdguard-sandbox-%d", os.Getpid())
	os.Remove(tmpFile)
	os.Remove(filepath.Join(proj, "out"))

	sb := &exec.Sandbox{ReadOnly: true, Writable: []string{proj}, Cow: []string{cache}}
	r = run(t, exec.Cmd{Command: cmd.String(), Dir: proj, Env: env, Sandbox: sb})
	if !r.Sandbox.Applied {
		t.Fatalf("not applied: %+v", r.Sandbox)
	}
	out := string(r.Stdout.Data)
	// The home here is under /tmp: the writes went to the run's private
	// /tmp and are gone. In a home outside /tmp they fail (below).
	for _, p := range plants {
		if _, err := os.Stat(filepath.Join(home, p)); err == nil {
			t.Errorf("in the sandbox, %s exists after the run", p)
		}
	}
	for _, want := range []string{"wrote cache", "wrote tmp", "wrote project", "home in view"} {
		if !strings.Contains(out, want) {
			t.Errorf("in the sandbox: %q missing\n%s", want, output(r))
		}
	}
	if _, err := os.Stat(filepath.Join(cache, "entry")); err == nil {
		t.Errorf("the cache entry written in the sandbox outlived the run")
	}
	if _, err := os.Stat(tmpFile); err == nil {
		os.Remove(tmpFile)
		t.Errorf("the /tmp file written in the sandbox outlived the run")
	}
	if _, err := os.Stat(filepath.Join(proj, "out")); err != nil {
		t.Errorf("the project file written in the sandbox is gone: %v", err)
	}
	// The caller's real home (outside /tmp): read-only.
	realHome, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(realHome, fmt.Sprintf(".cmdguard-sandbox-test-%d", os.Getpid()))
	write := fmt.Sprintf("echo planted > %q", f)
	if r := run(t, exec.Cmd{Command: write, Dir: proj, Env: env}); r.ExitCode == nil || *r.ExitCode != 0 {
		t.Fatalf("without the sandbox, %s could not be written: the case proves nothing\n%s", f, output(r))
	}
	os.Remove(f)
	r = run(t, exec.Cmd{Command: write, Dir: proj, Env: env, Sandbox: sb})
	if _, err := os.Stat(f); err == nil {
		os.Remove(f)
		t.Errorf("in the sandbox, %s was written: %s", f, output(r))
	}
	// A home under /tmp (a throwaway user's, as scripts/fresh-clone.sh
	// makes) is in the run's private /tmp: the write is gone with it, or
	// fails (EOVERFLOW for a non-root caller, where a directory on the
	// way belongs to a user the sandbox does not map), as checked above.
	if underTmp := strings.HasPrefix(realHome+"/", "/tmp/"); !underTmp && !strings.Contains(output(r), "Read-only file system") {
		t.Errorf("in the sandbox, %s: %s, want EROFS", f, output(r))
	}
}

// connectHelperEnv makes the test binary a client that connects to each
// Unix socket its value lists (one a line; "@name" is abstract) and
// prints "connected PATH" or "refused PATH: ERROR" for each.
const connectHelperEnv = "CMDGUARD_TEST_CONNECT"

func init() {
	list, ok := os.LookupEnv(connectHelperEnv)
	if !ok {
		return
	}
	for p := range strings.SplitSeq(list, "\n") {
		c, err := net.DialTimeout("unix", p, 2*time.Second)
		if err != nil {
			fmt.Printf("refused %s: %v\n", p, err)
			continue
		}
		// The server answers once it has run the request.
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		b := make([]byte, 3)
		n, _ := c.Read(b)
		c.Close()
		fmt.Printf("connected %s (%q)\n", p, b[:n])
	}
	os.Exit(0)
}

// outsideServer listens on the Unix socket path (abstract when it starts
// with @) as a person's server outside the sandbox does (a terminal
// multiplexer's, which runs what a client asks): each connection writes
// the file mark. It stops with the test.
func outsideServer(t *testing.T, path, mark string) {
	t.Helper()
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			os.WriteFile(mark, []byte("the server ran a client's request\n"), 0o644)
			c.Write([]byte("ok\n"))
			c.Close()
		}
	}()
}

// TestSandboxSockets: a server outside the sandbox that listens on a Unix
// socket (in the home directory, in the runtime directory, elsewhere
// outside the project, in /tmp, on an abstract name, or bound while the
// command runs) is reached by an unsandboxed command, through the path,
// a symbolic link or /proc/self/root; in the sandbox, none is, but the
// socket the sandbox lists and one in the writable project.
func TestSandboxSockets(t *testing.T) {
	t.Parallel()
	realHome, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	// Outside /tmp (a copy-on-write layer in the sandbox, which keeps
	// its sockets out of reach already).
	base, err := os.MkdirTemp(realHome, ".cmdguard-sockets-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if base, err = filepath.EvalSymlinks(base); err != nil {
		t.Fatal(err)
	}
	home, other, proj, rundir, marks := base+"/home", base+"/other", base+"/proj", base+"/run", base+"/marks"
	for _, d := range []string{home, other, proj, rundir, marks} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	tmp := sandboxProject(t) // under /tmp
	abstract := fmt.Sprintf("@cmdguard-test-%d-%d", os.Getpid(), time.Now().UnixNano())
	refused := map[string]string{ // path: its server's mark
		home + "/.tmux-sock":                     "home",
		other + "/server":                        "other",
		rundir + "/bus":                          "run",
		tmp + "/s":                               "tmp",
		abstract:                                 "abstract",
		home + "/late":                           "late-home",
		rundir + "/late":                         "late-run",
		proj + "/link-home":                      "home",
		proj + "/link-other":                     "other",
		"/proc/self/root" + home + "/.tmux-sock": "home",
		"/proc/self/root" + other + "/server":    "other",
	}
	reached := map[string]string{
		home + "/agent": "agent", // listed
		proj + "/own":   "own",   // in the writable project
	}
	for p, m := range refused {
		if !strings.Contains(p, "link-") && !strings.HasPrefix(p, "/proc/") && !strings.Contains(p, "/late") {
			outsideServer(t, p, filepath.Join(marks, m))
		}
	}
	for p, m := range reached {
		outsideServer(t, p, filepath.Join(marks, m))
	}
	os.Symlink(home+"/.tmux-sock", proj+"/link-home")
	os.Symlink(other+"/server", proj+"/link-other")
	var targets []string
	for p := range refused {
		targets = append(targets, p)
	}
	for p := range reached {
		targets = append(targets, p)
	}
	slices.Sort(targets)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The command tells the test it runs (the late servers start then,
	// after the sandbox is set up), waits for them, and connects.
	command := fmt.Sprintf("touch ready; for i in $(seq 200); do test -e go && break; sleep 0.05; done; %q", exe)
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_RUNTIME_DIR=" + rundir,
		connectHelperEnv + "=" + strings.Join(targets, "\n")}
	try := func(sb *exec.Sandbox) (string, []string) {
		t.Helper()
		for _, f := range []string{proj + "/ready", proj + "/go", home + "/late", rundir + "/late"} {
			os.Remove(f)
		}
		os.RemoveAll(marks)
		os.Mkdir(marks, 0o700)
		done := make(chan struct{})
		started := make(chan struct{})
		go func() {
			defer close(started)
			for range 400 {
				select {
				case <-done:
					return
				case <-time.After(25 * time.Millisecond):
				}
				if _, err := os.Stat(proj + "/ready"); err == nil {
					outsideServer(t, home+"/late", marks+"/late-home")
					outsideServer(t, rundir+"/late", marks+"/late-run")
					os.WriteFile(proj+"/go", nil, 0o644)
					return
				}
			}
		}()
		r := run(t, exec.Cmd{Command: command, Dir: proj, Env: env, Sandbox: sb})
		close(done)
		<-started
		if sb != nil && !r.Sandbox.Applied {
			t.Fatalf("not applied: %+v", r.Sandbox)
		}
		var hit []string
		ents, _ := os.ReadDir(marks)
		for _, e := range ents {
			hit = append(hit, e.Name())
		}
		return output(r), hit
	}
	out, hit := try(nil)
	for _, p := range targets {
		if !strings.Contains(out, "connected "+p+" (\"ok\\n\")\n") {
			t.Fatalf("without the sandbox, %s was not reached: the case proves nothing\n%s", p, out)
		}
	}
	if len(hit) != 9 {
		t.Fatalf("without the sandbox, the servers ran %v, want all nine: the case proves nothing", hit)
	}
	for _, network := range []bool{false, true} {
		sb := &exec.Sandbox{ReadOnly: true, Writable: []string{proj}, Seal: []string{home},
			Sockets: []string{home + "/agent"}, Network: network}
		out, hit := try(sb)
		for p := range refused {
			if !strings.Contains(out, "refused "+p+":") {
				t.Errorf("network %v: in the sandbox, %s was reached\n%s", network, p, out)
			}
		}
		for p := range reached {
			if !strings.Contains(out, "connected "+p+" (\"ok\\n\")\n") {
				t.Errorf("network %v: in the sandbox, %s was not reached\n%s", network, p, out)
			}
		}
		if !slices.Equal(hit, []string{"agent", "own"}) {
			t.Errorf("network %v: in the sandbox, the servers ran %v, want [agent own]", network, hit)
		}
	}
}

// TestSandboxSocketsBelowMount: a home directory with a mount below it
// made outside the sandbox (as /run holds /run/user/UID), which the
// kernel refuses to overlay, still runs sandboxed, and its sockets stay
// out of reach: the one bound at the start directly in it (covered),
// those in the mount and in a subdirectory (each overlaid), one bound
// there during the run. Mounting needs root: as another user, the mount
// cannot be made, and the case is the plain one TestSandboxSockets runs.
func TestSandboxSocketsBelowMount(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Log("not root: no mount can be made outside the sandbox; TestSandboxSockets covers the rest")
		return
	}
	realHome, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	base, err := os.MkdirTemp(realHome, ".cmdguard-sockets-mnt-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	home, proj, marks := base+"/home", base+"/proj", base+"/marks"
	for _, d := range []string{home, home + "/mnt", home + "/sub", proj, marks} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mount("tmpfs", home+"/mnt", "tmpfs", 0, "size=64k"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Unmount(home+"/mnt", syscall.MNT_DETACH) })
	targets := map[string]string{home + "/early": "early", home + "/mnt/m": "mnt", home + "/sub/s": "sub"}
	for p, m := range targets {
		outsideServer(t, p, filepath.Join(marks, m))
	}
	late := home + "/sub/late"
	list := []string{home + "/early", home + "/mnt/m", home + "/sub/s", late}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	command := fmt.Sprintf("touch ready; for i in $(seq 200); do test -e go && break; sleep 0.05; done; %q", exe)
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, connectHelperEnv + "=" + strings.Join(list, "\n")}
	try := func(sb *exec.Sandbox) (string, []string) {
		t.Helper()
		for _, f := range []string{proj + "/ready", proj + "/go", late} {
			os.Remove(f)
		}
		os.RemoveAll(marks)
		os.Mkdir(marks, 0o700)
		done, started := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(started)
			for range 400 {
				select {
				case <-done:
					return
				case <-time.After(25 * time.Millisecond):
				}
				if _, err := os.Stat(proj + "/ready"); err == nil {
					outsideServer(t, late, marks+"/late")
					os.WriteFile(proj+"/go", nil, 0o644)
					return
				}
			}
		}()
		r := run(t, exec.Cmd{Command: command, Dir: proj, Env: env, Sandbox: sb})
		close(done)
		<-started
		if sb != nil && !r.Sandbox.Applied {
			t.Fatalf("not applied: %+v %s", r.Sandbox, output(r))
		}
		var hit []string
		ents, _ := os.ReadDir(marks)
		for _, e := range ents {
			hit = append(hit, e.Name())
		}
		return output(r), hit
	}
	out, hit := try(nil)
	if !slices.Equal(hit, []string{"early", "late", "mnt", "sub"}) {
		t.Fatalf("without the sandbox, the servers ran %v, want all four: the case proves nothing\n%s", hit, out)
	}
	out, hit = try(&exec.Sandbox{ReadOnly: true, Writable: []string{proj}, Seal: []string{home}})
	if len(hit) != 0 {
		t.Errorf("in the sandbox, the servers ran %v\n%s", hit, out)
	}
	for _, p := range list {
		if !strings.Contains(out, "refused "+p+":") {
			t.Errorf("in the sandbox, %s was reached\n%s", p, out)
		}
	}
}

const sandboxOrphanEnv = "CMDGUARD_EXEC_SANDBOX_ORPHAN"

// init makes the test binary the helper of TestSandboxParentKilled when
// it is started as one (before TestMain: the helper is Linux's only).
func init() {
	if m := os.Getenv(sandboxOrphanEnv); m != "" {
		os.Exit(sandboxOrphanHelper(m))
	}
}

// sleepers counts the processes whose command line is "sleep MARKER".
func sleepers(marker string) int {
	n := 0
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err == nil && string(b) == "sleep\x00"+marker+"\x00" {
			n++
		}
	}
	return n
}

// TestSandboxParentKilled: a program killed by SIGKILL during a sandboxed
// run leaves no process of it behind, setsid included, and needs no
// watchdog for that: the run's PID namespace ends with its first process,
// which the kernel kills with the program (Pdeathsig). The program
// starts no watchdog process for a sandboxed run (a bash process each
// `cmdguard run` paid for before).
func TestSandboxParentKilled(t *testing.T) {
	marker := fmt.Sprintf("3%03d.%d", os.Getpid()%1000, time.Now().UnixNano()%1000000)
	cmd := osexec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), sandboxOrphanEnv+"="+marker)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "ready false\n" {
		t.Fatalf("helper said %q, want \"ready false\" (no watchdog for a sandboxed run)", line)
	}
	for start := time.Now(); sleepers(marker) < 3 && time.Since(start) < 10*time.Second; {
		time.Sleep(10 * time.Millisecond) // the sleeps exec after "ready"
	}
	if n := sleepers(marker); n != 3 {
		t.Fatalf("%d sleeps of the run are running before the kill, want 3", n)
	}
	cmd.Process.Kill() // SIGKILL
	cmd.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for sleepers(marker) > 0 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := sleepers(marker); n > 0 {
		t.Errorf("%d processes of the sandboxed run outlived the program that started it", n)
	}
}
