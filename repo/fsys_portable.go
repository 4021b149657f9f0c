//go:build unix && (gitedit_portable || !(linux || darwin))

package repo

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// The portable primitives, for the unix systems without Linux's or macOS's
// (FreeBSD and the other BSDs), and on Linux and macOS with the
// gitedit_portable tag so that these paths are tested there: a
// no-replace rename by link and unlink, no atomic exchange (the swap's
// fallback), no read leases (the no-lease path), time.Now as the clock
// and no file system trusted for the racy-stat rule.

// renameNoReplace renames from to to inside d unless to exists (EEXIST),
// by linking and unlinking.
func renameNoReplace(d *workDir, from, to string) error { return linkRename(d, from, to) }

// exchange cannot swap atomically here: always errNoExchange, with nothing
// changed.
func exchange(*workDir, string, string) error { return errNoExchange }

// errNoLease: this system has no read leases, so holdOffWriters takes the
// no-lease path.
var errNoLease = errors.New("no read leases")

func setReadLease(*os.File) error { return errNoLease }

// leaseBroken is only asked about a lease setReadLease took: never here.
func leaseBroken(*os.File) bool { return true }

// clockNow reads the clock: time.Now, as nothing is known of the clock
// the file system stamps files with (localClockFS trusts none).
var clockNow = func() fsTime { return unix.NsecToTimespec(time.Now().UnixNano()) }

// localClockFS: no file system is trusted for the racy-stat rule.
func localClockFS(*os.File) bool { return false }
