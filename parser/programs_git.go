package parser

import "slices"

// programsGit: git, its subcommands (git 2.39) and what their options do (see gitSpec, gitoptions.go).
var programsGit = map[string]program{
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
		guards: []optionGuard{
			{check: gitExtURL, why: "an ext:: URL runs a command as the remote (git remote-ext)"},
		},
		subs: map[string]*program{
			"am":    {git: &gitSpec{patch: true}},
			"apply": {options: []opt{does(readsOperandsOnly, "--check --stat --numstat --summary")}, git: &gitSpec{patch: true}},
			"archive": {
				options: []opt{val(writesFile, "-o"), does(runsOther, "--exec")}, git: &gitSpec{tree: true},
				guards: []optionGuard{
					{options: []string{"--exec"}, why: "runs a program as the remote git-upload-archive"},
				},
			},
			"bisect": {
				git: &gitSpec{runs: "run"},
				guards: []optionGuard{
					{options: []string{"run"}, why: "runs a program"},
				},
			},
			"blame": {
				readOnly: true,
				options: []opt{
					optional(0, "--abbrev -C -M"),
					flags("-b -c --color-by-age --color-lines -e -f --first-parent --incremental -l --line-porcelain --minimal -n -p --porcelain --progress --reverse --root -s --score-debug --show-email --show-name --show-number --show-stats -t --textconv -w"),
					val(0, "--contents --date --encoding --ignore-rev --ignore-revs-file -L -S --since"),
				},
				complete: true,
				guards: []optionGuard{
					{options: []string{"--textconv"}, why: "runs a textconv program"},
				},
			},
			"branch": {
				options: []opt{
					flags("-a --all -C -c --copy --create-reflog --edit-description -i --ignore-case -l --list -q --quiet -r --recurse-submodules --remotes --show-current --unset-upstream -v --verbose"),
					optional(0, "--abbrev --color --column -t --track"),
					val(0, "--contains --format --merged --no-contains --no-merged --points-at --set-upstream-to --sort -u"),
					flags("-D").as("delete+force"),
					flags("-d --delete").as("delete"),
					flags("-f --force").as("force"),
					flags("-M").as("move+force"),
					flags("-m --move").as("move"),
				},
				complete: true,
				guards: []optionGuard{
					{check: gitBranchCreate, why: "creates a branch (a ref)"},
					{options: []string{"-d", "-D", "--delete", "-m", "-M", "--move", "-c", "-C", "--copy", "-f", "--force", "-u", "--set-upstream-to", "--unset-upstream", "--edit-description", "-t", "--track", "--set-upstream"}, why: "deletes, moves or rewrites branches, or writes their upstream into .git/config"},
				},
			},
			"cat-file": {
				readOnly: true,
				options: []opt{
					flags("--allow-unknown-type --batch-all-objects --buffer -e --filters --follow-symlinks --mailmap -p -s -t --textconv --unordered --use-mailmap -z"),
					optional(0, "--batch-check --batch-command --batch"),
					val(0, "--path"),
				},
				complete: true,
				guards: []optionGuard{
					{options: []string{"--textconv", "--filters"}, why: "runs a textconv or filter program"},
				},
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
					val(runsOther, "-u"),
					val(0, "-b -o -j"),
					val(setsConfig, "-c"),
					does(runsOther, "--upload-pack --template"),
					does(setsConfig, "--config"),
				},
				git: &gitSpec{},
				guards: []optionGuard{
					{options: []string{"-u", "--upload-pack", "--template"}, why: "runs a program as the remote git-upload-pack, or copies hooks from a template"},
				},
			},
			"config": {
				git: &gitSpec{config: true},
				guards: []optionGuard{
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
				guards: []optionGuard{
					{options: []string{"add", "copy", "append", "edit", "merge", "remove", "prune"}, why: "writes notes (refs), or runs an editor"},
				},
			},
			"reflog": {
				git: &gitSpec{opaque: true},
				guards: []optionGuard{
					{options: []string{"expire", "delete"}, why: "deletes reflog entries"},
					{options: diffFlags, whole: []string{"--text"}, why: "writes a file or runs an external diff or textconv program"},
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
				guards: []optionGuard{
					{options: []string{"add", "rename", "remove", "rm", "set-head", "set-branches", "set-url", "prune", "update", "show"},
						why: "changes the remotes in .git/config, or contacts a remote"},
				},
			},
			"rev-list": {
				guards: []optionGuard{
					{options: diffFlags, whole: []string{"--text"}, why: "writes a file or runs an external diff or textconv program"},
				},
			},
			"worktree": {
				git: &gitSpec{opaque: true},
				subs: map[string]*program{
					"list": {options: []opt{val(0, "--expire"), flags("--porcelain -v --verbose -z")}, complete: true},
				},
				guards: []optionGuard{
					{options: []string{"add", "move", "remove", "prune", "repair", "lock", "unlock"}, why: "creates, moves or removes working trees"},
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
				guards: []optionGuard{
					{options: diffFlags, whole: []string{"--text"}, why: "writes a file or runs an external diff or textconv program"},
				},
			},
			"difftool": {options: []opt{
				val(0, "-t -y"),
				val(shellCommand, "-x"),
				does(shellCommand, "--extcmd"),
			},
				git: &gitSpec{}},
			"fetch": {
				options: []opt{does(runsOther, "--upload-pack")}, git: &gitSpec{},
				guards: []optionGuard{
					{options: []string{"--upload-pack"}, why: "runs a program as the remote git-upload-pack"},
				},
			},
			"fetch-pack": {
				guards: []optionGuard{
					{options: []string{"--upload-pack", "--exec"}, why: "runs a program as the remote git-upload-pack"},
				},
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
					flags("-a --all-match --and --basic-regexp --break -c --cached --column --count -E --exclude-standard --ext-grep --extended-regexp -F --files-with-matches --files-without-match --fixed-strings --full-name --function-context -G -H -h --heading -I -i --ignore-case --invert-match -L -l --line-number --name-only -n --no-index --not --null -o --only-matching --or -P -p --perl-regexp -q --quiet -r --recursive --recurse-submodules --show-function --text --textconv --untracked -v -W -w --word-regexp -z"),
					optional(0, "--color"),
					optional(runsOther, "-O --open-files-in-pager"),
				},
				complete: true,
				git:      &gitSpec{tree: true},
				guards: []optionGuard{
					{options: []string{"-O", "--open-files-in-pager", "--textconv"}, whole: []string{"--text"}, why: "runs a pager or textconv program"},
				},
			},
			"init": {options: []opt{does(runsOther, "--template")}, git: &gitSpec{}},
			"log": {
				readOnly: true,
				options:  gitLogOpts, complete: true,
				guards: []optionGuard{
					{options: diffFlags, whole: []string{"--text"}, why: "writes a file or runs an external diff or textconv program"},
				},
			},
			"ls-files": {readOnly: true, options: []opt{
				optional(0, "--abbrev"),
				flags("-c --cached -d --debug --deduplicate --deleted --directory --empty-directory --eol --error-unmatch --exclude-standard -f --full-name -i --ignored -k --killed -m --modified -o --others --recurse-submodules --resolve-undo -s --sparse --stage -t -u --unmerged -v -z"),
				val(0, "--exclude-from --exclude-per-directory --exclude --format --with-tree -X -x"),
			},
				complete: true,
			},
			"ls-remote": {
				options: []opt{does(runsOther, "-u --upload-pack --exec")}, git: &gitSpec{},
				guards: []optionGuard{
					{options: []string{"--upload-pack", "--exec"}, why: "runs a program as the remote git-upload-pack"},
				},
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
				options: []opt{does(runsOther, "--upload-pack")}, git: &gitSpec{},
				guards: []optionGuard{
					{options: []string{"--upload-pack"}, why: "runs a program as the remote git-upload-pack"},
				},
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
					does(runsOther, "--receive-pack --exec"),
				},
				git: &gitSpec{},
				guards: []optionGuard{
					{options: []string{"--receive-pack", "--exec"}, why: "runs a program as the remote git-receive-pack"},
				},
			},
			"rebase": {
				options: []opt{flags("-i --interactive").as("interactive"), val(shellCommand, "-x --exec").as("exec"), val(0, "-s -X -C")},
				git:     &gitSpec{},
				guards: []optionGuard{
					{options: []string{"-x", "--exec"}, why: "runs a command after each commit"},
				},
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
				guards: []optionGuard{
					{options: []string{"--receive-pack", "--exec"}, why: "runs a program as the remote git-receive-pack"},
				},
			},
			"shortlog": {
				options: []opt{
					flags("-c --committer -e --email -n --numbered -s --summary --all --no-merges --merges --first-parent --reverse -i -E -F --regexp-ignore-case --not"),
					val(0, "--format --group --since --until --after --before --author --grep --max-count --skip --date --glob --exclude"),
					optional(0, "-w --branches --tags --remotes"),
				},
				complete: true,
				guards: []optionGuard{
					{options: diffFlags, whole: []string{"--text"}, why: "writes a file or runs an external diff or textconv program"},
				},
			},
			"show": {
				readOnly: true,
				options:  gitLogOpts, complete: true,
				guards: []optionGuard{
					{options: diffFlags, whole: []string{"--text"}, why: "writes a file or runs an external diff or textconv program"},
				},
			},
			"stash": {
				git: &gitSpec{whole: true, wholeSubs: []string{"push", "save"}, opaque: true},
				subs: map[string]*program{
					"list": {
						options: gitLogOpts, complete: true,
						guards: []optionGuard{
							{options: diffFlags, whole: []string{"--text"}, why: "writes a file or runs an external diff or textconv program"},
						},
					},
					"show": {
						guards: []optionGuard{
							{options: diffFlags, whole: []string{"--text"}, why: "writes a file or runs an external diff or textconv program"},
						},
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
				guards: []optionGuard{
					{options: []string{"foreach"}, why: "runs a command in every submodule"},
				},
			},
		},
	},
}
