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
	gitDiffOpts = "-a --abbrev? --anchored= -b -B? --binary --break-rewrites? -c -C? --cc --check --color-moved-ws= --color-moved? " +
		"--color-words? --color? --compact-summary --cumulative -D --diff-algorithm= --diff-filter= --dirstat-by-file? --dirstat? " +
		"--dst-prefix= --ext-diff --find-copies-harder --find-copies? --find-object= --find-renames? --full-index --function-context " +
		"-G= --histogram -I= --ignore-all-space --ignore-blank-lines --ignore-cr-at-eol --ignore-matching-lines= --ignore-space-at-eol " +
		"--ignore-space-change --ignore-submodules? --indent-heuristic --inter-hunk-context= --irreversible-delete " +
		"--ita-invisible-in-index -l= --line-prefix= -M? --minimal --name-only --name-status --no-color-moved-ws --no-prefix " +
		"--no-rename-empty --no-renames --numstat -O= --output-indicator-context= --output-indicator-new= --output-indicator-old= " +
		"--output= -p --patch --patch-with-raw --patch-with-stat --patience --pickaxe-all --pickaxe-regex -R --raw --relative? " +
		"--rename-empty --rotate-to= -s -S= --shortstat --skip-to= --src-prefix= --stat-count= --stat-graph-width= " +
		"--stat-name-width= --stat-width= --stat? --submodule? --summary -t --text --textconv -u -U? --unified? -W -w " +
		"--word-diff-regex= --word-diff? --ws-error-highlight= -X? -z --no-patch --no-relative --default-prefix"

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
	gitLogOpts = gitDiffOpts + " " + gitRevOpts
)
