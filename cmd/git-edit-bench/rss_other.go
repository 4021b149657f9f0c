//go:build unix && !darwin

package main

import (
	"os"
	"syscall"
)

// peakRSS is a finished process's peak resident set size in bytes:
// ru_maxrss is in kilobytes on Linux and the BSDs.
func peakRSS(ps *os.ProcessState) (int64, bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, false
	}
	return int64(ru.Maxrss) * 1024, true
}
