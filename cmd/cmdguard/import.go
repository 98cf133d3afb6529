package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/cmdguard/cmdguard"
	"github.com/cmdguard/cmdguard/adapter/settings"
)

// importFiles are the files import reads when none is given.
var importFiles = map[string]string{
	"claude":   ".claude/settings.json",
	"codex":    "~/.codex/rules/default.rules",
	"roo":      ".vscode/settings.json",
	"kilo":     "kilo.jsonc",
	"opencode": "opencode.json",
}

// importRules is cmdguard import FORMAT [FILE] [--out FILE].
func (c *cli) importRules(args []string) int {
	flags := c.flagSet("import")
	out := flags.String("out", "", "write the policy to `FILE` (it must not exist) instead of stdout")
	if isHelp(args) {
		c.parseFlags(flags, []string{"--help"})
		return 0
	}
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return c.errorf("import: name the format first: %s (cmdguard import --help)", strings.Join(settings.ImportFormats, ", "))
	}
	format := args[0]
	if !slices.Contains(settings.ImportFormats, format) {
		return c.errorf("import: unknown format %q (want %s)", format, strings.Join(settings.ImportFormats, ", "))
	}
	// Flags may come before or after FILE.
	pos, err := c.interleaved(flags, args[1:])
	if err != nil {
		return c.errorf("import: %v", err)
	}
	var file string
	var data []byte
	switch len(pos) {
	case 0:
		if format == "cline" {
			env, ok := os.LookupEnv("CLINE_COMMAND_PERMISSIONS")
			if !ok {
				return c.errorf("import cline: give a FILE with the JSON, or set CLINE_COMMAND_PERMISSIONS")
			}
			file, data = "$CLINE_COMMAND_PERMISSIONS", []byte(env)
			break
		}
		def, ok := importFiles[format]
		if !ok {
			return c.errorf("import %s: give the FILE to read (e.g. ~/.gemini/policies/my.toml)", format)
		}
		if rest, ok := strings.CutPrefix(def, "~/"); ok {
			home, err := os.UserHomeDir()
			if err != nil {
				return c.errorf("import: %v", err)
			}
			def = filepath.Join(home, rest)
		}
		file = def
	case 1:
		file = pos[0]
	default:
		return c.errorf("import: one FILE at most")
	}
	if *out != "" {
		if _, err := os.Stat(*out); err == nil {
			return c.errorf("import: %s exists; not overwriting it", *out)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return c.errorf("import: %v", err)
		}
	}
	if data == nil {
		if data, err = os.ReadFile(file); err != nil {
			return c.errorf("import: %v", err)
		}
	}
	im, err := settings.ImportRules(format, file, data)
	if err != nil {
		return c.errorf("import: %v", err)
	}
	yaml := im.YAML("cmdguard import " + strings.Join(args, " "))
	// What import writes must load: check it as the policy it will be.
	dir, err := os.MkdirTemp("", "cmdguard-import-")
	if err != nil {
		return c.errorf("import: %v", err)
	}
	defer os.RemoveAll(dir)
	tmp := filepath.Join(dir, ".cmdguard.yaml")
	if err := os.WriteFile(tmp, yaml, 0o644); err != nil {
		return c.errorf("import: %v", err)
	}
	if _, err := cmdguard.OpenPolicy(tmp); err != nil {
		return c.errorf("import: the converted policy does not load (a bug in cmdguard import): %v\n%s", err, yaml)
	}
	for _, w := range im.Warnings {
		fmt.Fprintf(c.stderr, "%s\n", w)
	}
	if len(im.Warnings) > 0 {
		fmt.Fprintf(c.stderr, "cmdguard import: %d rule(s) not expressed exactly (listed above and at the end of the policy)\n", len(im.Warnings))
	}
	if *out == "" {
		_, err = c.stdout.Write(yaml)
		if err != nil {
			return c.errorf("import: %v", err)
		}
		return 0
	}
	if err := os.WriteFile(*out, yaml, 0o644); err != nil {
		return c.errorf("import: %v", err)
	}
	fmt.Fprintf(c.stdout, "wrote %s (%d rules, %d ignore patterns)\n", *out, len(im.Rules), len(im.Ignore))
	return 0
}
