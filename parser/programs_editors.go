package parser

// programsEditors: the editors and pagers.
var programsEditors = map[string]program{
	"emacs": {
		guards: []optionGuard{
			{options: []string{"--eval", "--execute", "--load", "--funcall", "--script", "-l", "-f", "-x"}, why: "runs Lisp code you choose"},
		},
	},
	"less": {readOnly: true, dirSafe: true, env: []envVar{{"LESSOPEN", envCode}, {"LESSCLOSE", envCode}, {"LESSHISTFILE", envWritten}}},
	"man": {
		env: []envVar{{"MANPAGER", envCode}, {"PAGER", envCode}, {"BROWSER", envCode}},
		guards: []optionGuard{
			{options: []string{"-P", "--pager", "-H", "--html", "-C", "--config-file"}, why: "runs a pager or browser of your choice"},
		},
	},
	"more": {readOnly: true, dirSafe: true},
	"nvim": {
		env: []envVar{{"VIMINIT", envCode}, {"EXINIT", envCode}},
		guards: []optionGuard{
			{check: vimRisk, why: "runs editor commands (which may run a program) you choose"},
		},
	},
	"vi": {
		env: []envVar{{"VIMINIT", envCode}, {"EXINIT", envCode}},
		guards: []optionGuard{
			{check: vimRisk, why: "runs editor commands (which may run a program) you choose"},
		},
	},
	"view": {
		env: []envVar{{"VIMINIT", envCode}, {"EXINIT", envCode}},
		guards: []optionGuard{
			{check: vimRisk, why: "runs editor commands (which may run a program) you choose"},
		},
	},
	"vim": {
		env: []envVar{{"VIMINIT", envCode}, {"EXINIT", envCode}},
		guards: []optionGuard{
			{check: vimRisk, why: "runs editor commands (which may run a program) you choose"},
		},
	},
}
