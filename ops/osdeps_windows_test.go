//go:build windows

package ops_test

// Windows has no FIFOs, device nodes or numeric owners: the tests that need
// them skip there (a skipped case tests nothing, so none pretends to pass).

import (
	"errors"
	"os"
	"testing"
)

// mkfifo skips the test: Windows has no named pipes in the file system.
func mkfifo(t *testing.T, path string, perm uint32) {
	t.Helper()
	t.Skip("no FIFOs in a Windows file system")
}

// mknodNull fails: Windows has no device nodes in the file system.
func mknodNull(path string) error { return errors.New("no device nodes on Windows") }

// processGone reports whether no process has the id pid: opening it fails.
func processGone(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return true
	}
	p.Release()
	return false
}

// ownerOf is never reached on Windows: its callers need root
// (os.Geteuid is -1 there) and skip.
func ownerOf(fi os.FileInfo) (uid, gid uint32) {
	panic("ownerOf: Windows files have no numeric owner")
}
