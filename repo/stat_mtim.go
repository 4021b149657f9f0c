//go:build unix && !(darwin || freebsd || netbsd)

package repo

import "syscall"

// statTimesNs returns st's mtime and ctime in nanoseconds (syscall names
// them Mtim and Ctim here, Mtimespec and Ctimespec on the BSDs).
func statTimesNs(st *syscall.Stat_t) (mtime, ctime int64) {
	return st.Mtim.Nano(), st.Ctim.Nano()
}
