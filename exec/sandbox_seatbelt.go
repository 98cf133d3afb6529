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
	var hideDirs []string
	for _, f := range sb.HideFiles {
		hideDirs = append(hideDirs, f.Dir)
	}
	for _, list := range [][]string{sb.Hide, sb.Protect, sb.Absent, sb.Writable, sb.Cow, hideDirs} {
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

// seatbeltFoldCase says that hide patterns match letters in either case
// on macOS, as the profile's other deny rules do (seatbelt.Policy's
// CaseSensitive stays false): the default APFS volume opens ".ENV" for
// ".env". On a case-sensitive volume this hides more, never less, but
// for git's quirk under core.ignorecase: a pattern with an escaped
// capital letter matches nothing (it is listed in HideSkipped).
const seatbeltFoldCase = true

// seatbeltHidden is what Seatbelt makes of a sandbox's hide patterns:
// the rules of the profile, and for the report the negations it cannot
// honour and the patterns that match nothing.
type seatbeltHidden struct {
	rules     []seatbelt.Rule
	negations []HidePattern
	skipped   []HidePattern
}

// seatbeltHide translates files (see [Sandbox.HideFiles]) into Seatbelt
// rules, the files of each set together, in the order given: a negation
// is weighed only against the patterns of its own set. Its error (a
// directory that is not absolute, a NUL byte) is a sandbox that cannot
// be set up.
func seatbeltHide(files []HideFile, fold bool) (seatbeltHidden, error) {
	var out seatbeltHidden
	var sets []string
	bySet := map[string][]seatbelt.IgnoreFile{}
	sources := map[string]map[string][]string{} // set → Name → Sources
	for _, f := range files {
		if _, ok := bySet[f.Set]; !ok {
			sets = append(sets, f.Set)
			sources[f.Set] = map[string][]string{}
		}
		bySet[f.Set] = append(bySet[f.Set], seatbelt.IgnoreFile{Dir: f.Dir, Name: f.Name, Content: f.Content})
		if f.Sources != nil {
			if _, dup := sources[f.Set][f.Name]; !dup {
				sources[f.Set][f.Name] = f.Sources
			}
		}
	}
	for _, set := range sets {
		tr, err := seatbelt.Translate(bySet[set], seatbelt.TranslateOptions{FoldCase: fold})
		if err != nil {
			return seatbeltHidden{}, fmt.Errorf("hide patterns: %w", err)
		}
		// cite is what the report names for a Source "Name:line".
		cite := func(src string) string {
			i := strings.LastIndexByte(src, ':')
			if i < 0 {
				return src
			}
			n, err := strconv.Atoi(src[i+1:])
			if list, ok := sources[set][src[:i]]; ok && err == nil && n >= 1 && n <= len(list) {
				return list[n-1]
			}
			return src
		}
		out.rules = append(out.rules, tr.Rules...)
		for _, n := range tr.Negations {
			out.negations = append(out.negations, HidePattern{Source: cite(n.Source), Pattern: n.Pattern})
		}
		for _, k := range tr.Skipped {
			out.skipped = append(out.skipped, HidePattern{Source: cite(k.Source), Pattern: k.Pattern, Reason: k.Reason})
		}
	}
	return out, nil
}

// seatbeltPolicy is the profile's policy for sb: its hidden, protected
// and absent paths, and the rules of its hide patterns (hide, from
// seatbeltHide); the writable places (with ReadOnly: Writable, the
// run's private temporary directory tempDir, and the copy-on-write
// caches, which Seatbelt cannot layer: they are written for real);
// the network, or only the proxy's port on the loopback interface.
func seatbeltPolicy(sb *Sandbox, hide seatbeltHidden, tempDir string, proxyPort int) seatbelt.Policy {
	p := seatbelt.Policy{
		Hide:            sb.Hide,
		HideRules:       hide.rules,
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

// seatbeltReport is the report of a command started under Seatbelt,
// with the negations and skipped patterns of hide.
func seatbeltReport(sb *Sandbox, hide seatbeltHidden, proxy bool) *SandboxReport {
	rep := &SandboxReport{Applied: true, Layers: []string{"seatbelt"}, Network: sb.Network,
		Hidden: len(sb.Hide), Protected: len(sb.Protect),
		HideNegations: hide.negations, HideSkipped: hide.skipped}
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
