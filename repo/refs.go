package repo

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// Ref errors callers branch on.
var (
	// ErrRefChanged: the ref did not hold the expected old value.
	ErrRefChanged = errors.New("ref changed underneath us")
	// ErrRefLocked: "<ref>.lock" exists, held by another writer (or left by a crash).
	ErrRefLocked = errors.New("ref is locked")
	// ErrBadRef: a ref file or packed-refs line that is not a full hash.
	ErrBadRef = errors.New("malformed ref")
)

// ReadRef returns the commit a ref points to, following symbolic refs such as
// HEAD. A ref that does not exist (or an unborn branch) gives the zero hash
// and no error. Loose refs are read first, then packed-refs, as git does.
func (r *Repo) ReadRef(name string) (plumbing.Hash, error) {
	for range 5 { // git's own limit on symref depth
		b, err := os.ReadFile(r.refPath(name))
		switch {
		case err == nil:
			line := string(trimLine(b))
			if target, ok := strings.CutPrefix(line, "ref: "); ok {
				name = strings.TrimSpace(target)
				continue
			}
			return parseHash(name, line)
		case errors.Is(err, os.ErrNotExist) || isNotDir(err):
			return r.packedRef(name)
		default:
			return plumbing.ZeroHash, fmt.Errorf("read %s: %w", name, err)
		}
	}
	return plumbing.ZeroHash, fmt.Errorf("%w: %s: symbolic refs nested too deeply", ErrBadRef, name)
}

// refPath is where the loose ref lives: HEAD and per-worktree refs in the
// worktree's git dir, everything else in the common dir.
func (r *Repo) refPath(name string) string {
	if name == "HEAD" || strings.HasPrefix(name, "refs/worktree/") || strings.HasPrefix(name, "refs/bisect/") {
		return filepath.Join(r.GitDir, filepath.FromSlash(name))
	}
	return filepath.Join(r.CommonDir, filepath.FromSlash(name))
}

func (r *Repo) packedRef(name string) (plumbing.Hash, error) {
	refs, err := r.packedRefs()
	return refs[name], err
}

func parseHash(name, s string) (plumbing.Hash, error) {
	s = strings.TrimSpace(s)
	if len(s) != 40 || !plumbing.IsHash(s) {
		return plumbing.ZeroHash, fmt.Errorf("%w: %s holds %q", ErrBadRef, name, s)
	}
	return plumbing.NewHash(s), nil
}

// isNotDir reports an error from a path that runs through a file, which
// for a lookup means "no such ref" or "no such file", as ENOENT does.
func isNotDir(err error) bool { return errors.Is(err, syscall.ENOTDIR) }

// UpdateRef moves ref name from old to new with git's own protocol: create
// "<ref>.lock" exclusively, check that the ref still holds old (the zero
// hash: must not exist), write and fsync the lock file, append a reflog line,
// then rename the lock over the ref. Plain git running beside us sees either
// the old or the new value, never a torn file.
//
// It fails with ErrRefLocked when the lock file exists and with ErrRefChanged
// when the ref moved; in both cases nothing is changed.
func (r *Repo) UpdateRef(name string, old, new plumbing.Hash, reflogMsg string) (err error) {
	path, lockPath, lock, err := r.lockRefAt(name, old)
	if err != nil {
		return err
	}
	committed := false
	defer func() {
		if !committed {
			lock.Close()
			os.Remove(lockPath)
		}
		r.clearRefIntent()
	}()
	if _, err := lock.WriteString(new.String() + "\n"); err != nil {
		return fmt.Errorf("write %s: %w", lockPath, err)
	}
	if err := lock.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", lockPath, err)
	}
	if err := lock.Close(); err != nil {
		return fmt.Errorf("close %s: %w", lockPath, err)
	}
	if err := r.appendReflog(name, old, new, reflogMsg); err != nil {
		return err
	}
	crashPoint("before-ref-rename")
	if err := os.Rename(lockPath, path); err != nil {
		return fmt.Errorf("rename %s: %w", lockPath, err)
	}
	committed = true
	return syncDir(filepath.Dir(path))
}

// foreignLockWait bounds how long lockRef waits for a ref lock held by
// another program: git waits 100 ms by default (core.filesRefLockTimeout),
// and git gc's pack-refs holds them for milliseconds.
const foreignLockWait = time.Second

// lockRef takes git's lock on a ref: it creates "<ref>.lock" exclusively.
// Git's convention is that a lock outliving its writer may be removed, so
// lockRef first records its own pid and the lock's path (see refIntent);
// a lock found with such a record whose process is gone was left by a
// git-edit that crashed, and is removed. A lock without one belongs to
// another program: lockRef waits for it up to foreignLockWait, then fails
// with ErrRefLocked. The caller releases the lock by renaming or removing
// it, then calls r.clearRefIntent.
func (r *Repo) lockRef(name string) (path, lockPath string, lock *os.File, err error) {
	path = r.refPath(name)
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return "", "", nil, fmt.Errorf("create ref directory for %s: %w", name, err)
	}
	lockPath = path + ".lock"
	deadline := time.Now().Add(foreignLockWait)
	for wait := time.Millisecond; ; wait = min(2*wait, 100*time.Millisecond) {
		if r.removeStaleRefLock(lockPath) {
			continue
		}
		if err := r.recordRefIntent(lockPath); err != nil {
			return "", "", nil, err
		}
		lock, err = os.OpenFile(lockPath, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
		if err == nil {
			return path, lockPath, lock, nil
		}
		r.clearRefIntent()
		if !errors.Is(err, os.ErrExist) {
			return "", "", nil, fmt.Errorf("lock %s: %w", name, err)
		}
		if time.Now().After(deadline) {
			return "", "", nil, fmt.Errorf("%w: %s exists; another git process is updating %s, or one crashed: if none is running, delete that file and retry", ErrRefLocked, lockPath, name)
		}
		time.Sleep(wait)
	}
}

// lockRefAt takes the ref's lock (see lockRef) and checks that the ref
// still holds old (zero: must not exist); on a mismatch it releases the lock
// and fails with ErrRefChanged.
func (r *Repo) lockRefAt(name string, old plumbing.Hash) (path, lockPath string, lock *os.File, err error) {
	if path, lockPath, lock, err = r.lockRef(name); err != nil {
		return "", "", nil, err
	}
	cur, err := r.ReadRef(name)
	if err == nil && cur != old {
		err = fmt.Errorf("%w: %s is at %s, expected %s; run the command again", ErrRefChanged, name, short(cur), short(old))
	}
	if err != nil {
		lock.Close()
		os.Remove(lockPath)
		r.clearRefIntent()
		return "", "", nil, err
	}
	return path, lockPath, lock, nil
}

// refIntent is where lockRef records "<pid> <lock path>" while it holds a
// ref lock. Writers of git-edit hold the repository's edit lock then, so
// one record is enough.
func (r *Repo) refIntent() string { return filepath.Join(r.stateDir(), "ref-lock") }

func (r *Repo) recordRefIntent(lockPath string) error {
	if err := os.MkdirAll(r.stateDir(), 0o777); err != nil {
		return fmt.Errorf("record ref lock: %w", err)
	}
	if err := os.WriteFile(r.refIntent(), fmt.Appendf(nil, "%d %s\n", os.Getpid(), lockPath), 0o666); err != nil {
		return fmt.Errorf("record ref lock: %w", err)
	}
	return nil
}

func (r *Repo) clearRefIntent() { os.Remove(r.refIntent()) }

// removeStaleRefLock removes lockPath if git-edit's record says a process
// that no longer runs took it, and reports whether it did.
func (r *Repo) removeStaleRefLock(lockPath string) bool {
	b, err := os.ReadFile(r.refIntent())
	if err != nil {
		return false
	}
	var pid int
	var recorded string
	if _, err := fmt.Sscanf(string(b), "%d %s", &pid, &recorded); err != nil || recorded != lockPath || pid == os.Getpid() {
		return false
	}
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		return false // alive, or not ours to judge
	}
	if _, err := os.Stat(lockPath); err != nil {
		return false
	}
	os.Remove(lockPath)
	r.clearRefIntent()
	return true
}

// appendReflog adds one line to logs/<ref> in git's format, so that
// `git reflog <ref>` shows every move of the session ref.
func (r *Repo) appendReflog(name string, old, new plumbing.Hash, msg string) error {
	path := filepath.Join(r.CommonDir, "logs", filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return fmt.Errorf("create reflog directory for %s: %w", name, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o666)
	if err != nil {
		return fmt.Errorf("open reflog of %s: %w", name, err)
	}
	sig := Identity(time.Now())
	var line bytes.Buffer
	fmt.Fprintf(&line, "%s %s %s <%s> %d %s\t%s\n", old, new, sig.Name, sig.Email, sig.When.Unix(), sig.When.Format("-0700"), oneLine(msg))
	if _, err := f.Write(line.Bytes()); err != nil {
		f.Close()
		return fmt.Errorf("write reflog of %s: %w", name, err)
	}
	return f.Close()
}

// oneLine makes msg safe for a reflog line.
func oneLine(msg string) string {
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' {
			return ' '
		}
		return r
	}, msg)
}

func short(h plumbing.Hash) string {
	if h.IsZero() {
		return "nothing (no such ref)"
	}
	return h.String()[:12]
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
