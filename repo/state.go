package repo

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// ErrStateNotRegular: one of git-edit's own state files (the edit lock, a
// keep file, a session's history index or read record, a ref or its
// reflog) is not a regular file: something else, such as a FIFO, was put
// in its place.
var ErrStateNotRegular = fmt.Errorf("%w: a state file of git-edit", ErrNotRegular)

// OpenStateFile opens one of git-edit's state files with flag and perm as
// os.OpenFile does, but never blocks in open(2): O_NONBLOCK is added, so a
// FIFO in the file's place (with or without a program at its other end)
// cannot hang the call, which may hold the edit lock and so every other
// agent's edits with it. What is opened must be a regular file, else it is
// closed and the error wraps ErrStateNotRegular, naming the file, what it
// is and how to fix it. O_NONBLOCK has no effect on a regular file's reads
// and writes. Errors of open(2) itself are returned as they are (a missing
// file wraps fs.ErrNotExist), except ENXIO, which is how a FIFO without a
// reader refuses a non-blocking open for writing. On Windows the file is
// shared for deleting too, so that git's rename of a lock onto a ref (or
// ours) works while it is open here (openStatePath).
func OpenStateFile(name string, flag int, perm os.FileMode) (*os.File, error) {
	return openStateFile(name, flag, perm, false)
}

// OpenStateFileNoFollow is OpenStateFile that never follows a symbolic
// link (or, on Windows, a junction or other reparse point) at name's last
// component: such an open fails with an error IsLinkError reports, for a
// caller that owns the name and may remove what is there.
func OpenStateFileNoFollow(name string, flag int, perm os.FileMode) (*os.File, error) {
	return openStateFile(name, flag, perm, true)
}

func openStateFile(name string, flag int, perm os.FileMode, noFollow bool) (*os.File, error) {
	f, err := openStatePath(name, flag, perm, noFollow) // lockfile_<os>.go
	if errors.Is(err, errOpenedFIFO) {
		return nil, stateNotRegular(name, "FIFO")
	}
	if err != nil {
		return nil, err
	}
	fi, err := fstat(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("inspect %s: %w", name, err)
	}
	if !fi.mode.IsRegular() {
		f.Close()
		return nil, stateNotRegular(name, Kind(fi.mode))
	}
	return f, nil
}

// ReadStateFile reads a whole state file through OpenStateFile (never
// blocking, refusing what is not a regular file).
func ReadStateFile(name string) ([]byte, error) {
	f, err := OpenStateFile(name, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	return b, nil
}

func stateNotRegular(name, kind string) error {
	return fmt.Errorf("%w: %s is a %s; git-edit did not read or write it; remove it (rm %s) and run the command again", ErrStateNotRegular, name, kind, name)
}
