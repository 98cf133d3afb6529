package cmdguard

rm_denied := {"msg": "rm -r -f deletes whole trees without asking", "rule": "rm-recursive-force", "command": 0}

test_rm_rf_denied if {
	every argv in [
		["rm", "-rf", "build"],
		["rm", "-fr", "build"],
		["rm", "-Rf", "build"],
		["rm", "-rfv", "build"],
		["rm", "-r", "-f", "build"],
		["rm", "-f", "-r", "build"],
		["rm", "--recursive", "--force", "build"],
		["rm", "--force", "-R", "build"],
		["rm", "-v", "-f", "build", "-r"],
		["rm", "--rec", "--forc", "build"],
	] {
		rm_denied in deny with input as {"commands": [{"argv": argv, "dynamic": []}]}
	}
}

test_rm_not_both_not_denied if {
	every argv in [
		["rm", "build"],
		["rm", "-r", "build"],
		["rm", "-f", "build.log"],
		["rm", "--force", "x"],
		["rm", "--", "-rf"],
		["rm", "-f", "--", "-r"],
	] {
		not rm_denied in deny with input as {"commands": [{"argv": argv, "dynamic": []}]}
	}
}

test_rm_in_chain_denied if {
	{"msg": "rm -r -f deletes whole trees without asking", "rule": "rm-recursive-force", "command": 1} in deny with input as {"commands": [{"argv": ["ls"], "dynamic": []}, {"argv": ["rm", "-rf", "/"], "dynamic": []}]}
}

test_rm_dynamic_asks if {
	{"msg": "rm with a dynamic argument ($FLAGS) could delete anything", "rule": "rm-dynamic", "command": 0} in ask with input as {"commands": [{"argv": ["rm", "$FLAGS", "x"], "dynamic": [false, true, false]}]}
}

test_other_program_untouched if {
	not rm_denied in deny with input as {"commands": [{"argv": ["grep", "-rf", "x"], "dynamic": []}]}
}
