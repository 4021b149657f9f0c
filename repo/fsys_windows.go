//go:build windows

package repo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Windows's file-system primitives, the same set fsys_unix.go gives unix.
// A directory handle is an NT handle; every name is opened, made, renamed
// and removed relative to it (NtCreateFile with RootDirectory, then
// SetFileInformationByHandle-style calls on the handle), so that, as on
// unix, a directory swapped for a link between Resolve and the write
// cannot redirect it. No reparse point is ever followed: every open asks
// for OBJ_DONT_REPARSE and FILE_OPEN_REPARSE_POINT, and one that reaches a
// reparse point (a symlink, a junction, a mount point, and also cloud or
// deduplication placeholders, which cannot be told apart safely) is
// refused as a link. Files are opened sharing READ, WRITE and DELETE, so
// that others may read, write, rename or delete them while git-edit has
// them open, as on unix (the checks before and the proof after a swap see
// what they did).
//
// What Windows lacks here: an atomic exchange of two names (exchange
// always gives errNoExchange: the swap's fallback runs), read leases
// (setReadLease gives errNoLease: the no-lease window the README states),
// extended attributes in the unix sense (none are read or copied; a file's
// explicit DACL is not copied to the rewritten file, which gets the
// directory's inherited one), and a trusted clock for the racy-stat rule
// (always hash).

// fsTime is a timestamp as the file system keeps it, in seconds and
// nanoseconds since the Unix epoch.
type fsTime struct{ Sec, Nsec int64 }

func fsTimeOf(ns int64) fsTime { return fsTime{Sec: ns / 1e9, Nsec: ns % 1e9} }

// fileTimeNs converts an NT time (100 ns ticks since 1601) to Unix
// nanoseconds.
func fileTimeNs(t int64) int64 {
	ft := windows.Filetime{LowDateTime: uint32(t), HighDateTime: uint32(t >> 32)}
	return ft.Nanoseconds()
}

// errReparse: an open met a reparse point where git-edit follows none.
var errReparse = errors.New("a reparse point (symlink, junction or mount point) is in the way")

// errBadName: a name handed to a primitive is not one component (it holds
// a separator, a drive or stream colon, or is empty) or ends in a dot or a
// space: never sent to the system, where it would walk, name a stream, or
// make a file Win32 programs cannot open. It wraps fs.ErrInvalid.
var errBadName = fmt.Errorf("%w: not a single path component Windows programs can open", fs.ErrInvalid)

// errNoAttr is the error for an extended attribute that is not there:
// none is, here.
var errNoAttr = errors.New("no such extended attribute")

// errNoXattrs: this system has no extended attributes in the unix sense.
var errNoXattrs = errors.New("no extended attributes on this system")

// errNoLease: Windows has no read leases; holdOffWriters takes its
// no-lease path (a share-mode guard, which would deny writers outright, is
// not taken yet: it would also refuse an editor's save during an edit).
var errNoLease = errors.New("no read leases")

func setReadLease(*os.File) error { return errNoLease }

// leaseBroken is only asked about a lease setReadLease took: never here.
func leaseBroken(*os.File) bool { return true }

// exchange cannot swap two names atomically on Windows: always
// errNoExchange, with nothing changed.
func exchange(*workDir, string, string) error { return errNoExchange }

// clockNow reads the clock: time.Now (localClockFS trusts no file system,
// so it is only compared, never relied on). Tests replace it.
var clockNow = func() fsTime { return fsTimeOf(time.Now().UnixNano()) }

// localClockFS: no file system is trusted for the racy-stat rule here.
func localClockFS(*os.File) bool { return false }

const shareAll = windows.FILE_SHARE_READ | windows.FILE_SHARE_WRITE | windows.FILE_SHARE_DELETE

func (d *workDir) handle() windows.Handle { return windows.Handle(d.f.Fd()) }

// checkName refuses a name that is not a single component, or that the
// NT calls would create but Win32 programs cannot open (a trailing dot or
// space, which Win32 strips).
func checkName(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, `\/:`) || strings.HasSuffix(name, ".") || strings.HasSuffix(name, " ") {
		return fmt.Errorf("%q: %w", name, errBadName)
	}
	return nil
}

// ntOpen opens name relative to the directory handle root (name "" is
// root itself) with access, disposition and options, never following a
// reparse point on the way or at the end. A handle that turns out to be a
// reparse point is closed and refused (errReparse) unless keepReparse.
func ntOpen(root windows.Handle, name string, access, disposition, options, attrs uint32, keepReparse bool) (windows.Handle, error) {
	if name != "" {
		if err := checkName(name); err != nil {
			return windows.InvalidHandle, err
		}
	}
	objName, err := windows.NewNTUnicodeString(name)
	if err != nil {
		return windows.InvalidHandle, err
	}
	oa := &windows.OBJECT_ATTRIBUTES{
		RootDirectory: root,
		ObjectName:    objName,
		// No OBJ_INHERIT: the handle does not leak into filters.
		Attributes: windows.OBJ_CASE_INSENSITIVE | windows.OBJ_DONT_REPARSE,
	}
	oa.Length = uint32(unsafe.Sizeof(*oa))
	var h windows.Handle
	err = windows.NtCreateFile(&h, access|windows.SYNCHRONIZE, oa, &windows.IO_STATUS_BLOCK{}, nil, attrs, shareAll, disposition,
		options|windows.FILE_SYNCHRONOUS_IO_NONALERT|windows.FILE_OPEN_REPARSE_POINT|windows.FILE_OPEN_FOR_BACKUP_INTENT, 0, 0)
	if err != nil {
		return windows.InvalidHandle, ntError(err)
	}
	if !keepReparse {
		var bi fileBasicInfo
		if err := getBasicInfo(h, &bi); err != nil {
			windows.CloseHandle(h)
			return windows.InvalidHandle, err
		}
		if bi.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0 {
			windows.CloseHandle(h)
			return windows.InvalidHandle, errReparse
		}
	}
	return h, nil
}

// ntError maps an NTSTATUS to the Win32 error the classifiers know.
func ntError(err error) error {
	s, ok := err.(windows.NTStatus)
	if !ok {
		return err
	}
	switch s {
	case windows.STATUS_REPARSE_POINT_ENCOUNTERED:
		return errReparse
	case windows.STATUS_NOT_A_DIRECTORY:
		return windows.ERROR_DIRECTORY
	case windows.STATUS_OBJECT_NAME_COLLISION:
		return windows.ERROR_ALREADY_EXISTS
	}
	return s.Errno()
}

// fileBasicInfo is FILE_BASIC_INFO (GetFileInformationByHandleEx class
// FileBasicInfo): times in 100 ns ticks since 1601.
type fileBasicInfo struct {
	CreationTime, LastAccessTime, LastWriteTime, ChangeTime int64
	FileAttributes                                          uint32
	_                                                       uint32
}

func getBasicInfo(h windows.Handle, bi *fileBasicInfo) error {
	return windows.GetFileInformationByHandleEx(h, windows.FileBasicInfo, (*byte)(unsafe.Pointer(bi)), uint32(unsafe.Sizeof(*bi)))
}

// openTopDir opens the worktree top as a directory handle. Links above
// and at the top are followed: the top is where the person said the
// worktree is.
func openTopDir(top string) (*os.File, error) {
	p, err := windows.UTF16PtrFromString(top)
	if err != nil {
		return nil, err
	}
	h, err := windows.CreateFile(p, windows.FILE_LIST_DIRECTORY|windows.FILE_TRAVERSE|windows.FILE_READ_ATTRIBUTES|windows.SYNCHRONIZE,
		shareAll, nil, windows.OPEN_EXISTING, windows.FILE_FLAG_BACKUP_SEMANTICS, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: top, Err: err}
	}
	return os.NewFile(uintptr(h), top), nil
}

// openDirFile opens the directory name inside d, never through a reparse
// point. Errors: isNotExist when name is missing; isLinkErr when it is a
// reparse point; isNotDirErr when it is a file.
func openDirFile(d *workDir, name string) (*os.File, error) {
	h, err := ntOpen(d.handle(), name, windows.FILE_LIST_DIRECTORY|windows.FILE_TRAVERSE|windows.FILE_READ_ATTRIBUTES,
		windows.FILE_OPEN, windows.FILE_DIRECTORY_FILE, 0, false)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(h), path.Join(d.rel, name)), nil
}

// mkdirAt makes the directory name inside d (it inherits the parent's
// ACL). isExist when something is already there.
func mkdirAt(d *workDir, name string) error {
	h, err := ntOpen(d.handle(), name, windows.FILE_LIST_DIRECTORY, windows.FILE_CREATE, windows.FILE_DIRECTORY_FILE, windows.FILE_ATTRIBUTE_NORMAL, true)
	if err != nil {
		return err
	}
	return windows.CloseHandle(h)
}

// rmdirAt removes the empty directory name inside d. isNotEmpty,
// isNotExist or isNotDirErr (a file, or a reparse point such as a
// junction, which is not followed) say why it did not.
func rmdirAt(d *workDir, name string) error {
	h, err := ntOpen(d.handle(), name, windows.DELETE|windows.FILE_READ_ATTRIBUTES, windows.FILE_OPEN, windows.FILE_DIRECTORY_FILE, 0, false)
	if errors.Is(err, errReparse) {
		return windows.ERROR_DIRECTORY
	}
	if err != nil {
		return err
	}
	defer windows.CloseHandle(h)
	return deleteByHandle(h)
}

// unlinkAt removes name inside d; never a directory. A reparse point is
// removed, not followed. The name goes at once (POSIX semantics) even
// while others have the file open, as on unix; a read-only file is
// removed too, as unlink ignores a file's own bits.
func unlinkAt(d *workDir, name string) error {
	h, err := ntOpen(d.handle(), name, windows.DELETE|windows.FILE_READ_ATTRIBUTES, windows.FILE_OPEN, windows.FILE_NON_DIRECTORY_FILE, 0, true)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(h)
	return deleteByHandle(h)
}

type fileDispositionInformationEx struct{ Flags uint32 }

type fileDispositionInformation struct{ DeleteFile bool }

// deleteByHandle marks the open file or directory h deleted: POSIX
// semantics where the system and file system have them (Windows 10 1809,
// NTFS), the classic delete-on-close elsewhere (FAT).
func deleteByHandle(h windows.Handle) error {
	ex := fileDispositionInformationEx{Flags: windows.FILE_DISPOSITION_DELETE | windows.FILE_DISPOSITION_POSIX_SEMANTICS | windows.FILE_DISPOSITION_IGNORE_READONLY_ATTRIBUTE}
	err := windows.NtSetInformationFile(h, &windows.IO_STATUS_BLOCK{}, (*byte)(unsafe.Pointer(&ex)), uint32(unsafe.Sizeof(ex)), windows.FileDispositionInformationEx)
	if !unsupportedInfo(err) {
		return ntError(err)
	}
	old := fileDispositionInformation{DeleteFile: true}
	return ntError(windows.NtSetInformationFile(h, &windows.IO_STATUS_BLOCK{}, (*byte)(unsafe.Pointer(&old)), uint32(unsafe.Sizeof(old)), windows.FileDispositionInformation))
}

// unsupportedInfo: the system or the file system lacks an information
// class or one of its flags.
func unsupportedInfo(err error) bool {
	return err == windows.STATUS_INVALID_INFO_CLASS || err == windows.STATUS_INVALID_PARAMETER || err == windows.STATUS_NOT_SUPPORTED
}

// fileRenameInformation is FILE_RENAME_INFORMATION(_EX): the first field
// is ReplaceIfExists for the plain class and Flags for the Ex one. One
// component fits FileName (NTFS names are at most 255 units).
type fileRenameInformation struct {
	Flags          uint32
	RootDirectory  windows.Handle
	FileNameLength uint32
	FileName       [windows.MAX_PATH]uint16
}

// renameAt renames from to to inside d, replacing to if it exists.
func renameAt(d *workDir, from, to string) error { return renameIn(d, from, to, true) }

// renameNoReplace renames from to to inside d unless to exists (isExist),
// atomically: the file system checks and renames in one step.
func renameNoReplace(d *workDir, from, to string) error { return renameIn(d, from, to, false) }

// renameIn renames from to to inside d by a handle of from (opened
// without following a reparse point, so a link is renamed, not its
// target), with POSIX semantics where available (a replaced file others
// hold open goes at once).
func renameIn(d *workDir, from, to string, replace bool) error {
	if err := checkName(to); err != nil {
		return err
	}
	h, err := ntOpen(d.handle(), from, windows.DELETE|windows.FILE_READ_ATTRIBUTES, windows.FILE_OPEN, 0, 0, true)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(h)
	to16, err := windows.UTF16FromString(to)
	if err != nil {
		return err
	}
	info := fileRenameInformation{RootDirectory: d.handle(), FileNameLength: uint32((len(to16) - 1) * 2)}
	if len(to16) > len(info.FileName) {
		return fmt.Errorf("%q: %w", to, windows.ERROR_FILENAME_EXCED_RANGE)
	}
	copy(info.FileName[:], to16)
	info.Flags = windows.FILE_RENAME_POSIX_SEMANTICS
	if replace {
		info.Flags |= windows.FILE_RENAME_REPLACE_IF_EXISTS
	}
	const fileRenameInformationEx = 65
	err = windows.NtSetInformationFile(h, &windows.IO_STATUS_BLOCK{}, (*byte)(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), fileRenameInformationEx)
	if !unsupportedInfo(err) {
		return ntError(err)
	}
	info.Flags = 0 // ReplaceIfExists, a BOOLEAN in the first byte
	if replace {
		info.Flags = 1
	}
	return ntError(windows.NtSetInformationFile(h, &windows.IO_STATUS_BLOCK{}, (*byte)(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)), windows.FileRenameInformation))
}

// lstatAt returns name's file info inside d without following a reparse
// point (one is described as a symlink).
func lstatAt(d *workDir, name string) (fileInfo, error) {
	h, err := ntOpen(d.handle(), name, windows.FILE_READ_ATTRIBUTES, windows.FILE_OPEN, 0, 0, true)
	if errors.Is(err, errReparse) {
		// Met at the name itself (OBJ_DONT_REPARSE): it is a link.
		return fileInfo{mode: fs.ModeSymlink | 0o777}, nil
	}
	if err != nil {
		return fileInfo{}, err
	}
	defer windows.CloseHandle(h)
	return infoOfHandle(h)
}

// fstat returns an open file's info.
func fstat(f *os.File) (fileInfo, error) { return infoOfHandle(windows.Handle(f.Fd())) }

// infoOfHandle describes the file h: identity from the volume serial and
// file index, mtime from LastWriteTime, ctime from ChangeTime. Windows has
// no permission bits or owner ids: a file is 0666 (0444 when read-only), a
// directory 0777, uid and gid 0.
func infoOfHandle(h windows.Handle) (fileInfo, error) {
	var bh windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(h, &bh); err != nil {
		return fileInfo{}, err
	}
	var bi fileBasicInfo
	if err := getBasicInfo(h, &bi); err != nil {
		return fileInfo{}, err
	}
	var mode fs.FileMode = 0o666
	if bh.FileAttributes&windows.FILE_ATTRIBUTE_READONLY != 0 {
		mode = 0o444
	}
	switch {
	case bh.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0:
		mode = fs.ModeSymlink | 0o777
	case bh.FileAttributes&windows.FILE_ATTRIBUTE_DIRECTORY != 0:
		mode = fs.ModeDir | 0o777
	}
	return fileInfo{
		mode:  mode,
		size:  int64(bh.FileSizeHigh)<<32 | int64(bh.FileSizeLow),
		dev:   uint64(bh.VolumeSerialNumber),
		ino:   uint64(bh.FileIndexHigh)<<32 | uint64(bh.FileIndexLow),
		mtime: fsTimeOf(fileTimeNs(bi.LastWriteTime)),
		ctime: fsTimeOf(fileTimeNs(bi.ChangeTime)),
	}, nil
}

// openFileAt opens name inside d for reading without following a reparse
// point (isLinkErr); others may still read, write, rename or delete it.
// There are no FIFOs to block on.
func openFileAt(d *workDir, name string) (*os.File, error) {
	h, err := ntOpen(d.handle(), name, windows.FILE_GENERIC_READ, windows.FILE_OPEN, 0, 0, false)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(h), path.Join(d.rel, name)), nil
}

// createAt creates the file name inside d for writing, exclusively
// (isExist when anything, a reparse point included, is there). Without
// the owner's write bit in perm it is made read-only; it inherits the
// directory's ACL.
func createAt(d *workDir, name string, perm fs.FileMode) (*os.File, error) {
	var attrs uint32 = windows.FILE_ATTRIBUTE_NORMAL
	if perm&0o200 == 0 {
		attrs = windows.FILE_ATTRIBUTE_READONLY
	}
	h, err := ntOpen(d.handle(), name, windows.FILE_GENERIC_READ|windows.FILE_GENERIC_WRITE, windows.FILE_CREATE, windows.FILE_NON_DIRECTORY_FILE, attrs, true)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(h), name), nil
}

// listNames returns the names in d, read through a new handle of d so
// that d's own listing position is untouched.
func listNames(d *workDir) ([]string, error) {
	h, err := ntOpen(d.handle(), "", windows.FILE_LIST_DIRECTORY|windows.FILE_READ_ATTRIBUTES, windows.FILE_OPEN, windows.FILE_DIRECTORY_FILE, 0, true)
	if err != nil {
		return nil, err
	}
	list := os.NewFile(uintptr(h), d.rel)
	defer list.Close()
	return list.Readdirnames(-1)
}

// The error classes the primitives' callers branch on.

// isNotExist: the name (or a directory above it) is not there.
func isNotExist(err error) bool {
	return errors.Is(err, windows.ERROR_FILE_NOT_FOUND) || errors.Is(err, windows.ERROR_PATH_NOT_FOUND)
}

// isExist: something is already there under the name.
func isExist(err error) bool {
	return errors.Is(err, windows.ERROR_ALREADY_EXISTS) || errors.Is(err, windows.ERROR_FILE_EXISTS)
}

// isLinkErr: an open that must not follow a reparse point met one.
func isLinkErr(err error) bool {
	return errors.Is(err, errReparse) || errors.Is(err, windows.ERROR_STOPPED_ON_SYMLINK) ||
		errors.Is(err, windows.ERROR_CANT_RESOLVE_FILENAME)
}

// isNotDirErr: a directory was needed and something else is there.
func isNotDirErr(err error) bool {
	return errors.Is(err, windows.ERROR_DIRECTORY) || errors.Is(err, syscall.ENOTDIR)
}

// isNotEmpty: a directory could not be removed because it holds names.
func isNotEmpty(err error) bool { return errors.Is(err, windows.ERROR_DIR_NOT_EMPTY) }

// isBusy: another program holds the file open in a way that shuts git-edit
// out for now.
func isBusy(err error) bool {
	return errors.Is(err, windows.ERROR_SHARING_VIOLATION) || errors.Is(err, windows.ERROR_LOCK_VIOLATION)
}

// Extended attributes: none here (see xattr.go). NTFS's EAs and alternate
// data streams are not POSIX xattrs and are not copied.

func xattrList(*os.File, []byte) (int, error)        { return 0, nil }
func xattrGet(*os.File, string, []byte) (int, error) { return 0, errNoAttr }
func xattrSet(*os.File, string, []byte) error        { return errNoXattrs }
func isRangeErr(error) bool                          { return false }
func isNoXattrs(err error) bool                      { return errors.Is(err, errNoXattrs) }
