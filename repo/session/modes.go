package session

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/git-edit/git-edit/repo"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// ErrLinkFile refuses an edit of a symbolic link that the repository
// checks out as a plain file holding the link's target (core.symlinks
// false): its text is where the link points, not content.
var ErrLinkFile = errors.New("the file is a symbolic link checked out as a plain file")

// recordedView is f, as read from disk, with the mode `git add` would
// record for it, given the entry recorded for the path so far: with
// core.fileMode false the recorded mode stays, and with core.symlinks
// false a plain file where a link is recorded stays a link
// (repo.Checkout.RecordedMode). Comparing that with the recorded entry
// then finds only what git would call a change.
func recordedView(co repo.Checkout, f repo.FileState, recorded repo.Entry) repo.FileState {
	if f.Exists {
		f.Mode = co.RecordedMode(f.Mode, recorded)
	}
	return f
}

// withoutSkipped returns outside without the paths a sparse checkout
// leaves out of the worktree: recorded as a file, absent on disk, and
// marked skip-worktree in the index. git takes such a path to be as
// recorded, not deleted, and so does the session; skipped marks them (the
// operation's commit names those it changes in Edit-Sparse-Before). The
// index is read only in a sparse checkout, and only when such a candidate
// exists.
func (s *Session) withoutSkipped(co repo.Checkout, outside []string, files map[string]repo.FileState, recorded map[string]repo.Entry) (out []string, skipped map[string]bool, err error) {
	if !co.Sparse {
		return outside, nil, nil
	}
	var absent []string
	for _, p := range outside {
		if !files[p].Exists && recorded[p].Exists() {
			absent = append(absent, p)
		}
	}
	if len(absent) == 0 {
		return outside, nil, nil
	}
	bits, err := s.Repo.SkipWorktree(absent)
	if err != nil {
		return nil, nil, err
	}
	skipped = map[string]bool{}
	for _, p := range outside {
		if !bits[p] || files[p].Exists {
			out = append(out, p)
		} else {
			skipped[p] = true
		}
	}
	return out, skipped, nil
}

// sparseDisk returns changes as the disk gets them. A change marked
// LeaveOut (an undo or rollback returning a path to a state in which the
// sparse checkout left it out of the worktree, Edit-Sparse-Before) of a
// path the index still marks skip-worktree is not written: the file an
// edit put there is removed, and an absent one stays absent, as before
// that edit; the commit records the entry all the same (git takes an
// absent skip-worktree path to be as recorded, and so does begin). Every
// other change is written as it is. The index is read only in a sparse
// checkout, and only when such a change exists.
func (s *Session) sparseDisk(co repo.Checkout, tx *Tx, changes []Change) ([]Change, error) {
	var candidates []string
	for _, c := range changes {
		if c.LeaveOut && !c.Delete {
			candidates = append(candidates, c.Path)
		}
	}
	if !co.Sparse || len(candidates) == 0 {
		return changes, nil
	}
	skipped, err := s.Repo.SkipWorktree(candidates)
	if err != nil {
		return nil, err
	}
	out := make([]Change, 0, len(changes))
	for _, c := range changes {
		switch {
		case !c.LeaveOut || c.Delete || !skipped[c.Path]:
			out = append(out, c)
		case tx.Files[c.Path].Exists:
			out = append(out, Change{Path: c.Path, Delete: true})
		}
	}
	return out, nil
}

// LinkFileError refuses an edit of Path, a link kept as a plain file
// holding Target; it wraps ErrLinkFile.
type LinkFileError struct {
	Path   string
	Target []byte
}

func (e *LinkFileError) Error() string {
	return fmt.Sprintf("%s is a symbolic link to %q, which this repository checks out as a plain file holding the target (core.symlinks is false); git-edit does not change where a link points through an edit tool: edit a regular file instead, or, if the link should point elsewhere, change %s by hand and git add records the new target; nothing was changed",
		e.Path, e.Target, e.Path)
}

func (e *LinkFileError) Unwrap() error { return ErrLinkFile }

// refuseLinkEdit refuses, with a *LinkFileError, a change that keeps the
// mode (an edit by a dialect) but changes the text of a link kept as a
// plain file: changing where a link points through an edit tool would
// surprise whoever reads the diff. Deleting the link, and history
// operations that give the mode explicitly (undo, redo and rollback
// putting back a recorded link), pass.
func refuseLinkEdit(cur repo.FileState, c Change) error {
	if c.Delete || c.Mode != 0 || !cur.Exists || cur.Mode != filemode.Symlink || bytes.Equal(cur.Content, c.Content) {
		return nil
	}
	return &LinkFileError{Path: cur.Path, Target: cur.Content}
}
