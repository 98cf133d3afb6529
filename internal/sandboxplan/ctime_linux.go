package sandboxplan

import "syscall"

// ctime returns st's change time in nanoseconds.
func ctime(st *syscall.Stat_t) int64 { return st.Ctim.Nano() }

// mtime returns st's modification time in nanoseconds.
func mtime(st *syscall.Stat_t) int64 { return st.Mtim.Nano() }
