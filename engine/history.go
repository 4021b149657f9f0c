package engine

import (
	"context"
	"fmt"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/undo"
	"github.com/go-git/go-git/v5/plumbing"
)

// Reverted is what Undo, Redo and Rollback did.
type Reverted struct {
	repo.Outcome
	// Target is the commit reverted (undo, redo) or returned to (rollback
	// --to); zero for a rollback to the start of the session.
	Target undo.Target
	// Paths are the paths the operation was about.
	Paths []string
}

// Undo reverts the last edit still in effect: of path, or (path "") the
// newest one of the session, for all of its paths still in effect. Paths
// changed on disk since the session last recorded them are refused with
// *repo.OutsideChangeError unless force, which records them as a sync
// commit first. Nothing to undo, depth reached, and an undo that would
// cross a change made outside git-edit are refused (undo's sentinels).
func (e *Engine) Undo(ctx context.Context, path string, force bool) (Reverted, error) {
	return e.revert(ctx, path, force, false)
}

// Redo re-applies the last undo: of path, or (path "") the newest undo of
// the session still redoable, as long as nothing changed those paths since.
func (e *Engine) Redo(ctx context.Context, path string, force bool) (Reverted, error) {
	return e.revert(ctx, path, force, true)
}

func (e *Engine) revert(ctx context.Context, path string, force, redo bool) (Reverted, error) {
	op, tool := repo.OpUndo, "git-edit undo"
	if redo {
		op, tool = repo.OpRedo, "git-edit redo"
	}
	var res Reverted
	if path != "" {
		e, p, err := e.locate(path)
		if err != nil {
			return res, err
		}
		res.Paths = []string{p.Rel}
		res.Outcome, err = e.apply(ctx, []repo.Path{p}, outsidePolicy(force), func(tx *repo.Tx) (repo.Plan, error) {
			var pl repo.Plan
			var err error
			if redo {
				pl, res.Target, err = undo.PlanRedoPath(tx, e.Session, p.Rel, tool)
			} else {
				pl, res.Target, err = undo.PlanPath(tx, e.Session, p.Rel, e.UndoDepth, tool)
			}
			return pl, err
		})
		return res, err
	}
	tip, err := e.Repo.SessionTip(e.Session.Name)
	if err != nil {
		return res, err
	}
	if res.Target, res.Paths, err = undo.Latest(e.Session, tip, redo, e.UndoDepth); err != nil {
		return res, err
	}
	paths, err := e.historyPaths(res.Paths)
	if err != nil {
		return res, err
	}
	res.Outcome, err = e.apply(ctx, paths, outsidePolicy(force), func(tx *repo.Tx) (repo.Plan, error) {
		return undo.PlanCommit(tx, e.Session, tip, res.Target, res.Paths, op, tool)
	})
	return res, err
}

// Rollback returns every path the session touched to its state before the
// session, or (to given) right after that edit: files the session created
// are removed, files it deleted come back. Refusals as for Undo.
func (e *Engine) Rollback(ctx context.Context, to string, force bool) (Reverted, error) {
	var res Reverted
	tip, err := e.Repo.SessionTip(e.Session.Name)
	if err != nil {
		return res, err
	}
	if tip.IsZero() {
		return res, fmt.Errorf("%w: session %q has no edits to roll back", undo.ErrNothingToUndo, e.Session.Name)
	}
	var toHash plumbing.Hash
	if to != "" {
		c, err := undo.Resolve(e.Session, tip, to)
		if err != nil {
			return res, err
		}
		toHash, res.Target = c.Hash, undo.Target{Commit: c.Hash, Meta: c.Meta}
	}
	targets, err := undo.RollbackTargets(e.Session, tip, toHash)
	if err != nil {
		return res, err
	}
	for _, f := range targets {
		res.Paths = append(res.Paths, f.Path)
	}
	paths, err := e.historyPaths(res.Paths)
	if err != nil {
		return res, err
	}
	res.Outcome, err = e.apply(ctx, paths, outsidePolicy(force), func(tx *repo.Tx) (repo.Plan, error) {
		return undo.PlanRollback(tx, e.Session, tip, toHash, targets, "git-edit rollback")
	})
	return res, err
}

// historyPaths resolves paths recorded in history (relative to the
// worktree top) with the same confinement as arguments: if a directory on
// the way became a symlink out of the repository, it is refused.
func (e *Engine) historyPaths(rels []string) ([]repo.Path, error) {
	paths := make([]repo.Path, len(rels))
	for i, rel := range rels {
		p, err := e.Repo.Resolve(e.Repo.Top, rel)
		if err != nil {
			return nil, err
		}
		paths[i] = p
	}
	return paths, nil
}

func outsidePolicy(force bool) repo.OutsidePolicy {
	if force {
		return repo.RecordOutside
	}
	return repo.RefuseOutside
}
