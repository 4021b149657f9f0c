//go:build windows

package main

import "io"

// execCompanion runs the program at path with args in this command's
// place: Windows cannot replace a process, so the companion runs as a
// child on the same standard streams, and its exit status is returned as
// the command's (runCompanion).
func execCompanion(path string, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	return runCompanion(path, args, stdin, stdout, stderr)
}
