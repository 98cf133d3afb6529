package parser

// The reasons of guards several options share.
const (
	wgetRunsWhy = "runs a program (--use-askpass, or use_askpass in wgetrc commands)"
	scpWhy      = "runs a program as ssh, or sets ssh options (ProxyCommand, LocalCommand) that run one"
)

// programsNetwork: the programs that fetch or copy over the network: curl, wget, ssh, scp, sftp, rsync.
var programsNetwork = map[string]program{
	"curl": {
		options: []opt{
			val(notFile, "-X --request").as("request"),
			val(notFile, "-H -u -A -e -m -w -x -r -E -y -Y -z --header --user --user-agent --referer --max-time --connect-timeout --write-out --proxy --range --retry --data-raw --url"),
			val(readsFile, "-T --upload-file").as("upload-file"),
			val(readsFile, "-K --config").as("..."),
			val(readsFile, "-b --cookie --netrc-file --etag-compare"),
			val(writesFile, "-o --output").as("output"),
			val(writesFile, "-c -D --dump-header --cookie-jar --trace --trace-ascii --stderr --libcurl --etag-save"),
			// --output-dir DIR: -o FILE and -O write inside DIR (curl
			// 7.88: --output-d .git/hooks -o pre-commit writes
			// .git/hooks/pre-commit).
			val(writesFile|remoteOutput, "--output-dir"),
			does(remoteOutput, "--remote-name-all -J --remote-header-name"),
			does(remoteOutput, "-O --remote-name").as("remote-name"),
			flags("-d --data").as("data"),
			flags("-k --insecure").as("insecure"),
			flags("-F --form").as("form"),
			flags("-L --location").as("location"),
		},
		env:     []envVar{{"CURL_CA_BUNDLE", envFile}, {"SSL_CERT_FILE", envFile}},
		files:   fileSpec{},
		dirSafe: true,
	},
	"rsync": {
		changes:        changesAny,
		writesUnlisted: true,
		options: []opt{
			does(recursive, "-r -a"),
			val(notFile, "-e --rsh --rsync-path").guard("runs a program"),
			val(readsFile, "--files-from --exclude-from --include-from --password-file"),
		},
		files:   fileSpec{writeLast: true},
		dirSafe: true,
	},
	"scp": {
		options: []opt{
			does(recursive, "-r"),
			val(notFile, "-c -J -l -P -D"),
			val(notFile, "-o -S").guard(scpWhy),
			val(readsFile, "-i"),
			val(readsFile, "-F").guard(scpWhy),
		},
		files:   fileSpec{writeLast: true},
		dirSafe: true,
	},
	"sftp": {
		options: []opt{guard("runs a program as ssh or sftp-server, or sets ssh options that run one", "-S -o -F -D")},
	},
	"ssh": {
		options: []opt{val(readsFile, "-i -E -S"), val(readsFile, "-F -o").guard("sets ssh options (ProxyCommand, LocalCommand, KnownHostsCommand, Match exec) that run a program")},
		env:     []envVar{{"SSH_ASKPASS", envCode}},
		files:   fileSpec{},
		dirSafe: true,
	},
	// wget --use-askpass=PROG runs PROG for a user name and a password
	// (wget 1.21: before it connects).
	"wget": {
		writesUnlisted: true,
		options: []opt{
			val(notFile, "-t -T -U --user --password --header --user-agent --tries --timeout"),
			// wgetrc commands (-e, --execute, a --config file) set any
			// option: use_askpass=PROG runs PROG, as --use-askpass does.
			val(notFile, "-e").as("...").guard(wgetRunsWhy),
			val(readsFile, "-i --input-file --load-cookies"),
			val(writesFile, "-O --output-document").as("output-document"),
			val(writesFile, "-o -a -P --output-file --append-output --directory-prefix --save-cookies"),
			val(readsFile, "--config").as("...").guard(wgetRunsWhy),
			flags("--execute").as("...").guard(wgetRunsWhy),
			guard(wgetRunsWhy, "--use-askpass"),
		},

		files:   fileSpec{},
		dirSafe: true,
	},
}
