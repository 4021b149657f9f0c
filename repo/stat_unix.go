//go:build unix

package repo

import (
	"fmt"
	"os"

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
