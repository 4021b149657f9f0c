//go:build darwin && !gitedit_portable

package repo

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/unix"
)

// macOS's primitives: renameatx_np RENAME_EXCL and RENAME_SWAP (APFS and
// HFS+; other file systems such as exFAT, SMB and NFS take the fallbacks),
// no read leases (the no-lease path and its stated window), time.Now as
// the clock and no file system trusted for the racy-stat rule (always
// hash: slower, never wrong).

// renameNoReplace renames from to to inside d unless to exists (EEXIST).
// Where the file system lacks RENAME_EXCL it links and unlinks instead,
// which is as atomic for this purpose.
func renameNoReplace(d *workDir, from, to string) error {
	err := unix.RenameatxNp(d.fd(), from, d.fd(), to, unix.RENAME_EXCL)
	if !noRenameFlag(err) {
		return err
	}
	return linkRename(d, from, to)
}

// exchange swaps the files named a and b inside d atomically, or returns
// errNoExchange where the file system cannot.
func exchange(d *workDir, a, b string) error {
	err := unix.RenameatxNp(d.fd(), a, d.fd(), b, unix.RENAME_SWAP)
	if noRenameFlag(err) {
		return errNoExchange
	}
	return err
}

// noRenameFlag reports an error renameatx_np gives for a flag the file
// system does not implement (ENOTSUP per its manual; EOPNOTSUPP, EINVAL
// and ENOSYS from other file systems and older systems).
func noRenameFlag(err error) bool {
	return errors.Is(err, unix.ENOTSUP) || errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS)
}

// errNoLease: this system has no read leases usable here (xnu's
// F_SETLEASE is not verified yet), so holdOffWriters takes the no-lease
// path.
var errNoLease = errors.New("no read leases")

func setReadLease(*os.File) error { return errNoLease }

// leaseBroken is only asked about a lease setReadLease took: never here.
func leaseBroken(*os.File) bool { return true }

// clockNow reads the clock: time.Now, as nothing is known of the clock
// the file system stamps files with (localClockFS trusts none).
var clockNow = func() fsTime { return unix.NsecToTimespec(time.Now().UnixNano()) }

// localClockFS: no file system is trusted for the racy-stat rule yet.
func localClockFS(*os.File) bool { return false }
