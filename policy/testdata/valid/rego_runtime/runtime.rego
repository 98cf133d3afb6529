package cmdguard

# A builtin error (to_number of a non-number) is a runtime error.
deny contains msg if {
	input.source == "builtin"
	msg := sprintf("%d", [to_number("x")])
}

# Two values for one complete rule is a runtime conflict.
mode := "a" if input.source == "conflict"

mode := "b" if input.source == "conflict"

ask contains mode if input.source == "conflict"

# An allow entry that is neither a string nor {msg, rule}.
allow contains 42 if input.source == "badentry"

# A command index out of range.
allow contains {"msg": "x", "command": 7} if input.source == "badindex"
