package exec

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"syscall"

	"github.com/cmdguard/cmdguard/exec/internal/seatbelt"
)

// startSandboxed starts the command under Seatbelt: sandbox-exec reads
// the profile (package seatbelt, from sb) from an unlinked file on fd 3,
// applies it to itself and executes the shell, which every process of the
// command inherits. The parts that need no Mac are in sandbox_seatbelt.go.
//
// Seatbelt kills nothing: the end of the run is the executor's (the
// command's session is ended, as without a sandbox). A sandbox that is not
// Optional starts only on a machine where `cmdguard sandbox selftest`
// has passed (see selftest_record.go).
func startSandboxed(shell string, argv []string, attr *syscall.ProcAttr, sb *Sandbox) (int, *sandboxRun, error) {
	verified := func() error { return checkVerified(runtime.GOOS, currentHost(), SelfTestRecordPath()) }
	if err := seatbeltCheck(sb, os.Stat, verified); err != nil {
		return 0, nil, err
	}
	// The hide patterns become rules before anything is started: one
	// that cannot be translated is a sandbox that cannot be set up.
	hide, err := seatbeltHide(sb.HideFiles, seatbeltFoldCase)
	if err != nil {
		return 0, nil, fmt.Errorf("sandbox: %w", err)
	}
	if len(attr.Files) != 3 {
		return 0, nil, fmt.Errorf("sandbox: want exactly three standard files")
	}
	// The run's private temporary directory, by its real path (TMPDIR is
	// below /var, a link to /private/var).
	tmp, err := os.MkdirTemp("", "cmdguard-run-")
	if err != nil {
		return 0, nil, fmt.Errorf("sandbox: %w", err)
	}
	removeTmp := func() { os.RemoveAll(tmp) }
	if real, err := filepath.EvalSymlinks(tmp); err == nil {
		tmp = real
	}
	ok := false
	defer func() {
		if !ok {
			removeTmp()
		}
	}()

	// The proxy listens on the host's loopback interface (there is no
	// namespace of the command's own); the profile lets the command
	// reach that port only.
	var proxy Proxy
	port := 0
	if sb.Proxy != nil && !sb.Network {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, nil, fmt.Errorf("sandbox: egress proxy: %w", err)
		}
		if err := sb.Proxy.Start(l); err != nil {
			l.Close()
			return 0, nil, fmt.Errorf("sandbox: egress proxy: %w", err)
		}
		proxy, port = sb.Proxy, l.Addr().(*net.TCPAddr).Port
		defer func() {
			if !ok {
				proxy.Stop()
			}
		}()
	}
	profile, err := seatbelt.Profile(seatbeltPolicy(sb, hide, tmp, port))
	if err != nil {
		return 0, nil, fmt.Errorf("sandbox: profile: %w", err)
	}
	pf, err := profileFile(profile)
	if err != nil {
		return 0, nil, fmt.Errorf("sandbox: profile: %w", err)
	}
	defer pf.Close()

	child := *attr
	child.Env = seatbeltEnv(attr.Env, tmp, port)
	child.Files = append(slices.Clip(attr.Files), pf.Fd())
	pid, _, err := syscall.StartProcess(sandboxExec, seatbeltArgv(shell, argv), &child)
	runtime.KeepAlive(pf)
	if err != nil {
		return 0, nil, fmt.Errorf("sandbox: start %s: %w", sandboxExec, err)
	}
	ok = true
	run := &sandboxRun{report: seatbeltReport(sb, hide, proxy != nil), proxy: &seatbeltCleanup{proxy: proxy, remove: removeTmp}}
	return pid, run, nil
}

// profileFile writes profile to a file, opens it again for reading (at
// offset 0: /dev/fd/N on macOS shares the descriptor's offset) and
// unlinks it: no other process can open it by name.
func profileFile(profile string) (*os.File, error) {
	w, err := os.CreateTemp("", "cmdguard-profile-*.sb")
	if err != nil {
		return nil, err
	}
	defer os.Remove(w.Name())
	_, err = w.WriteString(profile)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	return os.Open(w.Name())
}
