package cmdguard

deny contains {"msg": "no sudo", "rule": "no-sudo"} if {
	some c in input.commands
	c.argv[0] == "sudo"
}

allow contains "make is fine" if {
	some c in input.commands
	c.argv[0] == "make"
}
