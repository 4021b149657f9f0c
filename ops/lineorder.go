package ops

import (
	"github.com/git-edit/git-edit/undo"
)

// newerLine reports whether line a was written after line b, both
// attributed to commits: the later commit time, and within one second
// (commit times are whole seconds, and an agent makes several edits a
// second) the commit that descends from the other. It serves "the model
// of a session's newest edit" in notes and Agent Trace, which must not
// depend on the order lines are read in.
func (e *Engine) newerLine(a, b undo.LineOrigin) bool {
	if !a.Time.Equal(b.Time) {
		return a.Time.After(b.Time)
	}
	if a.Commit == b.Commit || a.Commit.IsZero() || b.Commit.IsZero() {
		return false
	}
	// Walk a's first parents back while they are from b's second: a
	// session's commits form one chain, so b is met if it is older.
	h := a.Commit
	for {
		c, err := e.Repo.ReadCommit(h)
		if err != nil || c.Committer.When.Before(b.Time) || len(c.ParentHashes) == 0 {
			return false
		}
		h = c.ParentHashes[0]
		if h == b.Commit {
			return true
		}
	}
}
