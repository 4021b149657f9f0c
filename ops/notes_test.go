package ops_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/repo/session"
	"github.com/git-edit/git-edit/undo/gitai"
)

// A path the Git AI standard cannot write (whitespace and a quote: it
// quotes without escapes) is left out of the note and named in Skipped,
// not written so that the note misreads; the other files are attested and
// the note parses back.
func TestAttackNotesUnwritablePath(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"x.txt": "x\n"})
	e, err := ops.Open(ops.Options{Root: dir, Session: "s"})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	for _, p := range []string{`a "b".txt`, "ok.txt"} {
		args, _ := json.Marshal(map[string]string{"command": "create", "path": p, "file_text": "one\ntwo\n"})
		if res, err := e.Call(context.Background(), "text_editor", args); err != nil || !res.OK {
			t.Fatalf("create %s: %v %s", p, err, res.Text)
		}
	}
	gittest.Git(t, dir, "add", "-A")
	gittest.Git(t, dir, "commit", "-qm", "two files")
	notes, err := e.Notes(context.Background(), "HEAD")
	if err != nil || len(notes) != 1 {
		t.Fatalf("Notes: %v %d", err, len(notes))
	}
	if len(notes[0].Skipped) != 1 || notes[0].Skipped[0] != `a "b".txt` {
		t.Fatalf("Skipped = %q", notes[0].Skipped)
	}
	n, err := gitai.Parse(notes[0].Note)
	if err != nil || len(n.Files) != 1 || n.Files[0].Path != "ok.txt" || gitai.FormatRanges(n.Files[0].Entries[0].Ranges) != "1-2" {
		t.Fatalf("note: %v\n%s", err, notes[0].Note)
	}
	if strings.Contains(notes[0].Note, `"b"`) {
		t.Fatalf("the note names the unwritable path:\n%s", notes[0].Note)
	}
}

// A session's model in a note and an Agent Trace record is its newest
// edit's, also when two edits share a second (commit times are whole
// seconds): the older edit's line comes first in the file, so reading
// lines in order and keeping the first of equal times named the older
// model (CI saw it once in cmd/git-edit's TestNotesCommitSquashRebase).
func TestNotesNewestModelWithinOneSecond(t *testing.T) {
	for try := 0; ; try++ {
		dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "a\nb\n"})
		e, err := ops.Open(ops.Options{Root: dir, Session: "s"})
		if err != nil {
			t.Fatal(err)
		}
		edit := func(model, old, new string) string {
			t.Helper()
			ctx := session.WithOrigin(context.Background(), session.Origin{Model: model})
			args, _ := json.Marshal(map[string]string{"command": "str_replace", "path": "f.txt", "old_str": old, "new_str": new})
			if res, err := e.Call(ctx, "text_editor", args); err != nil || !res.OK {
				t.Fatalf("edit: %v %s", err, res.Text)
			}
			return strings.TrimSpace(gittest.Git(t, dir, "show", "-s", "--format=%ct", "refs/edits/s"))
		}
		older := edit("model-old", "a\n", "a\nx\n")
		newer := edit("model-new", "b\n", "b\ny\n")
		if older != newer {
			e.Close()
			if try == 20 {
				t.Fatal("no two edits in one second in 20 tries")
			}
			continue // the second turned between the edits: try again
		}
		gittest.Git(t, dir, "commit", "-qam", "work")
		notes, err := e.Notes(context.Background(), "HEAD")
		if err != nil || len(notes) != 1 {
			t.Fatalf("Notes: %v %d", err, len(notes))
		}
		n, err := gitai.Parse(notes[0].Note)
		if err != nil {
			t.Fatal(err)
		}
		for _, rec := range n.Meta.Sessions {
			if rec.AgentID.Model != "model-new" {
				t.Fatalf("note's model = %q, want model-new:\n%s", rec.AgentID.Model, notes[0].Note)
			}
		}
		recs, err := e.AgentTrace(context.Background(), "HEAD", "0")
		if err != nil || len(recs) != 1 {
			t.Fatalf("AgentTrace: %v %d", err, len(recs))
		}
		if c := recs[0].Files[0].Conversations[0]; c.Contributor.ModelID != "model-new" {
			t.Fatalf("Agent Trace model = %q, want model-new", c.Contributor.ModelID)
		}
		e.Close()
		return
	}
}
