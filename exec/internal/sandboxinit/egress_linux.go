package sandboxinit

import "syscall"

// egressListen makes the command's way out to the network: a listening
// socket on 127.0.0.1:port of the new network namespace, sent to the
// caller through EgressFd, whose proxy accepts its connections from
// outside the namespace (a socket stays in the namespace it was made in,
// whoever holds it). The setup then waits for the caller's word that the
// proxy serves it: without it, the command does not start.
func egressListen(port int) string {
	defer syscall.Close(EgressFd)
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return errnoMsg("egress: socket", "", err)
	}
	defer syscall.Close(fd)
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Port: port, Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		return errnoMsg("egress: bind 127.0.0.1:"+itoa(port), "", err)
	}
	if err := syscall.Listen(fd, 4096); err != nil {
		return errnoMsg("egress: listen", "", err)
	}
	if err := syscall.Sendmsg(EgressFd, []byte{'L'}, syscall.UnixRights(fd), nil, 0); err != nil {
		return errnoMsg("egress: send the listener", "", err)
	}
	var b [1]byte
	for {
		n, err := syscall.Read(EgressFd, b[:])
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n != 1 || b[0] != 'S' {
			return "egress: the proxy did not start"
		}
		return ""
	}
}
