package repo

import (
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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
//   - Liveness: the writer holds an flock (tryLockFile: LockFileEx on
//     Windows) on the record, and so on the lock, before the lock exists
//     and for as long as it holds it. The kernel drops an flock when its
//     holder dies, so "the flock is free" means "the
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
		// Shared for deleting on Windows (openStatePath): the record
		// becomes the lock, which is renamed onto the ref while open here.
		f, err := openStatePath(record, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666, true)
		if errors.Is(err, os.ErrExist) {
			// Another git-edit holds this ref, or one died holding it.
			if live = clearDeadRecord(lockPath, record); live {
				time.Sleep(wait)
			}
		} else if err != nil {
			return nil, fmt.Errorf("lock %s: record the lock: %w", name, err)
		} else if ok, err := tryLockFile(f, true); !ok && err == nil {
			// Between our create and our flock, another git-edit found
			// the record unlocked and took it for a dead writer's: it
			// removes it; try again.
			f.Close()
			live = true
			time.Sleep(wait)
		} else if err != nil {
			if sameFileAs(f, record) {
				os.Remove(record)
			}
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", name, err)
		} else {
			Pause("ref-record-locked", record)
			err := os.Link(record, lockPath)
			if err == nil {
				CrashPoint("ref-locked")
				return &refLock{path: path, lockPath: lockPath, file: f, record: record}, nil
			}
			// Remove our record only: a clearing git-edit may have
			// removed it, and another writer made a new one.
			if sameFileAs(f, record) {
				os.Remove(record)
			}
			f.Close()
			switch {
			case errors.Is(err, os.ErrNotExist) || isNotDirErr(err):
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
	f, err := openStatePath(record, os.O_RDONLY, 0, true)
	if err != nil {
		return false // gone meanwhile, or unreadable: the next try says
	}
	defer f.Close()
	if ok, _ := tryLockFile(f, true); !ok {
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

// ClearDeadRefLocks removes, once per Repo, every ref lock and record that
// a dead git-edit left on any ref (see the top of this file), so that a
// killed git-edit's "<ref>.lock", which makes the person's `git gc` fail,
// goes at the next git-edit command whatever session it works on. Its cost
// is one read of git-edit/ref-locks (empty but for crashes and running
// writers); only a dead record that is still linked as a lock costs a walk
// of refs/edits/ to find that lock. Errors are ignored: what is left is
// tried again by the next command, and refused by name by lockRef.
func (r *Repo) ClearDeadRefLocks() {
	r.clearLocksOnce.Do(r.clearAllDeadRefLocks)
}

func (r *Repo) clearAllDeadRefLocks() {
	dir := filepath.Join(r.StateDir(), "ref-locks")
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) == 0 {
		return
	}
	linked := map[string]bool{} // dead records still linked elsewhere
	for _, e := range entries {
		record := filepath.Join(dir, e.Name())
		f, err := openStatePath(record, os.O_RDONLY, 0, true)
		if err != nil {
			continue
		}
		if dead, _ := tryLockFile(f, false); dead {
			switch n, err := linkCount(f); {
			case err != nil:
			case n > 1:
				linked[record] = true
			case n == 1 && sameFileAs(f, record):
				os.Remove(record) // died before linking its lock
			}
		}
		f.Close()
	}
	if len(linked) == 0 {
		return
	}
	// Find the locks of the dead records: each is "<ref>.lock" under
	// refs/ whose record name is theirs.
	root := filepath.Join(r.CommonDir, "refs")
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".lock") {
			return nil
		}
		if record := r.refLockRecord(path); linked[record] {
			clearDeadRecord(path, record)
			delete(linked, record)
		}
		return nil
	})
	// The others are second names of their ref's file: the writer died
	// after renaming its lock onto the ref.
	for record := range linked {
		clearDeadRecord("", record)
	}
}

// RefLocks lists the "<ref>.lock" files under prefix (such as
// "refs/edits/") in the common dir: after ClearDeadRefLocks, those of
// running writers and those git-edit cannot tell from a running writer's
// (another program's, or one left by a crashed git).
func (r *Repo) RefLocks(prefix string) ([]string, error) {
	var out []string
	root := filepath.Join(r.CommonDir, filepath.FromSlash(prefix))
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) {
			return filepath.SkipDir
		}
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(path, ".lock") {
			out = append(out, path)
		}
		return nil
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("list the locks under %s: %w", prefix, err)
	}
	return out, nil
}

// RefLockLive reports whether lockPath is held by a running git-edit.
func (r *Repo) RefLockLive(lockPath string) bool {
	f, err := openStatePath(r.refLockRecord(lockPath), os.O_RDONLY, 0, true)
	if err != nil {
		return false
	}
	defer f.Close()
	if !sameFileAs(f, lockPath) {
		return false
	}
	free, _ := tryLockFile(f, false)
	return !free
}
