package parser

// programsMultiplexers: the terminal multiplexers, whose commands run programs (see multiplexers.go).
var programsMultiplexers = map[string]program{
	"screen": {
		// GNU screen 4: options (clusters; c e h p s S t T X take a
		// value), then the command it runs directly in a new window.
		options: []opt{val(0, "-c -e -h -p -s -S -t -T -X")}, wrap: &wrapSpec{kind: wrapScreen},
		env: []envVar{{"SCREENRC", envCode}, {"SYSSCREENRC", envCode}}, // files of screen commands, which run programs
		checks: []guardCheck{
			{check: screenRisk, why: "runs screen commands the gate does not read (-c FILE, -X stuff types into a shell, -X screen/exec run programs)"},
		},
	},
	"tmux": {
		// tmux 3.x: its own options, -c STRING run by the shell, and a
		// sequence of tmux commands separated by ";" (\;).
		options: []opt{val(0, "-c -f -L -S -T")}, wrap: &wrapSpec{kind: wrapTmux},
		checks: []guardCheck{
			{check: tmuxRisk, why: "runs tmux commands the gate does not read (-f FILE, -C, send-keys, source-file, bind-key, set-hook, set-option, if-shell's commands, run-shell -C, #(…) formats), which may run programs"},
		},
		// tmux's commands (names and aliases): those that run a shell
		// command are wrappers; guarded ones run commands by other
		// means; the rest run nothing. A command not listed is guarded
		// (tmuxRisk).
		subs: map[string]*program{
			"new-session":       {wrap: &tmuxDirect, options: tmuxNewSession},
			"new":               {wrap: &tmuxDirect, options: tmuxNewSession},
			"new-window":        {wrap: &tmuxDirect, options: tmuxNewWindow},
			"neww":              {wrap: &tmuxDirect, options: tmuxNewWindow},
			"split-window":      {wrap: &tmuxDirect, options: tmuxSplitWindow},
			"splitw":            {wrap: &tmuxDirect, options: tmuxSplitWindow},
			"respawn-pane":      {wrap: &tmuxDirect, options: tmuxRespawn},
			"respawnp":          {wrap: &tmuxDirect, options: tmuxRespawn},
			"respawn-window":    {wrap: &tmuxDirect, options: tmuxRespawn},
			"respawnw":          {wrap: &tmuxDirect, options: tmuxRespawn},
			"display-popup":     {wrap: &tmuxDirect, options: tmuxPopup},
			"popup":             {wrap: &tmuxDirect, options: tmuxPopup},
			"run-shell":         {wrap: &tmuxShell, options: tmuxRunShell},
			"run":               {wrap: &tmuxShell, options: tmuxRunShell},
			"pipe-pane":         {wrap: &tmuxShell, options: tmuxTarget},
			"pipep":             {wrap: &tmuxShell, options: tmuxTarget},
			"if-shell":          {wrap: &tmuxShell, options: tmuxTarget, checks: tmuxCommands},
			"if":                {wrap: &tmuxShell, options: tmuxTarget, checks: tmuxCommands},
			"send-keys":         {checks: tmuxTypes},
			"send":              {checks: tmuxTypes},
			"send-prefix":       {checks: tmuxTypes},
			"paste-buffer":      {checks: tmuxTypes},
			"pasteb":            {checks: tmuxTypes},
			"load-buffer":       {checks: tmuxTypes},
			"loadb":             {checks: tmuxTypes},
			"save-buffer":       {checks: []guardCheck{{why: "writes a file"}}},
			"saveb":             {checks: []guardCheck{{why: "writes a file"}}},
			"source-file":       {checks: tmuxCommands},
			"source":            {checks: tmuxCommands},
			"bind-key":          {checks: tmuxCommands},
			"bind":              {checks: tmuxCommands},
			"set-hook":          {checks: tmuxCommands},
			"confirm-before":    {checks: tmuxCommands},
			"confirm":           {checks: tmuxCommands},
			"command-prompt":    {checks: tmuxCommands},
			"display-menu":      {checks: tmuxCommands},
			"menu":              {checks: tmuxCommands},
			"display-panes":     {checks: tmuxCommands},
			"displayp":          {checks: tmuxCommands},
			"choose-tree":       {checks: tmuxCommands},
			"choose-client":     {checks: tmuxCommands},
			"choose-buffer":     {checks: tmuxCommands},
			"set-option":        {checks: tmuxSettings},
			"set":               {checks: tmuxSettings},
			"set-window-option": {checks: tmuxSettings},
			"setw":              {checks: tmuxSettings},
			"set-environment":   {checks: tmuxSettings},
			"setenv":            {checks: tmuxSettings},
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
