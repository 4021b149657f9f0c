package ops_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
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
