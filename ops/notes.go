package ops

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/git-edit/git-edit/repo/session"
	"github.com/git-edit/git-edit/undo"
	"github.com/git-edit/git-edit/undo/gitai"
	"github.com/go-git/go-git/v5/plumbing"
)

// CommitNote is the git-ai authorship note of one commit.
type CommitNote struct {
	Commit string
	// Note is the note's text (gitai.Note.Render); Agent is how many
	// added lines it attributes to agents, Added how many the commit
	// added in all.
	Note         string
	Agent, Added int
	// Skipped names the files left out of the note: paths the standard
	// cannot write (see gitai.Writable).
	Skipped       []string
	noteForCommit plumbing.Hash
}

// NotesTool is the agent_id.tool git-edit writes for a session whose
// edits name no agent program (Edit-Agent).
const NotesTool = "git-edit"

// Notes builds the Git AI Standard v3.0.0 note of each commit of spec
// (REV or A..B; see undo.AttributeCommits) from git-edit's own
// attribution: under each file, one attestation per agent edit whose
// lines the commit added, keyed s_<session>::t_<edit>, where the session
// id is gitai.SessionKey(tool, session name) (tool: the first word of the
// session's Edit-Agent, else "git-edit") and the trace id is "t_" and the
// first 14 hex digits of the edit commit's id, so the same edit gets the
// same key in every note. Person lines are left unattested ("untracked"
// in the standard's words): git-edit does not observe a person typing.
// metadata.sessions has each session's agent_id {tool, id: the session
// name, model: Edit-Model of its newest edit in the commit};
// base_commit_sha is the commit itself, as git-ai writes it. Commits
// whose added lines are all the person's get a note with no
// attestations. Nothing is written.
func (e *Engine) Notes(ctx context.Context, spec string) ([]CommitNote, error) {
	ctx, cancel := e.bounded(ctx)
	defer cancel()
	commits, err := undo.AttributeCommits(ctx, e.Repo, spec, nil)
	if err != nil {
		return nil, e.timedOut("notes", err)
	}
	agents := map[plumbing.Hash]string{}
	agentOf := func(h plumbing.Hash) (string, error) {
		if a, ok := agents[h]; ok {
			return a, nil
		}
		c, err := e.Repo.ReadCommit(h)
		if err != nil {
			return "", err
		}
		m, _ := session.ParseMeta(c.Message)
		agents[h] = m.Agent
		return m.Agent, nil
	}
	var out []CommitNote
	for _, c := range commits {
		n := gitai.Note{Meta: gitai.Metadata{SchemaVersion: gitai.SchemaVersion, BaseCommitSHA: c.Commit.String(), Sessions: map[string]gitai.SessionRecord{}}}
		newest := map[string]undo.LineOrigin{} // per session id, its newest line
		cn := CommitNote{Commit: c.Commit.String(), noteForCommit: c.Commit}
		for _, f := range c.Files {
			if !gitai.Writable(f.Path) {
				cn.Skipped = append(cn.Skipped, f.Path)
				continue
			}
			byKey := map[string][]int{}
			var keys []string
			for _, l := range f.Lines {
				cn.Added++
				if !l.Agent {
					continue
				}
				cn.Agent++
				agent, err := agentOf(l.Commit)
				if err != nil {
					return nil, err
				}
				tool := NotesTool
				if name, _, _ := strings.Cut(agent, " "); name != "" {
					tool = name
				}
				sid := gitai.SessionKey(tool, l.Session)
				key := sid + "::t_" + l.Commit.String()[:14]
				if _, ok := byKey[key]; !ok {
					keys = append(keys, key)
				}
				byKey[key] = append(byKey[key], l.Line)
				if prev, ok := newest[sid]; !ok || e.newerLine(l, prev) {
					newest[sid] = l
				}
				n.Meta.Sessions[sid] = gitai.SessionRecord{AgentID: gitai.AgentID{Tool: tool, ID: l.Session}}
			}
			if len(keys) == 0 {
				continue
			}
			// Entries in the order of the lines they start at.
			slices.SortStableFunc(keys, func(a, b string) int { return byKey[a][0] - byKey[b][0] })
			file := gitai.File{Path: f.Path}
			for _, k := range keys {
				file.Entries = append(file.Entries, gitai.Entry{Key: k, Ranges: gitai.Ranges(byKey[k])})
			}
			n.Files = append(n.Files, file)
		}
		for sid, l := range newest {
			rec := n.Meta.Sessions[sid]
			rec.AgentID.Model = l.Model
			n.Meta.Sessions[sid] = rec
		}
		text, err := n.Render()
		if err != nil {
			return nil, fmt.Errorf("notes for %s: %w", c.Commit, err)
		}
		cn.Note = text
		out = append(out, cn)
	}
	return out, nil
}

// NoteAction is what WriteNote did with one commit's note.
type NoteAction int

const (
	// NoteAdded: the commit had no note in refs/notes/ai.
	NoteAdded NoteAction = iota
	// NoteReplaced: the note there was git-edit's own (see ownNote), or,
	// forced, another tool's.
	NoteReplaced
	// NoteUnchanged: the note there is this one; nothing was written (no
	// new commit of refs/notes/ai).
	NoteUnchanged
	// NoteKept: the note there is another tool's (or not a Git AI note);
	// it was left as it is.
	NoteKept
)

// WriteNote attaches n to its commit in refs/notes/ai with git itself
// (see undo.WriteNote): the only write git-edit makes outside
// refs/edits/. A note already there is replaced only when it is
// git-edit's own earlier note, or when force is set; another tool's note
// is kept (NoteKept) and nothing is written, and so is a note equal to
// n (NoteUnchanged).
func (e *Engine) WriteNote(ctx context.Context, n CommitNote, force bool) (NoteAction, error) {
	ctx, cancel := e.bounded(ctx)
	defer cancel()
	old, had, err := undo.ReadNote(ctx, e.Repo, gitai.NotesRef, n.noteForCommit)
	if err != nil {
		return NoteKept, e.timedOut("notes", err)
	}
	action := NoteAdded
	switch {
	case had && old == n.Note:
		return NoteUnchanged, nil
	case had && !force && !e.ownNote(old):
		return NoteKept, nil
	case had:
		action = NoteReplaced
	}
	if err := undo.WriteNote(ctx, e.Repo, gitai.NotesRef, n.noteForCommit, n.Note); err != nil {
		return NoteKept, e.timedOut("notes", err)
	}
	return action, nil
}

// ownNote reports whether text is a note git-edit wrote, so that writing
// over it loses nothing another tool said: a Git AI v3 note with no
// git_ai_version, prompts or humans, whose every session (in metadata and
// in the attestations' keys) is a session of this repository keyed as
// Notes keys it.
func (e *Engine) ownNote(text string) bool {
	n, err := gitai.Parse(text)
	if err != nil || n.Meta.GitAIVersion != "" || len(n.Meta.Prompts) > 0 || len(n.Meta.Humans) > 0 {
		return false
	}
	for key, rec := range n.Meta.Sessions {
		if key != gitai.SessionKey(rec.AgentID.Tool, rec.AgentID.ID) || session.ValidateName(rec.AgentID.ID) != nil {
			return false
		}
		if tip, err := e.Repo.ReadRef(session.RefName(rec.AgentID.ID)); err != nil || tip.IsZero() {
			return false
		}
	}
	for _, f := range n.Files {
		for _, en := range f.Entries {
			sid, _, _ := strings.Cut(en.Key, "::")
			if _, ok := n.Meta.Sessions[sid]; !ok {
				return false
			}
		}
	}
	return true
}
