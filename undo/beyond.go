package undo

import (
	"bytes"

	"github.com/git-edit/git-edit/repo/session"
	"github.com/go-git/go-git/v5/plumbing"
)

// Beyond is what an undo or redo of one path removed besides its target's
// own change. Undo and redo put the path back whole, as it was just before
// the target, so every change made to it after the target goes too: the
// person's, other sessions' (both reach this session as sync commits), and
// the session's own later commits.
type Beyond struct {
	Path string
	// Later and Now are the path as the target left it and as it was
	// just before the revert; they differ exactly when more was removed.
	Later, Now []byte
	// Syncs are this session's sync commits of the path after the target,
	// newest first: changes made outside the session.
	Syncs []Commit
	// Own are the session's other commits of the path after the target
	// (edits, undos, redos, rollbacks), newest first.
	Own []Commit
}

// Removed reports whether the revert removed more than the target's own
// change.
func (b Beyond) Removed() bool { return !bytes.Equal(b.Later, b.Now) }

// WhatElse works out, after a revert recorded as commit rev (an undo or
// redo of target), what it removed of path besides target's own change
// (see Beyond). files reads the recorded states (a *repo.Repo: blobs as
// stored).
func WhatElse(s Store, files Files, rev plumbing.Hash, target Target, path string) (Beyond, error) {
	b := Beyond{Path: path}
	rc, _, err := s.ReadCommit(rev)
	if err != nil {
		return b, err
	}
	later, err := files.FileAt(target.Commit, path)
	if err != nil {
		return b, err
	}
	now, err := files.FileAt(rc.Parent, path)
	if err != nil {
		return b, err
	}
	b.Later, b.Now = later.Content, now.Content
	err = walkChain(s, rc.Parent, path, func(c plumbing.Hash, meta session.Meta) (bool, error) {
		if c == target.Commit {
			return true, nil
		}
		commit, _, err := s.ReadCommit(c)
		if err != nil {
			return true, err
		}
		if meta.Op == session.OpSync {
			b.Syncs = append(b.Syncs, commit)
		} else {
			b.Own = append(b.Own, commit)
		}
		return false, nil
	})
	return b, err
}
