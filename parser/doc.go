// Package parser analyses a bash command line before it runs: it finds
// every simple command, decodes its argv as bash would pass it, unwraps
// wrappers, lists the files it names, tracks cd, and reports every
// construct it cannot judge statically as a [Finding].
//
// The source is parsed once with mvdan.cc/sh/v3/syntax in bash mode; the
// analysis never runs, expands against the host or reads the host's
// environment, user database or file system. [Options.Env] is the only
// source of $HOME, ~ and $PWD.
//
// # What is reported
//
// [Analysis.Commands] holds every simple command wherever it stands (lists,
// pipelines, { }, if/while/until/for/select/case bodies, [[ ]], export and
// declare, command substitutions), in source order of their completion.
// A wrapper (sudo, env, bash -c, xargs, find -exec, …) is one Command, and
// each command it runs is reported again with [Command.Wrappers] naming
// the chain: "sudo bash -c 'ls'" yields sudo (no wrappers), bash
// (["sudo"]) and ls (["sudo", "bash -c"]). Strings run by a shell (bash -c,
// su -c, script -c, watch, flock -c, parallel, and a heredoc or
// here-string fed to a shell without a script, "bash stdin") are parsed
// recursively, as are the commands git runs through a shell (git rebase
// -x, difftool -x, filter-branch filters, bisect run, submodule foreach),
// and positions inside them are mapped back to the
// top-level source (exactly when the string is written verbatim, else to
// its first byte). A statement without a command word (X=1, > f) is a
// Command with an empty Argv.
//
// [Analysis.Findings] lists what a gate should refuse. Rule ids are stable:
//
//	parser.syntax                 the source does not parse
//	parser.empty                  no command at all
//	parser.command_substitution   $(…) or `…` anywhere
//	parser.process_substitution   <(…) >(…)
//	parser.coprocess              coproc
//	parser.subshell               ( … )
//	parser.eval                   eval, source, ., alias, trap, enable, fc,
//	                              hash -p, bind -x, complete/compgen -C/-F,
//	                              mapfile -C, declare -n and nameref, a
//	                              declaration builtin with a dynamic argument,
//	                              sed's e and s///e, awk's system(), | and
//	                              @load, gawk -l
//	parser.function_definition    f() { …; }
//	parser.indirect_expansion     ${!x}, ${!x[@]}, ${!prefix*}, ${x@P}
//	parser.arithmetic_variable    a variable in $((…)), ((…)), let, for ((…)),
//	                              [[ -eq … ]], ${a[i]}, ${x:off:len}, a[i]=,
//	                              declare -i, or a subscripted name given to
//	                              printf -v, read, unset, mapfile, wait -p,
//	                              test -v, [[ -v ]]
//	parser.dynamic_command        a command name (or sh -c script, git
//	                              subcommand) not known before run time; a
//	                              shell reading its script from a pipe or
//	                              file (curl … | sh); parallel without a
//	                              command
//	parser.line_break_lookalike   CR (also in CRLF: bash keeps it), VT, FF,
//	                              U+2028, U+2029, U+0085 outside quotes
//	parser.unsupported            a node the analysis does not handle; other
//	                              control characters anywhere (NUL, ESC, C1,
//	                              bidirectional controls); a glob Glob cannot
//	                              expand exactly as bash does ([[=x=]],
//	                              [[.x.]], unknown classes, reversed
//	                              ranges); set -k, set -P;
//	                              brace expansions too large to expand;
//	                              $'…' or $"…" in a script run by a shell
//	                              that may not be bash (sh -c: dash)
//	parser.too_deep               wrappers nested beyond Options.MaxDepth;
//	                              ( [ { nested more than 500 deep or a
//	                              source over 1 MiB (refused unparsed:
//	                              the parser would overflow its stack);
//	                              statements nested more than 2000 deep
//	parser.too_many_commands      more than Options.MaxCommands commands
//	parser.not_portable           what zsh reads differently from bash: =cmd,
//	                              glob qualifiers and extended globs *(…),
//	                              extendedglob ^x x# x~y, **, $~x $=x
//	env.unknown                   an assignment that reaches a program's
//	                              environment (VAR=x cmd, export, declare -x,
//	                              env, sudo, anything after set -a) to a name
//	                              not on the harmless list (Options.EnvSafe
//	                              extends it; see AssignFindings)
//	env.code_injection            PATH=, LD_PRELOAD=, GIT_SSH_COMMAND=,
//	                              GIT_DIR=, GIT_INDEX_FILE=, GIT_TRACE*= (a
//	                              file git writes), … in
//	                              any assignment form: VAR=x cmd, env, sudo,
//	                              export/declare/local/readonly, read,
//	                              printf -v, mapfile, getopts, for VAR in,
//	                              ${VAR:=x}
//	redirect.network              a redirect to /dev/tcp/… or /dev/udp/…
//	git.dangerous_config          git -c core.pager=… and other keys that run
//	                              commands, git config setting them (or
//	                              --edit, --rename-section), git
//	                              --exec-path=, fetch/clone/ls-remote
//	                              --upload-pack, push --receive-pack,
//	                              archive --exec, clone --template,
//	                              grep -O, send-email --*-cmd
//
// # Words and files
//
// A [Word] holds the decoded value; Dynamic marks a value that depends on
// run time ($VAR), Glob a pattern that bash expands against the file
// system (expand [Word.Pattern] with [Glob]); after a shopt, which may
// change what globs match, glob words are also Dynamic. Brace expansion is
// applied as bash applies it, to the raw text before any other expansion
// ({x}a,b} is "x}a" and "b"; {$,}HOME is "$HOME" and "HOME"), and each
// result is analysed again: one Word per result. [Command.Files] lists
// candidate file references:
// operands, --opt=value values, @FILE, git's REV:PATH and redirect
// targets, with writes and recursive reads marked; words that might be
// paths (a grep pattern, a sed script, a short option's attached value)
// are FileRefs with Maybe set; /dev/null, the
// standard streams and fd duplications are not files. [Command.Unknown]
// names arguments nobody can see statically (xargs input, find's {}).
// [Command.Cwd] follows static cd; a cd whose outcome or target is not
// known sets CwdDynamic.
//
// Values known statically resolve: a variable every mention of which is
// a plain reference or an unconditional top-level assignment (F=x,
// a=(x src/*.go), a+=(y)), a for loop's variable over literal words,
// globs or "${a[@]}", and $((…)) over literals. A glob value is reported
// as the glob (one name it matches for a loop variable, all of them for
// an array element), so that the caller expands it; unquoted it is marked
// [Word.Resplit]. Anything else is Dynamic (values.go says exactly what).
//
// # Unknown is not harmless
//
// What the analysis cannot know it reports, never assumes: a directory
// operand of a program not known to ignore directories is a recursive
// read; $PWD and ~+ are unknown once the script can assign PWD, and globs
// once shopt, set or bash -O can change them — everywhere in the source,
// since loops repeat (the source is analysed again with the flag set);
// names a program resolves itself (go doc/list packages, jq modules, git
// pathspec magic, --pathspec-from-file, cat-file --batch) are
// UnknownRefs, outputs it names itself (go build without -o, split) are
// writes; a reference that passes through a path another command links
// or moves (ln, mv, cp -r, a checkout, an extraction) gets an UnknownRef.
//
// # Program knowledge
//
// What the analysis knows about programs is data, program by program, in
// one table, one entry a program and one for each of its subcommands (git
// diff, go test), the entries split by family in the files programs_*.go
// (coreutils, git, go, archives, network, …): each says which operands
// and option values are
// files, read, written or recursive; whether it reads a directory
// operand's files; every option of the programs the default policy
// allows ([Command.UnknownOptions]); the options that make a reader
// write or run a program ([Command.OptionHits], which the policy rates
// as policy.dangerous_option); whether it runs another command (a
// wrapper); and the environment variables it reads, as code or as a
// file. env.go keeps the shell's own variables and the harmless list.
//
// # Security
//
// The analysis is conservative but not a sandbox: it describes what bash
// would do with the exact string it was given. Run that same string, with
// bash, in the same directory (see docs/contract.md, "The pipeline"), or the analysis says
// nothing about what runs.
package parser
