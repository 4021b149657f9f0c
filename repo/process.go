package repo

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// processStart returns the start time of process pid (field 22 of
// /proc/<pid>/stat, in clock ticks since boot). With the pid it names one
// process for good: a pid reused by a later process has another start time.
func processStart(pid int) (uint64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name (field 2) may hold spaces and parentheses: the
	// fields after it start behind the last ')'.
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return 0, fmt.Errorf("parse /proc/%d/stat", pid)
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return 0, fmt.Errorf("parse /proc/%d/stat", pid)
	}
	return strconv.ParseUint(f[19], 10, 64) // field 22 is the 20th after ')'
}

// processAlive reports whether the process that recorded (pid, start) still
// runs. Without /proc it falls back to signal 0, which a reused pid fools.
func processAlive(pid int, start uint64) bool {
	if pid <= 0 {
		return false
	}
	got, err := processStart(pid)
	if err == nil {
		return start == 0 || got == start
	}
	if errors.Is(err, os.ErrNotExist) {
		if _, statErr := os.Stat("/proc/self/stat"); statErr == nil {
			return false // /proc works, and pid is not in it
		}
	}
	return !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
