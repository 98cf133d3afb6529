package exec

import (
	"os"
	"syscall"
	"testing"
)

// TestInOwnNS: the readlink shortcut of killSandbox says "own namespace"
// for this process and never for a process in a new user namespace, nor
// for a namespace other than the one asked about.
func TestInOwnNS(t *testing.T) {
	own, err := nsOf("/proc/self/ns/user")
	if err != nil {
		t.Fatal(err)
	}
	if !inOwnNS(os.Getpid(), own) {
		t.Errorf("this process: not in its own namespace")
	}
	if inOwnNS(os.Getpid(), devIno{own.dev, own.ino + 1}) {
		t.Errorf("this process: in a namespace with another inode")
	}
	uid, gid := os.Geteuid(), os.Getegid()
	pid, err := syscall.ForkExec("/bin/sleep", []string{"sleep", "5"}, &syscall.ProcAttr{Sys: &syscall.SysProcAttr{
		Cloneflags:  syscall.CLONE_NEWUSER,
		UidMappings: []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}},
		GidMappings: []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}},
	}})
	if err != nil {
		t.Fatalf("new user namespace: %v", err)
	}
	defer func() {
		syscall.Kill(pid, syscall.SIGKILL)
		var ws syscall.WaitStatus
		syscall.Wait4(pid, &ws, 0, nil)
	}()
	if inOwnNS(pid, own) {
		t.Errorf("a process in a new user namespace: said to be in this one")
	}
	if inOwnNS(1<<30, own) {
		t.Errorf("a process that does not exist: said to be in this one")
	}
}
