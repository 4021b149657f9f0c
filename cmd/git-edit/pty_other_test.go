//go:build !linux

package main

import (
	"os"
	"testing"
)

// openPTY: the pseudo-terminal is opened through Linux's /dev/ptmx ioctls
// (pty_linux_test.go); elsewhere the terminal tests skip.
func openPTY(t *testing.T) (term, reader *os.File) {
	t.Helper()
	t.Skip("pseudo-terminal tests run on Linux only")
	return nil, nil
}
