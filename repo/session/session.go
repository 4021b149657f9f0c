// Package session is git-edit's record of edits, above the plumbing of
// package repo. It owns what a session is (its name, its hidden ref
// refs/edits/<name>, its tip), the transaction every operation runs in
// (Apply: read under the edit lock, plan, record outside changes as a sync
// commit or refuse them, store, write the files all or nothing, move the
// ref), the trailers a session commit carries (Meta), the read-before-edit
// records, and the questions about all sessions of a repository: the list
// with each one's summary, and prune.
//
// It never interprets the text of a file: the dialects (under ops/, run by
// package ops) plan the changes, and the history questions (package undo)
// read the commits it writes.
package session

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/git-edit/git-edit/repo"
	"github.com/go-git/go-git/v5/plumbing"
)

// ErrBadName is returned for a session name that cannot be one component
// of a git ref name.
var ErrBadName = errors.New("invalid session name")

// ErrFetched is returned when a command that writes is given a fetched
// session (see IsFetched): another person's session is read-only here.
var ErrFetched = errors.New("fetched session is read-only")

// refPrefix is where session refs live.
const refPrefix = "refs/edits/"

// FetchedPrefix is where `git edit fetch` keeps the sessions it fetched:
// refs/edits-remote/<remote>/<owner>/<session>, a namespace no writing
// command touches.
const FetchedPrefix = "refs/edits-remote/"

// RefName is the hidden ref that records the session name's edits: for a
// fetched session's name (<remote>/<owner>/<session>), its copy under
// FetchedPrefix.
func RefName(name string) string {
	if IsFetched(name) {
		return FetchedPrefix + name
	}
	return refPrefix + name
}

// IsFetched reports whether name is a fetched session's name,
// <remote>/<owner>/<session>: the only session names with a "/".
func IsFetched(name string) bool { return strings.Contains(name, "/") }

// ValidateReadName accepts what ValidateName accepts and a fetched
// session's name, <remote>/<owner>/<session>, each part a valid session
// name: the names a command that only reads may be given.
func ValidateReadName(name string) error {
	if !IsFetched(name) {
		return ValidateName(name)
	}
	parts := strings.Split(name, "/")
	if len(parts) != 3 {
		return fmt.Errorf("%w %q: a fetched session is named <remote>/<owner>/<session>; `git edit sessions` lists them", ErrBadName, name)
	}
	for _, p := range parts {
		if err := ValidateName(p); err != nil {
			return fmt.Errorf("%w %q: %q is not a valid part of <remote>/<owner>/<session>", ErrBadName, name, p)
		}
	}
	return nil
}

// fetchedError refuses a write to a fetched session.
func fetchedError(name string) error {
	return fmt.Errorf("%w: session %s is a copy of another person's session, fetched by `git edit fetch` into %s; "+
		"log, show, diff and blame read it, nothing writes it. Edit in a session of your own (--session NAME)", ErrFetched, name, RefName(name))
}

// checkWritable refuses, before anything is read or written, a session
// that is a fetched copy (wrapping ErrFetched).
func (s *Session) checkWritable() error {
	if IsFetched(s.Name) {
		return fetchedError(s.Name)
	}
	return nil
}

// ValidateName accepts names git accepts as one ref component
// (git check-ref-format), without "/": a session is one ref, never a
// directory of them. The error wraps ErrBadName and says what to use; for
// a fetched session's name (see ValidateReadName) it wraps ErrFetched
// instead: the names of sessions that may be written.
func ValidateName(name string) error {
	if IsFetched(name) && ValidateReadName(name) == nil {
		return fetchedError(name)
	}
	bad := func(why string) error {
		return fmt.Errorf("%w %q: %s; use letters, digits, '-', '_' or '.'", ErrBadName, name, why)
	}
	switch {
	case name == "":
		return bad("it is empty")
	case name == "@":
		return bad(`"@" alone is not a ref name`)
	case strings.HasPrefix(name, "."), strings.HasPrefix(name, "-"):
		return bad("it may not start with '.' or '-'")
	case strings.HasSuffix(name, "."), strings.HasSuffix(name, ".lock"):
		return bad("it may not end with '.' or \".lock\"")
	case strings.Contains(name, ".."), strings.Contains(name, "@{"):
		return bad(`it may not contain ".." or "@{"`)
	case strings.ContainsAny(name, " ~^:?*[\\/"):
		return bad(`it may not contain spaces or any of ~ ^ : ? * [ \ /`)
	case strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return bad("it may not contain control characters")
	}
	return nil
}

// Session records edits on refs/edits/<Name>.
type Session struct {
	Repo *repo.Repo
	Name string
	// MaxFileSize bounds the files read for editing (0: no bound).
	MaxFileSize int64
	// LineStat, when set, counts the lines a change adds and removes,
	// from the blobs before and after as stored; Apply records the counts
	// in the commit (Edit-Stat) so that logs never diff blobs again. The
	// engine sets it: the session never interprets text itself.
	LineStat func(before, after []byte) (added, removed int)

	// idx caches the history index (see index.go), guarded by idxMu.
	idxMu sync.Mutex
	idx   *histIndex
	// commits keeps parsed commits by id (see ReadCommit).
	commits commitCache
}

// New checks the name (ValidateReadName: a fetched session may be read,
// its writes are refused with ErrFetched) and returns a session of r that reads
// files up to repo.DefaultMaxFileSize. The first session made of r clears
// the ref locks that dead git-edit processes left on any session
// (repo.ClearDeadRefLocks): a killed git-edit's lock makes the person's
// `git gc` fail, and its own session may never be written again.
func New(r *repo.Repo, name string) (*Session, error) {
	if err := ValidateReadName(name); err != nil {
		return nil, err
	}
	r.ClearDeadRefLocks()
	return &Session{Repo: r, Name: name, MaxFileSize: repo.DefaultMaxFileSize}, nil
}

// Ref is the session's ref name.
func (s *Session) Ref() string { return RefName(s.Name) }

// RecordedName is the name the session's commits record (Edit-Session):
// s.Name, or for a fetched session (<remote>/<owner>/<session>) the name
// it has in its owner's clone, its last part.
func (s *Session) RecordedName() string {
	return s.Name[strings.LastIndexByte(s.Name, '/')+1:]
}

// SessionName is s.Name, as a method so that readers of a session's
// history can take an interface (undo.Store) rather than a *Session.
func (s *Session) SessionName() string { return s.Name }

// ErrBroken: a session's history names a commit that is not in the
// repository; see BrokenError.
var ErrBroken = errors.New("session is broken")

// BrokenError is a session whose ref (Tip) or history names Commit, which
// the repository does not have: `git gc --prune=now` removed it while
// nothing referenced it, or the object store is damaged. Nothing can be
// read from or added to such a session, and git gc refuses to run while
// the ref exists; the way out is deleting the session ref.
type BrokenError struct {
	Session string
	Commit  plumbing.Hash
	Tip     bool // Commit is the one the ref names, not an older one
	// Type is set when the ref names an object that is there but is no
	// commit ("tag", "tree", "blob"): git-edit never writes such a ref; a
	// push or fetch of a tag into refs/edits/ leaves one.
	Type string
}

func (e *BrokenError) Error() string {
	if e.Type != "" {
		return fmt.Sprintf("session %s: %s names a %s (object %s), not a commit: git-edit did not write it (a push or fetch of a tag into refs/edits/ leaves one); "+
			"remove it with `%s`, or move it with git update-ref", e.Session, RefName(e.Session), e.Type, e.Commit, Hint(e.Session, "prune"))
	}
	where := "commit " + e.Commit.String() + ", in the history of " + RefName(e.Session) + ","
	if e.Tip {
		where = RefName(e.Session) + " names commit " + e.Commit.String() + ", which"
	}
	return fmt.Sprintf("session %s: %s is missing from the repository (removed by `git gc --prune=now` or corrupted); "+
		"remove the session with `%s`, then start again", e.Session, where, Hint(e.Session, "prune"))
}

// Unwrap makes errors.Is(err, ErrBroken) hold.
func (e *BrokenError) Unwrap() error { return ErrBroken }

// Tip returns the commit the session's ref points to, the zero hash if
// there is no such ref. A ref naming a commit the repository does not have
// fails with a *BrokenError, so that every command says what is wrong and
// how to get out of it instead of "object not found".
func (s *Session) Tip() (plumbing.Hash, error) {
	tip, err := s.Repo.ReadRef(s.Ref())
	if err != nil || tip.IsZero() {
		return tip, err
	}
	typ, err := s.Repo.ObjectType(tip)
	switch {
	case errors.Is(err, plumbing.ErrObjectNotFound):
		return plumbing.ZeroHash, &BrokenError{Session: s.Name, Commit: tip, Tip: true}
	case err != nil:
		return plumbing.ZeroHash, fmt.Errorf("read %s: %w", s.Ref(), err)
	case typ != plumbing.CommitObject:
		return plumbing.ZeroHash, &BrokenError{Session: s.Name, Commit: tip, Tip: true, Type: typ.String()}
	}
	return tip, nil
}

// All returns every session of r: the refs under refs/edits/ whose names
// git-edit accepts, sorted by name. Refs git-edit did not write are left
// out, so that one of them never fails a question about all sessions (log
// --all, show): those whose names it would not accept, and those that name
// an object that is there but is no commit (a tag pushed or fetched into
// refs/edits/); List reports the latter, with how to remove them.
func All(r *repo.Repo) ([]*Session, error) {
	sessions, err := all(r)
	if err != nil {
		return nil, err
	}
	out := sessions[:0]
	for _, s := range sessions {
		if _, err := s.Tip(); notCommit(err) {
			continue
		}
		out = append(out, s)
	}
	return out, nil
}

// Fetched returns the sessions `git edit fetch` brought from other
// people (refs under FetchedPrefix, named <remote>/<owner>/<session>),
// sorted by name, leaving out refs whose names are no such name or that
// name no commit, as All does. They are read-only: every write refuses
// them with ErrFetched.
func Fetched(r *repo.Repo) ([]*Session, error) {
	refs, err := r.ListRefs(FetchedPrefix)
	if err != nil {
		return nil, err
	}
	var out []*Session
	for _, ref := range refs {
		name := strings.TrimPrefix(ref.Name, FetchedPrefix)
		if ValidateReadName(name) != nil || !IsFetched(name) {
			continue
		}
		s, err := New(r, name)
		if err != nil {
			continue
		}
		if _, err := s.Tip(); notCommit(err) {
			continue
		}
		out = append(out, s)
	}
	return out, nil
}

// notCommit reports a *BrokenError for a ref naming an object that is no
// commit.
func notCommit(err error) bool {
	var broken *BrokenError
	return errors.As(err, &broken) && broken.Type != ""
}

// all is All with the refs that name no commit.
func all(r *repo.Repo) ([]*Session, error) {
	refs, err := r.ListRefs(refPrefix)
	if err != nil {
		return nil, err
	}
	var out []*Session
	for _, ref := range refs {
		name := strings.TrimPrefix(ref.Name, refPrefix)
		if ValidateName(name) != nil {
			continue // a ref git-edit would not have written (a/b/c is no own session)
		}
		s, err := New(r, name)
		if err != nil {
			continue
		}
		out = append(out, s)
	}
	return out, nil
}

// stateDir is where the session keeps what it keeps besides its ref (the
// read-before-edit records).
func (s *Session) stateDir() string {
	if IsFetched(s.Name) {
		return filepath.Join(s.Repo.StateDir(), "sessions-fetched", filepath.FromSlash(s.Name))
	}
	return filepath.Join(s.Repo.StateDir(), "sessions", s.Name)
}

// RemoveState deletes what git-edit keeps for the session besides its ref
// (the read-before-edit records); there being none is no error.
func (s *Session) RemoveState() error {
	return os.RemoveAll(s.stateDir())
}
