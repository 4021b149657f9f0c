//go:build windows

package main

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// terminalWidth reports whether f is a console and, if so, the width of
// its window in columns.
func terminalWidth(f *os.File) (cols int, isTerminal bool) {
	var info windows.ConsoleScreenBufferInfo
	if err := windows.GetConsoleScreenBufferInfo(windows.Handle(f.Fd()), &info); err != nil {
		return 0, false
	}
	return int(info.Window.Right-info.Window.Left) + 1, true
}

// isBrokenPipe reports a write to a pipe whose reader is gone (a pager
// the person quit): ERROR_BROKEN_PIPE, or ERROR_NO_DATA when the pipe is
// being closed.
func isBrokenPipe(err error) bool {
	return errors.Is(err, windows.ERROR_BROKEN_PIPE) || errors.Is(err, windows.ERROR_NO_DATA)
}
