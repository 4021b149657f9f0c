//go:build unix && !darwin

package main

import "syscall"

// maxRSSBytes is a finished process's peak resident set size in bytes:
// ru_maxrss is in kilobytes on Linux and the BSDs.
func maxRSSBytes(ru *syscall.Rusage) int64 { return int64(ru.Maxrss) * 1024 }
