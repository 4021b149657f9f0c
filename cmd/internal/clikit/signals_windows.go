//go:build windows

package clikit

import "os"

// ShutdownSignals end a command cleanly: Ctrl-C and Ctrl-Break (and the
// console closing) arrive as os.Interrupt on Windows; there is no SIGTERM.
var ShutdownSignals = []os.Signal{os.Interrupt}
