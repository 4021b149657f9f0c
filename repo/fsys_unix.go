//go:build unix

package repo

import (
	"errors"
	"io/fs"
	"os"
	"path"

	"golang.org/x/sys/unix"
)

// The file-system primitives every unix system shares (Linux, macOS, the
// BSDs): a directory handle is an O_DIRECTORY file descriptor, and every
// name is opened, made, renamed and removed relative to it with the *at
// calls, never following a symlink in the last component. fsys_linux.go,
// fsys_darwin.go and fsys_portable.go add the per-OS pieces (rename
// without replacing, exchange, leases, the clock); fsys_windows.go is the
// same set for Windows.

// fsTime is a timestamp as the file system keeps it (seconds and
// nanoseconds since the Unix epoch). On unix it is the kernel's timespec,
// which config.go also compares directly.
type fsTime = unix.Timespec

func (d *workDir) fd() int { return int(d.f.Fd()) }

// openTopDir opens the worktree top as a directory handle. Symlinks above
// and at the top are followed: the top is where the person said the
// worktree is.
func openTopDir(top string) (*os.File, error) {
	return os.OpenFile(top, os.O_RDONLY|unix.O_DIRECTORY, 0)
}

// openDirFile opens the directory name inside d, never through a symlink.
// Errors: isNotExist when name is missing; isLinkErr or isNotDirErr (Linux
// checks O_DIRECTORY first) when it is a symlink; isNotDirErr when it is
// something else that is not a directory.
func openDirFile(d *workDir, name string) (*os.File, error) {
	fd, err := unix.Openat(d.fd(), name, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), path.Join(d.rel, name)), nil
}

// mkdirAt makes the directory name inside d (mode 0777 less the umask).
// isExist when something is already there.
func mkdirAt(d *workDir, name string) error { return unix.Mkdirat(d.fd(), name, 0o777) }

// rmdirAt removes the empty directory name inside d. isNotEmpty,
// isNotExist or isNotDirErr say why it did not.
func rmdirAt(d *workDir, name string) error { return unix.Unlinkat(d.fd(), name, unix.AT_REMOVEDIR) }

// unlinkAt removes name inside d; never a directory. A symlink is removed,
// not followed.
func unlinkAt(d *workDir, name string) error { return unix.Unlinkat(d.fd(), name, 0) }

// renameAt renames from to to inside d, replacing to if it exists.
func renameAt(d *workDir, from, to string) error {
	return unix.Renameat(d.fd(), from, d.fd(), to)
}

// linkRename renames from to to inside d unless to exists (isExist) by
// linking and unlinking: as atomic for this purpose as a rename that does
// not replace, for systems and file systems without one.
func linkRename(d *workDir, from, to string) error {
	if err := unix.Linkat(d.fd(), from, d.fd(), to, 0); err != nil {
		return err
	}
	// Here both names are the file: a file renamed to from now would be
	// unlinked next, so no caller moves a name others may save to this way.
	Pause("linked", path.Join(d.rel, from))
	return unix.Unlinkat(d.fd(), from, 0)
}

// lstatAt returns name's file info inside d without following a symlink.
func lstatAt(d *workDir, name string) (fileInfo, error) {
	var st unix.Stat_t
	if err := unix.Fstatat(d.fd(), name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return fileInfo{}, err
	}
	return infoOf(&st), nil
}

// fstat returns an open file's info.
func fstat(f *os.File) (fileInfo, error) {
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return fileInfo{}, err
	}
	return infoOf(&st), nil
}

func infoOf(st *unix.Stat_t) fileInfo {
	mode := fs.FileMode(st.Mode & 0o777)
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		mode |= fs.ModeDir
	case unix.S_IFLNK:
		mode |= fs.ModeSymlink
	case unix.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case unix.S_IFSOCK:
		mode |= fs.ModeSocket
	case unix.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		mode |= fs.ModeDevice
	}
	return fileInfo{mode: mode, size: st.Size, uid: st.Uid, gid: st.Gid, dev: uint64(st.Dev), ino: st.Ino, mtime: st.Mtim, ctime: st.Ctim}
}

// openFileAt opens name inside d for reading without following a symlink
// (isLinkErr) and without blocking on a FIFO.
func openFileAt(d *workDir, name string) (*os.File, error) {
	fd, err := unix.Openat(d.fd(), name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), path.Join(d.rel, name)), nil
}

// createAt creates the file name inside d for writing, exclusively (isExist
// when anything, a symlink included, is there), with the permission bits
// perm less the umask. The file's name is name, as the callers report it.
func createAt(d *workDir, name string, perm fs.FileMode) (*os.File, error) {
	fd, err := unix.Openat(d.fd(), name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm))
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), name), nil
}

// listNames returns the names in d (not "." or ".."), read through a new
// handle so that d's own offset is untouched.
func listNames(d *workDir) ([]string, error) {
	dup, err := unix.Openat(d.fd(), ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, err
	}
	list := os.NewFile(uintptr(dup), d.rel)
	defer list.Close()
	return list.Readdirnames(-1)
}

// The error classes the primitives' callers branch on.

// isNotExist: the name (or a directory above it) is not there.
func isNotExist(err error) bool { return errors.Is(err, unix.ENOENT) }

// isExist: something is already there under the name.
func isExist(err error) bool { return errors.Is(err, unix.EEXIST) }

// isLinkErr: an open that must not follow a symlink met one (ELOOP;
// EMLINK on FreeBSD and DragonFly, EFTYPE on NetBSD: see linkErrnos).
func isLinkErr(err error) bool {
	for _, e := range linkErrnos {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// isNotDirErr: a directory was needed and something else is there.
func isNotDirErr(err error) bool { return errors.Is(err, unix.ENOTDIR) }

// isNotEmpty: a directory could not be removed because it holds names
// (ENOTEMPTY; EEXIST where a system says so instead).
func isNotEmpty(err error) bool {
	return errors.Is(err, unix.ENOTEMPTY) || errors.Is(err, unix.EEXIST)
}

// isBusy: another program holds the file in a way that makes the guard
// wait (a lease refused with EAGAIN while it is open for writing).
func isBusy(err error) bool { return errors.Is(err, unix.EAGAIN) }

// Extended attributes of an open file (see xattr.go), by its descriptor.

// xattrList lists f's attribute names into buf (NUL-separated) and returns
// the length; with a nil buf, the length needed.
func xattrList(f *os.File, buf []byte) (int, error) { return unix.Flistxattr(int(f.Fd()), buf) }

// xattrGet reads f's attribute name into buf and returns its length; with
// a nil buf, the length needed. errNoAttr when f has no such attribute.
func xattrGet(f *os.File, name string, buf []byte) (int, error) {
	return unix.Fgetxattr(int(f.Fd()), name, buf)
}

// xattrSet sets f's attribute name to value.
func xattrSet(f *os.File, name string, value []byte) error {
	return unix.Fsetxattr(int(f.Fd()), name, value, 0)
}

// isRangeErr: the buffer was too small (the attribute grew meanwhile).
func isRangeErr(err error) bool { return errors.Is(err, unix.ERANGE) }

// isNoXattrs: the file system (or system) has no extended attributes.
func isNoXattrs(err error) bool { return errors.Is(err, unix.ENOTSUP) || errors.Is(err, unix.ENOSYS) }
