// Package undo answers history questions from the session refs: which edit
// an undo reverts, and what the file looked like before it. Undo never moves
// a ref back: it appends a commit that names what it reverses.
package undo

import (
	"errors"
	"fmt"

	"github.com/git-edit/git-edit/repo"
	"github.com/go-git/go-git/v5/plumbing"
)

// Errors callers branch on. Each comes wrapped in a message that names the
// path and says what to do instead.
var (
	// ErrNothingToUndo: the session has no edit of the path left in effect.
	ErrNothingToUndo = errors.New("nothing to undo")
	// ErrDepth: the edit to undo is further back than edit.undoDepth allows.
	ErrDepth = errors.New("undo depth reached")
	// ErrChangedOutside: the path was changed outside git-edit before the
	// edit that would be undone; undo does not reach past that point.
	ErrChangedOutside = errors.New("undo stops at a change made outside git-edit")
)

// DefaultDepth is how many edits of one file undo reaches back unless git
// config edit.undoDepth says otherwise (0 there means unlimited).
const DefaultDepth = 10

// Target is the commit an undo of one path reverts.
type Target struct {
	Commit plumbing.Hash
	Meta   repo.Meta
}

// FindTarget returns the latest commit on path's chain in session s, up to
// tip, whose change to path is still in effect: walking the chain newest
// first, each undo cancels the next edit or redo below it. depth bounds how
// many edit commits of the path may lie between the newest and the target
// (the target included); 0 means unlimited. The walk stops, with
// ErrChangedOutside, at a sync commit: before it lies what the person wrote,
// which an undo must not overwrite.
func FindTarget(s *repo.Session, tip plumbing.Hash, path string, depth int) (Target, error) {
	last, err := s.LastTouches(tip, []string{path})
	if err != nil {
		return Target{}, err
	}
	cancelled, edits := 0, 0
	for c := last[path]; !c.IsZero(); {
		commit, err := s.Repo.ReadCommit(c)
		if err != nil {
			return Target{}, err
		}
		meta, _ := repo.ParseMeta(commit.Message)
		switch meta.Op {
		case repo.OpUndo:
			cancelled++
		case repo.OpSync:
			return Target{}, fmt.Errorf("%w: %s was changed outside git-edit (recorded in %s) before every edit of it still in effect, and undo never overwrites a person's changes; older versions are in `git log -p %s -- %s` if you need them",
				ErrChangedOutside, path, c.String()[:12], s.Ref(), path)
		default: // edit, redo, rollback: a change that undo can revert
			if meta.Op == repo.OpEdit {
				edits++
			}
			if depth > 0 && edits > depth {
				return Target{}, fmt.Errorf("%w: the next edit to undo is the %s most recent edit of %s, and edit.undoDepth allows %d; raise it with `git config edit.undoDepth N` (0 = unlimited)",
					ErrDepth, ordinal(edits), path, depth)
			}
			if cancelled == 0 {
				return Target{Commit: c, Meta: meta}, nil
			}
			cancelled--
		}
		c = meta.Prev[path]
	}
	return Target{}, fmt.Errorf("%w: session %q has no edit of %s left to undo", ErrNothingToUndo, s.Name, path)
}

// PlanPath is the plan, under the session's lock, for undoing the last edit
// of path still in effect: path goes back to its state just before that
// edit (a file the edit created is removed). tool names the caller for the
// Edit-Tool trailer.
func PlanPath(tx *repo.Tx, s *repo.Session, path string, depth int, tool string) (repo.Plan, Target, error) {
	t, err := FindTarget(s, tx.Tip, path, depth)
	if err != nil {
		return repo.Plan{}, t, err
	}
	commit, err := s.Repo.ReadCommit(t.Commit)
	if err != nil {
		return repo.Plan{}, t, err
	}
	var parent plumbing.Hash
	if len(commit.ParentHashes) > 0 {
		parent = commit.ParentHashes[0]
	}
	before, err := s.Repo.FileAt(parent, path)
	if err != nil {
		return repo.Plan{}, t, err
	}
	change := repo.Change{Path: path, Delete: !before.Exists, Content: before.Content, Mode: before.Mode}
	what := t.Meta.Tool
	if what == "" {
		what = t.Meta.Op
	}
	return repo.Plan{
		Changes: []repo.Change{change},
		Subject: fmt.Sprintf("undo %s on %s (%s)", what, path, t.Commit.String()[:12]),
		Meta:    repo.Meta{Op: repo.OpUndo, Tool: tool, Undoes: t.Commit},
	}, t, nil
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
