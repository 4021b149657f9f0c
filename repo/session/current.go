package session

import (
	"context"
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

// Which session a command means. Every command that works on one session
// (call, record, checkpoint, log, show, diff, undo, redo, rollback...)
// takes --session NAME, else $GIT_EDIT_SESSION, else this worktree's
// current session: the one that last wrote in this worktree. Every writer
// (Apply: edits, undo, redo, rollback; Record; Checkpoint) notes its
// session in <worktree git dir>/git-edit/current after it moved the ref,
// under the edit lock, so that a reading command that follows means the
// session the writer wrote, and `record` then `undo` in the same second
// act on the same one. The file is per worktree (a linked worktree's git
// dir is its own), as a session belongs to one worktree (see owner.go).

// ErrAmbiguousSession: no current session is noted (or it no longer
// exists) and two of this worktree's sessions were last updated at the
// same instant, so neither is the newest; see Choose.
var ErrAmbiguousSession = errors.New("which session is meant is ambiguous")

// currentPath is the file naming this worktree's current session.
func currentPath(r *repo.Repo) string { return filepath.Join(r.GitDir, "git-edit", "current") }

// wrote is what every writer does after it moved the session's ref: claim a
// session it made (claimNew) and note it as this worktree's current
// session. Failing to note it fails nothing: the edit is recorded, and
// Choose falls back to the newest session of the worktree.
func (s *Session) wrote(prev plumbing.Hash) {
	s.claimNew(prev)
	_ = noteCurrent(s.Repo, s.Name)
}

// noteCurrent writes name as the worktree's current session, atomically
// (a reader sees the old name or the new, whole), and not at all when it
// is named already, so that an agent's run of edits costs one read each.
func noteCurrent(r *repo.Repo, name string) error {
	path := currentPath(r)
	if b, err := repo.ReadStateFile(path); err == nil && strings.TrimSuffix(string(b), "\n") == name {
		return nil
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	return writeAtomic(dir, path, []byte(name+"\n"))
}

// Current returns the session noted as this worktree's current one ("" when
// none is noted, or what is noted is not a valid session name).
func Current(r *repo.Repo) string {
	b, err := repo.ReadStateFile(currentPath(r))
	if err != nil {
		return ""
	}
	name := strings.TrimSuffix(string(b), "\n")
	if ValidateName(name) != nil {
		return ""
	}
	return name
}

// Choice is the session a command means when none is named, and why.
type Choice struct {
	Name string
	// Exists is false for "default" chosen because this worktree has no
	// session: a writer makes it, a reader has nothing to read.
	Exists bool
	// Why says, for a note on stderr, why this session ("the last written
	// in this worktree"); "" for a default that does not exist.
	Why string
}

// Choose returns the session a command means when neither --session nor
// $GIT_EDIT_SESSION names one: the worktree's current session (the last
// written in this worktree) while its ref exists; else the newest of the
// worktree's sessions (those it owns, or that no worktree claimed), newest
// by the ref's own update order: its tip commit's time, then, within its second, the modification time in
// nanoseconds of the session's reflog or loose ref, whichever is later
// (each update rewrites both; git gc rewrites reflogs in name order, so
// the file time alone would not do). Two sessions last updated at the
// same instant are refused with ErrAmbiguousSession, naming both. With
// no session of the worktree, it is "default" (Exists false).
func Choose(r *repo.Repo) (Choice, error) {
	cur := Current(r)
	if cur != "" {
		tip, err := r.ReadRef(RefName(cur))
		if err != nil {
			return Choice{}, err
		}
		if !tip.IsZero() {
			return Choice{Name: cur, Exists: true, Why: "the last written in this worktree"}, nil
		}
	}
	sessions, err := All(r)
	if err != nil {
		return Choice{}, err
	}
	type cand struct {
		name         string
		commit, when time.Time
	}
	var cands []cand
	for _, s := range sessions {
		if !s.ownedHere() {
			continue
		}
		commit, when, err := s.updatedAt()
		if err != nil {
			continue // a broken session is never chosen unnamed
		}
		cands = append(cands, cand{s.Name, commit, when})
	}
	if len(cands) == 0 {
		return Choice{Name: "default"}, nil
	}
	newer := func(a, b cand) int {
		if c := b.commit.Compare(a.commit); c != 0 {
			return c
		}
		return b.when.Compare(a.when)
	}
	slices.SortStableFunc(cands, newer)
	why := "the newest of this worktree's sessions"
	if cur != "" {
		why = fmt.Sprintf("the newest of this worktree's sessions (%s, the last written here, no longer exists)", cur)
	}
	if len(cands) > 1 && newer(cands[0], cands[1]) == 0 {
		var tied []string
		for _, c := range cands {
			if newer(c, cands[0]) == 0 {
				tied = append(tied, c.name)
			}
		}
		return Choice{}, fmt.Errorf("%w: sessions %s of this worktree were last updated at the same instant (%s) and none is noted as the last written here; choose one with --session NAME (or GIT_EDIT_SESSION=NAME)",
			ErrAmbiguousSession, strings.Join(tied, ", "), cands[0].when.Format(time.RFC3339Nano))
	}
	return Choice{Name: cands[0].name, Exists: true, Why: why}, nil
}

// ownedHere reports whether the session belongs to this worktree: its owner
// file names this worktree, or no live worktree (none recorded, or the
// recorded one was removed), as checkOwner lets this worktree write it.
func (s *Session) ownedHere() bool {
	b, err := os.ReadFile(s.ownerPath())
	if err != nil {
		return errors.Is(err, fs.ErrNotExist)
	}
	id, _, _ := strings.Cut(strings.TrimSuffix(string(b), "\n"), "\n")
	if id == s.worktreeID() || id == "" {
		return true
	}
	_, serr := os.Stat(filepath.Join(s.Repo.CommonDir, filepath.FromSlash(id)))
	return serr != nil
}

// updatedAt is when the session's ref last moved (see Choose): its tip
// commit's time (whole seconds, kept by every git command) and, within
// that second, the modification time of its reflog or loose ref,
// whichever is later (zero for a packed ref without a reflog). The file
// times alone are not an order: git gc rewrites every reflog and packs the
// refs, in name order.
func (s *Session) updatedAt() (commit, file time.Time, err error) {
	tip, err := s.Tip()
	if err != nil {
		return time.Time{}, time.Time{}, err
	}
	if tip.IsZero() {
		return time.Time{}, time.Time{}, fmt.Errorf("session %s has no ref", s.Name)
	}
	c, _, err := s.ReadCommit(tip)
	if err != nil {
		return time.Time{}, time.Time{}, err
	}
	for _, p := range []string{
		filepath.Join(s.Repo.CommonDir, "logs", filepath.FromSlash(s.Ref())),
		filepath.Join(s.Repo.CommonDir, filepath.FromSlash(s.Ref())),
	} {
		if fi, err := os.Stat(p); err == nil && fi.ModTime().After(file) {
			file = fi.ModTime()
		}
	}
	return c.Time.Truncate(time.Second), file, nil
}

// HintFlag is what a printed command needs to name the session name so
// that it runs as printed from any state, whichever session is current
// then: " --session NAME", NAME quoted for the shell when it holds a
// character a shell would read (a valid name may hold $, ;, quotes).
func HintFlag(name string) string { return " --session " + ShellQuote(name) }

// Hint renders the command `git edit VERB --session NAME ARGS…` that a
// message prints for the person to run next, so that every printed command
// names its session and acts on it from any state (another session current
// or newer, another $GIT_EDIT_SESSION). Each arg is quoted for the shell
// when it needs it; placeholders such as PATH or EDIT need none. The
// result carries no backticks: the message puts them around it.
func Hint(name, verb string, args ...string) string {
	var b strings.Builder
	b.WriteString("git edit ")
	b.WriteString(verb)
	b.WriteString(HintFlag(name))
	for _, a := range args {
		b.WriteByte(' ')
		b.WriteString(ShellQuote(a))
	}
	return b.String()
}

// UpdatedAt is when the session's ref last moved, as Choose orders
// sessions newest first: its tip commit's time, then within that second
// its reflog's or loose ref's modification time (see updatedAt).
func (s *Session) UpdatedAt() (commit, file time.Time, err error) { return s.updatedAt() }

// ShellQuote quotes s for a POSIX shell when it holds anything but
// letters, digits and -._/=+,@% (those a shell reads as themselves).
func ShellQuote(s string) string {
	plain := s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-._/=+,@%", r))
	})
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// beforePath is the file marking a pending `record --before` of the
// session in this worktree: the session's tip right after it.
func (s *Session) beforePath() string {
	return filepath.Join(s.Repo.GitDir, "git-edit", "before", s.Name)
}

// markBefore notes, after a `record --before` (Record of OpSync), the
// session's tip: until the session's ref moves again, a record means the
// command that ran since, and everything changed since is its change. It
// is noted whether or not the sync recorded anything (a clean worktree
// before the command). The caller holds the edit lock. Failing to note it
// fails nothing: the record after the command then asks which paths are
// the command's.
func (s *Session) markBefore() {
	tip, err := s.Repo.ReadRef(s.Ref())
	if err != nil {
		return
	}
	dir := filepath.Dir(s.beforePath())
	if os.MkdirAll(dir, 0o777) == nil {
		_ = writeAtomic(dir, s.beforePath(), []byte(tip.String()+"\n"))
	}
}

// MarkBefore is what a `record --before` that found nothing to record
// does: it notes, under the edit lock, that the session's next record
// means the command that runs after it (see markBefore).
func (s *Session) MarkBefore(ctx context.Context) error {
	unlock, err := s.Repo.Lock(ctx)
	if err != nil {
		return err
	}
	defer unlock()
	if err := s.checkOwner(false); err != nil {
		return err
	}
	s.markBefore()
	return nil
}

// beforePending reports whether the session's last write was a `record
// --before` (see markBefore): the mark names the tip the ref still has.
func (s *Session) beforePending() bool {
	b, err := repo.ReadStateFile(s.beforePath())
	if err != nil {
		return false
	}
	tip, err := s.Repo.ReadRef(s.Ref())
	return err == nil && strings.TrimSpace(string(b)) == tip.String()
}

// clearBefore removes the mark once the record after the command used it.
func (s *Session) clearBefore() { os.Remove(s.beforePath()) }

// syncSubject is the subject of a sync commit recording the disk's entries
// of paths: each path whose bytes are exactly what another session's tip
// records for it is named as that session's edit ("sync: edits of session
// b in a.go"), the rest as "changed outside git-edit" (by the person, or
// a tool no session records). Another session's edit reaches this one
// only as a sync, and its author is that session, not the person.
func (s *Session) syncSubject(paths []string, disk map[string]repo.Entry) string {
	whose := s.otherSessionsOf(paths, disk)
	var byHand []string
	bySession := map[string][]string{}
	var names []string
	for _, p := range paths {
		n, ok := whose[p]
		if !ok {
			byHand = append(byHand, p)
			continue
		}
		if _, seen := bySession[n]; !seen {
			names = append(names, n)
		}
		bySession[n] = append(bySession[n], p)
	}
	var parts []string
	if len(byHand) > 0 {
		parts = append(parts, describePaths(byHand)+" changed outside git-edit")
	}
	for _, n := range names {
		parts = append(parts, "edits of session "+n+" in "+describePaths(bySession[n]))
	}
	return "sync: " + strings.Join(parts, "; ")
}

// maxSyncSessions bounds how many other sessions a sync's subject asks
// about, as the overlap note bounds its question.
const maxSyncSessions = 16

// otherSessionsOf maps each of paths whose disk entry is exactly what
// another session's tip records for it (and differs from HEAD's, so that
// a session that merely has the file as HEAD does is no author) to that
// session's name: the most recently updated one where several agree. A
// question it cannot answer names nobody.
func (s *Session) otherSessionsOf(paths []string, disk map[string]repo.Entry) map[string]string {
	out := map[string]string{}
	all, err := All(s.Repo)
	if err != nil {
		return out
	}
	var head plumbing.Hash
	if h, err := s.Repo.ReadRef("HEAD"); err == nil && !h.IsZero() {
		head, _ = s.Repo.TreeOf(h)
	}
	type hit struct {
		name         string
		commit, file time.Time // see updatedAt
	}
	best := map[string]hit{}
	asked := 0
	for _, o := range all {
		if o.Name == s.Name || asked >= maxSyncSessions {
			continue
		}
		tip, err := o.Tip()
		if err != nil || tip.IsZero() {
			continue
		}
		asked++
		tree, err := s.Repo.TreeOf(tip)
		if err != nil {
			continue
		}
		commit, file, _ := o.updatedAt()
		for _, p := range paths {
			e, err := s.Repo.EntryAt(tree, p)
			if err != nil || e != disk[p] {
				continue
			}
			if !head.IsZero() {
				if he, err := s.Repo.EntryAt(head, p); err == nil && he == e {
					continue // HEAD's version: no session's edit
				}
			}
			if b, ok := best[p]; !ok || commit.After(b.commit) || commit.Equal(b.commit) && file.After(b.file) {
				best[p] = hit{o.Name, commit, file}
			}
		}
	}
	for p, h := range best {
		out[p] = h.name
	}
	return out
}
