package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/internal/decisionlog"
)

// loggedCommands are the commands whose decisions are logged.
var loggedCommands = map[string]bool{"check": true, "explain": true, "run": true, "hook": true, "serve": true, "mcp": true, "acp": true}

// managedPath is the managed file the Guards of this process use.
func managedPath() string {
	if p := os.Getenv(cmdguard.ManagedEnv); p != "" {
		return p
	}
	return cmdguard.ManagedPath
}

// logConfig returns the decision log's configuration, and whether the
// default file sink has a place (a user with a home directory, or
// XDG_STATE_HOME).
func logConfig() (decisionlog.Config, error) {
	cfg, err := decisionlog.LoadConfig(managedPath(), decisionlog.UserConfigPath())
	if cfg.File.Path == "" && (cfg.File.Enabled == nil || *cfg.File.Enabled) && !stateDirUsable() {
		off := false
		cfg.File.Enabled = &off
		err = errors.Join(err, errors.New("decision log file: no home directory and no XDG_STATE_HOME"))
	}
	return cfg, err
}

// stateDirUsable reports whether the default state directory lies in a
// home that exists (a test or a service user may have none).
func stateDirUsable() bool {
	if filepath.IsAbs(os.Getenv("XDG_STATE_HOME")) {
		return true
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return false
	}
	fi, err := os.Stat(home)
	return err == nil && fi.IsDir()
}

// startDecisionLog turns the decision log on for command name (one of
// loggedCommands) and returns what closes it: it sends what is queued,
// waiting at most a second, and leaves the sinks' counts for status.
func startDecisionLog(name string) func() {
	if !loggedCommands[name] {
		return func() {}
	}
	cfg, _ := logConfig() // a bad section still logs to the default file; status shows the error
	l := decisionlog.New(decisionlog.Options{Adapter: name, Queue: cfg.Queue}, cfg.Sinks(version())...)
	cmdguard.SetDecisionLog(l)
	return func() {
		cmdguard.SetDecisionLog(nil)
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		l.CloseAndReport(ctx)
	}
}

// launchers run the program their first operand names.
var launchers = map[string]bool{"npx": true, "bunx": true, "uvx": true, "pipx": true, "node": true, "bun": true, "deno": true, "python": true, "python3": true, "env": true}

// agentName names the agent the command line argv starts, for the
// decision log: its program's base name, or, for a launcher (npx
// @zed-industries/claude-code-acp), the package or script it runs.
func agentName(argv []string) string {
	for i, a := range argv {
		name := filepath.Base(a)
		if i > 0 && (strings.HasPrefix(a, "-") || strings.Contains(a, "=")) {
			continue
		}
		if !launchers[name] || i == len(argv)-1 {
			if i > 0 && strings.HasPrefix(a, "@") {
				return a // a scoped npm package: @scope/name
			}
			return name
		}
	}
	return ""
}
