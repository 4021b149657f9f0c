//go:build unix

package ops_test

// The calls of this package's tests that exist only on unix; the Windows
// file beside this one says what they do there.

import (
	"errors"
	"os"
	"syscall"
	"testing"
)

// mkfifo makes a named pipe at path, with perm bits.
func mkfifo(t *testing.T, path string, perm uint32) {
	t.Helper()
	if err := syscall.Mkfifo(path, perm); err != nil {
		t.Fatal(err)
	}
}

// mknodNull makes a character device at path with /dev/null's numbers (1,3).
func mknodNull(path string) error { return syscall.Mknod(path, syscall.S_IFCHR|0o644, 1<<8|3) }

// processGone reports whether no process has the id pid.
func processGone(pid int) bool { return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) }

// ownerOf is the numeric owner and group of fi.
func ownerOf(fi os.FileInfo) (uid, gid uint32) {
	st := fi.Sys().(*syscall.Stat_t)
	return st.Uid, st.Gid
}
