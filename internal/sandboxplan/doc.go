// Package sandboxplan works out what a project's kernel sandbox hides
// and protects before a command runs, and what the run must not have
// created once it ends: from the project root, the policy (its ignore
// files and patterns, hide: and protect:) and the home directories, it
// finds the ignored files to hide (with their other hard links), the
// paths to make read-only (git's places via package gitdir, policy and
// ignore files, each link on the way), and watches the protected paths
// that do not exist yet; [Plan.After] moves aside what was created there.
// The executor (package exec) applies the plan.
package sandboxplan
