//go:build windows

package session_test

// Windows has no FIFOs, device nodes or numeric owners: the tests that need
// them skip there (a skipped case tests nothing, so none pretends to pass).

import (
	"os"
	"testing"
	"time"

	"golang.org/x/sys/windows"
)

// mkfifo skips the test: Windows has no named pipes in the file system.
func mkfifo(t *testing.T, path string, perm uint32) {
	t.Helper()
	t.Skip("no FIFOs in a Windows file system")
}

// ownerOf is never reached on Windows: its callers need root
// (os.Geteuid is -1 there) and skip.
func ownerOf(fi os.FileInfo) (uid, gid uint32) {
	panic("ownerOf: Windows files have no numeric owner")
}

// cpuTime is the process's user and kernel time so far.
func cpuTime() time.Duration {
	var creation, exit, kernel, user windows.Filetime
	if err := windows.GetProcessTimes(windows.CurrentProcess(), &creation, &exit, &kernel, &user); err != nil {
		return 0
	}
	// Filetimes count 100 ns ticks.
	ticks := func(f windows.Filetime) int64 { return int64(f.HighDateTime)<<32 | int64(f.LowDateTime) }
	return time.Duration((ticks(kernel) + ticks(user)) * 100)
}
