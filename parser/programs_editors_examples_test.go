package parser

// editorsExamples are the examples of the entries of programs_editors.go, beside
// them: see programExamples.
var editorsExamples = map[string][]programExample{
	"less":  {{cmd: "less a", reading: "a", setup: "a"}},
	"more":  {{cmd: "more a", reading: "a", setup: "a"}},
	"emacs": {{cmd: "emacs --eval x a", reading: "x:rec a:rec hit:emacs_--eval"}},
	"man":   {{cmd: "man -P cat ls", reading: "cat:rec ls:rec hit:man_-P"}},
	"nvim":  {{cmd: "nvim a", reading: "a:rec"}},
	"vi":    {{cmd: "vi a", reading: "a:rec"}},
	"view":  {{cmd: "view a", reading: "a:rec"}},
	"vim":   {{cmd: "vim a", reading: "a:rec"}},
}
