package parser

import "slices"

// The reasons of guards several options share.
const (
	gitGrepWhy        = "runs a pager or textconv program"
	gitReceivePackWhy = "runs a program as the remote git-receive-pack"
	gitUploadPackWhy  = "runs a program as the remote git-upload-pack"
	gitCloneWhy       = "runs a program as the remote git-upload-pack, or copies hooks from a template"
)

// gitBranchWhy: the git branch options that change branches.
const gitBranchWhy = "deletes, moves or rewrites branches, or writes their upstream into .git/config"

// programsGit: git, its subcommands (git 2.39) and what their options do (see gitSpec, gitoptions.go).
var programsGit = map[string]program{
	// git's remote helpers (git-remote-ext, -fd, -http, -https, -ftp,
	// -ftps, and any a package adds): git-remote-ext runs its URL as a
	// command, the others connect to what it names. The prefix entry
	// "git-remote-*" reads every one (see prefixes).
	"git-remote-*": {remoteHelper: true},
	"git": {
		options: []opt{
			val(0, "-C -c --config-env --git-dir --list-cmds --namespace --super-prefix --work-tree"),
			flags("--bare --glob-pathspecs -h --help --html-path --icase-pathspecs --info-path --literal-pathspecs --man-path --no-optional-locks --no-pager --no-replace-objects --noglob-pathspecs -P -p --paginate -v --version"),
			optional(0, "--exec-path"),
			val(notFile, "-m -b -B -n -U --message --author --date --format --pretty --grep").unlisted(),
			// Options of several subcommands: paths, revisions or objects
			// read from standard input or a file the gate does not read.
			does(readsInput, "--pathspec-from-file --stdin-paths --stdin --batch --batch-check --batch-command --batch-all-objects").unlisted(),
		},
		complete: true,
		env:      []envVar{{"GIT_SSH_COMMAND", envCode}, {"GIT_SSH", envCode}, {"GIT_PAGER", envCode}, {"PAGER", envCode}, {"EDITOR", envCode}, {"VISUAL", envCode}, {"GIT_EDITOR", envCode}, {"GIT_SEQUENCE_EDITOR", envCode}, {"GIT_EXTERNAL_DIFF", envCode}, {"GIT_ASKPASS", envCode}, {"SSH_ASKPASS", envCode}, {"GIT_EXEC_PATH", envCode}, {"GIT_TEMPLATE_DIR", envCode}, {"GIT_PROXY_COMMAND", envCode}, {"GIT_DIR", envCode}, {"GIT_WORK_TREE", envCode}, {"GIT_INDEX_FILE", envCode}, {"GIT_OBJECT_DIRECTORY", envCode}, {"GIT_ALTERNATE_OBJECT_DIRECTORIES", envCode}, {"GIT_COMMON_DIR", envCode}, {"GIT_ALLOW_PROTOCOL", envCode}, {"GIT_TEST_FSMONITOR", envCode}, {"BROWSER", envCode}, {"GIT_CONFIG*", envCode}, {"GIT_TRACE*", envCode}, {"GIT_GRAFT_FILE", envFile}, {"GIT_SSL_CAINFO", envFile}, {"SSL_CERT_FILE", envFile}, {"GIT_TERMINAL_PROMPT", envHarmless}, {"GIT_AUTHOR_NAME", envHarmless}, {"GIT_AUTHOR_EMAIL", envHarmless}, {"GIT_COMMITTER_NAME", envHarmless}, {"GIT_COMMITTER_EMAIL", envHarmless}},

		// git's own options, before the subcommand; its subcommands'
		// options are in subs.

		negatable: true,
		files:     fileSpec{},
		dirSafe:   true,
		git:       &gitSpec{},
		writesTree: []string{"am", "apply", "bisect", "checkout", "checkout-index", "cherry-pick", "clone", "init", "merge", "mv", "pull",
			"read-tree", "rebase", "reset", "restore", "revert", "sparse-checkout", "stash", "submodule", "switch", "worktree"},
		checks: []guardCheck{
			{check: gitExtURL, why: "an ext:: URL runs a command as the remote (git remote-ext)"},
		},
		subs: map[string]*program{
			"am":    {git: &gitSpec{patch: true}},
			"apply": {options: []opt{does(readsOperandsOnly, "--check --stat --numstat --summary")}, git: &gitSpec{patch: true}},
			"archive": {
				options: []opt{val(writesFile, "-o"), does(runsOther, "--exec").guard("runs a program as the remote git-upload-archive")}, git: &gitSpec{tree: true},
			},
			"bisect": {
				git: &gitSpec{runs: "run"},
				checks: []guardCheck{
					{words: []string{"run"}, why: "runs a program"},
				},
			},
			"blame": {
				readOnly: true,
				options: []opt{
					optional(0, "--abbrev -C -M"),
					flags("-b -c --color-by-age --color-lines -e -f --first-parent --incremental -l --line-porcelain --minimal -n -p --porcelain --progress --reverse --root -s --score-debug --show-email --show-name --show-number --show-stats -t -w"),
					flags("--textconv").guard("runs a textconv program"),
					val(0, "--contents --date --encoding --ignore-rev --ignore-revs-file -L -S --since"),
				},
				complete: true,
			},
			"branch": {
				options: []opt{
					flags("-a --all --create-reflog -i --ignore-case -l --list -q --quiet -r --recurse-submodules --remotes --show-current -v --verbose"),
					flags("-C -c --copy --edit-description --unset-upstream").guard(gitBranchWhy),
					optional(0, "--abbrev --color --column"),
					optional(0, "-t --track").guard(gitBranchWhy),
					val(0, "--contains --format --merged --no-contains --no-merged --points-at --sort"),
					val(0, "--set-upstream-to -u").guard(gitBranchWhy),
					flags("-D").as("delete+force").guard(gitBranchWhy),
					flags("-d --delete").as("delete").guard(gitBranchWhy),
					flags("-f --force").as("force").guard(gitBranchWhy),
					flags("-M").as("move+force").guard(gitBranchWhy),
					flags("-m --move").as("move").guard(gitBranchWhy),
					guard(gitBranchWhy, "--set-upstream"), // hidden: git 2.39 refuses it
				},
				complete: true,
				checks: []guardCheck{
					// first: the new branch's name is a hit before -d's.
					{check: gitBranchCreate, first: true, why: "creates a branch (a ref)"},
				},
			},
			"cat-file": {
				readOnly: true,
				options: []opt{
					flags("--allow-unknown-type --batch-all-objects --buffer -e --follow-symlinks --mailmap -p -s -t --unordered --use-mailmap -z"),
					flags("--filters --textconv").guard("runs a textconv or filter program"),
					optional(0, "--batch-check --batch-command --batch"),
					val(0, "--path"),
				},
				complete: true,
			},
			"clean": {git: &gitSpec{tree: true, removes: true, whole: true}, options: []opt{
				flags("-f --force").as("force"),
				flags("-n --dry-run").as("dry-run"),
				flags("-i --interactive").as("interactive"),
			},
			},
			"add": {git: &gitSpec{tree: true, whole: true}, options: []opt{
				flags("-A --all").as("all"),
				flags("-f --force").as("force"),
				flags("-u --update").as("update"),
				flags("-p --patch").as("patch"),
			},
			},
			// Entries only for the policy's rules, which name their options.
			"checkout": {options: []opt{flags("-f --force").as("force")}},
			"switch": {options: []opt{
				flags("-f --force --discard-changes").as("force"),
				flags("-c --create").as("create"),
				flags("-C").as("create+force"),
			},
			},
			"commit": {options: []opt{
				flags("-a --all").as("all"),
				flags("-n --no-verify").as("no-verify"),
				flags("-m --message").as("message"),
			},
			},
			"tag": {options: []opt{flags("-d --delete").as("delete"), flags("-f --force").as("force")}},
			"clone": {
				options: []opt{
					val(runsOther, "-u").guard(gitCloneWhy),
					val(0, "-b -o -j"),
					val(setsConfig, "-c"),
					does(runsOther, "--upload-pack --template").guard(gitCloneWhy),
					does(setsConfig, "--config"),
				},
				git: &gitSpec{},
			},
			"config": {
				git: &gitSpec{config: true},
				checks: []guardCheck{
					{check: gitConfigWrite, script: true, why: "changes the git configuration, which can make git run programs"},
				},
			},
			"check-ignore":  {readOnly: true},
			"count-objects": {options: []opt{flags("-H -v --human-readable --verbose")}, complete: true},
			"for-each-ref": {
				git: &gitSpec{opaque: true},
				options: []opt{
					optional(0, "--color --contains --merged --no-contains --no-merged"),
					val(0, "--count --format --points-at --sort"),
					flags("--ignore-case -p --perl --python -s --shell --stdin --tcl"),
				},
				complete: true,
			},
			"notes": {
				git:     &gitSpec{opaque: true},
				options: []opt{val(0, "--ref")}, complete: true,
				checks: []guardCheck{
					{words: []string{"add", "copy", "append", "edit", "merge", "remove", "prune"}, why: "writes notes (refs), or runs an editor"},
				},
			},
			"reflog": {
				git:     &gitSpec{opaque: true},
				options: gitDiffGuards,
				checks: []guardCheck{
					{words: []string{"expire", "delete"}, first: true, why: "deletes reflog entries"},
				},
			},
			// git remote [-v] lists; get-url prints; show asks the remote
			// (network) unless -n; the others write .git/config or fetch.
			"remote": {
				git:     &gitSpec{opaque: true},
				options: []opt{flags("-v --verbose")}, complete: true,
				subs: map[string]*program{
					"get-url": {options: []opt{flags("--all --push")}, complete: true},
				},
				checks: []guardCheck{
					{words: []string{"add", "rename", "remove", "rm", "set-head", "set-branches", "set-url", "prune", "update", "show"},
						why: "changes the remotes in .git/config, or contacts a remote"},
				},
			},
			"rev-list": {
				options: gitDiffGuards,
			},
			"worktree": {
				git: &gitSpec{opaque: true},
				subs: map[string]*program{
					"list": {options: []opt{val(0, "--expire"), flags("--porcelain -v --verbose -z")}, complete: true},
				},
				checks: []guardCheck{
					{words: []string{"add", "move", "remove", "prune", "repair", "lock", "unlock"}, why: "creates, moves or removes working trees"},
				},
			},
			"describe": {options: []opt{
				optional(0, "--abbrev --broken --dirty"),
				flags("--all --always --contains --debug --exact-match --first-parent --long --tags"),
				val(0, "--candidates --exclude --match"),
			},
				complete: true,
			},
			"diff": {
				readOnly: true,
				git:      &gitSpec{},
				options: slices.Concat(gitDiffOpts, []opt{
					flags("-0 -1 -2 -3 --base --cached --exit-code --merge-base --ours --quiet --staged --theirs"),
					does(recursive, "--no-index"), // its operands are read recursively
				}),
				complete: true,
			},
			"difftool": {options: []opt{
				val(0, "-t -y"),
				val(shellCommand, "-x"),
				does(shellCommand, "--extcmd"),
			},
				git: &gitSpec{}},
			"fetch": {
				options: []opt{does(runsOther, "--upload-pack").guard(gitUploadPackWhy)}, git: &gitSpec{},
			},
			"fetch-pack": {
				options: []opt{guard(gitUploadPackWhy, "--upload-pack --exec")},
			},
			"filter-branch": {options: []opt{does(shellCommand, "--env-filter --tree-filter --index-filter --parent-filter --msg-filter --commit-filter --tag-name-filter --setup")}, git: &gitSpec{}},
			"format-patch": {options: []opt{
				val(writesFile, "-o"),
				val(0, "-v"),
				does(writesFile, "--output-directory"),
			},
				git: &gitSpec{}},
			"grep": {
				readOnly: true,
				options: []opt{
					number(),
					val(0, "-A --after-context -B --before-context -C --context -e -f -m --max-count --max-depth --threads"),
					flags("-a --all-match --and --basic-regexp --break -c --cached --column --count -E --exclude-standard --ext-grep --extended-regexp -F --files-with-matches --files-without-match --fixed-strings --full-name --function-context -G -H -h --heading -I -i --ignore-case --invert-match -L -l --line-number --name-only -n --no-index --not --null -o --only-matching --or -P -p --perl-regexp -q --quiet -r --recursive --recurse-submodules --show-function --text --untracked -v -W -w --word-regexp -z"),
					flags("--textconv").guard(gitGrepWhy),
					optional(0, "--color"),
					optional(runsOther, "-O --open-files-in-pager").guard(gitGrepWhy),
				},
				complete: true,
				git:      &gitSpec{tree: true},
			},
			"init": {options: []opt{does(runsOther, "--template")}, git: &gitSpec{}},
			"log": {
				readOnly: true,
				options:  gitLogOpts, complete: true,
			},
			"ls-files": {readOnly: true, options: []opt{
				optional(0, "--abbrev"),
				flags("-c --cached -d --debug --deduplicate --deleted --directory --empty-directory --eol --error-unmatch --exclude-standard -f --full-name -i --ignored -k --killed -m --modified -o --others --recurse-submodules --resolve-undo -s --sparse --stage -t -u --unmerged -v -z"),
				val(0, "--exclude-from --exclude-per-directory --exclude --format --with-tree -X -x"),
			},
				complete: true,
			},
			"ls-remote": {
				options: []opt{does(runsOther, "-u"), does(runsOther, "--upload-pack --exec").guard(gitUploadPackWhy)}, git: &gitSpec{},
			},
			"merge-base": {options: []opt{flags("-a --all --fork-point --independent --is-ancestor --octopus")}, complete: true},
			"ls-tree": {options: []opt{
				optional(0, "--abbrev"),
				flags("-d --full-name --full-tree -l --long --name-only --name-status --object-only -r -t -z"),
				val(0, "--format"),
			},
				complete: true,
			},
			"pull": {
				options: []opt{does(runsOther, "--upload-pack").guard(gitUploadPackWhy)}, git: &gitSpec{},
			},
			"push": {
				options: []opt{
					flags("-f --force").as("force"),
					flags("--force-with-lease").as("force-with-lease+force"),
					flags("--mirror").as("mirror+force"),
					flags("-d --delete").as("delete"),
					flags("-u --set-upstream").as("set-upstream"),
					flags("-n --dry-run").as("dry-run"),
					plusOperand("force"),
					val(0, "-o"),
					does(runsOther, "--receive-pack --exec").guard(gitReceivePackWhy),
				},
				git: &gitSpec{},
			},
			"rebase": {
				options: []opt{flags("-i --interactive").as("interactive"), val(shellCommand, "-x --exec").as("exec").guard("runs a command after each commit"), val(0, "-s -X -C")},
				git:     &gitSpec{},
			},
			"rev-parse": {readOnly: true, options: []opt{
				optional(0, "--abbrev-ref --branches --remotes --short --show-object-format --tags"),
				flags("--absolute-git-dir --all --flags --git-common-dir --git-dir --is-bare-repository --is-inside-git-dir --is-inside-work-tree --is-shallow-repository --keep-dashdash --local-env-vars --no-flags --no-revs --not --parseopt -q --quiet --revs-only --shared-index-path --show-cdup --show-prefix --show-superproject-working-tree --show-toplevel --sq --sq-quote --stop-at-non-option --stuck-long --symbolic --symbolic-full-name --verify"),
				val(0, "--after --before --default --disambiguate --exclude-hidden --exclude --git-path --glob --path-format --prefix --resolve-git-dir --since --until"),
			},
				complete: true,
			},
			"send-email": {options: []opt{does(runsOther, "--to-cmd --cc-cmd --header-cmd --sendmail-cmd --smtp-server")}, git: &gitSpec{}},
			"send-pack": {
				options: []opt{guard(gitReceivePackWhy, "--receive-pack --exec")},
			},
			"shortlog": {
				options: []opt{
					flags("-c --committer -e --email -n --numbered -s --summary --all --no-merges --merges --first-parent --reverse -i -E -F --regexp-ignore-case --not"),
					val(0, "--format --group --since --until --after --before --author --grep --max-count --skip --date --glob --exclude"),
					optional(0, "-w --branches --tags --remotes"),
					gitDiffGuards[0], gitDiffGuards[1],
				},
				complete: true,
			},
			"show": {
				readOnly: true,
				options:  gitLogOpts, complete: true,
			},
			"stash": {
				git: &gitSpec{whole: true, wholeSubs: []string{"push", "save"}, opaque: true},
				subs: map[string]*program{
					"list": {
						options: gitLogOpts, complete: true,
					},
					"show": {
						options: gitDiffGuards,
					},
				},
			},
			"status": {readOnly: true, options: []opt{
				flags("-b --ahead-behind --branch --long --null --renames --short --show-stash -s -v --verbose -z"),
				optional(0, "--column --find-renames --ignore-submodules --ignored -M --porcelain -u --untracked-files"),
			},
				complete: true,
			},
			"submodule": {
				git: &gitSpec{runs: "foreach", runsOpts: true},
				checks: []guardCheck{
					{words: []string{"foreach"}, why: "runs a command in every submodule"},
				},
			},
		},
	},
}
