//go:build unix

package clikit

import (
	"os"
	"syscall"
)

// ShutdownSignals end a command cleanly: its context is cancelled, so
// locks are released and nothing is left half done.
var ShutdownSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}
