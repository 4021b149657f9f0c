package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/git-edit/git-edit/repo"
	"github.com/go-git/go-git/v5/plumbing"
)

// OpenRepository opens the repository whose sessions the commands that
// list and prune them work on: the one dir belongs to, found as git finds
// it (see repo.Open, whose errors it returns).
func OpenRepository(dir string) (*repo.Repo, error) { return repo.Open(dir) }

// Summary is what one session did, from its history.
type Summary struct {
	Name string
	Ref  string
	// Tip is the session's newest commit; zero when its ref names no
	// session commit (or the session is broken).
	Tip plumbing.Hash
	// Commits counts the session's commits; Edits those that a dialect
	// made or record took as the session's (Edit-Op: edit or record), not
	// syncs, undos, redos or rollbacks.
	Commits, Edits int
	// Paths are the paths the session changed, in the order of their
	// first change.
	Paths []string
	// Base is the commit the session started from (HEAD at its first
	// commit); zero on an unborn branch.
	Base plumbing.Hash
	// Last is the time of the newest commit.
	Last time.Time
	// Broken is set, and every field above but Name and Ref is empty, when
	// the session's history is missing from the repository; it says what
	// is wrong and how to remove the session.
	Broken *BrokenError
	// ReadOnly is set for a session that has state under
	// <common dir>/git-edit/sessions/<name> (read-before-edit records, a
	// history index) but no ref: it only read files, or its ref was
	// deleted by hand. Ref is then "", Reads counts its read records and
	// Last is the time of the newest of them (of its directory when there
	// are none); the other fields are empty.
	ReadOnly bool
	Reads    int
}

// readOnly summarizes the sessions of r that have state but no ref (see
// Summary.ReadOnly); withRef names the sessions that have one. A directory
// whose name is not a valid session name is not git-edit's and is left
// out.
func readOnly(r *repo.Repo, withRef map[string]bool) ([]Summary, error) {
	dir := filepath.Join(r.StateDir(), "sessions")
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list the sessions' state in %s: %w", dir, err)
	}
	var out []Summary
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || withRef[name] || ValidateName(name) != nil {
			continue
		}
		sum := Summary{Name: name, Paths: []string{}, ReadOnly: true}
		if info, err := e.Info(); err == nil {
			sum.Last = info.ModTime()
		}
		seen, err := os.ReadDir(filepath.Join(dir, name, "seen"))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("list the read records of session %s: %w", name, err)
		}
		newest := time.Time{}
		for _, f := range seen {
			if strings.HasPrefix(f.Name(), ".tmp-") {
				continue // a record being written
			}
			sum.Reads++
			if info, err := f.Info(); err == nil && info.ModTime().After(newest) {
				newest = info.ModTime()
			}
		}
		if !newest.IsZero() {
			sum.Last = newest
		}
		out = append(out, sum)
	}
	return out, nil
}

// Summarize reads the session's summary from its history index (see
// index.go): its cost is its paths, not its commits. A broken session
// is no error here: its summary says so in Broken, so that listing and
// pruning still work for the others.
func (s *Session) Summarize() (Summary, error) { return s.summarize(true) }

// summarize is Summarize; without counts, it reads the tip commit only
// (Tip, Last, Broken), not the history index.
func (s *Session) summarize(counts bool) (Summary, error) {
	sum := Summary{Name: s.Name, Ref: s.Ref(), Paths: []string{}}
	tip, err := s.Tip()
	var tipCommit Commit
	isSession := false
	if err == nil && !tip.IsZero() {
		tipCommit, isSession, err = s.ReadCommit(tip)
	}
	if err == nil && !counts && isSession {
		sum.Commits = 1 // at least: the tip's
	}
	if err == nil && !tip.IsZero() && counts {
		err = s.withIndex(tip, func(v view) error {
			if v.lim != v.x.n-1 {
				return errIndexStale // the ref moved back: count again
			}
			sum.Commits, sum.Edits, sum.Base = v.lim+1, v.x.edits, v.x.base
			sum.Paths = sum.Paths[:0]
			for _, p := range v.x.paths {
				if v.x.touches[p].first <= v.lim {
					sum.Paths = append(sum.Paths, p)
				}
			}
			return nil
		})
	}
	if broken := (*BrokenError)(nil); errors.As(err, &broken) {
		return Summary{Name: s.Name, Ref: s.Ref(), Paths: []string{}, Broken: broken}, nil
	}
	if err != nil || sum.Commits == 0 {
		return Summary{Name: s.Name, Ref: s.Ref(), Paths: []string{}}, err
	}
	sum.Tip, sum.Last = tip, tipCommit.Time
	return sum, nil
}

// List summarizes every session of r, sorted by name: those with a ref
// (see All and Summarize; broken ones with Broken set) and those with
// state but no ref (ReadOnly: sessions that only read files).
func List(r *repo.Repo) ([]Summary, error) { return list(r, true) }

// Recent is List without the counts and paths (Commits is 1 for a
// session with commits, 0 otherwise): per session it reads the ref and the
// tip commit, never the history index, for choosing the most recent
// session.
func Recent(r *repo.Repo) ([]Summary, error) { return list(r, false) }

func list(r *repo.Repo, counts bool) ([]Summary, error) {
	r.ClearDeadRefLocks()
	sessions, err := all(r) // with the refs that name no commit: Broken says so
	if err != nil {
		return nil, err
	}
	sums := make([]Summary, 0, len(sessions))
	withRef := map[string]bool{}
	for _, s := range sessions {
		sum, err := s.summarize(counts)
		if err != nil {
			return nil, err
		}
		sums = append(sums, sum)
		withRef[s.Name] = true
	}
	ro, err := readOnly(r, withRef)
	if err != nil {
		return nil, err
	}
	sums = append(sums, ro...)
	slices.SortFunc(sums, func(a, b Summary) int { return strings.Compare(a.Name, b.Name) })
	return sums, nil
}

// Exists reports whether r has the session name, as List would list it:
// a ref refs/edits/<name> or state without one (a read-only session). It
// reads that one ref and that one directory, so that a command on a named
// session costs the same however many other sessions there are.
func Exists(r *repo.Repo, name string) (bool, error) {
	if err := ValidateReadName(name); err != nil {
		return false, err
	}
	tip, err := r.ReadRef(RefName(name))
	if err != nil {
		return false, err
	}
	if !tip.IsZero() || IsFetched(name) {
		// A fetched session is its ref: its state is only a cache.
		return !tip.IsZero(), nil
	}
	s := &Session{Repo: r, Name: name}
	fi, err := os.Stat(s.stateDir())
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("look for the state of session %s: %w", name, err)
	}
	return err == nil && fi.IsDir(), nil
}

// StuckLocks says, one line each, which session ref locks are left after
// the dead git-edit processes' are cleared (repo.ClearDeadRefLocks): those
// of running git-edit processes are left out; each other one is another
// program's or a crashed git's, which git-edit cannot tell from a running
// one's, and while it exists the person's `git gc` fails.
func StuckLocks(r *repo.Repo) ([]string, error) {
	r.ClearDeadRefLocks()
	locks, err := r.RefLocks(refPrefix)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, l := range locks {
		if r.RefLockLive(l) {
			continue
		}
		out = append(out, fmt.Sprintf("%s exists and no running git-edit holds it: another git process is updating that ref, or one crashed; "+
			"while it exists `git gc` fails: if no git is running, delete it", l))
	}
	return out, nil
}

// Repository is an open repository as OpenRepository returns it (the
// plumbing's repo.Repo), named here so that the commands above the session
// layer need not reach down to repo.
type Repository = repo.Repo

// The errors opening a repository returns (repo.Open), named here for the
// commands above the session layer to branch on.
var (
	ErrNotRepository = repo.ErrNotRepository
	ErrBadConfig     = repo.ErrBadConfig
)
