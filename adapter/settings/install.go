package settings

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/cmdguard/cmdguard/adapter/hook"
)

// An Entry is one thing cmdguard adds to an agent's JSON settings file:
// an element of the array at Path (a hook), or, when Key is set, the
// member Key of the object at Path (an MCP server under mcpServers).
// Adding it keeps every other byte of the file; removing it takes out
// exactly that element or member, and the containers on Path that it
// left empty.
type Entry struct {
	Path  []string
	Key   string
	Value any
	// Ours reports whether an element already in the array is one that
	// cmdguard added (perhaps with other options): it is replaced rather
	// than added twice, and removed on uninstall. Nil means equal to Value.
	Ours func(v any) bool
}

// A Settings is a settings file and what cmdguard adds to it.
type Settings struct {
	// File is the settings file's path.
	File string
	// Initial is the content of a new file before the entries are added
	// ("{}" when empty).
	Initial string
	Entries []Entry
	// Script, when set, is the whole content of File: an executable hook
	// script (Cline) or a plugin (opencode, Kilo) instead of a JSON file.
	Script string
	// Mark, when set, is a text in every version of Script: a file that
	// holds it is an older Script of cmdguard's, replaced by Install and
	// removed by Uninstall.
	Mark string
}

// ours reports whether data is this Script, or an older one of cmdguard's.
func (s Settings) ours(data []byte) bool {
	return string(data) == s.Script || (s.Mark != "" && bytes.Contains(data, []byte(s.Mark)))
}

// norm returns v as encoding/json would decode it (numbers as json.Number).
func norm(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var out any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if dec.Decode(&out) != nil {
		return nil
	}
	return out
}

func (e Entry) ours(v any) bool {
	if e.Ours != nil {
		return e.Ours(v)
	}
	return reflect.DeepEqual(v, norm(e.Value))
}

// Install returns data with each entry added; data that already holds
// them is returned unchanged. Empty data is a new file.
func (s Settings) Install(data []byte) ([]byte, error) {
	if s.Script != "" {
		if len(data) > 0 && !s.ours(data) {
			return nil, fmt.Errorf("%s exists and is not cmdguard's: merge it by hand (it should run: %s)", s.File, strings.TrimSpace(lastLine(s.Script)))
		}
		return []byte(s.Script), nil
	}
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte(s.Initial)
		if len(data) == 0 {
			data = []byte("{}\n")
		}
	}
	var err error
	for _, e := range s.Entries {
		if data, err = e.install(data); err != nil {
			return nil, fmt.Errorf("%s: %w", s.File, err)
		}
	}
	return data, nil
}

// Uninstall returns data without the entries. remove reports that
// nothing but what Install would have created from nothing is left: the
// file can go.
func (s Settings) Uninstall(data []byte) (out []byte, remove bool, err error) {
	if s.Script != "" {
		if len(data) > 0 && !s.ours(data) {
			return nil, false, fmt.Errorf("%s is not cmdguard's: remove it by hand", s.File)
		}
		return nil, true, nil
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return data, false, nil
	}
	for _, e := range s.Entries {
		if data, err = e.uninstall(data); err != nil {
			return nil, false, fmt.Errorf("%s: %w", s.File, err)
		}
	}
	initial := s.Initial
	if initial == "" {
		initial = "{}\n"
	}
	return data, string(data) == initial, nil
}

func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	return s[strings.LastIndexByte(s, '\n')+1:]
}

// walk returns the nodes along e.Path that exist, starting with the top.
func (e Entry) walk(root *jnode) ([]*jnode, error) {
	if root.kind != '{' {
		return nil, errNotObject([]string{"the top level"})
	}
	nodes := []*jnode{root}
	for i, k := range e.Path {
		n := nodes[len(nodes)-1].get(k)
		if n == nil {
			break
		}
		last := i == len(e.Path)-1
		if (!last || e.Key != "") && n.kind != '{' {
			return nil, errNotObject(e.Path[:i+1])
		}
		if last && e.Key == "" && n.kind != '[' {
			return nil, fmt.Errorf("%s is not a JSON array", strings.Join(e.Path, "."))
		}
		nodes = append(nodes, n)
	}
	return nodes, nil
}

// find returns the indices in container c of entries that are ours.
func (e Entry) find(data []byte, c *jnode) ([]int, bool, error) {
	var idx []int
	same := false
	want := norm(e.Value)
	for i, v := range c.vals {
		if e.Key != "" && c.keys[i] != e.Key {
			continue
		}
		val, err := v.value(data)
		if err != nil {
			return nil, false, err
		}
		if e.Key != "" || e.ours(val) {
			idx = append(idx, i)
			same = same || reflect.DeepEqual(val, want)
		}
	}
	return idx, same, nil
}

func (e Entry) install(data []byte) ([]byte, error) {
	root, err := parseJSON(data)
	if err != nil {
		return nil, fmt.Errorf("not plain JSON (%v): add the entry by hand", err)
	}
	nodes, err := e.walk(root)
	if err != nil {
		return nil, err
	}
	l := layoutOf(data)
	if len(nodes) == len(e.Path)+1 { // the container exists
		c := nodes[len(nodes)-1]
		idx, same, err := e.find(data, c)
		if err != nil {
			return nil, err
		}
		if same && len(idx) == 1 {
			return data, nil // installed already
		}
		if len(idx) > 0 { // an older or doubled entry of ours: take it out first
			data = apply(data, removeAt(data, c, idx[len(idx)-1]))
			return e.install(data)
		}
		ed, err := insertInto(data, l, c, e.Key, e.Value)
		if err != nil {
			return nil, err
		}
		return apply(data, ed), nil
	}
	// Create the missing part of the path in the deepest object that exists.
	d := len(nodes) - 1
	var inner any = []any{e.Value}
	if e.Key != "" {
		inner = map[string]any{e.Key: e.Value}
	}
	ed, err := insertInto(data, l, nodes[d], e.Path[d], nest(inner, e.Path[d+1:]...))
	if err != nil {
		return nil, err
	}
	return apply(data, ed), nil
}

func (e Entry) uninstall(data []byte) ([]byte, error) {
	removed := false
	for {
		root, err := parseJSON(data)
		if err != nil {
			return nil, fmt.Errorf("not plain JSON (%v): remove the entry by hand", err)
		}
		nodes, err := e.walk(root)
		if err != nil {
			return nil, err
		}
		if len(nodes) != len(e.Path)+1 {
			return data, nil
		}
		c := nodes[len(nodes)-1]
		idx, _, err := e.find(data, c)
		if err != nil {
			return nil, err
		}
		if len(idx) == 0 {
			if removed {
				return prune(data, e.Path)
			}
			return data, nil
		}
		data, removed = apply(data, removeAt(data, c, idx[len(idx)-1])), true
	}
}

// prune removes the containers on path, deepest first, that are empty.
func prune(data []byte, path []string) ([]byte, error) {
	for d := len(path); d >= 1; d-- {
		root, err := parseJSON(data)
		if err != nil {
			return nil, err
		}
		parent := root
		for _, k := range path[:d-1] {
			if parent = parent.get(k); parent == nil || parent.kind != '{' {
				return data, nil
			}
		}
		i := -1
		for j, k := range parent.keys {
			if k == path[d-1] {
				i = j
			}
		}
		if i < 0 || len(parent.vals[i].vals) > 0 || parent.vals[i].kind == 0 {
			return data, nil
		}
		data = apply(data, removeAt(data, parent, i))
	}
	return data, nil
}

// Scope is where a hook is installed: the project, or the user's home.
type Scope int

// The scopes.
const (
	Project Scope = iota
	User
)

// Locations says where each agent keeps its hooks.
type Locations struct {
	Project string // the project directory
	Home    string // the user's home directory
	// CodexHome is $CODEX_HOME; empty means Home/.codex.
	CodexHome string
}

// claudeTools are the Claude Code tools the hook judges.
const claudeTools = "Bash|Read|Edit|MultiEdit|Write|NotebookEdit|Grep"

// geminiTools are the Gemini CLI tools the hook judges.
const geminiTools = "run_shell_command|read_file|write_file|replace"

// HookSettings returns the settings file and entries that install the hook
// for agent in scope, running command (a shell line that ends in
// "hook --agent AGENT" plus options).
func HookSettings(agent hook.Agent, scope Scope, loc Locations, command string) (Settings, error) {
	dir := func(project, user string) string {
		if scope == User {
			return filepath.Join(loc.Home, user)
		}
		return filepath.Join(loc.Project, project)
	}
	ours := func(v any) bool { return mentions(v, "hook --agent "+string(agent)) }
	switch agent {
	case hook.Claude:
		return Settings{File: dir(".claude/settings.json", ".claude/settings.json"), Entries: []Entry{{
			Path: []string{"hooks", "PreToolUse"}, Ours: ours,
			Value: ordered{{"matcher", claudeTools}, {"hooks", []any{ordered{
				{"type", "command"}, {"command", command}, {"timeout", 10}, {"onFailure", "block"}}}}},
		}}}, nil
	case hook.Codex:
		file := filepath.Join(loc.Project, ".codex/hooks.json")
		if scope == User {
			home := loc.CodexHome
			if home == "" {
				home = filepath.Join(loc.Home, ".codex")
			}
			file = filepath.Join(home, "hooks.json")
		}
		return Settings{File: file, Entries: []Entry{{
			Path: []string{"hooks", "PreToolUse"}, Ours: ours,
			Value: ordered{{"matcher", "Bash"}, {"hooks", []any{ordered{
				{"type", "command"}, {"command", command}, {"timeout", 10}}}}},
		}}}, nil
	case hook.Gemini:
		return Settings{File: dir(".gemini/settings.json", ".gemini/settings.json"), Entries: []Entry{{
			Path: []string{"hooks", "BeforeTool"}, Ours: ours,
			Value: ordered{{"matcher", geminiTools}, {"hooks", []any{ordered{
				{"name", "cmdguard"}, {"type", "command"}, {"command", command}, {"timeout", 10000}}}}},
		}}}, nil
	case hook.Cursor:
		handler := ordered{{"command", command}, {"timeout", 10}, {"failClosed", true}}
		return Settings{File: dir(".cursor/hooks.json", ".cursor/hooks.json"), Initial: "{\n  \"version\": 1\n}\n", Entries: []Entry{
			{Path: []string{"hooks", "beforeShellExecution"}, Ours: ours, Value: handler},
			{Path: []string{"hooks", "beforeReadFile"}, Ours: ours, Value: handler},
		}}, nil
	case hook.Cline:
		return Settings{File: dir(".clinerules/hooks/PreToolUse", "Documents/Cline/Hooks/PreToolUse"),
			Script: "#!/bin/sh\n# cmdguard: every tool call is checked before it runs (cmdguard install cline --uninstall removes this file)\nexec " + command + "\n"}, nil
	}
	return Settings{}, fmt.Errorf("unknown agent %q", agent)
}

// MCPSettings returns the settings file and the entry that add cmdguard's
// MCP server (`cmdguard mcp`, run as bin) to agent's MCP configuration in
// scope: Claude Code's .mcp.json (user: ~/.claude.json), Cursor's
// .cursor/mcp.json and Gemini CLI's .gemini/settings.json, each under
// mcpServers.cmdguard. Cursor does not start a server in the project, so
// its entry names the project with --cwd.
func MCPSettings(agent hook.Agent, scope Scope, loc Locations, bin string) (Settings, error) {
	dir := func(project, user string) string {
		if scope == User {
			return filepath.Join(loc.Home, user)
		}
		return filepath.Join(loc.Project, project)
	}
	entry := func(v ordered) []Entry {
		return []Entry{{Path: []string{"mcpServers"}, Key: "cmdguard", Value: v}}
	}
	switch agent {
	case hook.Claude:
		return Settings{File: dir(".mcp.json", ".claude.json"),
			Entries: entry(ordered{{"type", "stdio"}, {"command", bin}, {"args", []any{"mcp"}}})}, nil
	case hook.Cursor:
		args := []any{"mcp"}
		if scope == Project {
			args = append(args, "--cwd", loc.Project)
		}
		return Settings{File: dir(".cursor/mcp.json", ".cursor/mcp.json"),
			Entries: entry(ordered{{"command", bin}, {"args", args}})}, nil
	case hook.Gemini:
		return Settings{File: dir(".gemini/settings.json", ".gemini/settings.json"),
			Entries: entry(ordered{{"command", bin}, {"args", []any{"mcp"}}, {"trust", false}})}, nil
	}
	return Settings{}, fmt.Errorf("cmdguard mcp is installed for claude, cursor and gemini, not %q", agent)
}

// ordered is a JSON object whose members keep their order, so that an
// inserted entry reads as people write it ("matcher" before "hooks").
type ordered []member

type member struct {
	key   string
	value any
}

func (o ordered) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(m.key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(m.value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// mentions reports whether any string in v contains s.
func mentions(v any, s string) bool {
	switch v := v.(type) {
	case string:
		return strings.Contains(v, s)
	case []any:
		for _, x := range v {
			if mentions(x, s) {
				return true
			}
		}
	case map[string]any:
		for _, x := range v {
			if mentions(x, s) {
				return true
			}
		}
	}
	return false
}
