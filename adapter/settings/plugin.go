package settings

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/cmdguard/cmdguard/adapter/hook"
)

// PluginSettings returns the files that install cmdguard's plugin for
// opencode or the Kilo CLI in scope: the plugin itself
// ([OpencodePlugin], byte for byte) and the entry in the agent's config
// that loads it with argv, the hook command, as its option "command":
//
//	opencode: .opencode/cmdguard.js and opencode.json (user: ~/.config/opencode/)
//	kilo:     .kilo/cmdguard.js and kilo.json         (user: ~/.config/kilo/)
//
// The plugin is not put in the agents' plugin/ directories, which load
// every file in them without options.
func PluginSettings(agent hook.Agent, scope Scope, loc Locations, argv []string) ([]Settings, error) {
	var dir, config string
	switch agent {
	case hook.Opencode:
		dir, config = ".opencode", "opencode.json"
	case hook.Kilo:
		dir, config = ".kilo", "kilo.json"
	default:
		return nil, fmt.Errorf("cmdguard's plugin is for opencode and kilo, not %q", agent)
	}
	if len(argv) == 0 {
		return nil, errors.New("the plugin needs the hook command")
	}
	plugin := filepath.Join(loc.Project, dir, pluginFile)
	configFile := filepath.Join(loc.Project, config)
	spec := "./" + dir + "/" + pluginFile // relative to the config file
	if scope == User {
		home := filepath.Join(loc.Home, ".config", string(agent))
		plugin, configFile, spec = filepath.Join(home, pluginFile), filepath.Join(home, config), "./"+pluginFile
	}
	args := make([]any, len(argv))
	for i, a := range argv {
		args[i] = a
	}
	return []Settings{
		{File: plugin, Script: hook.OpencodePlugin, Mark: pluginMark},
		{File: configFile, Entries: []Entry{{
			Path:  []string{"plugin"},
			Value: []any{spec, ordered{{"command", args}}},
			Ours:  func(v any) bool { return mentions(v, pluginFile) },
		}}},
	}, nil
}

const (
	pluginFile = "cmdguard.js"
	// pluginMark is in every version of the plugin: a file holding it is
	// cmdguard's, replaced on install and removed on uninstall.
	pluginMark = "cmdguard's plugin for opencode and the Kilo CLI"
)
