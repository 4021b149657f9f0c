package ops

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/git-edit/git-edit/diffview"
	"github.com/git-edit/git-edit/ops/dialect"
	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/git-edit/git-edit/undo"
	"github.com/go-git/go-git/v5/plumbing"
)

// Reject takes hunks of the session's net change (the diff `git edit diff`
// shows, hunks numbered as it numbers them) back out of the files: the
// hunks are reverse-applied to the tip's content, and that is merged into
// the file on disk as a selective undo merges (undo.TakeBack), so what the
// person changed elsewhere in the file stays. It is one commit, Edit-Op:
// reject, with an Edit-Rejects trailer per hunk; undo takes it back.

var (
	// ErrHunkRange: a hunk number is not one of the path's hunks.
	ErrHunkRange = errors.New("no such hunk")
	// ErrHunkChanged: a hunk to reject was changed on disk since the
	// session's edit, so taking it back would overwrite that.
	ErrHunkChanged = errors.New("cannot reject")
	// ErrNotReviewable: the path has no net change to review hunk by hunk
	// (unchanged, created or deleted by the session, or not UTF-8 text).
	ErrNotReviewable = errors.New("nothing to reject")
)

// HunkPick names hunks of one path's net change by number (1-based, as
// `git edit diff` prints them).
type HunkPick struct {
	Path  string
	Hunks []int
}

// ReviewFile is one path of the session's net change, hunk by hunk.
type ReviewFile struct {
	Path string
	// After is the path at the tip the hunks were made at.
	After repo.FileState
	Hunks []diffview.Hunk
}

// ChosenHunk is a hunk to reject: one of a ReviewFile's Hunks or a part of
// one (diffview.Split), and how to name it ("hunk 2", "hunk 2 part 1").
type ChosenHunk struct {
	Path  string
	Label string
	Hunk  diffview.Hunk
}

// Rejection is what a reject did (or, DryRun, would do).
type Rejection struct {
	Reverted
	// Rejected are the hunks taken back, in the order of the trailers.
	Rejected []ChosenHunk
	// Session is the session's name.
	Session string
}

// ReviewHunks is the session's net change as hunks, path by path as
// NetChanges sorts them (of paths, if given), and the tip they were made
// at, for RejectChosen. A path that cannot be reviewed hunk by hunk
// (created or deleted by the session, or not UTF-8 text) is refused with
// ErrNotReviewable when named in paths, and left out otherwise.
func (e *Engine) ReviewHunks(paths []string) (plumbing.Hash, []ReviewFile, error) {
	tip, err := e.Session.Tip()
	if err != nil {
		return tip, nil, err
	}
	changes, err := e.NetChanges(paths)
	if err != nil {
		return tip, nil, err
	}
	var out []ReviewFile
	for _, c := range changes {
		rf, err := reviewFile(e.Session.Name, c)
		if err != nil {
			if len(paths) > 0 {
				return tip, nil, err
			}
			continue
		}
		out = append(out, rf)
	}
	return tip, out, nil
}

// reviewFile is c hunk by hunk, numbered as FileDiff.Numbered prints it.
func reviewFile(sess string, c FileDiff) (ReviewFile, error) {
	switch {
	case !c.Before.Exists:
		return ReviewFile{}, fmt.Errorf("%w: session %s created %s, so its change is the whole file; nothing was changed. To take it back, run `%s`",
			ErrNotReviewable, sess, c.Path, session.Hint(sess, "undo", c.Path))
	case !c.After.Exists:
		return ReviewFile{}, fmt.Errorf("%w: session %s deleted %s, so there are no lines to keep or reject; nothing was changed. To bring it back, run `%s`",
			ErrNotReviewable, sess, c.Path, session.Hint(sess, "undo", c.Path))
	case !bytes.Equal(shownText(c.Before.Content), c.Before.Content) || !bytes.Equal(shownText(c.After.Content), c.After.Content):
		return ReviewFile{}, fmt.Errorf("%w: %s is not UTF-8 text (its diff is shown decoded), and reject takes hunks out of UTF-8 text only; nothing was changed. Take back its edits with `%s`",
			ErrNotReviewable, c.Path, session.Hint(sess, "undo", c.Path))
	}
	return ReviewFile{Path: c.Path, After: c.After, Hunks: diffview.FileHunks(c.Before.Content, c.After.Content, dialect.SnippetContext)}, nil
}

// Reject takes the hunks picks name out of their paths, in one reject
// commit (dry: nothing written or recorded, the result says what would
// change). Hunks are numbered in the net change at the session's tip when
// the lock is held. A number out of range is refused with ErrHunkRange
// (saying how many there are), a hunk changed on disk since with
// ErrHunkChanged naming it; either way nothing is changed. A file changed
// on disk elsewhere is recorded first as a sync commit, and kept.
func (e *Engine) Reject(ctx context.Context, picks []HunkPick, dry bool) (Rejection, error) {
	return e.reject(ctx, picks, plumbing.ZeroHash, nil, dry, "git-edit reject")
}

// RejectChosen is Reject for hunks from ReviewHunks at tip (or parts of
// them): it refuses with undo.ErrMoved when the session moved since.
func (e *Engine) RejectChosen(ctx context.Context, tip plumbing.Hash, chosen []ChosenHunk, dry bool) (Rejection, error) {
	return e.reject(ctx, nil, tip, chosen, dry, "git-edit review")
}

func (e *Engine) reject(ctx context.Context, picks []HunkPick, tip plumbing.Hash, chosen []ChosenHunk, dry bool, tool string) (res Rejection, err error) {
	ctx, cancel := e.bounded(ctx)
	defer cancel()
	defer func() { err = e.timedOut("reject", err) }()
	res.DryRun, res.Session = dry, e.Session.Name
	var names []string
	for _, p := range picks {
		names = append(names, p.Path)
	}
	for _, c := range chosen {
		names = append(names, c.Path)
	}
	var paths []repo.Path
	rels := map[string]string{} // argument -> path in the worktree
	for _, n := range names {
		if _, ok := rels[n]; ok {
			continue
		}
		pe, p, err := e.locateRecorded(n)
		if err != nil {
			return res, err
		}
		if pe != e {
			pe.Close()
			return res, fmt.Errorf("%w: %s is in a nested repository; nothing was changed. Run reject in that repository", repo.ErrPathRefused, n)
		}
		rels[n] = p.Rel
		if !slices.Contains(res.Paths, p.Rel) {
			res.Paths = append(res.Paths, p.Rel)
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		return res, fmt.Errorf("%w: no hunk given; nothing was changed. Name hunks as `git edit diff` numbers them", ErrHunkRange)
	}
	res.Outcome, err = e.applyOrPreview(ctx, dry, paths, session.RecordOutside, func(tx *session.Tx) (session.Plan, error) {
		if chosen != nil && tx.Tip != tip {
			return session.Plan{}, fmt.Errorf("%w: session %s recorded another change since the review began; nothing was changed. Review again", undo.ErrMoved, e.Session.Name)
		}
		files := map[string]ReviewFile{}
		for _, rel := range res.Paths {
			rf, err := e.reviewFileAt(tx.Tip, rel)
			if err != nil {
				return session.Plan{}, err
			}
			files[rel] = rf
		}
		res.Rejected = nil
		for _, p := range picks {
			rf := files[rels[p.Path]]
			ns := slices.Clone(p.Hunks)
			slices.Sort(ns)
			for _, n := range slices.Compact(ns) {
				if n < 1 || n > len(rf.Hunks) {
					return session.Plan{}, fmt.Errorf("%w: %s has %s in session %s's change, so there is no hunk %d; nothing was changed. See them numbered with `%s`",
						ErrHunkRange, rf.Path, plural(len(rf.Hunks), "hunk"), e.Session.Name, n, session.Hint(e.Session.Name, "diff", rf.Path))
				}
				res.Rejected = append(res.Rejected, ChosenHunk{Path: rf.Path, Label: fmt.Sprintf("hunk %d", n), Hunk: rf.Hunks[n-1]})
			}
		}
		for _, c := range chosen {
			c.Path = rels[c.Path]
			res.Rejected = append(res.Rejected, c)
		}
		return e.planReject(tx, files, res.Rejected, tool)
	})
	if err != nil {
		res.Rejected = nil
	}
	return res, e.replaced("reject", paths, err)
}

// reviewFileAt is the net change of rel at tip, hunk by hunk.
func (e *Engine) reviewFileAt(tip plumbing.Hash, rel string) (ReviewFile, error) {
	touched, first, err := undo.Touched(e.Session, tip)
	if err != nil {
		return ReviewFile{}, err
	}
	if !slices.Contains(touched, rel) {
		return ReviewFile{}, fmt.Errorf("%w: session %s has not changed %s; nothing was changed. See what it changed with `%s`",
			ErrNotReviewable, e.Session.Name, rel, session.Hint(e.Session.Name, "diff"))
	}
	before, err := undo.BeforeSession(e.Repo, first[rel], rel)
	if err != nil {
		return ReviewFile{}, err
	}
	after, err := e.Repo.FileAt(tip, rel)
	if err != nil {
		return ReviewFile{}, err
	}
	if before.Exists == after.Exists && bytes.Equal(before.Content, after.Content) {
		return ReviewFile{}, fmt.Errorf("%w: session %s changed %s and changed it back, so there is nothing to reject; nothing was changed", ErrNotReviewable, e.Session.Name, rel)
	}
	return reviewFile(e.Session.Name, FileDiff{Path: rel, Before: before, After: after})
}

// planReject is the reject commit's plan: per path, the chosen hunks
// reversed out of the tip's content and merged into the disk's.
func (e *Engine) planReject(tx *session.Tx, files map[string]ReviewFile, chosen []ChosenHunk, tool string) (session.Plan, error) {
	pl := session.Plan{Meta: session.Meta{Op: session.OpReject, Tool: tool}}
	byPath := map[string][]ChosenHunk{}
	var order []string
	for _, c := range chosen {
		if _, ok := byPath[c.Path]; !ok {
			order = append(order, c.Path)
		}
		byPath[c.Path] = append(byPath[c.Path], c)
		pl.Meta.Rejects = append(pl.Meta.Rejects, session.Rejected{Path: c.Path, Hunk: c.Hunk.Header()})
	}
	var conflicts []string
	for _, p := range order {
		rf, cs := files[p], byPath[p]
		now, err := e.diskState(tx, p)
		if err != nil {
			return pl, err
		}
		res, conflict, err := takeBackHunks(tx, rf, cs, now)
		if err != nil {
			return pl, err
		}
		if conflict == nil {
			pl.Changes = append(pl.Changes, session.Change{Path: p, Content: res.Content, Mode: res.Mode, Delete: !res.Exists})
			continue
		}
		// Name the hunks that conflict: each alone.
		var named []string
		for _, c := range cs {
			_, alone, err := takeBackHunks(tx, rf, []ChosenHunk{c}, now)
			if err != nil {
				return pl, err
			}
			if alone != nil {
				named = append(named, fmt.Sprintf("%s of %s (%s)%s", c.Label, QuotePath(p), c.Hunk.Header(), where(alone)))
			}
		}
		if len(named) == 0 { // only together: name them all
			for _, c := range cs {
				named = append(named, fmt.Sprintf("%s of %s (%s)", c.Label, QuotePath(p), c.Hunk.Header()))
			}
			named[len(named)-1] += where(conflict)
		}
		conflicts = append(conflicts, named...)
	}
	if len(conflicts) > 0 {
		verb := "was"
		if len(conflicts) > 1 {
			verb = "were"
		}
		return pl, fmt.Errorf("%w: %s %s changed since the session's edit, and rejecting would overwrite that; nothing was changed. Keep it, or edit those lines by hand; the other hunks can be rejected alone (see them numbered with `%s`)",
			ErrHunkChanged, strings.Join(conflicts, ", "), verb, session.Hint(e.Session.Name, "diff"))
	}
	var counts []string
	for _, p := range order {
		counts = append(counts, fmt.Sprintf("%s of %s", plural(len(byPath[p]), "hunk"), p))
	}
	pl.Subject = "reject " + strings.Join(counts, ", ")
	return pl, nil
}

// where says which lines of the file on disk a conflict is at.
func where(c *undo.Conflict) string {
	if c == nil || len(c.Lines) == 0 {
		return ""
	}
	var rs []string
	for _, r := range c.Lines {
		rs = append(rs, r.String())
	}
	return " (" + strings.Join(rs, ", ") + " of the file on disk)"
}

// diskState is p on disk as tx read it (as recorded, where a sparse
// checkout leaves it out).
func (e *Engine) diskState(tx *session.Tx, p string) (repo.FileState, error) {
	if tx.LeftOut(p) {
		return tx.Reader().FileAt(tx.Head(), p)
	}
	f, ok := tx.Files[p]
	if !ok {
		return f, fmt.Errorf("reject: %s was not read for this operation", p)
	}
	return f, nil
}

// takeBackHunks reverses cs out of rf's tip content and merges that into
// now; a file removed since is a conflict.
func takeBackHunks(tx *session.Tx, rf ReviewFile, cs []ChosenHunk, now repo.FileState) (repo.FileState, *undo.Conflict, error) {
	hs := make([]diffview.Hunk, len(cs))
	for i, c := range cs {
		hs[i] = c.Hunk
	}
	reverted, err := diffview.Revert(rf.After.Content, hs)
	if err != nil {
		return now, nil, fmt.Errorf("reject %s: %w", rf.Path, err)
	}
	before := rf.After
	before.Content, before.Blob = reverted, plumbing.ZeroHash
	return undo.TakeBack(tx, rf.Path, before, rf.After, now)
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// Report says what the reject did (or would do), hunk by hunk, then path
// by path, with commit ids of idLen hex digits.
func (r Rejection) Report(idLen int) string {
	var b strings.Builder
	switch {
	case r.DryRun:
		fmt.Fprintf(&b, "Dry run: nothing was written or recorded. Would reject %s:\n", plural(len(r.Rejected), "hunk"))
	case r.Commit.IsZero():
		return "Nothing to reject: every file is already as it would become.\n"
	default:
		fmt.Fprintf(&b, "Rejected %s", plural(len(r.Rejected), "hunk"))
		if !r.Sync.IsZero() {
			fmt.Fprintf(&b, "; the changes on disk were recorded first as %s", r.Sync.String()[:idLen])
		}
		fmt.Fprintf(&b, ", recorded as %s:\n", r.Commit.String()[:idLen])
	}
	for _, c := range r.Rejected {
		fmt.Fprintf(&b, "  %s %s %s\n", QuotePath(c.Path), c.Label, c.Hunk.Header())
	}
	for _, pc := range r.Changes() {
		switch pc.How {
		case "changed":
			fmt.Fprintf(&b, "  changed    %s (+%d -%d)\n", QuotePath(pc.Path), pc.Added, pc.Removed)
		default:
			fmt.Fprintf(&b, "  %-9s  %s\n", pc.How, QuotePath(pc.Path))
		}
	}
	if !r.DryRun {
		fmt.Fprintf(&b, "To take the reject back, run `%s`.\n", session.Hint(r.Session, "undo", r.Commit.String()[:idLen]))
	}
	return b.String()
}
