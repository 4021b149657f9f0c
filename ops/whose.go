package ops

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/git-edit/git-edit/repo/session"
	"github.com/git-edit/git-edit/undo"
	"github.com/go-git/go-git/v5/plumbing"
)

// OtherSessions says whose change a sync commit of path holds: another
// session's edit reaches this session only as a sync commit, as a change by
// hand does. It names the other sessions ("b (1234567)") whose newest
// change to path at or before until (zero: no bound) is at or after since,
// and reports whether one of them left path exactly as sync records it:
// then the sync holds nothing but sessions' edits. Commit times have
// seconds, so a session whose edit came in the same second as since is
// named too. A question it cannot answer names nobody.
func (e *Engine) OtherSessions(path string, since, until time.Time, sync plumbing.Hash) (names []string, recorded bool) {
	synced, err := e.Repo.FileAt(sync, path)
	if err != nil {
		return nil, false
	}
	all, err := session.All(e.Repo)
	if err != nil {
		return nil, false
	}
	for _, s := range all {
		if s.Name == e.Session.Name {
			continue
		}
		tip, err := s.Tip()
		if err != nil || tip.IsZero() {
			continue
		}
		last, err := s.LastTouches(tip, []string{path})
		if err != nil {
			continue
		}
		// The session's newest change of path the sync can hold: its
		// chain, back to the first at or before until.
		var c session.Commit
		for h := last[path]; !h.IsZero(); {
			got, _, err := s.ReadCommit(h)
			if err != nil {
				break
			}
			if until.IsZero() || !got.Time.After(until) {
				c = got
				break
			}
			h = got.Meta.Prev[path]
		}
		if c.Hash.IsZero() || c.Time.Before(since) {
			continue
		}
		names = append(names, fmt.Sprintf("%s (%s)", s.Name, c.Short()))
		if f, err := e.Repo.FileAt(c.Hash, path); err == nil && f.Exists == synced.Exists && bytes.Equal(f.Content, synced.Content) {
			recorded = true
		}
	}
	return names, recorded
}

// whoseDiscards fills in, for each discarded sync commit (and disk bytes
// once recorded as one), the other sessions whose edits it holds (see
// OtherSessions): the window is from the commit before it on the path's
// chain to the sync itself.
func (e *Engine) whoseDiscards(ds []undo.Discard) {
	for i := range ds {
		d := &ds[i]
		if d.Kind == undo.DiscardHead || d.Commit.IsZero() {
			continue
		}
		sc, _, err := e.Session.ReadCommit(d.Commit)
		if err != nil {
			continue
		}
		var since time.Time
		if prev := sc.Meta.Prev[d.Path]; !prev.IsZero() {
			if pc, _, err := e.Session.ReadCommit(prev); err == nil {
				since = pc.Time
			}
		}
		names, recorded := e.OtherSessions(d.Path, since, sc.Time, d.Commit)
		d.Sessions, d.ByHand = names, len(names) > 0 && !recorded
	}
}

// whoseRefusal fills in the discards of a rollback refused for the
// person's work (see whoseDiscards), so the refusal says whose they are.
func (e *Engine) whoseRefusal(err error) {
	var pw *undo.PersonsWorkError
	if errors.As(err, &pw) {
		e.whoseDiscards(pw.Discards)
	}
}

// ErrOtherSessionsEdit refuses an undo or redo of a commit that is another
// session's: see OtherSessionsEdit.
var ErrOtherSessionsEdit = errors.New("the edit is another session's")

// OtherSessionsEdit says which other session holds the commit name (an id
// prefix of 4 or more hex digits, as undo takes it), when this session has
// none by that name: an undo or redo of it here would otherwise read as
// "nothing left to undo". It returns "" when no other session, or more
// than one, has it, or name is no id.
func (e *Engine) OtherSessionsEdit(name string) (string, undo.Commit) {
	if len(name) < 4 || strings.Trim(strings.ToLower(name), "0123456789abcdef") != "" {
		return "", undo.Commit{}
	}
	all, err := session.All(e.Repo)
	if err != nil {
		return "", undo.Commit{}
	}
	var owner string
	var found undo.Commit
	for _, s := range all {
		if s.Name == e.Session.Name {
			continue
		}
		tip, err := s.Tip()
		if err != nil || tip.IsZero() {
			continue
		}
		c, err := undo.Resolve(s, tip, name)
		if err != nil {
			continue
		}
		if owner != "" && c.Hash != found.Hash {
			return "", undo.Commit{} // ambiguous: the refusal as it was says more
		}
		owner, found = s.Name, c
	}
	return owner, found
}

// othersMost is how many other sessions a refusal names at most.
const othersMost = 3

// othersHold adds to err, a refusal of an undo of rel (arg as the caller
// gave it) because this session has no edit of it left to undo, which
// other sessions hold an edit of rel left to undo, the session last
// written first (at most othersMost), each with the command that undoes it there: without
// them "nothing left to undo" reads as "undone already". It returns err
// as it was when no other session holds one, or they cannot be read.
func (e *Engine) othersHold(err error, arg, rel string) error {
	all, lerr := session.All(e.Repo)
	if lerr != nil {
		return err
	}
	type held struct {
		name         string
		commit, file time.Time
	}
	var hs []held
	for _, s := range all {
		if s.Name == e.Session.Name {
			continue
		}
		tip, terr := s.Tip()
		if terr != nil || tip.IsZero() {
			continue
		}
		t, ferr := undo.FindTarget(s, tip, rel, 0)
		if ferr != nil || t.Commit.IsZero() {
			continue
		}
		commit, file, uerr := s.UpdatedAt()
		if uerr != nil {
			continue
		}
		hs = append(hs, held{s.Name, commit, file})
	}
	if len(hs) == 0 {
		return err
	}
	// Newest session first, as the session rule orders them (Choose).
	slices.SortStableFunc(hs, func(a, b held) int {
		if c := b.commit.Compare(a.commit); c != 0 {
			return c
		}
		return b.file.Compare(a.file)
	})
	if len(hs) == 1 {
		return fmt.Errorf("%w; session %s holds an edit of %s: undo it there with `%s`", err, hs[0].name, arg, session.Hint(hs[0].name, "undo", arg))
	}
	var names, cmds []string
	for _, h := range hs[:min(len(hs), othersMost)] {
		names = append(names, h.name)
		cmds = append(cmds, "`"+session.Hint(h.name, "undo", arg)+"`")
	}
	more := ""
	if len(hs) > othersMost {
		more = fmt.Sprintf(" (and %d more: `git edit sessions` lists them)", len(hs)-othersMost)
	}
	return fmt.Errorf("%w; sessions %s hold edits of %s (newest first)%s: undo them there with %s", err, strings.Join(names, ", "), arg, more, strings.Join(cmds, ", "))
}
