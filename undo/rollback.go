package undo

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/git-edit/git-edit/diffview"
	"slices"
	"strings"
	"time"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/go-git/go-git/v5/plumbing"
)

// ErrPersonsWork is what a rollback without force refuses with (inside a
// *PersonsWorkError) when it would remove bytes that came from the person,
// not from the session's agent.
var ErrPersonsWork = errors.New("rollback would discard your work")

// DiscardKind says why bytes a rollback would remove are the person's.
type DiscardKind string

const (
	// DiscardSync: a sync commit in the range the rollback reverses
	// recorded the person's change to the path.
	DiscardSync DiscardKind = "sync"
	// DiscardHead: HEAD's version of the path differs from the session's
	// base (the person committed or rebased since the session started), and
	// the rollback would write something else: it would revert that
	// committed change in the worktree.
	DiscardHead DiscardKind = "head"
	// DiscardDisk: the path differs on disk now from the session's record;
	// a forced rollback records it as a sync commit first, then overwrites
	// it.
	DiscardDisk DiscardKind = "disk"
)

// Discard is one piece of the person's work a rollback removes from the
// worktree (it stays in history).
type Discard struct {
	Path string
	Kind DiscardKind
	// Commit is the sync commit (DiscardSync, and DiscardDisk once Apply
	// recorded it) or HEAD (DiscardHead).
	Commit plumbing.Hash
	// Time is the sync commit's time (DiscardSync).
	Time time.Time
	// Base is the commit the session started from (DiscardHead).
	Base plumbing.Hash
	// Sessions name the other sessions whose edits the sync commit
	// (DiscardSync, DiscardDisk once recorded) holds, as "b (1234567)":
	// another session's edit reaches this one only as a sync commit, like
	// a change by hand. Empty: the change is the person's (or unknown).
	// The history package leaves it empty: which sessions exist is the
	// repository's question (engine fills it in).
	Sessions []string
	// ByHand, with Sessions, says the sync commit also holds changes no
	// session made (by hand or by another tool).
	ByHand bool
}

// whose says whose change the discarded bytes are.
func (d Discard) whose() string {
	const person = "changes you made outside git-edit"
	if len(d.Sessions) == 0 {
		return person
	}
	s := "edits of session " + d.Sessions[0]
	if len(d.Sessions) > 1 {
		s = "edits of sessions " + strings.Join(d.Sessions, ", ")
	}
	if d.ByHand {
		s += " and " + person
	}
	return s
}

// Fact says, in one line, what the discarded work is and where history
// keeps it (for the report of a forced rollback).
func (d Discard) Fact() string {
	switch d.Kind {
	case DiscardSync:
		return fmt.Sprintf("%s: %s, recorded in sync commit %s at %s",
			diffview.QuotePath(d.Path), d.whose(), short(d.Commit), d.Time.Format("2006-01-02 15:04:05 -0700"))
	case DiscardHead:
		return fmt.Sprintf("%s: HEAD's version, changed since the session started from %s (HEAD is now %s; see `git diff %s %s -- %s`)",
			diffview.QuotePath(d.Path), short(d.Base), short(d.Commit), short(d.Base), short(d.Commit), diffview.QuotePath(d.Path))
	default:
		s := fmt.Sprintf("%s: its bytes on disk, changed outside git-edit", diffview.QuotePath(d.Path))
		if len(d.Sessions) > 0 {
			s = fmt.Sprintf("%s: its bytes on disk, %s", diffview.QuotePath(d.Path), d.whose())
		}
		if !d.Commit.IsZero() {
			s += fmt.Sprintf(" (recorded first as sync commit %s)", short(d.Commit))
		}
		return s
	}
}

// String says, in one line, what a rollback would discard and why it is
// the person's (for a refusal).
func (d Discard) String() string {
	switch d.Kind {
	case DiscardSync:
		return fmt.Sprintf("%s: holds %s, recorded in sync commit %s at %s; rollback would remove them",
			diffview.QuotePath(d.Path), d.whose(), short(d.Commit), d.Time.Format("2006-01-02 15:04:05 -0700"))
	case DiscardHead:
		return fmt.Sprintf("%s: HEAD's version changed since the session started from %s (HEAD is now %s; see `git diff %s %s -- %s`); rollback would revert it in the worktree",
			diffview.QuotePath(d.Path), short(d.Base), short(d.Commit), short(d.Base), short(d.Commit), diffview.QuotePath(d.Path))
	default:
		return fmt.Sprintf("%s: changed on disk outside git-edit; rollback would overwrite it", diffview.QuotePath(d.Path))
	}
}

// PersonsWorkError refuses a rollback without force that would discard the
// person's work; it lists every piece and unwraps to ErrPersonsWork.
type PersonsWorkError struct {
	Session  string
	Discards []Discard
}

func (e *PersonsWorkError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%v, and without --force it never does; nothing was changed:\n", ErrPersonsWork)
	for _, d := range e.Discards {
		fmt.Fprintf(&b, "  %s\n", d)
	}
	fmt.Fprintf(&b, "Run it again with --force to discard them anyway (they stay in history: `git log -p %s`), or undo single edits of the agent (`%s`), which never overwrites your changes.",
		session.RefName(e.Session), session.Hint(e.Session, "undo", "PATH"))
	return b.String()
}

func (e *PersonsWorkError) Unwrap() error { return ErrPersonsWork }

// Rollback is what a rollback returns to, worked out from the tip it read.
// It names, for each path, the commit whose record of it the rollback
// restores; the bytes are read under the lock, through the transaction's
// reader (see Targets), so that git's conversions of them are bounded by
// the operation's context and read what decides them once.
type Rollback struct {
	// Tip is the session's tip the targets were computed from; To the
	// commit returned to (zero: the start of the session).
	Tip, To plumbing.Hash
	// Base is the commit the session started from: its first commit's
	// parent (zero on an unborn branch).
	Base plumbing.Hash
	// Paths are every path the session touched, in the order of their
	// first touch.
	Paths []string
	// from holds, for each of Paths, the commit that records the state it
	// returns to (zero: it did not exist).
	from map[string]plumbing.Hash
	// Later are the session's own commits after To (edits, undos, redos,
	// rollbacks; not its sync commits), newest first: the rollback
	// reverses them.
	Later []Commit
	// after holds the session's commits after To (all of them for the
	// start): the range the rollback reverses.
	after map[plumbing.Hash]bool
	// leaveOut marks the paths returned to their state before the
	// session that the sparse checkout then left out of the worktree
	// (their first touch names them in Edit-Sparse-Before): the disk gets
	// them so again (session.Change.LeaveOut).
	leaveOut map[string]bool
}

// PrepareRollback works out, from tip, where every path the session
// touched returns to: its state right after commit to (to zero: before the
// session, see BeforeSession). Paths first touched after to go back to
// their state before the session. It reads commits only, no file content.
func PrepareRollback(s Store, tip, to plumbing.Hash) (Rollback, error) {
	rb := Rollback{Tip: tip, To: to, from: map[string]plumbing.Hash{}, after: map[plumbing.Hash]bool{}}
	// The base is the first commit's parent (the history index numbers
	// the commits), and only the commits after to are read: a rollback
	// to a recent point costs what it reverses, not the session.
	if n, err := s.Len(tip); err != nil {
		return rb, err
	} else if n > 0 {
		first, err := s.CommitAt(tip, 0)
		if err != nil {
			return rb, err
		}
		rb.Base = first.Parent
	}
	for h := tip; !h.IsZero() && h != to; {
		c, ok, err := s.ReadCommit(h)
		if err != nil {
			return rb, err
		}
		if !ok {
			break
		}
		rb.after[c.Hash] = true
		if c.Meta.Op != session.OpSync {
			rb.Later = append(rb.Later, c)
		}
		h = c.Parent
	}
	paths, first, err := Touched(s, tip)
	if err != nil {
		return rb, err
	}
	var reached map[string]plumbing.Hash
	if !to.IsZero() {
		if reached, err = s.LastTouches(to, paths); err != nil {
			return rb, err
		}
	}
	rb.leaveOut = map[string]bool{}
	for _, p := range paths {
		if _, ok := reached[p]; ok {
			rb.from[p] = to
		} else {
			rb.from[p] = beforeSession(first[p])
			rb.leaveOut[p] = first[p].Meta.IsSparseBefore(p)
		}
	}
	rb.Paths = paths
	return rb, nil
}

// Targets reads, through files, the state each of rb.Paths returns to, in
// the order of Paths.
func (rb Rollback) Targets(files Files) ([]repo.FileState, error) {
	out := make([]repo.FileState, 0, len(rb.Paths))
	for _, p := range rb.Paths {
		f, err := files.FileAt(rb.from[p], p)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	return out, nil
}

// PlanRollback is the plan, under the lock, that puts every path back to
// its target (see PrepareRollback; read through tx.Reader()), recorded as a rollback commit naming
// rb.To (or "start"), and what of the person's work it discards: for each
// path the rollback changes on disk, the sync commits in the range it
// reverses (not those a later rollback already reverted), HEAD's version if
// the person committed a change to the path since the session's base, and
// the disk bytes of a path changed outside git-edit (tx.Outside; only under
// force do such paths reach the planner). Without force, any discard
// refuses with *PersonsWorkError. It refuses with ErrMoved when the session
// moved since rb.Tip.
func PlanRollback(tx *session.Tx, s Store, rb Rollback, force bool, tool string) (session.Plan, []Discard, error) {
	if tx.Tip != rb.Tip {
		return session.Plan{}, nil, moved(s)
	}
	outside := map[string]bool{}
	for _, p := range tx.Outside {
		outside[p] = true
	}
	files := tx.Reader()
	targets, err := rb.Targets(files)
	if err != nil {
		return session.Plan{}, nil, err
	}
	var changes []session.Change
	var changing []repo.FileState
	for _, f := range targets {
		changes = append(changes, session.Change{Path: f.Path, Delete: !f.Exists, Content: f.Content, Mode: f.Mode, LeaveOut: rb.leaveOut[f.Path]})
		if !sameState(tx.Files[f.Path], f) {
			changing = append(changing, f) // the others stay as they are
		}
	}
	var paths []string
	for _, f := range changing {
		paths = append(paths, f.Path)
	}
	last, err := s.LastTouches(rb.Tip, paths)
	if err != nil {
		return session.Plan{}, nil, err
	}
	var discards []Discard
	for _, f := range changing {
		if outside[f.Path] {
			discards = append(discards, Discard{Path: f.Path, Kind: DiscardDisk})
		}
		syncs, err := rb.syncsReversed(s, files, f.Path, last[f.Path])
		if err != nil {
			return session.Plan{}, nil, err
		}
		discards = append(discards, syncs...)
		if tx.Base != rb.Base {
			head, err := files.FileAt(tx.Base, f.Path)
			if err != nil {
				return session.Plan{}, nil, err
			}
			base, err := files.FileAt(rb.Base, f.Path)
			if err != nil {
				return session.Plan{}, nil, err
			}
			if !sameState(head, base) && !sameState(head, f) {
				discards = append(discards, Discard{Path: f.Path, Kind: DiscardHead, Commit: tx.Base, Base: rb.Base})
			}
		}
	}
	if len(discards) > 0 && !force {
		return session.Plan{}, nil, &PersonsWorkError{Session: s.SessionName(), Discards: discards}
	}
	dest, subject := "start", "rollback to the start of session "+s.SessionName()
	if !rb.To.IsZero() {
		dest, subject = rb.To.String(), "rollback to "+rb.To.String()[:12]
	}
	subject += DiscardSuffix(discards)
	return session.Plan{Changes: changes, Subject: subject, Meta: session.Meta{Op: session.OpRollback, Tool: tool, RollbackTo: dest}}, discards, nil
}

// DiscardSuffix is what a forced rollback's subject says it discarded,
// and whose: ", discarding the person's changes to a.txt" for changes no
// session made (or not known to be a session's), ", discarding edits of
// session b to x.c" for another session's edits (Discard.Sessions, filled
// in by the engine), both where both were discarded; "" for none.
func DiscardSuffix(ds []Discard) string {
	var person, names []string
	bySession := map[string][]string{}
	for _, d := range ds {
		if len(d.Sessions) == 0 || d.ByHand {
			if !slices.Contains(person, d.Path) {
				person = append(person, d.Path)
			}
			continue
		}
		for _, n := range d.Sessions {
			n, _, _ = strings.Cut(n, " (") // "b (1234567)": the session's name
			if _, seen := bySession[n]; !seen {
				names = append(names, n)
			}
			if !slices.Contains(bySession[n], d.Path) {
				bySession[n] = append(bySession[n], d.Path)
			}
		}
	}
	var parts []string
	if len(person) > 0 {
		parts = append(parts, "the person's changes to "+listPaths(person))
	}
	for _, n := range names {
		parts = append(parts, "edits of session "+n+" to "+listPaths(bySession[n]))
	}
	if len(parts) == 0 {
		return ""
	}
	return ", discarding " + strings.Join(parts, "; ")
}

// syncsReversed lists the sync commits of path in the range the rollback
// reverses whose bytes are still in effect, newest first, following path's
// Edit-Prev chain from last (the newest commit that touched it). A sync
// that first touched the path is not one: its bytes are the state before
// the session, which the rollback restores.
//
// What hides a sync's bytes is decided per commit, as FindTarget decides
// what an undo takes back: an undo or redo in effect takes back only the
// commits it names (Edit-Undoes), so the walk goes on through everything
// between, the person's syncs included: a selective undo kept them. Only
// when its result is the path exactly as before the oldest commit it took
// back (a forced undo that put the path back whole, or nothing changed
// between) did it remove what lay between, and the walk goes on from
// there. A rollback in effect reverted everything between itself and the
// commit it returned to, so the walk continues from there (and ends at a
// rollback to the start); a rollback an undo took back hides nothing.
func (rb Rollback) syncsReversed(s Store, files Files, path string, last plumbing.Hash) ([]Discard, error) {
	var out []Discard
	reverted := map[plumbing.Hash]bool{}
	for c := last; !c.IsZero() && rb.after[c]; {
		commit, _, err := s.ReadCommit(c)
		if err != nil {
			return nil, err
		}
		meta := commit.Meta
		next := meta.Prev[path]
		switch {
		case reverted[c]:
			// Taken back by a later undo or redo in effect: it hides
			// nothing, and what it named is in effect again.
		case meta.Op == session.OpSync:
			if next.IsZero() {
				return out, nil
			}
			out = append(out, Discard{Path: path, Kind: DiscardSync, Commit: c, Time: commit.Time})
		case meta.Op == session.OpUndo || meta.Op == session.OpRedo:
			markReverted(reverted, meta)
			back, err := wholeBefore(s, files, c, meta, path)
			if err != nil {
				return nil, err
			}
			if back != nil {
				next = *back
			}
		case meta.Op == session.OpRollback:
			if meta.RollbackTo == "start" {
				return out, nil
			}
			if plumbing.IsHash(meta.RollbackTo) {
				// What that rollback returned path to: its state after
				// the commit named, or before the session if it had not
				// been touched by then.
				reached, err := s.LastTouches(plumbing.NewHash(meta.RollbackTo), []string{path})
				if err != nil {
					return nil, err
				}
				next = reached[path]
			}
		}
		c = next
	}
	return out, nil
}

// wholeBefore reports whether undo or redo u (meta its trailers) left path
// exactly as it was just before one of the commits it took back, the
// oldest such first: then nothing recorded between that commit and u is in
// the file any more, and the result is where path's chain goes on (that
// commit's Edit-Prev for path). nil: u kept what lay between.
func wholeBefore(s Store, files Files, u plumbing.Hash, meta session.Meta, path string) (*plumbing.Hash, error) {
	targets := meta.Reverts()
	var now *repo.FileState
	// Reverts lists the newest first (a multi-commit undo names its
	// reversals newest first), so the oldest is tried first.
	for i := len(targets) - 1; i >= 0; i-- {
		t, _, err := s.ReadCommit(targets[i])
		if err != nil {
			return nil, err
		}
		if !touches(t.Meta, path) {
			continue
		}
		if now == nil {
			f, err := files.FileAt(u, path)
			if err != nil {
				return nil, err
			}
			now = &f
		}
		before, err := files.FileAt(t.Parent, path)
		if err != nil {
			return nil, err
		}
		if sameState(*now, before) {
			prev := t.Meta.Prev[path]
			return &prev, nil
		}
	}
	return nil, nil
}

// touches reports whether a commit with meta changed path.
func touches(meta session.Meta, path string) bool {
	for _, p := range meta.Paths {
		if p == path {
			return true
		}
	}
	return false
}

// sameState reports whether two states of a path hold the same file.
func sameState(a, b repo.FileState) bool {
	if !a.Exists || !b.Exists {
		return a.Exists == b.Exists
	}
	return a.Mode == b.Mode && bytes.Equal(a.Content, b.Content)
}

// listPaths names paths for a subject line, shortening long lists.
func listPaths(paths []string) string {
	if len(paths) <= 3 {
		return quoteJoin(paths)
	}
	return fmt.Sprintf("%s and %d more", quoteJoin(paths[:3]), len(paths)-3)
}

// quoteJoin joins paths with ", ", each quoted as git quotes a path, so
// that no ESC or CR of a file name reaches a subject.
func quoteJoin(paths []string) string {
	quoted := make([]string, len(paths))
	for i, p := range paths {
		quoted[i] = diffview.QuotePath(p)
	}
	return strings.Join(quoted, ", ")
}

func short(h plumbing.Hash) string { return h.String()[:7] }
