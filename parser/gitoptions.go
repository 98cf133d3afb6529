package parser

// The options git 2.39's diff and revision machinery share among the
// subcommands that use it (git help diff, git help log: diff-options and
// rev-list-options), in the syntax of programs' options. The
// subcommands' entries in programs (git's subs) add their own.
//
// These options are read one by one and exactly (git log --onel is an
// error): an abbreviation the table accepts runs nothing. Options whose
// value git takes only attached (-U5, -M50%, --stat=80) are marked
// optional ('?'), so that a word after them is read as a word of its
// own. --output, --ext-diff and --textconv are listed (they are options)
// and guarded (they write or run a program).
const (
	gitRevOpts = "-NUM --abbrev-commit --after= --all --all-match --alternate-refs --ancestry-path? --author-date-order --author= " +
		"--basic-regexp --before= --bisect --boundary --branches? --cherry --cherry-mark --cherry-pick --children " +
		"--clear-decorations --combined-all-paths --committer= --date-order --date= --decorate-refs-exclude= --decorate-refs= " +
		"--decorate? --dense --diff-merges= --do-walk -E --encoding= --exclude-first-parent-only --exclude-hidden= --exclude= " +
		"--expand-tabs? --extended-regexp -F --first-parent --fixed-strings --follow --format= --full-diff --full-history -g " +
		"--glob= --graph --grep-reflog= --grep= -i --ignore-missing --invert-grep -L= --left-only --left-right --log-size " +
		"--mailmap --max-count= --max-parents= --merge --merges --min-parents= -m -n= --no-walk? --not --notes? --oneline -P " +
		"--parents --perl-regexp --pretty? --reflog --regexp-ignore-case --relative-date --remerge-diff --remotes? --remove-empty " +
		"--reverse --right-only --show-linear-break? --show-notes? --show-pulls --show-signature --simplify-by-decoration " +
		"--simplify-merges --since-as-filter= --since= --single-worktree --skip= --source --sparse --standard-notes --stdin " +
		"--tags? --topo-order --until= --use-mailmap --walk-reflogs --no-merges --no-abbrev-commit --no-decorate --no-notes " +
		"--no-standard-notes --no-expand-tabs --no-min-parents --no-max-parents --no-diff-merges --no-use-mailmap --no-mailmap"

	// gitLogOpts: git log, show, whatchanged and stash list read both.

)

// gitDiffWhy: the options that make git's diff machinery write a file or
// run a program.
const gitDiffWhy = "writes a file or runs an external diff or textconv program"

// gitDiffGuards declares them for the subcommands whose other options
// the table does not list (git rev-list, shortlog, reflog, stash show);
// --text is an option of its own, not an abbreviation of --textconv.
var gitDiffGuards = []opt{guard(gitDiffWhy, "--output --ext-diff --textconv"), flags("--text").unlisted()}

var gitLogOpts = []opt{
	flags("-a -b --binary -c --cc --check --compact-summary --cumulative -D --find-copies-harder --full-index --function-context --histogram --ignore-all-space --ignore-blank-lines --ignore-cr-at-eol --ignore-space-at-eol --ignore-space-change --indent-heuristic --irreversible-delete --ita-invisible-in-index --minimal --name-only --name-status --no-color-moved-ws --no-prefix --no-rename-empty --no-renames --numstat -p --patch --patch-with-raw --patch-with-stat --patience --pickaxe-all --pickaxe-regex -R --raw --rename-empty -s --shortstat --summary -t --text -u -W -w -z --no-patch --no-relative --default-prefix --abbrev-commit --all --all-match --alternate-refs --author-date-order --basic-regexp --bisect --boundary --cherry --cherry-mark --cherry-pick --children --clear-decorations --combined-all-paths --date-order --dense --do-walk -E --exclude-first-parent-only --extended-regexp -F --first-parent --fixed-strings --follow --full-diff --full-history -g --graph -i --ignore-missing --invert-grep --left-only --left-right --log-size --mailmap --merge --merges -m --not --oneline -P --parents --perl-regexp --reflog --regexp-ignore-case --relative-date --remerge-diff --remove-empty --reverse --right-only --show-pulls --show-signature --simplify-by-decoration --simplify-merges --single-worktree --source --sparse --standard-notes --stdin --topo-order --use-mailmap --walk-reflogs --no-merges --no-abbrev-commit --no-decorate --no-notes --no-standard-notes --no-expand-tabs --no-min-parents --no-max-parents --no-diff-merges --no-use-mailmap --no-mailmap"),
	optional(0, "--abbrev -B --break-rewrites -C --color-moved --color-words --color --dirstat-by-file --dirstat --find-copies --find-renames --ignore-submodules -M --relative --stat --submodule -U --unified --word-diff -X --ancestry-path --branches --decorate --expand-tabs --no-walk --notes --pretty --remotes --show-linear-break --show-notes --tags"),
	val(0, "--anchored --color-moved-ws --diff-algorithm --diff-filter --dst-prefix --find-object -G -I --ignore-matching-lines --inter-hunk-context -l --line-prefix -O --output-indicator-context --output-indicator-new --output-indicator-old --rotate-to -S --skip-to --src-prefix --stat-count --stat-graph-width --stat-name-width --stat-width --word-diff-regex --ws-error-highlight --after --author --before --committer --date --decorate-refs-exclude --decorate-refs --diff-merges --encoding --exclude-hidden --exclude --format --glob --grep-reflog --grep -L --max-count --max-parents --min-parents -n --since-as-filter --since --skip --until"),
	number(),
	flags("--ext-diff --textconv").guard(gitDiffWhy),
	val(0, "--output").guard(gitDiffWhy),
}

var gitDiffOpts = []opt{
	flags("-a -b --binary -c --cc --check --compact-summary --cumulative -D --find-copies-harder --full-index --function-context --histogram --ignore-all-space --ignore-blank-lines --ignore-cr-at-eol --ignore-space-at-eol --ignore-space-change --indent-heuristic --irreversible-delete --ita-invisible-in-index --minimal --name-only --name-status --no-color-moved-ws --no-prefix --no-rename-empty --no-renames --numstat -p --patch --patch-with-raw --patch-with-stat --patience --pickaxe-all --pickaxe-regex -R --raw --rename-empty -s --shortstat --summary -t --text -u -W -w -z --no-patch --no-relative --default-prefix"),
	optional(0, "--abbrev -B --break-rewrites -C --color-moved --color-words --color --dirstat-by-file --dirstat --find-copies --find-renames --ignore-submodules -M --relative --stat --submodule -U --unified --word-diff -X"),
	val(0, "--anchored --color-moved-ws --diff-algorithm --diff-filter --dst-prefix --find-object -G -I --ignore-matching-lines --inter-hunk-context -l --line-prefix -O --output-indicator-context --output-indicator-new --output-indicator-old --rotate-to -S --skip-to --src-prefix --stat-count --stat-graph-width --stat-name-width --stat-width --word-diff-regex --ws-error-highlight"),
	flags("--ext-diff --textconv").guard(gitDiffWhy),
	val(0, "--output").guard(gitDiffWhy),
}
