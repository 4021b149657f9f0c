package undo

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/git-edit/git-edit/repo"
	"github.com/git-edit/git-edit/undo/gitai"
	"github.com/go-git/go-git/v5/plumbing"
)

// OpNote is LineOrigin.Op of a line attributed by another tool's git-ai
// note (see FromNotes), not by a session of git-edit.
const OpNote = "note"

// FromNotes completes Blame's answer for path at rev ("": the working
// file) with the git-ai authorship notes (Git AI Standard v3.0.0) in
// refs/notes/ai, which other tools (git-ai itself, and `git edit notes`)
// write: a person line, committed in commit C, that C's note attributes
// to an AI session or prompt (at the line's number in C's version of the
// file, which git blame names) becomes an agent line: Agent, Op "note",
// Session the note's agent_id.id (else its session key), Tool and Model
// its agent_id.tool and model. Lines git-edit's sessions wrote, lines of
// known humans (h_ keys) and lines no note attests stay as they are. A
// note that is not a v3 authorship log is passed by: it is another
// tool's business, not a reason to fail the blame. Without refs/notes/ai,
// lines are returned as they are, at the cost of one ref lookup.
func FromNotes(ctx context.Context, r *repo.Repo, path, rev string, lines []LineOrigin) ([]LineOrigin, error) {
	if _, err := notesGit(ctx, r, nil, "rev-parse", "--verify", "-q", gitai.NotesRef+"^{commit}"); err != nil {
		var ee interface{ ExitCode() int }
		if errors.As(err, &ee) && ee.ExitCode() == 1 {
			return lines, nil // no notes
		}
		return nil, err
	}
	notes := map[plumbing.Hash]*gitai.Note{}
	for _, l := range lines {
		if l.Agent || l.Commit.IsZero() {
			continue
		}
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
	any := false
	for _, n := range notes {
		any = any || n != nil
	}
	if !any {
		return lines, nil
	}
	// Where each line was in the commit git names: git blame's porcelain
	// headers "<commit> <orig line> <final line>" and "filename" lines.
	args := blameArgs()
	var stdin []byte
	if rev != "" {
		args = append(args, rev, "--", path)
	} else {
		var b strings.Builder
		for _, l := range lines {
			b.WriteString(l.Text + "\n")
		}
		stdin = []byte(b.String())
		args = append(args, "--contents", "-", "--", path)
	}
	q, err := newQuarantine(r)
	if err != nil {
		return nil, err
	}
	defer q.remove()
	out, err := q.git(ctx, stdin, args...)
	if err != nil {
		return nil, err
	}
	type origin struct {
		commit plumbing.Hash
		line   int
	}
	at := map[int]origin{}
	files := map[plumbing.Hash]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<30)
	var cur plumbing.Hash
	for sc.Scan() {
		s := sc.Text()
		if strings.HasPrefix(s, "\t") {
			continue
		}
		if name, ok := strings.CutPrefix(s, "filename "); ok {
			files[cur] = unquoteC(name)
			continue
		}
		f := strings.Fields(s)
		if len(f) >= 3 && plumbing.IsHash(f[0]) {
			orig, err1 := strconv.Atoi(f[1])
			final, err2 := strconv.Atoi(f[2])
			if err1 == nil && err2 == nil {
				cur = plumbing.NewHash(f[0])
				at[final] = origin{cur, orig}
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	out2 := make([]LineOrigin, len(lines))
	copy(out2, lines)
	authors := map[plumbing.Hash]map[int]gitai.Author{}
	for i, l := range out2 {
		o, ok := at[l.Line]
		if l.Agent || !ok || o.commit != l.Commit || notes[l.Commit] == nil {
			continue
		}
		la, ok := authors[o.commit]
		if !ok {
			la = notes[o.commit].LineAuthors(files[o.commit], len(lines)+o.line)
			authors[o.commit] = la
		}
		a, ok := la[o.line]
		if !ok || a.Human {
			continue
		}
		l.Agent, l.Op, l.Session, l.Tool, l.Model, l.Turn = true, OpNote, a.Agent.ID, a.Agent.Tool, a.Agent.Model, ""
		if l.Session == "" {
			l.Session = a.Session
		}
		l.Author = ""
		out2[i] = l
	}
	return out2, nil
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
