// Package settings installs cmdguard into coding agents' settings files
// and reads their permission rules as a cmdguard policy.
//
// [HookSettings], [MCPSettings] and [PluginSettings] say which file to
// edit and what to put there; [Settings.Install] and [Settings.Uninstall]
// edit a file's bytes in place, keeping its layout and every entry that is
// not cmdguard's. [ImportRules] reads an agent's allow and deny lists
// (Claude Code, Gemini CLI, Codex, Roo, Kilo, opencode, Cline) as prefix
// rules, with a warning for each native rule cmdguard cannot express.
// The hook protocol itself is package hook.
package settings
