package ops_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/git-edit/git-edit/ops"
	"github.com/git-edit/git-edit/repo/gittest"
	"github.com/git-edit/git-edit/undo"
)

// UndoSet (what `undo --turn` builds on) takes back several edits in one
// commit, selectively: two edits of one file and one of another, with a
// later edit between them that stays. The commit names every target in its
// own Edit-Undoes trailer; a set chosen at an older tip is refused.
func TestUndoSetIsOneSelectiveCommit(t *testing.T) {
	dir := gittest.NewWithCommit(t, map[string]string{"f.txt": "a\nb\nc\nd\ne\nf\ng\n", "g.txt": "g\n"})
	e, err := ops.Open(ops.Options{Root: dir, Session: "s"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	ctx := context.Background()
	replace := func(path, old, new string) string {
		args, _ := json.Marshal(map[string]string{"command": "str_replace", "path": path, "old_str": old, "new_str": new})
		if res, err := e.Call(ctx, "text_editor", args); err != nil || !res.OK {
			t.Fatalf("str_replace %s: %v %s", path, err, res.Text)
		}
		return strings.TrimSpace(gittest.Git(t, dir, "rev-parse", "refs/edits/s"))
	}
	e1 := replace("f.txt", "a", "A")
	replace("f.txt", "d", "D") // stays (git counts edits of adjacent lines as a conflict)
	e3 := replace("g.txt", "g", "G")
	e4 := replace("f.txt", "g", "G")
	tip, err := e.Session.Tip()
	if err != nil {
		t.Fatal(err)
	}
	var rs []undo.Reversal
	for _, id := range []string{e4, e3, e1} { // newest first
		r, err := undo.PickUndo(e.Session, tip, id)
		if err != nil {
			t.Fatal(err)
		}
		rs = append(rs, r)
	}
	res, err := e.UndoSet(ctx, tip, rs, false)
	if err != nil {
		t.Fatal(err)
	}
	expectFiles(t, dir, map[string]string{"f.txt": "a\nb\nc\nD\ne\nf\ng\n", "g.txt": "g\n"})
	if n := strings.Count(gittest.Git(t, dir, "log", "--format=%H", res.Commit.String()+"~1..refs/edits/s"), "\n"); n != 1 {
		t.Fatalf("%d commits, want 1", n)
	}
	undoes := gittest.Git(t, dir, "log", "-1", "--format=%(trailers:key=Edit-Undoes,valueonly)", "refs/edits/s")
	if strings.Fields(undoes)[0] != e4 || strings.Fields(undoes)[1] != e3 || strings.Fields(undoes)[2] != e1 {
		t.Fatalf("Edit-Undoes: %q, want %s %s %s", undoes, e4, e3, e1)
	}
	// Each of them is undone now; the edit left in effect is still undoable.
	if _, err := undo.PickUndo(e.Session, res.Commit, e1); !errors.Is(err, undo.ErrNothingToUndo) {
		t.Fatalf("undo of e1 again: %v", err)
	}
	if _, err := e.UndoSet(ctx, tip, rs, false); !errors.Is(err, undo.ErrMoved) {
		t.Fatalf("a set chosen at an older tip: %v, want ErrMoved", err)
	}
	gittest.Fsck(t, dir)
}
