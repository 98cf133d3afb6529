package cmdguard

# Lifts only the make commands of a chain: the entry names its command.
allow contains {"msg": "make targets are fine", "rule": "make", "command": i} if {
	some i, c in input.commands
	c.argv[0] == "make"
}

ask contains {"msg": "make clean deletes build output", "rule": "make-clean", "command": i} if {
	some i, c in input.commands
	c.argv[0] == "make"
	"clean" in c.argv
}
