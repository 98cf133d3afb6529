package exec

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	osexec "os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// SelfTest runs each promise of the sandbox on this machine, in a
// throwaway project, under the same backend that runs commands: a hidden
// file unreadable, a protected file unchanged, a write outside the
// writable places refused, the network off, no process left after the
// end, and (where the backend promises it) a Unix socket outside
// unreachable. Each probe first does its damage without the sandbox (a
// plain bash, outside the executor): a probe whose control does nothing
// cannot pass.
//
// The report is structured, never printed; Passed holds when every
// promised row held. Everything a probe touches is inside the throwaway
// directory, which is removed at the end. See docs/sandbox-macos.md for
// what a pass means on each system.
func SelfTest(ctx context.Context, opts SelfTestOptions) (*SelfTestReport, error) {
	if errPlatform != nil {
		return nil, errPlatform
	}
	h := currentHost()
	rep := &SelfTestReport{OS: h.os, OSVersion: h.osVersion, Version: h.version}
	omit := os.Getenv(selfTestOmitEnv)
	if omit != "" && !slices.Contains(omittable, omit) {
		return nil, fmt.Errorf("exec: %s=%q: the layers that can be left out are %s", selfTestOmitEnv, omit, strings.Join(omittable, ", "))
	}
	rep.Omitted = omit
	env := opts.Env
	if env == nil {
		env = []string{"PATH=/usr/bin:/bin:/usr/sbin:/sbin", "LC_ALL=C"}
	}
	for _, p := range probes {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("exec: selftest: %w", err)
		}
		row := SelfTestRow{Name: p.name, Layer: p.layer, Promise: p.promise}
		if p.promised != nil && !p.promised(runtime.GOOS) {
			row.Status, row.Detail = RowNotPromised, "the "+runtime.GOOS+" sandbox does not promise this"
			rep.Rows = append(rep.Rows, row)
			continue
		}
		runProbe(ctx, p, opts, env, omit, &row, rep)
		rep.Rows = append(rep.Rows, row)
	}
	rep.Passed = omit == "" && len(rep.Rows) > 0
	for _, r := range rep.Rows {
		if r.Status != RowHeld && r.Status != RowNotPromised {
			rep.Passed = false
		}
	}
	return rep, nil
}

// selfTestOmitEnv is the test hook: the selftest leaves the named layer
// (one of omittable) out of the sandbox its probes run in, so that a test
// can show the row for it fails. FOR TESTS ONLY: it only ever weakens the
// selftest's own throwaway sandbox, never a command's, and a report made
// with it never passes (nor is recorded).
const selfTestOmitEnv = "CMDGUARD_SELFTEST_OMIT"

// SelfTestOptions configures [SelfTest]. The zero value is ready to use.
type SelfTestOptions struct {
	// Dir is where the throwaway project is made; "" for the system's
	// temporary directory.
	Dir string
	// Shell is bash's path; "" looks it up in PATH.
	Shell string
	// Env is the probes' environment; nil for a PATH of the system's
	// directories.
	Env []string
}

// A SelfTestReport is what [SelfTest] found. It marshals to the JSON of
// `cmdguard sandbox selftest --format json`.
type SelfTestReport struct {
	// OS is GOOS/GOARCH; OSVersion the kernel's or the system's version;
	// Version cmdguard's (module version and commit).
	OS        string `json:"os"`
	OSVersion string `json:"os_version"`
	Version   string `json:"cmdguard_version"`
	// Passed holds when every row promised here held.
	Passed bool          `json:"passed"`
	Rows   []SelfTestRow `json:"rows"`
	// Layers are those the sandbox reported applying (from the first
	// sandboxed probe).
	Layers []string `json:"layers"`
	// Omitted names the layer the test hook left out ("" normally).
	Omitted string `json:"omitted,omitempty"`
}

// Row statuses.
const (
	RowHeld        = "held"         // the control did the damage; the sandbox stopped it
	RowFailed      = "FAILED"       // the damage was done under the sandbox
	RowNoControl   = "no-control"   // without the sandbox the probe did nothing: nothing proven
	RowError       = "error"        // the probe could not run (the sandbox could not be set up)
	RowNotPromised = "not-promised" // this system's sandbox does not claim it
)

// A SelfTestRow is one promise and what became of it.
type SelfTestRow struct {
	Name    string `json:"name"`
	Layer   string `json:"layer"`
	Promise string `json:"promise"`
	Status  string `json:"status"`
	Detail  string `json:"detail,omitempty"`
}

// A probe is one promise: it prepares a throwaway project, gives the
// script that does the damage, and tells whether the damage was done.
// Adding one is adding an entry to probes.
type probe struct {
	name, layer, promise string
	// promised reports whether the sandbox of goos claims it; nil for
	// every system.
	promised func(goos string) bool
	// prepare makes what the probe needs in w and returns the script
	// (run by bash in w.proj) and the check, called once the run ended.
	prepare func(w *probeWorld) (script string, damaged func(out []byte) (bool, string), err error)
	// sandbox adds what the probe needs to the sandbox (the part of
	// the plan that makes its layer).
	sandbox func(w *probeWorld, sb *Sandbox)
}

// probeWorld is one throwaway project: base holds proj (the project,
// writable) and outside (not writable from the sandbox).
type probeWorld struct {
	base, proj, outside string
	token               string // unique to the world
	cleanup             []func()
}

var probes = []probe{
	{
		name: "hidden-read", layer: "hide", promise: "a hidden file reads empty or is refused",
		prepare: func(w *probeWorld) (string, func([]byte) (bool, string), error) {
			secret := "cmdguard-selftest-secret-" + w.token
			if err := os.WriteFile(filepath.Join(w.proj, ".env"), []byte(secret+"\n"), 0o600); err != nil {
				return "", nil, err
			}
			return "cat .env 2>/dev/null; cat ./.env /dev/null 2>/dev/null; true",
				func(out []byte) (bool, string) {
					if bytes.Contains(out, []byte(secret)) {
						return true, "the hidden file's content was read"
					}
					return false, ""
				}, nil
		},
		sandbox: func(w *probeWorld, sb *Sandbox) { sb.Hide = append(sb.Hide, filepath.Join(w.proj, ".env")) },
	},
	{
		name: "write-outside", layer: "write", promise: "a write outside the writable places does not land",
		prepare: func(w *probeWorld) (string, func([]byte) (bool, string), error) {
			target := filepath.Join(w.outside, "written")
			return "echo pwned > " + shq(target) + " 2>/dev/null; true", func([]byte) (bool, string) {
				if _, err := os.Lstat(target); err == nil {
					return true, "a file was created outside the writable places"
				}
				return false, ""
			}, nil
		},
		sandbox: func(w *probeWorld, sb *Sandbox) { sb.ReadOnly, sb.Writable = true, append(sb.Writable, w.proj) },
	},
	{
		name: "protected-write", layer: "protect", promise: "a protected file stays unchanged (written, renamed, replaced)",
		prepare: func(w *probeWorld) (string, func([]byte) (bool, string), error) {
			file := filepath.Join(w.proj, "protected.txt")
			orig := []byte("original " + w.token + "\n")
			if err := os.WriteFile(file, orig, 0o644); err != nil {
				return "", nil, err
			}
			return "{ echo pwned >> protected.txt; mv -f protected.txt moved.txt && echo pwned > protected.txt; } 2>/dev/null; true",
				func([]byte) (bool, string) {
					b, err := os.ReadFile(file)
					if err != nil || !bytes.Equal(b, orig) {
						return true, "the protected file was changed"
					}
					return false, ""
				}, nil
		},
		sandbox: func(w *probeWorld, sb *Sandbox) {
			sb.Protect = append(sb.Protect, filepath.Join(w.proj, "protected.txt"))
		},
	},
	{
		name: "network-off", layer: "net", promise: "with the network off, a port on the host's 127.0.0.1 is unreachable",
		prepare: func(w *probeWorld) (string, func([]byte) (bool, string), error) {
			l, err := net.Listen("tcp", "127.0.0.1:0")
			if err != nil {
				return "", nil, err
			}
			w.cleanup = append(w.cleanup, func() { l.Close() })
			port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
			return "{ echo hi > /dev/tcp/127.0.0.1/" + port + "; } 2>/dev/null; true", func([]byte) (bool, string) {
				l.(*net.TCPListener).SetDeadline(time.Now().Add(500 * time.Millisecond))
				if c, err := l.Accept(); err == nil {
					c.Close()
					return true, "a connection reached 127.0.0.1:" + port
				}
				return false, ""
			}, nil
		},
		sandbox: func(w *probeWorld, sb *Sandbox) { sb.Network = false },
	},
	{
		name: "survivor", layer: "pid", promise: "no process of the command is left after its end",
		prepare: func(w *probeWorld) (string, func([]byte) (bool, string), error) {
			beat, stop := filepath.Join(w.proj, "beat"), filepath.Join(w.proj, "stop")
			// A heartbeat that ends by itself (100 beats) or at the stop
			// file, detached from the command as far as the system lets
			// a shell script: a session of its own where setsid exists.
			loop := "i=0; while [ $i -lt 100 ] && [ ! -e " + shq(stop) + " ]; do i=$((i+1)); echo $i > " + shq(beat) + "; sleep 0.1; done"
			w.cleanup = append(w.cleanup, func() {
				os.WriteFile(stop, nil, 0o644)
				time.Sleep(300 * time.Millisecond)
			})
			return survivorScript(loop), func([]byte) (bool, string) {
				first, _ := os.ReadFile(beat)
				for range 10 {
					time.Sleep(100 * time.Millisecond)
					now, err := os.ReadFile(beat)
					if err == nil && !bytes.Equal(now, first) {
						return true, "a process of the command was still running after its end"
					}
				}
				return false, ""
			}, nil
		},
		sandbox: func(*probeWorld, *Sandbox) {}, // the run's end is the layer: see omitLayer
	},
	{
		name: "unix-socket", layer: "unix", promise: "a Unix socket outside the run is unreachable",
		// Linux: the socket layer (overlays on homes, /run and the
		// runtime directory, covers on sockets bound at the start); the
		// Seatbelt profile on macOS.
		promised: func(goos string) bool { return goos == "darwin" || goos == "linux" },
		prepare: func(w *probeWorld) (string, func([]byte) (bool, string), error) {
			sock := filepath.Join(w.outside, "s.sock")
			l, err := net.Listen("unix", sock)
			if err != nil {
				return "", nil, err
			}
			w.cleanup = append(w.cleanup, func() { l.Close() })
			// Whichever client the machine has: curl (most have it),
			// nc -U, python3. Without one the control fails: no-control.
			client := "curl -s -m 2 --unix-socket " + shq(sock) + " http://selftest/ >/dev/null 2>&1 || " +
				"echo hi | nc -U " + shq(sock) + " >/dev/null 2>&1 || " +
				"python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).connect(sys.argv[1])' " + shq(sock) + " >/dev/null 2>&1; true"
			return client, func([]byte) (bool, string) {
				l.(*net.UnixListener).SetDeadline(time.Now().Add(500 * time.Millisecond))
				if c, err := l.Accept(); err == nil {
					c.Close()
					return true, "a connection reached " + sock
				}
				return false, ""
			}, nil
		},
		sandbox: func(*probeWorld, *Sandbox) {},
	},
}

// survivorScript starts loop in the background so that it outlives the
// script: in a session of its own where setsid(1) exists (Linux), else
// ignoring the hangup (macOS has no setsid(1); the executor ends the
// command's session there).
func survivorScript(loop string) string {
	return "if command -v setsid >/dev/null; then setsid sh -c " + shq(loop) + " </dev/null >/dev/null 2>&1 &\n" +
		"else (trap '' HUP; sh -c " + shq(loop) + ") </dev/null >/dev/null 2>&1 & fi; true"
}

// runProbe runs p's control and then p under the sandbox, and fills row.
func runProbe(ctx context.Context, p probe, opts SelfTestOptions, env []string, omit string, row *SelfTestRow, rep *SelfTestReport) {
	// The control: a plain bash does the damage.
	done, _, err := probePhase(ctx, p, opts, env, nil, nil)
	switch {
	case err != nil:
		row.Status, row.Detail = RowError, "control: "+err.Error()
		return
	case !done:
		row.Status, row.Detail = RowNoControl, "without the sandbox the probe did no damage: nothing is proven"
		return
	}
	sb := &Sandbox{
		// Optional: an unverified macOS sandbox is still applied (a
		// required one waits for this very selftest); a sandbox that is
		// not applied fails the row below.
		Optional: true,
		// Every layer is on, as in a real run (read-only but the
		// project, no network); the probe adds its paths.
		ReadOnly: true,
	}
	var detail string
	done, detail, err = probePhase(ctx, p, opts, env, func(w *probeWorld) *Sandbox {
		sb.Writable = []string{w.proj}
		p.sandbox(w, sb)
		if omit == p.layer {
			omitLayer(sb, p.layer)
		}
		return sb
	}, &rep.Layers)
	switch {
	case err != nil:
		row.Status, row.Detail = RowError, err.Error()
	case done:
		row.Status, row.Detail = RowFailed, detail
		if omit == p.layer {
			row.Detail += " (layer " + omit + " left out by " + selfTestOmitEnv + ")"
		}
	default:
		row.Status = RowHeld
	}
}

// omittable are the layers the test hook can leave out: the parts of the
// sandbox plan the probes' sandbox is made of. (The end of the run, "pid",
// is the backend's and the executor's own, not a part of the plan.)
var omittable = []string{"hide", "protect", "write", "net"}

// omitLayer takes layer out of sb: the test hook (selfTestOmitEnv).
func omitLayer(sb *Sandbox, layer string) {
	switch layer {
	case "hide":
		sb.Hide = nil
	case "protect":
		sb.Protect = nil
	case "write":
		sb.ReadOnly, sb.Writable = false, nil
	case "net":
		sb.Network = true
	}
}

// probePhase makes a world, runs p's script in it (without a sandbox
// when mk is nil) and reports whether the damage was done.
func probePhase(ctx context.Context, p probe, opts SelfTestOptions, env []string,
	mk func(*probeWorld) *Sandbox, layers *[]string) (bool, string, error) {
	w, err := newWorld(opts.Dir)
	if err != nil {
		return false, "", err
	}
	defer w.remove()
	script, damaged, err := p.prepare(w)
	if err != nil {
		return false, "", err
	}
	// The script's last word: a probe whose shell did not get to its end
	// (bash refused by the sandbox, a crash) proves nothing either way.
	done := "cmdguard-selftest-done-" + w.token
	script = "{ " + script + "\n} </dev/null; echo " + done
	var out []byte
	if mk == nil {
		if out, err = plainBash(ctx, opts.Shell, script, w.proj, env); err != nil {
			return false, "", err
		}
	} else {
		res, err := Run(ctx, Cmd{Command: script, Dir: w.proj, Env: env, Shell: opts.Shell,
			HardTimeout: 30 * time.Second, Sandbox: mk(w)})
		if err != nil {
			return false, "", err
		}
		if res.Sandbox == nil || !res.Sandbox.Applied {
			why := "the sandbox was not applied"
			if res.Sandbox != nil && res.Sandbox.Error != "" {
				why += ": " + res.Sandbox.Error
			}
			return false, "", errors.New(why)
		}
		if *layers == nil {
			*layers = res.Sandbox.Layers
		}
		out = res.Stdout.Data
		if !bytes.Contains(out, []byte(done)) {
			return false, "", fmt.Errorf("the probe's shell did not run to its end under the sandbox (%s): %q",
				res.Status, bytes.TrimSpace(append(out, res.Stderr.Data...)))
		}
	}
	if !bytes.Contains(out, []byte(done)) {
		return false, "", fmt.Errorf("the probe's shell did not run to its end: %q", bytes.TrimSpace(out))
	}
	d, detail := damaged(out)
	return d, detail, nil
}

// plainBash runs script with bash in dir, outside the executor (the
// control of a probe), and returns its output.
func plainBash(ctx context.Context, shell, script, dir string, env []string) ([]byte, error) {
	if shell == "" {
		var err error
		if shell, err = osexec.LookPath("bash"); err != nil {
			return nil, err
		}
	}
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cmd := osexec.CommandContext(ctx, shell, "-c", script)
	cmd.Dir, cmd.Env = dir, env
	return cmd.Output()
}

// newWorld makes a throwaway project under dir, with its real path (the
// sandbox takes paths without symbolic links).
func newWorld(dir string) (*probeWorld, error) {
	base, err := os.MkdirTemp(dir, "cmdguard-selftest-")
	if err != nil {
		return nil, err
	}
	w := &probeWorld{base: base}
	if real, err := filepath.EvalSymlinks(base); err == nil {
		w.base = real
	}
	w.proj, w.outside = filepath.Join(w.base, "proj"), filepath.Join(w.base, "outside")
	for _, d := range []string{w.proj, w.outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			w.remove()
			return nil, err
		}
	}
	var b [8]byte
	rand.Read(b[:])
	w.token = hex.EncodeToString(b[:])
	return w, nil
}

func (w *probeWorld) remove() {
	for _, c := range slices.Backward(w.cleanup) {
		c()
	}
	for range 3 {
		if os.RemoveAll(w.base) == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// shq quotes s for a POSIX shell.
func shq(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
