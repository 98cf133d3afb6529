package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/internal/bundle"
	"github.com/cmdguard/cmdguard/internal/decisionlog"
	"github.com/cmdguard/cmdguard/policy"
)

const statusAbout = `Shows what governs the commands checked in --cwd DIR (default: the
current directory): the layers in force — the embedded default or the
project's policy, and the managed policy (` + cmdguard.ManagedPath + `, or
$CMDGUARD_MANAGED) with its state — the decision log's sinks with what
they sent and dropped and their last error, and whether this machine's
kernel sets the sandbox up.
Exit codes: 0 shown, 1 a layer does not load (every check denies), 3 error.`

// statusJSON is status --format json.
type statusJSON struct {
	Cwd     string               `json:"cwd"`
	Root    string               `json:"root"`
	Layers  []layerJSON          `json:"layers"`
	Log     logJSON              `json:"decision_log"`
	Sandbox string               `json:"sandbox"` // "available", or why not
	Sinks   []decisionlog.Health `json:"sinks"`
	// Bundle is the managed file's bundle: its active revision and when
	// it was fetched, the last fetch's error, the last refusal; absent
	// when the managed file names none.
	Bundle *bundleJSON `json:"bundle,omitempty"`
}

type bundleJSON struct {
	bundle.Status
	State string `json:"state"` // "active", "floor" or "error: …"
}

type layerJSON struct {
	Layer string `json:"layer"` // embedded | project | managed
	Path  string `json:"path,omitempty"`
	State string `json:"state"` // in force | absent | error: …
}

type logJSON struct {
	Config string `json:"config"` // the file the decision_log: section came from, or "defaults"
	Error  string `json:"error,omitempty"`
}

func (c *cli) status(args []string) int {
	fs := c.flagSet("status")
	var f gateFlags
	f.register(fs)
	if err := c.parseFlags(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return c.errorf("status: %v", err)
	}
	if fs.NArg() > 0 {
		return c.errorf("status: unexpected arguments %q (use --cwd DIR)", fs.Args())
	}
	g, cwd, err := f.guard()
	if err != nil {
		return c.errorf("status: %v", err)
	}
	st := statusJSON{Cwd: cwd, Root: g.Root()}
	broken := false
	// A check loads the layers: the project's policy, then the managed one.
	ctx, cancel := context.WithTimeout(context.Background(), checkTimeout)
	defer cancel()
	defer g.Close(ctx)
	if _, err := g.Check(ctx, cmdguard.Request{Command: "true", Cwd: cwd, BaseEnv: []string{}}); err != nil {
		broken = true
	}
	switch p := g.Policy(); {
	case p == nil:
		st.Layers = append(st.Layers, layerJSON{Layer: cmdguard.LayerProject, State: "error: the project's policy does not load"})
	case p.IsDefault():
		st.Layers = append(st.Layers, layerJSON{Layer: cmdguard.LayerEmbedded, State: "in force (no " + policy.FileName + " above " + cwd + ")"})
	default:
		st.Layers = append(st.Layers, layerJSON{Layer: cmdguard.LayerProject, Path: p.Path(), State: "in force"})
	}
	m := g.Managed()
	ml := layerJSON{Layer: cmdguard.LayerManaged, Path: m.Path, State: "absent"}
	switch {
	case m.Err != nil:
		ml.State, broken = "error (every check denies): "+m.Err.Error(), true
	case m.InUse:
		ml.State = "in force"
	}
	st.Layers = append(st.Layers, ml)
	switch {
	case m.BundleErr != nil:
		st.Bundle, broken = &bundleJSON{State: "error (every check denies): " + m.BundleErr.Error()}, true
	case m.Bundle != nil && m.Bundle.Revision != "" || m.Bundle != nil && !m.Bundle.Fetched.IsZero():
		st.Bundle = &bundleJSON{Status: *m.Bundle, State: "active"}
	case m.Bundle != nil:
		st.Bundle = &bundleJSON{Status: *m.Bundle, State: "floor"}
	}
	cfg, err := logConfig()
	st.Log.Config = cfg.Source
	if st.Log.Config == "" {
		st.Log.Config = "defaults"
	}
	if err != nil {
		st.Log.Error = err.Error()
	}
	report, _ := decisionlog.ReadReport()
	for _, s := range cfg.Sinks(version()) {
		h := report.Sinks[s.Name()]
		h.Sink = s.Name()
		st.Sinks = append(st.Sinks, h)
	}
	st.Sandbox = "available"
	if err := cmdguard.SandboxAvailable(); err != nil {
		st.Sandbox = "unavailable: " + err.Error()
	}
	if f.format == "json" {
		writeJSON(c.stdout, st)
	} else {
		w := c.stdout
		fmt.Fprintf(w, "cwd:     %s\nroot:    %s\nlayers:\n", st.Cwd, st.Root)
		for _, l := range st.Layers {
			fmt.Fprintf(w, "  %-9s %s", l.Layer, l.State)
			if l.Path != "" {
				fmt.Fprintf(w, "  [%s]", l.Path)
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "decision log (config: %s):\n", st.Log.Config)
		if st.Log.Error != "" {
			fmt.Fprintf(w, "  error: %s\n", st.Log.Error)
		}
		if len(st.Sinks) == 0 {
			fmt.Fprintln(w, "  no sinks")
		}
		for _, h := range st.Sinks {
			fmt.Fprintf(w, "  %s: sent %d, dropped %d, failed writes %d", h.Sink, h.Sent, h.Dropped, h.Failed)
			if !h.LastOK.IsZero() {
				fmt.Fprintf(w, ", last ok %s", h.LastOK.UTC().Format("2006-01-02T15:04:05Z"))
			}
			if h.LastErr != "" {
				fmt.Fprintf(w, ", last error: %s", h.LastErr)
			}
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "sandbox: %s\n", st.Sandbox)
		writeBundle(w, st.Bundle)
	}
	if broken {
		return 1
	}
	return 0
}

// writeBundle writes the bundle lines of status's text.
func writeBundle(w io.Writer, b *bundleJSON) {
	if b == nil {
		fmt.Fprintln(w, "bundle:  none")
		return
	}
	ts := func(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }
	switch b.State {
	case "active":
		rev := b.Revision
		if rev == "" {
			rev = "(no revision in its .manifest)"
		}
		fmt.Fprintf(w, "bundle:  revision %s, fetched %s  [%s]\n", rev, ts(b.Fetched), b.URL)
	case "floor":
		fmt.Fprintf(w, "bundle:  none active: the floor is in force (the embedded default's denies, ask for the rest)  [%s]\n", b.URL)
	default:
		fmt.Fprintf(w, "bundle:  %s\n", b.State)
		return
	}
	if !b.LastAttempt.IsZero() {
		fmt.Fprintf(w, "  last fetch %s", ts(b.LastAttempt))
		if b.LastError != "" {
			fmt.Fprintf(w, ": %s", b.LastError)
		}
		fmt.Fprintln(w)
	}
	if b.Refused != "" {
		fmt.Fprintf(w, "  last bundle refused %s: %s\n", ts(b.RefusedAt), b.Refused)
	}
}
