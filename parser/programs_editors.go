package parser

// programsEditors: the editors and pagers.
var programsEditors = map[string]program{
	"emacs": {
		options: []opt{guard("runs Lisp code you choose", "--eval --execute --load --funcall --script -l -f -x")},
	},
	"less": {readOnly: true, dirSafe: true, env: []envVar{{"LESSOPEN", envCode}, {"LESSCLOSE", envCode}, {"LESSHISTFILE", envWritten}}},
	"man": {
		env:     []envVar{{"MANPAGER", envCode}, {"PAGER", envCode}, {"BROWSER", envCode}},
		options: []opt{guard("runs a pager or browser of your choice", "-P --pager -H --html -C --config-file")},
	},
	"more": {readOnly: true, dirSafe: true},
	"nvim": {
		env: []envVar{{"VIMINIT", envCode}, {"EXINIT", envCode}},
		checks: []guardCheck{
			{check: vimRisk, why: "runs editor commands (which may run a program) you choose"},
		},
	},
	"vi": {
		env: []envVar{{"VIMINIT", envCode}, {"EXINIT", envCode}},
		checks: []guardCheck{
			{check: vimRisk, why: "runs editor commands (which may run a program) you choose"},
		},
	},
	"view": {
		env: []envVar{{"VIMINIT", envCode}, {"EXINIT", envCode}},
		checks: []guardCheck{
			{check: vimRisk, why: "runs editor commands (which may run a program) you choose"},
		},
	},
	"vim": {
		env: []envVar{{"VIMINIT", envCode}, {"EXINIT", envCode}},
		checks: []guardCheck{
			{check: vimRisk, why: "runs editor commands (which may run a program) you choose"},
		},
	},
}
