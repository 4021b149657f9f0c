// Package oneshot tunes the Go runtime's garbage collector for a process
// that does one operation and exits, as each `git-edit` command does:
// importing it (for its init) turns the collector off until the process
// first holds FirstGC bytes, then back to the default pacing.
//
// A cold edit allocates a few MiB and exits in milliseconds; the collector,
// which starts its first cycle at a 4 MiB heap, spends about 2 ms of such
// a process (measured in a clone of git's own repository) on memory the
// exit gives back anyway. Past FirstGC, as for a large file, the default
// pacing holds peak memory where it was.
//
// A person who sets GOGC or GOMEMLIMIT keeps their setting: the package
// then does nothing.
package oneshot

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
)

// FirstGC is the memory the process may hold before its first collection.
const FirstGC = 40 << 20

func init() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(FirstGC)
	// The first collection (the limit reached) finalizes this sentinel;
	// from then on the default pacing applies.
	sentinel := new([16]byte)
	runtime.SetFinalizer(sentinel, func(*[16]byte) {
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	})
}
