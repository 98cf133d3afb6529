// Package seatbelt writes the macOS sandbox (Seatbelt) profile for a
// command: the exec package's Linux sandbox promises, in SBPL. It is pure
// Go, runs and is tested on any system; only applying the profile needs a
// Mac.
//
// [Translate] turns ignore files (gitignore syntax, as the gate reads its
// hide patterns) into regular expressions over absolute paths that hide
// exactly what `git check-ignore` ignores, and everything under an ignored
// directory. Seatbelt checks its rules at every access, so a file created
// after the start that a pattern names is hidden too (no Linux layer here
// does that). A negation ("!keep.pem") cannot be written as a deny rule:
// one that could give back something an earlier pattern hides is not
// honoured (its paths stay hidden) and is listed in
// [Translation.Negations] for the run's result.
//
// [Profile] writes the profile: deny by default; processes, a few
// sysctls and system services; reading everywhere but the hidden paths;
// writing only below the writable places (the project, a private
// temporary directory, caches); the network off, limited to the egress
// proxy's loopback port, or on; Unix sockets closed but for the run's
// own. The profile goes to the kernel through a file descriptor
// (`sandbox-exec -f /dev/fd/N`, or sandbox_init(3) given its text), never
// as a command-line argument.
//
// # The regular expressions
//
// Seatbelt's (regex #"…") filter takes Apple's own regex dialect, close
// to POSIX extended regular expressions. Everything written here keeps to
// the part on which POSIX ERE and Go's RE2 agree (see [CompileRegex]):
// "^ $ [set] [^set] * + ? ( ) |" and backslash-escaped punctuation; never
// "{m,n}" (Apple's support for intervals is not known), "(?:", "\d", lazy
// or nested repetition, '\' inside brackets (POSIX reads it as itself, Go
// as an escape), or '.' (Go's does not match '\n', POSIX's does: "any
// byte" is written "[^/]" or "(/[^/]*)*"). Every expression is anchored
// at both ends, so it means the same whether the engine searches or
// matches whole paths. The package's own matcher for that subset is
// fuzzed against Go's regexp (FuzzSubsetMatcher), and the expressions
// Translate writes are run through it on the ignore package's git
// check-ignore cases (TestTranslateAgreesWithGit).
//
// Bytes a profile cannot hold as themselves — control bytes, DEL, bytes
// from 0x80 up, '"' (it ends the #"…" literal) and '\' — are written as a
// class that holds them all ([Rule.Widened]): the rule then hides more
// paths, never fewer. A writable place, the socket or another path of an
// allow rule with a control byte or invalid UTF-8 is an error instead.
//
// Letter case: the default APFS volume ignores case, and which spelling
// Seatbelt compares (the one typed or the one on disk) is for a Mac to
// confirm; so every letter of a deny rule's path is written "[xX]"
// (unless [Policy.CaseSensitive]), and hide patterns translated with
// FoldCase fold as git's core.ignorecase does.
//
// # What only a Mac can confirm
//
// The tests here check the profile against a model of Seatbelt
// (TestProfilePromises). The exec package applies the profile on macOS
// (sandbox_darwin.go), and `cmdguard sandbox selftest` tries its promises
// on the machine (docs/sandbox-macos.md says what a Mac user should send
// back). These assumptions of the model, and of the spelling, need a real
// Mac:
//
//   - Rule precedence: the last matching rule decides, so a deny written
//     after (allow file-read*) or (allow file-write* (subpath …)) wins,
//     and the run's socket allowed after a deny of all Unix sockets is
//     reachable.
//   - The regex dialect: each escaped byte (\. \[ \] \( \) \* \+ \? \{ \}
//     \| \^ \$ \\) is a literal; ']' first and '-' last in a bracket are
//     members; [^/] matches '\n', every byte from 0x80 up one byte at a
//     time (a UTF-8 name's two bytes are two matches of "?"), and the
//     control bytes; ranges compare byte values. #"…" passes backslashes
//     to the regex untouched.
//   - String literals: "\\" and "\"" are a backslash and a quote; UTF-8
//     in a (subpath "…") is compared as bytes.
//   - Path spelling: the kernel reports /private/tmp, /private/var and
//     /private/etc (never /tmp …); whether a path under a firmlink can
//     reach Seatbelt as /System/Volumes/Data/… (deny rules take both,
//     allow rules only the short one, so a write there would be refused);
//     whether the spelling compared is the one typed or the one on disk
//     (".ENV" for ".env").
//   - file-write-unlink is what renaming a file or directory away checks
//     (on the source); (vnode-type DIRECTORY) in a require-all holds for
//     a directory being renamed; file-write-create is checked on the new
//     name.
//   - Hard links and clones: (deny file-link) refuses link(2) whatever
//     the names; (deny file-clone (regex …)) refuses clonefile(2) of a
//     hidden source; a hidden file cannot be read through an existing
//     hard link (the rules see one name only — the selftest should try
//     one made before the start).
//   - Network: (remote ip "localhost:PORT") covers 127.0.0.1 and ::1 and
//     nothing else; (remote unix-socket (path-regex …)) and (local
//     unix-socket …) are the filters for connect and bind of a Unix
//     socket; with (allow network*) and those denies, DNS through
//     mDNSResponder still works.
//   - Every operation and filter name used exists on the macOS versions
//     supported (an unknown name makes sandbox-exec refuse the profile:
//     the command does not run), and the base allowances let a shell,
//     git, go, node and python run.
//   - Nested sandboxes: a command started by an agent that already runs
//     in its own Seatbelt sandbox gets both (the stricter wins), or
//     sandbox-exec fails there.
//   - Cost: the time to compile a profile with hundreds of folded
//     regexes, and per access.
package seatbelt
