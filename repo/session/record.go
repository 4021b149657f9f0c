package session

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/git-edit/git-edit/repo"
	"github.com/go-git/go-git/v5/plumbing"
)

// Recorded is what Record did.
type Recorded struct {
	// Commit is the record commit; zero when every path was on disk as the
	// session records it (then nothing was recorded, unless Sync).
	Commit Commit
	// Syncs are the sync commits recorded first, oldest first: HEAD's
	// version of a path the session never touched that HEAD changed (the
	// person committed or rebased), then the version another live session
	// left of a path on which its change is in effect. They record those
	// as not this session's, so that Commit holds only what changed on
	// disk since; empty when there was none.
	Syncs []Commit
	// Paths are the paths the commit records, in the order given.
	Paths []string
	// Before and After hold each recorded path as the session recorded it
	// before (the tip, else HEAD; Content nil: not read) and as it is on
	// disk now.
	Before map[string]repo.Entry
	After  map[string]repo.FileState
}

// Record records, as one commit of Edit-Op: record, every one of paths
// whose disk state differs from the session's record of it (the tip, or
// HEAD before the session's first commit): the changes a shell command or
// another tool made, which the session takes as its own, so that undo
// reverts them like an edit. Paths are compared exactly as Apply compares
// them (conversions included): a file as `git checkout` wrote it is
// unchanged. It writes no file, so a read-only file is recorded as it is.
// subject and body make the commit message (subject "" names the paths).
//
// op is OpRecord, or OpSync to record the disk as the person's before an
// agent's shell command runs (undo then stops at it, as at any sync
// commit, instead of reverting the person's changes). Other ops are an
// internal error.
//
// A path that cannot be read as a file (a symlink, a directory, a file
// over the size limit) fails with *PathError naming it, and nothing is
// recorded; the caller may leave it out and call again.
func (s *Session) Record(ctx context.Context, paths []repo.Path, op, subject, body string) (Recorded, error) {
	return s.RecordChecked(ctx, paths, op, subject, body, nil)
}

// RecordPlan is what a record is about to commit, for the check of
// RecordChecked: Changed are the paths the record commit would take as
// its command's change, after the sync commits; Others maps each path
// recorded first as another session's edit to that session's name;
// BeforePending says that this session's last write was a `record
// --before` (op OpSync, with or without a commit: see markBefore), so that
// everything changed since is the command's that ran after it.
type RecordPlan struct {
	Changed       []string
	Others        map[string]string
	BeforePending bool
}

// RecordChecked is Record with a check, called under the edit lock once
// the record is worked out and before anything is written: an error from
// it refuses the record, and nothing is written (no object, no ref, no
// state). check nil: none.
func (s *Session) RecordChecked(ctx context.Context, paths []repo.Path, op, subject, body string, check func(RecordPlan) error) (Recorded, error) {
	if op != OpRecord && op != OpSync {
		return Recorded{}, fmt.Errorf("internal error: Record of op %q", op)
	}
	if err := s.checkWritable(); err != nil {
		return Recorded{}, err
	}
	// Bounded here, not only in the message, so that the reflog entry
	// and the result say what the commit says.
	subject, body = BoundMessage(subject, body)
	unlock, err := s.Repo.Lock(ctx)
	if err != nil {
		return Recorded{}, err
	}
	defer unlock()
	if err := s.checkOwner(true); err != nil {
		return Recorded{}, err
	}
	pending := s.beforePending()
	out, err := s.record(ctx, paths, op, subject, body, pending, check)
	if err == nil {
		if op == OpSync {
			s.markBefore()
		} else if pending {
			s.clearBefore()
		}
	}
	return out, err
}

// record is RecordChecked under the lock.
func (s *Session) record(ctx context.Context, paths []repo.Path, op, subject, body string, pending bool, check func(RecordPlan) error) (Recorded, error) {
	tx, recorded, err := s.begin(ctx, paths, false)
	if err != nil || len(tx.Outside) == 0 {
		return Recorded{}, err
	}
	if err := ctx.Err(); err != nil {
		return Recorded{}, err
	}
	batch := s.Repo.BeginBatch()
	defer batch.End()
	prev, err := s.LastTouches(tx.Tip, tx.Outside)
	if err != nil {
		return Recorded{}, err
	}
	entries, raw, err := s.storeDisk(tx, tx.Outside)
	if err != nil {
		return Recorded{}, err
	}
	now := time.Now()
	parent := tx.Head()
	var syncs []Commit
	var othersOf map[string]string // path: the session whose edit a sync recorded
	if op == OpRecord {
		head, err := s.syncHeadChanges(tx, recorded, prev, now)
		if err != nil {
			return Recorded{}, err
		}
		if !head.Hash.IsZero() {
			syncs, parent = append(syncs, head), head.Hash
		}
		others, whose, err := s.syncOtherSessions(tx, parent, recorded, prev, entries, now)
		if err != nil {
			return Recorded{}, err
		}
		if !others.Hash.IsZero() {
			syncs, parent = append(syncs, others), others.Hash
		}
		othersOf = whose
	}
	// The record holds the changed whose disk state differs from the
	// record as it now stands (after the sync of HEAD's changes).
	var changed []string
	for _, p := range tx.Outside {
		if entries[p] != recorded[p] {
			changed = append(changed, p)
		}
	}
	var h plumbing.Hash
	var meta Meta
	if len(changed) > 0 {
		meta = Meta{Op: op, Session: s.Name, Paths: changed, Prev: prev, Raw: keep(raw, changed)}
		if IsChange(op) {
			meta.Turn = TurnOf(ctx)
			o := OriginOf(ctx)
			meta.Model, meta.Agent = o.Model, o.Agent
		}
		if meta.Stat, err = s.lineStats(changed, recorded, entries, tx.Files); err != nil {
			return Recorded{}, err
		}
		switch {
		case subject != "":
		case op == OpSync:
			subject = s.syncSubject(changed, entries)
		default:
			subject = "record: " + describePaths(changed) + " changed on disk"
		}
		if h, err = s.commit(parent, entries, meta, subject, body, now); err != nil {
			return Recorded{}, err
		}
	} else if len(syncs) > 0 {
		last := syncs[len(syncs)-1]
		h, meta, subject = last.Hash, last.Meta, last.Subject
	} else {
		// Every path differed only in form: on disk as the blob the
		// session records, unconverted (see keptUnconverted), which `git
		// add` stores as that blob. Nothing to record.
		return Recorded{}, nil
	}
	// Checked once the commits are made (in memory: a refusal writes
	// nothing), so that the plan holds exactly what would be recorded.
	if check != nil && op == OpRecord {
		if err := check(RecordPlan{Changed: changed, Others: othersOf, BeforePending: pending}); err != nil {
			return Recorded{}, err
		}
	}
	if err := batch.Flush(); err != nil {
		return Recorded{}, err
	}
	repo.CrashPoint("objects-written")
	if err := s.Repo.UpdateRef(s.Ref(), tx.Tip, h, subject); err != nil {
		batch.Release()
		if cur, rerr := s.Repo.ReadRef(s.Ref()); rerr == nil && cur == h {
			err = nil // the update happened; only a later step failed
		} else {
			return Recorded{}, err
		}
	}
	batch.Release()
	s.wrote(tx.Tip)
	out := Recorded{Syncs: syncs, Before: map[string]repo.Entry{}, After: map[string]repo.FileState{}}
	if len(changed) == 0 {
		return out, nil // only changes not this session's: the syncs are all there was
	}
	out.Commit = Commit{Hash: h, Parent: parent, Subject: repo.OneLine(subject), Time: now, Meta: meta}
	out.Paths = changed
	for _, p := range changed {
		out.Before[p], out.After[p] = recorded[p], tx.Files[p]
	}
	return out, nil
}

// syncHeadChanges records, as one sync commit on the transaction's tip,
// HEAD's version of each path of tx.Outside that the session never touched
// (absent from prev) and that HEAD changed since the session's record of
// it: the person committed, pulled or rebased it. Without it, the record
// commit would take the person's committed change for the command's, and
// an undo of the record would take it back. recorded and prev are updated
// to stand on the sync commit. Zero Commit when there is no such path.
func (s *Session) syncHeadChanges(tx *Tx, recorded map[string]repo.Entry, prev map[string]plumbing.Hash, now time.Time) (Commit, error) {
	if tx.Tip.IsZero() || tx.Base.IsZero() {
		return Commit{}, nil // the record is HEAD's already, or there is no HEAD
	}
	headTree, err := s.Repo.TreeOf(tx.Base)
	if err != nil {
		return Commit{}, err
	}
	head := map[string]repo.Entry{}
	var paths []string
	for _, p := range tx.Outside {
		if _, touched := prev[p]; touched {
			continue
		}
		e, err := s.Repo.EntryAt(headTree, p)
		if err != nil {
			return Commit{}, err
		}
		if e != recorded[p] {
			head[p] = e
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		return Commit{}, nil
	}
	meta := Meta{Op: OpSync, Session: s.Name, Paths: paths, Prev: map[string]plumbing.Hash{}}
	if meta.Stat, err = s.lineStats(paths, recorded, head); err != nil {
		return Commit{}, err
	}
	subject := "sync: " + describePaths(paths) + " changed in HEAD " + tx.Base.String()[:7] + " (committed outside git-edit)"
	h, err := s.commit(tx.Head(), head, meta, subject, "", now)
	if err != nil {
		return Commit{}, err
	}
	for _, p := range paths {
		recorded[p], prev[p] = head[p], h
	}
	return Commit{Hash: h, Parent: tx.Head(), Subject: subject, Time: now, Meta: meta}, nil
}

// syncOtherSessions records, as one sync commit on parent, the version
// another live session left of each path of tx.Outside on which that
// session's change is still in effect (see Session.Overlaps) and which
// this session records otherwise: the other agent's edit, not a change of
// this session's shell command. Without it the record commit would take
// the other session's edit for its own, and an undo of the record would
// take it back. Where several sessions changed a path, the version the
// disk holds is taken if one does, else the most recently updated
// session's. recorded and prev are updated to stand on the sync commit.
// Zero Commit when there is no such path.
func (s *Session) syncOtherSessions(tx *Tx, parent plumbing.Hash, recorded map[string]repo.Entry, prev map[string]plumbing.Hash, disk map[string]repo.Entry, now time.Time) (Commit, map[string]string, error) {
	overlaps, err := s.Overlaps(&Others{}, tx.Outside)
	if err != nil || len(overlaps) == 0 {
		return Commit{}, nil, err
	}
	theirs := map[string]repo.Entry{}
	from := map[string]Overlap{}
	for _, o := range overlaps {
		tree, err := s.Repo.TreeOf(o.Edit)
		if err != nil {
			return Commit{}, nil, err
		}
		e, err := s.Repo.EntryAt(tree, o.Path)
		if err != nil {
			return Commit{}, nil, err
		}
		if _, chosen := from[o.Path]; chosen && theirs[o.Path] == disk[o.Path] {
			continue // an earlier session's version is the one on disk
		}
		if _, chosen := from[o.Path]; !chosen || e == disk[o.Path] {
			theirs[o.Path], from[o.Path] = e, o
		}
	}
	var paths []string
	entries := map[string]repo.Entry{}
	var names []string
	whose := map[string]string{}
	for _, p := range tx.Outside {
		e, ok := theirs[p]
		if !ok || e == recorded[p] {
			continue
		}
		entries[p] = e
		paths = append(paths, p)
		whose[p] = from[p].Session
		if n := from[p].Session; !slices.Contains(names, n) {
			names = append(names, n)
		}
	}
	if len(paths) == 0 {
		return Commit{}, nil, nil
	}
	meta := Meta{Op: OpSync, Session: s.Name, Paths: paths, Prev: map[string]plumbing.Hash{}}
	for _, p := range paths {
		if h, ok := prev[p]; ok {
			meta.Prev[p] = h
		}
	}
	if meta.Stat, err = s.lineStats(paths, recorded, entries); err != nil {
		return Commit{}, nil, err
	}
	subject := "sync: " + describePaths(paths) + " as session " + strings.Join(names, ", ") + " left it (its edit, not this session's)"
	h, err := s.commit(parent, entries, meta, subject, "", now)
	if err != nil {
		return Commit{}, nil, err
	}
	for _, p := range paths {
		recorded[p], prev[p] = entries[p], h
	}
	return Commit{Hash: h, Parent: parent, Subject: subject, Time: now, Meta: meta}, whose, nil
}

// keep is the members of list that are in paths.
func keep(list, paths []string) []string {
	var out []string
	for _, p := range list {
		if slices.Contains(paths, p) {
			out = append(out, p)
		}
	}
	return out
}
