package repo

import (
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// How git-edit knows a ref lock of its own from anyone else's.
//
// Git's convention is that a "<ref>.lock" outliving its writer may be
// removed, but git cannot tell a dead writer's lock from a live one, so it
// never does. git-edit can for the locks it takes itself:
//
//   - Ownership: the writer first creates its record,
//     git-edit/ref-locks/<key> (key: a hash of the lock's path relative to
//     the common dir), and only then hard-links that file as "<ref>.lock"
//     (link fails if the lock exists, as O_EXCL would). So a git-edit lock
//     is, from the instant it exists, the same file (same inode) as its
//     record; another program's lock never is, and while the record exists
//     its inode cannot be reused.
//   - Liveness: the writer holds an flock on the record, and so on the lock,
//     before the lock exists and for as long as it holds it. The kernel
//     drops an flock when its holder dies, so "the flock is free" means "the
//     process that took this lock is gone", without pids (which are reused
//     and differ between pid namespaces).
//
// A record whose flock is free was left by a dead writer: if the lock is
// the same file, both go; else the record alone. A lock that is not the
// same file as a record is another program's and is never removed; the
// refusal says which file to delete.

// refLock is a ref lock this process holds.
type refLock struct {
	path     string   // the ref's file
	lockPath string   // "<ref>.lock"
	file     *os.File // the lock file: open, and flocked, until release
	record   string   // its hard link under git-edit/ref-locks ("" if none)
}

// release drops git-edit's record of the lock and the flock. The caller has
// already renamed or removed the lock file itself. The record goes first:
// a record whose flock is free names a dead writer.
func (l *refLock) release() {
	if l.record != "" && sameFileAs(l.file, l.record) {
		os.Remove(l.record)
	}
	l.file.Close()
}

// abandon removes the lock file without updating the ref, then releases.
func (l *refLock) abandon() {
	os.Remove(l.lockPath)
	l.release()
}

// foreignLockWait bounds how long lockRef waits for a ref lock held by
// another process: git waits 100 ms by default (core.filesRefLockTimeout),
// and git gc's pack-refs holds them for milliseconds.
const foreignLockWait = time.Second

// lockRef takes git's lock on a ref: it creates and flocks its record,
// then links it as "<ref>.lock" (see the comment at the top of this file).
// A lock or record that a dead git-edit left is removed and the lock taken;
// any other lock is waited for up to foreignLockWait, then refused with
// ErrRefLocked and a message saying which file to delete if no process
// holds it. The caller renames or removes the lock file, then calls release.
func (r *Repo) lockRef(name string) (*refLock, error) {
	path := r.refPath(name)
	lockPath := path + ".lock"
	record := r.refLockRecord(lockPath)
	deadline := time.Now().Add(foreignLockWait)
	live := false
	for wait := time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		for _, dir := range []string{filepath.Dir(path), filepath.Dir(record)} {
			if err := os.MkdirAll(dir, 0o777); err != nil {
				return nil, fmt.Errorf("lock %s: create %s: %w", name, dir, err)
			}
		}
		f, err := os.OpenFile(record, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if errors.Is(err, os.ErrExist) {
			// Another git-edit holds this ref, or one died holding it.
			if live = clearDeadRecord(lockPath, record); live {
				time.Sleep(wait)
			}
		} else if err != nil {
			return nil, fmt.Errorf("lock %s: record the lock: %w", name, err)
		} else if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			os.Remove(record)
			return nil, fmt.Errorf("lock %s: flock %s: %w", name, record, err)
		} else {
			err := os.Link(record, lockPath)
			if err == nil {
				CrashPoint("ref-locked")
				return &refLock{path: path, lockPath: lockPath, file: f, record: record}, nil
			}
			os.Remove(record)
			f.Close()
			switch {
			case errors.Is(err, os.ErrNotExist) || isNotDir(err):
				// git removed the emptied directory (pack-refs, a ref
				// deletion) in between: make it again.
				continue
			case !errors.Is(err, os.ErrExist):
				return nil, fmt.Errorf("lock %s: %w", name, err)
			}
			// Another program's lock: wait for it.
			live = false
			time.Sleep(wait)
		}
		if time.Now().After(deadline) {
			if live {
				return nil, fmt.Errorf("%w: %s is held by another git-edit process that is still running; retry when it finishes", ErrRefLocked, lockPath)
			}
			return nil, fmt.Errorf("%w: %s exists; another git process is updating %s, or one crashed: if none is running, delete that file and retry", ErrRefLocked, lockPath, name)
		}
	}
}

// refLockRecord is the path of git-edit's record of lockPath: one file per
// lock, so that a record is never overwritten by a lock of another ref.
func (r *Repo) refLockRecord(lockPath string) string {
	key := lockPath
	if rel, err := filepath.Rel(r.CommonDir, lockPath); err == nil && filepath.IsLocal(rel) {
		key = filepath.ToSlash(rel) // the same key from every worktree
	}
	sum := sha1.Sum([]byte(key))
	return filepath.Join(r.StateDir(), "ref-locks", hex.EncodeToString(sum[:]))
}

// clearDeadRecord handles a record found in place: if a running git-edit
// holds its flock it reports live; otherwise its writer died, and the
// record goes, with the lock when the lock is the same file (a writer that
// died after its lock was renamed onto the ref leaves only the record, now
// a second name of the ref's file, which is harmless to remove).
func clearDeadRecord(lockPath, record string) (live bool) {
	// O_NOFOLLOW and O_NONBLOCK: never follow or hang on what is there.
	f, err := os.OpenFile(record, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false // gone meanwhile, or unreadable: the next try says
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return true // its writer still runs
	}
	// Nobody holds the flock, so the writer that made this record is dead;
	// the record must still be this file (not one made since).
	if !sameFileAs(f, record) {
		return false
	}
	if sameFileAs(f, lockPath) {
		os.Remove(lockPath)
	}
	os.Remove(record)
	return false
}

// sameFileAs reports whether path names the file f has open.
func sameFileAs(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Lstat(path)
	return err == nil && os.SameFile(a, b)
}

// clearDeadRefLocks removes the locks of names that dead git-edit
// processes left (see lockRef), before git itself locks those refs.
func (r *Repo) clearDeadRefLocks(names []string) {
	for _, name := range names {
		lockPath := r.refPath(name) + ".lock"
		clearDeadRecord(lockPath, r.refLockRecord(lockPath))
	}
}
