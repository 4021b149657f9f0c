//go:build darwin || freebsd || netbsd

package repo

import "syscall"

// statTimesNs returns st's mtime and ctime in nanoseconds (see stat_mtim.go).
func statTimesNs(st *syscall.Stat_t) (mtime, ctime int64) {
	return st.Mtimespec.Nano(), st.Ctimespec.Nano()
}
