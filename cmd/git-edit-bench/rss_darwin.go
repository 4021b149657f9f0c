package main

import (
	"os"
	"syscall"
)

// peakRSS is a finished process's peak resident set size in bytes:
// macOS gives ru_maxrss in bytes.
func peakRSS(ps *os.ProcessState) (int64, bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, false
	}
	return int64(ru.Maxrss), true
}
