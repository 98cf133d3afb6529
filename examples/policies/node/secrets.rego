# Secrets in network commands: curl or wget with a word naming a
# $*_TOKEN or $*_KEY variable (also ${…}) asks, even where the command
# itself is allowed. The gate keeps such words as written ($NPM_TOKEN),
# since their values are not known before run time.
package cmdguard

secret_net_programs := {"curl", "wget"}

secret_var := `(?i)\$\{?([A-Za-z0-9_]*_)?(TOKEN|KEY)([^A-Za-z0-9_]|$)`

ask contains {"msg": sprintf("%s sends %s over the network", [c.argv[0], w]), "rule": "secret-in-network-command", "command": i} if {
	some i, c in input.commands
	c.argv[0] in secret_net_programs
	some w in c.argv
	regex.match(secret_var, w)
}
