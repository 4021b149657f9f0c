//go:build windows

package main

// Windows has no FIFOs, device nodes or numeric owners: the tests that need
// them skip there (a skipped case tests nothing, so none pretends to pass).

import "testing"

// mkfifo skips the test: Windows has no named pipes in the file system.
func mkfifo(t *testing.T, path string, perm uint32) {
	t.Helper()
	t.Skip("no FIFOs in a Windows file system")
}
