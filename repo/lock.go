package repo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// ErrLockTimeout is returned when the edit lock could not be taken before
// the context ended.
var ErrLockTimeout = errors.New("timed out waiting for the repository's edit lock")

// Lock takes the repository-wide edit lock: an flock on
// <common dir>/git-edit/lock, held from reading a file to updating the ref so
// that concurrent processes (or goroutines) never lose an edit. The kernel
// drops an flock when its holder dies, so a crash never leaves it stuck.
// Once it holds the lock it clears the temporary files a killed git-edit
// left in the worktree (clearDeadTemps).
// It waits, polling, until the lock is free or ctx ends; the returned
// function releases it.
func (r *Repo) Lock(ctx context.Context) (unlock func(), err error) {
	dir := r.StateDir()
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, fmt.Errorf("create %s: %w", dir, err)
	}
	path := filepath.Join(dir, "lock")
	f, err := OpenStateFile(path, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		return nil, fmt.Errorf("open edit lock %s: %w", path, err)
	}
	release, err := flock(ctx, f, true)
	if err != nil {
		return nil, err
	}
	// Whatever this operation edits, a dead one's temporary files go
	// first (see temps.go); and when it ends, its own journal lines go, so
	// that the journal is empty but after a crash and an operation that
	// only reads (a dry run) finds nothing to clear.
	r.clearDeadTemps()
	return func() {
		r.clearDeadTemps()
		release()
	}, nil
}

// LockShared takes the edit lock shared, for an operation that only reads
// (a dry run): it waits for an operation holding the lock to finish, so it
// never sees half of one, and runs beside other readers. It creates
// nothing: where no lock file exists yet, no operation has written, and
// it returns at once.
func (r *Repo) LockShared(ctx context.Context) (unlock func(), err error) {
	path := filepath.Join(r.StateDir(), "lock")
	f, err := OpenStateFile(path, os.O_RDONLY, 0)
	if errors.Is(err, os.ErrNotExist) {
		return func() {}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open edit lock %s: %w", path, err)
	}
	return flock(ctx, f, false)
}

// flock takes an exclusive (or shared) lock on f (tryLockFile: flock on
// unix, LockFileEx on Windows), polling until it is free or ctx ends; f is
// closed when it fails or is released.
func flock(ctx context.Context, f *os.File, exclusive bool) (unlock func(), err error) {
	path := f.Name()
	wait := 100 * time.Microsecond
	for {
		ok, err := tryLockFile(f, exclusive)
		if ok {
			return func() {
				unlockFile(f)
				f.Close()
			}, nil
		}
		if err != nil {
			f.Close()
			return nil, err
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("%w (%s is held by another git-edit process; retry when it finishes): %w", ErrLockTimeout, path, ctx.Err())
		case <-time.After(wait):
		}
		wait = min(wait*2, 20*time.Millisecond)
	}
}

// TryLockFile takes an exclusive lock on f without waiting, for a file of
// git-edit's own state that one process at a time may write (opened with
// OpenStateFile). ok is false, with no error, when another open file holds
// it; an error says the file cannot be locked at all (a file system
// without locks). The lock is advisory for git-edit's processes: flock on
// unix; on Windows LockFileEx on one byte far beyond the end, so the
// file's bytes stay readable and writable through other handles. It is
// dropped by UnlockFile, by closing f, or when the process dies.
func TryLockFile(f *os.File) (ok bool, err error) { return tryLockFile(f, true) }

// UnlockFile drops the lock TryLockFile took on f.
func UnlockFile(f *os.File) error { return unlockFile(f) }
