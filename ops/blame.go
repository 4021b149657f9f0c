package ops

import (
	"context"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/undo"
)

// LineOrigin says who wrote one line (see undo.LineOrigin).
type LineOrigin = undo.LineOrigin

// BlameStat is what a commit's or range's added lines are (see
// undo.Stat); StatCount one file's or the total's counts.
type (
	BlameStat = undo.Stat
	StatCount = undo.StatCount
)

// Refusals of Blame and BlameStat (see undo).
var (
	ErrNoSuchFile     = undo.ErrNoSuchFile
	ErrUnknownRev     = undo.ErrUnknownRev
	ErrUnknownSession = undo.ErrUnknownSession
	// ErrPathRefused: a path outside the root, in .git, through a
	// symlink (see repo.Resolve).
	ErrPathRefused = repo.ErrPathRefused
)

// Blame attributes every line of the file arg names (relative to the
// engine's Dir, confined to its Root as history paths are: a symlink is
// not followed) to an agent edit of a session or to the person: the
// working file when rev is "", else the file at rev. sessions narrows
// the sessions considered (none: every session). See undo.Blame. It
// writes nothing to the repository and ends at the engine's timeout.
func (e *Engine) Blame(ctx context.Context, arg, rev string, sessions []string) ([]LineOrigin, error) {
	p, err := e.Repo.ResolveRecordedFrom(e.Root, e.Dir, arg)
	if err != nil {
		return nil, err
	}
	ctx, cancel := e.bounded(ctx)
	defer cancel()
	lines, err := undo.Blame(ctx, e.Repo, p.Rel, rev, sessions)
	if err == nil && len(sessions) == 0 {
		// Other tools' git-ai notes name the agents of person lines.
		lines, err = undo.FromNotes(ctx, e.Repo, lines)
	}
	return lines, e.timedOut("blame", err)
}

// BlameStat counts the lines a commit or range added that agents (per
// session) and the person wrote; see undo.BlameStat.
func (e *Engine) BlameStat(ctx context.Context, spec string, sessions []string) (BlameStat, error) {
	ctx, cancel := e.bounded(ctx)
	defer cancel()
	st, err := undo.BlameStat(ctx, e.Repo, spec, sessions)
	return st, e.timedOut("blame --stat", err)
}
