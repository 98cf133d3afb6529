package cmdguard

find_lists := {"msg": "find without -exec or -delete only lists files", "rule": "find-read-only", "command": 0}

test_find_name_allowed if {
	find_lists in allow with input as {"commands": [{"argv": ["find", ".", "-name", "*.go"]}]}
}

test_find_exec_not_allowed if {
	not find_lists in allow with input as {"commands": [{"argv": ["find", ".", "-exec", "rm", "{}", ";"]}]}
}

test_find_exec_asks if {
	{"msg": "find -exec runs a program, writes or deletes files", "rule": "find-action", "command": 0} in ask with input as {"commands": [{"argv": ["find", ".", "-exec", "rm", "{}", ";"]}]}
}

test_find_delete_asks if {
	{"msg": "find -delete runs a program, writes or deletes files", "rule": "find-action", "command": 0} in ask with input as {"commands": [{"argv": ["find", "/tmp", "-name", "x", "-delete"]}]}
}

test_find_fprint_not_allowed if {
	not find_lists in allow with input as {"commands": [{"argv": ["find", ".", "-fprint", "out"]}]}
}

test_other_command_untouched if {
	count({e | some e in allow; e.rule == "find-read-only"}) == 0 with input as {"commands": [{"argv": ["ls"]}]}
}

test_find_second_command if {
	{"msg": "find without -exec or -delete only lists files", "rule": "find-read-only", "command": 1} in allow with input as {"commands": [{"argv": ["cd", "src"]}, {"argv": ["find", "."]}]}
}
