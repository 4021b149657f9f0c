package history

import (
	"errors"
	"fmt"
	"strings"

	"github.com/git-edit/git-edit/session"
	"github.com/go-git/go-git/v5/plumbing"
)

// Errors callers branch on. Each comes wrapped in a message that names the
// path and says what to do instead.
var (
	// ErrNothingToUndo: the session has no edit of the path left in effect.
	ErrNothingToUndo = errors.New("nothing to undo")
	// ErrUndoDepth: the edit to undo is further back than edit.undoDepth allows.
	ErrUndoDepth = errors.New("undo depth reached")
	// ErrChangedOutside: the path was changed outside git-edit before the
	// edit that would be undone; undo does not reach past that point.
	ErrChangedOutside = errors.New("undo stops at a change made outside git-edit")
	// ErrNothingToRedo: no undo to redo, or the path changed since.
	ErrNothingToRedo = errors.New("nothing to redo")
	// ErrMoved: the session gained commits between planning and the lock.
	ErrMoved = errors.New("session moved")
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
// first, each undo cancels the next edit or redo below it. depth bounds how
// many edit commits of the path may lie between the newest and the target
// (the target included); 0 means unlimited. The walk stops, with
// ErrChangedOutside, at a sync commit: before it lies what the person wrote,
// which an undo must not overwrite.
func FindTarget(s Store, tip plumbing.Hash, path string, depth int) (Target, error) {
	var target Target
	cancelled, edits := 0, 0
	err := walkChain(s, tip, path, func(c plumbing.Hash, meta session.Meta) (bool, error) {
		switch meta.Op {
		case session.OpUndo:
			cancelled++
		case session.OpSync:
			return true, fmt.Errorf("%w: %s was changed outside git-edit (recorded in %s) before every edit of it still in effect, and undo never overwrites a person's changes; older versions are in `git log -p %s -- %s` if you need them",
				ErrChangedOutside, path, c.String()[:12], s.Ref(), path)
		default: // edit, record, redo, rollback: a change that undo can revert
			if session.IsChange(meta.Op) {
				edits++
			}
			if depth > 0 && edits > depth {
				return true, fmt.Errorf("%w: the next edit to undo is the %s most recent edit of %s, and edit.undoDepth allows %d; raise it with `git config edit.undoDepth N` (0 = unlimited)",
					ErrUndoDepth, ordinal(edits), path, depth)
			}
			if cancelled == 0 {
				target = Target{Commit: c, Meta: meta}
				return true, nil
			}
			cancelled--
		}
		return false, nil
	})
	if err == nil && target.Commit.IsZero() {
		err = fmt.Errorf("%w: session %q has no edit of %s left to undo", ErrNothingToUndo, s.SessionName(), path)
	}
	return target, err
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
// of path still in effect: path goes back to its state just before that
// edit (a file the edit created is removed). tool names the caller for the
// Edit-Tool trailer.
func PlanUndo(tx *session.Tx, s Store, path string, depth int, tool string) (session.Plan, Target, error) {
	t, err := FindTarget(s, tx.Tip, path, depth)
	if err != nil {
		return session.Plan{}, t, err
	}
	pl, err := revert(s, tx.Reader(), t, []string{path}, session.OpUndo, tool)
	return pl, t, err
}

// FindRedo returns the undo commit a redo of path re-applies: walking the
// path's chain newest first, each redo cancels the next undo below it; the
// first undo not cancelled is the target. An edit (or a change made outside
// git-edit) since then means there is nothing to redo: redoing would
// overwrite it.
func FindRedo(s Store, tip plumbing.Hash, path string) (Target, error) {
	var target Target
	cancelled := 0
	err := walkChain(s, tip, path, func(c plumbing.Hash, meta session.Meta) (bool, error) {
		switch meta.Op {
		case session.OpRedo:
			cancelled++
		case session.OpUndo:
			if cancelled == 0 {
				target = Target{Commit: c, Meta: meta}
				return true, nil
			}
			cancelled--
		default:
			return true, fmt.Errorf("%w: %s was changed since its last undo (by %s, %s), and redo would overwrite that", ErrNothingToRedo, path, what(meta), c.String()[:12])
		}
		return false, nil
	})
	if err == nil && target.Commit.IsZero() {
		err = fmt.Errorf("%w: session %q has no undo of %s to redo", ErrNothingToRedo, s.SessionName(), path)
	}
	return target, err
}

// PlanRedo is the plan for redoing path's last undo: path goes back to
// its state just before that undo.
func PlanRedo(tx *session.Tx, s Store, path, tool string) (session.Plan, Target, error) {
	t, err := FindRedo(s, tx.Tip, path)
	if err != nil {
		return session.Plan{}, t, err
	}
	pl, err := revert(s, tx.Reader(), t, []string{path}, session.OpRedo, tool)
	return pl, t, err
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

// PlanRevert is the plan that reverts target for the given paths (each
// goes back to its state in target's parent), recorded as op (OpUndo or
// OpRedo) naming target in Edit-Undoes. It refuses, with ErrMoved, when the
// session moved since tip, on which the target was chosen.
func PlanRevert(tx *session.Tx, s Store, tip plumbing.Hash, t Target, paths []string, op, tool string) (session.Plan, error) {
	if tx.Tip != tip {
		return session.Plan{}, moved(s)
	}
	return revert(s, tx.Reader(), t, paths, op, tool)
}

// revert builds the plan putting paths back as they were just before
// target, read through files (the transaction's reader).
func revert(s Store, files Files, t Target, paths []string, op, tool string) (session.Plan, error) {
	commit, _, err := s.ReadCommit(t.Commit)
	if err != nil {
		return session.Plan{}, err
	}
	var changes []session.Change
	for _, p := range paths {
		before, err := files.FileAt(commit.Parent, p)
		if err != nil {
			return session.Plan{}, err
		}
		changes = append(changes, session.Change{Path: p, Delete: !before.Exists, Content: before.Content, Mode: before.Mode})
	}
	verb := "undo"
	if op == session.OpRedo {
		verb = "redo"
	}
	return session.Plan{
		Changes: changes,
		Subject: fmt.Sprintf("%s %s on %s (%s)", verb, what(t.Meta), strings.Join(paths, ", "), t.Commit.String()[:12]),
		Meta:    session.Meta{Op: op, Tool: tool, Undoes: t.Commit},
	}, nil
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
