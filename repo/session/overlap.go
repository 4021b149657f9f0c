package session

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/git-edit/git-edit/repo"
	"github.com/go-git/go-git/v5/plumbing"
)

// Sessions overlap when two of them change the same file: each then edits
// bytes the other wrote, and an undo of one may take the other's work with
// it. An edit says so (Overlaps), and so does the list of sessions
// (Shared).
//
// Another session's change to a path is in effect when the session's tip
// records the path otherwise than its base does, and the last commit of
// the session that changed the path is an edit (or a redo, or any later
// kind of change), not a sync, an undo or a rollback: a session whose
// change was undone or rolled back, or that only recorded bytes others
// wrote (a sync), has no change of its own there.

// Overlap is another session's change to a path, still in effect.
type Overlap struct {
	Session string
	Path    string
	// Edit is the other session's last commit that changed Path.
	Edit plumbing.Hash
}

// MaxOverlapSessions bounds how many other sessions an edit's overlap
// check reads: the most recently updated ones (see Overlaps). An edit's
// cost stays the same however many sessions a repository keeps.
const MaxOverlapSessions = 16

// Others caches the sessions of a repository that an overlap check reads,
// so that a long-running process (the MCP server) keeps each one's history
// index in memory between edits instead of reading it again. The zero
// value is ready; it is safe for concurrent use.
//
// It also remembers each session's answers for the tip they were given
// for: a session that recorded nothing since the last edit costs one
// look-up.
type Others struct {
	mu       sync.Mutex
	sessions map[string]*Session
	answers  map[string]*answers
}

// answers are InEffect's for one tip of a session, by path; a path absent
// is not asked yet, a zero hash means no change in effect.
type answers struct {
	tip   plumbing.Hash
	paths map[string]plumbing.Hash
}

// inEffect is s.InEffect through the remembered answers of others.
func (o *Others) inEffect(s *Session, tip plumbing.Hash, paths []string) (map[string]plumbing.Hash, error) {
	o.mu.Lock()
	a := o.answers[s.Name]
	if a == nil || a.tip != tip {
		a = &answers{tip: tip, paths: map[string]plumbing.Hash{}}
		if o.answers == nil {
			o.answers = map[string]*answers{}
		}
		o.answers[s.Name] = a
	}
	found := map[string]plumbing.Hash{}
	var ask []string
	for _, p := range paths {
		h, known := a.paths[p]
		switch {
		case !known:
			ask = append(ask, p)
		case !h.IsZero():
			found[p] = h
		}
	}
	o.mu.Unlock()
	if len(ask) == 0 {
		return found, nil
	}
	got, err := s.InEffect(tip, ask)
	if err != nil {
		return nil, err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, p := range ask {
		a.paths[p] = got[p] // zero when not in effect
		if h, ok := got[p]; ok {
			found[p] = h
		}
	}
	return found, nil
}

func (o *Others) get(r *repo.Repo, name string) (*Session, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if s, ok := o.sessions[name]; ok && s.Repo == r {
		return s, nil
	}
	delete(o.answers, name)
	s, err := New(r, name)
	if err != nil {
		return nil, err
	}
	if o.sessions == nil {
		o.sessions = map[string]*Session{}
	}
	o.sessions[name] = s
	return s, nil
}

// Overlaps finds, for paths the session s just changed, the other
// sessions whose changes to them are still in effect (see above), in the
// order of paths, then of the sessions' names. It reads at most
// MaxOverlapSessions other sessions, the most recently updated first: by
// the time of their ref's file (a ref only in packed-refs, which git
// pack-refs wrote, counts as the oldest). Per session it costs the
// session's history index (index.go; cached in others) and the trees
// along the paths, never a walk of its commits. A session that cannot be
// read (a broken one) is left out: the note is advice, and the edit it
// follows has already happened.
func (s *Session) Overlaps(others *Others, paths []string) ([]Overlap, error) {
	if len(paths) == 0 {
		return nil, nil
	}
	refs, err := s.Repo.ListRefs(refPrefix)
	if err != nil {
		return nil, err
	}
	type cand struct {
		name string
		tip  plumbing.Hash
		at   time.Time
	}
	var cands []cand
	for _, ref := range refs {
		name := strings.TrimPrefix(ref.Name, refPrefix)
		if name == s.Name || ValidateName(name) != nil || ref.Hash.IsZero() {
			continue
		}
		c := cand{name: name, tip: ref.Hash}
		if fi, err := os.Lstat(filepath.Join(s.Repo.CommonDir, filepath.FromSlash(ref.Name))); err == nil {
			c.at = fi.ModTime()
		}
		cands = append(cands, c)
	}
	slices.SortFunc(cands, func(a, b cand) int {
		if c := b.at.Compare(a.at); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	cands = cands[:min(len(cands), MaxOverlapSessions)]
	slices.SortFunc(cands, func(a, b cand) int { return strings.Compare(a.name, b.name) })

	var out []Overlap
	found := make([]map[string]plumbing.Hash, len(cands))
	for i, c := range cands {
		o, err := others.get(s.Repo, c.name)
		if err != nil {
			continue
		}
		if found[i], err = others.inEffect(o, c.tip, paths); err != nil {
			found[i] = nil // broken or unreadable: no note
		}
	}
	for _, p := range paths {
		for i, c := range cands {
			if h, ok := found[i][p]; ok {
				out = append(out, Overlap{Session: c.name, Path: p, Edit: h})
			}
		}
	}
	return out, nil
}

// InEffect returns, for each of paths on which the session's changes up to
// tip are still in effect (see above), the session's last commit that
// changed it. It reads the history index and, for a path the session
// touched, the trees of tip and of the base along the path and the commit
// of the last touch.
func (s *Session) InEffect(tip plumbing.Hash, paths []string) (map[string]plumbing.Hash, error) {
	var found map[string]plumbing.Hash
	err := s.withIndex(tip, func(v view) error {
		found = map[string]plumbing.Hash{}
		if v.lim < 0 {
			return nil
		}
		var tree, base plumbing.Hash
		for _, p := range paths {
			t := v.x.touches[p]
			if t == nil || t.first > v.lim {
				continue
			}
			if tree.IsZero() {
				var err error
				if tree, err = s.Repo.TreeOf(tip); err != nil {
					return err
				}
				if base, err = s.Repo.TreeOf(v.x.base); err != nil {
					return err
				}
			}
			now, err := s.Repo.EntryAt(tree, p)
			if err != nil {
				return err
			}
			was, err := s.Repo.EntryAt(base, p)
			if err != nil {
				return err
			}
			if now == was {
				continue // undone, rolled back, or changed back by hand
			}
			c := t.lastHash
			if t.last > v.lim {
				if c, err = s.chainBack(v, p, c); err != nil {
					return err
				}
			}
			commit, ok, err := s.ReadCommit(c)
			if err != nil {
				return err
			}
			if !ok || !commit.Meta.Touches(p) {
				return errIndexStale
			}
			switch commit.Meta.Op {
			case OpSync, OpUndo, OpRollback:
				continue
			}
			found[p] = c
		}
		return nil
	})
	if errors.Is(err, errIndexStale) {
		return nil, nil // twice wrong: no note rather than a wrong one
	}
	return found, err
}

// SharedPath is a path on which the changes of two or more sessions are
// in effect.
type SharedPath struct {
	Path     string
	Sessions []string // sorted
}

// Shared lists the paths on which the changes of two or more of the
// sessions summarized in sums are in effect (see above), sorted by path.
// It reads every session with edits that is not broken: its cost is the
// paths the sessions touched, as the listing's.
func Shared(r *repo.Repo, sums []Summary) ([]SharedPath, error) {
	by := map[string][]string{}
	for _, sum := range sums {
		if sum.Broken != nil || sum.ReadOnly || sum.Tip.IsZero() {
			continue
		}
		s, err := New(r, sum.Name)
		if err != nil {
			continue
		}
		found, err := s.InEffect(sum.Tip, sum.Paths)
		if err != nil {
			if errors.Is(err, ErrBroken) {
				continue
			}
			return nil, err
		}
		for p := range found {
			by[p] = append(by[p], sum.Name)
		}
	}
	var out []SharedPath
	for p, names := range by {
		if len(names) < 2 {
			continue
		}
		slices.Sort(names)
		out = append(out, SharedPath{Path: p, Sessions: names})
	}
	slices.SortFunc(out, func(a, b SharedPath) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}
