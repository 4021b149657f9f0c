//go:build unix

package gittest

import (
	"io/fs"
	"syscall"
)

// fileOwner is repo.FileOwner (this package cannot import repo: repo's own
// tests import it): the numeric owner and group of fi, when it has them.
func fileOwner(fi fs.FileInfo) (uid, gid int, ok bool) {
	if st, isUnix := fi.Sys().(*syscall.Stat_t); isUnix {
		return int(st.Uid), int(st.Gid), true
	}
	return 0, 0, false
}
