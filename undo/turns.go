package undo

import (
	"errors"
	"fmt"
	"strings"

	"github.com/git-edit/git-edit/repo/session"
	"github.com/go-git/go-git/v5/plumbing"
)

// ErrAmbiguous: a name given to rollback --to names more than one thing
// (an edit, a checkpoint, a turn); the refusal says how to name one.
var ErrAmbiguous = errors.New("ambiguous name")

// TurnReversals is what `undo --turn turn` takes back: every change the
// session made in that turn (edits and records carrying Edit-Turn: turn),
// newest first, each for its paths still in effect at tip. A turn the
// session never recorded is refused with ErrUnknownEdit, a turn whose
// changes are all undone already with ErrNothingToUndo naming the undo.
// The edits are named by the turn, so undo depth does not apply, as it
// does not to an edit named by its id. An empty or malformed turn id is
// refused with session.ErrBadLabel: "" would name every commit without a
// turn.
func TurnReversals(s Store, tip plumbing.Hash, turn string) ([]Reversal, error) {
	if err := session.ValidateTurn(turn); err != nil {
		return nil, fmt.Errorf("%w; nothing was changed", err)
	}
	commits, err := s.TurnCommits(tip, turn)
	if err != nil {
		return nil, err
	}
	var out []Reversal
	found := 0
	var by plumbing.Hash
	for _, c := range commits {
		if !session.IsChange(c.Meta.Op) || c.Meta.Turn != turn {
			continue
		}
		found++
		r := Reversal{Target: Target{Commit: c.Hash, Meta: c.Meta}}
		for _, p := range c.Meta.Paths {
			ok, b, err := InEffect(s, tip, c.Hash, p)
			if err != nil {
				return nil, err
			}
			if ok {
				r.Paths = append(r.Paths, p)
			} else if by.IsZero() {
				by = b
			}
		}
		if len(r.Paths) > 0 {
			out = append(out, r)
		}
	}
	switch {
	case found == 0:
		return nil, fmt.Errorf("%w: session %q has no edit of turn %s; `%s` shows the turns", ErrUnknownEdit, s.SessionName(), turn, session.Hint(s.SessionName(), "log"))
	case len(out) == 0:
		return nil, fmt.Errorf("%w: every edit of turn %s was undone already (by %s); re-apply it with `%s`", ErrNothingToUndo, turn, short(by), session.Hint(s.SessionName(), "redo", short(by)))
	}
	return out, nil
}

// Kinds of thing rollback --to names.
const (
	ToEdit       = "edit"
	ToTurn       = "turn"
	ToCheckpoint = "checkpoint"
)

// ResolveTo finds the commit `rollback --to name` returns to, and what
// name named (ToEdit, ToTurn, ToCheckpoint): an edit as Resolve reads it
// (the state right after it); a checkpoint's name; a turn's id, for the
// state right after the turn's newest commit. "turn:T" and
// "checkpoint:NAME" say which. A bare name that names two different
// commits as two kinds is refused with ErrAmbiguous; one that names
// nothing with ErrUnknownEdit, saying what names are read. An empty or
// malformed turn id or checkpoint name after "turn:" or "checkpoint:" is
// refused with session.ErrBadLabel, and a bare name is never read as one
// of those: commits without a turn, and unnamed checkpoints, carry "",
// which no name may match.
func ResolveTo(s Store, tip plumbing.Hash, name string) (Commit, string, error) {
	kind, bare := "", name
	if k, rest, ok := strings.Cut(name, ":"); ok && (k == ToTurn || k == ToCheckpoint) {
		kind, bare = k, rest
	}
	turnOK, cpOK := session.ValidateTurn(bare), session.ValidateCheckpoint(bare)
	switch {
	case kind == ToTurn && turnOK != nil:
		return Commit{}, "", fmt.Errorf("%w; nothing was changed", turnOK)
	case kind == ToCheckpoint && cpOK != nil:
		return Commit{}, "", fmt.Errorf("%w; nothing was changed", cpOK)
	}
	var found []Commit
	var kinds []string
	add := func(c Commit, k string) {
		for _, f := range found {
			if f.Hash == c.Hash {
				return // one commit under two names is still one place
			}
		}
		found, kinds = append(found, c), append(kinds, k)
	}
	if kind == "" {
		if c, err := Resolve(s, tip, name); err == nil {
			add(c, ToEdit)
		} else if !errors.Is(err, ErrUnknownEdit) {
			return Commit{}, "", err
		}
	}
	// The history index names the commits of a checkpoint or turn: the
	// session is not walked.
	if cpOK == nil && kind != ToTurn {
		cps, err := s.CheckpointsNamed(tip, bare)
		if err != nil {
			return Commit{}, "", err
		}
		if len(cps) > 0 {
			add(cps[0], ToCheckpoint)
		}
	}
	if turnOK == nil && kind != ToCheckpoint {
		commits, err := s.TurnCommits(tip, bare)
		if err != nil {
			return Commit{}, "", err
		}
		if len(commits) > 0 {
			add(commits[0], ToTurn) // newest first: the turn's last commit
		}
	}
	switch len(found) {
	case 1:
		return found[0], kinds[0], nil
	case 0:
		log := session.Hint(s.SessionName(), "log")
		what := "an edit (a commit id from `" + log + "`), a checkpoint's name or a turn's id"
		switch kind {
		case ToTurn:
			what = "a turn's id, as `" + log + "` shows the turns"
		case ToCheckpoint:
			what = "a checkpoint's name, as `" + log + "` shows them"
		}
		return Commit{}, "", fmt.Errorf("%w %q in session %q; give %s", ErrUnknownEdit, name, s.SessionName(), what)
	}
	var names []string
	for i, c := range found {
		n := fmt.Sprintf("%s:%s", kinds[i], bare)
		if kinds[i] == ToEdit {
			n = c.Hash.String()
		}
		names = append(names, fmt.Sprintf("%s (%s)", n, short(c.Hash)))
	}
	return Commit{}, "", fmt.Errorf("%w: %q names %s in session %q; nothing was changed. Say which: %s",
		ErrAmbiguous, name, strings.Join(kinds, " and "), s.SessionName(), strings.Join(names, " or "))
}
