// Package undo answers the history questions asked of a session's ref:
// which edit an undo or redo reverts and what it puts back, what a rollback
// returns to and whose work it would discard, which commits a log shows,
// and which commit a name refers to. It never moves a ref back: undo, redo
// and rollback are plans for new commits that name what they reverse.
//
// It reads a session through Store, the few things it needs (each costs
// what it returns, not the session's length), and files
// through Files, so that its rules depend on nothing else of the session
// layer.
package undo

import (
	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/go-git/go-git/v5/plumbing"
)

// Store is what the history questions read of one session: its commits,
// the files they record, and its name for messages. *session.Session is
// the implementation.
type Store interface {
	// SessionName is the session's name, as messages show it.
	SessionName() string
	// Ref is the session's ref, refs/edits/<name>.
	Ref() string
	// ReadCommit reads commit h. ok is false when h is a commit but not
	// one of this session (the commit a session started from). A commit
	// the repository does not have fails with a *session.BrokenError.
	ReadCommit(h plumbing.Hash) (c Commit, ok bool, err error)
	// LastTouches maps each of paths to the newest commit of the session,
	// from tip back along first parents, that changed it; paths the
	// session never changed up to tip are absent. A missing commit fails
	// with a *session.BrokenError.
	LastTouches(tip plumbing.Hash, paths []string) (map[string]plumbing.Hash, error)
	// Touched lists every path the session changed up to tip, in the
	// order of their first change, with the commit of each first change.
	Touched(tip plumbing.Hash) (paths []string, first map[string]Commit, err error)
	// Len is the number of the session's commits up to tip.
	Len(tip plumbing.Hash) (int, error)
	// CommitAt is the session's commit number seq up to tip (0: its
	// first).
	CommitAt(tip plumbing.Hash, seq int) (Commit, error)
	// Matching numbers the session's commits up to tip whose id starts
	// with prefix (lower-case hex), oldest first.
	Matching(tip plumbing.Hash, prefix string) ([]int, error)
	// TurnCommits lists the session's commits up to tip carrying
	// Edit-Turn: turn, newest first; CheckpointsNamed its checkpoint
	// commits named name. Each costs the commits it returns (the history
	// index names them), not the session's length.
	TurnCommits(tip plumbing.Hash, turn string) ([]Commit, error)
	CheckpointsNamed(tip plumbing.Hash, name string) ([]Commit, error)
}

// Files is how the history questions read a file as a commit records it.
// It is separate from Store because reading a file may run git's
// conversions (a smudge filter, git-lfs), which must be bounded by the
// operation's context and read what decides them once per operation: the
// plans read through the transaction's reader (session.Tx.Reader), so a
// filter that never ends is stopped at the call's deadline, with the lock
// released. *session.Reader is the implementation that gives the bytes a
// history operation writes back; *repo.Repo gives the blobs as stored (the
// form `git diff` shows), for views that write nothing.
type Files interface {
	// FileAt is path as commit h records it; it does not exist when h is
	// zero or has no such path. It fails when h or its blob cannot be
	// read, or the conversion fails.
	FileAt(h plumbing.Hash, path string) (repo.FileState, error)
}

// Commit is one session commit and what it says about itself.
type Commit = session.Commit
