package session

import (
	"errors"
	"time"

	"github.com/git-edit/git-edit/repo"
	"github.com/go-git/go-git/v5/plumbing"
)

// OpenRepository opens the repository whose sessions the commands that
// list and prune them work on: the one dir belongs to, found as git finds
// it (see repo.Open, whose errors it returns).
func OpenRepository(dir string) (*repo.Repo, error) { return repo.Open(dir) }

// Summary is what one session did, from its history.
type Summary struct {
	Name string
	Ref  string
	// Tip is the session's newest commit; zero when its ref names no
	// session commit (or the session is broken).
	Tip plumbing.Hash
	// Commits counts the session's commits; Edits those that a dialect
	// made (Edit-Op: edit), not syncs, undos, redos or rollbacks.
	Commits, Edits int
	// Paths are the paths the session changed, in the order of their
	// first change.
	Paths []string
	// Base is the commit the session started from (HEAD at its first
	// commit); zero on an unborn branch.
	Base plumbing.Hash
	// Last is the time of the newest commit.
	Last time.Time
	// Broken is set, and every field above but Name and Ref is empty, when
	// the session's history is missing from the repository; it says what
	// is wrong and how to remove the session.
	Broken *BrokenError
}

// Summarize reads the session's summary from its history index (see
// index.go): its cost is its paths, not its commits. A broken session
// is no error here: its summary says so in Broken, so that listing and
// pruning still work for the others.
func (s *Session) Summarize() (Summary, error) {
	sum := Summary{Name: s.Name, Ref: s.Ref(), Paths: []string{}}
	tip, err := s.Tip()
	var tipCommit Commit
	if err == nil && !tip.IsZero() {
		tipCommit, _, err = s.ReadCommit(tip)
	}
	if err == nil && !tip.IsZero() {
		err = s.withIndex(tip, func(v view) error {
			if v.lim != v.x.n-1 {
				return errIndexStale // the ref moved back: count again
			}
			sum.Commits, sum.Edits, sum.Base = v.lim+1, v.x.edits, v.x.base
			sum.Paths = sum.Paths[:0]
			for _, p := range v.x.paths {
				if v.x.touches[p].first <= v.lim {
					sum.Paths = append(sum.Paths, p)
				}
			}
			return nil
		})
	}
	if broken := (*BrokenError)(nil); errors.As(err, &broken) {
		return Summary{Name: s.Name, Ref: s.Ref(), Paths: []string{}, Broken: broken}, nil
	}
	if err != nil || sum.Commits == 0 {
		return Summary{Name: s.Name, Ref: s.Ref(), Paths: []string{}}, err
	}
	sum.Tip, sum.Last = tip, tipCommit.Time
	return sum, nil
}

// List summarizes every session of r (see All and Summarize), sorted by
// name; broken sessions are listed with Broken set.
func List(r *repo.Repo) ([]Summary, error) {
	sessions, err := All(r)
	if err != nil {
		return nil, err
	}
	sums := make([]Summary, 0, len(sessions))
	for _, s := range sessions {
		sum, err := s.Summarize()
		if err != nil {
			return nil, err
		}
		sums = append(sums, sum)
	}
	return sums, nil
}
