package session

import (
	"context"
	"fmt"
	"time"

	"github.com/git-edit/git-edit/repo"
)

// Recorded is what Record did.
type Recorded struct {
	// Commit is the record commit; zero when every path was on disk as the
	// session records it (then nothing was recorded).
	Commit Commit
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
	if op != OpRecord && op != OpSync {
		return Recorded{}, fmt.Errorf("internal error: Record of op %q", op)
	}
	unlock, err := s.Repo.Lock(ctx)
	if err != nil {
		return Recorded{}, err
	}
	defer unlock()
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
	meta := Meta{Op: op, Session: s.Name, Paths: tx.Outside, Prev: prev, Raw: raw}
	if IsChange(op) {
		meta.Turn = TurnOf(ctx)
	}
	if meta.Stat, err = s.lineStats(tx.Outside, recorded, entries, tx.Files); err != nil {
		return Recorded{}, err
	}
	switch {
	case subject != "":
	case op == OpSync:
		subject = "sync: " + describePaths(tx.Outside) + " changed outside git-edit"
	default:
		subject = "record: " + describePaths(tx.Outside) + " changed on disk"
	}
	now := time.Now()
	h, err := s.commit(tx.Head(), entries, meta, subject, body, now)
	if err != nil {
		return Recorded{}, err
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
	out := Recorded{
		Commit: Commit{Hash: h, Parent: tx.Head(), Subject: repo.OneLine(subject), Time: now, Meta: meta},
		Paths:  tx.Outside, Before: map[string]repo.Entry{}, After: map[string]repo.FileState{},
	}
	for _, p := range tx.Outside {
		out.Before[p], out.After[p] = recorded[p], tx.Files[p]
	}
	return out, nil
}
