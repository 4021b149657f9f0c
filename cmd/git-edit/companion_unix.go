//go:build unix

package main

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// execCompanion runs the program at path with args in this process's
// place (execve, as git runs its helpers): the companion gets this
// process's id, environment, standard streams and signals, and its exit
// status is the command's. It returns only on failure. With streams other
// than the process's own it runs the companion as a child instead
// (runCompanion).
func execCompanion(path string, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if stdin != io.Reader(os.Stdin) || stdout != io.Writer(os.Stdout) || stderr != io.Writer(os.Stderr) {
		return runCompanion(path, args, stdin, stdout, stderr)
	}
	err := syscall.Exec(path, append([]string{path}, args...), os.Environ())
	return fmt.Errorf("running %s: %w", path, err)
}
