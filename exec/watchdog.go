package exec

import (
	"fmt"
	"os"
	osexec "os/exec"
	"sync"
	"syscall"
)

// The watchdog ends the commands of a program that dies.
//
// Each command's bash is started in a session of its own (on Linux with
// Pdeathsig, so the kernel kills it when this program dies, even by
// SIGKILL; macOS has no such thing); but what bash started lives on.
// The watchdog is one bash process per program, in a process group of its
// own that ignores the terminal's signals, which reads "add PGID" and
// "del PGID" lines from a pipe that only this program holds open. When
// this program ends, however it ends, the kernel closes the pipe, and the
// watchdog ends every cgroup of this program's commands (cgroup.kill),
// kills every process group still registered, and every other
// process of their sessions (a program may make a group of its own:
// timeout does). A group is unregistered before its leader is reaped, so
// a reused group or session id is never killed. A process that leaves
// the session (setsid, a daemon) escapes both.
var dog struct {
	mu   sync.Mutex
	w    *os.File // write end of the watchdog's stdin, nil until started or after it died
	pid  int
	busy bool // start failed: do not retry on every command
}

// watchdogScript reads the registrations, and at the end of its input
// ends every cgroup of this program's commands (their directories start
// with $1, see reaper_linux.go), kills the registered groups, then the
// other groups of their sessions (timeout cmd & makes one) with the
// platform's watchdogSessions.
const watchdogScript = `trap '' INT TERM HUP QUIT TSTP TTIN TTOU
cgp=$1
declare -A g
while read -r op id; do
	case $op in
	add) g[$id]=1 ;;
	del) unset "g[$id]" ;;
	esac
done
[[ $cgp ]] && for d in "$cgp"*; do echo 1 > "$d/cgroup.kill"; done 2>/dev/null
(( ${#g[@]} )) || exit 0 # nothing registered is left: no pass over the processes
for id in "${!g[@]}"; do kill -KILL -- "-$id"; done 2>/dev/null
` + watchdogSessions

// watch registers process group pgid with the watchdog, starting it if
// needed. A command in a cgroup is not registered: the watchdog ends all
// of this program's cgroups. It is best effort: without a watchdog,
// Pdeathsig still ends the command's bash on Linux.
func watch(pgid int, cg *cgroup) {
	if cg != nil {
		dogSend("")
		return
	}
	dogSend(fmt.Sprintf("add %d\n", pgid))
}

// unwatch unregisters process group pgid.
func unwatch(pgid int, cg *cgroup) {
	if cg == nil {
		dogSend(fmt.Sprintf("del %d\n", pgid))
	}
}

func dogSend(line string) {
	dog.mu.Lock()
	defer dog.mu.Unlock()
	if dog.w == nil && !dog.busy {
		if err := startWatchdog(); err != nil {
			dog.busy = true
			return
		}
	}
	if dog.w == nil || line == "" {
		return
	}
	// Lines are far shorter than PIPE_BUF, so each write is atomic.
	if _, err := dog.w.WriteString(line); err != nil {
		// The watchdog died: start a new one next time. The groups it
		// watched are not re-registered (they still have Pdeathsig).
		dog.w.Close()
		dog.w = nil
	}
}

// startWatchdog starts the watchdog; dog.mu is held.
func startWatchdog() error {
	bash, err := osexec.LookPath("bash")
	if err != nil {
		return err
	}
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	defer r.Close()
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		w.Close()
		return err
	}
	defer null.Close()
	pid, _, err := syscall.StartProcess(bash, []string{"cmdguard-watchdog", "-c", watchdogScript, "cmdguard-watchdog", cgroupPrefix()}, &syscall.ProcAttr{
		Dir:   "/",
		Env:   []string{},
		Files: []uintptr{r.Fd(), null.Fd(), null.Fd()},
		Sys:   &syscall.SysProcAttr{Setpgid: true},
	})
	if err != nil {
		w.Close()
		return err
	}
	dog.w, dog.pid = w, pid
	go func() {
		// Reap it if it ever ends, so it does not stay a zombie.
		var ws syscall.WaitStatus
		for {
			if _, err := syscall.Wait4(pid, &ws, 0, nil); err != syscall.EINTR {
				return
			}
		}
	}()
	return nil
}
