# Argument-aware find: prefix rules cannot say "find, unless -exec or
# -delete appears anywhere", Rego can.
package cmdguard

find_actions := {"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"}

# find that only lists files is allowed (lifts policy.no_match).
allow contains {"msg": "find without -exec or -delete only lists files", "rule": "find-read-only", "command": i} if {
	some i, c in input.commands
	c.argv[0] == "find"
	not find_has_action(c)
}

# find that runs, writes or deletes asks (stricter than the default deny
# does nothing, but it names the reason).
ask contains {"msg": sprintf("find %s runs a program, writes or deletes files", [a]), "rule": "find-action", "command": i} if {
	some i, c in input.commands
	c.argv[0] == "find"
	some a in c.argv
	a in find_actions
}

find_has_action(c) if {
	some a in c.argv
	a in find_actions
}
