//go:build windows

package repo

import (
	"os"

	"golang.org/x/sys/windows"
)

// statPath describes the file at path, following links: identity (volume
// serial number and file index), size, mode and the last-write and change
// times the racy rule compares (see blobcache.go), as fstat reports them
// for a handle. The path is opened for its attributes only, shared for
// reading, writing and deleting, so that a rename over it (git config's,
// git pack-refs') never fails because of it. Directories are described too.
// Errors are the open's or fstat's (fs.ErrNotExist when there is nothing).
func statPath(path string) (fileInfo, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return fileInfo{}, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	h, err := windows.CreateFile(p, windows.FILE_READ_ATTRIBUTES,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
		nil, windows.OPEN_EXISTING, windows.FILE_FLAG_BACKUP_SEMANTICS, 0)
	if err != nil {
		return fileInfo{}, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(h), path)
	defer f.Close()
	return fstat(f)
}

// syncDir does nothing on Windows: a directory cannot be flushed there
// (FlushFileBuffers on a directory handle is refused). NTFS logs its
// metadata, so a rename is kept or lost whole after a power cut, but it
// may be lost even after a later file's data reached the disk.
func syncDir(dir string) error { return nil }
