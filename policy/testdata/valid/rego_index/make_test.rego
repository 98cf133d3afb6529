package cmdguard

test_make_allowed if {
	{"msg": "make targets are fine", "rule": "make", "command": 0} in allow with input as {"commands": [{"argv": ["make"]}]}
}

test_make_clean_asks if {
	count(ask) == 1 with input as {"commands": [{"argv": ["ls"]}, {"argv": ["make", "clean"]}]}
}
