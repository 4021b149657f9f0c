//go:build unix

package main

import (
	"errors"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// terminalWidth reports whether f is a terminal and, if so, its width in
// columns (0 when the terminal does not say).
func terminalWidth(f *os.File) (cols int, isTerminal bool) {
	ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ)
	if err != nil {
		return 0, false
	}
	return int(ws.Col), true
}

// isBrokenPipe reports a write to a pipe whose reader is gone (a pager
// the person quit): EPIPE.
func isBrokenPipe(err error) bool { return errors.Is(err, syscall.EPIPE) }
