package session

import (
	"errors"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
)

// Commit is one session commit and what it says about itself.
type Commit struct {
	Hash    plumbing.Hash
	Parent  plumbing.Hash // zero for a session's first commit on an unborn branch
	Subject string
	Time    time.Time
	Meta    Meta
}

// Short is the commit's abbreviated id, as git shows it.
func (c Commit) Short() string { return c.Hash.String()[:7] }

// ReadCommit reads one commit of the session's history; ok is false when
// it is not a commit of this session (the HEAD commit a session starts
// from, for instance). A commit the repository does not have fails with a
// *BrokenError: h came from the session's ref or its history, so the
// session is broken, and the error says how to remove it.
func (s *Session) ReadCommit(h plumbing.Hash) (c Commit, ok bool, err error) {
	commit, err := s.Repo.ReadCommit(h)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return Commit{}, false, &BrokenError{Session: s.Name, Commit: h}
	}
	if err != nil {
		return Commit{}, false, err
	}
	meta, isEdit := ParseMeta(commit.Message)
	c = Commit{Hash: h, Meta: meta, Time: commit.Committer.When}
	c.Subject, _, _ = strings.Cut(commit.Message, "\n")
	if len(commit.ParentHashes) > 0 {
		c.Parent = commit.ParentHashes[0]
	}
	return c, isEdit && meta.Session == s.Name, nil
}

// Commits returns every commit of the session from tip back to its first,
// newest first, following first parents.
func (s *Session) Commits(tip plumbing.Hash) ([]Commit, error) {
	var out []Commit
	for h := tip; !h.IsZero(); {
		c, ok, err := s.ReadCommit(h)
		if err != nil {
			return nil, err
		}
		if !ok {
			break
		}
		out = append(out, c)
		h = c.Parent
	}
	return out, nil
}
