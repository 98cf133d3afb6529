package main

import "syscall"

// agentAttr makes the ACP agent end with cmdguard, even when cmdguard is
// killed.
func agentAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM} }
