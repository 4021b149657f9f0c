package repo

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
		b, err := ReadStateFile(r.refPath(name))
		switch {
		case err == nil:
			line := string(trimLine(b))
			if target, ok := strings.CutPrefix(line, "ref: "); ok {
				name = strings.TrimSpace(target)
				continue
			}
			return parseHash(name, line)
		case errors.Is(err, os.ErrNotExist) || isNotDirErr(err):
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
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return refs.lookup(name), nil
}

func parseHash(name, s string) (plumbing.Hash, error) {
	s = strings.TrimSpace(s)
	if len(s) != 40 || !plumbing.IsHash(s) {
		return plumbing.ZeroHash, fmt.Errorf("%w: %s holds %q", ErrBadRef, name, s)
	}
	return plumbing.NewHash(s), nil
}

// UpdateRef moves ref name from old to new with git's own protocol: create
// "<ref>.lock" exclusively, check that the ref still holds old (the zero
// hash: must not exist), write and fsync the lock file, append a reflog line,
// then rename the lock over the ref. Plain git running beside us sees either
// the old or the new value, never a torn file, and after a power cut the
// ref is the old value or the new one.
//
// It fails with ErrRefLocked when the lock file exists and with ErrRefChanged
// when the ref moved; in both cases nothing is changed.
func (r *Repo) UpdateRef(name string, old, new plumbing.Hash, reflogMsg string) (err error) {
	l, err := r.lockRefAt(name, old)
	if err != nil {
		return err
	}
	committed := false
	defer func() {
		if committed {
			l.release()
		} else {
			l.abandon()
		}
	}()
	// The lock file stays open until release: its flock marks this
	// process as alive (see lockRef).
	if _, err := l.file.WriteString(new.String() + "\n"); err != nil {
		return fmt.Errorf("write %s: %w", l.lockPath, err)
	}
	if err := l.file.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", l.lockPath, err)
	}
	if err := r.appendReflog(name, old, new, reflogMsg); err != nil {
		return err
	}
	CrashPoint("before-ref-rename")
	if err := os.Rename(l.lockPath, l.path); err != nil {
		return fmt.Errorf("rename %s: %w", l.lockPath, err)
	}
	committed = true
	// The ref's directory is not fsynced: a rename that a power cut undoes
	// leaves the old ref and this lock, fsynced, which the next git-edit
	// clears as a dead writer's (see lockRef): the state a crash right
	// before the rename leaves, and the edit's bytes, already on disk, are
	// recorded by the next operation as a sync commit.
	return nil
}

// lockRefAt takes the ref's lock (see lockRef) and checks that the ref
// still holds old (zero: must not exist); on a mismatch it releases the lock
// and fails with ErrRefChanged.
func (r *Repo) lockRefAt(name string, old plumbing.Hash) (*refLock, error) {
	l, err := r.lockRef(name)
	if err != nil {
		return nil, err
	}
	cur, err := r.ReadRef(name)
	if err == nil && cur != old {
		err = fmt.Errorf("%w: %s is at %s, expected %s; run the command again", ErrRefChanged, name, short(cur), short(old))
	}
	if err != nil {
		l.abandon()
		return nil, err
	}
	return l, nil
}

// appendReflog adds one line to logs/<ref> in git's format, so that
// `git reflog <ref>` shows every move of the session ref.
func (r *Repo) appendReflog(name string, old, new plumbing.Hash, msg string) error {
	path := filepath.Join(r.CommonDir, "logs", filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(path), 0o777); err != nil {
		return fmt.Errorf("create reflog directory for %s: %w", name, err)
	}
	f, err := OpenStateFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o666)
	if err != nil {
		return fmt.Errorf("open reflog of %s: %w", name, err)
	}
	sig := Identity(time.Now())
	var line bytes.Buffer
	fmt.Fprintf(&line, "%s %s %s <%s> %d %s\t%s\n", old, new, sig.Name, sig.Email, sig.When.Unix(), sig.When.Format("-0700"), OneLine(msg))
	if _, err := f.Write(line.Bytes()); err != nil {
		f.Close()
		return fmt.Errorf("write reflog of %s: %w", name, err)
	}
	return f.Close()
}

// OneLine makes msg one line (newlines, carriage returns and tabs become
// spaces), as a reflog line or a commit subject must be.
func OneLine(msg string) string {
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
