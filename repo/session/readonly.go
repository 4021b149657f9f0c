package session

import (
	"context"
	"fmt"
)

// ForgetIfReadOnly removes the state of a session that has no ref (it
// only read files: its read-before-edit records, see Summary.ReadOnly),
// and reports whether it did. A session with a ref (one edit is enough)
// is left exactly as it is. It runs under the edit lock, so an edit of the
// session that lands meanwhile either comes first (and the state is kept)
// or finds no read records (and is refused as not read, never lost).
//
// An MCP server calls it at exit for the session it named itself: no
// other process can name that session, so its read records are of no use
// once the server ends, and they would only clutter `git edit sessions`.
func ForgetIfReadOnly(ctx context.Context, s *Session) (bool, error) {
	unlock, err := s.Repo.Lock(ctx)
	if err != nil {
		return false, err
	}
	defer unlock()
	tip, err := s.Repo.ReadRef(s.Ref())
	if err != nil {
		return false, err
	}
	if !tip.IsZero() {
		return false, nil
	}
	if err := s.RemoveState(); err != nil {
		return false, fmt.Errorf("remove the read records of session %s, which made no edit: %w", s.Name, err)
	}
	return true, nil
}
