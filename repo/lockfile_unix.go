//go:build unix

package repo

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// tryLockFile takes an exclusive (or shared) lock on f without waiting:
// flock(2) with LOCK_NB. ok is false, with no error, when another open file
// holds a conflicting lock (or the call was interrupted: try again). The
// lock belongs to this open file: the kernel drops it when the file is
// closed or its process dies, so a crash never leaves it held.
func tryLockFile(f *os.File, exclusive bool) (ok bool, err error) {
	how := unix.LOCK_SH
	if exclusive {
		how = unix.LOCK_EX
	}
	err = unix.Flock(int(f.Fd()), how|unix.LOCK_NB)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, unix.EWOULDBLOCK), errors.Is(err, unix.EINTR):
		return false, nil
	}
	return false, fmt.Errorf("lock %s: %w", f.Name(), err)
}

// unlockFile drops the lock tryLockFile took on f.
func unlockFile(f *os.File) error {
	if err := unix.Flock(int(f.Fd()), unix.LOCK_UN); err != nil {
		return fmt.Errorf("unlock %s: %w", f.Name(), err)
	}
	return nil
}

// errOpenedFIFO is how openStatePath reports a FIFO without a reader
// refusing a non-blocking open for writing (ENXIO).
var errOpenedFIFO = errors.New("a FIFO without a reader")

// openStatePath opens name as os.OpenFile does, for one of git-edit's state
// files or records, but never blocks in open(2) (O_NONBLOCK: a FIFO in the
// file's place cannot hang the call; it has no effect on a regular file),
// is not inherited by children (O_CLOEXEC) and, when noFollow is set, does
// not follow a symlink at the last component (the error then satisfies
// IsLinkError). A FIFO without a reader, opened for writing, gives an
// error wrapping errOpenedFIFO; other errors are open(2)'s, as *PathError.
// It does not check what it opened: OpenStateFile does.
func openStatePath(name string, flag int, perm os.FileMode, noFollow bool) (*os.File, error) {
	flag |= unix.O_NONBLOCK | unix.O_CLOEXEC
	if noFollow {
		flag |= unix.O_NOFOLLOW
	}
	f, err := os.OpenFile(name, flag, perm)
	if errors.Is(err, unix.ENXIO) {
		return nil, &os.PathError{Op: "open", Path: name, Err: errOpenedFIFO}
	}
	return f, err
}

// linkCount is the number of names (hard links) the file open as f has.
func linkCount(f *os.File) (uint64, error) {
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return 0, fmt.Errorf("inspect %s: %w", f.Name(), err)
	}
	return uint64(st.Nlink), nil
}
