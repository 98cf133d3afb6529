package cmdguard

test_sudo_denied if {
	{"msg": "no sudo", "rule": "no-sudo"} in deny with input as {"commands": [{"argv": ["sudo", "ls"]}]}
}
