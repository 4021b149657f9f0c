//go:build unix

package main

// The calls of this package's tests that exist only on unix; the Windows
// file beside this one says what they do there.

import (
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
