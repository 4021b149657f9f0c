package ops

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/git-edit/git-edit/diffview"
	"github.com/git-edit/git-edit/ops/dialect"
	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/git-edit/git-edit/undo"
)

// LogEntry is one session commit as `log --json`, `show --json` and the
// edit_history tool give it.
type LogEntry struct {
	Commit     string   `json:"commit"`
	Session    string   `json:"session"`
	Op         string   `json:"op"`
	Tool       string   `json:"tool,omitempty"`
	Paths      []string `json:"paths"`
	Time       LogTime  `json:"time"`
	Undoes     string   `json:"undoes,omitempty"`
	RollbackTo string   `json:"rollback_to,omitempty"`
	// Turn is the turn the commit belongs to (Edit-Turn); Checkpoint a
	// checkpoint's name (Edit-Checkpoint).
	Turn       string `json:"turn,omitempty"`
	Checkpoint string `json:"checkpoint,omitempty"`
	// Model and Agent are the model and agent program that made the
	// change (Edit-Model, Edit-Agent), when the host said.
	Model   string `json:"model,omitempty"`
	Agent   string `json:"agent,omitempty"`
	Subject string `json:"subject"`
	Added   int    `json:"added"`
	Removed int    `json:"removed"`
	// Stats are Added and Removed path by path, in the order of Paths (for
	// `--stat`; the JSON keeps the totals only).
	Stats []PathStat `json:"-"`
	// Message and Diff are filled by Show only; so is Changes, the change
	// of each path that Diff renders.
	Message string     `json:"message,omitempty"`
	Diff    string     `json:"diff,omitempty"`
	Changes []FileDiff `json:"-"`
}

// PathStat is the lines a commit, or a session, added and removed in one
// path.
type PathStat struct {
	Path           string
	Added, Removed int
}

// FileDiff is one path before and after a commit or a session, as
// stored (see Unified for how it is shown).
type FileDiff struct {
	Path          string
	Before, After repo.FileState
}

// Unified is the change as a unified diff (see the function Unified).
func (c FileDiff) Unified() string { return Unified(c.Path, c.Before, c.After) }

// Numbered is Unified with each hunk header followed by its number, " hunk
// N" (diffview.FileChangeNumbered), as the session's net change is shown:
// the numbers Reject takes.
func (c FileDiff) Numbered() string {
	return diffview.FileChangeNumbered(
		diffview.Side{Path: c.Path, Content: shownText(c.Before.Content), Exists: c.Before.Exists},
		diffview.Side{Path: c.Path, Content: shownText(c.After.Content), Exists: c.After.Exists}, dialect.SnippetContext)
}

// Stat is the lines the change adds and removes, as the log counts them.
func (c FileDiff) Stat() PathStat {
	a, r := lineStat(c.Before.Content, c.After.Content)
	return PathStat{Path: c.Path, Added: a, Removed: r}
}

// LogTime is a session commit's time, in the zone git recorded it in. It
// marshals to JSON as RFC 3339 text in that zone, as time.Format writes
// it: time.Time's own MarshalJSON refuses a year past 9999 or a zone
// offset of a day or more, which a commit written by hand can carry, and
// the log must still list such a commit.
type LogTime struct{ time.Time }

// MarshalJSON writes t as a JSON string, RFC 3339 in t's own zone.
func (t LogTime) MarshalJSON() ([]byte, error) { return json.Marshal(t.Format(time.RFC3339)) }

// Log returns the session's commits (every session's with all), newest
// first, at most n (n <= 0: all), only those touching paths when given
// (arguments as for a tool: relative to the root or absolute).
func (e *Engine) Log(n int, paths []string, all bool) ([]LogEntry, error) {
	var rels []string
	for _, p := range paths {
		// The path names recorded history: a symlink there now is not
		// followed to another file's history.
		path, err := e.Repo.ResolveRecordedFrom(e.Root, e.Dir, p)
		if err != nil {
			return nil, err
		}
		rels = append(rels, path.Rel)
	}
	sessions := []*session.Session{e.Session}
	if all {
		var err error
		if sessions, err = session.All(e.Repo); err != nil {
			return nil, err
		}
	}
	var entries []LogEntry
	for _, s := range sessions {
		tip, err := s.Tip()
		if err != nil {
			return nil, err
		}
		commits, err := undo.Log(s, tip, n, rels)
		if err != nil {
			return nil, err
		}
		for _, c := range commits {
			entry, err := describe(s, c)
			if err != nil {
				return nil, err
			}
			entries = append(entries, entry)
		}
	}
	// Newest first by instant: sessions may have been written in different
	// zones, so the RFC 3339 texts do not sort as the times do.
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].Time.After(entries[j].Time.Time) })
	if n > 0 && len(entries) > n {
		entries = entries[:n]
	}
	return entries, nil
}

// Show finds the commit name refers to (see undo.Resolve) and returns
// it with its full message and unified diff. With onlySession it looks in
// the engine's session only. Otherwise a commit id is found in whatever
// session holds it (the engine's session first), as git show finds any
// commit; a name relative to a session ("tip", "SESSION~N") is resolved in
// the session it names, "tip" in the engine's session. A name found nowhere
// is refused with undo.ErrUnknownEdit, naming the sessions searched.
func (e *Engine) Show(name string, onlySession bool) (LogEntry, error) {
	sessions := []*session.Session{e.Session}
	if !onlySession {
		all, err := session.All(e.Repo)
		if err != nil {
			return LogEntry{}, err
		}
		for _, s := range all {
			if s.Name != e.Session.Name {
				sessions = append(sessions, s)
			}
		}
	}
	base, _, _ := strings.Cut(name, "~")
	var found *session.Session
	var commit undo.Commit
	var firstErr, tipErr error
	var names []string
	for i, s := range sessions {
		if i > 0 && base == "tip" {
			break // "tip" is the engine's session's
		}
		tip, err := s.Tip()
		if err != nil && tipErr == nil {
			tipErr = err // reported only if no session has the commit
			if i == 0 {
				firstErr = err // the session asked for: its trouble first
			}
		}
		if err != nil || tip.IsZero() {
			continue
		}
		names = append(names, s.Name)
		c, err := undo.Resolve(s, tip, name)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if found != nil && c.Hash != commit.Hash {
			return LogEntry{}, fmt.Errorf("%w %q: it names commits in sessions %q and %q; give more digits", undo.ErrUnknownEdit, name, found.Name, s.Name)
		}
		if found == nil {
			found, commit = s, c
		}
	}
	if found == nil {
		switch {
		case len(sessions) > 1 && len(names) > 0 && base != "tip" && !errors.Is(firstErr, session.ErrBroken):
			return LogEntry{}, fmt.Errorf("%w %q in any session (%s); give a commit id from `git edit log --all`", undo.ErrUnknownEdit, name, strings.Join(names, ", "))
		case firstErr != nil:
			return LogEntry{}, firstErr
		case tipErr != nil:
			return LogEntry{}, tipErr
		}
		return LogEntry{}, fmt.Errorf("%w %q: there are no sessions in this repository", undo.ErrUnknownEdit, name)
	}
	entry, err := describe(found, commit)
	if err != nil {
		return LogEntry{}, err
	}
	full, err := e.Repo.ReadCommit(commit.Hash)
	if err != nil {
		return LogEntry{}, err
	}
	entry.Message = full.Message
	var diff strings.Builder
	for _, p := range commit.Meta.Paths {
		before, after, err := around(e.Repo, commit, p)
		if err != nil {
			return LogEntry{}, err
		}
		fd := FileDiff{Path: p, Before: before, After: after}
		entry.Changes = append(entry.Changes, fd)
		diff.WriteString(fd.Unified())
	}
	entry.Diff = diff.String()
	return entry, nil
}

// NetDiff is the session's net change as one unified diff: each path
// (of paths, if given) from before the session touched it to the tip, its
// hunks numbered (FileDiff.Numbered).
func (e *Engine) NetDiff(paths []string) (string, error) {
	changes, err := e.NetChanges(paths)
	if err != nil {
		return "", err
	}
	var out strings.Builder
	for _, c := range changes {
		out.WriteString(c.Numbered())
	}
	return out.String(), nil
}

// NetChanges is NetDiff path by path, sorted by path, leaving out paths
// the session changed and changed back.
func (e *Engine) NetChanges(paths []string) ([]FileDiff, error) {
	only := map[string]bool{}
	for _, a := range paths {
		p, err := e.Repo.ResolveRecordedFrom(e.Root, e.Dir, a) // as in Log
		if err != nil {
			return nil, err
		}
		only[p.Rel] = true
	}
	tip, err := e.Session.Tip()
	if err != nil {
		return nil, err
	}
	touched, first, err := undo.Touched(e.Session, tip)
	if err != nil {
		return nil, err
	}
	sort.Strings(touched)
	var out []FileDiff
	for _, p := range touched {
		if len(only) > 0 && !only[p] {
			continue
		}
		// The stored blobs on both sides, as `git diff` shows them: the
		// view writes nothing, so it runs no conversion.
		before, err := undo.BeforeSession(e.Repo, first[p], p)
		if err != nil {
			return nil, err
		}
		after, err := e.Repo.FileAt(tip, p)
		if err != nil {
			return nil, err
		}
		if before.Exists == after.Exists && string(before.Content) == string(after.Content) {
			continue
		}
		out = append(out, FileDiff{Path: p, Before: before, After: after})
	}
	return out, nil
}

// describe turns a commit into a log entry, with the lines it added and
// removed in each path: recorded in its Edit-Stat trailer, or counted from
// the blobs for commits written before it.
func describe(s *session.Session, c undo.Commit) (LogEntry, error) {
	en := LogEntry{Commit: c.Hash.String(), Session: s.Name, Op: c.Meta.Op, Tool: c.Meta.Tool, Paths: c.Meta.Paths,
		Time: LogTime{c.Time}, Subject: c.Subject, RollbackTo: c.Meta.RollbackTo,
		Turn: c.Meta.Turn, Checkpoint: c.Meta.Checkpoint, Model: c.Meta.Model, Agent: c.Meta.Agent}
	if !c.Meta.Undoes.IsZero() {
		en.Undoes = c.Meta.Undoes.String()
	}
	for _, p := range c.Meta.Paths {
		if st, ok := c.Meta.Stat[p]; ok {
			en.Added, en.Removed = en.Added+st.Added, en.Removed+st.Removed
			en.Stats = append(en.Stats, PathStat{Path: p, Added: st.Added, Removed: st.Removed})
			continue
		}
		// A commit from before Edit-Stat: count from the blobs.
		before, after, err := around(s.Repo, c, p)
		if err != nil {
			return en, err
		}
		a, r := lineStat(before.Content, after.Content)
		en.Added, en.Removed = en.Added+a, en.Removed+r
		en.Stats = append(en.Stats, PathStat{Path: p, Added: a, Removed: r})
	}
	return en, nil
}

// lineStat counts the lines a change of stored blobs adds and removes, as
// the log shows them (UTF-16 decoded, as the dialects see it). Sessions
// record it at edit time (session.Session.LineStat).
func lineStat(before, after []byte) (added, removed int) {
	return diffview.Stat(shownText(before), shownText(after))
}

// around is path before and after commit c.
func around(r *repo.Repo, c undo.Commit, path string) (before, after repo.FileState, err error) {
	if before, err = r.FileAt(c.Parent, path); err != nil {
		return
	}
	after, err = r.FileAt(c.Hash, path)
	return
}

// Unified renders a change of one path as a diff with git's headers
// (/dev/null for a side where the file does not exist). A UTF-16 file is
// shown decoded, as the dialects show it (where git would say "Binary
// files differ").
func Unified(path string, before, after repo.FileState) string {
	return diffview.FileChange(
		diffview.Side{Path: path, Content: shownText(before.Content), Exists: before.Exists},
		diffview.Side{Path: path, Content: shownText(after.Content), Exists: after.Exists}, dialect.SnippetContext)
}

// shownText is content as the dialects see it (textOf).
func shownText(content []byte) []byte {
	t, _ := textOf(content)
	return t
}
