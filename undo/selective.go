package undo

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/go-git/go-git/v5/plumbing"
)

// ErrConflict: an undo or redo would take back a change whose lines were
// changed again since; it refuses unless forced.
var ErrConflict = errors.New("conflicts with later changes to the same lines")

// Reversal is one commit an undo or redo takes back, and the paths of it
// to take back (those still in effect).
type Reversal struct {
	Target Target
	Paths  []string
}

// Planned is a selective undo's or redo's plan, and what it decided.
type Planned struct {
	session.Plan
	// Whole lists the paths that conflicted and, forced, were put back
	// whole, as they were just before the oldest reversal of them: what
	// changed them since is removed (see WhatElse).
	Whole []string
}

// Conflict is one path where taking back a commit's change meets later
// changes to the same lines.
type Conflict struct {
	Path   string
	Target plumbing.Hash
	// Lines are the conflicting regions, as lines of the file as it is
	// now; empty when the whole file conflicts (Reason says why).
	Lines  []LineRange
	Reason string
	// Oldest is the oldest commit the operation takes back from Path:
	// --force puts Path back whole as it was before it.
	Oldest plumbing.Hash
}

func (c Conflict) String() string {
	if len(c.Lines) == 0 {
		return fmt.Sprintf("%s (%s)", c.Path, c.Reason)
	}
	var rs []string
	for _, r := range c.Lines {
		rs = append(rs, r.String())
	}
	return fmt.Sprintf("%s %s", c.Path, strings.Join(rs, ", "))
}

// ConflictError refuses an undo or redo (Op) that conflicts; nothing was
// changed. It unwraps to ErrConflict.
type ConflictError struct {
	Op        string
	Conflicts []Conflict
}

func (e *ConflictError) Error() string {
	var b strings.Builder
	targets := map[plumbing.Hash]bool{}
	var names []string
	for _, c := range e.Conflicts {
		if !targets[c.Target] {
			targets[c.Target] = true
			names = append(names, short(c.Target))
		}
	}
	fmt.Fprintf(&b, "%s of %s %v: ", e.Op, strings.Join(names, ", "), ErrConflict)
	var parts []string
	for _, c := range e.Conflicts {
		parts = append(parts, c.String())
	}
	b.WriteString(strings.Join(parts, "; "))
	c := e.Conflicts[0]
	oldest := c.Oldest
	if oldest.IsZero() {
		oldest = c.Target
	}
	fmt.Fprintf(&b, ". Nothing was changed. %s takes back only the change of %s and keeps what changed since, but there the same lines were changed again (see them with `git diff %s -- %s`). Change those lines by hand, or run it again with --force to put %s back whole as it was before %s (what changed since is recorded first and stays in history).",
		upper(e.Op), short(c.Target), short(c.Target), c.Path, c.Path, short(oldest))
	return b.String()
}

func (e *ConflictError) Unwrap() error { return ErrConflict }

func upper(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// PlanSelective is the plan, under the session's lock, that takes back the
// change of each reversal to its paths, in one commit recorded as op
// (OpUndo, OpRedo) naming every target in Edit-Undoes; rs go newest first.
// Each path is a three-way merge, git's: base the path as the target left
// it, ours the path as it is now (on disk, which Apply records first as a
// sync commit when it differs from the session's record), theirs the path
// just before the target. So what changed the path since the target — the
// person, another session, this session's later commits — stays. Creations
// and deletions: taking back a creation removes the file only if it is as
// the target left it; taking back a deletion puts the file back when it is
// still missing. Where a merge conflicts (the same lines changed since),
// or a binary file changed since, it refuses with *ConflictError, unless
// force: then each such path goes back whole, as it was just before the
// oldest reversal of it, and Planned.Whole names it. The plan writes
// nothing: it can be computed, shown and dropped.
func PlanSelective(tx *session.Tx, s Store, rs []Reversal, op, tool string, force bool) (Planned, error) {
	if len(rs) == 0 {
		return Planned{}, fmt.Errorf("%w: no edit given", ErrNothingToUndo)
	}
	ctx := tx.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	files := tx.Reader()
	var order []string
	inOrder := map[string]bool{}
	oldest := map[string]plumbing.Hash{} // rs is newest first: the last seen
	now := map[string]repo.FileState{}
	whole := map[string]repo.FileState{} // each path as before its oldest reversal
	// leave and leaveWhole mark the paths whose result is the state
	// before a reversed commit that names them in Edit-Sparse-Before: the
	// sparse checkout had left them out of the worktree then, and the
	// disk gets them so again (session.Change.LeaveOut).
	leave, leaveWhole := map[string]bool{}, map[string]bool{}
	conflicted := map[string]bool{}
	var conflicts []Conflict
	for _, r := range rs {
		commit, _, err := s.ReadCommit(r.Target.Commit)
		if err != nil {
			return Planned{}, err
		}
		for _, p := range r.Paths {
			oldest[p] = r.Target.Commit
			if !inOrder[p] {
				// now[p] is not set for a path whose newest reversal
				// conflicted: order keeps each path once regardless.
				inOrder[p] = true
				order = append(order, p)
			}
			cur, seen := now[p]
			if !seen {
				f, ok := tx.Files[p]
				if !ok {
					return Planned{}, fmt.Errorf("history: %s was not read for this operation", p)
				}
				cur = f
				if tx.LeftOut(p) {
					// Absent on disk but, as git takes it, as recorded.
					if cur, err = files.FileAt(tx.Head(), p); err != nil {
						return Planned{}, err
					}
				}
			}
			before, err := files.FileAt(commit.Parent, p)
			if err != nil {
				return Planned{}, err
			}
			whole[p] = before
			leaveWhole[p] = commit.Meta.IsSparseBefore(p)
			if conflicted[p] {
				continue
			}
			after, err := files.FileAt(r.Target.Commit, p)
			if err != nil {
				return Planned{}, err
			}
			res, c, err := reverse(ctx, before, after, cur, keywords{
				collapse: func(b []byte) ([]byte, error) { return files.IdentCollapsed(p, b) },
				expand:   func(b []byte) ([]byte, error) { return files.IdentExpanded(p, b) },
			})
			if err != nil {
				return Planned{}, err
			}
			if c != nil {
				c.Path, c.Target = p, r.Target.Commit
				conflicts = append(conflicts, *c)
				conflicted[p] = true
				continue
			}
			now[p] = res
			leave[p] = commit.Meta.IsSparseBefore(p) && sameState(res, before)
		}
	}
	for i := range conflicts {
		conflicts[i].Oldest = oldest[conflicts[i].Path]
	}
	if len(conflicts) > 0 && !force {
		return Planned{}, &ConflictError{Op: opVerb(op), Conflicts: conflicts}
	}
	var pl Planned
	for _, p := range order {
		st, out := now[p], leave[p]
		if conflicted[p] {
			st, out = whole[p], leaveWhole[p]
			pl.Whole = append(pl.Whole, p)
		}
		pl.Changes = append(pl.Changes, session.Change{Path: p, Delete: !st.Exists, Content: st.Content, Mode: st.Mode, LeaveOut: out})
	}
	pl.Meta = session.Meta{Op: op, Tool: tool, Undoes: rs[0].Target.Commit}
	for _, r := range rs[1:] {
		pl.Meta.AlsoUndoes = append(pl.Meta.AlsoUndoes, r.Target.Commit)
	}
	if len(rs) == 1 {
		t := rs[0].Target
		pl.Subject = fmt.Sprintf("%s %s on %s (%s)", opVerb(op), what(t.Meta), quoteJoin(rs[0].Paths), t.Commit.String()[:12])
	} else {
		var ids []string
		for _, r := range rs {
			ids = append(ids, short(r.Target.Commit))
		}
		pl.Subject = fmt.Sprintf("%s %d commits on %s (%s)", opVerb(op), len(rs), listPaths(order), strings.Join(ids, ", "))
	}
	return pl, nil
}

func opVerb(op string) string {
	if op == session.OpRedo {
		return "redo"
	}
	return "undo"
}

// keywords collapse a path's ident expansions, which name each version's
// own blob and so differ between versions whose text is the same, and
// expand them again as `git checkout` would (see Reader.IdentCollapsed and
// Reader.IdentExpanded); both return their input where ident does not
// apply.
type keywords struct {
	collapse, expand func([]byte) ([]byte, error)
}

// reverse takes back the change from before to after out of now: the
// result, or the conflict (Path and Target left for the caller). The
// contents are compared and merged with ident expansions collapsed (kw),
// and a merge's result is expanded again.
func reverse(ctx context.Context, before, after, now repo.FileState, kw keywords) (repo.FileState, *Conflict, error) {
	norm := kw.collapse
	res := now
	var nb, na, nn repo.FileState
	for _, x := range []struct{ in, out *repo.FileState }{{&before, &nb}, {&after, &na}, {&now, &nn}} {
		*x.out = *x.in
		if x.in.Exists {
			c, err := norm(x.in.Content)
			if err != nil {
				return res, nil, err
			}
			x.out.Content = c
		}
	}
	switch {
	case sameContent(nn, na):
		res.Exists, res.Content = before.Exists, before.Content
	case sameContent(nn, nb):
		// the change is gone already: nothing to take back
	case !now.Exists:
		return res, &Conflict{Reason: "removed since"}, nil
	case !before.Exists:
		return res, &Conflict{Reason: "created by it and changed since; undo removes a file it created only when it is unchanged"}, nil
	case !after.Exists:
		return res, &Conflict{Reason: "removed by it and created again since"}, nil
	default:
		// With ident, the merge is of the collapsed forms; its result is
		// written expanded, as `git checkout` writes it.
		m, err := Merge(ctx, na.Content, nn.Content, nb.Content)
		if errors.Is(err, ErrBinaryMerge) {
			return res, &Conflict{Reason: "binary (or UTF-16) and changed since; git merges text only"}, nil
		}
		if err != nil {
			return res, nil, err
		}
		if len(m.Conflicts) > 0 {
			return res, &Conflict{Lines: m.Conflicts}, nil
		}
		if res.Content, err = kw.expand(m.Content); err != nil {
			return res, nil, err
		}
	}
	// The mode merges as git merges it: a change of it since wins.
	switch {
	case !res.Exists:
		res.Content, res.Mode = nil, 0
	case !now.Exists || now.Mode == after.Mode:
		res.Mode = before.Mode
	}
	res.Blob = plumbing.ZeroHash
	return res, nil, nil
}

// sameContent reports whether two states hold the same bytes (both
// missing counts), whatever their modes.
func sameContent(a, b repo.FileState) bool {
	if !a.Exists || !b.Exists {
		return a.Exists == b.Exists
	}
	return bytes.Equal(a.Content, b.Content)
}

// PickUndo resolves name (a commit id prefix, SESSION~N or tip~N, as
// Resolve reads it) to what an undo of it takes back: the commit, and its
// paths whose change is still in effect at tip. A sync commit (the
// person's bytes) and an undo (redo it instead) are refused with
// ErrNotRevertible; an edit undone already for every path with
// ErrNothingToUndo, naming the undo.
func PickUndo(s Store, tip plumbing.Hash, name string) (Reversal, error) {
	return pick(s, tip, name, false)
}

// PickRedo is PickUndo for a redo: name must be an undo still in effect.
func PickRedo(s Store, tip plumbing.Hash, name string) (Reversal, error) {
	return pick(s, tip, name, true)
}

func pick(s Store, tip plumbing.Hash, name string, redo bool) (Reversal, error) {
	c, err := Resolve(s, tip, name)
	if err != nil {
		return Reversal{}, err
	}
	id := short(c.Hash)
	switch {
	case redo && c.Meta.Op != session.OpUndo:
		return Reversal{}, fmt.Errorf("%w: %s is a commit of op %s, not an undo; redo re-applies what an undo took back. To take %s back, run `%s`", ErrNotRevertible, id, c.Meta.Op, id, session.Hint(s.SessionName(), "undo", id))
	case !redo && c.Meta.Op == session.OpSync:
		return Reversal{}, fmt.Errorf("%w: %s is a sync commit: it records changes made outside git-edit, and undo takes back the session's own commits only; to drop those changes, edit the file", ErrNotRevertible, id)
	case !redo && c.Meta.Op == session.OpUndo:
		return Reversal{}, fmt.Errorf("%w: %s is an undo; to re-apply what it took back, run `%s`", ErrNotRevertible, id, session.Hint(s.SessionName(), "redo", id))
	}
	r := Reversal{Target: Target{Commit: c.Hash, Meta: c.Meta}}
	var by plumbing.Hash
	for _, p := range c.Meta.Paths {
		ok, b, err := InEffect(s, tip, c.Hash, p)
		if err != nil {
			return Reversal{}, err
		}
		if ok {
			r.Paths = append(r.Paths, p)
		} else if by.IsZero() {
			by = b
		}
	}
	if len(r.Paths) == 0 {
		if redo {
			return r, fmt.Errorf("%w: %s was redone already (by %s); undo that with `%s`", ErrNothingToRedo, id, short(by), session.Hint(s.SessionName(), "undo", short(by)))
		}
		return r, fmt.Errorf("%w: %s was undone already (by %s); re-apply it with `%s`", ErrNothingToUndo, id, short(by), session.Hint(s.SessionName(), "redo", short(by)))
	}
	return r, nil
}

// PlanSelectiveAt is PlanSelective for reversals chosen at tip: it
// refuses, with ErrMoved, when the session moved since (another process
// recorded a commit before the lock was taken).
func PlanSelectiveAt(tx *session.Tx, s Store, tip plumbing.Hash, rs []Reversal, op, tool string, force bool) (Planned, error) {
	if tx.Tip != tip {
		return Planned{}, moved(s)
	}
	return PlanSelective(tx, s, rs, op, tool, force)
}
