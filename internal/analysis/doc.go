// Package analysis turns a command string into the part of the policy
// input that no file decides, and remembers it.
//
// [Analyse] runs the parser ([parser.Analyze] and [parser.WriteThenRun])
// on a [Key] — the string, the directory, the few variables of the trusted
// environment the parser reads, and the request's added variables — and
// converts the result into policy commands and findings. A [Memo] keeps
// the analyses of strings checked more than once, bounded; [Memo.Input]
// hands each check its own copy of the lists (an arena per input), whose
// Files the file checks then fill. Nothing here reads the file system,
// the clock or the host's environment.
package analysis
