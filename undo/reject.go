package undo

import (
	"context"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/session"
)

// TakeBack is, under tx, the merge a selective undo makes for one path:
// the change from before to after taken back out of now (the path on disk,
// as tx read it), keeping what changed since — git merge-file with base
// after, ours now, theirs before, ident expansions collapsed as undo
// collapses them. It returns the result, or the conflict (its Path and
// Target left zero) where now changed the same lines since. A reject takes
// chosen hunks of the session's net change back this way: after is the
// tip's content, before the tip's content with those hunks reversed.
func TakeBack(tx *session.Tx, path string, before, after, now repo.FileState) (repo.FileState, *Conflict, error) {
	ctx := tx.Context()
	if ctx == nil {
		ctx = context.Background()
	}
	files := tx.Reader()
	return reverse(ctx, before, after, now, keywords{
		collapse: func(b []byte) ([]byte, error) { return files.IdentCollapsed(path, b) },
		expand:   func(b []byte) ([]byte, error) { return files.IdentExpanded(path, b) },
	})
}
