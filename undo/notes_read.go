package undo

import (
	"context"
	"errors"
	"slices"
	"strconv"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/undo/gitai"
	"github.com/go-git/go-git/v5/plumbing"
)

// OpNote is LineOrigin.Op of a line attributed by another tool's git-ai
// note (see FromNotes), not by a session of git-edit.
const OpNote = "note"

// FromNotes completes Blame's answer (lines, as Blame returned them) with
// the git-ai authorship notes (Git AI Standard v3.0.0) in refs/notes/ai,
// which other tools (git-ai itself, and `git edit notes`) write: a person
// line, committed in commit C, that C's note attributes to an AI session
// or prompt (at the line's number in C's version of the file, which Blame
// learnt from git blame) becomes an agent line: Agent, Op "note", Session
// the note's agent_id.id (else its session key), Tool and Model its
// agent_id.tool and model. Lines git-edit's sessions wrote, lines of known
// humans (h_ keys) and lines no note attests stay as they are. A note that
// is not a v3 authorship log is passed by: it is another tool's business,
// not a reason to fail the blame. Without refs/notes/ai, lines are
// returned as they are, at the cost of one ref lookup.
func FromNotes(ctx context.Context, r *repo.Repo, lines []LineOrigin) ([]LineOrigin, error) {
	if _, err := notesGit(ctx, r, nil, "rev-parse", "--verify", "-q", gitai.NotesRef+"^{commit}"); err != nil {
		var ee interface{ ExitCode() int }
		if errors.As(err, &ee) && ee.ExitCode() == 1 {
			return lines, nil // no notes
		}
		return nil, err
	}
	notes := map[plumbing.Hash]*gitai.Note{}
	maxLine := map[plumbing.Hash]int{} // per commit, the last line asked of its note
	for _, l := range lines {
		if l.Agent || l.Commit.IsZero() || l.origLine == 0 {
			continue
		}
		maxLine[l.Commit] = max(maxLine[l.Commit], l.origLine)
		if _, seen := notes[l.Commit]; seen {
			continue
		}
		notes[l.Commit] = nil
		text, ok, err := ReadNote(ctx, r, gitai.NotesRef, l.Commit)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		if n, err := gitai.Parse(text); err == nil {
			notes[l.Commit] = &n
		}
	}
	out := slices.Clone(lines)
	type notePath struct {
		commit plumbing.Hash
		path   string
	}
	authors := map[notePath]map[int]gitai.Author{}
	for i, l := range out {
		n := notes[l.Commit]
		if l.Agent || l.origLine == 0 || n == nil {
			continue
		}
		key := notePath{l.Commit, l.origPath}
		la, ok := authors[key]
		if !ok {
			la = n.LineAuthors(l.origPath, maxLine[l.Commit])
			authors[key] = la
		}
		a, ok := la[l.origLine]
		if !ok || a.Human {
			continue
		}
		l.Agent, l.Op, l.Session, l.Tool, l.Model, l.Turn = true, OpNote, a.Agent.ID, a.Agent.Tool, a.Agent.Model, ""
		if l.Session == "" {
			l.Session = a.Session
		}
		l.Author = ""
		out[i] = l
	}
	return out, nil
}

// unquoteC reads a path git may C-quote ("a\tb"); anything else is
// returned as it is.
func unquoteC(s string) string {
	if len(s) >= 2 && s[0] == '"' {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	return s
}
