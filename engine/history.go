package engine

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-edit/git-edit/diffview"
	"github.com/git-edit/git-edit/history"
	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/session"
	"github.com/go-git/go-git/v5/plumbing"
)

// The history questions read a session through history.Store; the engine
// hands them its *session.Session.
var _ history.Store = (*session.Session)(nil)

// Reverted is what Undo, Redo and Rollback did.
type Reverted struct {
	session.Outcome
	// Target is the commit reverted (undo, redo) or returned to (rollback
	// --to); zero for a rollback to the start of the session.
	Target history.Target
	// Paths are the paths the operation was about.
	Paths []string
	// Discarded lists the person's work a forced rollback removed from the
	// worktree (it stays in history), with whose work each is; empty
	// otherwise.
	Discarded []history.Discard
	// Later are, for a rollback, the session's own commits it reverses
	// (after Target, or all for the start; no sync commits), newest first.
	Later []history.Commit
}

// PathChange is what an undo, redo or rollback did to one of its paths.
type PathChange struct {
	Path string
	// How: "unchanged", "removed", "restored" (it did not exist before) or
	// "changed".
	How string
	// Added and Removed count the lines of a change (How "changed").
	Added, Removed int
}

// Changes says, for each of Paths in order, what the operation did to it.
func (r Reverted) Changes() []PathChange {
	out := make([]PathChange, len(r.Paths))
	for i, p := range r.Paths {
		before, after := r.Before[p], r.After[p]
		c := PathChange{Path: p}
		switch {
		case before.Exists == after.Exists && before.Mode == after.Mode && string(before.Content) == string(after.Content):
			c.How = "unchanged"
		case !after.Exists:
			c.How = "removed"
		case !before.Exists:
			c.How = "restored"
		default:
			c.How = "changed"
			c.Added, c.Removed = diffview.Stat(shownText(before.Content), shownText(after.Content))
		}
		out[i] = c
	}
	return out
}

// Undo reverts the last edit still in effect: of path, or (path "") the
// newest one of the session, for all of its paths still in effect. Paths
// changed on disk since the session last recorded them are refused with
// *session.OutsideChangeError unless force, which records them as a sync
// commit first. Nothing to undo, depth reached, and an undo that would
// cross a change made outside git-edit are refused (history's sentinels).
func (e *Engine) Undo(ctx context.Context, path string, force bool) (Reverted, error) {
	return e.revert(ctx, path, force, false)
}

// Redo re-applies the last undo: of path, or (path "") the newest undo of
// the session still redoable, as long as nothing changed those paths since.
func (e *Engine) Redo(ctx context.Context, path string, force bool) (Reverted, error) {
	return e.revert(ctx, path, force, true)
}

func (e *Engine) revert(ctx context.Context, path string, force, redo bool) (Reverted, error) {
	op, tool, verb := session.OpUndo, "git-edit undo", "undo"
	if redo {
		op, tool, verb = session.OpRedo, "git-edit redo", "redo"
	}
	var res Reverted
	if path != "" {
		e, p, err := e.locateRecorded(path)
		if err != nil {
			return res, err
		}
		res.Paths = []string{p.Rel}
		res.Outcome, err = e.apply(ctx, []repo.Path{p}, outsidePolicy(force), func(tx *session.Tx) (session.Plan, error) {
			var pl session.Plan
			var err error
			if redo {
				pl, res.Target, err = history.PlanRedo(tx, e.Session, p.Rel, tool)
			} else {
				pl, res.Target, err = history.PlanUndo(tx, e.Session, p.Rel, e.UndoDepth, tool)
			}
			return pl, err
		})
		return res, e.replaced(verb, []repo.Path{p}, err)
	}
	tip, err := e.Session.Tip()
	if err != nil {
		return res, err
	}
	if res.Target, res.Paths, err = history.Latest(e.Session, tip, redo, e.UndoDepth); err != nil {
		return res, err
	}
	paths, err := e.historyPaths(res.Paths, verb)
	if err != nil {
		return res, err
	}
	res.Outcome, err = e.apply(ctx, paths, outsidePolicy(force), func(tx *session.Tx) (session.Plan, error) {
		return history.PlanRevert(tx, e.Session, tip, res.Target, res.Paths, op, tool)
	})
	return res, e.replaced(verb, paths, err)
}

// locateRecorded is locate for a path that names a recorded file (undo
// PATH, redo PATH): confined the same way, owned by the same repository,
// but a symlink at its final component is not followed (see
// repo.ResolveRecorded), so the history operation never acts on the file a
// link points to.
func (e *Engine) locateRecorded(arg string) (*Engine, repo.Path, error) {
	return e.locateBy(arg, (*repo.Repo).ResolveRecordedFrom)
}

// Rollback returns every path the session touched to its state before the
// session, or (to given) right after that edit: files the session created
// are removed, files it deleted come back. Without force it refuses, with
// *history.PersonsWorkError, when that would remove the person's work (see
// history.PlanRollback), and as Undo does for paths changed on disk; with
// force it proceeds, and Reverted.Discarded lists what it discarded (which
// stays in history). A recorded path that is no longer a regular file is
// refused naming what it now is (ErrReplaced); a symlink is never followed.
func (e *Engine) Rollback(ctx context.Context, to string, force bool) (Reverted, error) {
	var res Reverted
	tip, err := e.Session.Tip()
	if err != nil {
		return res, err
	}
	if tip.IsZero() {
		return res, fmt.Errorf("%w: session %q has no edits to roll back", history.ErrNothingToUndo, e.Session.Name)
	}
	var toHash plumbing.Hash
	if to != "" {
		c, err := history.Resolve(e.Session, tip, to)
		if err != nil {
			return res, err
		}
		toHash, res.Target = c.Hash, history.Target{Commit: c.Hash, Meta: c.Meta}
	}
	rb, err := history.PrepareRollback(e.Session, tip, toHash)
	if err != nil {
		return res, err
	}
	res.Paths, res.Later = rb.Paths, rb.Later
	paths, err := e.historyPaths(res.Paths, "rollback")
	if err != nil {
		return res, err
	}
	res.Outcome, err = e.apply(ctx, paths, outsidePolicy(force), func(tx *session.Tx) (session.Plan, error) {
		pl, discards, err := history.PlanRollback(tx, e.Session, rb, force, "git-edit rollback")
		res.Discarded = discards
		return pl, err
	})
	if err != nil {
		res.Discarded = nil
		e.whoseRefusal(err)
		return res, e.replaced("rollback", paths, err)
	}
	for i, d := range res.Discarded {
		if d.Kind == history.DiscardDisk {
			res.Discarded[i].Commit = res.Sync
		}
	}
	e.whoseDiscards(res.Discarded)
	return res, nil
}

// historyPaths resolves paths recorded in history (relative to the
// worktree top) with the same confinement as arguments, without following
// a symlink at the final component (repo.ResolveRecorded). A path that
// leads somewhere else because a directory on its way became a symlink is
// refused (ErrReplaced): the operation would act on another file.
func (e *Engine) historyPaths(rels []string, op string) ([]repo.Path, error) {
	paths := make([]repo.Path, len(rels))
	for i, rel := range rels {
		p, err := e.Repo.ResolveRecorded(e.Repo.Top, rel)
		if err != nil {
			return nil, err
		}
		if p.Rel != rel {
			return nil, fmt.Errorf("%w: a directory on the way to %s is now a symlink, so the path leads to %s; %s acts on the file recorded as %s and will not follow it; nothing was changed. Put the directory back, or undo %s by name",
				ErrReplaced, rel, p.Rel, op, rel, p.Rel)
		}
		paths[i] = p
	}
	return paths, nil
}

// ErrReplaced: a path the session recorded as a file is something else now
// (a symlink, a directory, a FIFO...), or leads elsewhere; history
// operations act on the recorded path only, so they refuse it. The error
// also wraps the refusal from below (repo.ErrNotRegular or
// repo.ErrIsDirectory) when there was one.
var ErrReplaced = errors.New("the recorded path is no longer a regular file")

// replaced turns a refusal of a path that is not a regular file (err from
// Apply) into one that names the path, says what it now is, and what to do.
// Any other error is returned as it is.
func (e *Engine) replaced(op string, paths []repo.Path, err error) error {
	if !errors.Is(err, repo.ErrNotRegular) && !errors.Is(err, repo.ErrIsDirectory) {
		return err
	}
	for _, p := range paths {
		fi, lerr := os.Lstat(p.Abs)
		if lerr != nil || fi.Mode().IsRegular() {
			continue
		}
		now, instead := "", "replace it with a regular file, or remove it"
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			dest, _ := os.Readlink(p.Abs)
			now = fmt.Sprintf("a symlink (to %s)", dest)
			instead = "replace the symlink with a regular file, or remove it"
			if target, ok := symlinkTarget(e.Repo.Top, p, dest); ok && op != "rollback" {
				instead += fmt.Sprintf(", or %s %s by name", op, target)
			}
		case fi.IsDir():
			now = "a directory"
		default:
			now = "a " + repo.Kind(fi.Mode())
		}
		return fmt.Errorf("%w: %s is now %s; %s acts on the file recorded as %s and will not follow or open it; nothing was changed. To go on, %s (%w)",
			ErrReplaced, p.Rel, now, op, p.Rel, instead, err)
	}
	return err
}

// symlinkTarget is, for a symlink at p pointing to dest, the path of its
// target relative to the worktree top when it stays inside it (for the
// hint "undo TARGET by name"). It is only a hint: the path is not resolved
// further.
func symlinkTarget(top string, p repo.Path, dest string) (string, bool) {
	if dest == "" {
		return "", false
	}
	abs := dest
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(filepath.Dir(p.Abs), dest)
	}
	rel, err := filepath.Rel(top, filepath.Clean(abs))
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

func outsidePolicy(force bool) session.OutsidePolicy {
	if force {
		return session.RecordOutside
	}
	return session.RefuseOutside
}
