//go:build unix

package session_test

// The calls of this package's tests that exist only on unix; the Windows
// file beside this one says what they do there.

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// mkfifo makes a named pipe at path, with perm bits.
func mkfifo(t *testing.T, path string, perm uint32) {
	t.Helper()
	if err := syscall.Mkfifo(path, perm); err != nil {
		t.Fatal(err)
	}
}

// ownerOf is the numeric owner and group of fi.
func ownerOf(fi os.FileInfo) (uid, gid uint32) {
	st := fi.Sys().(*syscall.Stat_t)
	return st.Uid, st.Gid
}

// cpuTime is the process's user and system time so far.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
