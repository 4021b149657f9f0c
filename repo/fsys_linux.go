//go:build linux && !gitedit_portable

package repo

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// Linux's primitives: renameat2 RENAME_NOREPLACE and RENAME_EXCHANGE, read
// leases (F_SETLEASE), the coarse real-time clock the kernel stamps files
// with, and the local file systems whose timestamps come from it. The
// gitedit_portable tag selects fsys_portable.go instead, so that the
// fallback paths other systems take are tested here.

// renameNoReplace renames from to to inside d unless to exists (EEXIST).
// Where the file system lacks renameat2 (NFS, some FUSE file systems) it
// links and unlinks instead, which is as atomic for this purpose.
func renameNoReplace(d *workDir, from, to string) error {
	err := unix.Renameat2(d.fd(), from, d.fd(), to, unix.RENAME_NOREPLACE)
	if !errors.Is(err, unix.EINVAL) && !errors.Is(err, unix.ENOSYS) {
		return err
	}
	return linkRename(d, from, to)
}

// exchange swaps the files named a and b inside d atomically.
func exchange(d *workDir, a, b string) error {
	err := unix.Renameat2(d.fd(), a, d.fd(), b, unix.RENAME_EXCHANGE)
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) {
		return errNoExchange
	}
	return err
}

// setReadLease takes a read lease on f (see holdOffWriters): EAGAIN while
// another program has f open for writing; any other error means no lease
// can be had here.
func setReadLease(f *os.File) error {
	_, err := unix.FcntlInt(f.Fd(), unix.F_SETLEASE, unix.F_RDLCK)
	return err
}

// leaseBroken reports whether the read lease holdOffWriters took on f was
// broken: another program opened f for writing since.
func leaseBroken(f *os.File) bool {
	t, err := unix.FcntlInt(f.Fd(), unix.F_GETLEASE, 0)
	return err != nil || t != unix.F_RDLCK
}

// clockNow reads the clock file timestamps are taken from: the coarse
// real-time clock, which the kernel stamps files with (or a finer reading,
// never an earlier one). Tests replace it.
var clockNow = func() fsTime {
	var ts fsTime
	if err := unix.ClockGettime(unix.CLOCK_REALTIME_COARSE, &ts); err != nil {
		return fsTime{} // nothing is older: nothing is recorded
	}
	return ts
}

// localClockFS reports whether f is on a file system whose timestamps
// come from this kernel's clock.
func localClockFS(f *os.File) bool {
	var st unix.Statfs_t
	if unix.Fstatfs(int(f.Fd()), &st) != nil {
		return false
	}
	switch uint32(st.Type) {
	case unix.EXT4_SUPER_MAGIC, unix.XFS_SUPER_MAGIC, unix.BTRFS_SUPER_MAGIC, unix.TMPFS_MAGIC, unix.OVERLAYFS_SUPER_MAGIC, unix.F2FS_SUPER_MAGIC:
		return true
	}
	return false
}
