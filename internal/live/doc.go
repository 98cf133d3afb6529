// Package live keeps a Guard's policy and ignore files current: a
// [Source] examines the files a policy was loaded from (one stat each,
// the content of a file younger than the racy window) before every
// check, and loads them again into a new [Snapshot] when they changed.
// A snapshot holds the policy, the ignore Matcher, the paths no command
// may write (git's places via package gitdir, the policy file) and the
// analysis memo that belongs to that policy.
package live
