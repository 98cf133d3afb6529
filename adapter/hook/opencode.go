package hook

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/cmdguard/cmdguard"
)

// OpencodePlugin is cmdguard's plugin for opencode and the Kilo CLI: the
// file settings.PluginSettings installs. It runs in the agent (Bun), sends each
// shell and file tool call to `cmdguard hook --agent opencode|kilo` (the
// argv in its options) and throws the reason, which the model sees, unless
// the answer is an allow; an allow that carries args (the sandboxed
// rewrite) is applied to the call's args in place.
//
//go:embed plugins/opencode/cmdguard.js
var OpencodePlugin string

// opencodeEvent is the hook_event_name the plugin sends.
const opencodeEvent = "tool.execute.before"

// opencodeFiles are opencode's and the Kilo CLI's file tools: the
// parameter naming the file, its default when absent, and the kind.
var opencodeFiles = map[string]struct {
	param, otherwise string
	kind             toolKind
}{
	"read":          {"filePath", "", toolRead},
	"write":         {"filePath", "", toolWrite},
	"edit":          {"filePath", "", toolWrite},
	"multiedit":     {"filePath", "", toolWrite},
	"grep":          {"path", ".", toolSearch}, // reads every file under path
	"glob":          {"path", ".", toolRead},   // names only: the directory itself
	"list":          {"path", ".", toolRead},
	"notebook_read": {"path", "", toolRead}, // Kilo
	"notebook_edit": {"path", "", toolWrite},
}

// opencodeShells are the shell tools' names.
var opencodeShells = map[string]bool{"bash": true, "shell": true}

// opencode reads the plugin's input:
//
//	{"hook_event_name":"tool.execute.before","agent":"opencode","tool":"bash",
//	 "session_id":…,"call_id":…,"directory":"/proj","worktree":"/proj",
//	 "tool_input":{"command":"git status","workdir":"/proj/sub"}}
//
// directory is the session's project (the policy is found from there);
// tool_input is the tool's args as the model sent them.
func (c *call) opencode(in *input) error {
	if ev := str(in.HookEventName); ev != opencodeEvent {
		return fmt.Errorf("%s hook event %q is not %s", c.agent, ev, opencodeEvent)
	}
	c.tool, c.project = in.Tool, str(in.Directory)
	f, isFile := opencodeFiles[c.tool]
	patch := c.tool == "apply_patch" || c.tool == "patch"
	if !opencodeShells[c.tool] && !isFile && !patch && c.tool != "notebook_execute" {
		return nil
	}
	m, err := fields(in.ToolInput)
	if err != nil {
		return err
	}
	switch {
	case opencodeShells[c.tool]:
		c.kind, c.input = toolShell, m
		if c.command, err = need(m, c.tool, "command"); err != nil {
			return err
		}
		dir, ok, err := field(m, "workdir")
		if err != nil {
			return err
		}
		if ok && dir != "" {
			c.cwd = dir // relative to the project: joined in parse
		}
	case isFile:
		c.kind = f.kind
		path, ok, err := field(m, f.param)
		if err != nil {
			return err
		}
		if !ok || path == "" {
			if f.otherwise == "" {
				return fmt.Errorf("the %s call has no %s", c.tool, f.param)
			}
			path = f.otherwise
		}
		c.path = path
	case patch:
		text, err := need(m, c.tool, "patchText")
		if err != nil {
			return err
		}
		c.kind = toolWrite
		if c.paths = patchFiles(text); len(c.paths) == 0 {
			return fmt.Errorf("the %s call names no file (no *** Add/Update/Delete File: line)", c.tool)
		}
		c.path = c.paths[0]
	default: // notebook_execute: runs a cell's code in a kernel
		c.kind = toolWrite
		if c.path, err = need(m, c.tool, "path"); err != nil {
			return err
		}
		c.unjudged = "runs the notebook's code in a kernel, which cmdguard cannot check (run it through the shell tool instead)"
	}
	return nil
}

// patchFiles returns every file an apply_patch text adds, updates,
// deletes or moves to, in order.
func patchFiles(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		for _, p := range []string{"*** Add File:", "*** Update File:", "*** Delete File:", "*** Move to:"} {
			if rest, ok := strings.CutPrefix(line, p); ok {
				if f := strings.TrimSpace(rest); f != "" {
					out = append(out, f)
				}
			}
		}
	}
	return out
}

// checkPaths checks every file of c.paths as a write and returns the
// strictest decision and the file it is about.
func checkPaths(ctx context.Context, g *cmdguard.Guard, c call, env []string) (cmdguard.Decision, string, error) {
	var worst cmdguard.Decision
	at := ""
	for i, p := range c.paths {
		if p == "~" || strings.HasPrefix(p, "~/") {
			home := envValue(env, "HOME")
			if !filepath.IsAbs(home) {
				return cmdguard.Decision{Verdict: cmdguard.Deny}, "", errors.New("the " + c.tool + " call names " + p + " and HOME is not known")
			}
			p = filepath.Join(home, strings.TrimPrefix(p, "~"))
		}
		d, err := g.CheckFile(ctx, cmdguard.FileRequest{Path: p, Cwd: c.cwd, Write: true})
		if err != nil {
			if d.Verdict == cmdguard.Allow {
				d.Verdict = cmdguard.Deny
			}
			return d, p, err
		}
		if i == 0 || d.Verdict < worst.Verdict {
			worst, at = d, p
		}
	}
	return worst, at, nil
}

// opencodeAnswer is the plugin's answer: {"decision":"allow"} (with
// "args", the tool's new args, for the sandboxed rewrite) or
// {"decision":"deny","reason":R}. An ask arrives here as a deny: the
// plugin cannot ask.
func (a answer) opencodeAnswer(v cmdguard.Verdict, r string) map[string]any {
	o := map[string]any{"decision": v.String()}
	if v != cmdguard.Allow {
		o["reason"] = r
	}
	if v == cmdguard.Allow && a.updated != nil {
		o["args"] = a.updated
	}
	return o
}
