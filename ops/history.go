package ops

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/git-edit/git-edit/diffview"
	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/git-edit/git-edit/undo"
	"github.com/go-git/go-git/v5/plumbing"
)

// The history questions read a session through undo.Store; the engine
// hands them its *session.Session.
var _ undo.Store = (*session.Session)(nil)

// Reverted is what Undo, Redo and Rollback did.
type Reverted struct {
	session.Outcome
	// Target is the commit reverted (undo, redo) or returned to (rollback
	// --to); zero for a rollback to the start of the session.
	Target undo.Target
	// Paths are the paths the operation was about.
	Paths []string
	// Discarded lists the person's work a forced rollback removed from the
	// worktree (it stays in history), with whose work each is; empty
	// otherwise.
	Discarded []undo.Discard
	// Reversals are what an undo or redo took back (Target is the first's).
	Reversals []undo.Reversal
	// Whole lists the paths of a forced undo or redo that conflicted and
	// went back whole, as they were before the target: what changed them
	// since is removed too (undo.WhatElse says what).
	Whole []string
	// Turn is the turn an undo --turn took back; "" otherwise.
	Turn string
	// To is what a rollback --to named (undo.ToEdit, ToTurn,
	// ToCheckpoint); "" otherwise.
	To string
	// DryRun: nothing was written or recorded; Before and After say what
	// would change (Commit and Sync are zero).
	DryRun bool
	// Later are, for a rollback, the session's own commits it reverses
	// (after Target, or all for the start; no sync commits), newest first.
	Later []undo.Commit
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

// Undo takes back the last edit still in effect: of path, or (path "")
// the newest one of the session, for all of its paths still in effect. It
// is selective (undo.PlanSelective): the edit's own change is
// reverse-applied to the file as it is now, so later changes elsewhere in
// it stay; a file changed on disk since the session last recorded it is
// recorded first as a sync commit, and kept the same way. Where the same
// lines changed since, it refuses with *undo.ConflictError, unless
// force: then the path goes back whole, as it was before the edit
// (Reverted.Whole). Nothing to undo and depth reached are refused
// (history's sentinels).
func (e *Engine) Undo(ctx context.Context, path string, force bool) (Reverted, error) {
	return e.revert(ctx, path, force, false, false)
}

// Redo re-applies, selectively as Undo takes back, the last undo: of path
// (as long as nothing else changed it since), or (path "") the newest undo
// of the session still redoable.
func (e *Engine) Redo(ctx context.Context, path string, force bool) (Reverted, error) {
	return e.revert(ctx, path, force, true, false)
}

// UndoEdit takes back the commit name names (a commit id prefix,
// SESSION~N or tip~N, as `show` reads them; see undo.PickUndo), for its
// paths still in effect, whatever came after it: selectively, as Undo.
func (e *Engine) UndoEdit(ctx context.Context, name string, force bool) (Reverted, error) {
	return e.revertNamed(ctx, name, force, false, false)
}

// RedoEdit re-applies what the undo name names took back, selectively,
// whatever came after it.
func (e *Engine) RedoEdit(ctx context.Context, name string, force bool) (Reverted, error) {
	return e.revertNamed(ctx, name, force, true, false)
}

// UndoSet takes back several commits of the session in one undo commit
// (all or nothing), each for the paths given: rs go newest first and were
// chosen at tip (undo.PickUndo, InEffect); if the session moved since,
// it refuses with undo.ErrMoved. Selective and forced as Undo.
func (e *Engine) UndoSet(ctx context.Context, tip plumbing.Hash, rs []undo.Reversal, force bool) (Reverted, error) {
	return e.revertSet(ctx, tip, rs, force, false, false)
}

func revertNames(redo bool) (op, tool, verb string) {
	if redo {
		return session.OpRedo, "git-edit redo", "redo"
	}
	return session.OpUndo, "git-edit undo", "undo"
}

func (e *Engine) revert(ctx context.Context, path string, force, redo, dry bool) (Reverted, error) {
	op, tool, verb := revertNames(redo)
	var res Reverted
	if path != "" {
		e, p, err := e.locateRecorded(path)
		if err != nil {
			return res, err
		}
		res.Paths = []string{p.Rel}
		res.Outcome, err = e.applyOrPreview(ctx, dry, []repo.Path{p}, session.RecordOutside, func(tx *session.Tx) (session.Plan, error) {
			var t undo.Target
			var err error
			if redo {
				t, err = undo.FindRedo(e.Session, tx.Tip, p.Rel)
			} else {
				t, err = undo.FindTarget(e.Session, tx.Tip, p.Rel, e.UndoDepth)
			}
			if err != nil {
				return session.Plan{}, err
			}
			res.Target, res.Reversals = t, []undo.Reversal{{Target: t, Paths: res.Paths}}
			pl, err := undo.PlanSelective(tx, e.Session, res.Reversals, op, tool, force)
			res.Whole = pl.Whole
			return pl.Plan, err
		})
		if !redo && errors.Is(err, undo.ErrNothingToUndo) {
			err = e.othersHold(err, path, p.Rel)
		}
		return res, e.replaced(verb, []repo.Path{p}, err)
	}
	tip, err := e.Session.Tip()
	if err != nil {
		return res, err
	}
	t, paths, err := undo.Latest(e.Session, tip, redo, e.UndoDepth)
	if err != nil {
		return res, err
	}
	return e.revertSet(ctx, tip, []undo.Reversal{{Target: t, Paths: paths}}, force, redo, dry)
}

func (e *Engine) revertNamed(ctx context.Context, name string, force, redo, dry bool) (Reverted, error) {
	tip, err := e.Session.Tip()
	if err != nil {
		return Reverted{}, err
	}
	pick := undo.PickUndo
	if redo {
		pick = undo.PickRedo
	}
	r, err := pick(e.Session, tip, name)
	if err != nil {
		return Reverted{}, err
	}
	return e.revertSet(ctx, tip, []undo.Reversal{r}, force, redo, dry)
}

// revertSet applies the selective undo (or redo) of rs, chosen at tip.
func (e *Engine) revertSet(ctx context.Context, tip plumbing.Hash, rs []undo.Reversal, force, redo, dry bool) (Reverted, error) {
	op, tool, verb := revertNames(redo)
	res := Reverted{Reversals: rs}
	if len(rs) > 0 {
		res.Target = rs[0].Target
	}
	seen := map[string]bool{}
	for _, r := range rs {
		for _, p := range r.Paths {
			if !seen[p] {
				seen[p] = true
				res.Paths = append(res.Paths, p)
			}
		}
	}
	paths, err := e.historyPaths(res.Paths, verb)
	if err != nil {
		return res, err
	}
	res.Outcome, err = e.applyOrPreview(ctx, dry, paths, session.RecordOutside, func(tx *session.Tx) (session.Plan, error) {
		pl, err := undo.PlanSelectiveAt(tx, e.Session, tip, rs, op, tool, force)
		res.Whole = pl.Whole
		return pl.Plan, err
	})
	return res, e.replaced(verb, paths, err)
}

// UndoTurn takes back every change of turn (the edits and records
// carrying Edit-Turn: turn) still in effect, in one undo commit,
// selectively and forced as Undo (see undo.TurnReversals).
func (e *Engine) UndoTurn(ctx context.Context, turn string, force bool) (Reverted, error) {
	return e.undoTurn(ctx, turn, force, false)
}

func (e *Engine) undoTurn(ctx context.Context, turn string, force, dry bool) (Reverted, error) {
	tip, err := e.Session.Tip()
	if err != nil {
		return Reverted{}, err
	}
	rs, err := undo.TurnReversals(e.Session, tip, turn)
	if err != nil {
		return Reverted{}, err
	}
	res, err := e.revertSet(ctx, tip, rs, force, false, dry)
	res.Turn = turn
	return res, err
}

// applyOrPreview is apply, or in a dry run session.Session.Preview: the
// same reads, plan and refusals under a shared lock, nothing written.
func (e *Engine) applyOrPreview(ctx context.Context, dry bool, paths []repo.Path, policy session.OutsidePolicy, plan func(*session.Tx) (session.Plan, error)) (session.Outcome, error) {
	if dry {
		return e.Session.Preview(ctx, paths, policy, plan)
	}
	return e.apply(ctx, paths, policy, plan)
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
// *undo.PersonsWorkError, when that would remove the person's work (see
// undo.PlanRollback), and as Undo does for paths changed on disk; with
// force it proceeds, and Reverted.Discarded lists what it discarded (which
// stays in history). A recorded path that is no longer a regular file is
// refused naming what it now is (ErrReplaced); a symlink is never followed.
func (e *Engine) Rollback(ctx context.Context, to string, force bool) (Reverted, error) {
	return e.rollback(ctx, to, force, false)
}

func (e *Engine) rollback(ctx context.Context, to string, force, dry bool) (Reverted, error) {
	var res Reverted
	tip, err := e.Session.Tip()
	if err != nil {
		return res, err
	}
	if tip.IsZero() {
		return res, fmt.Errorf("%w: session %q has no edits to roll back", undo.ErrNothingToUndo, e.Session.Name)
	}
	var toHash plumbing.Hash
	if to != "" {
		c, kind, err := undo.ResolveTo(e.Session, tip, to)
		if err != nil {
			return res, err
		}
		toHash, res.Target, res.To = c.Hash, undo.Target{Commit: c.Hash, Meta: c.Meta}, kind
	}
	rb, err := undo.PrepareRollback(e.Session, tip, toHash)
	if err != nil {
		return res, err
	}
	res.Paths, res.Later = rb.Paths, rb.Later
	paths, err := e.historyPaths(res.Paths, "rollback")
	if err != nil {
		return res, err
	}
	res.Outcome, err = e.applyOrPreview(ctx, dry, paths, outsidePolicy(force), func(tx *session.Tx) (session.Plan, error) {
		pl, discards, err := undo.PlanRollback(tx, e.Session, rb, force, "git-edit rollback")
		if err == nil && len(discards) > 0 {
			// The subject says whose work it discards: another
			// session's edits are named as that session's.
			base := strings.TrimSuffix(pl.Subject, undo.DiscardSuffix(discards))
			e.whoseDiscards(discards)
			pl.Subject = base + undo.DiscardSuffix(discards)
		}
		res.Discarded = discards
		return pl, err
	})
	if err != nil {
		res.Discarded = nil
		e.whoseRefusal(err)
		return res, e.replaced("rollback", paths, err)
	}
	for i, d := range res.Discarded {
		if d.Kind == undo.DiscardDisk {
			res.Discarded[i].Commit = res.Sync
		}
	}
	e.whoseDiscards(res.Discarded)
	return res, nil
}

// historyPaths resolves paths recorded in history (relative to the
// worktree top) with the same confinement as arguments: inside the
// engine's root, without following a symlink at the final component
// (repo.ResolveRecorded). A session is the whole worktree's, so a path
// outside the root (--root) is refused, naming it (ErrOutsideRoot): the
// operation would write where it was told not to. A path that leads
// somewhere else because a directory on its way became a symlink is
// refused (ErrReplaced): the operation would act on another file.
func (e *Engine) historyPaths(rels []string, op string) ([]repo.Path, error) {
	paths := make([]repo.Path, len(rels))
	for i, rel := range rels {
		p, err := e.Repo.ResolveRecordedFrom(e.Root, e.Repo.Top, rel)
		if errors.Is(err, repo.ErrOutsideRoot) {
			return nil, worded(err, nil, "%v: %s would change %s, which is outside the root %s; nothing was changed. Run %s without --root (or with a root that holds %s)",
				repo.ErrPathRefused, op, rel, e.Root, op, rel)
		}
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
