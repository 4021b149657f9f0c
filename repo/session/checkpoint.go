package session

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// ErrBadLabel is returned for a turn id or checkpoint name that cannot be
// recorded as one trailer, or read back unambiguously.
var ErrBadLabel = errors.New("invalid name")

// turnKey is the context key of WithTurn.
type turnKey struct{}

// WithTurn returns ctx carrying turn: the session's changes made under it
// (edits, records; not syncs, undos, redos, rollbacks) are recorded with
// Edit-Turn: turn. The turn is request-scoped (an MCP server serves the
// turns of its client's conversation with one session), hence the
// context. turn must be valid (ValidateTurn); "" carries none.
func WithTurn(ctx context.Context, turn string) context.Context {
	return context.WithValue(ctx, turnKey{}, turn)
}

// TurnOf is the turn ctx carries (WithTurn), or "".
func TurnOf(ctx context.Context) string {
	t, _ := ctx.Value(turnKey{}).(string)
	return t
}

// ErrCheckpointExists: the session has a checkpoint of that name already.
var ErrCheckpointExists = errors.New("checkpoint exists")

// maxLabel bounds a turn id or checkpoint name, in bytes: hosts name
// turns by UUIDs or counters, people name checkpoints by a word or two.
const maxLabel = 128

// ValidateTurn checks a turn id: 1 to 128 bytes of UTF-8 text, no
// control characters, no leading or trailing space. The error wraps
// ErrBadLabel and says what to use.
func ValidateTurn(turn string) error {
	if err := validateLabel(turn); err != nil {
		return fmt.Errorf("%w: turn %q %s; give the turn's id as the host names it, such as a number or a UUID", ErrBadLabel, turn, err.Error())
	}
	return nil
}

// ValidateCheckpoint checks a checkpoint name: as a turn id, and besides
// no space, no ':' and no '~' (rollback --to reads "checkpoint:NAME" and
// "EDIT~N"), not starting with '-'.
func ValidateCheckpoint(name string) error {
	err := validateLabel(name)
	switch {
	case err != nil:
	case strings.HasPrefix(name, "-"):
		err = errors.New("starts with '-'")
	case strings.ContainsFunc(name, func(r rune) bool { return unicode.IsSpace(r) || r == ':' || r == '~' }):
		err = errors.New("holds a space, ':' or '~'")
	}
	if err != nil {
		return fmt.Errorf("%w: checkpoint name %q %s; use letters, digits, '-', '_' or '.', such as before-refactor", ErrBadLabel, name, err.Error())
	}
	return nil
}

func validateLabel(s string) error {
	switch {
	case s == "":
		return errors.New("is empty")
	case len(s) > maxLabel:
		return fmt.Errorf("is longer than %d bytes", maxLabel)
	case !utf8.ValidString(s):
		return errors.New("is not UTF-8")
	case strings.ContainsFunc(s, unicode.IsControl):
		return errors.New("holds a control character")
	case strings.TrimSpace(s) != s:
		return errors.New("starts or ends with a space")
	}
	return nil
}

// Checkpoint marks the session's current state as one commit of
// Edit-Op: checkpoint on its ref, named name ("" for an unnamed one): the
// tree of the tip (or of HEAD, for a session without commits), no path
// changed. The ref only grows, so the mark is in the log, pushed and
// pruned with the session, and rollback --to returns to it. A name the
// session has given a checkpoint already is refused (ErrCheckpointExists),
// as git refuses a tag that exists. dry checks all that under the lock and
// records nothing: the Commit returned then has no Hash.
func (s *Session) Checkpoint(ctx context.Context, name string, dry bool) (Commit, error) {
	if err := s.checkWritable(); err != nil {
		return Commit{}, err
	}
	if name != "" {
		if err := ValidateCheckpoint(name); err != nil {
			return Commit{}, err
		}
	}
	// A dry run takes the lock shared, as Preview does: it creates no
	// file and writes nothing.
	lock := s.Repo.Lock
	if dry {
		lock = s.Repo.LockShared
	}
	unlock, err := lock(ctx)
	if err != nil {
		return Commit{}, err
	}
	defer unlock()
	if err := s.checkOwner(!dry); err != nil {
		return Commit{}, err
	}
	tip, err := s.Tip()
	if err != nil {
		return Commit{}, err
	}
	if name != "" {
		// The history index names the checkpoints of that name: the
		// session is not walked.
		commits, err := s.CheckpointsNamed(tip, name)
		if err != nil {
			return Commit{}, err
		}
		for _, c := range commits {
			if c.Meta.Op == OpCheckpoint && c.Meta.Checkpoint == name {
				return Commit{}, fmt.Errorf("%w: session %q has a checkpoint named %s already (%s); choose another name, or roll back to it with `%s`",
					ErrCheckpointExists, s.Name, name, c.Short(), Hint(s.Name, "rollback", "--to", name))
			}
		}
	}
	parent := tip
	if parent.IsZero() {
		if parent, err = s.Repo.ReadRef("HEAD"); err != nil {
			return Commit{}, err
		}
	}
	meta := Meta{Op: OpCheckpoint, Session: s.Name, Checkpoint: name}
	subject := "checkpoint"
	if name != "" {
		subject += " " + name
	}
	if err := ctx.Err(); err != nil {
		return Commit{}, err
	}
	now := time.Now()
	if dry {
		return Commit{Parent: parent, Subject: subject, Time: now, Meta: meta}, nil
	}
	// The commit goes into a kept pack, as every operation's objects do,
	// so that a concurrent `git gc --prune=now` cannot remove it before
	// the ref names it.
	batch := s.Repo.BeginBatch()
	defer batch.End()
	h, err := s.commit(parent, nil, meta, subject, "", now)
	if err != nil {
		return Commit{}, err
	}
	if err := batch.Flush(); err != nil {
		return Commit{}, err
	}
	if err := s.Repo.UpdateRef(s.Ref(), tip, h, subject); err != nil {
		batch.Release()
		if cur, rerr := s.Repo.ReadRef(s.Ref()); rerr == nil && cur == h {
			s.wrote(tip)
			return Commit{Hash: h, Parent: parent, Subject: subject, Time: now, Meta: meta}, nil // the update happened; only a later step failed
		}
		return Commit{}, err
	}
	batch.Release()
	s.wrote(tip)
	return Commit{Hash: h, Parent: parent, Subject: subject, Time: now, Meta: meta}, nil
}
