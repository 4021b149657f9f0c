package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// A session belongs to one worktree. Its ref is shared by every worktree
// of the repository, as branches are, but its history records one
// worktree's files: the edits and every sync commit compare the session's
// record with the files on disk, so a session written from a second
// worktree would record that worktree's files (another branch's content)
// as an outside change of the first, and `git diff HEAD refs/edits/S`
// would show it as the agent's. The worktree that writes a session first
// owns it: <common dir>/git-edit/sessions/<name>/worktree names it, and a
// write from another worktree is refused (ErrOtherWorktree) before
// anything is read or written. Reading a session's history (log, show) is
// allowed from anywhere, as `git log` of a branch is.

// ErrOtherWorktree refuses a write to a session from a worktree other than
// the one that owns it; see WorktreeError.
var ErrOtherWorktree = errors.New("session belongs to another worktree")

// WorktreeError is a write to Session from the worktree at Here, refused
// because the session records the worktree at Owner's files.
type WorktreeError struct {
	Session     string
	Owner, Here string // the worktrees' top directories
}

func (e *WorktreeError) Error() string {
	return fmt.Sprintf("session %s belongs to the worktree at %s (its history records that worktree's files), and this is the worktree at %s: "+
		"give this worktree a session of its own with --session NAME (or GIT_EDIT_SESSION=NAME), e.g. --session %s",
		e.Session, e.Owner, e.Here, suggestName(e.Session, e.Here))
}

// Unwrap makes errors.Is(err, ErrOtherWorktree) hold.
func (e *WorktreeError) Unwrap() error { return ErrOtherWorktree }

// suggestName is a session name for the worktree at top: the session's
// name and the worktree directory's, made a valid session name.
func suggestName(name, top string) string {
	base := strings.Map(func(r rune) rune {
		if r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_') {
			return r
		}
		return '-'
	}, filepath.Base(top))
	if s := name + "-" + strings.Trim(base, "-"); ValidateName(s) == nil && !strings.HasSuffix(s, "-") {
		return s
	}
	return name + "-2"
}

// ownerPath is the file naming the worktree that owns the session.
func (s *Session) ownerPath() string { return filepath.Join(s.stateDir(), "worktree") }

// worktreeID names this process's worktree among the repository's: its git
// dir relative to the common dir ("." for the main worktree,
// "worktrees/<id>" for a linked one). It stays the same when the worktree
// is moved (`git worktree move`, or the repository's directory renamed).
func (s *Session) worktreeID() string {
	rel, err := filepath.Rel(s.Repo.CommonDir, s.Repo.GitDir)
	if err != nil {
		return filepath.ToSlash(s.Repo.GitDir)
	}
	return filepath.ToSlash(rel)
}

// checkOwner refuses, with a *WorktreeError, a write to the session from a
// worktree other than its owner's, and, when claim is set, records this
// worktree as the owner of a session that has a ref but no owner: one
// written before owners were recorded, claimed by its next writer (a new
// session is claimed when its ref is made, see claimNew, so that a refused
// or failed first write leaves no state behind). The caller holds the
// edit lock. A recorded owner whose git dir no longer exists (a removed
// worktree) leaves the session to the next writer, and so does a session
// without a ref (deleted by hand): the record is then stale.
func (s *Session) checkOwner(claim bool) error {
	here := s.worktreeID()
	tip, err := s.Repo.ReadRef(s.Ref())
	if err != nil {
		return err
	}
	hasRef := !tip.IsZero()
	b, err := os.ReadFile(s.ownerPath())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read the owner of session %s: %w", s.Name, err)
	}
	if err == nil {
		id, top, _ := strings.Cut(strings.TrimSuffix(string(b), "\n"), "\n")
		if id == here {
			return nil
		}
		if _, serr := os.Stat(filepath.Join(s.Repo.CommonDir, filepath.FromSlash(id))); hasRef && id != "" && serr == nil {
			return &WorktreeError{Session: s.Name, Owner: top, Here: s.Repo.Top}
		}
	}
	if !claim || !hasRef {
		return nil
	}
	return s.claim()
}

// claimNew records this worktree as the owner of the session after an
// operation made its ref (prev zero). Failing to record it fails nothing:
// the session's next writer claims it.
func (s *Session) claimNew(prev plumbing.Hash) {
	if prev.IsZero() {
		_ = s.claim()
	}
}

// claim records this worktree as the session's owner.
func (s *Session) claim() error {
	here := s.worktreeID()
	if err := os.MkdirAll(s.stateDir(), 0o777); err != nil {
		return fmt.Errorf("record the owner of session %s: %w", s.Name, err)
	}
	if err := writeAtomic(s.stateDir(), s.ownerPath(), []byte(here+"\n"+s.Repo.Top+"\n")); err != nil {
		return fmt.Errorf("record the owner of session %s: %w", s.Name, err)
	}
	return nil
}
