package parser

// programsTools: compilers, debuggers, interpreters and host tools known for their environment or the syntax of their options.
var programsTools = map[string]program{
	// Mounts change what every path under their target names.
	"mount":  {changes: changesAny},
	"umount": {changes: changesAny},
	"bindfs": {changes: changesAny},
	// They create a file system or wipe its signatures: what the device
	// held is lost (see Destructive). mkfs.TYPE is mkfs's backend for a
	// type: the entry "mkfs.*" (see prefixes).
	"mkfs":    {makesFS: true},
	"mkfs.*":  {makesFS: true},
	"mke2fs":  {makesFS: true},
	"mkswap":  {makesFS: true},
	"wipefs":  {makesFS: true},
	"mkdosfs": {makesFS: true},
	"mkntfs":  {makesFS: true},
	"docker": {options: []opt{
		val(notFile, "-e -p -t -w -u --name --env --network --user --workdir --entrypoint --tag --platform"),
	},
		files: fileSpec{}},
	"gdb": {
		options: []opt{guard("runs gdb commands (shell, python) you choose", "-ex --ex -x --command -eval-command --eval-command -iex -ix -init-command --init-command -init-eval-command --init-eval-command")},
	},
	"java":    {env: []envVar{{"JAVA_TOOL_OPTIONS", envCode}, {"_JAVA_OPTIONS", envCode}, {"JDK_JAVA_OPTIONS", envCode}}, singleDash: true},
	"kubectl": {env: []envVar{{"KUBECONFIG", envCode}}},
	"perl": {
		project: &runner{except: printsOnly, what: "runs Perl"},
		options: []opt{val(notFile, "-e -E -M -m -I -l"), optional(backupSuffix|writesOperands, "-i")}, env: []envVar{{"PERL5OPT", envCode}, {"PERL5LIB", envCode}, {"PERLLIB", envCode}, {"PERL5DB", envCode}}, files: fileSpec{}},
	"ruby": {
		// Other interpreters and toolchains.
		project: &runner{except: printsOnly, what: "runs Ruby"},
		options: []opt{val(notFile, "-e -E -I -r")}, env: []envVar{{"RUBYOPT", envCode}, {"RUBYLIB", envCode}}, files: fileSpec{}},
	"systemctl": {env: []envVar{{"SYSTEMD_PAGER", envCode}}},
	// Entries only for the policy's rules: their options are whole words.
	"cc":        {singleDash: true},
	"clang":     {singleDash: true},
	"ffmpeg":    {singleDash: true},
	"g++":       {singleDash: true},
	"gcc":       {singleDash: true},
	"javac":     {singleDash: true},
	"terraform": {singleDash: true},
}
