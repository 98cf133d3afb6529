package cmdguard

test_rm_denied if {
	"no rm" in deny with input as {"commands": [{"argv": ["rm"]}]}
}

test_ls_denied_fails if {
	"no rm" in deny with input as {"commands": [{"argv": ["ls"]}]}
}

test_builtin_error if {
	to_number("x") == 1
}

todo_test_later if false
