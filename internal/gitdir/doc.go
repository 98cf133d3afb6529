// Package gitdir finds, as git does, where a work tree keeps what makes
// git run code or change what it does — its configuration and hooks,
// through .git files, commondir, core.hooksPath, includes and submodules
// — and git's core.ignorecase. Its input is a directory; it reads git's
// files and nothing else.
package gitdir
