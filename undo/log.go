package undo

import (
	"errors"
	"fmt"
	"strings"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/go-git/go-git/v5/plumbing"
)

// ErrUnknownEdit is returned by Resolve for a name that is no commit of
// the session.
var ErrUnknownEdit = errors.New("no such edit")

// Log returns the session's commits from tip, newest first, at most n of
// them (n <= 0: all). With paths, only commits that changed one of them;
// for a single path it follows that path's Edit-Prev chain, so it reads
// only the commits that touched it.
func Log(s Store, tip plumbing.Hash, n int, paths []string) ([]Commit, error) {
	var out []Commit
	full := func() bool { return n > 0 && len(out) >= n }
	if len(paths) == 1 {
		last, err := s.LastTouches(tip, paths)
		if err != nil {
			return nil, err
		}
		for h := last[paths[0]]; !h.IsZero() && !full(); {
			c, _, err := s.ReadCommit(h)
			if err != nil {
				return nil, err
			}
			out = append(out, c)
			h = c.Meta.Prev[paths[0]]
		}
		return out, nil
	}
	for h := tip; !h.IsZero() && !full(); {
		c, ok, err := s.ReadCommit(h)
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		if len(paths) == 0 || touchesAny(c.Meta, paths) {
			out = append(out, c)
		}
		h = c.Parent
	}
	return out, nil
}

func touchesAny(m session.Meta, paths []string) bool {
	for _, p := range paths {
		if m.Touches(p) {
			return true
		}
	}
	return false
}

// Touched lists every path the session changed up to tip, in the order
// of their first touch, with the commit that first touched each.
func Touched(s Store, tip plumbing.Hash) (paths []string, first map[string]Commit, err error) {
	return s.Touched(tip)
}

// BeforeSession is path as it was on disk when the session first touched
// it, read through files: what a sync recorded, if the first touch was
// one, else the state in the first touch's parent. It is what rollback
// restores and where diff starts.
func BeforeSession(files Files, first Commit, path string) (repo.FileState, error) {
	return files.FileAt(beforeSession(first), path)
}

// beforeSession is the commit that records path as it was before the
// session, given the commit that first touched it.
func beforeSession(first Commit) plumbing.Hash {
	if first.Meta.Op == session.OpSync {
		return first.Hash
	}
	return first.Parent
}

// Resolve finds the session commit a name refers to: a full or abbreviated
// commit id (at least 4 hex digits) of one of the session's commits, or
// "tip"/the session name for its newest commit, optionally followed by ~N.
func Resolve(s Store, tip plumbing.Hash, name string) (Commit, error) {
	base, back := name, 0
	if i := strings.LastIndexByte(name, '~'); i >= 0 {
		if _, err := fmt.Sscanf(name[i+1:], "%d", &back); err != nil || back < 0 {
			return Commit{}, fmt.Errorf("%w %q: after ~ give a number of commits to go back", ErrUnknownEdit, name)
		}
		base = name[:i]
	}
	if tip.IsZero() {
		return Commit{}, fmt.Errorf("%w %q: session %q has no commits", ErrUnknownEdit, name, s.SessionName())
	}
	n, err := s.Len(tip)
	if err != nil {
		return Commit{}, err
	}
	// at counts back from the tip (0: the tip), as `git log` lists them.
	at := -1
	switch {
	case base == "tip" || base == s.SessionName() || base == s.Ref():
		at = 0
	case len(base) >= 4 && plumbing.IsHash(base+strings.Repeat("0", 40-min(len(base), 40))):
		seqs, err := s.Matching(tip, strings.ToLower(base))
		if err != nil {
			return Commit{}, err
		}
		if len(seqs) > 1 {
			return Commit{}, fmt.Errorf("%w %q: it is ambiguous in session %q; give more digits", ErrUnknownEdit, name, s.SessionName())
		}
		if len(seqs) == 1 {
			at = n - 1 - seqs[0]
		}
	}
	if at < 0 {
		return Commit{}, fmt.Errorf("%w %q in session %q; give a commit id from `%s`", ErrUnknownEdit, name, s.SessionName(), session.Hint(s.SessionName(), "log"))
	}
	if at+back >= n {
		return Commit{}, fmt.Errorf("%w %q: session %q has only %d commits before it", ErrUnknownEdit, name, s.SessionName(), n-at-1)
	}
	c, err := s.CommitAt(tip, n-1-at)
	if err != nil {
		return Commit{}, err
	}
	// ~N follows first parents from there, as git does: what it reaches
	// is the commits' own link, whatever a cache says of positions.
	for i := 0; i < back; i++ {
		var p Commit
		ok := false
		if !c.Parent.IsZero() {
			if p, ok, err = s.ReadCommit(c.Parent); err != nil {
				return Commit{}, err
			}
		}
		if !ok {
			return Commit{}, fmt.Errorf("%w %q: session %q has only %d commits before it", ErrUnknownEdit, name, s.SessionName(), i)
		}
		c = p
	}
	return c, nil
}
