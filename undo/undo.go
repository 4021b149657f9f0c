package undo

import (
	"errors"
	"fmt"

	"github.com/git-edit/git-edit/repo/session"
	"github.com/go-git/go-git/v5/plumbing"
)

// Errors callers branch on. Each comes wrapped in a message that names the
// path and says what to do instead.
var (
	// ErrNothingToUndo: the session has no edit of the path left in effect,
	// or the edit named is undone already.
	ErrNothingToUndo = errors.New("nothing to undo")
	// ErrUndoDepth: the edit to undo is further back than edit.undoDepth allows.
	ErrUndoDepth = errors.New("undo depth reached")
	// ErrNothingToRedo: no undo to redo, or the path changed since.
	ErrNothingToRedo = errors.New("nothing to redo")
	// ErrMoved: the session gained commits between planning and the lock.
	ErrMoved = errors.New("session moved")
	// ErrNotRevertible: the commit named is not one the operation takes
	// back: a sync commit (the person's bytes) for undo, anything but an
	// undo for redo.
	ErrNotRevertible = errors.New("not a commit this operation reverts")
)

// DefaultUndoDepth is how many edits of one file undo reaches back unless git
// config edit.undoDepth says otherwise (0 there means unlimited).
const DefaultUndoDepth = 10

// Target is the commit an undo of one path reverts.
type Target struct {
	Commit plumbing.Hash
	Meta   session.Meta
}

// FindTarget returns the latest commit on path's chain in session s, up to
// tip, whose change to path is still in effect: walking the chain newest
// first, an undo or redo in effect takes back the commits it names
// (Edit-Undoes), which are then not in effect, and neither is what they
// name. Sync commits are never a target: they record what changed outside
// the session, and the selective undo of an older edit keeps it. depth
// bounds how many edit commits of the path may lie between the newest and
// the target (the target included, undone ones too); 0 means unlimited.
func FindTarget(s Store, tip plumbing.Hash, path string, depth int) (Target, error) {
	var target Target
	reverted := map[plumbing.Hash]bool{}
	edits := 0
	err := walkChain(s, tip, path, func(c plumbing.Hash, meta session.Meta) (bool, error) {
		switch {
		case meta.Op == session.OpSync:
			return false, nil
		case meta.Op == session.OpUndo:
			if !reverted[c] {
				markReverted(reverted, meta)
			}
			return false, nil
		}
		// edit, record, redo, rollback: a change that undo can revert
		if session.IsChange(meta.Op) {
			edits++
		}
		if depth > 0 && edits > depth {
			return true, fmt.Errorf("%w: the next edit to undo is the %s most recent edit of %s, and edit.undoDepth allows %d; raise it with `git config edit.undoDepth N` (0 = unlimited), or name the edit: `%s`",
				ErrUndoDepth, ordinal(edits), path, depth, session.Hint(s.SessionName(), "undo", "EDIT"))
		}
		if reverted[c] {
			return false, nil
		}
		target = Target{Commit: c, Meta: meta}
		return true, nil
	})
	if err == nil && target.Commit.IsZero() {
		err = fmt.Errorf("%w: session %q has no edit of %s left to undo", ErrNothingToUndo, s.SessionName(), path)
	}
	return target, err
}

// markReverted records, for a commit in effect, the commits it takes back.
func markReverted(reverted map[plumbing.Hash]bool, meta session.Meta) {
	for _, h := range meta.Reverts() {
		reverted[h] = true
	}
}

// InEffect reports whether commit h's change to path is still in effect at
// tip: no undo or redo in effect since takes it back. by is the one that
// does, when one does.
func InEffect(s Store, tip, h plumbing.Hash, path string) (ok bool, by plumbing.Hash, err error) {
	reverted := map[plumbing.Hash]plumbing.Hash{}
	found := false
	err = walkChain(s, tip, path, func(c plumbing.Hash, meta session.Meta) (bool, error) {
		if c == h {
			found = true
			by = reverted[c]
			return true, nil
		}
		if _, gone := reverted[c]; gone {
			return false, nil
		}
		for _, r := range meta.Reverts() {
			reverted[r] = c
		}
		return false, nil
	})
	if err == nil && !found {
		err = fmt.Errorf("%w: %s is not on the history of %s in session %q", ErrNothingToUndo, h.String()[:12], path, s.SessionName())
	}
	return found && by.IsZero(), by, err
}

// walkChain visits the commits of session s that changed path, newest
// first from tip, following Edit-Prev, until visit says done or the
// session's first touch of path is passed.
func walkChain(s Store, tip plumbing.Hash, path string, visit func(plumbing.Hash, session.Meta) (done bool, err error)) error {
	last, err := s.LastTouches(tip, []string{path})
	if err != nil {
		return err
	}
	for c := last[path]; !c.IsZero(); {
		// Edit-Prev names only commits of this session, so ok adds nothing.
		commit, _, err := s.ReadCommit(c)
		if err != nil {
			return err
		}
		if done, err := visit(c, commit.Meta); done || err != nil {
			return err
		}
		c = commit.Meta.Prev[path]
	}
	return nil
}

// PlanUndo is the plan, under the session's lock, for undoing the last edit
// of path still in effect, selectively (see PlanSelective; a conflict is
// refused). tool names the caller for the Edit-Tool trailer.
func PlanUndo(tx *session.Tx, s Store, path string, depth int, tool string) (session.Plan, Target, error) {
	t, err := FindTarget(s, tx.Tip, path, depth)
	if err != nil {
		return session.Plan{}, t, err
	}
	pl, err := PlanSelective(tx, s, []Reversal{{Target: t, Paths: []string{path}}}, session.OpUndo, tool, false)
	return pl.Plan, t, err
}

// FindRedo returns the undo commit a redo of path re-applies: walking the
// path's chain newest first, the first undo still in effect (a redo in
// effect takes back the undo it names). An edit (or a change made outside
// git-edit) since then means there is nothing to redo by path, as in any
// editor; an undo named by its commit (PickRedo) is redone selectively
// whatever came after.
func FindRedo(s Store, tip plumbing.Hash, path string) (Target, error) {
	var target Target
	reverted := map[plumbing.Hash]bool{}
	err := walkChain(s, tip, path, func(c plumbing.Hash, meta session.Meta) (bool, error) {
		if reverted[c] {
			return false, nil
		}
		switch meta.Op {
		case session.OpRedo:
			markReverted(reverted, meta)
		case session.OpUndo:
			target = Target{Commit: c, Meta: meta}
			return true, nil
		default:
			return true, fmt.Errorf("%w: %s was changed since its last undo (by %s, %s), and redo by path re-applies only the newest undo; redo an older undo by naming it: `%s`", ErrNothingToRedo, path, what(meta), c.String()[:12], session.Hint(s.SessionName(), "redo", "UNDO"))
		}
		return false, nil
	})
	if err == nil && target.Commit.IsZero() {
		err = fmt.Errorf("%w: session %q has no undo of %s to redo", ErrNothingToRedo, s.SessionName(), path)
	}
	return target, err
}

// PlanRedo is the plan for redoing path's last undo, selectively (see
// PlanSelective; a conflict is refused).
func PlanRedo(tx *session.Tx, s Store, path, tool string) (session.Plan, Target, error) {
	t, err := FindRedo(s, tx.Tip, path)
	if err != nil {
		return session.Plan{}, t, err
	}
	pl, err := PlanSelective(tx, s, []Reversal{{Target: t, Paths: []string{path}}}, session.OpRedo, tool, false)
	return pl.Plan, t, err
}

// Latest finds what an undo (redo false) or redo (redo true) without a
// path reverts: walking the session from tip, the newest commit that is the
// per-path target (FindTarget, FindRedo) of at least one of its paths, and
// those paths. depth applies as in FindTarget.
func Latest(s Store, tip plumbing.Hash, redo bool, depth int) (Target, []string, error) {
	for h := tip; !h.IsZero(); {
		c, ok, err := s.ReadCommit(h)
		if err != nil {
			return Target{}, nil, err
		}
		if !ok {
			break
		}
		candidate := c.Meta.Op == session.OpUndo
		if !redo {
			candidate = c.Meta.Op != session.OpUndo && c.Meta.Op != session.OpSync
		}
		if candidate {
			var paths []string
			var firstErr error
			for _, p := range c.Meta.Paths {
				var t Target
				if redo {
					t, err = FindRedo(s, tip, p)
				} else {
					t, err = FindTarget(s, tip, p, depth)
				}
				if err == nil && t.Commit == h {
					paths = append(paths, p)
				} else if err != nil && firstErr == nil && !errors.Is(err, ErrNothingToUndo) && !errors.Is(err, ErrNothingToRedo) {
					firstErr = err
				}
			}
			if len(paths) > 0 {
				return Target{Commit: h, Meta: c.Meta}, paths, nil
			}
			if firstErr != nil {
				return Target{}, nil, firstErr
			}
		}
		h = c.Parent
	}
	if redo {
		return Target{}, nil, fmt.Errorf("%w: session %q has no undo left to redo", ErrNothingToRedo, s.SessionName())
	}
	return Target{}, nil, fmt.Errorf("%w: session %q has no edit left to undo", ErrNothingToUndo, s.SessionName())
}

// PlanRevert is the plan that reverts target for the given paths,
// selectively (see PlanSelective; a conflict is refused), recorded as op
// (OpUndo or OpRedo) naming target in Edit-Undoes. It refuses, with
// ErrMoved, when the session moved since tip, on which the target was
// chosen.
func PlanRevert(tx *session.Tx, s Store, tip plumbing.Hash, t Target, paths []string, op, tool string) (session.Plan, error) {
	if tx.Tip != tip {
		return session.Plan{}, moved(s)
	}
	pl, err := PlanSelective(tx, s, []Reversal{{Target: t, Paths: paths}}, op, tool, false)
	return pl.Plan, err
}

func moved(s Store) error {
	return fmt.Errorf("%w: another process recorded an edit in session %q meanwhile; run the command again", ErrMoved, s.SessionName())
}

// what names a commit's change for messages: its tool, else its op.
func what(m session.Meta) string {
	if m.Tool != "" {
		return m.Tool
	}
	return m.Op
}

func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}
