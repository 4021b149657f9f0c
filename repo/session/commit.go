package session

import (
	"errors"
	"strings"
	"sync"
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
//
// Commits are kept by id (see commitCache): the history questions read
// the same commits again and again (each path's chain, each path's first
// touch), and decoding one costs as much as its message, which for a
// commit of many paths lists them all. The Commit returned shares its
// Meta's maps with the cache: callers must not change them.
func (s *Session) ReadCommit(h plumbing.Hash) (c Commit, ok bool, err error) {
	if e, hit := s.commits.get(h); hit {
		return e.c, e.ok, nil
	}
	c, ok, err = s.readCommit(h)
	if err == nil {
		s.commits.put(h, cachedCommit{c: c, ok: ok, size: len(c.Subject) + c.Meta.size()})
	}
	return c, ok, err
}

func (s *Session) readCommit(h plumbing.Hash) (c Commit, ok bool, err error) {
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
	return c, isEdit && meta.Session == s.RecordedName(), nil
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

// cachedCommit is one parsed commit a commitCache keeps, and its size.
type cachedCommit struct {
	c    Commit
	ok   bool
	size int
}

// commitCache keeps parsed commits by id (an id names the same bytes
// forever), up to maxCachedCommits of them and maxCachedCommitBytes of
// their trailers; past either it starts over (a reread is the only cost).
type commitCache struct {
	mu   sync.Mutex
	m    map[plumbing.Hash]cachedCommit
	size int
}

const (
	maxCachedCommits     = 4096
	maxCachedCommitBytes = 64 << 20
)

func (cc *commitCache) get(h plumbing.Hash) (cachedCommit, bool) {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	e, ok := cc.m[h]
	return e, ok
}

func (cc *commitCache) put(h plumbing.Hash, e cachedCommit) {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	if cc.m == nil || len(cc.m) >= maxCachedCommits || cc.size+e.size > maxCachedCommitBytes {
		cc.m, cc.size = map[plumbing.Hash]cachedCommit{}, 0
	}
	cc.m[h] = e
	cc.size += e.size
}
