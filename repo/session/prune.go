package session

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/git-edit/git-edit/repo"
	"github.com/go-git/go-git/v5/plumbing"
)

// UnknownSessionError refuses a session named to Prune that the
// repository does not have.
type UnknownSessionError struct{ Name string }

func (e *UnknownSessionError) Error() string {
	return fmt.Sprintf("no session %q in this repository (nothing was pruned); `git edit sessions` lists them", e.Name)
}

// PruneOptions select the sessions Prune deletes: with ByAge, those whose
// last commit is older than OlderThan at Now; with Sessions, the sessions
// named (with ByAge too, a healthy one only if it is that old); at least
// one of the two must be given.
type PruneOptions struct {
	ByAge     bool
	OlderThan time.Duration
	Now       time.Time
	Sessions  []string
	// DryRun selects and reports as Prune would, and deletes nothing.
	DryRun bool
	// Announce, if set, is called with what is about to be deleted, under
	// the edit lock, after the selection and before anything is deleted
	// (not with DryRun), so that a caller can say how to bring each
	// session back before its ref and reflog are gone. Its error stops
	// Prune with nothing deleted.
	Announce func(PruneResult) error
}

// Pruned is a session Prune deleted: its summary before, and the commit
// its ref named (for a broken session, the missing one; zero for a
// read-only session, which has no ref).
type Pruned struct {
	Summary
	Was plumbing.Hash
}

// PruneResult is what Prune did, in the order of the sessions' names (or
// as named): the sessions deleted, and the broken ones kept because they
// were not named (their age is unknown).
type PruneResult struct {
	Pruned []Pruned
	Kept   []Summary
}

// Prune deletes the selected session refs, with their reflogs, in one git
// transaction (repo.DeleteRefs) under the edit lock: all of them or, if
// any moved or is locked meanwhile, none (the error wraps
// repo.ErrRefChanged or repo.ErrRefLocked and names it). Then it removes
// each pruned session's own state (its read records and history index).
// Read-only sessions (state but no ref, see Summary.ReadOnly) are
// selected the same way, by the time of their last read, and pruned by
// removing that state. A broken session is deleted only when named, as its
// age is unknown; otherwise it is kept and reported in Kept. A name that is
// not a valid session name (ErrBadName) or not a session of r
// (*UnknownSessionError) is refused before anything is deleted; a name
// given twice is pruned once. With o.DryRun the result is the same and
// nothing is deleted.
func Prune(ctx context.Context, r *repo.Repo, o PruneOptions) (PruneResult, error) {
	var res PruneResult
	if !o.ByAge && len(o.Sessions) == 0 {
		return res, errors.New("prune needs an age or session names; nothing was pruned")
	}
	for _, name := range o.Sessions {
		if err := ValidateName(name); err != nil {
			return res, err
		}
	}
	unlock, err := r.Lock(ctx)
	if err != nil {
		return res, err
	}
	defer unlock()
	sums, err := List(r)
	if err != nil {
		return res, err
	}
	named := len(o.Sessions) > 0
	if named {
		if sums, err = pick(sums, o.Sessions); err != nil {
			return res, err
		}
	}
	var doomed []repo.Ref
	for _, sum := range sums {
		switch {
		case sum.Broken != nil && !named:
			res.Kept = append(res.Kept, sum)
			continue
		case sum.Broken == nil && o.ByAge && (sum.Tip.IsZero() && !sum.ReadOnly || o.Now.Sub(sum.Last) <= o.OlderThan):
			continue
		}
		p := Pruned{Summary: sum}
		if !sum.ReadOnly {
			if p.Was, err = r.ReadRef(sum.Ref); err != nil {
				return PruneResult{}, err
			}
			doomed = append(doomed, repo.Ref{Name: sum.Ref, Hash: p.Was})
		}
		res.Pruned = append(res.Pruned, p)
	}
	if o.DryRun || len(res.Pruned) == 0 {
		return res, nil
	}
	if o.Announce != nil {
		if err := o.Announce(res); err != nil {
			return PruneResult{}, fmt.Errorf("prune: %w; nothing was pruned", err)
		}
	}
	if err := r.DeleteRefs(doomed); err != nil {
		return PruneResult{}, err
	}
	for _, p := range res.Pruned {
		s := &Session{Repo: r, Name: p.Name}
		if err := s.RemoveState(); err != nil {
			return PruneResult{}, fmt.Errorf("%s was pruned, but removing its state failed: %w", p.Ref, err)
		}
	}
	return res, nil
}

// pick returns the sessions named, in the order named, once each; a name
// that is not among sessions is refused.
func pick(sessions []Summary, names []string) ([]Summary, error) {
	byName := map[string]Summary{}
	for _, s := range sessions {
		byName[s.Name] = s
	}
	var out []Summary
	picked := map[string]bool{}
	for _, name := range names {
		s, ok := byName[name]
		switch {
		case !ok:
			return nil, &UnknownSessionError{Name: name}
		case picked[name]:
			continue // a name given twice is pruned once
		}
		picked[name] = true
		out = append(out, s)
	}
	return out, nil
}
