// Package ignore decides which files of a project are off limits, from the
// ignore files that AI coding agents honour (.cmdguardignore, .rooignore,
// .cursorignore, …) and the policy's inline patterns, with exactly the
// semantics of git's .gitignore matching.
//
// [Load] prepares a [Matcher] for a project root without walking the
// tree: as git does, the ignore files of a directory are read when a path
// below it is first matched, and only those on the way to it (none below
// an ignored directory). The Matcher answers [Matcher.Match] for a path
// and whether it is a directory, [Matcher.MatchPath] for a path of
// unknown type (ignored as a file or as a directory), and
// [Matcher.CheckDir] (or [Matcher.ContainsIgnored]) for "does this
// directory hold anything ignored", walking only that subtree, bounded by
// Options.MaxEntries; each answer names the file:line of the deciding
// pattern. It keeps what it read and walked, and after
// [Matcher.Refresh] examines each kept directory and ignore file again
// with one stat (mtime, size, inode, ctime) at its next use, so that a
// long-lived Matcher sees ignore files created, edited and deleted.
// [Resolve] supplies the path facts a gate needs before matching: the
// path as written and as the kernel would open it (symlinks resolved,
// also for paths that do not exist yet), and whether either leaves the
// root ([Matcher.Resolve] is the same, cheaper: it keeps the entries it
// looked up while their directory's stat is unchanged).
// [Matcher.MatchRef] does both for one file reference. [ExpandHome]
// expands a leading ~ or $HOME.
//
// # Semantics
//
// Matching follows gitignore(5) and git's wildmatch, and is tested against
// git check-ignore as the oracle: blank lines and '#' comments, unescaped
// trailing spaces trimmed, a trailing CR dropped, a leading UTF-8 BOM
// skipped; '!' negates; a trailing '/' matches directories only; a '/' at
// the start or in the middle anchors the pattern to the directory of its
// file, otherwise it matches the last path component at any depth; '*',
// '?' and bracket expressions ([a-z], [!a], [^a], []a], [[:alpha:]] and the
// other POSIX classes, ASCII only) do not match '/'; '**' as a whole
// component matches any number of directories (leading "**/", trailing
// "/**", middle "/**/"), and elsewhere acts like '*'; a backslash escapes
// the next byte (\#, \!, \ , \*). Matching is byte-wise and
// case-sensitive, unless Options.FoldCase is set or Load finds the root on
// a case-insensitive file system: then ASCII letters match either case as
// with git's core.ignorecase, quirks included (an escaped letter or a
// single bracket member compares as written, so "\A" and "[A]" match
// nothing; ranges and [:upper:]/[:lower:] fold).
// The last matching line of the deepest file decides, and a path under an
// excluded directory is ignored whatever later patterns say: git does not
// even look inside an excluded directory, so nothing there can be
// re-included.
//
// Each ignore-file name is its own git-style stack of files, and a path is
// ignored when any stack (or the inline patterns) ignores it: each agent
// honours only its own file, so a '!' in .cursorignore must not re-include
// what .rooignore hides. With a single name (for example ".gitignore") the
// answers are git's.
//
// Unlike git, a pattern that git would silently never match because it
// can never parse — an unclosed '[' or an unknown [:class:] — is an error
// ([*Error], with file:line), as is an unreadable ignore file: a broken
// promise to keep a file private must not pass unnoticed. A pattern
// ending in an unescaped backslash matches nothing, as in git, and is not
// an error (one stray line must not fail every check); [Warnings] reports
// it, and cmdguard policy lint warns. Ignore files are read through symbolic links (git refuses
// in-tree symlinked .gitignore files); that only ever adds patterns.
//
// # Why not a gitignore library
//
// On a 232-case corpus checked against git check-ignore,
// github.com/sabhiram/go-gitignore agreed on 87% (no '?' or [!a], regexp
// characters and escaped spaces mishandled, patterns silently dropped,
// files under ignored directories re-included, no nested files) and
// go-git's plumbing/format/gitignore on 95%. For a security gate the
// matcher must agree on every case, so this package implements git's
// documented semantics itself, compiled once per file read (no regexp), and
// proves them with a differential test against git.
//
// # Security
//
// Match works on the path as given. A gate must check both the written
// path and the real path from [Resolve] (a symlink to an ignored file is
// as good as the file), treat paths outside the root separately, and use
// MatchPath for paths that do not exist yet; [Matcher.MatchRef] does all
// of that. Writes to ignore files ([Matcher.IsIgnoreFile]) should be
// refused, since a new nested file with "!*" re-includes its subtree;
// call Refresh before each check so that changes made meanwhile count.
// A file or directory whose timestamps are younger than two seconds when
// examined is examined again (files re-read and compared) at every use,
// since a change within one tick of the file system's clock can leave
// its stat unchanged (git's "racy" entries). An ignore file that is not
// a regular file (a FIFO would block) or cannot be read is an error, and
// Match fails closed on it. A subdirectory that cannot be listed counts
// as containing ignored files, but ignore files inside it cannot be
// read. Backtracking over several '**' can be made to take minutes with
// a long crafted path (in git too); Match bounds its work per call, and a
// pattern it cannot decide within the bound counts as matching if it
// ignores and as not matching if it re-includes.
package ignore
