package session

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
)

// The questions below read the history index (index.go) instead of
// walking the session: each costs what it returns, not the session's
// length. Each checks what the index says against the commits it names;
// when they disagree the index is dropped and rebuilt from the commits.

// cached reads a commit the index names: one the repository does not
// have makes the index wrong (errIndexStale, so it is rebuilt by a walk,
// which says whether the session itself is broken), not the session.
func (s *Session) cached(h plumbing.Hash) (Commit, bool, error) {
	c, ok, err := s.ReadCommit(h)
	if errors.Is(err, ErrBroken) {
		return c, false, errIndexStale
	}
	return c, ok, err
}

// withIndex runs q on the index at tip, under idxMu, once the index's
// position of tip and its counts are checked against tip's Edit-Seq
// trailer (see check); when they disagree, or q finds the index stale or
// wrong (errIndexStale), it drops it and runs q once more on one rebuilt
// from the commits.
func (s *Session) withIndex(tip plumbing.Hash, q func(view) error) error {
	s.idxMu.Lock()
	defer s.idxMu.Unlock()
	for attempt := 0; ; attempt++ {
		v, err := s.indexAt(tip)
		if err == nil {
			err = s.check(v, tip)
		}
		if err == nil {
			err = q(v)
		}
		if !errors.Is(err, errIndexStale) || attempt == 1 {
			return err
		}
		s.dropIndex()
	}
}

// check compares what the index says of tip with tip's own Edit-Seq
// trailer: its position (so the commit count, and every comparison of a
// path's touches with the view's limit) and, when tip is the index's
// newest commit, the count of changes. A tip written before the trailer
// existed says nothing to check against: the index is then used only if
// this process built it from the commits (walked), else errIndexStale has
// it rebuilt by a walk, so a wrong index costs a walk, never a wrong
// answer.
func (s *Session) check(v view, tip plumbing.Hash) error {
	if v.lim < 0 {
		return nil
	}
	c, ok, err := s.cached(tip)
	if err != nil {
		return err
	}
	switch {
	case !ok:
		return errIndexStale
	case v.x.walked:
		// Built from the commits by this process: the walk is the truth,
		// whatever their trailers say (commits made by hand may lie).
	case !c.Meta.Counted:
		return errIndexStale
	case c.Meta.Seq != v.lim, v.lim == v.x.n-1 && c.Meta.Edits != v.x.edits:
		return errIndexStale
	}
	return nil
}

// at is the session's commit number seq up to the view's tip, read and
// checked against the commits: it is a commit of the session whose
// Edit-Seq is seq, and whose child in the index (or tip itself, for the
// view's newest) names it as parent and has Edit-Seq seq+1. A commit
// written before the trailer existed is taken only from an index this
// process built from the commits.
func (s *Session) at(v view, tip plumbing.Hash, seq int) (Commit, error) {
	h, err := v.x.hashAt(s, seq)
	if err != nil {
		return Commit{}, err
	}
	c, ok, err := s.cached(h)
	if err != nil {
		return c, err
	}
	if !ok {
		return c, errIndexStale
	}
	if v.x.walked {
		return c, nil // built from the commits by this process (see check)
	}
	if !c.Meta.Counted {
		return c, errIndexStale
	}
	if c.Meta.Seq != seq {
		return c, errIndexStale
	}
	if seq == v.lim {
		if h != tip {
			return c, errIndexStale
		}
		return c, nil
	}
	nh, err := v.x.hashAt(s, seq+1)
	if err != nil {
		return c, err
	}
	child, ok, err := s.cached(nh)
	if err != nil {
		return c, err
	}
	if !ok || child.Parent != h || !child.Meta.Counted || child.Meta.Seq != seq+1 {
		return c, errIndexStale
	}
	return c, nil
}

// LastTouches finds, for each path, the last commit of this session up to
// tip that changed it. Paths the session never changed are absent from
// the result. It reads the history index, and checks each answer: the
// commit named changed the path and records it as tip does, and a path
// said untouched is in tip as in the session's base.
func (s *Session) LastTouches(tip plumbing.Hash, paths []string) (map[string]plumbing.Hash, error) {
	var found map[string]plumbing.Hash
	err := s.withIndex(tip, func(v view) error {
		found = map[string]plumbing.Hash{}
		if v.lim < 0 {
			return nil
		}
		check, err := s.checker(tip, v.x.base)
		if err != nil {
			return err
		}
		for _, p := range paths {
			t := v.x.touches[p]
			if t == nil || t.first > v.lim {
				if err := check.untouched(p); err != nil {
					return err
				}
				continue
			}
			c := t.lastHash
			if t.last > v.lim {
				// Touched again after tip: follow the path's chain back.
				if c, err = s.chainBack(v, p, c); err != nil {
					return err
				}
			}
			if _, err := check.touched(p, c, false); err != nil {
				return err
			}
			found[p] = c
		}
		return nil
	})
	if errors.Is(err, errIndexStale) {
		return s.lastTouchesWalk(tip, paths)
	}
	return found, err
}

// chainBack follows path's Edit-Prev chain from c to the newest commit at
// or before the view's tip.
func (s *Session) chainBack(v view, path string, c plumbing.Hash) (plumbing.Hash, error) {
	for !c.IsZero() {
		seq, ok, err := v.x.seqOf(s, c)
		if err != nil {
			return c, err
		}
		if !ok {
			return c, errIndexStale
		}
		if seq <= v.lim {
			return c, nil
		}
		commit, _, err := s.ReadCommit(c)
		if err != nil {
			return c, err
		}
		c = commit.Meta.Prev[path]
	}
	return c, errIndexStale // the index said the path was touched by then
}

// FirstTouch is the session's first commit, up to tip, that changed path;
// ok is false when none did. It reads the history index and checks the
// answer (the commit changed path and names no earlier commit for it).
func (s *Session) FirstTouch(tip plumbing.Hash, path string) (c Commit, ok bool, err error) {
	err = s.withIndex(tip, func(v view) error {
		check, err := s.checker(tip, v.x.base)
		if err != nil {
			return err
		}
		t := v.x.touches[path]
		if v.lim < 0 || t == nil || t.first > v.lim {
			ok = false
			return check.untouched(path)
		}
		c, err = check.touched(path, t.firstHash, true)
		ok = err == nil
		return err
	})
	if errors.Is(err, errIndexStale) {
		return s.firstTouchWalk(tip, path)
	}
	return c, ok, err
}

func (s *Session) firstTouchWalk(tip plumbing.Hash, path string) (Commit, bool, error) {
	all, err := s.Commits(tip)
	if err != nil {
		return Commit{}, false, err
	}
	for i := len(all) - 1; i >= 0; i-- {
		if all[i].Meta.Touches(path) {
			return all[i], true, nil
		}
	}
	return Commit{}, false, nil
}

// Touched lists every path the session changed up to tip, in the order of
// their first change, with the commit that first changed each.
func (s *Session) Touched(tip plumbing.Hash) (paths []string, first map[string]Commit, err error) {
	err = s.withIndex(tip, func(v view) error {
		paths, first = nil, map[string]Commit{}
		for _, p := range v.x.paths {
			t := v.x.touches[p]
			if t.first > v.lim {
				continue
			}
			c, ok, err := s.cached(t.firstHash)
			if err != nil {
				return err
			}
			if !ok || !c.Meta.Touches(p) || !c.Meta.Prev[p].IsZero() {
				return errIndexStale
			}
			paths = append(paths, p)
			first[p] = c
		}
		return nil
	})
	if errors.Is(err, errIndexStale) {
		return s.touchedWalk(tip)
	}
	return paths, first, err
}

func (s *Session) touchedWalk(tip plumbing.Hash) ([]string, map[string]Commit, error) {
	all, err := s.Commits(tip)
	if err != nil {
		return nil, nil, err
	}
	var paths []string
	first := map[string]Commit{}
	for i := len(all) - 1; i >= 0; i-- {
		for _, p := range all[i].Meta.Paths {
			if _, seen := first[p]; !seen {
				first[p] = all[i]
				paths = append(paths, p)
			}
		}
	}
	return paths, first, nil
}

// Len is the number of the session's commits up to tip (0 for zero).
func (s *Session) Len(tip plumbing.Hash) (int, error) {
	n := 0
	err := s.withIndex(tip, func(v view) error {
		n = v.lim + 1
		return nil
	})
	return n, err
}

// CommitAt is the session's commit number seq (0: its first), up to tip.
func (s *Session) CommitAt(tip plumbing.Hash, seq int) (c Commit, err error) {
	err = s.withIndex(tip, func(v view) error {
		if seq < 0 || seq > v.lim {
			return fmt.Errorf("session %q has no commit number %d", s.Name, seq)
		}
		c, err = s.at(v, tip, seq)
		return err
	})
	return c, err
}

// Matching returns the numbers (0: the first commit) of the session's
// commits up to tip whose id starts with prefix (lower-case hex).
func (s *Session) Matching(tip plumbing.Hash, prefix string) ([]int, error) {
	// Compare bytes, not hex: the whole bytes of the prefix, then the odd
	// digit, if any, against the high nibble of the next byte.
	whole, err := hex.DecodeString(prefix[:len(prefix)/2*2])
	if err != nil {
		return nil, nil // not hex: no commit has it
	}
	odd := -1
	if len(prefix)%2 == 1 {
		b, err := hex.DecodeString(prefix[len(prefix)-1:] + "0")
		if err != nil {
			return nil, nil
		}
		odd = int(b[0])
	}
	match := func(h []byte) bool {
		return bytes.HasPrefix(h, whole) && (odd < 0 || int(h[len(whole)]&0xf0) == odd)
	}
	var out []int
	err = s.withIndex(tip, func(v view) error {
		out = nil
		x := v.x
		if x.persisted > 0 {
			if err := x.loadDisk(s); err != nil {
				return err
			}
		}
		for seq := 0; seq <= v.lim; seq++ {
			var h []byte
			if seq < x.persisted {
				h = x.disk[seq*20 : seq*20+20]
			} else {
				h = x.tail[seq-x.persisted][:]
			}
			if match(h) {
				out = append(out, seq)
			}
		}
		// Each commit named is checked where the index puts it; none
		// named, from an index read from disk, is checked by a walk: an
		// index that leaves a commit out must not make it unknown.
		for _, seq := range out {
			if _, err := s.at(v, tip, seq); err != nil {
				return err
			}
		}
		if len(out) == 0 && !v.x.walked {
			return errIndexStale
		}
		return nil
	})
	return out, err
}

// indexCheck checks what the index says about paths against tip's tree:
// each session commit's tree is its parent's with only its paths changed,
// so a path is recorded in tip as in its last touch, and, untouched, as in
// the session's base.
type indexCheck struct {
	s          *Session
	tree, base plumbing.Hash // trees of tip and of the session's base
}

func (s *Session) checker(tip, base plumbing.Hash) (*indexCheck, error) {
	tree, err := s.Repo.TreeOf(tip)
	if err != nil {
		return nil, err
	}
	// The index names the base: its commit missing is the index's fault.
	bt, err := s.Repo.TreeOf(base)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return nil, errIndexStale
	}
	if err != nil {
		return nil, err
	}
	return &indexCheck{s: s, tree: tree, base: bt}, nil
}

func (k *indexCheck) sameAt(other plumbing.Hash, path string) (bool, error) {
	a, err := k.s.Repo.EntryAt(k.tree, path)
	if err != nil {
		return false, err
	}
	b, err := k.s.Repo.EntryAt(other, path)
	return a == b, err
}

func (k *indexCheck) untouched(path string) error {
	same, err := k.sameAt(k.base, path)
	if err == nil && !same {
		err = errIndexStale
	}
	return err
}

// touched checks that commit c changed path (first: as its first change)
// and that tip records path as c does.
func (k *indexCheck) touched(path string, c plumbing.Hash, first bool) (Commit, error) {
	commit, ok, err := k.s.cached(c)
	if err != nil {
		return commit, err
	}
	if !ok || !commit.Meta.Touches(path) || first && !commit.Meta.Prev[path].IsZero() {
		return commit, errIndexStale
	}
	if first {
		return commit, nil // a later commit may have changed it again
	}
	tree, err := k.s.Repo.TreeOf(c)
	if err != nil {
		return commit, err
	}
	same, err := k.sameAt(tree, path)
	if err == nil && !same {
		err = errIndexStale
	}
	return commit, err
}
