// Package agentfiles lists the files the coding agents read their
// permissions, hooks and MCP servers from, in a project and in the home
// directory: a command that rewrites one of them (echo '{}' >
// .claude/settings.json) removes the hook that runs the gate, or adds a
// hook or server that runs a program the next time the agent starts. The
// file checks (path.protected) and the sandbox's protect list both read
// these lists; every file `cmdguard install` writes is in them (a test in
// adapter/hook holds that).
package agentfiles

import (
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Project are the agents' settings in a project, relative to the
// directory the agent runs in; a trailing / is a whole tree. A project
// may be a subdirectory of another, so they are protected at any depth.
var Project = []string{
	// Claude Code: permissions and hooks, MCP servers, hook scripts.
	".claude/settings.json", ".claude/settings.local.json", ".claude/hooks/", ".mcp.json",
	// Gemini CLI.
	".gemini/settings.json", ".gemini/extensions/",
	// Codex.
	".codex/",
	// Cursor: hooks (and their scripts), MCP servers, CLI permissions.
	".cursor/hooks.json", ".cursor/hooks/", ".cursor/mcp.json", ".cursor/cli.json",
	// VS Code (Roo, Kilo Code, Cline and Copilot run there): settings,
	// MCP servers, tasks that run on opening the folder.
	".vscode/settings.json", ".vscode/mcp.json", ".vscode/tasks.json",
	// opencode and Kilo.
	"opencode.json", "opencode.jsonc", ".opencode/", "kilo.json", "kilo.jsonc", ".kilo/", ".kilocode/",
	// Roo Code.
	".roo/", ".roomodes",
	// Cline: hooks (the script cmdguard install writes is one) and rules.
	".clinerules/hooks/",
}

// Home are the agents' settings in the home directory, relative to it.
var Home = []string{
	".claude/settings.json", ".claude/settings.local.json", ".claude/hooks/", ".claude.json",
	".gemini/settings.json", ".gemini/extensions/",
	".codex/",
	".cursor/hooks.json", ".cursor/hooks/", ".cursor/mcp.json", ".cursor/cli-config.json",
	".config/Code/User/settings.json", ".config/Code/User/mcp.json",
	".config/opencode/", ".config/kilo/", ".kilocode/",
	"Documents/Cline/Hooks/", ".cline/",
}

// InProject reports whether the slash-separated project-relative path rel
// is, or lies in, one of Project, at any depth. Case is ignored: on a file
// system that ignores it, .Claude/Settings.json is the same file.
func InProject(rel string) bool {
	rel = strings.ToLower(path.Clean(rel))
	for _, p := range Project {
		if under(rel, p) {
			return true
		}
		for i := strings.IndexByte(rel, '/'); i >= 0; {
			if under(rel[i+1:], p) {
				return true
			}
			j := strings.IndexByte(rel[i+1:], '/')
			if j < 0 {
				break
			}
			i += 1 + j
		}
	}
	return false
}

// InHome reports whether the absolute path p is, or lies in, one of Home
// under one of homes.
func InHome(p string, homes []string) bool {
	p = strings.ToLower(filepath.ToSlash(filepath.Clean(p)))
	for _, h := range homes {
		h = strings.ToLower(filepath.ToSlash(filepath.Clean(h)))
		rest, ok := strings.CutPrefix(p, strings.TrimSuffix(h, "/")+"/")
		if !ok {
			continue
		}
		for _, e := range Home {
			if under(rest, e) {
				return true
			}
		}
	}
	return false
}

// under reports whether rel is the entry e (lower-case), or lies in it
// when e is a tree (a tree's own name counts: replacing it replaces what
// it holds).
func under(rel, e string) bool {
	e = strings.ToLower(e)
	if t, ok := strings.CutSuffix(e, "/"); ok {
		return rel == t || strings.HasPrefix(rel, e)
	}
	return rel == e
}

// Holds reports whether the directory dir (a real path) holds one of
// Project that exists: moving or removing dir (mv .claude x, rm -rf
// .claude) removes the settings as surely as writing them.
func Holds(dir string) bool {
	name := strings.ToLower(filepath.Base(dir))
	for _, e := range Project {
		first, rest, ok := strings.Cut(e, "/")
		if !ok || strings.ToLower(first) != name || rest == "" {
			continue
		}
		if _, err := os.Lstat(filepath.Join(dir, rest)); err == nil {
			return true
		}
	}
	return false
}
