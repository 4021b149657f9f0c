package main

import "syscall"

// maxRSSBytes is a finished process's peak resident set size in bytes:
// macOS gives ru_maxrss in bytes.
func maxRSSBytes(ru *syscall.Rusage) int64 { return int64(ru.Maxrss) }
