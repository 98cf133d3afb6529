//go:build !linux

package main

import "syscall"

// agentAttr is nil: only Linux has Pdeathsig. Elsewhere the agent sees
// its standard input close when cmdguard ends.
func agentAttr() *syscall.SysProcAttr { return nil }
