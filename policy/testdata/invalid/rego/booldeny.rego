package cmdguard

deny if {
	input.commands[_].argv[0] == "rm"
}
