package cmdguard

protect_denies(cmd) := {e.msg |
	some e in deny with input as {"commands": [cmd]}
	e.rule == "protected-path"
}

test_redirect_to_hook_denied if {
	protect_denies({"argv": ["echo", "x"], "redirects": [{"op": ">", "target": ".git/hooks/pre-commit", "write": true}], "files": []}) == {"redirect > .git/hooks/pre-commit writes a file that guards this repository"}
}

test_cp_into_hooks_denied if {
	protect_denies({"argv": ["cp", "evil", ".git/hooks/post-checkout"], "files": [
		{"path": "evil", "write": false},
		{"path": ".git/hooks/post-checkout", "write": true},
	]}) == {"cp writes .git/hooks/post-checkout, which guards this repository"}
}

test_chmod_hook_denied if {
	protect_denies({"argv": ["chmod", "+x", ".git/hooks/pre-push"], "files": [{"path": ".git/hooks/pre-push", "write": false}]}) == {"chmod writes .git/hooks/pre-push, which guards this repository"}
}

test_policy_file_denied if {
	count(protect_denies({"argv": ["sed", "-i", "s/deny/allow/", ".cmdguard.yaml"], "files": [{"path": ".cmdguard.yaml", "write": true}]})) == 1
}

test_nested_ignore_file_denied if {
	count(protect_denies({"argv": ["tee", "sub/.cmdguardignore"], "files": [{"path": "sub/.cmdguardignore", "write": true}]})) == 1
}

test_rego_module_denied if {
	count(protect_denies({"argv": ["echo"], "redirects": [{"op": ">>", "target": "./policies/x.rego", "write": true}], "files": []})) == 1
}

test_git_config_write_denied if {
	protect_denies({"argv": ["git", "config", "core.hooksPath", "/tmp"], "match_argv": ["git", "config", "core.hooksPath", "/tmp"], "files": []}) == {"git config writes .git/config"}
}

test_git_config_read_allowed if {
	count(protect_denies({"argv": ["git", "config", "--get", "user.name"], "match_argv": ["git", "config", "--get", "user.name"], "files": []})) == 0
}

test_reading_hooks_allowed if {
	count(protect_denies({"argv": ["cat", ".git/hooks/pre-commit"], "files": [{"path": ".git/hooks/pre-commit", "write": false}]})) == 0
}

test_ordinary_write_allowed if {
	count(protect_denies({"argv": ["echo", "x"], "redirects": [{"op": ">", "target": "out.txt", "write": true}], "files": [{"path": "out.txt", "write": true}]})) == 0
}
