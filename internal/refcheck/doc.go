// Package refcheck checks the files a command names against the project:
// each reference is resolved (symbolic links followed, globs expanded as
// bash does), matched against the ignore files and checked against the
// protected paths and the project root, and what it finds becomes the
// policy input's Files and findings (ignore.denied, path.protected,
// path.outside_root, path.glob_option, ignore.unknown_ref, …).
//
// Its inputs are explicit: a [Checker] holds the root, the ignore
// Matcher and the protected paths of one check.
package refcheck
