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
//   - Liveness: the writer holds an flock on the lock file for as long as it
//     holds the lock. The kernel drops an flock when its holder dies, so
//     "the flock is free" means "the process that took this lock is gone",
//     without pids (which are reused and differ between pid namespaces).
//   - Ownership: right after creating the lock, the writer hard-links it as
//     git-edit/ref-locks/<key> (key: a hash of the lock's path relative to
//     the common dir). A lock is git-edit's only if that link is the same
//     file (same inode) as the lock. While the link exists its inode cannot
//     be reused, so a later lock created by another program at the same path
//     can never look like ours.
//
// A lock is removed only when both hold: linked and not flocked. A lock
// without a link (another program's, or a git-edit killed in the
// microseconds between creating the lock and linking it) is never removed;
// the refusal says which file to delete.

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

// lockRef takes git's lock on a ref: it creates "<ref>.lock" exclusively,
// flocks it and records it (see the comment at the top of this file). A lock
// found there that a dead git-edit took is removed and the lock taken; any
// other is waited for up to foreignLockWait, then refused with ErrRefLocked
// and a message saying which file to delete if no process holds it. The
// caller renames or removes the lock file, then calls release.
func (r *Repo) lockRef(name string) (*refLock, error) {
	path := r.refPath(name)
	lockPath := path + ".lock"
	record := r.refLockRecord(lockPath)
	deadline := time.Now().Add(foreignLockWait)
	live := false
	for wait := time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
			return nil, fmt.Errorf("create ref directory for %s: %w", name, err)
		}
		f, err := os.OpenFile(lockPath, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		switch {
		case err == nil:
			l := &refLock{path: path, lockPath: lockPath, file: f}
			l.record = recordRefLock(f, lockPath, record)
			crashPoint("ref-locked")
			return l, nil
		case errors.Is(err, os.ErrNotExist) || isNotDir(err):
			// git removed the emptied directory (pack-refs, a ref
			// deletion) in between: make it again.
		case !errors.Is(err, os.ErrExist):
			return nil, fmt.Errorf("lock %s: %w", name, err)
		default:
			var gone bool
			if live, gone = clearDeadRefLock(lockPath, record); !gone {
				time.Sleep(wait)
			}
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
	return filepath.Join(r.stateDir(), "ref-locks", hex.EncodeToString(sum[:]))
}

// recordRefLock flocks the lock this process just created and links it as
// record; it returns record, or "" when the lock could not be recorded (it
// is then still held, and would look like another program's if this process
// died).
func recordRefLock(f *os.File, lockPath, record string) string {
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return ""
	}
	if err := os.MkdirAll(filepath.Dir(record), 0o777); err != nil {
		return ""
	}
	err := os.Link(lockPath, record)
	if errors.Is(err, os.ErrExist) {
		// Left by a writer that died after renaming its lock: this process
		// holds the lock now, so that record names no lock anyone holds.
		os.Remove(record)
		err = os.Link(lockPath, record)
	}
	if err != nil || !sameFileAs(f, record) {
		return ""
	}
	return record
}

// clearDeadRefLock removes lockPath when git-edit's record shows that a
// git-edit process took it and has died. gone reports that lockPath no
// longer exists (removed here, or by its holder meanwhile); live that a
// running git-edit holds it.
func clearDeadRefLock(lockPath, record string) (live, gone bool) {
	rec, err := os.Lstat(record)
	if err != nil {
		return false, false // no record: the lock is another program's
	}
	// O_NOFOLLOW: a symlink there is nobody's lock of ours.
	f, err := os.OpenFile(lockPath, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if errors.Is(err, os.ErrNotExist) {
		return false, true
	}
	if err != nil {
		return false, false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !os.SameFile(rec, fi) {
		return false, false // the record is of another file: this lock is not git-edit's
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return true, false // its writer still runs
	}
	// Nobody holds the flock, so the writer that took this lock is dead.
	// The path must still name this very file (not a lock created since).
	if !sameFileAs(f, lockPath) {
		return false, false
	}
	os.Remove(lockPath)
	os.Remove(record)
	return false, true
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
		clearDeadRefLock(lockPath, r.refLockRecord(lockPath))
	}
}
