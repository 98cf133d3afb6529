package exec

import (
	"errors"
	"fmt"
	"net"
	"os"
	"syscall"
	"time"
)

// egressPair makes the Unix socket pair the setup sends its listener
// through (see sandboxinit.EgressFd): the first end is the caller's,
// the second the setup's.
func egressPair() (*os.File, *os.File, error) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("egress: socketpair: %w", err)
	}
	return os.NewFile(uintptr(fds[0]), "egress"), os.NewFile(uintptr(fds[1]), "egress-setup"), nil
}

// egressStart receives the listener the setup made inside the command's
// network namespace, has p serve it, and tells the setup to go on. The
// setup does not start the command without that word: a proxy that
// cannot start means no command.
func egressStart(sock *os.File, p Proxy) error {
	sock.SetReadDeadline(time.Now().Add(sandboxSetupMax))
	conn, err := net.FileConn(sock)
	if err != nil {
		return fmt.Errorf("egress: %w", err)
	}
	defer conn.Close()
	uc, ok := conn.(*net.UnixConn)
	if !ok {
		return errors.New("egress: not a Unix socket")
	}
	uc.SetDeadline(time.Now().Add(sandboxSetupMax))
	buf, oob := make([]byte, 1), make([]byte, syscall.CmsgSpace(4))
	n, oobn, _, _, err := uc.ReadMsgUnix(buf, oob)
	if err != nil || n != 1 {
		return fmt.Errorf("egress: the setup sent no listener (%v)", err)
	}
	msgs, err := syscall.ParseSocketControlMessage(oob[:oobn])
	if err != nil || len(msgs) != 1 {
		return errors.New("egress: the setup sent no listener")
	}
	fds, err := syscall.ParseUnixRights(&msgs[0])
	if err != nil || len(fds) != 1 {
		for _, fd := range fds {
			syscall.Close(fd)
		}
		return errors.New("egress: the setup sent no listener")
	}
	lf := os.NewFile(uintptr(fds[0]), "egress-listener")
	l, err := net.FileListener(lf)
	lf.Close()
	if err != nil {
		return fmt.Errorf("egress: %w", err)
	}
	if err := p.Start(l); err != nil {
		l.Close()
		return fmt.Errorf("egress: start the proxy: %w", err)
	}
	if _, err := uc.Write([]byte{'S'}); err != nil {
		p.Stop()
		return fmt.Errorf("egress: %w", err)
	}
	return nil
}
