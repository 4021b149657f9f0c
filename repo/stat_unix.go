//go:build unix

package repo

import (
	"errors"
	"fmt"
	"os"
	"runtime"

	"golang.org/x/sys/unix"
)

// statPath is stat(2) of path, following links: identity (dev, ino), size,
// mode, owner and the mtime and ctime the racy rule compares (see
// blobcache.go). Errors are stat's, as *PathError (fs.ErrNotExist when
// there is nothing).
func statPath(path string) (fileInfo, error) {
	var st unix.Stat_t
	if err := unix.Stat(path, &st); err != nil {
		return fileInfo{}, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	return infoOf(&st), nil
}

// isNotDir reports an error from a path that runs through a file (ENOTDIR),
// which for a lookup means "no such ref" or "no such file", as ENOENT does.
func isNotDir(err error) bool { return errors.Is(err, unix.ENOTDIR) }

// IsNotDirError reports whether err says that a path runs through something
// that is not a directory (a file where a directory of the path would be):
// ENOTDIR here. Callers treat it as "nothing there", as git does.
func IsNotDirError(err error) bool { return isNotDir(err) }

// IsLinkError reports whether err is an open refusing a symbolic link at
// the last component because the caller asked not to follow one
// (OpenStateFileNoFollow): ELOOP on Linux and macOS, EMLINK on FreeBSD and
// DragonFly, EFTYPE on NetBSD, as Go's os package counts them.
func IsLinkError(err error) bool {
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EMLINK) {
		return true
	}
	return runtime.GOOS == "netbsd" && errors.Is(err, unix.Errno(0x4f)) // EFTYPE
}

// syncDir fsyncs a directory so a rename in it survives a power loss.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("open %s: %w", dir, err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", dir, err)
	}
	return nil
}
