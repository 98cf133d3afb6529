# Protect the repository's guards from writes: .git/hooks (code that git
# runs), .git/config (can set core.hooksPath, core.sshCommand, …), and the
# policy itself: .cmdguard.yaml, ignore files, Rego modules.
package cmdguard

protect_names := {
	".cmdguard.yaml",
	".cmdguardignore",
	".kilocodeignore",
	".rooignore",
	".clineignore",
	".geminiignore",
	".cursorignore",
	".aiexclude",
}

# Programs that change a file named anywhere in their arguments, even when
# the gate does not mark the reference as a write.
protect_changers := {"chmod", "chown", "chgrp", "ln", "rm", "mv", "cp", "touch", "truncate", "install", "tee", "sed", "dd", "patch"}

deny contains {"msg": sprintf("%s writes %s, which guards this repository", [c.argv[0], f.path]), "rule": "protected-path", "command": i} if {
	some i, c in input.commands
	some f in c.files
	protect_changes(c, f)
	protect_path(f.path)
}

deny contains {"msg": sprintf("redirect %s %s writes a file that guards this repository", [r.op, r.target]), "rule": "protected-path", "command": i} if {
	some i, c in input.commands
	some r in c.redirects
	r.write
	protect_path(protect_clean(r.target))
}

# git config without a read-only option writes .git/config.
deny contains {"msg": "git config writes .git/config", "rule": "protected-path", "command": i} if {
	some i, c in input.commands
	array.slice(c.match_argv, 0, 2) == ["git", "config"]
	not protect_git_config_read(c)
}

protect_git_config_read(c) if {
	some a in c.match_argv
	a in {"--get", "--get-all", "--get-regexp", "--list", "-l", "get", "list"}
}

protect_changes(_, f) if f.write

protect_changes(c, _) if c.argv[0] in protect_changers

protect_path(p) if startswith(p, ".git/hooks/")

protect_path(p) if p in {".git/hooks", ".git/config"}

protect_path(p) if protect_base(p) in protect_names

protect_path(p) if endswith(p, ".rego")

protect_base(p) := b if {
	parts := split(p, "/")
	b := parts[count(parts) - 1]
}

protect_clean(p) := trim_prefix(p, "./")
