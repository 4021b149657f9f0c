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

// Summarize reads the session's history into a Summary. A broken session
// is no error here: its summary says so in Broken, so that listing and
// pruning still work for the others.
func (s *Session) Summarize() (Summary, error) {
	sum := Summary{Name: s.Name, Ref: s.Ref(), Paths: []string{}}
	tip, err := s.Tip()
	var all []Commit
	if err == nil {
		all, err = s.Commits(tip)
	}
	if broken := (*BrokenError)(nil); errors.As(err, &broken) {
		sum.Broken = broken
		return sum, nil
	}
	if err != nil || len(all) == 0 {
		return sum, err
	}
	sum.Tip, sum.Commits = tip, len(all)
	seen := map[string]bool{}
	for i := len(all) - 1; i >= 0; i-- {
		if all[i].Meta.Op == OpEdit {
			sum.Edits++
		}
		for _, p := range all[i].Meta.Paths {
			if !seen[p] {
				seen[p] = true
				sum.Paths = append(sum.Paths, p)
			}
		}
	}
	sum.Base = all[len(all)-1].Parent
	sum.Last = all[0].Time
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
