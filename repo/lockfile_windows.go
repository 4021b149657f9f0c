//go:build windows

package repo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"golang.org/x/sys/windows"
)

// lockOffset is where tryLockFile locks one byte: far beyond any state
// file's end. Windows byte-range locks are mandatory (a locked byte cannot
// be read or written through another handle), so locking the bytes a file
// holds would make git unable to read a ref whose lock record is held.
const lockOffset = 1 << 62

// tryLockFile takes an exclusive (or shared) lock on f without waiting:
// LockFileEx with LOCKFILE_FAIL_IMMEDIATELY on one byte at lockOffset. ok is
// false, with no error, when another handle holds a conflicting lock.
// The lock belongs to this handle: Windows drops it when the handle is
// closed or its process ends (after the process is gone, at a time the
// system chooses, so a killed holder's lock can outlive it briefly).
func tryLockFile(f *os.File, exclusive bool) (ok bool, err error) {
	flags := uint32(windows.LOCKFILE_FAIL_IMMEDIATELY)
	if exclusive {
		flags |= windows.LOCKFILE_EXCLUSIVE_LOCK
	}
	ol := lockOverlapped()
	err = windows.LockFileEx(windows.Handle(f.Fd()), flags, 0, 1, 0, ol)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, windows.ERROR_LOCK_VIOLATION), errors.Is(err, windows.ERROR_IO_PENDING):
		return false, nil
	}
	return false, fmt.Errorf("lock %s: %w", f.Name(), err)
}

// unlockFile drops the lock tryLockFile took on f.
func unlockFile(f *os.File) error {
	if err := windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, lockOverlapped()); err != nil {
		return fmt.Errorf("unlock %s: %w", f.Name(), err)
	}
	return nil
}

func lockOverlapped() *windows.Overlapped {
	return &windows.Overlapped{Offset: uint32(lockOffset & 0xffffffff), OffsetHigh: uint32(lockOffset >> 32)}
}

// errOpenedFIFO never occurs on Windows (no FIFOs in the file system); it
// exists so that OpenStateFile reads the same everywhere.
var errOpenedFIFO = errors.New("a FIFO without a reader")

// openStatePath opens name as os.OpenFile does, for one of git-edit's state
// files or records, but shares it for reading, writing and deleting:
// os.OpenFile leaves FILE_SHARE_DELETE out, and then neither git's rename of
// "<ref>.lock" onto a ref nor ours succeeds while the file is open here.
// The handle is not inherited by children. With noFollow, a reparse point
// at the last component (symlink, junction) is opened as itself and
// refused with an error wrapping errReparse (IsLinkError reports it).
// Flags map as in syscall.Open: O_CREATE|O_EXCL is CREATE_NEW (never
// following a link), O_APPEND writes at the end, O_TRUNC truncates after
// the open, and a perm without the owner's write bit makes the new file
// read-only. It does not check what it opened: OpenStateFile does.
func openStatePath(name string, flag int, perm os.FileMode, noFollow bool) (*os.File, error) {
	p, err := windows.UTF16PtrFromString(name)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	var access uint32
	switch flag & (os.O_RDONLY | os.O_WRONLY | os.O_RDWR) {
	case os.O_RDONLY:
		access = windows.GENERIC_READ
	case os.O_WRONLY:
		access = windows.GENERIC_WRITE
	case os.O_RDWR:
		access = windows.GENERIC_READ | windows.GENERIC_WRITE
	}
	if flag&os.O_CREATE != 0 {
		access |= windows.GENERIC_WRITE
	}
	if flag&os.O_APPEND != 0 && flag&os.O_TRUNC == 0 {
		// Append-only access: every write goes to the end, as O_APPEND.
		access &^= windows.GENERIC_WRITE
		access |= windows.FILE_APPEND_DATA | windows.FILE_WRITE_ATTRIBUTES | windows.FILE_WRITE_EA | windows.STANDARD_RIGHTS_WRITE | windows.SYNCHRONIZE
	}
	var create uint32
	attrs := uint32(windows.FILE_ATTRIBUTE_NORMAL)
	switch {
	case flag&(os.O_CREATE|os.O_EXCL) == os.O_CREATE|os.O_EXCL:
		create = windows.CREATE_NEW
		attrs |= windows.FILE_FLAG_OPEN_REPARSE_POINT
	case flag&os.O_CREATE != 0:
		create = windows.OPEN_ALWAYS
	default:
		create = windows.OPEN_EXISTING
	}
	if flag&os.O_CREATE != 0 && perm&0o200 == 0 {
		attrs = windows.FILE_ATTRIBUTE_READONLY | attrs&^windows.FILE_ATTRIBUTE_NORMAL
	}
	if flag&(os.O_WRONLY|os.O_RDWR) == 0 {
		attrs |= windows.FILE_FLAG_BACKUP_SEMANTICS // a directory opens, and is then refused as not regular
	}
	if noFollow {
		attrs |= windows.FILE_FLAG_OPEN_REPARSE_POINT
	}
	share := uint32(windows.FILE_SHARE_READ | windows.FILE_SHARE_WRITE | windows.FILE_SHARE_DELETE)
	h, err := windows.CreateFile(p, access, share, nil, create, attrs, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: name, Err: err}
	}
	if noFollow {
		var fi windows.ByHandleFileInformation
		if err := windows.GetFileInformationByHandle(h, &fi); err != nil {
			windows.CloseHandle(h)
			return nil, &os.PathError{Op: "open", Path: name, Err: err}
		}
		if fi.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0 {
			windows.CloseHandle(h)
			return nil, &os.PathError{Op: "open", Path: name, Err: errReparse}
		}
	}
	f := os.NewFile(uintptr(h), name)
	if flag&os.O_TRUNC != 0 {
		if err := f.Truncate(0); err != nil {
			f.Close()
			return nil, &os.PathError{Op: "truncate", Path: name, Err: err}
		}
	}
	return f, nil
}

// linkCount is the number of names (hard links) the file open as f has.
func linkCount(f *os.File) (uint64, error) {
	var fi windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(windows.Handle(f.Fd()), &fi); err != nil {
		return 0, &fs.PathError{Op: "inspect", Path: f.Name(), Err: err}
	}
	return uint64(fi.NumberOfLinks), nil
}
