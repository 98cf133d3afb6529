package parser

// programsMultiplexers: the terminal multiplexers, whose commands run programs (see multiplexers.go).
var programsMultiplexers = map[string]program{
	"screen": {
		// GNU screen 4: options (clusters; c e h p s S t T X take a
		// value), then the command it runs directly in a new window.
		wrap: &wrapSpec{kind: wrapScreen, shortVal: "cehpsStTX"},
		env:  []envVar{{"SCREENRC", envCode}, {"SYSSCREENRC", envCode}}, // files of screen commands, which run programs
		guards: []optionGuard{
			{check: screenRisk, why: "runs screen commands the gate does not read (-c FILE, -X stuff types into a shell, -X screen/exec run programs)"},
		},
	},
	"tmux": {
		// tmux 3.x: its own options, -c STRING run by the shell, and a
		// sequence of tmux commands separated by ";" (\;).
		wrap: &wrapSpec{kind: wrapTmux, shortVal: "cfLST"},
		guards: []optionGuard{
			{check: tmuxRisk, why: "runs tmux commands the gate does not read (-f FILE, -C, send-keys, source-file, bind-key, set-hook, set-option, if-shell's commands, run-shell -C, #(…) formats), which may run programs"},
		},
		// tmux's commands (names and aliases): those that run a shell
		// command are wrappers; guarded ones run commands by other
		// means; the rest run nothing. A command not listed is guarded
		// (tmuxRisk).
		subs: map[string]*program{
			"new-session":       {wrap: &tmuxNewSession},
			"new":               {wrap: &tmuxNewSession},
			"new-window":        {wrap: &tmuxNewWindow},
			"neww":              {wrap: &tmuxNewWindow},
			"split-window":      {wrap: &tmuxSplitWindow},
			"splitw":            {wrap: &tmuxSplitWindow},
			"respawn-pane":      {wrap: &tmuxRespawn},
			"respawnp":          {wrap: &tmuxRespawn},
			"respawn-window":    {wrap: &tmuxRespawn},
			"respawnw":          {wrap: &tmuxRespawn},
			"display-popup":     {wrap: &tmuxPopup},
			"popup":             {wrap: &tmuxPopup},
			"run-shell":         {wrap: &tmuxRunShell},
			"run":               {wrap: &tmuxRunShell},
			"pipe-pane":         {wrap: &tmuxPipePane},
			"pipep":             {wrap: &tmuxPipePane},
			"if-shell":          {wrap: &tmuxIfShell, guards: tmuxCommands},
			"if":                {wrap: &tmuxIfShell, guards: tmuxCommands},
			"send-keys":         {guards: tmuxTypes},
			"send":              {guards: tmuxTypes},
			"send-prefix":       {guards: tmuxTypes},
			"paste-buffer":      {guards: tmuxTypes},
			"pasteb":            {guards: tmuxTypes},
			"load-buffer":       {guards: tmuxTypes},
			"loadb":             {guards: tmuxTypes},
			"save-buffer":       {guards: []optionGuard{{why: "writes a file"}}},
			"saveb":             {guards: []optionGuard{{why: "writes a file"}}},
			"source-file":       {guards: tmuxCommands},
			"source":            {guards: tmuxCommands},
			"bind-key":          {guards: tmuxCommands},
			"bind":              {guards: tmuxCommands},
			"set-hook":          {guards: tmuxCommands},
			"confirm-before":    {guards: tmuxCommands},
			"confirm":           {guards: tmuxCommands},
			"command-prompt":    {guards: tmuxCommands},
			"display-menu":      {guards: tmuxCommands},
			"menu":              {guards: tmuxCommands},
			"display-panes":     {guards: tmuxCommands},
			"displayp":          {guards: tmuxCommands},
			"choose-tree":       {guards: tmuxCommands},
			"choose-client":     {guards: tmuxCommands},
			"choose-buffer":     {guards: tmuxCommands},
			"set-option":        {guards: tmuxSettings},
			"set":               {guards: tmuxSettings},
			"set-window-option": {guards: tmuxSettings},
			"setw":              {guards: tmuxSettings},
			"set-environment":   {guards: tmuxSettings},
			"setenv":            {guards: tmuxSettings},
			"attach-session":    {}, "attach": {}, "detach-client": {}, "detach": {}, "has-session": {}, "has": {},
			"kill-server": {}, "kill-session": {}, "kill-window": {}, "killw": {}, "kill-pane": {}, "killp": {},
			"list-sessions": {}, "ls": {}, "list-windows": {}, "lsw": {}, "list-panes": {}, "lsp": {},
			"list-clients": {}, "lsc": {}, "list-commands": {}, "lscm": {}, "list-keys": {}, "lsk": {},
			"list-buffers": {}, "lsb": {}, "rename-session": {}, "rename": {}, "rename-window": {}, "renamew": {},
			"select-window": {}, "selectw": {}, "select-pane": {}, "selectp": {}, "capture-pane": {}, "capturep": {},
			"display-message": {}, "display": {}, "show-options": {}, "show": {}, "show-environment": {}, "showenv": {},
			"resize-pane": {}, "resizep": {}, "switch-client": {}, "switchc": {}, "last-window": {}, "last": {},
			"next-window": {}, "next": {}, "previous-window": {}, "prev": {}, "start-server": {}, "start": {},
			"wait-for": {}, "wait": {}, "clear-history": {}, "clearhist": {}, "show-buffer": {}, "showb": {},
			"delete-buffer": {}, "deleteb": {}, "select-layout": {}, "selectl": {}, "refresh-client": {}, "refresh": {},
		},
	},
}
