package exec

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/cmdguard/cmdguard/exec/internal/seatbelt"
)

// The macOS sandbox (sandbox_darwin.go) starts the command as
// `/usr/bin/sandbox-exec -f /dev/fd/3 SHELL ARGS…`, with the Seatbelt
// profile that package seatbelt writes from the same Sandbox the Linux
// backend gets, read from an unlinked file on fd 3. These are its parts
// that need no Mac: they build and are tested on every system.

// sandboxExec is macOS's sandbox-exec(1).
const sandboxExec = "/usr/bin/sandbox-exec"

// seatbeltProfileFd is the descriptor the profile is read from.
const seatbeltProfileFd = 3

// seatbeltArgv is sandbox-exec's argument list: the profile from fd 3,
// then the shell (by its path: sandbox-exec execs its first operand) and
// the shell's arguments after its name.
func seatbeltArgv(shell string, argv []string) []string {
	out := []string{sandboxExec, "-f", "/dev/fd/" + strconv.Itoa(seatbeltProfileFd), shell}
	if len(argv) > 1 {
		out = append(out, argv[1:]...)
	}
	return out
}

// seatbeltCheck returns why sb cannot be set up with Seatbelt before
// anything is started: the plan's own error, a path that is not clean and
// absolute, sandbox-exec missing (stat is os.Stat), or, for a sandbox
// that is not Optional, a machine where the selftest has not passed
// (verified). Each error makes a required sandbox refuse the command.
func seatbeltCheck(sb *Sandbox, stat func(string) (fs.FileInfo, error), verified func() error) error {
	if sb.Err != nil {
		return fmt.Errorf("sandbox: %w", sb.Err)
	}
	for _, list := range [][]string{sb.Hide, sb.Protect, sb.Absent, sb.Writable, sb.Cow} {
		for _, p := range list {
			if !filepath.IsAbs(p) || filepath.Clean(p) != p || p == "/" {
				return fmt.Errorf("sandbox: path %q is not a clean absolute path below /", p)
			}
		}
	}
	fi, err := stat(sandboxExec)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("sandbox: %s is missing: Seatbelt cannot be applied", sandboxExec)
	case err != nil:
		return fmt.Errorf("sandbox: %w", err)
	case !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0:
		return fmt.Errorf("sandbox: %s is not an executable file", sandboxExec)
	}
	if !sb.Optional {
		if err := verified(); err != nil {
			return fmt.Errorf("sandbox: %w", err)
		}
	}
	return nil
}

// seatbeltPolicy is the profile's policy for sb: its hidden, protected
// and absent paths; the writable places (with ReadOnly: Writable, the
// run's private temporary directory tempDir, and the copy-on-write
// caches, which Seatbelt cannot layer: they are written for real);
// the network, or only the proxy's port on the loopback interface.
func seatbeltPolicy(sb *Sandbox, tempDir string, proxyPort int) seatbelt.Policy {
	p := seatbelt.Policy{
		Hide:            sb.Hide,
		Protect:         sb.Protect,
		Absent:          sb.Absent,
		WriteEverywhere: !sb.ReadOnly,
		Writable:        sb.Writable,
		TempDir:         tempDir,
		Network:         sb.Network,
	}
	if sb.ReadOnly {
		p.CacheDirs = sb.Cow
	}
	if !sb.Network {
		p.ProxyPort = proxyPort
	}
	return p
}

// seatbeltEnv is the command's environment: TMPDIR the run's private
// temporary directory (the rest of /tmp and /var/folders is not
// writable), and the proxy's variables when it has one.
func seatbeltEnv(env []string, tempDir string, proxyPort int) []string {
	out := make([]string, 0, len(env)+1)
	for _, e := range env {
		if !strings.HasPrefix(e, "TMPDIR=") {
			out = append(out, e)
		}
	}
	out = append(out, "TMPDIR="+tempDir+"/")
	if proxyPort != 0 {
		out = proxyEnv(out, proxyPort)
	}
	return out
}

// seatbeltReport is the report of a command started under Seatbelt.
func seatbeltReport(sb *Sandbox, proxy bool) *SandboxReport {
	rep := &SandboxReport{Applied: true, Layers: []string{"seatbelt"}, Network: sb.Network,
		Hidden: len(sb.Hide), Protected: len(sb.Protect)}
	if proxy {
		rep.Layers = append(rep.Layers, "proxy")
	}
	return rep
}

// seatbeltCleanup removes the run's temporary directory and stops its
// proxy when the run is finished: it takes the Proxy's place in the
// sandboxRun, whose finish calls Stop once everything has ended.
type seatbeltCleanup struct {
	proxy  Proxy // nil without one
	remove func()
}

func (c *seatbeltCleanup) Start(net.Listener) error { return errors.New("sandbox: started twice") }

func (c *seatbeltCleanup) Stop() []Connection {
	var conns []Connection
	if c.proxy != nil {
		conns = c.proxy.Stop()
	}
	c.remove()
	return conns
}
